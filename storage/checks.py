"""Is a store file what it claims to be? Parsing and validating files at open."""
from __future__ import annotations

import json
from typing import Any

from scoring import VERSION, RecordBase, RecordError, parse_record
from scoring import versions

from . import journal
from .api import StoreTooNew
from .jsonstream import loads
from .layout import active_name
from .statcache import Unread
from .summary import checked_row

DID_NOT_PARSE = "did-not-parse"
DID_NOT_VALIDATE = "did-not-validate"


class BadFile(Exception):
    """A file that must be moved aside; `reason` goes into the new name."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def parse_tinydb(raw: bytes, tables: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The tables of a TinyDB file, each {doc id: document}."""
    if isinstance(raw, Unread):  # too large or not a plain file: never read (#22)
        raise BadFile(DID_NOT_PARSE, raw.why)
    if not raw.strip():
        raise BadFile(DID_NOT_PARSE, "it is empty")
    try:
        data = loads(raw)
    except UnicodeDecodeError:
        raise BadFile(DID_NOT_PARSE, "it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:  # jsonstream.Unreadable too: nested too deeply, a huge number
        raise BadFile(DID_NOT_PARSE, f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecordError as exc:  # parsed, but a key given twice or half a character: not the store's writing
        raise BadFile(DID_NOT_VALIDATE, f"{exc.where}: {exc.message}" if exc.where else exc.message) from None
    if not isinstance(data, dict) or not all(isinstance(data.get(t, {}), dict) for t in tables):
        raise BadFile(DID_NOT_VALIDATE, "it is not a TinyDB file of " + ", ".join(tables))
    for name in tables:
        for key, doc in data.get(name, {}).items():
            if not key.isdigit() or not isinstance(doc, dict):
                raise BadFile(DID_NOT_VALIDATE, f"table {name}: document {key!r} is not a numbered object")
    return data


def check_game(doc: Any, where: str) -> tuple[dict, RecordBase, bool]:
    """(journal, validated record, whether the journal was migrated to the newest version)."""
    try:
        journal.check_doc(doc)
    except (ValueError, RecursionError) as exc:  # RecursionError: a step nested too deeply
        raise BadFile(DID_NOT_VALIDATE, f"{where}: {exc}") from None
    version = doc["record"].get("version", VERSION)
    if type(version) is int and version > VERSION:
        raise StoreTooNew(f"the store holds a record of version {version} ({where}), but this app "
                          f"reads records up to version {VERSION}; update Pandapad", version, VERSION)
    migrated = type(version) is int and version < VERSION
    try:
        if migrated:
            doc = journal.migrated(doc, versions.upgrade)
        record = parse_record(doc["record"])
    except RecordError as exc:
        raise BadFile(DID_NOT_VALIDATE, f"{where}: {exc.where or 'record'}: {exc.message}") from None
    except (ValueError, KeyError, IndexError, TypeError, RecursionError) as exc:  # undo steps that do not apply
        raise BadFile(DID_NOT_VALIDATE, f"{where}: its earlier versions do not rebuild ({exc})") from None
    if record.id != doc["id"]:
        raise BadFile(DID_NOT_VALIDATE, f"{where}: the record's id {record.id!r} is not the game's {doc['id']!r}")
    return doc, record, migrated


def check_active(raw: bytes, filename: str) -> tuple[dict, RecordBase, bool]:
    docs = parse_tinydb(raw, ("game",)).get("game", {})
    if list(docs) != ["1"]:
        raise BadFile(DID_NOT_VALIDATE, "it should hold exactly one game")
    gid = docs["1"].get("id")
    doc, record, migrated = check_game(docs["1"], f"game {gid}" if isinstance(gid, str) else "the game")
    if active_name(doc["id"]) != filename:
        raise BadFile(DID_NOT_VALIDATE, f"it holds game {doc['id']!r}, which belongs in another file")
    return doc, record, migrated


def check_chunk(raw: bytes) -> dict[int, tuple[dict, RecordBase, bool]]:
    docs = parse_tinydb(raw, ("games",)).get("games", {})
    checked, seen = {}, set()
    for key, doc in docs.items():
        gid = doc.get("id")
        checked[int(key)] = result = check_game(doc, f"game {gid}" if isinstance(gid, str) else f"document {key}")
        if result[0]["id"] in seen:
            raise BadFile(DID_NOT_VALIDATE, f"game {key}: the id {result[0]['id']!r} is there twice")
        seen.add(result[0]["id"])
    return checked


def check_index(raw: bytes) -> tuple[str | None, dict[int, dict]]:
    """(the chunk checksum it names, its rows by doc id)."""
    data = parse_tinydb(raw, ("summaries", "meta"))
    meta = data.get("meta", {}).get("1", {})
    rows = {}
    for key, row in data.get("summaries", {}).items():
        try:
            rows[int(key)] = checked_row(row)
        except ValueError as exc:
            raise BadFile(DID_NOT_VALIDATE, f"row {key}: {exc}") from None
    digest = meta.get("chunk_sha256")
    return (digest if isinstance(digest, str) else None), rows


def known_index(raw: bytes) -> tuple[str | None, dict[int, dict]]:
    """check_index for the bytes of an index that validated at the last open (its stat is
    unchanged, statcache.py): the same bytes give the same result, so only parse and convert
    (no duplicate-key hook, no field checks); anything unexpected falls back to check_index."""
    try:
        data = json.loads(raw)
        digest = data.get("meta", {}).get("1", {}).get("chunk_sha256")
        rows = {int(k): {**row, "players": tuple(map(tuple, row["players"])), "winners": tuple(row["winners"])}
                for k, row in data.get("summaries", {}).items()}
        return (digest if isinstance(digest, str) else None), rows
    except Exception:  # noqa: BLE001 - never trusted blindly: check it the long way
        return check_index(raw)
