"""In-progress games: one small TinyDB file per game, so a tap rewrites only its own game."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from scoring import RecordBase

from .atomic import make_dirs, open_tinydb, replace_docs, table_docs
from .commit import Files
from .layout import ACTIVE_DIR, ACTIVE_RE, active_name

TABLE = "game"  # one document, doc id 1: the journal of journal.py


@dataclass
class ActiveGame:
    record: RecordBase
    revision: int
    can_undo: bool
    can_redo: bool
    db: TinyDB


class ActiveArea:
    def __init__(self, root: Path, files: Files):
        self.dir = root / ACTIVE_DIR
        self.store_files = files
        self.games: dict[str, ActiveGame] = {}

    def files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.iterdir() if ACTIVE_RE.match(p.name) and p.is_file())

    def path_of(self, game_id: str) -> Path:
        return self.dir / active_name(game_id)

    def doc(self, game_id: str) -> dict[str, Any]:
        """The stored journal (shared with TinyDB's cache: read it, never mutate it)."""
        return table_docs(self.games[game_id].db, TABLE)[1]

    def put(self, doc: dict[str, Any], record: RecordBase) -> None:
        """Write a game's journal (creating its file) and remember its record."""
        game = self.games.get(doc["id"])
        db = game.db if game else open_tinydb(self.path_of(doc["id"]), self.store_files)
        if not self.dir.is_dir():  # the first game of the store: made durably, not just made
            make_dirs(self.dir)
        replace_docs(db, {TABLE: ({1: doc}, None)})
        self.games[doc["id"]] = ActiveGame(record, doc["revision"], bool(doc["undo"]), bool(doc["redo"]), db)

    def adopt(self, doc: dict[str, Any], record: RecordBase) -> None:
        """Remember a game whose file was checked at open, without writing it."""
        db = open_tinydb(self.path_of(doc["id"]), self.store_files)
        self.games[doc["id"]] = ActiveGame(record, doc["revision"], bool(doc["undo"]), bool(doc["redo"]), db)

    def remove(self, game_id: str) -> None:
        game = self.games.pop(game_id)
        game.db.close()
        self.store_files.remove(self.path_of(game_id))

    def close(self) -> None:
        for game in self.games.values():
            game.db.close()
