"""Games handed to another phone by QR code (#53): storage/handoff.py, no browser.

What a player on phone B checks: the games that arrive are exactly those phone A showed,
whatever order the camera caught the codes in; a code missed, misread or from the phone
beside it never gives a wrong game, only one line saying what is wrong."""
from __future__ import annotations

import json
import random
import re
import zlib

import base45
import pytest
import segno
from hypothesis import HealthCheck, given, settings, strategies as st

import scoring
from storage import Store, handoff
from storage.export_file import export_bytes, export_text
from storage.handoff import Frames, frame_header, frames_of, frames_of_payload, games_of, payload_of
from storage.reader import IMPORT_LIMIT, Refused, import_bytes
from tests import finished_examples
from tests.records_for_tests import record

STAMP = "2026-11-28T05:00:00Z"
QR_ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
FRAME = re.compile(r"PANDAPAD/1/([1-9][0-9]*)/([1-9][0-9]*)/([0-9A-F]{8})/")

EXAMPLES = {game: make().to_json() for game, make in finished_examples.ALL.items()}
TEN = finished_examples.ten_players().to_json()


def in_progress() -> dict:
    """A Panda Royale game of three in its third round, the third hand not entered yet."""
    hands = {"ann": {"yellow": [4]}, "ben": {"yellow": [6]}, "cleo": {"yellow": [2]}}
    data = record("panda-royale", ["Ann", "Ben", "Cleo"], rounds=[
        {"hands": hands}, {"hands": {"ann": {"yellow": [3, 1], "red": [5]}, "ben": {"yellow": [2, 2]},
                                     "cleo": {"yellow": [6, 1], "glitter": [2]}}},
        {"hands": {"ann": {"yellow": [1, 2, 3]}, "ben": {"yellow": [5, 5, 1], "pink": 7}}}])
    return scoring.parse_record({**data, "id": "live-1", "created": "2026-11-28T04:10:00Z",
                                 "finished": None}).to_json()


def arrived(frames: list[str]) -> list[dict]:
    """The records phone B would store: read as every import is."""
    return [json.loads(game.record) for game in games_of(frames, "the other phone", IMPORT_LIMIT)]


def refusal(texts: list[str], limit: int = IMPORT_LIMIT) -> str:
    with pytest.raises(Refused) as caught:
        payload_of(texts, limit, "the other phone")
    line = str(caught.value)
    assert "\n" not in line and line.startswith("the other phone: ")
    return line


def independent_frames(data: bytes, n: int, checksum: str | None = None) -> list[str]:
    """Format 1 written from storage/README.md alone, for data already packed (or not)."""
    checksum = checksum or f"{zlib.crc32(data):08X}"
    q, r = divmod(len(data), n)
    sizes = [q + 1] * r + [q] * (n - r)
    cuts = [sum(sizes[:i]) for i in range(n + 1)]
    return [f"PANDAPAD/1/{k}/{n}/{checksum}/" + base45.b45encode(data[cuts[k - 1]:cuts[k]]).decode()
            for k in range(1, n + 1)]


def qr(text: str):
    return segno.make(text, error="m", boost_error=False, micro=False)


def test_the_densest_code_is_version_20_and_max_chars_is_what_it_holds():
    assert handoff.MAX_VERSION == 20
    fits, too_many = qr("A" * handoff.MAX_CHARS), qr("A" * (handoff.MAX_CHARS + 1))
    assert (fits.version, fits.mode, fits.error) == (20, "alphanumeric", "M")
    assert too_many.version == 21


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_each_worked_example_arrives_exactly_as_it_was(game):
    original = EXAMPLES[game]
    frames = frames_of([original], STAMP)
    assert len(frames) == 1  # a rules example is one code
    assert arrived(frames) == [original]
    assert payload_of(frames, IMPORT_LIMIT) == export_text([original], STAMP).encode("utf-8")
    assert json.loads(payload_of(frames, IMPORT_LIMIT)) == {
        "format": "pandapad/export", "version": 1, "exported": STAMP, "games": [original]}
    assert qr(frames[0]).version <= 20


def test_the_largest_game_takes_several_frames_each_a_light_alphanumeric_code():
    frames = frames_of([TEN], STAMP)
    assert 1 < len(frames) <= 4
    for frame in frames:
        assert set(frame) <= QR_ALPHANUMERIC
        code = qr(frame)
        assert code.mode == "alphanumeric" and code.version <= handoff.MAX_VERSION
        assert len(frame) <= handoff.MAX_CHARS
    assert arrived(frames) == [TEN]
    # the fewest frames that fit: one frame less would not
    data = zlib.compress(export_text([TEN], STAMP).encode("utf-8"), 9)
    fewer = independent_frames(data, len(frames) - 1)
    assert max(len(f) for f in fewer) > handoff.MAX_CHARS
    assert qr(max(fewer, key=len)).version > handoff.MAX_VERSION


def test_the_frames_are_format_1_as_the_readme_states_it():
    for records in ([EXAMPLES["royal-ur"]], [TEN], list(EXAMPLES.values())):
        frames = frames_of(records, STAMP)
        data = zlib.compress(export_text(records, STAMP).encode("utf-8"), 9)
        assert frames == independent_frames(data, len(frames))
        for k, frame in enumerate(frames, 1):
            assert frame_header(frame) == (1, k, len(frames), f"{zlib.crc32(data):08X}")


def test_a_night_of_five_finished_games_arrives_whole_and_in_order():
    night = list(EXAMPLES.values())
    frames = frames_of(night, STAMP)
    assert arrived(frames) == night
    assert all(qr(f).version <= 20 for f in frames)


def test_a_game_in_progress_arrives_still_in_progress():
    game = in_progress()
    got = arrived(frames_of([game], STAMP))
    assert got == [game] and got[0]["finished"] is None
    assert len(got[0]["rounds"][2]["hands"]) == 2  # the third hand still to be entered


def test_codes_caught_in_any_order_and_again_among_other_codes():
    night = list(EXAMPLES.values()) + [TEN]
    frames = frames_of(night, STAMP)
    assert len(frames) >= 3
    shown = frames * 3 + ["https://example.com/menu", "WIFI:S:cafe;T:WPA;P:x;;"]
    random.Random(53).shuffle(shown)
    assert arrived(shown) == night

    collector = Frames("the other phone")
    said = [collector.add(text) for text in shown]
    assert said.count("new") == len(frames) and said.count("foreign") == 2
    assert said.count("again") == 2 * len(frames)
    assert collector.complete and collector.have == collector.n == len(frames)


def test_a_missing_frame_is_named():
    frames = frames_of([TEN, *EXAMPLES.values()], STAMP)
    n = len(frames)
    assert n >= 3
    for k in range(1, n + 1):
        line = refusal(frames[:k - 1] + frames[k:])
        assert line == f"the other phone: code {k} of {n} is missing"
    assert refusal(frames[:1]).endswith(f"{n - 1} of the {n} codes are missing ({', '.join(map(str, range(2, n + 1)))})")
    collector = Frames()
    collector.add(frames[-1])
    assert (collector.have, collector.n, collector.complete, collector.missing) == (1, n, False, list(range(1, n)))


@pytest.mark.parametrize("records", [[EXAMPLES["pass-the-pandas"]], [TEN]], ids=["one frame", "several frames"])
def test_one_character_changed_anywhere_never_gives_a_game(records):
    frames = frames_of(records, STAMP)
    for which, frame in enumerate(frames):
        for at, char in enumerate(frame):
            for other in ("A" if char != "A" else "B", "/" if char != "/" else ":"):  # data, header
                changed = list(frames)
                changed[which] = frame[:at] + other + frame[at + 1:]
                refusal(changed)


def test_a_misread_data_character_is_caught_by_the_checksum():
    frames = frames_of([TEN], STAMP)
    at = FRAME.match(frames[0]).end() + 10
    swapped = frames[0][:at] + ("B" if frames[0][at] != "B" else "C") + frames[0][at + 1:]
    assert refusal([swapped, *frames[1:]]) == ("the other phone: the codes do not match their checksum: "
                                               "one was misread or changed")


def test_a_frame_of_another_transfer_is_ignored_never_mixed():
    ours, theirs = frames_of([TEN], STAMP), frames_of([TEN], "2026-11-28T05:00:01Z")
    assert len(ours) == len(theirs) and ours[0] != theirs[0]
    collector = Frames()
    assert collector.add(ours[0]) == "new"
    assert collector.add(theirs[1]) == "other"
    assert collector.add(theirs[0]) == "other"
    assert (collector.have, collector.complete) == (1, False)
    assert collector.add(ours[1]) == "new"
    mixed = [ours[0], theirs[1], theirs[0], *ours[1:]]
    assert payload_of(mixed, IMPORT_LIMIT) == export_text([TEN], STAMP).encode()
    # the first frame read decides: theirs, and ours missing from them is named
    assert refusal([theirs[0], *ours[1:]]) == f"the other phone: code 2 of {len(ours)} is missing"


def test_a_url_or_another_apps_code_is_foreign():
    collector = Frames()
    for text in ("https://pandapad.app/?token=abc", "", "pandapad/1/1/1/00000000/AB", "PANDAPAD", "HELLO WORLD"):
        assert collector.add(text) == "foreign"
    assert frame_header("https://pandapad.app/") is None
    assert collector.have == 0 and collector.n is None and not collector.complete
    assert refusal(["https://pandapad.app/"]) == "the other phone: none of the codes read is a Pandapad code"


@pytest.mark.parametrize("text, says", [
    ("PANDAPAD/1/1/1000000/00000000/AB", "code 1 of 1000000: a sending has 1 to 999 codes"),
    ("PANDAPAD/1/1/" + "9" * 40 + "/00000000/AB", "its header is not PANDAPAD/1/<k>/<n>/<checksum>/"),
    ("PANDAPAD/1/6/5/00000000/AB", "code 6 of 5: there is no such code: codes count from 1 to 5"),
    ("PANDAPAD/1/0/5/00000000/AB", "code 0 of 5: there is no such code"),
    ("PANDAPAD/1/1/0/00000000/AB", "code 1 of 0: a sending has 1 to 999 codes"),
    ("PANDAPAD/1/01/5/00000000/AB", "its header is not"),
    ("PANDAPAD/1/1/5/0000000G/AB", "its header is not"),
    ("PANDAPAD/1/1/5/abcdef01/AB", "its header is not"),
    ("PANDAPAD/1/1/5/ABCDEF0/AB", "its header is not"),
    ("PANDAPAD/2/1/1/00000000/AB", "made by a newer Pandapad (format 2); this one reads format 1"),
    ("PANDAPAD/17/ANYTHING ELSE", "made by a newer Pandapad (format 17); this one reads format 1"),
    ("PANDAPAD/0/1/1/00000000/AB", "a code of format 0, which no Pandapad writes"),
    ("PANDAPAD/1/1/1/00000000/" + "A" * 5000, "more than any QR code holds"),
    ("PANDAPAD/1/1/1\n/00000000/AB", "its header is not"),
])
def test_a_hostile_header_is_refused_in_one_line(text, says):
    assert says in refusal([text])
    with pytest.raises(Refused):
        Frames().add(text)


@pytest.mark.parametrize("chunk, says", [
    ("AB\n", "code 1 of 1: not Base45 ('\\n' at character 3 is not in its alphabet)"),
    ("ab", "code 1 of 1: not Base45 ('a' at character 1 is not in its alphabet)"),
    ("ABCD", "code 1 of 1: not Base45 (one character left over at its end)"),
    (":::", "code 1 of 1: not Base45 (a group of three characters stands for a number above 65535)"),
])
def test_a_frame_that_is_not_base45_is_named(chunk, says):
    assert refusal([f"PANDAPAD/1/1/1/00000000/{chunk}"]) == f"the other phone: {says}"


def test_a_zip_bomb_is_refused_at_the_limit_without_unpacking_it_all():
    payload = b" " * (20 * 1024 * 1024)
    frames = frames_of_payload(payload)
    assert len(frames) <= 40  # 20 MB of spaces pack into 20 kB (deflate's most: about 1,000 to 1)
    assert refusal(frames, limit=1024 * 1024) == "the other phone: more than 1048576 bytes once unpacked"
    assert refusal(frames, limit=len(payload) - 1).endswith(f"more than {len(payload) - 1} bytes once unpacked")
    assert payload_of(frames, len(payload)) == payload


def test_packed_data_cut_short_or_followed_by_more_or_not_zlib_is_refused():
    data = zlib.compress(export_text([TEN], STAMP).encode(), 9)
    assert refusal(independent_frames(data[:-6], 1)).endswith("the packed games stop short: a code was cut off")
    assert refusal(independent_frames(data + b"\0\0", 1)).endswith("extra bytes after the packed games: 2")
    assert "not packed by zlib" in refusal(independent_frames(b"not zlib at all", 1))


def test_what_arrives_is_read_as_every_import():
    not_games = frames_of_payload(b'{"format": "pandapad/export", "version": 1, "games": [{"game": "chess"}]}')
    with pytest.raises(Refused) as caught:
        games_of(not_games, "the other phone")
    assert str(caught.value).startswith("the other phone: games[0]")
    newer = frames_of_payload(b'{"format": "pandapad/export", "version": 9, "games": []}')
    with pytest.raises(Refused, match="update Pandapad"):
        games_of(newer, "the other phone")
    assert import_bytes(payload_of(frames_of([TEN], STAMP)), "x")[0].id == TEN["id"]


def test_export_text_is_what_main_py_export_writes(tmp_path):
    with Store.open(tmp_path) as store:
        for record_ in [*EXAMPLES.values(), in_progress()]:
            store.save(scoring.parse_record(record_), None)
        written, count = export_bytes(store, "json")
        stamp = json.loads(written)["exported"]
        assert export_text(list(store.iter_records()), stamp).encode("utf-8") == written and count == 6


def test_too_much_for_codes_is_a_value_error_not_a_thousand_frames():
    with pytest.raises(ValueError, match="export a file instead"):
        frames_of_payload(random.Random(1).randbytes(700_000))


# -- never a traceback, whatever the camera gives ---------------------------------------------

SOME = frames_of([TEN], STAMP)
OTHER = frames_of([EXAMPLES["pandoria"], in_progress()], STAMP)
ONE = frames_of([EXAMPLES["royal-ur"]], STAMP)
EXPECTED = {tuple(SOME): export_text([TEN], STAMP).encode(),
            tuple(OTHER): export_text([EXAMPLES["pandoria"], in_progress()], STAMP).encode(),
            tuple(ONE): export_text([EXAMPLES["royal-ur"]], STAMP).encode()}
HEADERS = st.builds(lambda v, k, n, c: f"PANDAPAD/{v}/{k}/{n}/{c}/",
                    st.sampled_from(["1", "1", "2", "0", "01", ""]), st.integers(-1, 12).map(str),
                    st.integers(-1, 12).map(str), st.sampled_from(["00000000", FRAME.match(SOME[0]).group(3), "ZZZZZZZZ", "0"]))
TEXTS = st.one_of(st.text(max_size=60), HEADERS,
                  st.tuples(HEADERS, st.text(alphabet=sorted(QR_ALPHANUMERIC) + ["a", "\n"], max_size=40)).map("".join))


def outcome(texts: list[str]) -> bytes | None:
    """payload_of's bytes, or None for a refusal; anything else fails the test."""
    try:
        return payload_of(texts, 64 * 1024, "the other phone")
    except Refused as exc:
        assert "\n" not in str(exc)
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXTS, max_size=8))
def test_any_texts_are_read_or_refused_in_one_line(texts):
    outcome(texts)
    collector = Frames()
    for text in texts:
        try:
            assert collector.add(text) in ("new", "again", "other", "foreign")
        except Refused as exc:
            assert "\n" not in str(exc)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(EXPECTED)), st.data())
def test_damaged_dropped_or_mixed_frames_never_give_a_wrong_game(frames, data):
    frames = list(frames)
    changed = data.draw(st.booleans())
    if changed:  # one character of one frame becomes another
        which = data.draw(st.integers(0, len(frames) - 1))
        at = data.draw(st.integers(0, len(frames[which]) - 1))
        char = data.draw(st.sampled_from(sorted(QR_ALPHANUMERIC | {"a", "\n"}) ).filter(lambda c: c != frames[which][at]))
        frames[which] = frames[which][:at] + char + frames[which][at + 1:]
    dropped = data.draw(st.sets(st.integers(0, len(frames) - 1), max_size=len(frames) - 1))
    kept = [f for i, f in enumerate(frames) if i not in dropped]
    strangers = data.draw(st.lists(st.sampled_from(list(EXPECTED)).flatmap(st.sampled_from), max_size=4))
    shown = data.draw(st.permutations(kept + strangers))
    got = outcome(shown)
    if got is not None:  # whatever is read is one transfer exactly as it was written
        assert got in EXPECTED.values()
        first = next(f for f in shown if frame_header(f) is not None)
        assert got == next(v for k, v in EXPECTED.items() if first in k)
    if not changed and not dropped and not strangers:
        assert got == EXPECTED[tuple(frames)]
