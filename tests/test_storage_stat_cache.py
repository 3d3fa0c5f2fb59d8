"""The stat cache (issue #12): open takes an unchanged file's sha256 from the cache without
reading it, and anything changed behind the store's back is still hashed and caught."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from storage import Store, StoreError
from storage.atomic import sha256
from storage.statcache import CACHE_FILE, StatCache

from .test_storage_recovery import assert_nothing_lost, make_store

CHUNK = "history-0001.json"


def opened_twice(path: Path) -> dict[str, int]:
    at_start = make_store(path)
    with Store.open(path) as store:  # no change after it: the cache matches every file
        assert store.notices == []
    return at_start


def same_size_damage(raw: bytes) -> bytes:
    return b"x" + raw[1:]  # no longer JSON, not one byte longer or shorter


def test_the_cache_names_each_store_file_with_its_sha256(tmp_path):
    opened_twice(tmp_path)
    files = json.loads((tmp_path / CACHE_FILE).read_bytes())["files"]
    assert CHUNK in files and "index-0001.json" in files
    for rel, (size, _, ino, _, digest) in files.items():
        st = os.stat(tmp_path / rel)
        assert (size, ino) == (st.st_size, st.st_ino)
        assert digest == sha256((tmp_path / rel).read_bytes())
    assert StatCache(tmp_path).clean(CHUNK) == files[CHUNK][4]


@pytest.mark.parametrize("how", ["new-inode", "same-inode"])
def test_a_file_replaced_behind_the_stores_back_with_its_size_and_mtime_is_still_caught(tmp_path, how):
    at_start = opened_twice(tmp_path)
    path = tmp_path / CHUNK
    before = os.stat(path)
    bad = same_size_damage(path.read_bytes())
    if how == "new-inode":
        copy = tmp_path / "copy.tmp"
        copy.write_bytes(bad)
        os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
        os.replace(copy, path)
        assert os.stat(path).st_ino != before.st_ino
    else:
        with open(path, "r+b") as f:
            f.write(bad)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert os.stat(path).st_ino == before.st_ino
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    with Store.open(tmp_path) as store:
        assert store.notices and store.notices[0].startswith(f"{CHUNK} (history file) did not parse")
        assert "restored it from the backup of" in store.notices[0]
        assert_nothing_lost(store, at_start)
    assert [p for p in tmp_path.iterdir() if "did-not-parse" in p.name][0].read_bytes() == bad
    with Store.open(tmp_path) as store:
        assert store.notices == []


@pytest.mark.parametrize("cache", [None, b"", b"\x00garbage", b'{"files": {"history-0001.json": 7}}',
                                   b'{"files": []}', b"[" * 100_000])
def test_a_store_without_a_readable_cache_opens_as_before(tmp_path, cache):
    at_start = opened_twice(tmp_path)
    if cache is None:
        (tmp_path / CACHE_FILE).unlink()
    else:
        (tmp_path / CACHE_FILE).write_bytes(cache)
    with Store.open(tmp_path) as store:
        assert store.notices == []
        assert_nothing_lost(store, at_start)
    assert StatCache(tmp_path).clean(CHUNK) is not None  # written again


def test_a_damaged_file_is_caught_with_a_garbage_cache_too(tmp_path):
    opened_twice(tmp_path)
    (tmp_path / CACHE_FILE).write_bytes(b"not json")
    (tmp_path / CHUNK).write_bytes(same_size_damage((tmp_path / CHUNK).read_bytes()))
    with Store.open(tmp_path) as store:
        assert store.notices[0].startswith(f"{CHUNK} (history file) did not parse")


def test_a_racily_clean_file_is_hashed(tmp_path):
    """A file whose mtime is not strictly older than the cache's own write is not trusted."""
    opened_twice(tmp_path)
    cache = tmp_path / CACHE_FILE
    mtime = os.stat(tmp_path / CHUNK).st_mtime_ns
    assert StatCache(tmp_path).clean(CHUNK) is not None
    os.utime(cache, ns=(mtime, mtime))  # the cache written in the same tick as the file
    assert StatCache(tmp_path).clean(CHUNK) is None
    raw, digest = StatCache(tmp_path).read(CHUNK)
    assert digest == sha256(raw)


def test_a_cached_digest_that_disagrees_with_the_file_is_not_used_once_the_stat_changes(tmp_path):
    opened_twice(tmp_path)
    data = json.loads((tmp_path / CACHE_FILE).read_bytes())
    data["files"][CHUNK][4] = "0" * 64  # a wrong checksum recorded for the file as it is now
    (tmp_path / CACHE_FILE).write_text(json.dumps(data))
    os.utime(tmp_path / CACHE_FILE)  # written after the file (not racy)
    path = tmp_path / CHUNK
    path.write_bytes(path.read_bytes())  # same bytes, new stat
    assert StatCache(tmp_path).clean(CHUNK) is None
    assert StatCache(tmp_path).read(CHUNK)[1] == sha256(path.read_bytes())


INDEX = "index-0001.json"


def test_an_unchanged_index_is_parsed_only_when_a_row_is_wanted(tmp_path):
    at_start = opened_twice(tmp_path)
    with Store.open(tmp_path) as store:
        chunk = store._areas.history.chunks[1]
        assert chunk._rows is None  # where each game is came from the cache
        assert_nothing_lost(store, at_start)  # loading a finished game needs no index row
        assert chunk._rows is None
        rows = store.rows()
        assert chunk._rows is not None and len(rows) == len(at_start) + 1
    (tmp_path / CACHE_FILE).unlink()
    with Store.open(tmp_path) as store:  # the index parsed and checked at open, as without a cache
        assert store._areas.history.chunks[1]._rows is not None
        assert store.rows() == rows


@pytest.mark.parametrize("how", ["new-inode", "same-inode"])
def test_an_index_changed_while_the_store_is_open_is_refused_then_repaired_at_the_next_open(tmp_path, how):
    at_start = opened_twice(tmp_path)
    path = tmp_path / INDEX
    with Store.open(tmp_path) as store:
        before = os.stat(path)
        bad = same_size_damage(path.read_bytes())
        if how == "new-inode":
            (tmp_path / "copy.tmp").write_bytes(bad)
            os.replace(tmp_path / "copy.tmp", path)
        else:
            with open(path, "r+b") as f:
                f.write(bad)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # size and mtime as they were
        with pytest.raises(StoreError, match=f"^{INDEX} changed while the store was open"):
            store.rows()
        with pytest.raises(StoreError):
            store.recent()
        assert path.read_bytes() == bad  # refused, nothing written
    with Store.open(tmp_path) as store:
        assert store.notices and store.notices[0].startswith(f"{INDEX} did not parse")
        assert_nothing_lost(store, at_start)
        assert len(store.rows()) == len(at_start) + 1
