"""The views' door to the store: every call goes through the host (views/hosts/host.py), which runs
it off the server's event loop, or makes it durable in the phone's browser storage.
"""
from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timezone
from typing import Callable

from scoring import Player, RecordBase, rules_for
from storage import StaleSave
from views.words.lang import _


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_record(game: str, names: list[str], settings: dict | None = None) -> RecordBase:
    """A new game of any kind: players in seat order with short ids p1..pN, the settings chosen
    on the new-game screen (validated by the game's rules module)."""
    players = tuple(Player(id=f"p{k}", name=name) for k, name in enumerate(names, start=1))
    fields = {"settings": settings} if settings else {}
    return rules_for(game).Record.model_validate(
        {"players": players, "id": str(uuid.uuid4()), "created": now_iso(), **fields})


# Tries of one tap's save while other phones' saves land first (Games.edit): more than the
# most phones at one table (10 players of Panda Royale) could beat it by in one burst.
SAVE_TRIES = 25


class SaveFailed(Exception):
    """A tap could not be saved, even after reloading SAVE_TRIES times; the screen keeps the old record."""


class Games:
    """Async wrapper around one Store (one per process)."""

    following = False  # a guest's phone following the host's game (#54: phone_table.TableGames)

    def __init__(self, store, host=None):
        from storage import settings as stored_settings
        from views.hosts.host import ServerThreads
        self.store = store
        self.host = host or ServerThreads()
        self._settings = stored_settings
        self.settings = stored_settings.load(store.root)  # one process, one store: read once
        self._settings_lock = asyncio.Lock()
        # Games started or finished at this table since the server started: the finished ones
        # a guest may look at (#24). In memory only: a restart is a new evening.
        self.tonight: set[str] = set()
        # Told (game id, Saved) after each change of a game saved here: a table of phones (#54)
        # sends it to the guests' phones.
        self.after_save: list[Callable] = []
        self.tables: dict = {}  # game id -> the table of phones this phone hosts on it (phone_table.TableHost)

    def table_status(self, game_id: str) -> tuple[str, bool] | None:
        """A table of phones on this game (#54): a line saying who is linked, and whether it tells
        of trouble (a link dropped); None: no such table."""
        table = self.tables.get(game_id)
        return table.status() if table is not None else None

    def saved_here(self, game_id: str, saved):
        for tell in list(self.after_save):
            tell(game_id, saved)
        return saved

    async def save_settings(self, **changes):
        """Change settings and keep them with the store; returns the new settings."""
        # One change at a time, each on the settings the last one left: two quick taps (the
        # theme, then the text size) must not write one over the other.
        async with self._settings_lock:
            new = type(self.settings).model_validate({**self.settings.model_dump(), **changes})
            await self.run(self._settings.save, self.store.root, new)
            self.settings = new
            return new

    async def unsaved_elsewhere(self) -> int:
        """Finished games newer than the last backup file: on a phone by itself, kept nowhere else."""
        since = self.settings.backup_file_made or ""
        return sum(1 for row in await self.rows() if (row.get("finished") or "") > since)

    async def run(self, fn, *args, **kwargs):
        """Any store call (the data screen's import, restore, a rename): through the host."""
        return await self.host.run(fn, *args, **kwargs)

    async def call(self, fn, *args, **kwargs):
        """A store call's answer, and an awaitable done once what it wrote is kept (Host.call)."""
        return await self.host.call(fn, *args, **kwargs)


    async def load(self, game_id: str):
        return await self.run(self.store.load, game_id)

    async def create(self, record, tonight: bool = True):
        """tonight=False: a game put back (a delete's Undo), not one played at this table now."""
        saved = await self.run(self.store.save, record, None)
        if tonight:
            self.tonight.add(saved.record.id)
        return saved

    async def edit(self, game_id: str, saved, change: Callable):
        """Save change(record) on top of `saved`; while another session saved first, reload and
        apply the change once more to the newer record. Returns the new Saved.

        Each refusal means another phone's save landed, so a burst of taps at one table settles:
        with 4 phones tapping at once, the last to get through was refused 3 times (one retry
        lost taps in a table test). SAVE_TRIES only stops a loop that would never end."""
        for _try in range(SAVE_TRIES):
            try:
                saved = await self.run(self.store.save, change(saved.record), saved.revision)
            except StaleSave as exc:
                beaten = exc
                saved = await self.load(game_id)
                continue
            if saved.record.finished:
                self.tonight.add(game_id)  # finished at this table tonight
            return self.saved_here(game_id, saved)
        # TRANSLATORS: why a tap was not saved, after "Not saved: "
        raise SaveFailed(_("another phone keeps changing this game; try again")) from beaten

    async def undo(self, game_id: str, saved):
        return self.saved_here(game_id, await self.run(self.store.undo, game_id, saved.revision))

    async def redo(self, game_id: str, saved):
        return self.saved_here(game_id, await self.run(self.store.redo, game_id, saved.revision))

    async def in_progress(self):
        return await self.run(self.store.in_progress)

    async def recent(self, limit: int = 20):
        return await self.run(self.store.recent, limit)

    async def rows(self) -> list:
        """Index rows of every stored game: in progress first, then finished, newest first."""
        return await self.run(self.store.rows)

    async def known_players(self) -> list[str]:
        return await self.run(self.store.known_players)

    async def latest(self, game: str):
        """The newest stored game of a kind (in progress first), or None: where a new game takes
        the table's own choices from (the Ur board's dot map)."""
        def find():
            for summary in self.store.in_progress() + self.store.recent(50):
                if summary.game == game:
                    return self.store.load(summary.id).record
            return None
        return await self.run(find)

    async def delete(self, game_id: str):
        return await self.run(self.store.delete, game_id)
