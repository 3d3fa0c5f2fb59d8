"""Import and export files (records.md): reading an export or a record, writing JSON and CSV.

Decisions where the contract is silent:
- A record without `id` gets a uuid5 of its content, so importing the same id-less file
  twice finds the first copy instead of storing a second one.
- A record without `created` keeps the stored game's `created` when its id is stored; else
  it takes its `finished` time, else the time of the import (the store sorts by `created`).
- The same id twice in one file is refused unless both copies are identical.
"""
from __future__ import annotations

import csv
import json
import uuid
from datetime import datetime, timezone
from typing import Any, Iterable, TextIO

from scoring import EXPORT_FORMAT, RecordBase, RecordError, parse_record

EXPORT_VERSION = 1  # the newest export file version this app writes and reads
ID_NAMESPACE = uuid.UUID("6c1d4a52-3f0e-4d8b-9a51-2b7e0c9f4d11")  # Pandapad's uuid5 namespace
CSV_HEADER = ["game_id", "game", "created", "finished", "seat", "player", "total", "place", "winner"]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def parse_import(data: Any) -> list[RecordBase]:
    """The validated records (upgraded to the newest version) of an export file's data or of
    a single record; RecordError naming the record and the problem on the first bad one."""
    if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT:
        version = data.get("version")
        if type(version) is not int:
            raise RecordError("version", f"the export file's version must be a whole number, not {version!r}")
        if version > EXPORT_VERSION:
            raise RecordError("version", f"this export file is version {version}, but this app reads "
                                         f"export files up to version {EXPORT_VERSION}; update Pandapad")
        games = data.get("games")
        if not isinstance(games, list):
            raise RecordError("games", "missing: the list of games")
        places = [f"games[{i}]" for i in range(len(games))]
    else:
        games, places = [data], [""]
    records: list[RecordBase] = []
    seen: dict[str, tuple[str, dict]] = {}
    for place, game in zip(places, games):
        record = _parse_one(place, game)
        data_out = record.to_json()
        if record.id in seen:
            first, first_data = seen[record.id]
            if first_data == data_out:
                continue
            raise RecordError(_join(place, "id"), f"game {record.id} is also {first}, with other contents; "
                                                  f"a file holds each game once")
        seen[record.id] = (place, data_out)
        records.append(record)
    return records


def _parse_one(place: str, game: Any) -> RecordBase:
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
    return record


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


def export_json(export: dict[str, Any]) -> str:
    """The export as JSON text, one game per line (readable, diffable, still one JSON value)."""
    head = {k: v for k, v in export.items() if k != "games"}
    lines = [json.dumps(g, ensure_ascii=False, separators=(", ", ": ")) for g in export["games"]]
    text = json.dumps(head, ensure_ascii=False)[:-1] + ', "games": ['
    return text + ("\n" + ",\n".join(lines) + "\n" if lines else "") + "]}\n"


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
