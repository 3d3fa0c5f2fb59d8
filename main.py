"""Pandapad: the score pad app, and its command line (contract: shared/spec/records.md)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from views.words import lang
from views.words.lang import _

DEFAULT_PORT = 8550


def data_dir(arg: str | None) -> Path:
    """--data-dir, else the folder Flet gives a built app, else the user's data directory."""
    if arg is not None:
        if not arg.strip():  # "" is not the default store: a script's empty variable must not write there
            fail("pandapad: " + _("{option} is empty; give the folder of the store", option="--data-dir"))
        return Path(arg).expanduser()
    if os.environ.get("FLET_APP_STORAGE_DATA"):
        return Path(os.environ["FLET_APP_STORAGE_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "pandapad"


def read_json(file: str):
    """(name, JSON) of a record file or '-' for standard input, read through the one bounded
    reader (storage/reader.py); a bad file is one line on stderr and exit 2."""
    from storage.reader import Refused, read_record_data
    try:
        return read_record_data(file)
    except Refused as exc:
        fail(str(exc))


def fail(message: str, status: int = 2):
    print(message, file=sys.stderr)
    raise SystemExit(status)


def cmd_score(args) -> int:
    from scoring import RecordError, parse_record, score
    name, data = read_json(args.file)
    try:
        result = score(parse_record(data))
    except RecordError as exc:
        from storage.reader import Refused
        fail(str(Refused(name, exc.where or "record", exc.message)))
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:  # never a traceback
        fail(_("{file}: record: cannot be scored ({error}); please report this file", file=name,
               error=type(exc).__name__))
    json.dump(result.to_json(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 1 if result.has_errors else 0


def cmd_import(args) -> int:
    from storage.cli import run_import
    return run_import(data_dir(args.data_dir), args.file)


def cmd_export(args) -> int:
    if args.bgstats is not None:
        if args.format != "json" or args.out is not None:
            fail("pandapad: " + _("{command} prints one link: it takes neither {format} nor {out}",
                                  command="export --bgstats", format="--format", out="--out"))
        from storage.cli import run_bgstats
        return run_bgstats(data_dir(args.data_dir), args.bgstats)
    from storage.cli import run_export
    return run_export(data_dir(args.data_dir), args.format, args.out)


def cmd_list(args) -> int:
    from storage.cli import run_list
    return run_list(data_dir(args.data_dir))


def cmd_app(args) -> int:
    from views.hosts.server import serve
    serve(data_dir(args.data_dir), port=args.port, desktop=args.desktop, lan=args.lan, token=args.token)
    return 0


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        fail("pandapad: " + _("{message} (see {help})", message=message, help="--help"))


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="main.py", description=_("Pandapad score pad"))
    p.add_argument("--data-dir", help=_("folder of the game store (default: the user's data directory)"))
    # The commands take --data-dir too; SUPPRESS keeps one given before the command.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=_("port of the app (default {port})",
                                                                      port=DEFAULT_PORT))
    p.add_argument("--desktop", action="store_true", help=_("open a native window"))
    p.add_argument("--lan", action="store_true", help=_("serve to phones on the local network, with an access token"))
    p.add_argument("--token", help=_("with {lan}: the access token to use (default: a new random one)", lan="--lan"))
    p.set_defaults(func=cmd_app)
    sub = p.add_subparsers(dest="command", parser_class=Parser)
    s = sub.add_parser("score", parents=[common], help=_("score a game record"))
    s.add_argument("file", help=_("a game record (JSON), or - for standard input"))
    s.set_defaults(func=cmd_score)
    s = sub.add_parser("import", parents=[common], help=_("add games from an export file or a record"))
    s.add_argument("file")
    s.set_defaults(func=cmd_import)
    s = sub.add_parser("export", parents=[common], help=_("write every stored game"))
    s.add_argument("--format", choices=["json", "csv"], default="json")
    s.add_argument("--out", help=_("file to write (default: standard output)"))
    s.add_argument("--bgstats", metavar="GAME_ID",
                   help=_("print the link that logs this finished game in BG Stats instead"))
    s.set_defaults(func=cmd_export)
    s = sub.add_parser("list", parents=[common], help=_("one line per stored game, newest first"))
    s.set_defaults(func=cmd_list)
    return p


def main(argv=None) -> int:
    # Messages to a person in the terminal's language (#33); what other tools read stays as it is.
    lang.set_language(lang.of_environment(os.environ))
    args = parser().parse_args(argv)
    if args.func is not cmd_app:
        lang.for_terminal()  # words for a terminal, with none of the screen's line-break joiners
    return args.func(args)


if __name__ == "__main__":
    if sys.platform == "emscripten":  # the static build (make web): the phone is the host
        from views.hosts.standalone import start
        start()
    else:
        sys.exit(main())
