"""A flaky Wi-Fi on loopback: a TCP proxy between the test browser and the app server that
passes traffic, holds it (a stall: the sockets stay open, nothing moves), or resets every
connection and refuses new ones (the phone lost the network), on command.

    with LinkProxy(server.port) as link:
        page = open_app_page(browser, link.url + "game/g1")
        link.hold(); ...; link.release()     # a stall: what was sent meanwhile arrives late
        link.cut(); ...; link.restore()      # a drop: connections reset, new ones refused
        link.lag(0.15)                       # a slow Wi-Fi: every byte 150 ms late each way

It runs its own event loop on a thread: Playwright's sync API owns the main thread's loop.
Only 127.0.0.1 is ever dialled.
"""
from __future__ import annotations

import asyncio
import socket
import struct
import threading

HOST = "127.0.0.1"
CHUNK = 65536


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with an RST, as a dropped Wi-Fi looks to both ends, not a polite FIN."""
    sock = writer.get_extra_info("socket")
    try:
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    writer.transport.abort()


class LinkProxy:
    def __init__(self, target_port: int, port: int = 0):
        self.target_port = target_port
        self.port = port
        self.loop = asyncio.new_event_loop()
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._flowing: asyncio.Event | None = None
        self._refusing = False
        self._lag = 0.0
        self._server: asyncio.AbstractServer | None = None
        self._thread = threading.Thread(target=self.loop.run_forever, name="link-proxy", daemon=True)

    # ------------------------------------------------------------------ commands (any thread)
    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def start(self) -> "LinkProxy":
        self._thread.start()
        self._call(self._start())
        return self

    def hold(self) -> None:
        """A stall: open connections stay open and new ones are accepted, but no byte moves
        either way until release()."""
        self._call(self._set_flowing(False))

    def release(self) -> None:
        self._call(self._set_flowing(True))

    def lag(self, seconds: float) -> None:
        """A slow link: each chunk is passed on `seconds` after it came, in order, either way."""
        self._lag = seconds

    def cut(self) -> None:
        """The network is gone: every open connection is reset and new ones are refused
        (accepted and reset at once) until restore()."""
        self._call(self._cut())

    def restore(self) -> None:
        self._call(self._restore())

    @property
    def open_links(self) -> int:
        return len(self._links)

    def close(self) -> None:
        if self._thread.is_alive():
            self._call(self._close())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)

    def __enter__(self) -> "LinkProxy":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=10)

    # ------------------------------------------------------------------ the loop's side
    async def _start(self) -> None:
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = await asyncio.start_server(self._accept, HOST, self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _set_flowing(self, on: bool) -> None:
        if on:
            self._flowing.set()
        else:
            self._flowing.clear()

    async def _cut(self) -> None:
        self._refusing = True
        self._flowing.set()  # a cut ends a stall: nothing is held for later
        for phone, server in list(self._links):
            _reset(phone)
            _reset(server)
        self._links.clear()

    async def _restore(self) -> None:
        self._refusing = False
        self._flowing.set()

    async def _close(self) -> None:
        await self._cut()
        if self._server is not None:
            self._server.close()

    def _late(self, writer: asyncio.StreamWriter, data: bytes, link) -> None:
        if link in self._links and not writer.is_closing():
            writer.write(data)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._refusing:
            _reset(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(HOST, self.target_port)
        except OSError:  # the server is down: the phone sees a refused connection
            _reset(writer)
            return
        link = (writer, up_writer)
        self._links.add(link)
        await asyncio.gather(self._pump(reader, up_writer, link), self._pump(up_reader, writer, link))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link) -> None:
        due = 0.0  # when the last chunk leaves: a lag never lets one overtake another
        try:
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    break
                await self._flowing.wait()  # a stall keeps what was read until release()
                if link not in self._links:
                    return  # cut meanwhile: what was held is lost, as on a dropped network
                if self._lag:
                    due = max(due, self.loop.time() + self._lag)
                    self.loop.call_at(due, self._late, writer, data, link)
                    continue
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if link in self._links:
                self._links.discard(link)
                for w in link:
                    if not w.is_closing():
                        w.close()
