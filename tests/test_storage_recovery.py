"""Bad files at start: moved aside under a name that says so, last good backup restored,
notice given, nothing lost that was stored at the last successful start."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from storage import Store, StoreTooNew, samples
from storage.backup import KEEP, backups, manifest
from storage.layout import active_name

ROOT = Path(__file__).resolve().parents[1]


def tap_n(store, game_id, n, rng):
    saved = store.load(game_id)
    record = saved.record
    for _ in range(n):
        record = samples.tap(record, rng)
        saved = store.save(record, saved.revision)
    return saved


def make_store(path: Path) -> dict[str, int]:
    """A store with history and a game in progress, opened once more (the last successful
    start, which backs it up), then changed after that start. Returns the revision of each
    game as of that start."""
    rng = random.Random(21)
    with Store.open(path) as store:
        for game in samples.history(21, 5):
            store.save(game, None)
        store.save(samples.new_game(rng, "live", "2026-11-22T19:00:00Z", players=3), None)
        tap_n(store, "live", 12, rng)
        store.save(samples.new_game(rng, "live-2", "2026-11-22T19:05:00Z", players=2), None)
    with Store.open(path) as store:  # the last successful start
        at_start = {s.id: store.load(s.id).revision for s in store.recent(100) + store.in_progress()}
        tap_n(store, "live", 5, rng)  # saved after that start
        store.save(samples.finished_game(rng, "later", samples.START), None)
    return at_start


def truncated(raw: bytes) -> bytes:
    return raw[: len(raw) // 2]


def empty(raw: bytes) -> bytes:
    return b""


def garbage(raw: bytes) -> bytes:
    return b"\x00\xff\xfegarbage" + os.urandom(64)


def wrong_schema(raw: bytes) -> bytes:
    """Valid JSON, right TinyDB shape, but a record that fails validation (one player)."""
    data = json.loads(raw)
    table = next(iter(data.values()))
    doc = next(iter(table.values()))
    doc["record"]["players"] = doc["record"]["players"][:1]
    return json.dumps(data).encode()


def too_deep(raw: bytes) -> bytes:
    """Valid JSON nested beyond Python's recursion limit (RecursionError in json.loads)."""
    return b"[" * 100_000 + b"]" * 100_000


def huge_number(raw: bytes) -> bytes:
    """Valid JSON with a whole number of 5,000 digits (ValueError in json.loads)."""
    return raw.replace(b'"revision":', b'"revision":' + b"9" * 5000 + b",\"was\":", 1)


DAMAGE = {"truncated": (truncated, "did-not-parse"), "empty": (empty, "did-not-parse"),
          "garbage": (garbage, "did-not-parse"), "wrong-schema": (wrong_schema, "did-not-validate"),
          "too-deep": (too_deep, "did-not-parse"), "huge-number": (huge_number, "did-not-parse")}
TARGETS = {"active": f"active/{active_name('live')}", "history": "history-0001.json"}


def assert_nothing_lost(store: Store, at_start: dict[str, int]) -> None:
    for game_id, revision in at_start.items():
        assert store.load(game_id).revision >= revision, game_id


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("target", TARGETS)
def test_a_bad_file_is_moved_aside_and_the_last_good_backup_restored(tmp_path, target, damage):
    at_start = make_store(tmp_path)
    rel = TARGETS[target]
    spoil, reason = DAMAGE[damage]
    bad = spoil((tmp_path / rel).read_bytes())
    (tmp_path / rel).write_bytes(bad)
    with Store.open(tmp_path) as store:
        assert len(store.notices) >= 1
        notice = store.notices[0]
        assert rel in notice and reason.replace("-", " ") in notice
        assert "moved aside as" in notice and "restored it from the backup of" in notice
        aside = [p for p in (tmp_path / rel).parent.iterdir() if reason in p.name]
        assert len(aside) == 1 and aside[0].name in notice
        assert aside[0].read_bytes() == bad  # never deleted
        assert_nothing_lost(store, at_start)
        if target == "active" or damage == "wrong-schema":
            # saved after the start to a sound file, or a sound game of a file that parsed
            assert store.load("later").record.finished
    with Store.open(tmp_path) as store:
        assert store.notices == []  # repaired for good
        assert_nothing_lost(store, at_start)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "wrong-schema", "too-deep"])
def test_a_bad_index_is_moved_aside_and_rebuilt_from_its_history_file(tmp_path, damage):
    at_start = make_store(tmp_path)
    spoil, reason = DAMAGE[damage]
    path = tmp_path / "index-0001.json"
    if damage == "wrong-schema":
        data = json.loads(path.read_bytes())
        next(iter(data["summaries"].values()))["players"] = "everyone"
        path.write_text(json.dumps(data))
    else:
        path.write_bytes(spoil(path.read_bytes()))
    with Store.open(tmp_path) as store:
        [notice] = store.notices
        assert notice.startswith("index-0001.json ") and "rebuilt it from history-0001.json" in notice
        assert_nothing_lost(store, at_start)
        assert len(store.recent(100)) == 6


def test_a_game_finished_after_the_backup_survives_the_loss_of_its_history_file(tmp_path):
    rng = random.Random(22)
    with Store.open(tmp_path) as store:
        store.save(samples.finished_game(rng, "old", samples.START), None)
        store.save(samples.new_game(rng, "live", "2026-11-22T19:00:00Z", players=2), None)
        tap_n(store, "live", 3, rng)
    with Store.open(tmp_path) as store:  # backup: "live" in progress at revision 4
        saved = tap_n(store, "live", 400, rng)  # ... then finished: it moves to history-0001
        assert saved.record.finished
    (tmp_path / "history-0001.json").write_bytes(b"")
    with Store.open(tmp_path) as store:
        assert any("brought back 1 game" in n for n in store.notices)
        assert store.load("live").revision >= 4 and store.load("old").record.finished


def test_the_newest_good_backup_is_used_when_the_newest_copy_is_bad(tmp_path):
    at_start = make_store(tmp_path)
    Store.open(tmp_path).close()  # a second backup
    rel = f"active/{active_name('live')}"
    newest = backups(tmp_path)[0]
    copy = newest / rel
    data = copy.read_bytes()
    copy.unlink()  # break the link before spoiling it, so the older backup keeps its copy
    copy.write_bytes(truncated(data))
    (tmp_path / rel).write_bytes(b"{")
    with Store.open(tmp_path) as store:
        assert "restored it from the backup of" in store.notices[0]
        assert newest.name not in store.notices[0]
        assert store.load("live").revision == at_start["live"]  # as of the older backup


def test_a_missing_history_file_is_restored(tmp_path):
    at_start = make_store(tmp_path)
    (tmp_path / "history-0001.json").unlink()
    with Store.open(tmp_path) as store:
        assert "history-0001.json was missing; restored it" in store.notices[0]
        assert_nothing_lost(store, at_start)


def test_a_bad_file_with_no_backup_is_still_kept_and_reported(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(samples.new_game(random.Random(1), "live", "2026-11-22T19:00:00Z"), None)
    rel = f"active/{active_name('live')}"
    (tmp_path / rel).write_bytes(b"[1, 2")
    with Store.open(tmp_path) as store:
        assert "no backup holds a good copy" in store.notices[0]
        assert [p.name for p in (tmp_path / "active").iterdir() if "did-not-parse" in p.name]


def test_temporary_files_of_interrupted_writes_are_swept(tmp_path):
    make_store(tmp_path)
    stale = [tmp_path / ".history-0001.json.tmp-0123456789ab",
             tmp_path / "active" / f".{active_name('live')}.tmp-ba9876543210"]
    for p in stale:
        p.write_bytes(b'{"half": ')
    (tmp_path / "backups" / ".partial-20260101T000000000000Z").mkdir()
    with Store.open(tmp_path) as store:
        assert store.notices == []
        assert not any(p.exists() for p in stale)
        assert not (tmp_path / "backups" / ".partial-20260101T000000000000Z").exists()


def test_a_crash_between_a_history_file_and_its_index_is_repaired_silently(tmp_path):
    at_start = make_store(tmp_path)
    index = tmp_path / "index-0001.json"
    data = json.loads(index.read_bytes())
    data["meta"]["1"]["chunk_sha256"] = "0" * 64  # the index of the chunk before the last write
    index.write_text(json.dumps(data))
    with Store.open(tmp_path) as store:
        assert store.notices == []
        assert_nothing_lost(store, at_start)
    assert json.loads(index.read_bytes())["meta"]["1"]["chunk_sha256"] != "0" * 64


def test_a_crash_while_a_game_moves_to_the_history_keeps_one_copy(tmp_path):
    rng = random.Random(23)
    with Store.open(tmp_path) as store:
        store.save(samples.new_game(rng, "live", "2026-11-22T19:00:00Z", players=2), None)
        tap_n(store, "live", 3, rng)
    path = tmp_path / "active" / active_name("live")
    old = path.read_bytes()
    with Store.open(tmp_path) as store:
        saved = tap_n(store, "live", 400, rng)
        assert saved.record.finished and not path.exists()
    path.write_bytes(old)  # as if killed after writing the history, before removing this file
    with Store.open(tmp_path) as store:
        assert store.notices == [] and store.in_progress() == []
        assert store.load("live").revision == saved.revision
        assert not path.exists()


def test_backups_roll_keeping_the_last_few_and_link_unchanged_files(tmp_path):
    make_store(tmp_path)
    Store.open(tmp_path).close()
    first = backups(tmp_path)
    for _ in range(KEEP + 2):  # opening to read changes nothing: no backup is taken, none rolls out (#22)
        Store.open(tmp_path).close()
    assert backups(tmp_path) == first
    rng = random.Random(5)
    for _ in range(KEEP + 2):  # a tap between opens: each open backs up what changed
        with Store.open(tmp_path) as store:
            tap_n(store, "live", 1, rng)
    kept = backups(tmp_path)
    assert len(kept) == KEEP
    newest, older = kept[0], kept[1]
    assert set(manifest(newest)) == {"history-0001.json", "index-0001.json",
                                     f"active/{active_name('live')}", f"active/{active_name('live-2')}"}
    same = os.stat(newest / "history-0001.json").st_ino == os.stat(older / "history-0001.json").st_ino
    assert same  # unchanged since the previous backup: hard-linked, not copied again
    assert os.stat(newest / "history-0001.json").st_ino != os.stat(tmp_path / "history-0001.json").st_ino


def test_a_store_with_records_newer_than_the_app_is_refused_untouched(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(samples.new_game(random.Random(1), "live", "2026-11-22T19:00:00Z"), None)
    path = tmp_path / "active" / active_name("live")
    data = json.loads(path.read_bytes())
    data["game"]["1"]["record"]["version"] = 2
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(StoreTooNew) as caught:
        Store.open(tmp_path)
    assert "version 2" in str(caught.value) and "version 1" in str(caught.value)
    assert path.read_bytes() == before
    with pytest.raises(StoreTooNew):  # again: the failed open released its lock
        Store.open(tmp_path)


@pytest.mark.parametrize("damage", ["garbage", "too-deep", "huge-number"])
def test_the_command_line_says_what_open_repaired(tmp_path, damage):
    make_store(tmp_path)
    path = tmp_path / "history-0001.json"
    path.write_bytes(DAMAGE[damage][0](path.read_bytes()))
    run = subprocess.run([sys.executable, "main.py", "list", "--data-dir", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert "Traceback" not in run.stderr
    # the game saved since the last start, into the damaged file, is read from what is left of
    # the file when its text still holds it whole, else named as lost (#22)
    notice, later = run.stderr.splitlines()
    if damage == "huge-number":  # the number is in another game: "later" still reads
        assert later == f"pandapad: {tmp_path}: kept 1 sound game saved since the last start from the file moved aside."
    else:
        assert later.startswith(f"pandapad: {tmp_path}: could not keep game later (panda-royale of ")
        assert "its file is damaged and no backup holds it; what is left of it is in " \
               "history-0001.did-not" in later
    how = "it is not UTF-8 text" if damage == "garbage" else "line 1 column "  # bytes first, JSON second
    assert notice.startswith(f"pandapad: {tmp_path}: history-0001.json (history file) did not parse ({how}")
    assert "moved aside as history-0001.did-not-parse-" in notice and "restored it from the backup" in notice
    # the 7 games stored at the last successful start ("later" was saved since, into the bad file)
    assert len(run.stdout.splitlines()) == (8 if damage == "huge-number" else 7)


def test_a_repair_cut_short_is_finished_at_the_next_open(tmp_path):
    at_start = make_store(tmp_path)
    # As if killed mid-repair: a game's file was already moved aside, the marker still there.
    (tmp_path / "active" / active_name("live-2")).unlink()
    (tmp_path / "recovery-pending").write_text("repair under way\n")
    with Store.open(tmp_path) as store:
        assert any("brought back 1 game" in n for n in store.notices)
        assert_nothing_lost(store, at_start)
    assert not (tmp_path / "recovery-pending").exists()
    with Store.open(tmp_path) as store:
        assert store.notices == []


def test_an_undo_step_nested_too_deeply_is_a_file_that_did_not_validate(tmp_path):
    at_start = make_store(tmp_path)
    path = tmp_path / "active" / active_name("live")
    data = json.loads(path.read_bytes())
    data["game"]["1"]["undo"][0] = "[" * 100_000 + "]" * 100_000
    path.write_text(json.dumps(data))
    with Store.open(tmp_path) as store:
        assert "did not validate" in store.notices[0] and "an undo step is not readable JSON" in store.notices[0]
        assert_nothing_lost(store, at_start)


def test_a_python_without_hard_links_backs_up_and_repairs_by_copying(tmp_path, monkeypatch):
    """The phone build's Python (Pyodide) has no os.link at all: a backup of an unchanged file and a
    damaged file set aside both copy instead (an AttributeError there stopped the app on a phone
    whose store needed repair)."""
    monkeypatch.delattr(os, "link")
    at_start = make_store(tmp_path)
    rng = random.Random(7)
    for _ in range(2):  # a tap between opens: the second backup finds files unchanged since the first
        with Store.open(tmp_path) as store:
            tap_n(store, "live", 1, rng)
    newest, older = backups(tmp_path)[:2]
    assert (newest / "history-0001.json").read_bytes() == (older / "history-0001.json").read_bytes()
    assert os.stat(newest / "history-0001.json").st_ino != os.stat(older / "history-0001.json").st_ino  # a copy
    bad = truncated((tmp_path / "history-0001.json").read_bytes())
    (tmp_path / "history-0001.json").write_bytes(bad)
    with Store.open(tmp_path) as store:
        assert "moved aside as" in store.notices[0] and "restored it from the backup of" in store.notices[0]
        aside = [p for p in tmp_path.iterdir() if p.name.startswith("history-0001.") and p.name != "history-0001.json"]
        assert [p.read_bytes() for p in aside] == [bad]
        assert_nothing_lost(store, at_start)
