"""The phone by itself (the static build, `make web`): Python runs inside the phone's browser
(Pyodide, in a web worker), and the store is the same folder of files as on a laptop, kept in
the browser's IndexedDB through Emscripten's IDBFS. No server, no table, one phone.

The store's promise holds here as on a laptop: every store call that wrote is followed by a
sync to IndexedDB, and the screen shows the tap only once that sync has finished, so closing
the tab, reloading or killing the browser right after a tap loses nothing.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import pickle
from pathlib import Path
from typing import Callable

import flet as ft

from views import theme
from views.device import preferences
from views.app import app_main
from storage import StoreError
from views.hosts.host import Host, kept_already
from views.words.lang import N_, _

log = logging.getLogger(__name__)

# The opening screen's words (web/opening.html; web/build.py writes each language's into the page).
OPENING_WORDS = {
    "opening": N_("Opening your score pad…"),
    "first": N_("Getting Pandapad ready on this phone. Only the first time takes this long."),
    # TRANSLATORS: said over the picture of the pad while the app opens, when a finger taps it (#68)
    "held": N_("Opening… one moment"),
    # TRANSLATORS: said once the pad is open, when a tap made while it opened could not be made on it
    "again": N_("That tap came before the pad was open: tap again."),
}

MOUNT = "/data"               # the folder kept in IndexedDB
STORE = f"{MOUNT}/pandapad"   # the store inside it, as under a laptop's data folder
TAB_LOCK = "pandapad-store"   # one tab at a time: two copies of the files would write over each other
# After the last store call, the pad is taken as still (its screen sent): the page may then keep a
# picture of it for the next opening (web/picture.js, #68). Long enough that a run of taps is one.
STILL_AFTER = 0.8
# ... and after an opening: the first screen is then being drawn, seconds of a slow phone's core
# (#68: said at 0.8 s, the picture taken beside that frame made it 1 s later at a quarter of a core).
STILL_AFTER_OPENING = 4.0
# Where this phone was in the game last shown (a pad's phone_state: whose hand, which tab), so that
# the next opening shows the pad as it was left, as its picture does. Beside the store, not in it.
PLACE = f"{MOUNT}/place.pickle"
NOTES = f"{MOUNT}/notes.json"  # keep_note's words, kept as the games are (a write moves store_stamp too)


class Writes:
    """The store's writes, numbered as they are made: a sync keeps every write made before it
    began, so the writes that waited for it share the next sync (a burst of guests' taps at a
    table is kept by fewer syncs than taps, #69), and a put-back (storage full) undoes every write
    not kept, a waiting one's too: its caller is told, never answered as kept."""

    def __init__(self):
        self.made = 0         # writes so far
        self.kept_upto = 0    # IndexedDB holds these (a put-back restores what it holds: kept still)
        self.undone_upto = 0  # a put-back undid those of these not kept

    def wrote(self) -> int:
        self.made += 1
        return self.made

    def kept(self, write: int) -> bool:
        return write <= self.kept_upto

    def undone(self, write: int) -> bool:
        return not self.kept(write) and write <= self.undone_upto


class PhoneHost(Host):
    """One phone, its own host: no tokens, no invite, files in and out through the browser."""

    table = False
    pick_with_data = True  # the picked file is read in the page: there is no server to upload to
    backup_files = True    # the browser's storage is the only copy: a finished game offers a backup file

    def __init__(self):
        self._sync_lock = asyncio.Lock()
        self._writes = Writes()
        self.store = None
        self.lost: str | None = None  # why the browser's storage no longer keeps the games (#46)
        self._tell: list[Callable[[], None]] = []
        self._watching = None  # WATCH compiled, and the proxy IndexedDB's events call (kept alive)
        self._writing_again = False  # keep_again() has made the database anew (and may try again)
        self._phones = None
        self.page: ft.Page | None = None  # the one page of this worker, once it has a screen
        self._still = None  # the timer of the next "still" (STILL_AFTER)
        self._calls = 0  # store calls so far: a "still" said while one came is not said
        self._place: Callable[[], tuple[str, int, dict]] | None = None  # the pad on the screen's place

    @property
    def phones(self):
        """The page's links to other phones (#54), made at the first ask."""
        if self._phones is None:
            from views.hosts.phone_link import PageLink
            self._phones = PageLink()
        return self._phones

    async def run(self, fn, *args, **kwargs):
        answer, kept = await self.call(fn, *args, **kwargs)
        await kept
        return answer

    async def call(self, fn, *args, **kwargs):
        if self.lost is not None:
            # The storage is gone: the games in this tab can be looked at and saved out, never
            # changed, since no change could be kept (the person chooses: keep again, or export).
            with self.store.reading_only(lost_tap()):
                return fn(*args, **kwargs), kept_already()
        self._calls += 1
        try:
            answer = fn(*args, **kwargs)
        except BaseException:  # a refused save wrote nothing, but a store call that wrote and then raised did
            await self._keep(self._writes.wrote())
            raise
        # Numbered now, with no turn of the loop between the write and its number (a put-back
        # meanwhile must count it undone), and its sync started at once.
        return answer, asyncio.ensure_future(self._keep(self._writes.wrote()))

    async def _keep(self, wrote: int) -> None:
        try:
            await self.sync(wrote)
        finally:
            self.still_soon()

    def showing(self, place) -> None:
        self._place = place

    async def keep_note(self, key: str, value: str | None) -> None:
        """Kept in IndexedDB before it returns, as a tap is: the browser's local storage (the
        SharedPreferences of other hosts) reached the disk up to a minute after it was written, so a
        guest's browser killed soon after joining lost what it needs to join again by one code (#69)."""
        notes = _notes()
        if value is None:
            notes.pop(key, None)
            with contextlib.suppress(Exception):  # an older version's copy goes too
                await super().keep_note(key, None)
        else:
            notes[key] = value
        Path(NOTES).write_text(json.dumps(notes))
        await self.sync()

    async def kept_note(self, key: str) -> str | None:
        kept = _notes().get(key)
        return kept if kept is not None else await super().kept_note(key)  # or an older version's

    def kept_place(self, game_id: str, revision: int) -> dict | None:
        """Where this phone was in the game when the app was last open on it, if the game is still
        at that revision (a place of another game, or of a game changed since, is not taken)."""
        try:
            kept = pickle.loads(_read(PLACE))
            return kept["place"] if kept["game"] == game_id and kept["revision"] == revision else None
        except Exception:  # noqa: BLE001 - none kept, or unreadable: the pad opens where it starts
            return None

    def still_soon(self, after: float = STILL_AFTER) -> None:
        """Say the pad is still once no store call came for `after` seconds (the last one wins)."""
        if self.page is None:
            return
        if self._still is not None:
            self._still.cancel()
        self._still = asyncio.get_running_loop().call_later(after, lambda: asyncio.ensure_future(self._say_still()))

    async def _say_still(self) -> None:
        """Keep where this phone is in the game (PLACE), then tell the page the pad on the screen
        is the game as stored (web/picture.js keeps a picture of it with the store's stamp): only
        a game's pad with no sheet or message over it, once every tap's handler has finished and
        sent what it changed."""
        self._still = None
        page = self.page
        if page is None or self.lost is not None or not (page.route or "").startswith("/game/"):
            return
        if _handling() or any(getattr(d, "open", False) for d in page._dialogs.controls):
            self.still_soon()  # a handler's screen is not sent yet, or a sheet is up: later
            return
        calls = self._calls
        if self._place is not None:
            game_id, revision, place = self._place()
            if page.route.endswith("/" + game_id):
                kept = pickle.dumps({"game": game_id, "revision": revision, "place": place})
                if kept != _read(PLACE):  # written only when it moved (an opening's is kept already)
                    Path(PLACE).write_bytes(kept)
                    try:
                        await self.sync()
                    except StoreError:  # storage full or gone: no picture either
                        return
        if self._calls != calls or self._still is not None:
            return  # a tap came meanwhile: its own "still" follows
        _tell_page("still", route=page.route, stamp=store_stamp())

    async def sync(self, wrote: int | None = None) -> None:
        """Copy what changed in the store's folder to IndexedDB; returns once it is stored there
        (`wrote`: the write to keep, as Writes.wrote numbered it; None: everything written so far).
        Raises StoreError in a player's words when the browser refused: storage full (the
        folder is put back as IndexedDB holds it, so no refused change stays in this tab), or
        storage gone (cleared under the app: the games stay in this tab, read-only)."""
        writes = self._writes
        wrote = writes.wrote() if wrote is None else wrote
        async with self._sync_lock:  # one sync at a time: IDBFS does not queue them
            if writes.kept(wrote):  # by a sync that began after it
                return
            if writes.undone(wrote):  # by a put-back after another sync found the storage full
                raise StoreError(storage_full())
            upto = writes.made
            error = await _syncfs(populate=False)
            if error is None:
                writes.kept_upto = upto
                self._watch()
                return
            if _error_name(error) == "QuotaExceededError":
                log.warning("storage full: %s", _error_text(error))
                await self._put_back()
                writes.undone_upto = writes.made  # those made while this sync ran among them
                raise StoreError(storage_full())
            self._lose(_error_text(error))
            raise StoreError(lost_tap())

    async def _put_back(self) -> None:
        """The store's folder as IndexedDB holds it (a change it refused undone), and the store
        reading it anew."""
        error = await _syncfs(populate=True)
        if error is not None:
            self._lose(_error_text(error))
            return
        if self.store is not None:
            self.store.read_again()

    def _lose(self, why: str) -> None:
        if self.lost is None:
            log.warning("the browser's storage went away: %s", why)
            self.lost = why
            _tell_page("storage-lost")  # the page then never loads itself again (web/page.js)
            for tell in self._tell:
                tell()

    def on_lost(self, tell: Callable[[], None]) -> None:
        self._tell.append(tell)
        if self.lost is not None:
            tell()

    def _watch(self) -> None:
        """Hear IndexedDB take the store's database away at once (site data cleared, the database
        deleted): not at the next tap, which would then fail with the browser's words."""
        from pyodide.code import run_js
        from pyodide.ffi import create_proxy

        if self._watching is None:  # made once: this runs after every tap's sync
            self._watching = (run_js(WATCH), create_proxy(lambda what: self._lose(str(what))))
        watch, lost = self._watching
        try:
            watch(_fs().filesystems.IDBFS.dbs, MOUNT, lost)
        except Exception as exc:  # noqa: BLE001 - not heard at once; the next sync says it
            log.info("watching IndexedDB: %s", exc)

    async def keep_again(self) -> None:
        """After the storage was cleared: this tab's games written into a new database."""
        from pyodide.code import run_js
        # A tab opened after the site's data was cleared does not see this tab's lock (Chromium
        # keeps the locks of before the clear apart) and starts on the emptied storage, making its
        # database anew: writing this tab's games there would be undone by that tab's next save,
        # and what it saved lost. A database there that this tab did not make says so.
        if not self._writing_again and await run_js(THERE)(MOUNT):
            raise StoreError(_("another tab of Pandapad has used the storage since it was cleared. Export the games "
                               "here, close this tab, and import the file in Pandapad."))
        self._writing_again = True
        run_js(FORGET)(_fs().filesystems.IDBFS.dbs, MOUNT)
        async with self._sync_lock:
            error = await _syncfs(populate=False)
        if error is not None:
            log.warning("keeping the games again: %s", _error_text(error))
            if _error_name(error) == "QuotaExceededError":
                raise StoreError(storage_full())
            raise StoreError(_("the browser's storage refused them again. Export the games now, so that a file keeps "
                               "them."))
        self.lost, self._writing_again = None, False
        _tell_page("storage-kept")
        self._watch()
        await self.ask_to_keep()

    async def kept_for_good(self) -> bool | None:
        return await _persisted()

    async def ask_to_keep(self) -> bool:
        """Ask the browser to keep the games until the person clears them (navigator.storage.persist):
        asked again after a finished game, since a browser grants it to an app it sees used."""
        import js
        if await _persisted():
            return True
        try:
            return bool(await js.navigator.storage.persist())
        except Exception:  # no StorageManager in this browser
            return False

    async def used(self) -> tuple[int, int | None] | None:
        """Bytes this site keeps on the phone (the app and its games), and of them the games'
        (IndexedDB), where the browser says: navigator.storage.estimate()."""
        import js
        try:
            estimate = await js.navigator.storage.estimate()
            details = getattr(estimate, "usageDetails", None)
            games = getattr(details, "indexedDB", None) if details is not None else None
            return int(estimate.usage), (int(games) if games is not None else None)
        except Exception:  # no StorageManager in this browser
            return None

    async def where(self, store) -> str:
        # TRANSLATORS: where the games are kept, ending "12 games kept {where}." (Your data)
        return _("on this phone, in this browser's storage")

    async def receive(self, page: ft.Page, picker: ft.FilePicker, chosen) -> bytes:
        if chosen.bytes is None:
            raise OSError(_("the browser did not hand the file over"))
        return chosen.bytes

    async def open_store(self):
        """Mount IndexedDB, read what it holds, and open the store there (repairing as at any open)."""
        from storage import Store

        _mount()
        error = await _syncfs(populate=True)
        if error is not None:  # the browser's words go to the log; the person gets what to do
            log.warning("reading the games from IndexedDB: %s", _error_text(error))
            raise OSError(_("The browser did not let Pandapad open its storage. Close any other tab of Pandapad and "
                            "open it again; a private window may keep no games at all."))
        self.store = Store.open(Path(STORE))
        try:
            await self.sync()  # what the open repaired or backed up is kept too
        except StoreError as exc:  # full: the games open as stored, without the backup of this start
            log.warning("keeping what the store's open wrote: %s", exc)
        return self.store


def storage_full() -> str:
    # TRANSLATORS: why a tap was not saved, after "Not saved: " (the phone's storage is full)
    return _("this phone's storage is full, so the change was not kept (the games stored before are safe). Free "
             "some space on the phone, then try again.")


def lost_tap() -> str:
    # TRANSLATORS: why a tap was not saved, after "Not saved: " (the phone's storage was cleared under the app)
    return _("the browser's storage was cleared, so nothing can be kept now. Tap \"Keep them again\" at the top "
             "of the screen, or export the games first.")


# IndexedDB's connection of the store's database: closed by the browser (site data cleared),
# or asked to give way to a deletion. Either way the games are no longer kept.
WATCH = """(dbs, name, lost) => {
  const db = dbs[name];
  if (!db || db.pandapadWatched) return;
  db.pandapadWatched = true;
  db.addEventListener("close", () => lost("the browser closed the database"));
  db.addEventListener("versionchange", () => { db.close(); delete dbs[name]; lost("the database is being deleted"); });
}"""
# Whether the store's database is there (a browser that cannot list its databases: not known, so
# taken as not there).
THERE = """(name) => indexedDB.databases ?
  indexedDB.databases().then((found) => found.some((db) => db.name === name), () => false) : Promise.resolve(false)"""
# The database handle IDBFS keeps, dropped: its next sync opens (and makes) the database anew.
FORGET = """(dbs, name) => {
  const db = dbs[name];
  if (db) { try { db.close(); } catch (e) {} delete dbs[name]; }
}"""


def store_stamp(folder: str = MOUNT) -> list[int]:
    """[newest write in ms, number of files and folders] under the folder kept in IndexedDB: what
    IDBFS stores of it once synced (each path's mtime, its "timestamp"), so the page can tell
    whether anything was written since without reading a game (web/picture.js storeStamp)."""
    newest, count = 0, 0
    folders = [folder]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                newest = max(newest, entry.stat(follow_symlinks=False).st_mtime_ns // 1_000_000)
                count += 1
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
    return [newest, count]


def _notes() -> dict[str, str]:
    try:
        notes = json.loads(_read(NOTES) or b"{}")
        return notes if isinstance(notes, dict) else {}
    except ValueError:  # cut short by a full storage: the notes start again
        return {}


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def _handling() -> bool:
    """Whether Flet is still running a handler of a tap (each runs in a task of its own, and its
    changes are sent when it ends)."""
    return any(not task.done() and getattr(task.get_coro(), "__qualname__", "") == "Session.dispatch_event"
               for task in asyncio.all_tasks())


def _error_name(error) -> str:
    """The DOMException's name ("QuotaExceededError"), or the error as text."""
    return str(getattr(error, "name", None) or error)


def _error_text(error) -> str:
    message = getattr(error, "message", None)
    return f"{_error_name(error)}: {message}" if message else _error_name(error)


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


async def _syncfs(populate: bool):
    """IDBFS's sync of the mounted folder: None when done, else the browser's error."""
    from pyodide.ffi import create_once_callable, jsnull

    done = asyncio.get_running_loop().create_future()

    def finished(error=None):
        if not done.done():
            done.set_result(error)

    _fs().syncfs(populate, create_once_callable(finished))
    error = await done
    return None if error is None or error is jsnull else error


async def _persisted() -> bool:
    import js
    try:
        return bool(await js.navigator.storage.persisted())
    except Exception:  # no StorageManager in this browser
        return False


async def _only_tab(wait: bool = False) -> bool:
    """Hold the store's lock for as long as this tab lives; False if another tab has it. With
    wait, returns once the other tab is closed and this one holds it."""
    from pyodide.code import run_js
    try:
        take = run_js("""(name, wait) => new Promise((resolve) => navigator.locks.request(
            name, wait ? {} : {ifAvailable: true},
            (lock) => { resolve(!!lock); return lock ? new Promise(() => {}) : null; }))""")
        return bool(await take(TAB_LOCK, wait))
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
    host = PhoneHost()
    opened: dict = {}

    async def main(page: ft.Page) -> None:
        theme.only_page(page)  # its language and text size for tasks Flet starts without a page
        try:
            if "app" not in opened:
                if not await _only_tab():
                    await notice(page, N_("Pandapad is open in another tab"),
                                 N_("Go on in the other tab: two at once would write over each other's games. This "
                                    "tab takes over by itself as soon as the other one is closed."))
                    _say_ready()
                    await _only_tab(wait=True)  # the other tab is closed: its last tap is stored
                    page.views.clear()
                try:
                    opened["app"] = app_main(await host.open_store(), host)
                except (StoreError, OSError) as exc:
                    log.exception("opening the store")
                    await notice(page, N_("The games cannot be opened"), str(exc))
                    return
            await opened["app"](page)
            _hear_the_page(page)
            host.page = page
        finally:  # whatever the first screen is, the page's opening screen goes
            _say_ready()
        host.still_soon(STILL_AFTER_OPENING)  # the open wrote the store (its stat cache): the pad as it opened is still

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


def _tell_page(step: str, **more) -> None:
    """A step of this tab's Python told to its own page only (web/early.js hands it on as a
    pandapad-step event), not to the other tabs a BroadcastChannel would reach."""
    import js
    from pyodide.ffi import to_js
    try:
        js.postMessage(to_js({"pandapad": step, **more}, dict_converter=js.Object.fromEntries))
    except Exception as exc:  # noqa: BLE001 - not in a worker: no page of ours to tell
        log.info("telling the page %s: %s", step, exc)


def _say_ready() -> None:
    """Tell the page the app is up (web/page.js then makes the offline copy), and this tab's page
    that its first screen is sent (web/early.js then lets Flutter draw)."""
    import js
    _tell_page("ready")
    try:
        js.BroadcastChannel.new("pandapad").postMessage("ready")
    except Exception as exc:  # no BroadcastChannel: the page makes the copy a minute after loading
        log.info("telling the page: %s", exc)
