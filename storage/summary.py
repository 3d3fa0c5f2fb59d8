"""Index rows: what the history screen, `list` and CSV need of a game, without its record."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import json

from scoring import RecordBase, RecordError, Result, bounds, score
from scoring.statistics import facts

from .api import Summary

ROW_KEYS = {"id", "revision", "version", "game", "created", "finished", "order", "players", "winners"}
# Rows written by this version also keep the game's statistics facts, as JSON text (a string
# per row is not tracked by the garbage collector); rows of older index files lack them.
OPTIONAL_KEYS = {"facts"}


def order_key(created: str | None, finished: str | None) -> str:
    """Sort key, newest = largest: `created` in UTC, else `finished`; undated games sort oldest."""
    for stamp in (created, finished):
        if stamp:
            try:
                when = datetime.fromisoformat(stamp)
            except ValueError:
                return stamp  # not ISO 8601: the text itself still sorts dates sensibly
            if when.tzinfo is None:
                when = when.replace(tzinfo=timezone.utc)
            return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return ""


def index_row(record: RecordBase, revision: int, result: Result | None = None) -> dict[str, Any]:
    result = score(record) if result is None else result
    return {
        "id": record.id, "revision": revision, "version": record.version, "game": record.game,
        "created": record.created, "finished": record.finished,
        "order": order_key(record.created, record.finished),
        "players": tuple((s.id, s.name, s.total, s.place) for s in result.players),
        "winners": tuple(record.name_of(w) for w in result.winners),
        "facts": json.dumps(facts(record, result), separators=(",", ":")),
    }


def checked_row(row: Any) -> dict[str, Any]:
    """An index row read from a file, checked, with tuples for lists. Rows of plain strings,
    numbers and tuples are not tracked by the garbage collector, so 10,000 of them do not
    slow down every collection (and with it, the saves of the game being played)."""
    if not isinstance(row, dict) or not ROW_KEYS <= row.keys() <= ROW_KEYS | OPTIONAL_KEYS:
        raise ValueError("an index row has the fields " + ", ".join(sorted(ROW_KEYS)))
    if not isinstance(row.get("facts", ""), str):
        raise ValueError("facts must be JSON text")
    if not (isinstance(row["id"], str) and type(row["revision"]) is int and type(row["version"]) is int
            and isinstance(row["order"], str) and isinstance(row["game"], str)):
        raise ValueError("an index row needs a string id, game and order, and whole-number "
                         "revision and version")
    for stamp in ("created", "finished"):
        if row[stamp] is not None and not isinstance(row[stamp], str):
            raise ValueError(f"{stamp} must be a string or null")
    try:
        players = tuple((i, n, t, p) for i, n, t, p in row["players"])
    except (TypeError, ValueError):
        raise ValueError("players must be [id, name, total, place] lists") from None
    for i, n, t, p in players:
        if not (isinstance(i, str) and isinstance(n, str) and type(t) is int and type(p) is int):
            raise ValueError("players must be [id, name, total, place] lists")
    if not isinstance(row["winners"], list) or not all(isinstance(w, str) for w in row["winners"]):
        raise ValueError("winners must be a list of names")
    try:  # what the record would have been refused for: a number `list` cannot print, half a character
        bounds.check({k: v for k, v in row.items() if k != "facts"})
    except RecordError as exc:
        raise ValueError(f"{exc.where}: {exc.message}") from None
    return {**row, "players": players, "winners": tuple(row["winners"])}


def to_summary(row: dict[str, Any]) -> Summary:
    return Summary(row["id"], row["game"], row["created"], row["finished"],
                   [(p[0], p[1], p[2]) for p in row["players"]], list(row["winners"]))
