"""Import and export files (records.md): reading an export or a record, writing JSON and CSV.

Decisions where the contract is silent:
- A record without `id` gets a uuid5 of its content, so importing the same id-less file
  twice finds the first copy instead of storing a second one.
- A record without `created` keeps the stored game's `created` when its id is stored; else
  it takes its `finished` time, else the time of the import (the store sorts by `created`).
- The same id twice in one file is refused unless both copies are identical.
- A copy never takes a stored game back (goes_back): not from finished to in progress, not
  to fewer rounds or fewer entries. Such a copy is left out and counted as kept.
"""
from __future__ import annotations

import csv
import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator, TextIO

from scoring import EXPORT_FORMAT, RecordError, parse_record, score
from scoring.json_text import shown_as

from .atomic import dump_bytes
from .jsonstream import loads, parse_lazily
from .summary import index_row

EXPORT_VERSION = 1  # the newest export file version this app writes and reads
ID_NAMESPACE = uuid.UUID("6c1d4a52-3f0e-4d8b-9a51-2b7e0c9f4d11")  # Pandapad's uuid5 namespace
CSV_HEADER = ["game_id", "game", "created", "finished", "seat", "player", "total", "place", "winner"]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class Incoming:
    """One validated game of an import, kept compact until the store takes it."""
    id: str
    record: bytes  # the record as it will be stored (upgraded), JSON
    row: dict[str, Any]  # its index row (revision 1)
    undated: bool  # it came without `created`: the store dates it
    place: str = ""  # where it is in the file ("games[3]"), to name it in a warning
    problems: tuple[str, ...] = ()  # a finished game's errors by its rules: imported, but said (#22)


def read_import(text: str) -> list[Incoming]:
    """The games of an import file's text, validated, all or nothing. Raises
    json.JSONDecodeError on bad JSON (jsonstream.Unreadable on JSON nested too deeply or
    with too long a number), RecordError naming the record and the problem."""
    lazily = parse_lazily(text, EXPORT_FORMAT)
    if lazily is None:
        return prepare(loads(text))
    head, games = lazily
    _check_envelope(head)
    return _prepare_all(((f"games[{i}]", g) for i, g in enumerate(games)))


def prepare(data: Any) -> list[Incoming]:
    """The games of an export file's data or of a single record, validated, all or nothing."""
    if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT:
        _check_envelope(data)
        games = data.get("games")
        if not isinstance(games, list):
            raise RecordError("games", "missing: the list of games")
        return _prepare_all(((f"games[{i}]", g) for i, g in enumerate(games)))
    return _prepare_all([("", data)])


def _check_envelope(head: dict[str, Any]) -> None:
    version = head.get("version")
    if type(version) is not int:
        raise RecordError("version", f"the export file's version must be a whole number, not {shown_as(version)}")
    if version > EXPORT_VERSION:
        raise RecordError("version", f"this export file is version {version}, but this app reads "
                                     f"export files up to version {EXPORT_VERSION}; update Pandapad")


def _prepare_all(games: Iterable[tuple[str, Any]]) -> list[Incoming]:
    found: list[Incoming] = []
    seen: dict[str, tuple[str, bytes]] = {}
    for place, game in games:
        incoming = _prepare_one(place, game)
        if incoming.id in seen:
            first, earlier = seen[incoming.id]
            if earlier == incoming.record:
                continue
            raise RecordError(_join(place, "id"), f"game {incoming.id} is also {first}, with other contents; "
                                                  f"a file holds each game once")
        seen[incoming.id] = (place, incoming.record)
        found.append(incoming)
    return found


def _prepare_one(place: str, game: Any) -> Incoming:
    try:
        record = parse_record(game)
    except RecordError as exc:
        gid = game.get("id") if isinstance(game, dict) else None
        named = f"game {gid}: " if isinstance(gid, str) and gid else ""
        raise RecordError(_join(place, exc.where), named + exc.message) from None
    if not record.id:
        content = {k: v for k, v in record.to_json().items() if k != "id"}
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        record = record.model_copy(update={"id": str(uuid.uuid5(ID_NAMESPACE, canonical))})
    result = score(record)
    problems = tuple(f"{p.where}: {p.message}" if p.where else p.message
                     for p in result.problems if p.level == "error") if record.finished else ()
    return Incoming(record.id, dump_bytes(record.to_json()), index_row(record, 1, result), record.created is None,
                    place or "record", problems)


def other_game(stored: dict[str, Any], copy: dict[str, Any]) -> str | None:
    """How a copy under a stored game's id is another game (#22): another game, or other
    players (by their ids; a renamed player keeps their id), in words; None when it is a
    version of the same game."""
    if stored.get("game") != copy.get("game"):
        return f"it is {copy.get('game')}, the stored game is {stored.get('game')}"
    ids = lambda r: sorted(str(p.get("id")) for p in r.get("players") or () if isinstance(p, dict))  # noqa: E731
    if ids(stored) != ids(copy):
        names = lambda r: ", ".join(str(p.get("name")) for p in r.get("players") or ())  # noqa: E731
        return f"its players are {names(copy)}, the stored game's are {names(stored)}"
    return None


def new_id_for(game_id: str, record: bytes) -> str:
    """The id a copy that is another game is imported under: the same file imported twice
    gives the same id, so the second import finds it unchanged."""
    return str(uuid.uuid5(ID_NAMESPACE, game_id + "\n" + record.decode("utf-8")))


# What a record says about itself rather than what was entered during play.
HEADER = frozenset({"format", "version", "id", "game", "created", "finished", "players", "notes", "settings"})


def entered(record: dict[str, Any]) -> tuple[int, int]:
    """How much of a game has been entered, from its JSON: (rounds, entries). Rounds are the
    items of its `rounds` (or Pandoria's `log`); entries are every value filled in outside the
    header fields: each die of Panda Royale, each declaration and trick count of Nokosu Dice,
    each player out in Pass the Pandas, each field of a Royal Ur game, each log line and
    final tally of Pandoria."""
    rounds = sum(len(record[k]) for k in ("rounds", "log") if isinstance(record.get(k), list))
    entries, stack = 0, [v for k, v in record.items() if k not in HEADER]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif value is not None:
            entries += 1
    return rounds, entries


def goes_back(stored: dict[str, Any], copy: dict[str, Any]) -> bool:
    """Would storing `copy` over `stored` (another version of the same game) take it back?
    True when the stored game is finished and the copy is not, or when the copy has fewer
    rounds or fewer entries: then the copy is an older state (or a lesser one) and the stored
    game wins. A finish, a correction or a note on an equally complete game goes through."""
    if stored.get("finished") is not None and copy.get("finished") is None:
        return True
    (stored_rounds, stored_entries), (copy_rounds, copy_entries) = entered(stored), entered(copy)
    return copy_rounds < stored_rounds or copy_entries < stored_entries


def _join(place: str, where: str) -> str:
    if not place:
        return where
    if not where:
        return place
    return place + where if where.startswith("[") else f"{place}.{where}"


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def export_envelope(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported": now_iso(), "games": games}


def export_lines(head: dict[str, Any], games: Iterable[dict[str, Any]]) -> Iterator[str]:
    """An export as JSON text, one game per line (readable, diffable, still one JSON value,
    and read back one game at a time by jsonstream)."""
    yield json.dumps(head, ensure_ascii=False)[:-1] + ', "games": ['
    sep = "\n"
    for game in games:
        yield sep + json.dumps(game, ensure_ascii=False, separators=(", ", ": "))
        sep = ",\n"
    yield ("\n" if sep != "\n" else "") + "]}\n"


def export_json(export: dict[str, Any]) -> str:
    return "".join(export_lines({k: v for k, v in export.items() if k != "games"}, export["games"]))


def guard(text: str) -> str:
    """A cell a spreadsheet would run as a formula, made plain text with a leading '."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write_csv(rows: Iterable[dict[str, Any]], out: TextIO) -> int:
    """One row per player per game from index rows (summary.py); numbers stay numbers.
    `winner` is 1 or 0 for a finished game, empty while it is in progress. Returns games."""
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    games = 0
    for row in rows:
        games += 1
        for seat, (_, name, total, place) in enumerate(row["players"], 1):
            winner = (1 if place == 1 else 0) if row["finished"] else ""
            writer.writerow([guard(row["id"]), guard(row["game"]), guard(row["created"] or ""),
                             guard(row["finished"] or ""), seat, guard(name), total, place, winner])
    return games
