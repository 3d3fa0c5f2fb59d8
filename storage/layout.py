"""Where each thing lives in the data directory.

  active/<hash of game id>.json  one in-progress game per file: record, revision, undo/redo
  history-0001.json ...          finished games, CHUNK_GAMES per file (full records)
  index-0001.json ...            summaries of the games of history-0001.json and its checksum
  backups/<UTC time>/            rolling copies of all of the above, taken at each open
  store.lock                     held while a process has the store open
  recovery-pending               only while open() repairs a damaged file
  commit.json, .<name>.txn-<hex> only during a change of many files (commit.py)

A tap rewrites only its own game's file; finishing a game rewrites one history chunk and its
index; nothing a tap or a finish does grows with the number of games in the history.
"""
from __future__ import annotations

import hashlib
import re

ACTIVE_DIR = "active"
BACKUP_DIR = "backups"
LOCK_FILE = "store.lock"
RECOVERY_MARKER = "recovery-pending"
CHUNK_GAMES = 200  # ~0.6 MB of 3 KB games: a finish rewrites about that much

ACTIVE_RE = re.compile(r"^[0-9a-f]{24}\.json$")
CHUNK_RE = re.compile(r"^history-(\d{4,})\.json$")
INDEX_RE = re.compile(r"^index-(\d{4,})\.json$")


def active_name(game_id: str) -> str:
    # Hashed: ids are any string, and file names must survive case-insensitive file systems.
    return hashlib.sha256(game_id.encode("utf-8")).hexdigest()[:24] + ".json"


def chunk_name(n: int) -> str:
    return f"history-{n:04d}.json"


def index_name(n: int) -> str:
    return f"index-{n:04d}.json"


def is_store_file(relpath: str) -> bool:
    """A live store file, given as a path relative to the data directory with '/'."""
    parts = relpath.split("/")
    if len(parts) == 2:
        return parts[0] == ACTIVE_DIR and bool(ACTIVE_RE.match(parts[1]))
    return len(parts) == 1 and bool(CHUNK_RE.match(parts[0]) or INDEX_RE.match(parts[0]))
