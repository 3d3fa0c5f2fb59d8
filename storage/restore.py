"""The store's automatic backups, seen from the app: which there are, how many games each
holds, and putting one back — all at once, with the store as it was kept as a backup first,
so a restore can itself be undone by restoring that one."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from . import backup
from .api import StoreError
from .atomic import sha256
from .history import SUMMARIES
from .layout import ACTIVE_DIR


@dataclass(frozen=True)
class Backup:
    name: str          # the backup's folder name (a UTC time stamp)
    when: str          # "the backup of 2026-11-22 19:04:00 UTC"
    games: int         # games it holds: in progress and finished


def _games_in(folder: Path, files: list[str]) -> int:
    count = 0
    for rel in files:
        if rel.startswith(f"{ACTIVE_DIR}/"):
            count += 1
        elif rel.startswith("index-"):
            try:
                count += len(json.loads((folder / rel).read_bytes()).get(SUMMARIES, {}))
            except (OSError, ValueError, AttributeError):
                pass
    return count


def listing(root: Path) -> list[Backup]:
    """Complete backups, newest first."""
    out = []
    for folder in backup.backups(root):
        files = list(backup.manifest(folder))
        out.append(Backup(folder.name, backup.describe(folder), _games_in(folder, files)))
    return out


def read_backup(root: Path, name: str) -> dict[str, bytes]:
    """Every file of one backup, checked against its manifest; StoreError if it is not whole."""
    found = {p.name: p for p in backup.backups(root)}
    if name not in found:
        raise StoreError(f"there is no backup {name} (the store keeps the last {backup.KEEP})")
    folder = found[name]
    wanted = backup.manifest(folder)
    if not wanted:
        raise StoreError(f"{backup.describe(folder)} has no readable list of its files; nothing was changed")
    data = {}
    for rel, digest in wanted.items():
        try:
            raw = (folder / rel).read_bytes()
        except OSError as exc:
            raise StoreError(f"{backup.describe(folder)} lacks {rel} ({exc.strerror}); nothing was changed") from None
        if sha256(raw) != digest:
            raise StoreError(f"{backup.describe(folder)} is damaged ({rel} does not match its checksum); "
                             f"nothing was changed")
        data[rel] = raw
    return data
