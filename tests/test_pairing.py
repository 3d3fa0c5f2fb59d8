"""Two phones paired by two QR codes, no server (#54): views/table/pairing.py, no browser.

What the players see: the host's phone shows an invitation, the guest's phone reads it and shows
its answer, the host's phone reads that; each code is one light QR code a phone reads at arm's
length, carries what the other phone's browser needs to reach this one, and anything else the
camera catches (a URL, a game being handed over, a damaged or foreign code) is passed over or
said in one sentence, never a traceback."""
from __future__ import annotations

import ast
import ipaddress
import random
import re
import struct
from pathlib import Path

import base45
import pytest
import segno
from hypothesis import HealthCheck, given, settings, strategies as st

from scoring.common import Words
from storage.handoff import frames_of_payload
from views.table import pairing
from views.table.pairing import ANSWER, INVITATION, NotATableCode, Pairing, Refused, code_of, from_sdp, read_code, sdp_of

# Taken from a real browser: the offer and the answer this machine's Chromium made for a data
# channel (RTCPeerConnection with no ICE server, after ICE gathering completed), verbatim.
CHROMIUM_OFFER = "\r\n".join([
    'v=0',
    'o=- 4779515408974618796 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 53084 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 192.0.2.2',
    'a=candidate:328701217 1 udp 2122194687 192.0.2.2 53084 typ host generation 0 network-id 1',
    'a=candidate:205470757 1 udp 2122265343 fd00::2 57844 typ host generation 0 network-id 2',
    'a=candidate:1829351468 1 tcp 1518214911 192.0.2.2 9 typ host tcptype active generation 0 network-id 1',
    'a=candidate:1923160360 1 tcp 1518285567 fd00::2 9 typ host tcptype active generation 0 network-id 2',
    'a=ice-ufrag:BYwN',
    'a=ice-pwd:Kop7AtqlB7oFLkAXn2T64Z7L',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 96:C8:35:AC:B6:B5:7F:93:54:FE:06:93:DF:00:BD:CA:0D:DE:4B:FF:24:9E:52:7B:28:1A:6E:F3:C4:C5:8B:2B',
    'a=setup:actpass',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
]) + "\r\n"
CHROMIUM_ANSWER = "\r\n".join([
    'v=0',
    'o=- 7819677778824541000 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS',
    'm=application 60246 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 192.0.2.2',
    'a=candidate:3157423212 1 udp 2122194687 192.0.2.2 60246 typ host generation 0 network-id 1',
    'a=candidate:3141540060 1 udp 2122265343 fd00::2 56332 typ host generation 0 network-id 2',
    'a=ice-ufrag:gmI/',
    'a=ice-pwd:chDKslhEy2JvVeCoRdD3VDK7',
    'a=ice-options:trickle',
    'a=fingerprint:sha-256 2D:5D:01:75:E0:27:08:46:43:8B:A5:CF:7A:23:D5:87:22:19:4D:01:4F:0F:3A:CD:C3:1A:C9:98:84:7E:CF:4A',
    'a=setup:active',
    'a=mid:0',
    'a=sctp-port:5000',
    'a=max-message-size:262144',
]) + "\r\n"
CHROMIUM = {INVITATION: CHROMIUM_OFFER, ANSWER: CHROMIUM_ANSWER}

# Hand-made, as Firefox and Safari write candidates (upper-case UDP, no generation; mDNS names
# when the page has no camera permission yet), with what must not be carried mixed in.
FIREFOX_LIKE = "\r\n".join([
    "v=0",
    "o=mozilla...THIS_IS_SDPARTA-128.0 5017323395155180423 0 IN IP4 0.0.0.0",
    "s=-",
    "t=0 0",
    "a=fingerprint:sha-256 0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9:0A:1B:2C:3D:4E:5F:60:71:82:93:A4:B5:C6:D7:E8:F9",
    "a=group:BUNDLE 0",
    "a=ice-options:trickle",
    "a=msid-semantic:WMS *",
    "m=application 54322 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 192.168.1.23",
    "a=candidate:0 1 UDP 2122252543 fe80::1 54322 typ host",
    "a=candidate:1 1 UDP 2122252543 192.168.1.23 54321 typ host",
    "a=candidate:2 1 udp 2122260223 4f0e1c7a-1234-4d1b-9a0b-0123456789ab.local 50000 typ host",
    "a=candidate:3 1 TCP 2105524479 192.168.1.23 9 typ host tcptype active",
    "a=candidate:4 1 TCP 2105524479 192.168.1.23 54400 typ host tcptype passive",
    "a=candidate:5 1 UDP 2122252543 127.0.0.1 54323 typ host",
    "a=candidate:6 1 UDP 2122252543 ::1 54324 typ host",
    "a=candidate:7 1 UDP 2122252543 2001:db8::23 54325 typ host",
    "a=candidate:1 1 UDP 2122252543 192.168.1.23 54321 typ host",
    "a=end-of-candidates",
    "a=ice-pwd:0123456789abcdef0123456789abcdef",
    "a=ice-ufrag:8f3c2a1b",
    "a=mid:0",
    "a=setup:actpass",
    "a=sctp-port:5000",
    "a=max-message-size:1073741823",
]) + "\r\n"

SAFARI_NO_CAMERA = "\r\n".join([
    "v=0",
    "o=- 1946224785309227394 2 IN IP4 127.0.0.1",
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    "a=candidate:1 1 udp 2122260223 4f0e1c7a-1234-4d1b-9a0b-0123456789ab.local 50000 typ host generation 0",
    "a=candidate:2 1 udp 2122262783 9b36eaac-bb2e-49bb-bb78-21c41c499900.local 50001 typ host generation 0",
    "a=candidate:3 1 tcp 1518280447 4f0e1c7a-1234-4d1b-9a0b-0123456789ab.local 9 typ host tcptype active",
    "a=ice-ufrag:Qx3v",
    "a=ice-pwd:t4aZ8mLpQ2rW9kXy1cVb6nHs",
    "a=fingerprint:sha-256 2D:5D:01:75:E0:27:08:46:43:8B:A5:CF:7A:23:D5:87:22:19:4D:01:4F:0F:3A:CD:C3:1A:C9:98:84:7E:CF:4A",
    "a=setup:active",
    "a=mid:0",
    "a=sctp-port:5000",
]) + "\r\n"

INV = bytes.fromhex("5EA7C0DE")
OTHER_INV = bytes.fromhex("5EA7C0DF")
QR_ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
UDP_HOST = re.compile(r"^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host\b", re.I | re.M)

# The words of each refusal, as much as a test needs to tell them apart.
NOT_ON_A_NETWORK = "not on a network the other phones can reach"
NOT_READ_WHOLE = "could not be read whole"
NEWER = "made by a newer Pandapad"
A_GUESTS_CODE = "That is a guest's code"
NOT_AN_ANSWER = "a table's invitation, not a guest's answer"
ANOTHER_INVITATION = "answers another invitation"


def qr(text: str):
    return segno.make(text, error="m", boost_error=False, micro=False)


def refused(text: str, expect: str, invitation: bytes | None = None) -> str:
    """The template of the words read_code refuses the text with; any other outcome fails."""
    with pytest.raises(Exception) as caught:
        read_code(text, expect, invitation=invitation)
    assert type(caught.value) is Refused, f"{type(caught.value).__name__}: {caught.value}"
    return words_of(caught.value)


def words_of(exc: Refused) -> str:
    assert isinstance(exc.words, Words)
    assert str(exc) == str(exc.words) == exc.words.template  # no values to fill in
    return exc.words.template


def refused_sdp(sdp: str) -> str:
    with pytest.raises(Exception) as caught:
        from_sdp(INVITATION, sdp, INV)
    assert type(caught.value) is Refused, f"{type(caught.value).__name__}: {caught.value}"
    return words_of(caught.value)


def packed(invitation: bytes, ufrag: bytes, pwd: bytes, fingerprint: bytes, candidates, count: int | None = None) -> bytes:
    """Format 1's bytes written from views/table/pairing.py's docstring alone."""
    data = invitation + bytes([len(ufrag)]) + ufrag + bytes([len(pwd)]) + pwd + fingerprint
    data += bytes([len(candidates) if count is None else count])
    for address, port in candidates:
        ip = ipaddress.ip_address(address)
        data += bytes([ip.version]) + ip.packed + struct.pack(">H", port)
    return data


def table_code(kind: str, data: bytes, fmt: str = str(pairing.FORMAT)) -> str:
    return f"PANDAPAD/TABLE/{fmt}/{kind}/" + base45.b45encode(data).decode("ascii")


def sdp_value(sdp: str, name: str) -> str:
    (value,) = re.findall(rf"^a={name}:(.*?)\r?$", sdp, re.M)
    return value


def udp_hosts(sdp: str) -> list[tuple[str, int]]:
    return [(address, int(port)) for address, port in UDP_HOST.findall(sdp)]


# -- a Chromium invitation and answer, through their codes -------------------------------------

@pytest.mark.parametrize("kind", [INVITATION, ANSWER], ids=["invitation", "answer"])
def test_a_chromium_invitation_and_answer_reach_the_other_phone_as_they_were(kind):
    original = CHROMIUM[kind]
    made = from_sdp(kind, original, INV)
    code = code_of(made)
    assert code.startswith(f"PANDAPAD/TABLE/2/{kind}/")
    read = read_code(code, kind, invitation=INV if kind == ANSWER else None)
    assert read == made and read.kind == kind and read.invitation == INV

    rebuilt = sdp_of(read)
    for name in ("ice-ufrag", "ice-pwd", "fingerprint"):
        assert sdp_value(rebuilt, name) == sdp_value(original, name)
    assert re.fullmatch(r"sha-256 (?:[0-9A-F]{2}:){31}[0-9A-F]{2}", sdp_value(rebuilt, "fingerprint"))
    assert [address for address, _ in udp_hosts(original)] == ["192.0.2.2", "fd00::2"]
    assert udp_hosts(rebuilt) == udp_hosts(original)
    # The roles of format 2: the host's phone the DTLS client, so the guest's only waits (#69)
    assert sdp_value(rebuilt, "setup") == ("active" if kind == INVITATION else "passive")
    assert not [line for line in rebuilt.split("\r\n") if line.startswith("a=candidate:") and " tcp " in line.lower()]
    assert rebuilt.endswith("\r\n") and "\n" not in rebuilt.replace("\r\n", "")
    # what the other phone's browser takes is read back as the same pairing
    assert from_sdp(kind, rebuilt, INV) == made


def test_an_older_hosts_invitation_of_format_1_is_answered_in_format_1_with_its_roles():
    """A guest's Pandapad reads the invitation of a host's older one and answers so that it reads
    it: format 1, the guest the DTLS client ("active") as that host's browser expects."""
    old = code_of(from_sdp(INVITATION, CHROMIUM_OFFER, INV, format=1))
    assert old.startswith("PANDAPAD/TABLE/1/O/")  # the bytes are format 2's
    invitation = read_code(old, INVITATION)
    assert invitation.format == 1 and sdp_value(sdp_of(invitation), "setup") == "actpass"
    answer = from_sdp(ANSWER, CHROMIUM_ANSWER, invitation.invitation, invitation.format)
    code = code_of(answer)
    assert code.startswith("PANDAPAD/TABLE/1/A/")
    assert sdp_value(sdp_of(read_code(code, ANSWER, invitation=INV)), "setup") == "active"


def test_the_code_is_format_2_as_the_module_states_it():
    made = from_sdp(INVITATION, CHROMIUM_OFFER, INV)
    fingerprint = bytes.fromhex(sdp_value(CHROMIUM_OFFER, "fingerprint").split()[1].replace(":", ""))
    expected = packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", fingerprint, [("192.0.2.2", 53084), ("fd00::2", 57844)])
    assert code_of(made) == table_code(INVITATION, expected)
    answer = from_sdp(ANSWER, CHROMIUM_ANSWER, INV)
    assert base45.b45decode(code_of(answer).split("/", 4)[4])[:4] == INV  # the answer repeats the number


def test_each_invitation_has_its_own_number():
    numbers = {pairing.new_invitation() for _ in range(50)}
    assert len(numbers) == 50 and all(len(n) == 4 for n in numbers)


# -- one light code each ------------------------------------------------------------------------

def test_max_chars_is_what_a_version_10_code_at_level_m_holds():
    assert pairing.MAX_VERSION == 10
    prefix = "PANDAPAD/TABLE/1/O/"
    fits, too_many = qr(prefix + "A" * (pairing.MAX_CHARS - len(prefix))), qr(prefix + "A" * (pairing.MAX_CHARS + 1 - len(prefix)))
    assert (fits.version, fits.mode, fits.error) == (10, "alphanumeric", "M")
    assert too_many.version == 11


def many_addresses_sdp(ufrag: str = "BYwN", pwd: str = "Kop7AtqlB7oFLkAXn2T64Z7L") -> str:
    """4 IPv4 and 6 IPv6 addresses (two of them link-local, listed first), IPv6 before IPv4."""
    ipv6 = ["fe80::a", "fe80::b", "2001:db8::1", "2001:db8::2", "fd00::3", "2001:db8::4"]
    ipv4 = ["192.168.1.10", "10.0.0.11", "172.16.0.12", "169.254.7.13"]
    lines = [line for line in CHROMIUM_OFFER.split("\r\n") if not line.startswith(("a=candidate:", "a=ice-"))]
    at = lines.index("a=setup:actpass")
    lines[at:at] = [f"a=candidate:{i} 1 udp 2122194687 {a} {50000 + i} typ host generation 0"
                    for i, a in enumerate(ipv6 + ipv4)]
    lines[at:at] = [f"a=ice-ufrag:{ufrag}", f"a=ice-pwd:{pwd}"]
    return "\r\n".join(lines)


MANY_KEPT = [("192.168.1.10", 50006), ("10.0.0.11", 50007), ("172.16.0.12", 50008), ("169.254.7.13", 50009),
             ("2001:db8::1", 50002), ("2001:db8::2", 50003), ("fd00::3", 50004), ("2001:db8::4", 50005),
             ("fe80::a", 50000), ("fe80::b", 50001)]


@pytest.mark.parametrize("sdp", [CHROMIUM_OFFER, CHROMIUM_ANSWER, FIREFOX_LIKE, many_addresses_sdp(),
                                 many_addresses_sdp("A" * 32, "B" * 32)],
                         ids=["chromium offer", "chromium answer", "firefox-like", "10 addresses", "10 addresses, long ICE"])
def test_every_code_is_one_light_alphanumeric_qr_code(sdp):
    kind = ANSWER if "a=setup:active" in sdp else INVITATION
    code = code_of(from_sdp(kind, sdp, INV))
    assert set(code) <= QR_ALPHANUMERIC and len(code) <= pairing.MAX_CHARS
    made = qr(code)
    assert made.mode == "alphanumeric" and made.error == "M" and made.version <= pairing.MAX_VERSION
    assert segno.make(code, error="m").version <= pairing.MAX_VERSION


def test_a_chromium_code_is_small():
    assert qr(code_of(from_sdp(INVITATION, CHROMIUM_OFFER, INV))).version <= 7


def test_with_many_addresses_ipv4_is_kept_first_and_ipv6_link_local_dropped_first():
    made = from_sdp(INVITATION, many_addresses_sdp(), INV)
    assert list(made.candidates) == MANY_KEPT[:8]  # what is left out: the two link-local IPv6
    assert read_code(code_of(made), INVITATION) == made


def test_long_ice_credentials_leave_out_the_ipv6_addresses_that_would_not_fit():
    made = from_sdp(INVITATION, many_addresses_sdp("A" * 32, "B" * 32), INV)
    kept = len(made.candidates)
    assert 4 < kept < 8 and list(made.candidates) == MANY_KEPT[:kept]
    assert len(code_of(made)) <= pairing.MAX_CHARS
    one_more = Pairing(**{**made.__dict__, "candidates": tuple(MANY_KEPT[:kept + 1])})
    assert len(code_of(one_more)) > pairing.MAX_CHARS and qr(code_of(one_more)).version > pairing.MAX_VERSION
    assert read_code(code_of(made), INVITATION) == made


# -- what is carried, and a phone with nothing to carry -----------------------------------------

def test_only_udp_addresses_others_can_reach_are_carried():
    made = from_sdp(INVITATION, FIREFOX_LIKE, INV)
    # no TCP, no loopback (127.0.0.1, ::1), no mDNS name; IPv4 first, link-local IPv6 last; no twice
    assert made.candidates == (("192.168.1.23", 54321), ("2001:db8::23", 54325), ("fe80::1", 54322))
    assert (made.ufrag, made.pwd) == ("8f3c2a1b", "0123456789abcdef0123456789abcdef")
    assert made.fingerprint == bytes.fromhex("0A1B2C3D4E5F60718293A4B5C6D7E8F9" * 2)
    rebuilt = sdp_of(read_code(code_of(made), INVITATION))
    assert udp_hosts(rebuilt) == list(made.candidates)
    assert sdp_value(rebuilt, "fingerprint") == sdp_value(FIREFOX_LIKE, "fingerprint")


def test_chromium_tcp_candidates_are_not_carried():
    made = from_sdp(INVITATION, CHROMIUM_OFFER, INV)
    assert ("192.0.2.2", 9) not in made.candidates and ("fd00::2", 9) not in made.candidates
    assert len(made.candidates) == 2


def without_candidates(sdp: str, keep=lambda line: False) -> str:
    return "\r\n".join(line for line in sdp.split("\r\n") if not line.startswith("a=candidate:") or keep(line))


@pytest.mark.parametrize("sdp", [
    SAFARI_NO_CAMERA,
    without_candidates(CHROMIUM_OFFER),
    without_candidates(CHROMIUM_OFFER, keep=lambda line: " tcp " in line),
    without_candidates(FIREFOX_LIKE, keep=lambda line: any(a in line for a in (".local", "127.0.0.1", " ::1 ", " TCP "))),
], ids=["only mDNS names (no camera permission)", "no candidate", "only TCP", "mDNS, loopback and TCP"])
def test_a_phone_no_other_phone_can_reach_is_told_to_join_the_wifi(sdp):
    template = refused_sdp(sdp)
    assert NOT_ON_A_NETWORK in template and "Wi-Fi" in template


# -- reading: the camera reads on, or one sentence ----------------------------------------------

@pytest.mark.parametrize("text", [
    "https://pandapad.app/?table=1",
    "PANDAPAD/1/1/1/0123ABCD/AB",
    frames_of_payload(b'{"format": "pandapad/export", "version": 1, "games": []}')[0],
    "",
    "PANDAPAD",
    "PANDAPAD/TABLE",
    "WIFI:S:cafe;T:WPA;P:x;;",
])
@pytest.mark.parametrize("expect", [INVITATION, ANSWER])
def test_a_code_that_is_not_a_tables_lets_the_camera_read_on(text, expect):
    with pytest.raises(Exception) as caught:
        read_code(text, expect)
    assert type(caught.value) is NotATableCode


def test_a_guests_answer_read_instead_of_an_invitation_is_named():
    answer = code_of(from_sdp(ANSWER, CHROMIUM_ANSWER, INV))
    assert A_GUESTS_CODE in refused(answer, INVITATION)


def test_an_invitation_read_instead_of_the_guests_answer_is_named():
    invitation = code_of(from_sdp(INVITATION, CHROMIUM_OFFER, INV))
    template = refused(invitation, ANSWER, invitation=INV)
    assert NOT_AN_ANSWER in template
    assert template != refused(code_of(from_sdp(ANSWER, CHROMIUM_ANSWER, INV)), INVITATION)


def test_an_answer_to_another_invitation_is_refused():
    answer = code_of(from_sdp(ANSWER, CHROMIUM_ANSWER, OTHER_INV))
    assert ANOTHER_INVITATION in refused(answer, ANSWER, invitation=INV)
    assert read_code(answer, ANSWER, invitation=OTHER_INV).invitation == OTHER_INV


def test_a_code_of_format_3_is_refused_as_made_by_a_newer_pandapad():
    data = code_of(from_sdp(INVITATION, CHROMIUM_OFFER, INV)).split("/", 4)[4]
    for text in (f"PANDAPAD/TABLE/3/O/{data}", "PANDAPAD/TABLE/3/O/", "PANDAPAD/TABLE/3/Q/ANYTHING ELSE",
                 f"PANDAPAD/TABLE/17/A/{data}"):
        assert NEWER in refused(text, INVITATION)


OFFER = from_sdp(INVITATION, CHROMIUM_OFFER, INV)
OFFER_CODE = code_of(OFFER)
OFFER_DATA = OFFER_CODE.split("/", 4)[4]
FP = OFFER.fingerprint
TWO = list(OFFER.candidates)
DAMAGED = {
    "cut short by 1": OFFER_CODE[:-1],
    "cut short by 2": OFFER_CODE[:-2],
    "cut short by 3": OFFER_CODE[:-3],
    "cut short by 5": OFFER_CODE[:-5],
    "cut to its prefix": "PANDAPAD/TABLE/1/O/",
    "cut after the fingerprint": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, [])[:-1]),
    "a candidate count too big": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, TWO, count=3)),
    "a candidate count of 255": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, TWO, count=255)),
    "no candidate": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, [])),
    "a byte after its end": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, TWO) + b"\0"),
    "an address of version 5": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, [])[:-1]
                                           + bytes([1, 5, 1, 2, 3, 4, 0, 80])),
    "a ufrag longer than the code": table_code("O", INV + bytes([200]) + b"BYwN"),
    "a ufrag of no character": table_code("O", packed(INV, b"", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, TWO)),
    "a ufrag not of ICE characters": table_code("O", packed(INV, b"BY-N", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, TWO)),
    "a pwd not ASCII": table_code("O", packed(INV, b"BYwN", "Kop7AtqlB7oFLkAXn2T64Z7é".encode(), FP, TWO)),
    "a short fingerprint": table_code("O", packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP[:20], TWO)),
    "garbage Base45 (a group above 65535)": "PANDAPAD/TABLE/1/O/:::",
    "garbage Base45 (a character left over)": "PANDAPAD/TABLE/1/O/ABCD",
    "garbage Base45 (a last pair above 255)": "PANDAPAD/TABLE/1/O/ABC::",
    "lower-case letters in its data": "PANDAPAD/TABLE/1/O/" + OFFER_DATA.lower(),
    "a lower-case kind": "PANDAPAD/TABLE/1/o/" + OFFER_DATA,
    "a character out of the QR alphabet": "PANDAPAD/TABLE/1/O/" + OFFER_DATA[:6] + "#" + OFFER_DATA[7:],
    "a line end after it": OFFER_CODE + "\n",
    "no kind": "PANDAPAD/TABLE/1//" + OFFER_DATA,
    "no format": "PANDAPAD/TABLE//O/" + OFFER_DATA,
    "a format of four digits": "PANDAPAD/TABLE/1000/O/" + OFFER_DATA,
    "longer than a code holds": code_of(Pairing(INVITATION, INV, "BYwN", "Kop7AtqlB7oFLkAXn2T64Z7L", FP,
                                                tuple((f"2001:db8::{i}", 5000 + i) for i in range(10)))),
    "longer than a code holds, of spaces": OFFER_CODE + " " * (pairing.MAX_CHARS - len(OFFER_CODE) + 1),
}


@pytest.mark.parametrize("text", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_damaged_code_is_refused_as_not_read_whole(text):
    assert NOT_READ_WHOLE in refused(text, INVITATION)


def test_a_code_longer_than_max_chars_is_refused_though_whole():
    text = DAMAGED["longer than a code holds"]
    assert len(text) > pairing.MAX_CHARS and qr(text).version > pairing.MAX_VERSION
    fewer = code_of(Pairing(INVITATION, INV, "BYwN", "Kop7AtqlB7oFLkAXn2T64Z7L", FP,
                            tuple((f"2001:db8::{i}", 5000 + i) for i in range(6))))
    assert len(fewer) <= pairing.MAX_CHARS and len(read_code(fewer, INVITATION).candidates) == 6


def test_the_undamaged_code_is_read():
    assert read_code(OFFER_CODE, INVITATION) == OFFER


# -- every refusal in words a phone can say in its language -------------------------------------

def every_refusal() -> dict[str, str]:
    answer = code_of(from_sdp(ANSWER, CHROMIUM_ANSWER, OTHER_INV))
    return {
        "not on a network": refused_sdp(SAFARI_NO_CAMERA),
        "not read whole": refused(DAMAGED["cut short by 1"], INVITATION),
        "newer": refused("PANDAPAD/TABLE/3/O/" + OFFER_DATA, INVITATION),
        "a guest's code": refused(answer, INVITATION),
        "not an answer": refused(OFFER_CODE, ANSWER, invitation=INV),
        "another invitation": refused(answer, ANSWER, invitation=INV),
    }


def marked_for_translation() -> set[str]:
    """The strings views/table/pairing.py passes to N_ (what `make catalogs` extracts)."""
    tree = ast.parse(Path(pairing.__file__).read_text(encoding="utf-8"))
    return {node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_"
            and node.args and isinstance(node.args[0], ast.Constant)}


def test_every_refusal_is_one_english_sentence_marked_for_translation():
    refusals = every_refusal()
    assert len(set(refusals.values())) == len(refusals)  # each says its own thing
    marked = marked_for_translation()
    for why, template in refusals.items():
        assert template and template[0].isupper() and template.endswith("."), why
        assert template.isascii() and "\n" not in template and "{" not in template, why
        assert template in marked, why


# -- never a traceback, whatever the camera gives -----------------------------------------------

ICE = st.text(alphabet=ICE_CHARS, min_size=4, max_size=32)
PWD = st.text(alphabet=ICE_CHARS, min_size=22, max_size=32)
ADDRESS = st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6)).map(str)
CANDIDATES = st.lists(st.tuples(ADDRESS, st.integers(1, 65535)), min_size=1, max_size=10)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([INVITATION, ANSWER]), st.binary(min_size=4, max_size=4), ICE, PWD,
       st.binary(min_size=32, max_size=32), CANDIDATES)
def test_any_pairing_that_fits_a_code_comes_back_exactly(kind, invitation, ufrag, pwd, fingerprint, candidates):
    made = Pairing(kind, invitation, ufrag, pwd, fingerprint, tuple(candidates))
    code = code_of(made)
    assert code == table_code(kind, packed(invitation, ufrag.encode(), pwd.encode(), fingerprint, candidates))
    if len(code) <= pairing.MAX_CHARS:
        assert read_code(code, kind, invitation=invitation if kind == ANSWER else None) == made
    else:
        assert NOT_READ_WHOLE in refused(code, kind)


def offered(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([INVITATION, ANSWER]), ICE, PWD, st.binary(min_size=32, max_size=32), CANDIDATES,
       st.lists(st.sampled_from(["tcp", "mdns"]), max_size=3))
def test_any_browsers_description_gives_one_code_with_ipv4_first(kind, ufrag, pwd, fingerprint, candidates, others):
    lines = ["v=0", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel"]
    for i, (address, port) in enumerate(candidates):
        lines.append(f"a=candidate:{i} 1 {'UDP' if i % 2 else 'udp'} 2122252543 {address} {port} typ host")
    for i, other in enumerate(others):
        lines.append(f"a=candidate:t{i} 1 tcp 1518280447 192.168.9.{i} 9 typ host tcptype active" if other == "tcp"
                     else f"a=candidate:m{i} 1 udp 2122260223 {i}f0e1c7a-1234-4d1b-9a0b-0123456789ab.local 5000{i} typ host")
    fingerprint_hex = ":".join(f"{b:02X}" for b in fingerprint)
    lines += [f"a=ice-ufrag:{ufrag}", f"a=ice-pwd:{pwd}", f"a=fingerprint:sha-256 {fingerprint_hex}"]
    unique = list(dict.fromkeys((a, p) for a, p in candidates if offered(a)))
    if not unique:
        assert NOT_ON_A_NETWORK in refused_sdp("\r\n".join(lines))
        return
    made = from_sdp(kind, "\r\n".join(lines), INV)
    ranked = sorted(unique, key=lambda c: (ipaddress.ip_address(c[0]).version, ipaddress.ip_address(c[0]).is_link_local))
    kept = len(made.candidates)
    assert 1 <= kept <= pairing.MOST_CANDIDATES and list(made.candidates) == ranked[:kept]
    if kept < min(len(ranked), pairing.MOST_CANDIDATES):  # left out only what would not fit
        assert len(code_of(Pairing(**{**made.__dict__, "candidates": tuple(ranked[:kept + 1])}))) > pairing.MAX_CHARS
    code = code_of(made)
    assert len(code) <= pairing.MAX_CHARS  # version 10 at most (test_max_chars_is_what_...)
    assert read_code(code, kind, invitation=INV) == made
    assert (made.ufrag, made.pwd, made.fingerprint) == (ufrag, pwd, fingerprint)


TAILS = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=sorted(QR_ALPHANUMERIC) + ["a", "\n", "é"], max_size=80),
    st.tuples(st.sampled_from(["1", "1", "1", "2", "0", "01", ""]), st.sampled_from(["O", "A", "X", "o", ""]),
              st.binary(max_size=120).map(lambda b: base45.b45encode(b).decode())).map("/".join),
    # near a real code: its bytes with some changed, cut or added to
    st.tuples(st.integers(0, 80), st.binary(max_size=24)).map(
        lambda t: "1/O/" + base45.b45encode(packed(INV, b"BYwN", b"Kop7AtqlB7oFLkAXn2T64Z7L", FP, TWO)[:t[0]]
                                              + t[1]).decode()),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TAILS, st.sampled_from([INVITATION, ANSWER]), st.sampled_from([None, INV]))
def test_whatever_follows_the_prefix_is_read_or_refused_in_one_sentence(tail, expect, invitation):
    text = pairing.PREFIX + tail
    templates = set(every_refusal_templates())
    try:
        got = read_code(text, expect, invitation=invitation)
    except Refused as exc:
        assert type(exc) is Refused and words_of(exc) in templates
    else:
        assert type(got) is Pairing and got.kind == expect and len(got.fingerprint) == 32 and got.candidates
        assert invitation is None or got.invitation == invitation
        if tail.startswith("1/"):
            assert code_of(got) == text  # only what a Pandapad writes is read


_TEMPLATES: list[str] = []


def every_refusal_templates() -> list[str]:
    if not _TEMPLATES:
        _TEMPLATES.extend(every_refusal().values())
    return _TEMPLATES


def test_a_seeded_scatter_of_one_character_changes_never_gives_another_exception():
    rng = random.Random(54)
    answer = code_of(from_sdp(ANSWER, CHROMIUM_ANSWER, INV))
    for code, kind in ((OFFER_CODE, INVITATION), (answer, ANSWER)):
        for _ in range(300):
            at = rng.randrange(len(pairing.PREFIX), len(code))
            text = code[:at] + rng.choice(sorted(QR_ALPHANUMERIC | {"a"})) + code[at + 1:]
            try:
                got = read_code(text, kind, invitation=INV if kind == ANSWER else None)
            except Refused as exc:
                assert type(exc) is Refused
            else:
                assert code_of(got) == text
