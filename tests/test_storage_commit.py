"""All or nothing across files (commit.py, issue #15): what a change stages, what its journal
says, how open() rolls a change cut short forward or back, and what an error inside does."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from storage import Store, samples
from storage import history as history_module
from storage.commit import COMMIT_FILE, STAGED_RE, Files, recover
from storage.layout import active_name


def games(seed: int, n: int) -> dict:
    return {"format": "pandapad/export", "version": 1, "games": [g.to_json() for g in samples.history(seed, n)]}


def listing(path: Path) -> dict[str, int]:
    with Store.open(path) as store:
        return {row["id"]: row["revision"] for row in store.rows()}


def leftovers(path: Path) -> list[str]:
    folders = [path] + ([path / "active"] if (path / "active").is_dir() else [])
    return sorted(p.name for f in folders for p in f.iterdir() if STAGED_RE.match(p.name) or p.name == COMMIT_FILE)


def store_with_a_game_in_progress(path: Path) -> None:
    with Store.open(path) as store:
        store.import_data(games(1, 5))
        store.save(samples.new_game(random.Random(1), "live", "2026-11-22T19:00:00Z", players=2), None)


def test_an_import_leaves_no_journal_and_no_staged_file(tmp_path):
    store_with_a_game_in_progress(tmp_path)
    with Store.open(tmp_path) as store:
        report = store.import_data(games(2, 450))
        assert report.new == 450
        assert leftovers(tmp_path) == []
    assert len(listing(tmp_path)) == 456


def test_the_journal_names_every_file_of_the_change_and_is_the_commit_point(tmp_path, monkeypatch):
    """Stopped right after the journal is written, nothing is in place yet; the store (which
    reads its files again after an error) completes the change from the journal alone."""
    store_with_a_game_in_progress(tmp_path)
    before = listing(tmp_path)
    from storage import commit
    seen = {}

    def stop(root, journal):
        seen["journal"] = json.loads((root / COMMIT_FILE).read_bytes())
        seen["staged"] = all((root / staged).exists() for staged, _, _ in journal["renames"])
        seen["live"] = (root / "active" / active_name("live")).exists()
        monkeypatch.undo()
        raise KeyboardInterrupt  # as if killed right after the commit point

    monkeypatch.setattr(commit, "_finish", stop)
    live = samples.new_game(random.Random(1), "live", "2026-11-22T19:00:00Z", players=2)
    finished = samples.finished_game(random.Random(2), "live", samples.START).model_copy(
        update={"players": live.players, "created": live.created})
    with Store.open(tmp_path) as store:
        with pytest.raises(KeyboardInterrupt):
            store.import_data({"format": "pandapad/export", "version": 1,
                               "games": games(3, 300)["games"] + [finished.to_json()]})
        finals = {final for _, final, _ in seen["journal"]["renames"]}
        assert {"history-0001.json", "index-0001.json", "history-0002.json", "index-0002.json"} <= finals
        assert seen["journal"]["removes"] == [f"active/{active_name('live')}"]  # finished: it leaves active/
        assert seen["staged"] and seen["live"]  # nothing in place yet
        [notice] = store.notices
        assert notice.startswith("an import of 301 games was cut short while its files were being put in place")
        assert "nothing was lost" in notice
        assert store.load("live").record.finished is not None
        assert len(store.rows()) == len(before) + 300
    assert len(listing(tmp_path)) == len(before) + 300 and leftovers(tmp_path) == []


def test_a_change_cut_short_before_its_journal_is_undone_and_said_so(tmp_path, monkeypatch):
    store_with_a_game_in_progress(tmp_path)
    before = listing(tmp_path)
    from storage import commit

    def stop(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(commit, "write_atomic", stop)  # only the journal is written with it
    with Store.open(tmp_path) as store:
        store.notices.clear()
        files = store._areas.files
        # a kill cleans nothing up and reads nothing again
        monkeypatch.setattr(commit.Change, "abandon", lambda self: None)
        monkeypatch.setattr(Store, "_reload", lambda self: None)
        with pytest.raises(KeyboardInterrupt):
            store.import_data(games(3, 250))
        assert files.change is None
    monkeypatch.undo()
    assert any(name.startswith(".history-") for name in leftovers(tmp_path))
    assert any(name.startswith(".change.txn-") for name in leftovers(tmp_path))
    with Store.open(tmp_path) as store:
        [notice] = store.notices
        assert notice.startswith("an import of 250 games was cut short before it was written, so it was undone")
        assert "nothing was lost" in notice
    assert listing(tmp_path) == before and leftovers(tmp_path) == []


def test_recovery_rolls_forward_again_after_a_kill_during_recovery(tmp_path):
    """Half the renames done, the journal still there: recovering again finishes the rest."""
    root = tmp_path
    (root / "history-0001.json").write_bytes(b"old 1")
    (root / "history-0002.json").write_bytes(b"old 2")
    files = Files(root)
    from storage import commit
    with pytest.raises(KeyboardInterrupt):
        with files.all_or_nothing("a restore"):
            files.write(root / "history-0001.json", b"new 1")
            files.write(root / "history-0002.json", b"new 2")
            files.remove(root / "index-0003.json")
            assert files.read(root / "history-0001.json") == b"new 1"
            assert (root / "history-0001.json").read_bytes() == b"old 1"
            real = commit._finish
            commit._finish = lambda r, j: (_ for _ in ()).throw(KeyboardInterrupt())
            try:
                files.change.commit()  # the commit point, then "killed"
            finally:
                commit._finish = real
    journal = json.loads((root / COMMIT_FILE).read_bytes())
    first_staged = root / journal["renames"][0][0]
    first_staged.replace(root / journal["renames"][0][1])  # recovery killed after one rename
    assert (root / "history-0001.json").read_bytes() == b"new 1"
    assert (root / "history-0002.json").read_bytes() == b"old 2"
    notices, damaged = recover(root, "now")
    assert not damaged and notices[0].startswith("a restore was cut short while its files were being put")
    assert (root / "history-0002.json").read_bytes() == b"new 2"
    assert not (root / COMMIT_FILE).exists() and leftovers(root) == []
    assert recover(root, "later") == ([], False)  # nothing more to do


def test_an_error_inside_writes_nothing_and_the_store_reads_its_files_again(tmp_path, monkeypatch):
    store_with_a_game_in_progress(tmp_path)
    before = listing(tmp_path)
    writes = []
    real = history_module.HistoryArea._write

    def failing(self, *args, **kwargs):
        writes.append(1)
        if len(writes) == 3:
            raise OSError(28, "No space left on device")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(history_module.HistoryArea, "_write", failing)
    with Store.open(tmp_path) as store:
        with pytest.raises(OSError):
            store.import_data(games(4, 700))
        monkeypatch.undo()
        assert {row["id"]: row["revision"] for row in store.rows()} == before
        assert leftovers(tmp_path) == []
        store.save(samples.finished_game(random.Random(5), "after", samples.START), None)  # still usable
    assert len(listing(tmp_path)) == len(before) + 1


def test_all_or_nothing_groups_saves_and_deletes(tmp_path):
    store_with_a_game_in_progress(tmp_path)
    rng = random.Random(6)
    with Store.open(tmp_path) as store:
        first = store.recent(10)[-1].id
        with store.all_or_nothing("a merge of players"):
            store.delete(first)
            saved = store.save(samples.finished_game(rng, "merged", samples.START), None)
            live = store.load("live")
            store.save(samples.tap(live.record, rng), live.revision)
            assert store.load("merged").revision == saved.revision  # seen inside the block
            assert leftovers(tmp_path) != []  # staged, not yet in place
        assert leftovers(tmp_path) == []
        assert first not in {r["id"] for r in store.rows()}
    assert "merged" in listing(tmp_path) and listing(tmp_path)["live"] == 2

    with Store.open(tmp_path) as store:
        before = {r["id"]: r["revision"] for r in store.rows()}
        with pytest.raises(ValueError):
            with store.all_or_nothing():
                store.save(samples.finished_game(rng, "never", samples.START), None)
                store.delete("merged")
                raise ValueError("changed my mind")
        assert {r["id"]: r["revision"] for r in store.rows()} == before
    assert listing(tmp_path) == before


def test_a_journal_that_cannot_be_read_is_moved_aside_and_the_backup_games_kept(tmp_path):
    store_with_a_game_in_progress(tmp_path)
    with Store.open(tmp_path):  # the last successful start
        pass
    before = listing(tmp_path)
    (tmp_path / COMMIT_FILE).write_text('{"format": "pandapad/commit", "renames": [["../x", "/etc/passwd", ""]]')
    with Store.open(tmp_path) as store:
        assert any(n.startswith("commit.json (the record of a change being put in place) could not be read")
                   for n in store.notices)
        assert {r["id"]: r["revision"] for r in store.rows()} == before
    assert list(tmp_path.glob("commit.did-not-validate-*.json"))
    (tmp_path / COMMIT_FILE).write_text(json.dumps(
        {"format": "pandapad/commit", "renames": [["../x", "/etc/passwd", ""]], "removes": []}))
    with Store.open(tmp_path) as store:  # a journal that names files not the store's is refused
        assert any("not the store's" in n for n in store.notices)
    assert listing(tmp_path) == before
