"""Crash-safe files: whole-file writes through a fsynced temporary file and os.replace.

A reader (or a restart after SIGKILL or a power cut) sees either the old file or the new one,
never a torn mix: the new bytes are written to a temporary file in the same folder, fsynced,
renamed over the old name, and the folder is fsynced so that the rename itself is durable.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sys
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

# ".history-0001.json.tmp-3f9a0c1b2d4e": hidden, next to its target, unmistakably ours.
TEMP_RE = re.compile(r"^\..+\.tmp-[0-9a-f]{12}$")


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in `folder` durable (a no-op where folders cannot be opened)."""
    if sys.platform == "win32":  # NTFS renames are durable once the file is flushed
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dirs(folder: Path) -> None:
    """Create `folder` and its missing parents, each fsynced into its parent folder: a new
    folder's own entry is not durable until then, and a power cut would lose it with every
    file saved into it (the first game of a new store). Existing folders are left alone."""
    missing = []
    while not folder.is_dir():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for new in reversed(missing):
        new.mkdir(exist_ok=True)  # FileExistsError when a file has the name
        fsync_dir(new.parent)


def write_synced(fd: int, data: bytes) -> None:
    """Write all of `data` to an open file, fsync it and close it."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data`, durably and all at once."""
    tmp = path.with_name(f".{path.name}.tmp-{secrets.token_hex(6)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    try:
        write_synced(fd, data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def hard_link(source: Path, target: Path) -> bool:
    """A second name for `source`; False where there is none to be had, and the caller copies:
    a file system without hard links (some phones' storage), or a Python without os.link at all
    (Pyodide's, in the phone build: its AttributeError stopped the app where a damaged file was
    set aside)."""
    link = getattr(os, "link", None)
    if link is None:
        return False
    try:
        link(source, target)
        return True
    except OSError:
        return False


def remove_durably(path: Path) -> None:
    path.unlink(missing_ok=True)
    fsync_dir(path.parent)


def sweep_temp_files(folder: Path) -> list[Path]:
    """Delete temporary files left by writes that were interrupted (the old file is intact)."""
    swept = []
    if folder.is_dir():
        for entry in folder.iterdir():
            if TEMP_RE.match(entry.name) and entry.is_file():
                entry.unlink(missing_ok=True)
                swept.append(entry)
    return swept


def dump_bytes(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class AtomicJSONStorage(Storage):
    """TinyDB storage that never leaves a half-written file.

    It also keeps the last data read or written in memory (the store holds an exclusive
    lock on its folder, so nobody else changes the file), which spares a parse per write.
    TinyDB mutates the object `read()` returns before passing it to `write()`, so the cache
    is dropped whenever a write fails.
    """

    def __init__(self, path: str | Path, files: Any = None, **_ignored: Any) -> None:
        self.path = Path(path)
        self.files = files  # a commit.Files: writes are staged while a change is under way
        self._cache: dict | None = None
        self.last_sha256: str | None = None

    def read(self) -> dict | None:
        if self._cache is None:
            if self.files is not None:
                raw = self.files.read(self.path)
                if raw is None:
                    return None
            else:
                try:
                    raw = self.path.read_bytes()
                except FileNotFoundError:
                    return None
            self._cache = json.loads(raw) if raw.strip() else None
            self.last_sha256 = sha256(raw)
        return self._cache

    def write(self, data: dict) -> None:
        try:
            raw = dump_bytes(data)
            if self.files is not None:
                self.files.write(self.path, raw)
            else:
                write_atomic(self.path, raw)
        except BaseException:
            self._cache = None
            raise
        self._cache = data
        self.last_sha256 = sha256(raw)

    @property
    def cached(self) -> bool:
        return self._cache is not None

    def forget(self) -> None:
        """Drop the in-memory copy (the next read parses the file again)."""
        self._cache = None

    def close(self) -> None:
        self._cache = None


def open_tinydb(path: Path, files: Any = None) -> TinyDB:
    return TinyDB(path, storage=AtomicJSONStorage, files=files)


def replace_docs(db: TinyDB, changes: dict[str, tuple[dict[int, dict], set[int] | None]]) -> None:
    """Upsert and remove documents of several tables in ONE atomic write.

    changes: table name -> (documents to put by doc id, doc ids to remove, or None to
    replace the whole table with the given documents). TinyDB's own table methods write
    once per call; an index and its checksum must change together.
    """
    old = db.storage.read() or {}
    new = dict(old)  # never mutate the cached object: a failed write must leave it intact
    for name, (puts, removes) in changes.items():
        table = {} if removes is None else dict(old.get(name, {}))
        for doc_id in removes or ():
            table.pop(str(doc_id), None)
        for doc_id, doc in puts.items():
            table[str(doc_id)] = doc
        new[name] = table
    db.storage.write(new)
    for name in changes:
        db.table(name).clear_cache()


def table_docs(db: TinyDB, name: str) -> dict[int, dict]:
    """The raw documents of a table by doc id (shared with the cache: read, never mutate)."""
    return {int(k): v for k, v in (db.storage.read() or {}).get(name, {}).items()}
