"""What open() already knows about a file without reading it: the stat cache (issue #12).

`stat-cache.json` in the data folder maps each store file (a path relative to the folder)
to [size, mtime_ns, inode, ctime_ns, sha256] as seen at the end of the last successful open.
At the next open a file whose size, mtimes and inode are still those, and whose mtime is
strictly older than the cache file's own (git's "racily clean" rule: a file changed in the
same tick as the cache was written could look unchanged), is taken to have the cached
sha256 without being read; any other file is read and hashed as before. A missing or
unreadable cache means every file is hashed. The cache is written atomically after the
backup, so a kill leaves the old cache (or none): entries of files changed since then no
longer match their stat and are hashed again. It is not a store file: never backed up,
never restored, and only ever a shortcut to a checksum the opener would compute anyway.

For an index file that described its chunk at that open (the chunk's sha256 and records of
the current version), the cache also keeps the chunk's sha256 and the game ids by doc id
("indexes"): an open that finds both files unchanged knows where every game is without
parsing the index, and parses it when a row is first wanted (history.py).
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from .atomic import dump_bytes, sha256, write_atomic

CACHE_FILE = "stat-cache.json"
Key = tuple[int, int, int, int]


def _key(st: os.stat_result) -> Key:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def stat_key(path: Path) -> Key:
    return _key(os.stat(path))


# A history file holds 200 games (200 of the largest records are 26 MB); a game in progress
# grows ~70 bytes a tap. A store file larger than this was not written by the store.
STORE_FILE_LIMIT = 256 * 1024 * 1024


class Unread(bytes):
    """What stands for a store file open did not read (too large, not a plain file): `why`."""
    why = ""


class StatCache:
    def __init__(self, root: Path):
        self.root = root
        self.cached: dict[str, tuple[Key, str]] = {}
        self.seen: dict[str, tuple[Key, str]] = {}  # verified (or hashed) during this open
        self.indexes: dict[str, tuple[str, int, dict[int, str]]] = {}  # rel -> (chunk sha256, version, ids)
        try:
            written = os.stat(root / CACHE_FILE).st_mtime_ns
            data = json.loads((root / CACHE_FILE).read_bytes())
            for rel, (size, mtime, ino, ctime, digest) in data["files"].items():
                if (all(type(v) is int for v in (size, mtime, ino, ctime)) and isinstance(digest, str)
                        and mtime < written):  # racily clean entries are hashed again
                    self.cached[rel] = ((size, mtime, ino, ctime), digest)
            for rel, entry in data.get("indexes", {}).items():
                ids = {int(doc_id): game_id for doc_id, game_id in entry["ids"].items()}
                if (rel in self.cached and isinstance(entry["chunk"], str) and type(entry["version"]) is int
                        and all(isinstance(g, str) for g in ids.values())):
                    self.indexes[rel] = (entry["chunk"], entry["version"], ids)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            self.cached, self.indexes = {}, {}

    def index_ids(self, rel: str) -> tuple[str, int, dict[int, str]] | None:
        """(the chunk's sha256, the records' version, doc id -> game id) that the index `rel`
        held at the last open, when its stat says it is unchanged; else None."""
        entry = self.indexes.get(rel)
        if entry is None or self.clean(rel) is None:
            return None
        return entry

    def key_seen(self, rel: str) -> Key | None:
        """The stat of `rel` as verified during this open."""
        entry = self.seen.get(rel)
        return entry[0] if entry else None

    def clean(self, rel: str) -> str | None:
        """The sha256 of `rel` when its stat says it is unchanged since the cache, else None."""
        entry = self.cached.get(rel)
        if entry is None:
            return None
        try:
            key = _key(os.stat(self.root / rel))
        except OSError:
            return None
        if key != entry[0]:
            return None
        self.seen[rel] = entry
        return entry[1]

    def read(self, rel: str) -> tuple[bytes, str]:
        """The bytes of `rel` and their sha256 (from the cache when the file is clean)."""
        return self.read_clean(rel)[:2]

    def read_clean(self, rel: str) -> tuple[bytes, str, bool]:
        """The bytes of `rel`, their sha256, and whether the file is unchanged since the cache."""
        path = self.root / rel
        info = os.stat(path)
        key = _key(info)  # before reading: a change after it changes the stat
        if not stat.S_ISREG(info.st_mode) or info.st_size > STORE_FILE_LIMIT:  # never read (#22)
            unread = Unread(b"")
            unread.why = (f"it is {info.st_size / 1024 / 1024:,.0f} MB; no store file is larger than "
                          f"{STORE_FILE_LIMIT // 1024 // 1024} MB" if stat.S_ISREG(info.st_mode)
                          else "it is not a plain file")
            return unread, "", False
        raw = path.read_bytes()
        entry = self.cached.get(rel)
        clean = entry is not None and entry[0] == key
        digest = entry[1] if clean else sha256(raw)
        self.seen[rel] = (key, digest)
        return raw, digest, clean

    def still_true(self) -> dict[str, str]:
        """rel -> sha256 of the files verified this open that have not changed since."""
        known = {}
        for rel, (key, digest) in self.seen.items():
            try:
                now = os.stat(self.root / rel)
            except OSError:
                continue
            if _key(now)[:3] == key[:3]:  # a hard link made by the backup changes only ctime
                known[rel] = digest
        return known

    def save(self, digests: dict[str, str], indexes: dict[str, tuple[str, int, dict[int, str]]] | None = None) -> None:
        """Record the stat of each file with its (verified) sha256, and what `indexes` says of
        those index files (see above); best effort."""
        files = {}
        for rel, digest in sorted(digests.items()):
            try:
                files[rel] = [*_key(os.stat(self.root / rel)), digest]
            except OSError:
                continue
        known = {rel: {"chunk": chunk, "version": version, "ids": {str(k): v for k, v in ids.items()}}
                 for rel, (chunk, version, ids) in sorted((indexes or {}).items()) if rel in files}
        try:
            write_atomic(self.root / CACHE_FILE, dump_bytes({"files": files, "indexes": known}))
        except OSError:
            pass  # a cache not written only means hashing everything next time
