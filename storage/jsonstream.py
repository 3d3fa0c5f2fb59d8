"""Reading a large export file one game at a time.

json.loads of a 10,000-game export builds every game at once (~450 MB of Python objects for
70 MB of text). When the file is an object whose "format" and "version" come before its
"games" array (as export writes it), the games are decoded one by one instead; any other
layout is parsed whole, so every valid JSON file is still read.

Valid JSON that Python cannot turn into values (nested deeper than its recursion limit, or a
whole number of more than 4,300 digits) raises Unreadable, a json.JSONDecodeError that says
what and where, instead of RecursionError or a bare ValueError.
"""
from __future__ import annotations

import json
import math
import re
import sys
from typing import Any, Iterator

from scoring import RecordError
from scoring.json_text import DuplicateKey, no_duplicates, place_of_duplicate

WS = re.compile(r"[ \t\n\r]*")


class NotANumber(ValueError):
    """NaN, Infinity, or a number too large to be one (1e400): JSON has no such numbers."""


def _no_constant(name: str) -> Any:
    raise NotANumber(f"{name} is not a number a game can count")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotANumber(f"{text} is too large to be a number")
    return value


# A key given twice in one object is refused (json would keep the last one silently); NaN,
# Infinity and 1e400 are refused (not JSON numbers; they would crash an export later).
_HOOKS = dict(object_pairs_hook=no_duplicates, parse_constant=_no_constant, parse_float=_finite)
_decoder = json.JSONDecoder(**_HOOKS)
# A \uD800-\uDFFF escape: maybe half of a surrogate pair on its own, which is not text.
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
DEEP = 100  # an export nests fewer than 10 levels; this deep is reported as the place of the problem
# Outside strings: brackets and numbers (a string may be unterminated in a file cut short).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]|-?(\d+)(\.\d+)?([eE][-+]?\d+)?')


class Unreadable(json.JSONDecodeError):
    """Valid JSON that Python will not turn into values; msg says what, lineno/colno where."""


def loads(data: str | bytes) -> Any:
    """json.loads, raising Unreadable (a JSONDecodeError) where it would raise RecursionError
    or ValueError; UnicodeDecodeError of bytes that are not text still passes through."""
    if isinstance(data, (bytes, bytearray)):  # strictly UTF-8: json would take UTF-16 and CESU-8 half pairs
        data = bytes(data).decode("utf-8")
    try:
        value = json.loads(data, **_HOOKS)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except DuplicateKey:
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        raise _twice(text, 0, "") from None
    except (RecursionError, ValueError) as exc:
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        raise _unreadable(exc, text, 0) from None
    if _SURROGATE.search(data):
        check_text(value, "")
    return value


def check_text(value: Any, place: str) -> None:
    """RecordError naming the first string (or key) of a parsed value that holds half of a
    UTF-16 surrogate pair on its own (JSON's "\\udfff"): not text, it cannot be written out."""
    stack = [(value, place)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise RecordError(where, f"the text holds \\u{ord(node[exc.start]):04x}, half of a character "
                                         "pair on its own, which is not a character") from None
        elif isinstance(node, list):
            stack += [(item, f"{where}[{i}]") for i, item in enumerate(node)]
        elif isinstance(node, dict):
            for key, item in node.items():
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    raise RecordError(where, "a key holds half of a character pair on its own, which is "
                                             "not a character") from None
                stack.append((item, f"{where}.{key}" if where else key))


def _twice(text: str, start: int, place: str) -> RecordError:
    """RecordError naming the object (under `place`) that gives a key twice, and the key."""
    found = place_of_duplicate(text, start)
    if found is None:  # cannot happen once the hook saw it; say what we know
        return RecordError(place, "a key is given twice in one object")
    where = found.where if found.where != "the top-level object" else ""
    joined = f"{place}.{where}" if place and where else place or where
    return RecordError(joined, f'the key "{found.key}" is given twice')


def decode(text: str, i: int, place: str = "") -> tuple[Any, int]:
    """The JSON value starting at text[i] and the index after it (JSONDecoder.raw_decode);
    `place` names it in a RecordError for a key given twice."""
    try:
        value, end = _decoder.raw_decode(text, i)
    except json.JSONDecodeError:
        raise
    except DuplicateKey:
        raise _twice(text, i, place) from None
    except (RecursionError, ValueError) as exc:
        raise _unreadable(exc, text, i) from None
    if _SURROGATE.search(text, i, end):
        check_text(value, place)
    return value, end


def _unreadable(exc: Exception, text: str, start: int) -> Unreadable:
    """Where in text, from start, the value Python could not read is, and what it is."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    depth = 0
    for token in _TOKENS.finditer(text, start):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > DEEP and isinstance(exc, RecursionError):
                return Unreadable(f"nested more than {DEEP} levels deep", text, token.start())
        elif first in "]}":
            depth -= 1
            if depth <= 0 and start:  # the end of the value that failed
                break
        elif (not isinstance(exc, RecursionError) and token.group(1) and limit
              and not token.group(2) and not token.group(3) and len(token.group(1)) > limit):
            return Unreadable(f"a whole number of {len(token.group(1)):,} digits (more than "
                              f"{limit:,} are not read)", text, token.start())
    if isinstance(exc, NotANumber):
        found = next((m.start(1) for m in _NOT_A_NUMBER.finditer(text, start) if m.group(1)), start)
        return Unreadable(str(exc), text, found)
    what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
    return Unreadable(what, text, start)


# Where NaN, Infinity or a number past a float is (outside strings, as _TOKENS does).
_NOT_A_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN|-?\d+(?:\.\d+)?[eE][-+]?\d{3,})')


def parse_lazily(text: str, export_format: str) -> tuple[dict[str, Any], Iterator[Any]] | None:
    """(the fields before "games", an iterator over the games), or None when `text` is not
    an export in that layout (then loads() it). The iterator raises json.JSONDecodeError
    (or Unreadable) on bad JSON further on, and checks the text to its end."""
    try:
        i = _ws(text, 0)
        if text[i:i + 1] != "{":
            return None
        head: dict[str, Any] = {}
        i = _ws(text, i + 1)
        while text[i:i + 1] == '"':
            key, i = decode(text, i)
            i = _ws(text, i)
            if text[i:i + 1] != ":":
                return None
            i = _ws(text, i + 1)
            if key in head:
                raise RecordError("", f'the key "{key}" is given twice')
            if key == "games":
                if head.get("format") != export_format or "version" not in head or text[i:i + 1] != "[":
                    return None
                return head, _games(text, i + 1, set(head) | {"games"})
            head[key], i = decode(text, i, key)
            i = _ws(text, i)
            if text[i:i + 1] != ",":
                return None
            i = _ws(text, i + 1)
    except json.JSONDecodeError:  # Unreadable too
        pass  # json.loads will say where
    return None


def _ws(text: str, i: int) -> int:
    return WS.match(text, i).end()


def _games(text: str, i: int, keys: set[str]) -> Iterator[Any]:
    i = _ws(text, i)
    if text[i:i + 1] == "]":
        i += 1
    else:
        k = 0
        while True:
            game, i = decode(text, i, f"games[{k}]")
            k += 1
            yield game
            i = _ws(text, i)
            if text[i:i + 1] == "]":
                i += 1
                break
            _expect(text, i, ",")
            i = _ws(text, i + 1)
    # the rest of the object: more fields, then nothing but white space; a key given again
    # ("games" twice: json would keep the second list) is refused as anywhere else
    i = _ws(text, i)
    while text[i:i + 1] == ",":
        i = _ws(text, i + 1)
        key, i = decode(text, i)
        if not isinstance(key, str):
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, i)
        if key in keys:
            raise RecordError("", f'the key "{key}" is given twice')
        keys.add(key)
        i = _ws(text, i)
        _expect(text, i, ":")
        _, i = decode(text, _ws(text, i + 1), key)
        i = _ws(text, i)
    _expect(text, i, "}")
    if _ws(text, i + 1) != len(text):
        raise json.JSONDecodeError("Extra data", text, _ws(text, i + 1))


def _expect(text: str, i: int, char: str) -> None:
    if text[i:i + 1] != char:
        raise json.JSONDecodeError(f"Expecting '{char}' delimiter", text, i)
