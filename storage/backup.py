"""Rolling backups: after each successful open, a copy of every store file, the last KEEP kept.

backups/20261122T190400123456Z/ holds the store files as they were at that open, and
manifest.json (a TinyDB file) with the sha256 of each. A file unchanged since the previous
backup is hard-linked to that backup's copy instead of copied: the store replaces files and
never writes into them, and backup copies are never written to, so a link is as good as a
copy and a backup of 10,000 games costs only the files that changed. A backup is built in a
hidden folder and renamed into place, so a half-made one is never taken for a backup.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, TypeVar

from .atomic import dump_bytes, fsync_dir, hard_link, make_dirs, sha256, write_atomic
from .layout import ACTIVE_DIR, BACKUP_DIR, is_store_file

KEEP = 3
MANIFEST = "manifest.json"
STAMP_RE = re.compile(r"^\d{8}T\d{12}Z$")
PARTIAL_PREFIX = ".partial-"
T = TypeVar("T")


def store_files(root: Path) -> list[str]:
    """The live store files, as '/'-separated paths relative to the data directory."""
    found = [p.name for p in root.iterdir() if p.is_file()]
    if (root / ACTIVE_DIR).is_dir():
        found += [f"{ACTIVE_DIR}/{p.name}" for p in (root / ACTIVE_DIR).iterdir() if p.is_file()]
    return sorted(rel for rel in found if is_store_file(rel))


def backups(root: Path) -> list[Path]:
    """Complete backups, newest first."""
    folder = root / BACKUP_DIR
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if STAMP_RE.match(p.name) and p.is_dir()), reverse=True)


def describe(backup: Path) -> str:
    when = datetime.strptime(backup.name, "%Y%m%dT%H%M%S%fZ")
    return f"the backup of {when:%Y-%m-%d %H:%M:%S} UTC"


def manifest(backup: Path) -> dict[str, str]:
    """relative path -> sha256 of each file of a backup ({} when unreadable)."""
    try:
        rows = json.loads((backup / MANIFEST).read_bytes())["files"].values()
        return {row["path"]: row["sha256"] for row in rows}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}


def sweep_partial(root: Path) -> None:
    """Remove backups that an interrupted open left half made."""
    folder = root / BACKUP_DIR
    if folder.is_dir():
        for p in folder.iterdir():
            if p.name.startswith(PARTIAL_PREFIX):
                shutil.rmtree(p, ignore_errors=True)


def take(root: Path, digests: dict[str, str] | None = None) -> Path | None:
    """Back up every store file; returns the new backup, or None when the store is empty.
    When every file is as the newest backup holds it, that backup is returned and nothing is
    taken (#22): opening to read (`list`, `export`) must not rotate the last good copies out."""
    files = store_files(root)
    if not files:
        return None
    digests = dict(digests or {})
    previous = next(iter(backups(root)), None)
    before = manifest(previous) if previous else {}
    if previous is not None and set(before) == set(files):
        for rel in files:
            if rel not in digests:
                digests[rel] = sha256((root / rel).read_bytes())
        if all(before[rel] == digests[rel] for rel in files):
            return previous
    now = datetime.now(timezone.utc)
    folder = root / BACKUP_DIR
    while (folder / (stamp := now.strftime("%Y%m%dT%H%M%S%fZ"))).exists():
        now += timedelta(microseconds=1)
    partial = folder / f"{PARTIAL_PREFIX}{stamp}"
    make_dirs(folder)  # backups/ itself, durably, the first time
    (partial / ACTIVE_DIR).mkdir(parents=True)  # made durable by the manifest's write below
    for rel in files:
        source = root / rel
        if rel not in digests:
            data = source.read_bytes()
            digests[rel] = sha256(data)
        else:
            data = None
        target = partial / rel
        if previous is not None and before.get(rel) == digests[rel] and hard_link(previous / rel, target):
            continue
        write_atomic(target, data if data is not None else source.read_bytes())
    rows = {str(i): {"path": rel, "sha256": digests[rel]} for i, rel in enumerate(files, 1)}
    write_atomic(partial / MANIFEST, dump_bytes({"files": rows}))
    fsync_dir(partial / ACTIVE_DIR)
    final = folder / stamp
    os.replace(partial, final)
    fsync_dir(folder)
    for old in backups(root)[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def good_copy(root: Path, rel: str, check: Callable[[bytes], T]) -> tuple[Path, bytes, T] | None:
    """The newest backed-up copy of `rel` that matches its manifest and passes `check`
    (which raises on a bad file), as (backup, bytes, what check returned)."""
    for backup in backups(root):
        path = backup / rel
        try:
            data = path.read_bytes()
        except OSError:
            continue
        expected = manifest(backup).get(rel)
        if expected is not None and expected != sha256(data):
            continue
        try:
            return backup, data, check(data)
        except Exception:  # noqa: BLE001 - a bad copy is skipped, an older one may do
            continue
    return None
