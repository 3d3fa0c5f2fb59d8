"""Index rows: what the history screen, `list` and CSV need of a game, without its record."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from scoring import RecordBase, score

from .api import Summary

ROW_KEYS = {"id", "revision", "version", "game", "created", "finished", "order", "players", "winners"}


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


def index_row(record: RecordBase, revision: int) -> dict[str, Any]:
    result = score(record)
    return {
        "id": record.id, "revision": revision, "version": record.version, "game": record.game,
        "created": record.created, "finished": record.finished,
        "order": order_key(record.created, record.finished),
        "players": [[s.id, s.name, s.total, s.place] for s in result.players],
        "winners": [record.name_of(w) for w in result.winners],
    }


def check_row(row: Any) -> None:
    """Raise ValueError unless `row` has the shape index_row() gives."""
    if not isinstance(row, dict) or set(row) != ROW_KEYS:
        raise ValueError("an index row has the fields " + ", ".join(sorted(ROW_KEYS)))
    if not isinstance(row["id"], str) or type(row["revision"]) is not int or type(row["version"]) is not int:
        raise ValueError("an index row needs a string id and whole-number revision and version")
    if not isinstance(row["order"], str) or not isinstance(row["game"], str):
        raise ValueError("an index row needs a string game and order")
    for stamp in ("created", "finished"):
        if row[stamp] is not None and not isinstance(row[stamp], str):
            raise ValueError(f"{stamp} must be a string or null")
    if not isinstance(row["players"], list) or not all(
            isinstance(p, list) and len(p) == 4 and isinstance(p[0], str) and isinstance(p[1], str)
            and type(p[2]) is int and type(p[3]) is int for p in row["players"]):
        raise ValueError("players must be [id, name, total, place] lists")
    if not isinstance(row["winners"], list) or not all(isinstance(w, str) for w in row["winners"]):
        raise ValueError("winners must be a list of names")


def to_summary(row: dict[str, Any]) -> Summary:
    return Summary(row["id"], row["game"], row["created"], row["finished"],
                   [(p[0], p[1], p[2]) for p in row["players"]], list(row["winners"]))
