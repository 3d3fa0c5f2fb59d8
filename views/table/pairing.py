"""Two phones paired by two QR codes, no server (issue #54): the codes' text, made and read.

The host's phone shows an invitation (a WebRTC offer), the guest's phone reads it and shows its
answer, the host's phone reads that; then the two talk over a data channel, with no STUN or TURN
server. A code carries only what the other side cannot know (ICE user fragment and password, the
DTLS fingerprint, the phone's addresses): the rest of the SDP is the same every time and is made
again here from a template (phones-together.md, "How small an offer is").

Format 2: `PANDAPAD/TABLE/2/<O|A>/<Base45 of the bytes>`, O an invitation (offer), A an answer;
only characters of the QR alphanumeric set, so the code is in alphanumeric mode. The bytes:
  invitation number  4 bytes (the host's, new for each invitation; the answer repeats it)
  ufrag, pwd         each one byte of length, then ASCII
  fingerprint        32 bytes (SHA-256 of the DTLS certificate)
  candidates         one byte n, then n times: 4 (IPv4) or 6 (IPv6), the address (4 or 16 bytes),
                     the UDP port (2 bytes, big-endian)
Every code fits version MAX_VERSION at level M (a phone reads it at arm's length): addresses that
would not fit are left out, IPv4 first (the Wi-Fi's), then IPv6.

Format 2 is format 1's bytes with the DTLS roles fixed (#69): the host's phone is the DTLS client,
the guest's the server. In format 1 the guest was the client and began its handshake as soon as
its browser found the host's address (Firefox answers a guest's checks before it has read the
answer), before the host had read its answer; Chromium's client then sends its hello ever more
rarely, and the host, once it has the answer, waits for the next one: an answer read 40 s after it
was made opened the link 51 s after it was made, past the host's 15 s (measured with a Firefox
host and a Chromium guest). As the server the guest only waits, and the host's handshake starts
the moment it reads the answer: read 120 s after it was made, the link opened within 0.05 s. A guest still reads a
format 1 invitation (an older Pandapad's host) and answers it in format 1, with that format's roles.

No Flet here: the page makes the SDP (web/link.js), the screens show and read the codes.
"""
from __future__ import annotations

import ipaddress
import re
import secrets
import struct
from dataclasses import dataclass

import base45

from scoring.common import N_, Words

PREFIX = "PANDAPAD/TABLE/"
FORMAT = 2           # what this Pandapad makes
READS = (1, FORMAT)  # what it reads (a format 1 invitation is answered in format 1)
INVITATION, ANSWER = "O", "A"
# Version 10 at level M holds 311 alphanumeric characters (ISO/IEC 18004 table 7).
MAX_VERSION = 10
MAX_CHARS = 311
MOST_CANDIDATES = 8

_CODE = re.compile(re.escape(PREFIX) + r"([0-9]{1,3})/([A-Z])/([0-9A-Z $%*+\-./:]*)")
_ICE_CHARS = re.compile(r"[A-Za-z0-9+/]{1,255}")


OTHER_INVITATION = N_("That guest's code answers another invitation. On the guest's phone, tap Join a table "
                      "again and read the code shown here.")


class NotATableCode(ValueError):
    """Another code than a table's (a game's codes, a URL): the camera reads on."""


class Refused(ValueError):
    """A table's code that cannot be used here, in words (Words) the screen says."""

    def __init__(self, words: Words):
        super().__init__(str(words))
        self.words = words


@dataclass(frozen=True)
class Pairing:
    """One side's half of a connection: what its code carries."""

    kind: str            # INVITATION or ANSWER
    invitation: bytes    # 4 bytes, the host's number for this invitation
    ufrag: str
    pwd: str
    fingerprint: bytes   # 32 bytes
    candidates: tuple[tuple[str, int], ...]  # (address, UDP port)
    format: int = FORMAT  # the code's format: which phone is the DTLS client (sdp_of)


def new_invitation() -> bytes:
    return secrets.token_bytes(4)


def from_sdp(kind: str, sdp: str, invitation: bytes, format: int = FORMAT) -> Pairing:  # noqa: A002
    """What the code must carry of the SDP this phone's browser made, in `format` (an answer: the
    invitation's). Refused in words when the browser found no address to offer (no Wi-Fi)."""
    values: dict[str, str] = {}
    found: list[tuple[str, int]] = []
    for line in sdp.splitlines():
        line = line.strip()
        if line.startswith("a=ice-ufrag:"):
            values.setdefault("ufrag", line.split(":", 1)[1])
        elif line.startswith("a=ice-pwd:"):
            values.setdefault("pwd", line.split(":", 1)[1])
        elif line.startswith("a=fingerprint:"):
            algorithm, _, digest = line.split(":", 1)[1].partition(" ")
            if algorithm.lower() == "sha-256":
                values.setdefault("fingerprint", digest)
        elif line.startswith("a=candidate:"):
            candidate = _address(line)
            if candidate and candidate not in found:
                found.append(candidate)
    if not all(k in values for k in ("ufrag", "pwd", "fingerprint")):
        raise ValueError(f"the browser's description lacks {sorted({'ufrag', 'pwd', 'fingerprint'} - set(values))}")
    if not found:
        raise Refused(Words(N_("This phone is not on a network the other phones can reach. Join the same Wi-Fi as "
                                "them (or one phone's hotspot), then try again.")))
    fingerprint = bytes.fromhex(values["fingerprint"].replace(":", ""))
    pairing = Pairing(kind, invitation, values["ufrag"], values["pwd"], fingerprint, (), format)
    return _fitted(pairing, found)


def _address(line: str) -> tuple[str, int] | None:
    """(address, port) of a UDP candidate; None for TCP, a hidden (mDNS) address, or loopback."""
    parts = line.split()
    try:
        protocol, address, port = parts[2].lower(), parts[4], int(parts[5])
        ip = ipaddress.ip_address(address)
    except (IndexError, ValueError):
        return None
    if protocol != "udp" or ip.is_loopback or ip.is_unspecified or not 0 < port < 65536:
        return None
    return str(ip), port


def _fitted(pairing: Pairing, found: list[tuple[str, int]]) -> Pairing:
    """The pairing with as many of the addresses as fit one code: IPv4 first, then IPv6 (link-local last)."""
    def rank(candidate):
        ip = ipaddress.ip_address(candidate[0])
        return (ip.version, ip.is_link_local)
    ordered = sorted(found, key=rank)[:MOST_CANDIDATES]
    while ordered:
        fitting = Pairing(**{**pairing.__dict__, "candidates": tuple(ordered)})
        if len(code_of(fitting)) <= MAX_CHARS:
            return fitting
        ordered.pop()
    raise ValueError("no address fits a code")


def code_of(pairing: Pairing) -> str:
    data = bytearray(pairing.invitation)
    for text in (pairing.ufrag, pairing.pwd):
        raw = text.encode("ascii")
        data += bytes([len(raw)]) + raw
    data += pairing.fingerprint
    data.append(len(pairing.candidates))
    for address, port in pairing.candidates:
        ip = ipaddress.ip_address(address)
        data.append(ip.version)
        data += ip.packed + struct.pack(">H", port)
    return f"{PREFIX}{pairing.format}/{pairing.kind}/{base45.b45encode(bytes(data)).decode('ascii')}"


def read_code(text: str, expect: str, invitation: bytes | None = None) -> Pairing:
    """The pairing a code read by the camera carries. NotATableCode: not a table's code at all;
    Refused (in words): a table's code that is not the one this phone waits for."""
    if not text.startswith(PREFIX):
        raise NotATableCode(text[:40])
    match = _CODE.fullmatch(text)
    if not match or len(text) > MAX_CHARS:
        raise Refused(Words(N_("That code could not be read whole. Hold the camera steady on it and try again.")))
    if int(match.group(1)) not in READS:
        raise Refused(Words(N_("That code was made by a newer Pandapad. Update Pandapad on this phone, then try "
                                "again.")))
    kind = match.group(2)
    if kind != expect:
        if expect == INVITATION:
            raise Refused(Words(N_("That is a guest's code. Read the code on the phone of the player who invites "
                                    "you.")))
        raise Refused(Words(N_("That is a table's invitation, not a guest's answer. Read the code the guest's "
                                "phone shows.")))
    try:
        pairing = _unpack(kind, base45.b45decode(match.group(3)), int(match.group(1)))
    except (ValueError, IndexError, struct.error):
        raise Refused(Words(N_("That code could not be read whole. Hold the camera steady on it and try again."))) from None
    if invitation is not None and pairing.invitation != invitation:
        raise Refused(Words(OTHER_INVITATION))
    return pairing


def _unpack(kind: str, data: bytes, format: int) -> Pairing:  # noqa: A002
    at = 0

    def take(n: int) -> bytes:
        nonlocal at
        if at + n > len(data):
            raise ValueError("the code ends too soon")
        piece, at = data[at:at + n], at + n
        return piece

    invitation = take(4)
    ufrag = take(take(1)[0]).decode("ascii")
    pwd = take(take(1)[0]).decode("ascii")
    if not (_ICE_CHARS.fullmatch(ufrag) and _ICE_CHARS.fullmatch(pwd)):
        raise ValueError("ICE credentials of other characters")
    fingerprint = take(32)
    candidates = []
    for _ in range(take(1)[0]):
        version = take(1)[0]
        if version not in (4, 6):
            raise ValueError(f"an address of version {version}")
        address = ipaddress.ip_address(take(4 if version == 4 else 16))
        (port,) = struct.unpack(">H", take(2))
        candidates.append((str(address), port))
    if at != len(data) or not candidates:
        raise ValueError("not a whole pairing")
    return Pairing(kind, invitation, ufrag, pwd, fingerprint, tuple(candidates), format)


_ROLES = {1: {INVITATION: "actpass", ANSWER: "active"}, 2: {INVITATION: "active", ANSWER: "passive"}}


def sdp_of(pairing: Pairing) -> str:
    """The SDP the other side's browser takes: the template every Chromium, Safari and Firefox
    data channel shares, with this pairing's credentials, fingerprint and addresses. The DTLS
    roles by the format: in format 2 the invitation says the host is the client ("active"), so the
    guest's browser answers as the server ("passive") by itself, and its answer says so to the
    host's browser; in format 1 the offer left the choice ("actpass") and the guest took the client."""
    fingerprint = ":".join(f"{b:02X}" for b in pairing.fingerprint)
    lines = [
        "v=0",
        f"o=- {int.from_bytes(pairing.invitation, 'big')} 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
    ]
    for i, (address, port) in enumerate(pairing.candidates, start=1):
        # Host candidates' priority as a browser gives them (type preference 126), in the code's order.
        priority = (126 << 24) | ((65535 - i) << 8) | 255
        lines.append(f"a=candidate:{i} 1 udp {priority} {address} {port} typ host generation 0")
    lines += [
        f"a=ice-ufrag:{pairing.ufrag}",
        f"a=ice-pwd:{pairing.pwd}",
        f"a=fingerprint:sha-256 {fingerprint}",
        f"a=setup:{_ROLES[pairing.format][pairing.kind]}",
        "a=mid:0",
        "a=sctp-port:5000",
        "a=max-message-size:262144",
    ]
    return "\r\n".join(lines) + "\r\n"
