"""A phone's session as the screens see it, in either host: whether its phone is there, and work
run for it only while it is."""
from __future__ import annotations

import logging

import flet as ft

log = logging.getLogger(__name__)


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
