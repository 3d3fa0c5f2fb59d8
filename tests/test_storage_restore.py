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
