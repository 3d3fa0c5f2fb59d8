"""The server host: one Python process serves the app to the browsers of every phone at the
table (or a desktop window), the store in a folder behind its process lock. Everything only a
server can do lives here: serving and compressing Flet's client, the table's tokens and invite,
the connection pulse, uploads to a folder of this process (views/hosts/host.py says why)."""
from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import secrets
import shutil
import sys
import tempfile
import uuid
from functools import partial
from pathlib import Path

import flet as ft

from views.words import lang
from views.app import app_main
from views.hosts.connection import Pulse, tell_every_lost_socket
from views.screens.data import IMPORT_LIMIT
from views.hosts.gate import accepted_languages
from views.hosts.host import ServerThreads
from views.words.lang import N_, _
from views.table.table import Access, invite_url, lan_address, new_token, qr_terminal

log = logging.getLogger(__name__)

ASSETS = Path(__file__).resolve().parents[2] / "assets"
HOST = "127.0.0.1"
ANY = "0.0.0.0"  # --lan: every interface, so phones on the Wi-Fi reach it


LANGUAGE_COOKIE = "pandapad_language"  # assets/connection.js


class ServerHost(ServerThreads):
    """The table: tokens, the invite, the pulse each phone watches, imports uploaded to a folder."""

    def __init__(self, access: Access, invite: str | None = None, uploads: Path | None = None):
        self.access = access
        self.invite = invite
        self.uploads = uploads
        self._arrivals: dict[int, list] = {}  # picker -> the upload it waits for

    def link(self, page: ft.Page) -> Pulse:
        return Pulse(page)

    def phone_languages(self, page: ft.Page) -> tuple[str | None, list[str]] | None:
        """From the phone's socket, as it connects: the language chosen in Settings (a cookie
        assets/connection.js sets from the phone's preferences) and the browser's own
        (Accept-Language). Asking the phone instead cost its first screen a round trip (#33)."""
        try:
            socket = page.session.connection._FletApp__websocket  # flet_app.FletApp's own
        except Exception:  # another Flet, or no socket: ask the phone
            return None
        if LANGUAGE_COOKIE not in socket.cookies:  # a page without connection.js: ask the phone
            return None
        chosen = socket.cookies.get(LANGUAGE_COOKIE) or None
        return chosen, accepted_languages(socket.headers.get("accept-language"))

    def picker(self) -> ft.FilePicker:
        # The handler is given at construction: a service set up without one is never told.
        arrival: list[asyncio.Future] = []
        picker = ft.FilePicker(on_upload=partial(self._uploaded, arrival))
        self._arrivals[id(picker)] = arrival
        return picker

    @staticmethod
    def _uploaded(arrival: list, e) -> None:
        if not arrival or arrival[0].done():
            return
        if e.error:
            # TRANSLATORS: why an imported file could not be read ("bets.json could not be read (…)")
            arrival[0].set_exception(OSError(_("it did not arrive ({error})", error=e.error)))
        elif e.progress is not None and e.progress >= 1.0:
            arrival[0].set_result(None)

    async def receive(self, page: ft.Page, picker: ft.FilePicker, chosen) -> bytes:
        if chosen.path and not page.web:  # a desktop window reads the file where it is
            return await asyncio.to_thread(Path(chosen.path).read_bytes)
        stored = f"{uuid.uuid4().hex}.json"
        path = self.uploads / stored
        arrival = self._arrivals.get(id(picker), [])
        arrival[:] = [asyncio.get_running_loop().create_future()]
        try:
            await picker.upload([ft.FilePickerUploadFile(upload_url=page.get_upload_url(stored, 600),
                                                         id=chosen.id)])
            await arrival[0]
            return await asyncio.to_thread(path.read_bytes)
        finally:
            self._arrivals.pop(id(picker), None)
            path.unlink(missing_ok=True)


def fail(message: str) -> None:
    print(f"pandapad: {message}", file=sys.stderr)  # the program's name, in every language
    raise SystemExit(2)


def desktop_problem() -> str | None:
    """Why a native window cannot open here, or None."""
    try:
        import flet_desktop  # noqa: F401
    except ImportError:
        return _("{option} needs Flet's desktop client ({install}); run without {option} to use a browser",
                 option="--desktop", install="pip install flet-desktop==1.0.5")
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return _("{option} needs a graphical display and none is available here; run without {option} and open "
                 "the printed address in a browser", option="--desktop")
    return None


TOKEN_CHARS = re.compile(r"^[A-Za-z0-9._~-]{16,128}$")


def serve(data_dir: Path, port: int, desktop: bool, lan: bool, token: str | None = None) -> None:
    """Open the store and serve the app until Ctrl+C: a browser on 127.0.0.1, a window, or
    (--lan) the phones of the table on the local network, each with the access token."""
    if token is not None and not lan:
        fail(_("{token} goes with {lan} (without {lan} the app answers only on this computer)", token="--token",
               lan="--lan"))
    if token is not None and not TOKEN_CHARS.match(token):
        fail(_("{token}: 16 to 128 letters, digits or {characters} (it goes into a link)", token="--token",
               characters=". _ ~ -"))
    if lan and desktop:
        fail(_("{lan} serves phones through their browsers; leave out {desktop}", lan="--lan", desktop="--desktop"))
    if desktop and (problem := desktop_problem()):
        fail(problem)
    from storage import Store, StoreError
    try:
        store = Store.open(Path(data_dir))
    except StoreError as exc:
        fail(str(exc))
    # The home and History read every index row (~100 objects a game): parsed now, and as
    # they live as long as the server, out of the collector's sight, so that its full passes
    # do not walk them on some taps.
    try:
        store.rows()
    except StoreError as exc:
        fail(str(exc))
    gc.collect()
    gc.freeze()
    for notice in store.notices:
        print(f"pandapad: {notice}")
    # --token fixes the guests' token only; the host's is new at every start and only printed here.
    access = Access(token or new_token(), new_token()) if lan else Access(None)
    # Imports from a phone arrive through Flet's signed upload URLs into a folder of this
    # process only, bounded in size; the store reads them, never the other way round.
    uploads = Path(tempfile.mkdtemp(prefix="pandapad-uploads-"))
    os.environ.setdefault("FLET_SECRET_KEY", secrets.token_hex(32))
    os.environ["FLET_MAX_UPLOAD_SIZE"] = str(IMPORT_LIMIT)
    host = ServerHost(access, invite_url(lan_address(), port, access.token) if lan else None, uploads)
    main = app_main(store, host)

    try:
        if desktop:
            try:
                ft.run(main, view=ft.AppView.FLET_APP, assets_dir=str(ASSETS))
            except Exception as exc:  # no desktop client here (Flet fetches it once, online)
                fail(_("{option} could not start Flet's desktop client ({error}); run without {option} and open "
                       "the printed address in a browser", option="--desktop", error=exc))
        else:
            # Loopback only unless --lan, whatever the environment says.
            address = ANY if lan else HOST
            os.environ["FLET_FORCE_WEB_SERVER"] = "true"
            os.environ["FLET_SERVER_IP"] = address
            os.environ["FLET_SERVER_PORT"] = str(port)
            if lan:
                host_link = invite_url(lan_address(), port, access.host_token)
                print(_("Pandapad is served to the table at {link}", link=host.invite) + "\n"
                      + _("Scan this with the phones (same Wi-Fi), or type the address:") + "\n\n"
                      + qr_terminal(host.invite) + "\n"
                      + _("Host link (keep it to yourself; open it on the laptop or a tablet): {link}",
                          link=host_link) + "\n"
                      + _("On this computer: {link}", link=f"http://{HOST}:{port}/?token={access.host_token}") + "\n"
                      + _("Ctrl+C stops it."), flush=True)
            else:
                print(_("Pandapad is served at {link} (Ctrl+C stops it)", link=f"http://{HOST}:{port}/"), flush=True)
            serve_the_client_compressed()
            configure_the_server(access)
            tell_every_lost_socket()
            tell_errors_in_words()
            ft.run(main, view=ft.AppView.WEB_BROWSER, host=address, port=port, no_cdn=True,
                   assets_dir=str(ASSETS), upload_dir=str(uploads))
    finally:
        store.close()
        shutil.rmtree(uploads, ignore_errors=True)


def serve_the_client_compressed() -> None:
    """Flet's web client goes to the phones compressed and is cached by them (#21); if its
    compressed copy cannot be made (disk full, no cache folder), served as Flet serves it."""
    from views.hosts import serving

    try:
        serving.install(serving.prepare(), ASSETS)
    except OSError as exc:
        print("pandapad: " + _("the phones get the app uncompressed this time ({error})", error=exc), flush=True)


# Seconds Ctrl+C (or SIGTERM) waits for open connections before it closes them.
SHUTDOWN_GRACE = 3
# The largest frame a phone may send. The largest real one measured is WS_LARGEST_SEEN bytes:
# a result card's PNG, captured in the phone and handed to the server to share (a phone's
# registration, the largest of the rest, is about 0.6 kB; an import travels as an upload,
# never through the socket). A card of ten players at the largest text is a few times taller:
# 2 MiB leaves room for it. uvicorn's default was 16 MiB; what a frame may hold once it is
# in is bounded by views/hosts/gate.py (maps and arrays counted as they are decoded).
WS_LARGEST_SEEN = 216_192  # the browser tests of share, the table, guests, data and connection
WS_MAX_SIZE = 2 * 1024 * 1024
# Seconds a phone's session is kept after its socket ended, for the phone to come back to
# (Flet's default: an hour).
SESSION_TIMEOUT = 300


def configure_the_server(access) -> None:
    """uvicorn as Flet starts it, with Pandapad's bounds: the table's gate (views/hosts/gate.py) in
    front of Flet (it caps the sockets, in all and per address), the largest frame, and a
    graceful shutdown that ends after SHUTDOWN_GRACE s (Flet 1.0.5 gives none: a socket that
    sent bytes Flet could not read kept Ctrl+C waiting for ever). No cap on connections in
    all (uvicorn's limit_concurrency): a stranger holding that many half-sent requests open
    would turn the phones away. uvicorn.Config is built inside ft.run, so its defaults are
    set here, for this process only."""
    import uvicorn

    from views.hosts.gate import Gate

    os.environ["FLET_SESSION_TIMEOUT"] = str(SESSION_TIMEOUT)
    base = getattr(uvicorn.Config, "pandapad_base", uvicorn.Config)

    class Config(base):
        pandapad_base = base

        def __init__(self, app, *args, **kwargs):
            kwargs.setdefault("timeout_graceful_shutdown", SHUTDOWN_GRACE)
            kwargs["ws_max_size"] = WS_MAX_SIZE
            super().__init__(Gate(app, access), *args, **kwargs)

    uvicorn.Config = Config


# What a phone is told when a handler of the app fails: words, never Flet's traceback (which
# names the server's files); the traceback goes to the server's log, where Flet writes it.
CRASHED = N_("Something went wrong on the host's computer, and it was noted there. "
             "Reload the page to carry on; every entry shown as saved is kept.")


def tell_errors_in_words() -> None:
    from flet.messaging.session import Session

    if getattr(Session.error, "in_words", False):
        return
    error = Session.error

    def error_in_words(self, message: str) -> None:
        error(self, lang.translations(lang.language(self.page)).gettext(CRASHED))  # in that phone's language

    error_in_words.in_words = True
    Session.error = error_in_words


