"""Table mode: one laptop or tablet serves the phones around the table over the local
network, and only a phone that was given the link (with its access token) sees anything.
No Flet here: the shell and main.py use it."""
from __future__ import annotations

import hmac
import io
import ipaddress
import secrets
import socket

from views.handover import qr

TOKEN_BYTES = 24          # 192 bits, at least the 128 the issue asks for
TOKEN_KEY = "pandapad.token"  # where a phone keeps the token it was given (its browser storage)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class Access:
    """Who may see the store, and as whom: everyone is the host (no token: served on 127.0.0.1
    only), or a session presents the host's token (the host) or the table's (a guest)."""

    def __init__(self, token: str | None, host_token: str | None = None):
        self.token = token            # the guest token: the table link, the Invite screen's QR code
        self.host_token = host_token  # the host link: printed in the host's terminal, never shown

    @property
    def open(self) -> bool:
        return self.token is None

    def role(self, presented: str | None) -> str | None:
        """"host", "guest", or None for a session that may see nothing."""
        if self.token is None:
            return "host"
        if not presented:
            return None
        given = presented.encode("utf-8", "replace")
        # Constant time, and both compared every time: how much of a guess matched, or which
        # token it was closer to, must not show in how long the answer takes.
        host = self.host_token is not None and hmac.compare_digest(given, self.host_token.encode("utf-8"))
        guest = hmac.compare_digest(given, self.token.encode("utf-8"))
        return "host" if host else "guest" if guest else None

    def admits(self, presented: str | None) -> bool:
        return self.role(presented) is not None


def lan_address() -> str:
    """This machine's address on the local network, as phones on the same Wi-Fi reach it;
    127.0.0.1 when it has none."""
    candidates: list[str] = []
    try:
        candidates += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    try:
        # A UDP "connect" sends nothing: it only asks the routing table which local address
        # would be used, which is the one on the default route (the Wi-Fi).
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1, never routed anywhere
            candidates.insert(0, s.getsockname()[0])
    except OSError:
        pass
    for address in candidates:
        ip = ipaddress.ip_address(address)
        if not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified:
            return address
    return "127.0.0.1"


def invite_url(host: str, port: int, token: str) -> str:
    return f"http://{host}:{port}/?token={token}"


def qr_terminal(url: str) -> str:
    """The link as a QR code drawn with block characters, for the terminal."""
    import segno
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def qr_src(url: str, scale: int = 6) -> str:
    """The link as a QR code picture, for the Invite players screen (views/handover/qr.py)."""
    return qr.code_src(url, error="m", scale=scale, border=3, boost_error=True)
