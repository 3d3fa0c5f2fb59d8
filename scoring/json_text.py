"""Reading JSON text as a record's reader must: a key given twice in one object is refused
(Python's json keeps the last one silently, so two "game" keys would pick a game unseen),
and what was found is named in JSON's words, not Python's."""
from __future__ import annotations

import json
from typing import Any


class DuplicateKey(ValueError):
    """A JSON object gives one key twice; `where` is the path of that object, `key` the key."""

    def __init__(self, key: str, where: str = ""):
        self.key = key
        self.where = where
        place = f" in {where}" if where else ""
        super().__init__(f'the key "{key}" is given twice{place}')


def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """object_pairs_hook for json: a dict, or DuplicateKey (without its place yet)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


class _Pairs(list):
    """An object kept as its list of pairs, to find where a key is given twice."""


def place_of_duplicate(text: str, start: int = 0) -> DuplicateKey | None:
    """Parse again keeping every pair, and name the first object that repeats a key
    ('games[2]', 'rounds[0].hands'); only called once a duplicate is known to be there."""
    try:
        value, _ = json.JSONDecoder(object_pairs_hook=_Pairs).raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, path = stack.pop(0)
        if isinstance(node, _Pairs):
            seen = set()
            for key, child in node:
                if key in seen:
                    return DuplicateKey(key, path or "the top-level object")
                seen.add(key)
            stack += [(child, f"{path}.{key}" if path else key) for key, child in node]
        elif isinstance(node, list):
            stack += [(child, f"{path}[{k}]") for k, child in enumerate(node)]
    return None


def json_type(value: Any) -> str:
    """What a JSON reader calls the value: object, array, string, number, true/false, null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


def shown(value: Any, most: int = 60) -> str:
    """A found value as JSON text, cut to one readable line."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def shown_as(value: Any) -> str:
    """A found value in JSON's words for a message: 'null', 'true', 'a string ("2")'."""
    kind = json_type(value)
    return kind if value is None or isinstance(value, bool) else f"{kind} ({shown(value)})"
