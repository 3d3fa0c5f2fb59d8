"""The one way a file comes in (issue #22): `score`, `import`, `-` for standard input and the
app's import all read through here, so each refuses the same things in the same words.

- Only a regular file (or standard input) is read: a folder, a pipe with no writer, a device
  (/dev/zero) is refused from its stat, before a byte is read. It is opened with O_NONBLOCK
  so that a file swapped for a pipe between the stat and the open cannot hang the read.
- At most `limit` bytes are read: a file (or a stream) larger than that is refused as soon
  as the limit is passed, so memory and time stay bounded whatever comes in.
- Only UTF-8 text: decoded as it arrives, so /dev/urandom on standard input is refused at
  its first bad byte; a NUL byte (never in JSON text) is refused too.
- The JSON is read by jsonstream (keys given twice, NaN, 1e400, half characters refused)
  and every record by scoring.parse_record (scoring/bounds.py: digits, depth, rounds, dice).

Refusals raise Refused: `str()` is the one line records.md promises, naming the file.
"""
from __future__ import annotations

import codecs
import os
import re
import stat
import sys
from typing import Any, BinaryIO

from scoring import RecordError

# A single record: the largest a table can enter (Panda Royale, 10 players with 40-character
# names, 10 rounds, every die of the rules) is about 13 KB; with the longest note bounds.py
# keeps (10,000 characters, each escaped as \ud83d\udc3c) about 130 KB. 1 MB is 8 times that.
RECORD_LIMIT = 1024 * 1024
# An export: 10,000 games of a busy club are about 70 MB; 100 MB is what the app's import takes
# too (views/screens/data.py): 7,500 of the largest 10-player records without notes.
IMPORT_LIMIT = 100 * 1024 * 1024
CHUNK = 1024 * 1024


class Refused(Exception):
    """A file that is not read: `name: where: what` in a player's words."""

    def __init__(self, name: str, where: str, what: str):
        # As given: Words (scoring.common) keep their template, for a view to say them in the
        # phone's language (storage/handoff.py's refusals, views/handover/receive.py).
        self.said_where, self.said_what = where, what
        name, where, what = one_line(name), one_line(where), one_line(what)
        self.name, self.where, self.what = name, where, what
        super().__init__(f"{name}: {where}: {what}" if where else f"{name}: {what}")


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """A message part that stays on its line and prints: a newline in a player id shows as
    \\n, half a character as \\udfff (a file may hold anything, a refusal is one line)."""
    text = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def display_name(file: str) -> str:
    return "<stdin>" if file == "-" else file


def read_text(file: str, limit: int, stdin: BinaryIO | None = None) -> str:
    """The text of a file (or of standard input for '-'), bounded and strict UTF-8."""
    name = display_name(file)
    if file == "-":
        return _decode(name, stdin if stdin is not None else sys.stdin.buffer, limit)
    if not file:
        raise Refused("pandapad", "", "the file name is empty; give the file to read")
    try:
        info = os.stat(file)
        if stat.S_ISDIR(info.st_mode):
            raise Refused(name, "", "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise Refused(name, "", f"is {_kind(info.st_mode)}, not a file; save it as a file first")
        if info.st_size > limit:
            raise Refused(name, "", _too_big(info.st_size, limit))
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise Refused(name, "", _cannot(exc)) from None
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since the stat
            raise Refused(name, "", "is not a plain file; save it as a file first")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return _decode(name, stream, limit)


def _decode(name: str, stream: BinaryIO, limit: int) -> str:
    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")  # a Windows editor's BOM is fine
    parts: list[str] = []
    done = 0
    while True:
        try:
            chunk = stream.read(min(CHUNK, limit + 1 - done))
        except OSError as exc:
            raise Refused(name, "", _cannot(exc)) from None
        if not chunk:
            break
        nul = chunk.find(b"\0")
        if nul >= 0:
            raise Refused(name, f"byte {done + nul:,}", "not UTF-8 text (a NUL byte: perhaps not a text file)")
        try:
            parts.append(decoder.decode(chunk))
        except UnicodeDecodeError as exc:
            raise Refused(name, f"byte {done + exc.start:,}", "not UTF-8 text (perhaps not a text file, "
                                                              "or saved in another encoding)") from None
        done += len(chunk)
        if done > limit:
            raise Refused(name, "", _too_big(None, limit))
    try:
        parts.append(decoder.decode(b"", final=True))
    except UnicodeDecodeError:
        raise Refused(name, f"byte {done:,}", "not UTF-8 text (it ends in the middle of a character)") from None
    return "".join(parts)


def read_record_data(file: str, stdin: BinaryIO | None = None) -> tuple[str, Any]:
    """(the name to show, the JSON value) of a record file for `score`."""
    from .jsonstream import Unreadable, loads
    import json
    name = display_name(file)
    text = read_text(file, RECORD_LIMIT, stdin)
    try:
        return name, loads(text)
    except RecordError as exc:  # a key given twice, half a character: named by where it is
        raise Refused(name, exc.where or "record", exc.message) from None
    except Unreadable as exc:
        raise Refused(name, f"line {exc.lineno} column {exc.colno}", f"cannot be read: {exc.msg}") from None
    except json.JSONDecodeError as exc:
        raise Refused(name, f"line {exc.lineno} column {exc.colno}", f"not valid JSON ({exc.msg})") from None


def read_import_file(file: str, stdin: BinaryIO | None = None, limit: int = IMPORT_LIMIT) -> tuple[str, list]:
    """(the name to show, the validated games) of an import file; Refused naming the problem."""
    name = display_name(file)
    return name, import_games(read_text(file, limit, stdin), name)


def import_games(text: str, name: str) -> list:
    """The games of an import file's text (transfer.Incoming), or Refused in one line."""
    import json
    from .jsonstream import Unreadable
    from .transfer import read_import
    try:
        return read_import(text)  # every record checked before the store is even opened
    except RecordError as exc:
        raise Refused(name, exc.where or "record", exc.message) from None
    except Unreadable as exc:  # valid JSON, but nested too deeply or a number too long
        raise Refused(name, f"line {exc.lineno} column {exc.colno}", f"cannot be read: {exc.msg}") from None
    except json.JSONDecodeError as exc:
        raise Refused(name, f"line {exc.lineno} column {exc.colno}", f"not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise Refused(name, "", "nested too deeply to be a game record") from None


def import_bytes(raw: bytes, name: str, limit: int = IMPORT_LIMIT) -> list:
    """import_games for bytes already received (the app's upload), with the same checks."""
    import io
    return import_games(_decode(name, io.BytesIO(raw), limit), name)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def _too_big(size: int | None, limit: int) -> str:
    has = f"is {_size(size)}" if size is not None else f"is more than {_size(limit)}"
    return f"{has}; a file to read is at most {_size(limit)} (no game record or export is larger)"


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:,.0f} MB" if n >= 10 * 1024 * 1024 else f"{max(1, -(-n // 1024)):,} KB"


def _cannot(exc: OSError) -> str:
    """The operating system's reason, without Python's "[Errno 13]" and the path again."""
    return "cannot read: " + (exc.strerror or type(exc).__name__)


__all__ = ["Refused", "RECORD_LIMIT", "IMPORT_LIMIT", "read_text", "read_record_data", "read_import_file",
           "import_games", "import_bytes"]
