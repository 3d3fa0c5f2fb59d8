"""The store's API as the UI uses it, on real TinyDB files in tmp_path."""
from __future__ import annotations

import json
import os
import random
import threading

import pytest

from scoring import RecordError
from storage import NothingToUndo, ReadOnly, StaleSave, Store, StoreBusy, StoreError, samples
from storage.layout import active_name


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "data") as s:
        yield s


def new_game(seed=1, game_id="game-1", created="2026-11-22T19:00:00Z", players=4):
    return samples.new_game(random.Random(seed), game_id, created, players=players)


def play(store, record, saved, rng, taps):
    for _ in range(taps):
        record = samples.tap(record, rng)
        saved = store.save(record, saved.revision)
    return record, saved


def test_open_creates_the_folder_and_starts_empty(tmp_path):
    with Store.open(tmp_path / "a" / "b") as store:
        assert (tmp_path / "a" / "b").is_dir()
        assert store.notices == [] and store.in_progress() == [] and store.recent() == []


def test_a_new_game_saves_as_revision_1_and_loads_back(store):
    game = new_game()
    saved = store.save(game, None)
    assert (saved.revision, saved.can_undo, saved.can_redo) == (1, False, False)
    assert store.load("game-1").record == game


def test_every_tap_is_a_new_revision_and_survives_a_restart(tmp_path):
    rng = random.Random(2)
    with Store.open(tmp_path) as store:
        record, saved = play(store, new_game(), store.save(new_game(), None), rng, 30)
        assert saved.revision == 31
    with Store.open(tmp_path) as store:
        again = store.load("game-1")
        assert again.record == record and again.revision == 31 and again.can_undo


def test_undo_and_redo_survive_a_restart(tmp_path):
    rng = random.Random(3)
    with Store.open(tmp_path) as store:
        versions = [new_game()]
        saved = store.save(versions[0], None)
        for _ in range(5):
            versions.append(samples.tap(versions[-1], rng))
            saved = store.save(versions[-1], saved.revision)
        saved = store.undo("game-1", saved.revision)
        saved = store.undo("game-1", saved.revision)
        assert saved.record == versions[3] and saved.can_redo
    with Store.open(tmp_path) as store:
        saved = store.load("game-1")
        assert saved.record == versions[3] and saved.revision == 8
        saved = store.redo("game-1", saved.revision)
        assert saved.record == versions[4]
        for expected in reversed(versions[:4]):
            saved = store.undo("game-1", saved.revision)
            assert saved.record == expected
        assert not saved.can_undo
        with pytest.raises(NothingToUndo):
            store.undo("game-1", saved.revision)


def test_a_save_after_undo_drops_the_redo_tail(store):
    rng = random.Random(4)
    record, saved = play(store, new_game(), store.save(new_game(), None), rng, 3)
    saved = store.undo("game-1", saved.revision)
    other = samples.correct(saved.record, rng)
    saved = store.save(other, saved.revision)
    assert not saved.can_redo and saved.can_undo
    with pytest.raises(NothingToUndo):
        store.redo("game-1", saved.revision)


def test_a_save_based_on_an_older_revision_is_refused_not_overwritten(store):
    rng = random.Random(5)
    first = store.save(new_game(), None)
    mine = samples.tap(new_game(), rng)
    theirs = samples.tap(new_game(), random.Random(99))
    store.save(theirs, first.revision)  # another phone saved first
    with pytest.raises(StaleSave) as caught:
        store.save(mine, first.revision)
    assert caught.value.game_id == "game-1" and caught.value.stored_revision == 2
    assert "revision 2" in str(caught.value) and "reload" in str(caught.value)
    assert store.load("game-1").record == theirs
    for step in (store.undo, store.redo):
        with pytest.raises(StaleSave):
            step("game-1", first.revision)


def test_saving_a_new_game_whose_id_is_stored_is_refused(store):
    store.save(new_game(), None)
    with pytest.raises(StaleSave) as caught:
        store.save(new_game(seed=2), None)
    assert caught.value.stored_revision == 1


def test_saving_a_deleted_game_is_refused_with_revision_0(store):
    saved = store.save(new_game(), None)
    store.delete("game-1")
    with pytest.raises(StaleSave) as caught:
        store.save(samples.tap(new_game(), random.Random(1)), saved.revision)
    assert caught.value.stored_revision == 0
    with pytest.raises(KeyError):
        store.load("game-1")
    with pytest.raises(KeyError):
        store.delete("game-1")


def test_an_invalid_record_is_refused_and_nothing_is_written(store):
    bad = new_game().model_copy(update={"players": new_game().players[:1]})
    with pytest.raises(RecordError) as caught:
        store.save(bad, None)
    assert caught.value.where == "players"
    with pytest.raises(RecordError):
        store.save(new_game().model_copy(update={"id": None}), None)
    assert store.in_progress() == []


def test_an_unchanged_save_writes_nothing_and_keeps_the_revision(store, tmp_path):
    saved = store.save(new_game(), None)
    path = store.root / "active" / active_name("game-1")
    before = os.stat(path).st_ino
    again = store.save(new_game(), saved.revision)
    assert again.revision == saved.revision and os.stat(path).st_ino == before


def test_finishing_moves_a_game_from_in_progress_to_the_history(store):
    rng = random.Random(6)
    record, saved = new_game(players=2), store.save(new_game(players=2), None)
    assert [s.id for s in store.in_progress()] == ["game-1"] and store.recent() == []
    while record.finished is None:
        record = samples.tap(record, rng)
        saved = store.save(record, saved.revision)
    assert store.in_progress() == []
    [summary] = store.recent()
    assert summary.id == "game-1" and summary.finished == record.finished
    assert [p[0] for p in summary.players] == ["p1", "p2"]
    assert not (store.root / "active" / active_name("game-1")).exists()
    # The tap that finished the game can be taken back: the game is in progress again.
    back = store.undo("game-1", saved.revision)
    assert back.record.finished is None and [s.id for s in store.in_progress()] == ["game-1"]
    assert store.recent() == []
    assert store.redo("game-1", back.revision).record.finished == record.finished


def test_editing_a_finished_game_keeps_it_in_the_history(store):
    rng = random.Random(7)
    game = samples.finished_game(rng, "done", samples.START)
    saved = store.save(game, None)
    from scoring import score

    def totals(record):
        return [(s.id, s.name, s.total) for s in score(record).players]
    assert store.recent()[0].players == totals(game)
    fixed = samples.correct(game, rng)
    saved = store.save(fixed, saved.revision)
    assert store.load("done").record == fixed and saved.can_undo
    assert totals(fixed) != totals(game) and store.recent()[0].players == totals(fixed)  # the list follows
    assert store.undo("done", saved.revision).record == game


def test_summaries_carry_totals_in_seat_order_and_winner_names(store):
    game = samples.finished_game(random.Random(8), "g", samples.START, players=3)
    store.save(game, None)
    [summary] = store.recent()
    from scoring import score
    result = score(game)
    assert summary.players == [(s.id, s.name, s.total) for s in result.players]
    assert summary.winners == [game.name_of(w) for w in result.winners]
    assert (summary.game, summary.created, summary.finished) == (game.game, game.created, game.finished)


def test_lists_are_newest_first(store):
    for game in samples.history(9, 60):
        store.save(game, None)
    for i, created in enumerate(["2026-01-02T10:00:00Z", "2026-01-03T10:00:00+05:00", "2026-01-01T10:00:00Z"]):
        store.save(new_game(game_id=f"live-{i}", created=created), None)
    recent = store.recent(50)
    assert len(recent) == 50
    assert [s.created for s in recent] == sorted((s.created for s in recent), reverse=True)
    assert recent[0].id == "g9-00059"
    # 10:00+05:00 is 05:00 UTC: earlier than 10:00Z on the 3rd, later than the 2nd
    assert [s.id for s in store.in_progress()] == ["live-1", "live-0", "live-2"]
    assert len(store.recent(limit=1000)) == 60


def named(game, names, created):
    from scoring import Player
    players = [Player(id=p.id, name=n) for p, n in zip(game.players, names)]
    return game.model_copy(update={"players": tuple(players), "created": created, "id": "-".join(names)})


def test_known_players_are_the_most_recently_used_first(store):
    done = samples.finished_game(random.Random(1), "x", samples.START, players=2)
    store.save(named(done, ["Ann", "Ben"], "2025-01-01T18:00:00Z"), None)
    store.save(named(done, ["Dora", "Cleo"], "2025-06-01T18:00:00Z"), None)
    store.save(named(new_game(players=2), ["ann", "Eve"], "2026-11-22T19:00:00Z"), None)
    # the same person in another case counts once, spelt as in the latest game
    assert store.known_players() == ["Eve", "ann", "Dora", "Cleo", "Ben"]


def test_one_store_per_folder_a_second_open_is_refused(tmp_path):
    with Store.open(tmp_path):
        with pytest.raises(StoreBusy) as caught:
            Store.open(tmp_path)
        assert str(tmp_path) in str(caught.value)
    Store.open(tmp_path).close()  # released on close


def test_a_closed_store_refuses_work(tmp_path):
    store = Store.open(tmp_path)
    store.close()
    with pytest.raises(StoreError):
        store.in_progress()
    store.close()  # twice is fine


def test_saving_a_tap_never_rewrites_the_history_files(store):
    for game in samples.history(10, 30):
        store.save(game, None)
    history = sorted(p for p in store.root.iterdir() if p.name.startswith(("history-", "index-")))
    before = {p: os.stat(p).st_ino for p in history}
    rng = random.Random(11)
    play(store, new_game(), store.save(new_game(), None), rng, 20)
    assert {p: os.stat(p).st_ino for p in history} == before


def test_finished_games_fill_chunks_of_200(tmp_path, monkeypatch):
    monkeypatch.setattr("storage.history.CHUNK_GAMES", 7)
    with Store.open(tmp_path) as store:
        store.import_data({"format": "pandapad/export", "version": 1,
                           "games": [g.to_json() for g in samples.history(12, 20)]})
        names = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("history-"))
        assert names == ["history-0001.json", "history-0002.json", "history-0003.json"]
        store.save(samples.finished_game(random.Random(1), "one-more", samples.START), None)
        assert len(json.loads((tmp_path / "history-0003.json").read_text())["games"]) == 7
    with Store.open(tmp_path) as store:
        assert len(store.recent(100)) == 21 and store.notices == []


def test_files_are_tinydb_json_files(store):
    from tinydb import TinyDB
    store.save(new_game(), None)
    store.save(samples.finished_game(random.Random(1), "done", samples.START), None)
    store.close()
    for path in [store.root / "active" / active_name("game-1"), store.root / "history-0001.json"]:
        db = TinyDB(path)
        assert len(db.tables()) >= 1 and path.suffix == ".json"
        db.close()


def test_calls_from_many_threads_are_serialised(store):
    games = [new_game(game_id=f"t{i}") for i in range(4)]
    errors = []

    def worker(game):
        try:
            rng = random.Random(game.id)
            saved = store.save(game, None)
            for _ in range(25):
                game = samples.tap(game, rng)
                saved = store.save(game, saved.revision)
                store.in_progress()
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(store.load(g.id).revision for g in games) == [26] * 4


def test_what_is_stored_is_the_validated_record(store):
    from scoring import Player
    game = new_game(players=2)
    spaced = game.model_copy(update={"players": (Player(id="p1", name="  Ann "), game.players[1])})
    saved = store.save(spaced, None)
    assert saved.record.players[0].name == "Ann"
    assert store.load("game-1").record.players[0].name == "Ann"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names fsynced folders through /proc")
def test_new_folders_are_fsynced_into_their_parent_folder(tmp_path, monkeypatch):
    """A new folder is durable only once its parent is fsynced: else a power cut could lose
    the data folder or active/, and with them the first game saved."""
    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    root = tmp_path / "new" / "data"
    with Store.open(root) as store:
        assert str(tmp_path) in synced and str(tmp_path / "new") in synced  # where data/ was made
        synced.clear()
        store.save(new_game(), None)  # the store's first game: active/ is made
        assert str(root) in synced  # where active/ was made ...
        assert synced.index(str(root)) < synced.index(str(root / "active"))  # ... before the game's write


def test_a_file_where_the_folder_should_be_is_a_store_error_saying_so(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(StoreError, match=r"f is a file, not a folder$"):
        Store.open(tmp_path / "f")
    with pytest.raises(StoreError, match=r"a/b cannot be made: .*f is a file, not a folder$"):
        Store.open(tmp_path / "f" / "a" / "b")
    assert (tmp_path / "f").read_text() == "x"


def store_bytes(root) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_reading_only_reads_and_exports_but_refuses_every_write_and_writes_nothing(store):
    """A phone whose storage was cleared under the app (#46): its games can be looked at and
    saved out, and a tap is refused in the phone's words with nothing of it written."""
    rng = random.Random(3)
    game = new_game()
    record, saved = play(store, game, store.save(game, None), rng, 4)
    before = store_bytes(store.root)
    with store.reading_only("the storage was cleared"):
        assert store.load("game-1").revision == saved.revision
        assert [g["id"] for g in store.export_data()["games"]] == ["game-1"]
    for write in (lambda: store.save(samples.tap(record, rng), saved.revision),
                  lambda: store.undo("game-1", saved.revision),
                  lambda: store.delete("game-1"),
                  lambda: store.save(new_game(game_id="game-2"), None)):
        with pytest.raises(ReadOnly, match="the storage was cleared"):
            with store.reading_only("the storage was cleared"):
                write()
    assert store_bytes(store.root) == before
    assert store.load("game-1").revision == saved.revision and store.rows()[0]["id"] == "game-1"
    assert len(store.rows()) == 1
    # and once the storage is back, the store takes taps as before
    assert store.save(samples.tap(record, rng), saved.revision).revision == saved.revision + 1


def test_read_again_takes_the_files_as_they_were_put_back(store):
    """A phone's storage refused a change (full): the folder is put back as the storage holds it,
    and the store hands out the games of those files, not the change it made in memory."""
    rng = random.Random(4)
    game = new_game()
    saved = store.save(game, None)
    kept = store_bytes(store.root)
    store.save(samples.tap(game, rng), saved.revision)
    store.save(new_game(game_id="game-2"), None)
    for path in set(store_bytes(store.root)) - set(kept):
        (store.root / path).unlink()
    for path, data in kept.items():
        (store.root / path).write_bytes(data)
    store.read_again()
    assert store.load("game-1").revision == saved.revision
    assert [r["id"] for r in store.rows()] == ["game-1"]
