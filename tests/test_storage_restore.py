"""Restoring one of the store's backups: all at once, the store as it was kept as a backup
first (the way back), and a damaged backup refused with nothing changed."""
from __future__ import annotations

import pytest

from storage import Store, StoreError, samples


def ids(store: Store) -> set[str]:
    return {r["id"] for r in store.rows()}


@pytest.fixture
def two_backups(tmp_path):
    first, later = list(samples.history(51, 4)), list(samples.history(52, 2))
    with Store.open(tmp_path) as store:
        for r in first:
            store.save(r, None)
    with Store.open(tmp_path) as store:
        for r in later:
            store.save(r, None)
    return tmp_path, {r.id for r in first}, {r.id for r in first + later}


def test_a_restore_puts_the_backup_back_and_keeps_the_way_back(two_backups):
    root, first, everything = two_backups
    with Store.open(root) as store:
        listed = store.backups()
        assert [b.games for b in listed] == [6, 4]
        kept = store.restore(listed[1].name)
        assert ids(store) == first
        assert store.backups()[0].name == kept and store.backups()[0].games == 6
        store.restore(kept)
        assert ids(store) == everything
    with Store.open(root) as store:  # and it is what a later start reads
        assert ids(store) == everything and store.notices == []


def test_a_damaged_backup_is_refused_and_nothing_changes(two_backups):
    root, _first, everything = two_backups
    with Store.open(root) as store:
        older = store.backups()[1]
        damaged = next((root / "backups" / older.name).glob("history-*.json"))
        damaged.write_bytes(damaged.read_bytes()[:-10])
        with pytest.raises(StoreError, match="damaged"):
            store.restore(older.name)
        assert ids(store) == everything
        with pytest.raises(StoreError, match="no backup"):
            store.restore("20990101T000000000000Z")


def test_a_restore_keeps_every_game_in_progress_as_it_is_now(tmp_path):
    """#24: phones are playing it; the tap entered after the backup stays, the revision too."""
    import random
    rng = random.Random(24)
    with Store.open(tmp_path) as store:
        for r in samples.history(53, 3):
            store.save(r, None)
        old_live = store.save(samples.new_game(rng, "live-then", "2026-11-24T18:00:00Z", players=3), None)
        playing = store.save(samples.new_game(rng, "playing", "2026-11-24T19:00:00Z", players=3), None)
    with Store.open(tmp_path) as store:  # the backup: 'playing' with no tap yet
        saved = store.load("playing")
        for _ in range(3):
            saved = store.save(samples.tap(saved.record, rng), saved.revision)
        store.delete("live-then")
        store.save(samples.new_game(rng, "started-after", "2026-11-24T20:00:00Z", players=2), None)
        tapped = saved
        assert samples.taps(tapped.record) > samples.taps(playing.record)
        store.restore(store.backups()[-1].name)
        now = store.load("playing")
        assert (now.record, now.revision) == (tapped.record, tapped.revision)   # every tap, same revision
        assert store.load("started-after").revision == 1                       # begun since: kept too
        assert store.load("live-then").record == old_live.record                # the backup's own comes back
        assert len([r for r in store.rows() if r["finished"]]) == 3
    with Store.open(tmp_path) as store:
        assert store.load("playing").record == tapped.record and store.notices == []


def test_restoring_the_way_back_keeps_the_game_being_played_over_its_finished_copy(tmp_path):
    """The way back (the backup a restore kept) has a game finished at a higher revision than
    the copy being played now: the game as it is being played is kept."""
    import random
    rng = random.Random(7)
    with Store.open(tmp_path) as store:
        game = store.save(samples.new_game(rng, "g", "2026-11-24T19:00:00Z", players=2), None)
    with Store.open(tmp_path) as store:  # backup 1: g in progress, revision 1
        game = store.load("g")
        for _ in range(4):
            game = store.save(samples.tap(game.record, rng), game.revision)
        store.save(game.record.model_copy(update={"finished": "2026-11-24T21:00:00Z"}), game.revision)
        way_back = store.restore(store.backups()[0].name)  # g in progress again, as in backup 1
        playing = store.load("g")
        assert playing.revision == 1 and playing.record.finished is None
        playing = store.save(samples.tap(playing.record, rng), playing.revision)  # a tap at revision 2
        store.restore(way_back)  # holds g finished at revision 6
        now = store.load("g")
        assert (now.record, now.revision) == (playing.record, playing.revision)
        assert [r["id"] for r in store.rows()] == ["g"]
    with Store.open(tmp_path) as store:
        assert store.load("g").record == playing.record and store.notices == []
