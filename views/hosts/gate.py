"""The table's door (#31): an ASGI layer in front of Flet's server that checks the token
before Flet reads a byte of a phone's socket, and keeps what one address can take bounded.

- The link's ?token= is turned into a cookie (HttpOnly, SameSite=Lax) when the page is
  opened; the phone's browser sends it with the socket's handshake and with every later
  opening, so a reload, a dropped Wi-Fi or a phone that kept the cookie comes back in, and a
  socket without a good one is refused before it is accepted: no session, no frame decoded.
- A page opened without a good token gets a small page of its own, in words, and not the app.
- Wrong tokens from one address: after GUESSES in GUESS_WINDOW seconds, that address is told
  to wait and its tokens are not even checked until the window has passed.
- Live sockets are capped in all and per address; each frame is checked for the shape Flet
  expects (a Flet message, the first one a registration) and a socket that sends anything
  else is closed; a socket whose phone is gone cannot keep its handler waiting for ever.

No Flet screens here, and nothing of the games: only tokens, addresses and frames.
"""
from __future__ import annotations

import asyncio
import collections
import html
import logging
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import msgpack
from flet.messaging.protocol import (
    ControlEventBody,
    InvokeMethodResponseBody,
    MessageAction,
    RegisterClientRequestBody,
    UpdateControlPropsBody,
    decode_ext_from_msgpack,
)
from starlette.requests import HTTPConnection
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from views.words import lang
from views.words.lang import N_
from views.table.table import Access

log = logging.getLogger(__name__)

COOKIE = "pandapad_token"
COOKIE_DAYS = 180  # a phone that comes back to next month's game night with the same --token
SOCKET_PATH = "/ws"  # Flet's one websocket endpoint (the app is served at the root)
UPLOAD_PATH = "/upload"
# Maps and arrays in one frame, and items in one of them: a phone's registration has about 40
# maps and arrays, an event a few; the largest real frame (a result card's PNG) is one bytes.
MAX_CONTAINERS = 2048
MAX_ITEMS = 4096
# Flet's message bodies, by action: a frame whose body does not make one is not Flet's.
BODIES = {
    MessageAction.REGISTER_CLIENT: RegisterClientRequestBody,
    MessageAction.CONTROL_EVENT: ControlEventBody,
    MessageAction.UPDATE_CONTROL_PROPS: UpdateControlPropsBody,
    MessageAction.INVOKE_METHOD: InvokeMethodResponseBody,
}


@dataclass(frozen=True)
class Limits:
    sockets: int = 64            # live sockets in all: ten phones with a few tabs each, and room
    sockets_per_address: int = 16  # one phone's tabs and reconnects overlapping a moment
    guesses: int = 5             # wrong tokens from one address before it is made to wait
    guess_window: float = 60.0   # seconds a wrong token counts against its address
    addresses_kept: int = 4096   # addresses remembered for their wrong tokens (oldest forgotten)
    gone_grace: float = 5.0      # seconds a handler gets to end after its socket ended


class Gate:
    """Wraps the ASGI app Flet serves; with an open Access (no --lan) it only checks frames."""

    def __init__(self, app, access: Access, limits: Limits = Limits(), clock=time.monotonic):
        self.app = app
        self.access = access
        self.limits = limits
        self.clock = clock
        self.live: collections.Counter[str] = collections.Counter()
        self.wrong: collections.OrderedDict[str, collections.deque] = collections.OrderedDict()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # --- tokens ---------------------------------------------------------------------------

    def waiting(self, address: str) -> bool:
        """Whether this address has guessed wrong too often lately."""
        times = self.wrong.get(address)
        if not times:
            return False
        while times and self.clock() - times[0] > self.limits.guess_window:
            times.popleft()
        return len(times) >= self.limits.guesses

    def guessed_wrong(self, address: str) -> None:
        times = self.wrong.pop(address, None) or collections.deque(maxlen=self.limits.guesses)
        times.append(self.clock())
        self.wrong[address] = times  # most recent last, so the oldest is forgotten first
        while len(self.wrong) > self.limits.addresses_kept:
            self.wrong.popitem(last=False)
        log.info("a wrong token from %s", address)

    def judge(self, address: str, presented: str | None) -> str:
        """"in", "out" (no token, or a wrong one) or "wait" (too many wrong ones lately)."""
        if presented is None:
            return "out"
        if self.waiting(address):
            return "wait"
        if self.access.role(presented) is None:
            self.guessed_wrong(address)
            return "out"
        return "in"

    # --- pages ----------------------------------------------------------------------------

    async def http(self, scope, receive, send) -> None:
        if self.access.open or not is_page(scope["path"]):
            # Flet's client files are the same for every Flet app: no game, no name in them.
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        address = conn.client.host if conn.client else ""
        linked = conn.query_params.get("token")
        verdict = self.judge(address, linked if linked is not None else conn.cookies.get(COOKIE))
        if verdict != "in":
            status = 429 if verdict == "wait" else 403
            code = lang.of_phone(accepted_languages(conn.headers.get("accept-language")))
            await send_page(send, status, page_in(WAIT if verdict == "wait" else PRIVATE, code))
            return
        if linked is None:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []),
                                                 (b"set-cookie", cookie_header(linked))])
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    # --- sockets --------------------------------------------------------------------------

    async def websocket(self, scope, receive, send) -> None:
        conn = HTTPConnection(scope)
        address = conn.client.host if conn.client else ""
        why = None
        if scope["path"] != SOCKET_PATH:
            why = "not Flet's socket"
        elif not same_origin(conn):
            why = "a page of another site"
        elif not self.access.open and self.judge(address, conn.cookies.get(COOKIE)) != "in":
            why = "no good token"
        elif sum(self.live.values()) >= self.limits.sockets:
            why = "too many sockets in all"
        elif self.live[address] >= self.limits.sockets_per_address:
            why = "too many sockets from one address"
        if why is not None:
            log.info("a socket from %s refused: %s", address, why)
            try:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
            except Exception as exc:  # the stranger left first
                log.debug("refusing a socket: %r", exc)
            return
        self.live[address] += 1
        try:
            await self.checked(scope, receive, send, address)
        finally:
            self.live[address] -= 1
            if not self.live[address]:
                del self.live[address]

    async def checked(self, scope, receive, send, address: str) -> None:
        """Flet's handler, fed only frames of the shape Flet expects, and ended when its socket
        is: Flet 1.0.5 waits for ever on a socket that ended before it registered a session."""
        gone = asyncio.Event()
        registered = False

        async def receive_checked() -> dict[str, Any]:
            nonlocal registered
            message = await receive()
            if message["type"] == "websocket.receive":
                problem = frame_problem(message, registered)
                if problem is None:
                    registered = True
                    return message
                log.warning("a frame from %s closed its socket: %s", address, problem)
                try:
                    await send({"type": "websocket.close", "code": 1008})
                except Exception as exc:  # already closing: the same end either way
                    log.debug("closing after a bad frame: %r", exc)
                message = {"type": "websocket.disconnect", "code": 1008}
            if message["type"] == "websocket.disconnect":
                gone.set()
            return message

        handler = asyncio.ensure_future(self.app(scope, receive_checked, send))
        ended = asyncio.ensure_future(gone.wait())
        try:
            await asyncio.wait({handler, ended}, return_when=asyncio.FIRST_COMPLETED)
            if not handler.done():
                await asyncio.wait({handler}, timeout=self.limits.gone_grace)
        finally:
            ended.cancel()
            if not handler.done():
                log.info("a handler from %s outlived its socket: ended", address)
                handler.cancel()
            try:
                await handler
            except asyncio.CancelledError:
                pass


def is_page(path: str) -> bool:
    """An address that opens the app (its page, a game's link) rather than one of its files.
    Uploads carry a signed address of their own, given only to a session let in."""
    if path == UPLOAD_PATH:
        return False
    last = path.rsplit("/", 1)[-1]
    return "." not in last or last.endswith(".html")


def same_origin(conn: HTTPConnection) -> bool:
    """A browser says which page opened the socket; another site's page may not use the
    phone's cookie to reach the table. (A client that is no browser sends no Origin.)"""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return origin.split("://", 1)[-1] == conn.headers.get("host", "")


def frame_problem(message: dict[str, Any], registered: bool) -> str | None:
    """What is wrong with one frame from a phone, or None for a Flet message Flet can take."""
    data = message.get("bytes")
    if data is None:
        return "a text frame"
    if not data:
        return None  # Flet skips an empty frame
    if data[0] != 0x00:
        return f"a frame of type {data[0]:#04x}"  # data channels: Pandapad opens none
    try:
        count = counted(MAX_CONTAINERS)
        decoded = msgpack.unpackb(data[1:], ext_hook=decode_ext_from_msgpack, object_hook=count, list_hook=count,
                                  max_array_len=MAX_ITEMS, max_map_len=MAX_ITEMS)
        action, body = decoded
        action = MessageAction(action)
        BODIES[action](**body)
    except Exception as exc:
        return f"not a Flet message ({type(exc).__name__})"
    if not registered and action != MessageAction.REGISTER_CLIENT:
        return f"{action.name} before registering"
    if action == MessageAction.CONTROL_EVENT and not (isinstance(body["target"], int)
                                                     and isinstance(body["name"], str)):
        return "an event without a control and a name"
    return None


def counted(limit: int):
    """A hook for each map and array decoded that stops the decoding past `limit` of them:
    a frame of nothing but empty maps is few bytes an object, and Flet would decode it whole
    (16 MB of them took 1.16 GB). Real frames are a few dozen maps, or one PNG as bytes."""
    n = 0

    def hook(obj):
        nonlocal n
        n += 1
        if n > limit:
            raise ValueError(f"more than {limit} maps and arrays")
        return obj
    return hook


def cookie_header(token: str) -> bytes:
    # HttpOnly: no script reads it. Lax rather than Strict: a guest who opens the table's
    # address from a chat message (another site) still brings it; a socket opened by another
    # site's page does not, and same_origin refuses it anyway.
    return (f"{COOKIE}={token}; Path=/; Max-Age={COOKIE_DAYS * 86400}; HttpOnly; SameSite=Lax"
            ).encode("latin-1")


def _page(title: str, words: str, code: str = "en") -> bytes:
    return f"""<!DOCTYPE html>
<html lang="{html.escape(code)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Pandapad</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid;
       place-items: center; text-align: center; background: Canvas; color: CanvasText; }}
main {{ padding: 24px; max-width: 28rem; }}
h1 {{ font-size: 1.75rem; margin: 0 0 16px; }}
p {{ font-size: 1.125rem; line-height: 1.5; margin: 0; }}
</style></head>
<body><main><h1>{html.escape(title)}</h1><p>{html.escape(words)}</p></main></body></html>
""".encode("utf-8")


# The pages a phone gets instead of the app, as (title, words): in the language its browser
# asks for (Accept-Language), as the app itself would speak to it (#33).
PRIVATE = (N_("This table is private"),
           N_("Ask the host for the link: scan the QR code on the host's screen, or open the "
              "address the host gives you, with its token."))
WAIT = (N_("Too many wrong links"),
        N_("This phone opened too many wrong links to this table. Wait a minute, then open "
           "the link the host gives you."))


def accepted_languages(header: str | None) -> list[str]:
    """The language tags of an Accept-Language header, the most wanted first ("de-DE,de;q=0.9"),
    without the ones it refuses (q=0) and without "*"."""
    return [tag for tag, weight in parse_accept_header(header, LanguageAccept) if weight > 0 and tag != "*"]


@lru_cache(maxsize=None)
def page_in(page: tuple[str, str], code: str = "en") -> bytes:
    """One of these pages in a language of Pandapad (lang.LANGUAGES, or the pseudo-locale)."""
    words = lang.translations(code)
    return _page(words.gettext(page[0]), words.gettext(page[1]), "en" if code == lang.PSEUDO else code)


async def send_page(send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})
