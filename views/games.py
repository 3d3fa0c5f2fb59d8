"""The views' door to the store: every call runs off the event loop, one tap at a time.

The store is synchronous and fsyncs; Flet handlers run on the event loop, so each call goes
through asyncio.to_thread (the store has its own lock for the other sessions of the process).
"""
from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timezone
from typing import Callable

from scoring import Player
from scoring import panda_royale as pr
from storage import StaleSave


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_royale_record(names: list[str]) -> pr.Record:
    """A new Panda Royale game: players in seat order with short ids p1..pN."""
    players = tuple(Player(id=f"p{k}", name=name) for k, name in enumerate(names, start=1))
    return pr.Record(players=players, id=str(uuid.uuid4()), created=now_iso(), rounds=())


class SaveFailed(Exception):
    """A tap could not be saved, even after reloading once; the screen keeps the old record."""


class Games:
    """Async wrapper around one Store (one per process)."""

    def __init__(self, store):
        self.store = store

    async def _run(self, fn, *args, **kwargs):
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def load(self, game_id: str):
        return await self._run(self.store.load, game_id)

    async def create(self, record):
        return await self._run(self.store.save, record, None)

    async def edit(self, game_id: str, saved, change: Callable):
        """Save change(record) on top of `saved`; if another session saved first, reload and
        apply the change once more to the newer record. Returns the new Saved."""
        try:
            return await self._run(self.store.save, change(saved.record), saved.revision)
        except StaleSave:
            fresh = await self.load(game_id)
            try:
                return await self._run(self.store.save, change(fresh.record), fresh.revision)
            except StaleSave as exc:
                raise SaveFailed("another phone keeps changing this game; try again") from exc

    async def undo(self, game_id: str, saved):
        return await self._run(self.store.undo, game_id, saved.revision)

    async def redo(self, game_id: str, saved):
        return await self._run(self.store.redo, game_id, saved.revision)

    async def in_progress(self):
        return await self._run(self.store.in_progress)

    async def recent(self, limit: int = 20):
        return await self._run(self.store.recent, limit)

    async def known_players(self) -> list[str]:
        return await self._run(self.store.known_players)

    async def delete(self, game_id: str):
        return await self._run(self.store.delete, game_id)
