"""The phone by itself at a table of phones (#54): Python's end of the page's connections.

RTCPeerConnection lives only in the page (web/link.js), not in Python's worker. Python asks the
page for an invitation, an answer, a code read by the camera, and sends and hears the other
phones' messages, each a JSON text posted beside Flet's own messages (web/early.js carries them
to the page, web/python-worker.js back to `flet_js.link_heard`).
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
from typing import Callable

from views.table.phone_table import LinkFailed

log = logging.getLogger(__name__)


class PageLink:
    """The page's links to other phones, each named by a peer id Python chooses."""

    def __init__(self):
        import flet_js
        from pyodide.ffi import create_proxy

        self._asks: dict[int, asyncio.Future] = {}
        self._numbers = itertools.count(1)
        self._listeners: list[Callable[[dict], None]] = []
        self._proxy = create_proxy(self._heard)  # kept alive as long as the worker
        flet_js.link_heard = self._proxy

    def _post(self, message: dict) -> None:
        import js
        from pyodide.ffi import to_js
        js.postMessage(to_js({"pandapadLink": json.dumps(message)}, dict_converter=js.Object.fromEntries))

    async def ask(self, op: str, **fields) -> dict:
        """The page's answer to `op` (web/link.js `does`); LinkFailed when it failed."""
        number = next(self._numbers)
        answer = asyncio.get_running_loop().create_future()
        self._asks[number] = answer
        self._post({"op": op, "ask": number, **fields})
        try:
            said = await answer
        finally:
            self._asks.pop(number, None)
        if said.get("failed"):
            raise LinkFailed(said["failed"])
        return said

    def send(self, peer: str, text: str) -> None:
        self._post({"op": "send", "peer": peer, "data": text})

    def close(self, peer: str) -> None:
        self._post({"op": "close", "peer": peer})

    def listen(self, hear: Callable[[dict], None]) -> Callable[[], None]:
        """hear(event) for every event of a link: {"op": "open"|"message"|"closed"|"unsent",
        "peer", "data"}; returns what stops it."""
        self._listeners.append(hear)
        return lambda: self._listeners.remove(hear) if hear in self._listeners else None

    def _heard(self, text: str) -> None:
        try:
            said = json.loads(str(text))
        except ValueError:
            log.warning("the page said what is not JSON")
            return
        if said.get("op") == "done":
            answer = self._asks.get(said.get("ask"))
            if answer is not None and not answer.done():
                answer.set_result(said)
            return
        for hear in list(self._listeners):
            try:
                hear(said)
            except Exception:  # noqa: BLE001 - one listener's fault must not stop the others
                log.exception("a link listener failed")
