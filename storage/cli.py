"""The import, export and list commands (records.md). Each prints and returns the exit
status; bad input is one line on stderr naming the file, the place and the problem, exit 2,
the store untouched."""
from __future__ import annotations

import os
import re
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from .api import StoreError
from .atomic import write_atomic
from .reader import Refused, one_line, read_import_file
from .store import Store
from .export_file import export_pieces


# Characters that would break a `list` line apart or hide part of it: C0 and C1 controls
# (tab, newline, ...) and the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _field(text: str) -> str:
    """A value as one tab-free field of one line: a tab in a name shows as \\t, a newline as
    \\n, any other control character as \\xNN or \\uNNNN (the stored name is unchanged)."""
    return _CONTROL.sub(lambda m: _ESCAPES.get(m.group()) or
                        (f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"),
                        text)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def _store_failed(data_dir: Path, exc: Exception) -> int:
    """The store's message, starting with the data folder (said once, not twice)."""
    message = str(exc)
    if isinstance(exc, OSError) and exc.strerror:  # not "[Errno 13] Permission denied: '/…/store.lock'"
        named = f" ({os.path.relpath(exc.filename, data_dir)})" if isinstance(exc.filename, str) else ""
        message = f"cannot use the store: {exc.strerror.lower()}{named}"
    return _fail(message if message.startswith(f"{data_dir} ") else f"{data_dir}: {message}")


def _stdout_closed() -> int:
    """The reader of standard output went away (`export | head`): stop at once and quietly,
    as the standard tools do, with status 1 since the output is incomplete. Standard output
    is pointed at /dev/null so that the flush at exit does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a real file (tests): nothing will flush to it
        pass
    return 1


def _open(data_dir: Path) -> Store:
    store = Store.open(data_dir)
    for notice in store.notices:
        print(f"pandapad: {data_dir}: {one_line(notice)}", file=sys.stderr)  # a name may hold a newline
    return store


def _open_to_read(data_dir: Path) -> AbstractContextManager[Store | None]:
    """The store for export and list; None when there is no folder at all. Reading never
    makes a store (a mistyped --data-dir must not leave an empty store behind): it shows
    an empty one, and says on stderr that the folder does not exist."""
    if not os.path.lexists(data_dir):
        print(f"no games stored in {data_dir} (no such folder)", file=sys.stderr)
        return nullcontext(None)
    return _open(data_dir)


def run_import(data_dir: Path, file: str) -> int:
    try:
        name, games = read_import_file(file)  # every record checked before the store is even opened
    except Refused as exc:
        return _fail(str(exc))
    try:
        with _open(data_dir) as store:
            report = store.import_incoming(games)
    except (StoreError, OSError) as exc:
        return _store_failed(data_dir, exc)
    for warning in report.warnings():  # a line each, on stderr: the counts line stays as scripts read it
        print(f"pandapad: {name}: {one_line(warning)}", file=sys.stderr)
    games_word = "game" if report.total == 1 else "games"
    print(f"{name}: imported {report.total} {games_word}: {report}")
    return 0


def run_export(data_dir: Path, fmt: str, out: str | None) -> int:
    try:
        with _open_to_read(data_dir) as store:
            pieces, counted = export_pieces(store, fmt)
            if out is None:
                for piece in pieces:
                    sys.stdout.write(piece)
                sys.stdout.flush()
                return 0
            text = "".join(pieces)
            count = counted[0]
    except BrokenPipeError:  # an OSError: before the store's errors
        return _stdout_closed()
    except (StoreError, OSError) as exc:
        return _store_failed(data_dir, exc)
    try:
        write_atomic(Path(out), text.encode("utf-8"))
    except OSError as exc:
        return _fail(f"{out}: cannot write: {exc.strerror or exc}")
    print(f"exported {count} {'game' if count == 1 else 'games'} to {out}", file=sys.stderr)
    return 0


def run_bgstats(data_dir: Path, game_id: str) -> int:
    """The BG Stats link of one finished game (scoring/share.py), for scripts."""
    from scoring.share import bgstats_link, play

    try:
        with _open_to_read(data_dir) as store:
            if store is None:
                return 2  # _open_to_read said there is no such folder
            try:
                record = store.load(game_id).record
            except KeyError:
                return _fail(f"{_field(game_id)}: no game with this id in {data_dir} (`main.py list` shows the ids)")
    except (StoreError, OSError) as exc:
        return _store_failed(data_dir, exc)
    if not record.finished:
        return _fail(f"{_field(game_id)}: this game is still in progress; BG Stats logs finished plays")
    try:
        print(bgstats_link(play(record)))
        sys.stdout.flush()
    except BrokenPipeError:
        return _stdout_closed()
    return 0


def run_list(data_dir: Path) -> int:
    try:
        with _open_to_read(data_dir) as store:
            rows = store.rows() if store else []
    except (StoreError, OSError) as exc:
        return _store_failed(data_dir, exc)
    rows.sort(key=lambda r: r["order"], reverse=True)
    try:
        for row in rows:
            winners = ", ".join(row["winners"]) if row["finished"] else "-"
            print("\t".join(_field(text) for text in [row["id"], row["game"], row["created"] or "-",
                                                       row["finished"] or "in progress", winners]))
        sys.stdout.flush()
    except BrokenPipeError:
        return _stdout_closed()
    if not rows and store:  # else _open_to_read said so
        print(f"no games stored in {data_dir}", file=sys.stderr)
    return 0
