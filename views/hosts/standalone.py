"""The phone by itself (the static build, `make web`): Python runs inside the phone's browser
(Pyodide, in a web worker), and the store is the same folder of files as on a laptop, kept in
the browser's IndexedDB through Emscripten's IDBFS. No server, no table, one phone.

The store's promise holds here as on a laptop: every store call that wrote is followed by a
sync to IndexedDB, and the screen shows the tap only once that sync has finished, so closing
the tab, reloading or killing the browser right after a tap loses nothing.
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import flet as ft

from views import preferences, theme
from views.app import app_main
from views.hosts.host import Host
from views.lang import N_, _

log = logging.getLogger(__name__)

# The opening screen's words (web/opening.html; web/build.py writes each language's into the page).
OPENING_WORDS = {
    "opening": N_("Opening your score pad…"),
    "first": N_("Getting Pandapad ready on this phone. Only the first time takes this long."),
}

MOUNT = "/data"               # the folder kept in IndexedDB
STORE = f"{MOUNT}/pandapad"   # the store inside it, as under a laptop's data folder
TAB_LOCK = "pandapad-store"   # one tab at a time: two copies of the files would write over each other


class PhoneHost(Host):
    """One phone, its own host: no tokens, no invite, files in and out through the browser."""

    table = False
    pick_with_data = True  # the picked file is read in the page: there is no server to upload to

    def __init__(self):
        self._sync_lock = asyncio.Lock()

    async def run(self, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:  # a refused save wrote nothing, but a store call that wrote and then raised did
            await self.sync()

    async def sync(self) -> None:
        """Copy what changed in the store's folder to IndexedDB; returns once it is stored there."""
        async with self._sync_lock:  # one sync at a time: IDBFS does not queue them
            await _syncfs(populate=False)

    async def where(self, store) -> str:
        kept = await _persisted()
        if kept:
            # TRANSLATORS: where the games are kept, ending "12 games kept {where}." (Your data)
            return _("on this phone, in this browser's storage")
        # TRANSLATORS: where the games are kept, ending "12 games kept {where}." (Your data)
        return _("on this phone, in this browser's storage (the browser may clear it when the phone runs short of "
                 "space: add Pandapad to the home screen, and export now and then)")

    async def receive(self, page: ft.Page, picker: ft.FilePicker, chosen) -> bytes:
        if chosen.bytes is None:
            raise OSError(_("the browser did not hand the file over"))
        return chosen.bytes

    async def open_store(self):
        """Mount IndexedDB, read what it holds, and open the store there (repairing as at any open)."""
        from storage import Store

        _mount()
        await _syncfs(populate=True)
        store = Store.open(Path(STORE))
        await self.sync()  # what the open repaired or backed up is kept too
        return store


def _fs():
    import pyodide_js
    return pyodide_js.FS


def _mount() -> None:
    import js
    fs = _fs()
    try:
        fs.mkdir(MOUNT)
    except Exception:  # already there (a second session of this worker)
        pass
    fs.mount(fs.filesystems.IDBFS, js.Object.new(), MOUNT)


async def _syncfs(populate: bool) -> None:
    from pyodide.ffi import create_once_callable, jsnull

    done = asyncio.get_running_loop().create_future()

    def finished(error=None):
        if not done.done():
            done.set_result(error)

    _fs().syncfs(populate, create_once_callable(finished))
    error = await done
    if error is not None and error is not jsnull:
        raise OSError(_("the browser's storage refused the games ({error})", error=error))


async def _persisted() -> bool:
    import js
    try:
        return bool(await js.navigator.storage.persisted())
    except Exception:  # no StorageManager in this browser
        return False


async def _only_tab() -> bool:
    """Hold the store's lock for as long as this tab lives; False if another tab has it."""
    from pyodide.code import run_js
    try:
        take = run_js("""(name) => new Promise((resolve) => navigator.locks.request(
            name, {ifAvailable: true}, (lock) => { resolve(!!lock); return lock ? new Promise(() => {}) : null; }))""")
        return bool(await take(TAB_LOCK))
    except Exception as exc:  # a browser without Web Locks: nothing to coordinate with
        log.info("web locks: %s", exc)
        return True


async def notice(page: ft.Page, title: str, text: str) -> None:
    """A whole-screen message where the app cannot start, in this phone's language: title and
    text are messages marked with N_ where they are written (or an error's own words)."""
    await preferences.load_language(page)
    title, text = _(title), _(text)
    page.views.clear()
    page.views.append(ft.View(route="/", padding=ft.Padding.all(24), controls=[ft.Column([
        ft.Icon(ft.Icons.INFO_OUTLINE, size=64),
        ft.Text(title, size=theme.LARGE, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER),
        ft.Text(text, size=theme.BODY, text_align=ft.TextAlign.CENTER),
    ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=16)],
        vertical_alignment=ft.MainAxisAlignment.CENTER))
    page.update()


def start() -> None:
    """The browser's entry (main.py under Emscripten): Flet's main with the store opened first."""
    from storage import StoreError

    host = PhoneHost()
    opened: dict = {}

    async def main(page: ft.Page) -> None:
        try:
            if "app" not in opened:
                if not await _only_tab():
                    await notice(page, N_("Pandapad is open in another tab"),
                                 N_("Close this tab and go on in the other one: two at once would write over each "
                                    "other's games."))
                    return
                try:
                    opened["app"] = app_main(await host.open_store(), host)
                except (StoreError, OSError) as exc:
                    log.exception("opening the store")
                    await notice(page, N_("The games cannot be opened"), str(exc))
                    return
            await opened["app"](page)
            _hear_the_page(page)
        finally:  # whatever the first screen is, the page's opening screen goes
            _say_ready()

    ft.run(main)


_heard: list = []  # the page's channel and its handler, kept alive for the worker's lifetime


def _hear_the_page(page: ft.Page) -> None:
    """web/page.js says once when the whole app is kept on the phone (the offline copy and this
    phone's engine): the person is told, since until then going offline would lose the app."""
    if _heard:  # one page per worker: heard once
        return
    import js
    from pyodide.ffi import create_proxy

    async def say_offline() -> None:
        page.show_dialog(ft.SnackBar(ft.Text(_("Ready to use offline: Pandapad now opens with no network."),
                                             size=theme.BODY)))

    def heard(event) -> None:
        if event.data == "offline-ready":
            page.run_task(say_offline)

    try:
        channel = js.BroadcastChannel.new("pandapad")
        handler = create_proxy(heard)
        channel.onmessage = handler
        _heard.append((channel, handler))
    except Exception as exc:  # no BroadcastChannel: nothing is said, the copy is made all the same
        log.info("hearing the page: %s", exc)


def _say_ready() -> None:
    """Tell the page the app is up (web/page.js then makes the offline copy)."""
    import js
    try:
        js.BroadcastChannel.new("pandapad").postMessage("ready")
    except Exception as exc:  # no BroadcastChannel: the page makes the copy a minute after loading
        log.info("telling the page: %s", exc)
