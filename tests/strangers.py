"""A stranger on the table's Wi-Fi (#31), played with a raw websocket client speaking Flet's
protocol: no browser, no token (or a wrong one), from an address of its own. Used by
tests/test_strangers.py and bench/bench_strangers.py.

Linux answers on all of 127.0.0.0/8, so a socket bound to 127.0.0.2 reaches the server from
another address than the phones' 127.0.0.1, as another phone on the Wi-Fi would."""
from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from pathlib import Path

import msgpack
import websockets
from flet.messaging.protocol import MessageAction

from views.hosts.gate import COOKIE

STRANGER = "127.0.0.2"
MB = 1024 * 1024


def frame(action: MessageAction, body) -> bytes:
    """One Flet message as the web client sends it: [0x00][msgpack [action, body]]."""
    return b"\x00" + msgpack.packb([action.value, body])


def registration(route: str = "/") -> bytes:
    return frame(MessageAction.REGISTER_CLIENT, {"session_id": None, "page_name": "", "page": {
        "route": route, "width": 412.0, "height": 915.0, "web": True, "platform": "android"}})


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident now, the most it was ever) of a process, in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def socket_url(server_url: str) -> str:
    return server_url.replace("http://", "ws://") + "ws"


def connect(server_url: str, token: str | None = None, *, origin: str | None = None, address: str = STRANGER,
            **kwargs):
    """A websocket to the table's Flet endpoint, with the cookie a link gives when `token`."""
    headers = {"Cookie": f"{COOKIE}={token}"} if token else {}
    return websockets.connect(socket_url(server_url), additional_headers=headers, origin=origin,
                              local_addr=(address, 0), open_timeout=10, max_size=None, **kwargs)


def run(coro, timeout: float = 120):
    """Run a coroutine to its end on a thread of its own: in a whole run Playwright's sync API
    owns the main thread's event loop."""
    result: dict = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as exc:  # handed to the caller
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"still running after {timeout} s")
    if "error" in result:
        raise result["error"]
    return result.get("value")


class Flood:
    """A stranger hammering the port from STRANGER until stopped: sockets with no token and
    with wrong ones (each then sends a 16 MB frame of empty maps if it gets that far), fat
    registrations, and pages opened with wrong tokens, `workers` at a time."""

    def __init__(self, server_url: str, workers: int = 4):
        self.url = server_url
        self.workers = workers
        self.outcomes: Counter[str] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=asyncio.run, args=(self._flood(),), daemon=True)

    def __enter__(self) -> "Flood":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=60)

    async def _flood(self) -> None:
        await asyncio.gather(*(self._worker(k) for k in range(self.workers)))

    async def _worker(self, k: int) -> None:
        fat = b"\x00" + b"\x80" * (16 * MB)  # 16 MB of empty MessagePack maps
        fat_route = registration("/" + "x" * (15 * MB))
        n = 0
        while not self._stop.is_set():
            n += 1
            kind = (k + n) % 3
            try:
                if kind == 2:
                    await self._page(f"wrong-token-{k}-{n}-0123456789")
                    continue
                token = None if kind == 0 else f"wrong-token-{k}-{n}-0123456789"
                async with connect(self.url, token) as ws:
                    await ws.send(fat if n % 2 else fat_route)
                    await ws.recv()
                self.outcomes["socket let in"] += 1
            except websockets.InvalidStatus as exc:
                self.outcomes[f"socket refused {exc.response.status_code}"] += 1
            except (OSError, websockets.WebSocketException) as exc:
                self.outcomes[type(exc).__name__] += 1

    async def _page(self, token: str) -> None:
        host, port = self.url.split("//", 1)[1].rstrip("/").split(":")
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(STRANGER, 0))
        try:
            writer.write(f"GET /?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            status = (await reader.readline()).split()[1].decode()
            self.outcomes[f"page {status}"] += 1
        finally:
            writer.close()


def wait_until(check, timeout: float, step: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(step)
    return check()
