"""Games handed to another phone by QR code (issue #53): the codes' text, made and read.

Format 1 (storage/README.md, "Handing games over by QR code", is the contract):
payload = the export JSON of the games (export_file.export_text), data = zlib level 9 of it,
checksum = CRC-32 of data as 8 uppercase hex digits (also the transfer's identity), data cut
into n chunks as equal as possible, n the fewest for which every frame fits a QR code of
version MAX_VERSION at level M, and frame k of n is the text
`PANDAPAD/1/<k>/<n>/<CHECKSUM>/<Base45 of chunk k>`: only characters of the QR alphanumeric
set, so the code is in alphanumeric mode and a decoder that returns text reads it whole.

No Flet and no clock here: the view gives the `exported` stamp and the frames it scanned.

Decisions:
- A text that does not begin with `PANDAPAD/` is another app's code (a URL): `add()` says
  "foreign" and the scan goes on. One that begins so but cannot be read (a header not as
  above, k outside 1..n, more than MAX_FRAMES frames, more characters than any QR code holds,
  a format other than 1) is refused at once, by `add()` and so by `payload_of()`, in one line:
  format 2 or later reads "made by a newer Pandapad (format 2); this one reads format 1". Only
  the version is read of a later format's header: it may lay out the rest otherwise.
- The first readable frame fixes the transfer (checksum and n); a frame of another one is
  "other" and never held, so two phones' codes seen by turns are never mixed.
- A second frame k is "again" and the first one held is kept, even if its text differs: the
  checksum of the whole decides, and a mismatch is refused (the view starts the scan over).
- A frame's Base45 is checked when the set is complete, by `payload_of()`: the checksum is of
  the joined data, so only then can a misread be told from a sound frame.
"""
from __future__ import annotations

import re
import zlib

import base45

from scoring.common import N_, Words

from .export_file import export_text
from .reader import IMPORT_LIMIT, Refused, import_bytes

PREFIX = "PANDAPAD/"
FORMAT = 1
# The densest code a phone's camera reads at a glance from another phone's screen (docs:
# phones-together.md, "What a game weighs"); beyond it a loop of frames reads faster.
MAX_VERSION = 20
# The characters a QR code of MAX_VERSION holds at level M in alphanumeric mode (ISO/IEC 18004
# table 7: 5,352 data bits, less 4 of mode and 11 of count, 11 bits per two characters).
MAX_CHARS = 970
# The most frames a transfer may have (k and n of at most three digits): a reader holds at
# most MAX_FRAMES × QR_MAX_CHARS characters whatever it is shown.
MAX_FRAMES = 999
# The most characters any QR code holds (version 40, level L, alphanumeric): a longer text was
# never read from a code.
QR_MAX_CHARS = 4296
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"  # RFC 9285's, the QR alphanumeric set
_VALUE = {c: i for i, c in enumerate(ALPHABET)}

_NUMBER = r"(0|[1-9][0-9]{0,19})"  # no leading zeros; short enough for int()
_VERSION = re.compile(PREFIX + _NUMBER + "/")
_HEADER_1 = re.compile(PREFIX + "1/" + _NUMBER + "/" + _NUMBER + "/([0-9A-F]{8})/")
# How the camera (assets/camera.js, told by views/handover/receive.py) gathers one sending's frames
# before Python reads them: version, k, n and checksum, in the syntax Python's re and JavaScript's
# RegExp share. Any version, so a newer Pandapad's frames reach frame_header and its words.
GATHERED = "^" + PREFIX + r"([0-9]{1,3})/([0-9]{1,3})/([0-9]{1,3})/([0-9A-F]{8})/"


def frames_of(records: list[dict], exported: str) -> list[str]:
    """The frames' texts of these records (as the store holds them), in order 1..n."""
    return frames_of_payload(export_text(records, exported).encode("utf-8"))


def frames_of_payload(payload: bytes) -> list[str]:
    """The frames of a payload already written (frames_of's second half)."""
    data = zlib.compress(payload, 9)
    checksum = f"{zlib.crc32(data):08X}"
    n = frame_count(len(data))
    q, r = divmod(len(data), n)
    frames, start = [], 0
    for k in range(1, n + 1):
        size = q + (1 if k <= r else 0)
        chunk = data[start:start + size]
        start += size
        frames.append(f"{PREFIX}{FORMAT}/{k}/{n}/{checksum}/{base45.b45encode(chunk).decode('ascii')}")
    return frames


def frame_count(size: int) -> int:
    """The fewest frames for `size` bytes of data with every frame at most MAX_CHARS long;
    ValueError past MAX_FRAMES (such a night goes by export file)."""
    for n in range(1, MAX_FRAMES + 1):
        largest = -(-size // n)
        header = len(f"{PREFIX}{FORMAT}/{n}/{n}/00000000/")
        if header + 3 * (largest // 2) + 2 * (largest % 2) <= MAX_CHARS:
            return n
    raise ValueError(f"{size:,} bytes packed need more than {MAX_FRAMES} codes; export a file instead")


def frame_header(text: str) -> tuple[int, int, int, str] | None:
    """(version, k, n, checksum) of a frame's text, as written (Frames checks their sense), or
    None for a text that is not a Pandapad frame (a URL, another app's code, a header not
    laid out as format 1's). A later format's header gives its version only: (v, 0, 0, "")."""
    if not isinstance(text, str):
        return None
    version = _VERSION.match(text)
    if version is None:
        return None
    if version.group(1) != str(FORMAT):
        return int(version.group(1)), 0, 0, ""
    header = _HEADER_1.match(text)
    if header is None:
        return None
    return FORMAT, int(header.group(1)), int(header.group(2)), header.group(3)


class Frames:
    """The frames of one transfer as they are scanned, in any order and as often as shown.

    `add(text)` returns "new", "again" (frame k already held), "other" (a frame of another
    transfer than the first held: ignored) or "foreign" (not a Pandapad code), and raises
    Refused for a Pandapad code that cannot be read (see the module's decisions)."""

    def __init__(self, name: str = "the codes"):
        self.name = name
        self.n: int | None = None
        self.checksum: str | None = None
        self._held: dict[int, str] = {}  # k -> the frame's Base45

    @property
    def have(self) -> int:
        return len(self._held)

    @property
    def complete(self) -> bool:
        return self.n is not None and len(self._held) == self.n

    @property
    def missing(self) -> list[int]:
        return [k for k in range(1, (self.n or 0) + 1) if k not in self._held]

    def add(self, text: str) -> str:
        if not isinstance(text, str) or not text.startswith(PREFIX):
            return "foreign"
        if len(text) > QR_MAX_CHARS:
            raise Refused(self.name, "", Words(N_("a code of {count} characters, more than any QR code holds"),
                                               count=len(text)))
        header = frame_header(text)
        if header is None:
            raise Refused(self.name, "", Words(N_("a code begins as a Pandapad code but its header is not "
                                                  "{layout} ({start})"),
                                               layout=f"{PREFIX}{FORMAT}/<k>/<n>/<checksum>/", start=repr(text[:40])))
        version, k, n, checksum = header
        if version != FORMAT:
            if version > FORMAT:
                raise Refused(self.name, "", Words(N_("made by a newer Pandapad (format {version}); this one reads "
                                                      "format {format}"), version=version, format=FORMAT))
            raise Refused(self.name, "", Words(N_("a code of format {version}, which no Pandapad writes"), version=version))
        if not 1 <= n <= MAX_FRAMES:
            raise Refused(self.name, frame(k, n), Words(N_("a sending has 1 to {most} codes"), most=MAX_FRAMES))
        if not 1 <= k <= n:
            raise Refused(self.name, frame(k, n), Words(N_("there is no such code: codes count from 1 to {n}"), n=n))
        if self.n is None:
            self.n, self.checksum = n, checksum
        elif (n, checksum) != (self.n, self.checksum):
            return "other"
        if k in self._held:
            return "again"
        self._held[k] = text[len(f"{PREFIX}{FORMAT}/{k}/{n}/{checksum}/"):]
        return "new"

    def payload(self, limit: int) -> bytes:
        """The export JSON bytes of the complete set, or Refused in one line."""
        name = self.name
        if self.n is None:
            raise Refused(name, "", Words(N_("none of the codes read is a Pandapad code")))
        missing = self.missing
        if len(missing) == 1:
            raise Refused(name, "", Words(N_("code {k} of {n} is missing"), k=missing[0], n=self.n))
        if missing:
            shown = ", ".join(map(str, missing[:5])) + (", …" if len(missing) > 5 else "")
            raise Refused(name, "", Words(N_("{count} of the {n} codes are missing ({which})"), count=len(missing),
                                          n=self.n, which=shown))
        data = b"".join(_base45(name, self._held[k], k, self.n) for k in range(1, self.n + 1))
        if f"{zlib.crc32(data):08X}" != self.checksum:
            raise Refused(name, "", Words(N_("the codes do not match their checksum: one was misread or changed")))
        unpack = zlib.decompressobj()
        try:
            payload = unpack.decompress(data, limit + 1)
        except zlib.error as exc:
            raise Refused(name, "", Words(N_("not packed by zlib ({error})"), error=str(exc))) from None
        if len(payload) > limit:
            raise Refused(name, "", Words(N_("more than {limit} bytes once unpacked"), limit=limit))
        if not unpack.eof:
            raise Refused(name, "", Words(N_("the packed games stop short: a code was cut off")))
        if unpack.unused_data:
            raise Refused(name, "", Words(N_("extra bytes after the packed games: {count}"), count=len(unpack.unused_data)))
        return payload


def frame(k: int, n: int) -> Words:
    """Where in a transfer: "code 2 of 5" (Words: a view says it in the phone's language)."""
    return Words(N_("code {k} of {n}"), k=k, n=n)


def _base45(name: str, text: str, k: int, n: int) -> bytes:
    """Base45 per RFC 9285 (the `base45` package), refused naming the frame and the reason."""
    where = frame(k, n)
    for i, c in enumerate(text):
        if c not in _VALUE:
            raise Refused(name, where, Words(N_("not Base45 ({character} at character {place} is not in its alphabet)"),
                                             character=repr(c), place=i + 1))
    if len(text) % 3 == 1:
        raise Refused(name, where, Words(N_("not Base45 (one character left over at its end)")))
    try:
        return base45.b45decode(text)
    except ValueError:
        raise Refused(name, where, Words(N_("not Base45 (a group of three characters stands for a number above 65535)"))) from None


def payload_of(texts: list[str], limit: int = IMPORT_LIMIT, name: str = "the codes") -> bytes:
    """The export JSON bytes from the frames scanned (any order, repeats, other codes among
    them), or Refused: one line that names what is wrong and where."""
    frames = Frames(name)
    for text in texts:
        frames.add(text)
    return frames.payload(limit)


def games_of(texts: list[str], name: str = "the codes", limit: int = IMPORT_LIMIT) -> list:
    """The games (transfer.Incoming) of the frames, read as every import is (reader.import_bytes)."""
    return import_bytes(payload_of(texts, limit, name), name, limit)


__all__ = ["MAX_VERSION", "MAX_CHARS", "MAX_FRAMES", "GATHERED", "Frames", "frames_of", "frames_of_payload", "frame_count",
           "frame_header", "payload_of", "games_of"]
