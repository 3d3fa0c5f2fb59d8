"""Receive from another phone (#53), without a browser: what the camera's frames come to (the games,
or the reason they are refused in the phone's language), and a game handed back to the phone it
came from, played on meanwhile, coming in over its older self on a phone by itself."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from scoring import parse_record
from storage import Store
from storage.handoff import frames_of
from tests.records_for_tests import record
from views.words import lang
from views.handover.receive import ReceiveScreen, read_codes

STAMP = "2026-11-28T20:00:00Z"


def live(rounds: int):
    """A Panda Royale game in progress, `rounds` rounds entered."""
    hands = {"ann": {"yellow": [5]}, "ben": {"yellow": [2]}, "cat": {"yellow": [6]}}
    return parse_record({**record("panda-royale", ["Ann", "Ben", "Cat"], rounds=[{"hands": hands}] * rounds),
                         "id": "live", "created": "2026-11-28T19:00:00Z"})


def scanned(records) -> bytes:
    """The file camera.js hands over: the frames read, one a line."""
    return "\n".join(frames_of([r.model_dump(mode="json") for r in records], STAMP)).encode("ascii")


def test_the_frames_read_are_the_games_sent():
    games, problem = read_codes(scanned([live(2)]), "the codes")
    assert problem is None and [json.loads(g.record) for g in games] == [live(2).model_dump(mode="json")]


@pytest.mark.parametrize("code, said", [("en", "the codes do not match their checksum: one was misread or changed"),
                                        ("de", None)])
def test_a_changed_code_is_refused_in_the_phones_language(code, said):
    [frame] = frames_of([live(1).model_dump(mode="json")], STAMP)
    k = len(frame) - 3
    changed = frame[:k] + ("A" if frame[k] != "A" else "B") + frame[k + 1:]
    lang.set_language(code)
    try:
        games, problem = read_codes(changed.encode("ascii"), "the codes")
    finally:
        lang.set_language("en")
    assert games is None
    if said:
        assert problem in (said, "code 1 of 1: not Base45 (a group of three characters stands for a number above 65535)")
    else:  # German words, not the English of storage/handoff.py
        assert "misread" not in problem and "Base45 (a group" not in problem and problem


def test_characters_no_code_has_and_too_many_codes_are_refused_in_words():
    assert read_codes("PANDAPAD/1/1/1/ÄÄ".encode("utf-8"), "the codes") == (
        None, "A code holds characters no Pandapad code has.")
    # No second size check here (the screen checks the file's before reading it): a code longer
    # than any QR code holds is refused by storage/handoff.py, as every frame too many is.
    problem = read_codes(("PANDAPAD/1/1/1/00000000/" + "A" * (5 * 1024 * 1024)).encode("ascii"), "the codes")[1]
    assert "more than any QR code holds" in problem


def test_a_game_handed_back_after_more_rounds_comes_in_over_its_older_self_on_a_phone_by_itself(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(live(1), None)  # phone A handed it over after round 1, and kept its copy
        games, _problem = read_codes(scanned([live(3)]), "the codes")  # back from B after round 3
        phone = SimpleNamespace(host=SimpleNamespace(table=False))
        table = SimpleNamespace(host=SimpleNamespace(table=True))
        assert ReceiveScreen.keep_playing.fget(phone) is False
        assert ReceiveScreen.keep_playing.fget(table) is True
        # The laptop's table leaves it as it is (phones of the table may be on it) ...
        assert store.import_incoming(games, True, keep_in_progress=True).playing == 1
        # ... a phone by itself takes the newer rounds.
        report = store.import_incoming(games, False, keep_in_progress=False)
        assert (report.updated, report.playing) == (1, 0)
        assert len(store.load("live").record.rounds) == 3
        # And an older copy never takes them back.
        older, _problem = read_codes(scanned([live(2)]), "the codes")
        assert store.import_incoming(older, False, keep_in_progress=False).kept == 1
        assert len(store.load("live").record.rounds) == 3


def test_the_camera_gathers_frames_by_the_header_storage_writes():
    """assets/camera.js holds no copy of the frames' header (#70): it is told it with its words,
    from storage/handoff.py, and gathers by it what frames_of writes."""
    import random
    import re
    from pathlib import Path

    from storage.handoff import frames_of_payload
    from views.handover.receive import camera_words

    said = camera_words()
    frames = frames_of_payload(random.Random(70).randbytes(3000))  # no packing shrinks it
    assert len(frames) > 1
    for k, text in enumerate(frames, 1):
        version, got_k, n, _checksum = re.match(said["header"], text).groups()
        assert (int(version), int(got_k), int(n)) == (1, k, len(frames)) and int(n) <= said["most"]
    assert re.match(said["header"], "https://example.com/") is None
    camera = (Path(__file__).resolve().parent.parent / "assets" / "camera.js").read_text(encoding="utf-8")
    assert "PANDAPAD" not in camera and "said.header" in camera
