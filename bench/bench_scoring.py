"""Scoring a finished 10-player Panda Royale game in-process, and `main.py score` as a process.

Run: python bench/bench_scoring.py
"""
from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
from scoring import panda_royale as pr  # noqa: E402


def finished_game(players: int = 10, seed: int = 1) -> dict:
    """A full 10-round game: r dice in round r, pink dice where the pity rule sent them."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    record = pr.Record(id="bench", players=tuple(scoring.Player(id=p, name=f"Player {p}") for p in ids))
    for r in range(pr.ROUNDS):
        pinks = pr.pity_for(record, r) or []
        for pid in ids:
            colours = ["yellow"] + [rng.choice(pr.DIE_LISTS) for _ in range(r)]
            for colour in colours:
                face = rng.randint(1, pr.FACES[colour])
                face = face if colour != "red" or rng.random() < 0.6 else -face
                record = pr.add_die(record, r, pid, colour, min(face, 6) if r == 0 else face)
            if pid in pinks:
                record = pr.add_die(record, r, pid, "pink", rng.randint(1, 12))
    return record.to_json()


def main() -> None:
    data = finished_game()
    record = scoring.parse_record(data)
    runs = 300
    for label, fn in (("score(record)", lambda: scoring.score(record)),
                      ("parse + score", lambda: scoring.score(scoring.parse_record(data)))):
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(f"{label:16s} 10 players × 10 rounds: median {statistics.median(times):.2f} ms, "
              f"p95 {times[int(runs * 0.95)]:.2f} ms over {runs} runs")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "main.py"), "score", f.name], check=True,
                       capture_output=True)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"main.py score (whole process): median {statistics.median(times):.0f} ms over 10 runs")
    Path(f.name).unlink()


if __name__ == "__main__":
    main()
