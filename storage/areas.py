"""Where a game lives: in progress (active/) or finished (history chunks), and moving it.

A game is written to its new place first and removed from the old one second, so a crash in
between leaves two copies, never none; the next open keeps the higher revision.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from scoring import RecordBase, parse_record

from .active import ActiveArea
from .commit import Files
from .history import HistoryArea
from .journal import trimmed
from .summary import index_row

# Undo/redo steps a finished game keeps. Finished games sit in shared chunk files, so full
# undo histories there would multiply the history's size (1,500 taps per game); one step is
# enough to take back the tap that finished the game (undo moves it back to in progress).
HISTORY_KEEP = 1


class Areas:
    def __init__(self, root: Path):
        self.files = Files(root)  # files.all_or_nothing(): many writes, one commit (commit.py)
        self.active = ActiveArea(root, self.files)
        self.history = HistoryArea(root, self.files)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.active.games or game_id in self.history.where

    def revision(self, game_id: str) -> int | None:
        if game_id in self.active.games:
            return self.active.games[game_id].revision
        if game_id in self.history.where:
            return self.history.row(game_id)["revision"]
        return None

    def doc(self, game_id: str) -> dict[str, Any]:
        if game_id in self.active.games:
            return self.active.doc(game_id)
        return self.history.doc(game_id)

    def place(self, doc: dict[str, Any], record: RecordBase) -> dict[str, Any]:
        """Store a game's journal where its record belongs; returns the journal as stored."""
        return self.place_many([(doc, record, None)])[0]

    def place_many(self, items: Iterable[tuple[dict[str, Any], RecordBase | None, dict[str, Any] | None]]
                   ) -> list[dict[str, Any]]:
        """Store many journals, each with its validated record or its index row (import
        passes rows and no records: a finished game needs no model to be stored)."""
        stored, finished, leaving_active, leaving_history = [], [], [], []
        for doc, record, row in items:
            if doc["record"].get("finished") is not None:
                doc = trimmed(doc, HISTORY_KEEP)
                row = index_row(record, doc["revision"]) if row is None else {**row, "revision": doc["revision"]}
                finished.append((doc, row))
                if doc["id"] in self.active.games:
                    leaving_active.append(doc["id"])
            else:
                self.active.put(doc, record or parse_record(doc["record"]))
                if doc["id"] in self.history.where:
                    leaving_history.append(doc["id"])
            stored.append(doc)
        if finished:
            self.history.put_many(finished)
        for game_id in leaving_active:
            self.active.remove(game_id)
        for game_id in leaving_history:
            self.history.remove(game_id)
        return stored

    def remove(self, game_id: str) -> None:
        if game_id in self.active.games:
            self.active.remove(game_id)
        else:
            self.history.remove(game_id)

    def close(self) -> None:
        self.active.close()
        self.history.close()
