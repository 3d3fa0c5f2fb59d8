"""The seam between the screens and where the app runs (architecture.md, "Two hosts, one app").

The same shell and screens run in two hosts, one chosen at start-up and handed to the shell:
- the server (views/hosts/server.py): one Python process serves every phone at the table, the store
  in a folder, fsynced, behind its process lock; tokens, the invite, the connection pulse;
- the phone by itself (views/hosts/standalone.py): Python inside the phone's browser, the store on
  IndexedDB, no table.
Screens ask the host what it offers; they never test which host they are in. Only the server's
module imports what only a server has (uvicorn, servestatic, flet_web).
"""
from __future__ import annotations

import asyncio
from typing import Callable

import flet as ft

from views.words.lang import _


def kept_already() -> asyncio.Future:
    """call()'s awaitable when there is nothing left to keep."""
    done = asyncio.get_running_loop().create_future()
    done.set_result(None)
    return done


class Host:
    """What every host answers. The defaults are the plainest host: one person, no table."""

    # A table to invite phones to (the Invite players screen and menu items).
    table = False
    # The table's link, when there is one (the invite screen shows it as a QR code).
    invite: str | None = None
    # Who may come in (views/table/table.Access); None: everyone is the host.
    access = None
    # The links to other phones of a table with no laptop (#54: views/hosts/phone_link.PageLink),
    # where the host has them: the phone by itself. None: no Invite a phone, no Join a table.
    phones = None

    async def run(self, fn: Callable, *args, **kwargs):
        """Call the store: its answer, and every file it wrote durable, when this returns."""
        return fn(*args, **kwargs)

    async def call(self, fn: Callable, *args, **kwargs):
        """run() in two steps, for a caller that orders its writes (a table of phones' host, #69):
        the store's answer, and an awaitable done once what it wrote is durable. The next write
        may be made meanwhile; where a sync keeps the writes (the phone by itself) one sync then
        keeps both."""
        return await self.run(fn, *args, **kwargs), kept_already()

    async def work(self, fn: Callable, *args):
        """Work that keeps nothing (a QR code's picture): off the event loop where the host has
        threads, else between two of its turns."""
        await asyncio.sleep(0)
        return fn(*args)

    # Why the games are no longer kept where they live (a phone's storage cleared under the app),
    # in a player's words, or None: kept as they should be. Only the phone by itself loses them.
    lost: str | None = None

    def on_lost(self, tell: Callable[[], None]) -> None:
        """Call tell() when where the games are kept goes away under the running app (never, here)."""

    async def keep_again(self) -> None:
        """Keep the games this app holds where they belong again, after they were lost there."""
        raise NotImplementedError

    async def kept_for_good(self) -> bool | None:
        """Whether the games' storage is kept until the person clears it (True), may be cleared by
        the browser (False), or None: a folder, nothing to ask."""
        return None

    async def ask_to_keep(self) -> bool:
        """Ask that the games' storage be kept until the person clears it; whether it is."""
        return True

    async def used(self) -> tuple[int, int | None] | None:
        """Bytes the app keeps on the device and of them the games', where it is asked (a phone)."""
        return None

    # Finished games are kept nowhere but here until exported: a finished game offers a backup file.
    backup_files = False

    async def where(self, store) -> str:
        """Where the games are kept, in a player's words ("in /home/…", "on this phone, …")."""
        # TRANSLATORS: where the games are kept, ending "12 games kept {where}." (Your data)
        return _("in {folder}", folder=store.root)

    def phone_languages(self, page: ft.Page) -> tuple[str | None, list[str]] | None:
        """What the host knows of the phone's language without asking the phone: the one chosen
        in Settings (None: its own) and the phone's own languages (tags, best first); None:
        ask the phone (views/device/preferences.py)."""
        return None

    def showing(self, place: Callable[[], tuple[str, int, dict]] | None) -> None:
        """The pad on the screen, by what tells its place (game id, revision, its phone_state), or
        None: kept by a host that opens the app again on the pad as it was left (the phone)."""

    def kept_place(self, game_id: str, revision: int) -> dict | None:
        """The phone_state of the pad of this game at this revision when the app was last open on
        it, where the host keeps one."""
        return None

    async def keep_note(self, key: str, value: str | None) -> None:
        """A few words this phone keeps for good (None forgets them): here the browser's
        SharedPreferences, which it writes to disk when it chooses. Raises where nothing is kept."""
        prefs = ft.SharedPreferences()
        await asyncio.wait_for(prefs.remove(key) if value is None else prefs.set(key, value), timeout=5)

    async def kept_note(self, key: str) -> str | None:
        """What keep_note kept under `key`, or None. Raises where nothing can be read."""
        return await asyncio.wait_for(ft.SharedPreferences().get(key), timeout=5)

    def link(self, page: ft.Page):
        """What keeps this phone's link to the app (start()/stop()), or None."""
        return None

    def picker(self) -> ft.FilePicker:
        """The file picker of an import; one per pick."""
        return ft.FilePicker()

    async def receive(self, page: ft.Page, picker: ft.FilePicker, chosen: ft.FilePickerFile) -> bytes:
        """The bytes of a file picked with `picker` (the size limit was checked before)."""
        raise NotImplementedError

    pick_with_data = False  # pick_files reads the file into the page (no upload)


class ServerThreads(Host):
    """The store in a folder, called off the event loop, with a table (views/hosts/server.py adds
    its tokens, invite and pulse): the server's host, and the one tests build screens on."""

    table = True

    async def run(self, fn: Callable, *args, **kwargs):
        # The store fsyncs; Flet handlers run on the event loop, which every phone shares.
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def work(self, fn: Callable, *args):
        return await asyncio.to_thread(fn, *args)
