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

log = logging.getLogger(__name__)

PULSE = 0.5  # seconds; assets/connection.js PULSE_MS must match


def connected(page: ft.Page) -> bool:
    """Whether the phone of this session is connected now (Flet drops what is sent otherwise)."""
    try:
        return page.session.connection is not None
    except Exception:  # a session already closed
        return False


def run_soon(page: ft.Page, handler, *args) -> None:
    """page.run_task for work that only matters to a phone that is there (a vibration, the
    screen kept awake): Flet 1.0.5's run_task raises for a session whose socket is gone
    ('NoneType' object has no attribute 'loop'), which broke the redraw after a save."""
    if not connected(page):
        return
    try:
        page.run_task(handler, *args)
    except Exception as exc:  # gone between the check and the call
        log.info("not run for a phone that left: %s", exc)


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
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

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
            except Exception as exc:  # the session closed under us
                log.debug("pulse stopped: %s", exc)
                return
