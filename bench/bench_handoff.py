"""What handing games to another phone by QR code costs (#53, storage/handoff.py): per case the
export JSON, zlib and Base45 sizes, the frames, the QR version of the largest frame at level M,
and the milliseconds to write the frames and read them back into games (median of 20).

Run: python bench/bench_handoff.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import segno  # noqa: E402

import scoring  # noqa: E402
from storage import samples  # noqa: E402
from storage.export_file import export_text  # noqa: E402
from storage.handoff import frames_of, games_of  # noqa: E402
from tests import finished_examples  # noqa: E402
from tests.records_for_tests import record  # noqa: E402

STAMP = "2026-11-28T05:00:00Z"
CREATED, FINISHED = finished_examples.CREATED, finished_examples.FINISHED
REPEATS = 20


def finished(data: dict, gid: str) -> dict:
    return scoring.parse_record({**data, "id": gid, "created": CREATED, "finished": FINISHED}).to_json()


def three_players(rng: random.Random) -> dict[str, dict]:
    """A whole game of each pad for three players (Royal Ur: two, its only count)."""
    when = datetime(2026, 11, 24, 19, 4, tzinfo=timezone.utc)
    royale = samples.finished_game(rng, "bench-pr", when, players=3).to_json()
    ur = finished(record("royal-ur", ["Ann", "Ben"], rounds=[
        {"winner": "ann", "loser": {"unentered": 2, "start": 1, "home": 3, "board": [1]}},
        {"winner": "ben", "loser": {"unentered": 1, "start": 2, "home": 1, "board": [5, 1, 1]}},
        {"winner": "ann", "loser": {"unentered": 0, "start": 3, "home": 2, "board": [4, 2]}}]), "bench-ur")
    ids = ["ann", "ben", "cleo"]
    nokosu = []
    for _ in range(8):
        tricks = [rng.randint(0, 12)]
        tricks.append(rng.randint(0, 12 - tricks[0]))
        tricks.append(12 - sum(tricks))
        nokosu.append({"declared": {p: rng.randint(0, 6) for p in ids}, "tricks": dict(zip(ids, tricks))})
    nk = finished(record("nokosu-dice", ["Ann", "Ben", "Cleo"], rounds=nokosu), "bench-nk")
    log = [{"player": rng.choice(ids), "points": rng.randint(1, 8), "note": rng.choice(["", "city closed", "road"])}
           for _ in range(24)]
    pa = finished(record("pandoria", ["Ann", "Ben", "Cleo"], settings={"mode": "standard"}, log=log,
                         final={p: {"cards": rng.randint(0, 5), "wood": rng.randint(0, 9), "gold": rng.randint(0, 9),
                                    "crystal": rng.randint(0, 9)} for p in ids}), "bench-pa")
    hands = []
    for _ in range(6):
        order = rng.sample(ids, 3)
        hands.append({"out": [{"player": p, "points": rng.randint(1, 15)} for p in order[:2]]})
    pp = finished(record("pass-the-pandas", ["Ann", "Ben", "Cleo"], settings={"variant": "panda-monium", "target": 60},
                         rounds=hands), "bench-pp")
    return {"panda-royale": royale, "royal-ur": ur, "nokosu-dice": nk, "pandoria": pa, "pass-the-pandas": pp}


def in_progress(rng: random.Random) -> dict:
    """Four players, five rounds of ten entered and the sixth half-way."""
    game = samples.finished_game(rng, "bench-live", datetime(2026, 11, 24, 19, 4, tzinfo=timezone.utc), players=4)
    data = game.to_json()
    rounds = data["rounds"][:6]
    rounds[5] = {**rounds[5], "hands": dict(list(rounds[5]["hands"].items())[:2])}
    return scoring.parse_record({**data, "rounds": rounds, "finished": None}).to_json()


def ten_random(rng: random.Random) -> dict:
    """Ten players of 40-character names and random dice in all ten rounds (samples.py): the
    largest game as it really packs (the test's ten_players repeats its dice and packs better)."""
    game = samples.finished_game(rng, "bench-ten", datetime(2026, 11, 24, 19, 4, tzinfo=timezone.utc), players=10)
    data = game.to_json()
    for k, player in enumerate(data["players"]):
        player["name"] = (f"{player['name']} {k} " + "Ä" * 40)[:40]
    return scoring.parse_record(data).to_json()


def sizes(records: list[dict]) -> tuple[int, int, int, int, int]:
    """JSON bytes, zlib bytes, Base45 characters, frames, QR version of the largest frame (M)."""
    payload = export_text(records, STAMP).encode("utf-8")
    packed = zlib.compress(payload, 9)
    frames = frames_of(records, STAMP)
    base45_chars = sum(len(f.split("/", 5)[5]) for f in frames)
    version = segno.make(max(frames, key=len), error="m", boost_error=False, micro=False).version
    return len(payload), len(packed), base45_chars, len(frames), version


def measure(records: list[dict]) -> tuple[int, int, int, int, int, float]:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        games = games_of(frames_of(records, STAMP), "bench")
        times.append((time.perf_counter() - start) * 1000)
        assert len(games) == len(records)
    return (*sizes(records), statistics.median(times))


def cases() -> list[tuple[str, list[dict], bool]]:
    """(name, records, whether issue #53 names the case): the worked examples and the random-dice
    ten are this bench's own (bench/bench_handoff_camera.py reads the issue's by camera)."""
    rng = random.Random(53)
    three = three_players(rng)
    found = [(f"{game}: worked example ({len(make().players)} players)", [make().to_json()], False)
             for game, make in finished_examples.ALL.items()]
    found += [(f"{game}: whole game, {len(r['players'])} players", [r], True) for game, r in three.items()]
    found += [("panda-royale: 10 players, 10 rounds, 40-char names", [finished_examples.ten_players().to_json()], True),
              ("the same with random dice (samples.py)", [ten_random(rng)], False),
              ("a game in progress (panda-royale, 4 players, round 6)", [in_progress(rng)], True),
              ("a night of five finished games (the whole games above)", list(three.values()), True)]
    return found


def main() -> int:
    rows = [(name, records) for name, records, _ in cases()]
    head = ("case", "JSON B", "zlib B", "Base45 ch", "frames", "QR ver (M)", "enc+dec ms")
    width = max(len(c) for c, _ in rows)
    print(f"{head[0]:<{width}}  " + "  ".join(f"{h:>10}" for h in head[1:]))
    for name, records in rows:
        json_b, zlib_b, chars, frames, version, ms = measure(records)
        print(f"{name:<{width}}  {json_b:>10,}  {zlib_b:>10,}  {chars:>10,}  {frames:>10}  {version:>10}  {ms:>10.1f}")
    print(f"(enc+dec: frames_of, then payload_of and import_bytes; median of {REPEATS}; "
          f"{sys.version.split()[0]}, this machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
