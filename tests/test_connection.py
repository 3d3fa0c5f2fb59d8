"""The parts of issue #26 that need no browser: the loopback proxy the browser tests stand on,
a save completing for a phone whose link is gone (the vibration crashed the redraw), and the
app's page being Flet's own plus the connection script (a Flet upgrade must not drift from it)."""
from __future__ import annotations

import asyncio
import socket
import threading
import warnings
from pathlib import Path

import flet as ft
import pytest
from flet.messaging.session import Session

from scoring import Player
from scoring import panda_royale as pr
from storage import Store
from tests.flet_wire import Wired
from tests.loops import run_apart
from tests.netproxy import LinkProxy
from views.hosts.connection import Pulse
from views.device.session import run_soon
from views.games import Games

REPO = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- the proxy

@pytest.fixture
def echo():
    """A TCP echo server on 127.0.0.1: what the app server is to the proxy."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve(conn):
        with conn:
            try:
                while (data := conn.recv(4096)):
                    conn.sendall(data)
            except OSError:  # reset by the proxy's cut: what a dropped Wi-Fi does
                pass

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield listener.getsockname()[1]
    stop.set()
    listener.close()


def dial(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.settimeout(2)
    return s


def test_the_proxy_passes_holds_and_cuts(echo):
    with LinkProxy(echo) as link:
        s = dial(link.port)
        s.sendall(b"hello")
        assert s.recv(100) == b"hello"
        link.hold()  # a stall: nothing moves, the socket stays open
        s.sendall(b"late")
        s.settimeout(0.5)
        with pytest.raises(socket.timeout):
            s.recv(100)
        link.release()  # what was sent meanwhile arrives, once
        s.settimeout(2)
        assert s.recv(100) == b"late"
        link.cut()  # a drop: the open connection is reset ...
        with pytest.raises((ConnectionResetError, ConnectionAbortedError, socket.timeout, BrokenPipeError)):
            s.sendall(b"x")
            if not s.recv(100):
                raise ConnectionResetError
        s.close()
        with pytest.raises(OSError):  # ... and a new one is refused
            with dial(link.port) as s:
                s.sendall(b"again")
                if not s.recv(100):
                    raise ConnectionResetError
        link.restore()
        s = dial(link.port)
        s.sendall(b"back")
        assert s.recv(100) == b"back"
        s.close()


# --------------------------------------------------------------------------- a phone that left

def test_a_save_that_completes_after_the_phone_left_is_kept_and_does_not_crash(tmp_path):
    """Vibration on, an Android phone: its tap is saved while its link drops. Flet 1.0.5's
    page.run_task raises for a session with no connection; the save must still stand and the
    pad must not fail (it did: 'NoneType' object has no attribute 'loop')."""
    from views.pads.panda_royale.screen import RoyaleScreen

    async def play():
        session = Session(Wired(asyncio.get_running_loop()))  # Flet's own session and page
        page = session.page
        page.platform = ft.PagePlatform.ANDROID
        with Store.open(tmp_path) as store:
            games = Games(store)
            assert games.settings.haptics  # vibration on (the default)
            record = pr.Record(players=(Player(id="p1", name="Ann"), Player(id="p2", name="Ben")), id="g",
                               created="2026-11-24T19:00:00Z")
            saved = await games.create(record)
            screen = RoyaleScreen(page, games, saved)
            page.views.append(screen.view)
            await session.disconnect(60)  # the phone's Wi-Fi is gone
            with pytest.raises(AttributeError), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # its coroutine is never run
                page.run_task(asyncio.sleep, 0)  # what the pad used to call here
            ran = []

            async def buzz():
                ran.append(True)

            run_soon(page, buzz)  # nothing to vibrate: skipped, no error
            assert await screen.save(lambda r: pr.add_die(r, 0, "p1", "yellow", 4))
            await asyncio.sleep(0.05)
            assert ran == []
            assert pr.hand_of((await games.load("g")).record, 0, "p1").yellow == (4,)
            session.close()

    run_apart(play())


# --------------------------------------------------------------------------- the page

def test_the_app_page_is_flets_own_plus_the_viewport_tag_the_language_mend_and_the_connection_script():
    import flet_web

    flets = (Path(flet_web.__file__).parent / "web" / "index.html").read_text(encoding="utf-8")
    ours = (REPO / "assets" / "index.html").read_text(encoding="utf-8")
    added = [line for line in ours.splitlines() if line not in flets.splitlines()]
    assert [line for line in ours.splitlines() if line not in added] == flets.splitlines()
    # The tag Flutter puts in once it starts, there from the first moment (see
    # test_browser_connection's first-moment test), after a comment that says why.
    viewport = added.index('  <meta name="viewport" content="width=device-width, initial-scale=1.0, '
                           'maximum-scale=1.0, user-scalable=no">')
    assert added[0].startswith("  <!-- Pandapad: ") and added[viewport - 1].endswith("-->")
    assert added[viewport + 1:] == [
        "  <!-- Pandapad: English where the browser's language tag is not a language (assets/languages.js) -->",
        '  <script src="languages.js"></script>',
        "  <!-- Pandapad: says so in words when the phone cannot reach the table (assets/connection.js) -->",
        '  <script src="connection.js"></script>',
        "  <!-- Pandapad: reads another phone's codes with the camera, when the Receive screen asks "
        "(assets/camera.js) -->",
        '  <script src="camera.js" defer></script>']
    assert all((REPO / "assets" / name).is_file() for name in ("connection.js", "languages.js", "camera.js"))
    # Before Flutter's own scripts, which read the language as they start (#46).
    assert ours.index('src="languages.js"') < ours.index('src="flutter_bootstrap.js"')


def test_the_phone_and_the_server_agree_on_the_pulse():
    from views.hosts.connection import PULSE

    script = (REPO / "assets" / "connection.js").read_text(encoding="utf-8")
    assert f"const PULSE_MS = {int(PULSE * 1000)};" in script


# --------------------------------------------------------------------------- Flet's socket end

def test_a_socket_whose_send_fails_as_the_wifi_drops_still_tells_its_session():
    """A fresh-clone run: a phone came back from a reset to 'Round 1 is in' instead of the hand
    it was on. Flet 1.0.5 tells the session its socket is gone only when the send loop ends
    cleanly; a pulse sent on the reset socket raised first, the session kept the dead socket,
    and the reconnect got a new session (and a new pad). Here Flet's own FletApp.handle runs a
    session with a pulse; the socket turns reset as the uvicorn socket does (its send raises
    ClientDisconnected) and then reports the disconnect."""
    import msgpack
    from flet_web.fastapi.flet_app import FletApp
    from flet_web.fastapi.flet_app_manager import app_manager
    from starlette.websockets import WebSocket
    from uvicorn.protocols.utils import ClientDisconnected

    from views.hosts.connection import tell_every_lost_socket

    tell_every_lost_socket()

    async def play():
        incoming: asyncio.Queue = asyncio.Queue()
        reset, failed, registered = asyncio.Event(), asyncio.Event(), asyncio.Event()
        ids: list[str] = []

        async def receive():
            return await incoming.get()

        async def send(message):
            if message["type"] != "websocket.send":
                return  # the accept
            if reset.is_set():
                failed.set()
                raise ClientDisconnected()
            action, body = msgpack.unpackb(message["bytes"][1:], strict_map_key=False)
            if action == 1:  # the register reply names the session
                ids.append(body["session_id"])
                registered.set()

        async def main(page: ft.Page):
            Pulse(page).start()  # the app's own heartbeat, as Shell starts it

        scope = {"type": "websocket", "path": "/ws", "query_string": b"", "headers": [],
                 "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8550), "scheme": "ws"}
        app = FletApp(asyncio.get_running_loop(), app_manager.executor, main, None, session_timeout_seconds=60)
        await incoming.put({"type": "websocket.connect"})
        hello = [1, {"session_id": "", "page_name": "", "page": {"route": "/", "width": 412, "height": 915}}]
        await incoming.put({"type": "websocket.receive", "bytes": b"\x00" + msgpack.packb(hello)})
        handling = asyncio.create_task(app.handle(WebSocket(scope, receive, send)))
        await asyncio.wait_for(registered.wait(), 10)
        session = await app_manager.get_session(app._FletApp__get_unique_session_id(ids[0]))
        assert session.connection is app
        reset.set()  # the Wi-Fi drops: the next pulse's send fails before the socket says so
        await asyncio.wait_for(failed.wait(), 10)
        await incoming.put({"type": "websocket.disconnect", "code": 1006})
        await asyncio.wait_for(handling, 10)  # ended, not raised
        assert session.connection is None, "the session still holds the dead socket"
        session.close()

    run_apart(play())
