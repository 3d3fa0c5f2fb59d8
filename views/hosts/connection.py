"""The server's side of a phone's link to the table; assets/connection.js is the phone's side.

The phone can only tell a stalled Wi-Fi from a quiet game if the server speaks regularly: a
pulse every PULSE seconds, a tiny change to a hidden control. Three missed pulses and the
phone shows "Not connected — taps are not saved" and takes no taps. When the link comes back
the shell redraws the screen from the store (Shell.on_connect), so the phone never goes on
from a picture that missed what happened meanwhile.
"""
from __future__ import annotations

import asyncio
import logging

import flet as ft

from views.device.session import connected

log = logging.getLogger(__name__)

PULSE = 0.5  # seconds; assets/connection.js PULSE_MS must match


class Pulse:
    """A heartbeat to one phone while it is connected."""

    def __init__(self, page: ft.Page):
        self.page = page
        # Hidden and out of the accessibility tree: only its changes matter (the phone
        # watches for frames, not for this text).
        self.beat = ft.Text("0", visible=False)
        page.overlay.append(self.beat)
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if not self._on_page():
            # On the phone's page at once, not with the first screen: the table first keeps
            # the token on the phone, a round trip that a slow Wi-Fi or a busy phone makes
            # longer than a pulse, and the phone must hear the beats meanwhile.
            self.page.update()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def _on_page(self) -> bool:
        try:
            return self.beat.page is not None
        except RuntimeError:  # Flet: not added to the page yet (the overlay not sent)
            return False

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        n = 0
        while connected(self.page):
            await asyncio.sleep(PULSE)
            n = (n + 1) % 1000
            self.beat.value = str(n)
            try:
                self.beat.update()
            except Exception as exc:  # that beat is lost, not the pulse; a closed session ends the loop
                log.debug("a beat not sent: %s", exc)


def tell_every_lost_socket() -> None:
    """Make sure Flet marks a session disconnected whenever its socket ends, however it ends.

    Flet 1.0.5's FletApp.handle tells the session only after its send loop ended cleanly. A
    send on a socket the Wi-Fi just reset (a pulse or another phone's die going out at that
    moment) raises out of handle before that, so the session keeps its dead socket; the
    phone's reconnect is then refused that session and given a new one, on_connect never sees
    the phone come back, and its pad forgets whose hand this phone was on (a fresh-clone run
    came back to 'Round 1 is in' instead of Cat's hand). Wrapped here, for this process."""
    from flet_web.fastapi import flet_app
    from flet_web.fastapi.flet_app_manager import app_manager

    handle = flet_app.FletApp.handle
    if getattr(handle, "tells_every_lost_socket", False):
        return

    async def handle_then_tell(self, websocket) -> None:
        try:
            await handle(self, websocket)
        except Exception as exc:  # the socket is gone either way: say so once, in the log
            log.info("a phone's socket ended with %r", exc)
        session = getattr(self, "_FletApp__session", None)
        if session is not None and session.connection is self:  # handle did not tell it
            await app_manager.disconnect_session(self._FletApp__get_unique_session_id(session.id),
                                                 self._FletApp__session_timeout_seconds)

    handle_then_tell.tells_every_lost_socket = True
    flet_app.FletApp.handle = handle_then_tell
