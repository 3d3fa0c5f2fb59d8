"""Reading a large export file one game at a time.

json.loads of a 10,000-game export builds every game at once (~450 MB of Python objects for
70 MB of text). When the file is an object whose "format" and "version" come before its
"games" array (as export writes it), the games are decoded one by one instead; any other
layout is parsed whole, so every valid JSON file is still read.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

WS = re.compile(r"[ \t\n\r]*")
_decoder = json.JSONDecoder()


def parse_lazily(text: str, export_format: str) -> tuple[dict[str, Any], Iterator[Any]] | None:
    """(the fields before "games", an iterator over the games), or None when `text` is not
    an export in that layout (then json.loads it). The iterator raises json.JSONDecodeError
    on bad JSON further on, and checks the text to its end."""
    try:
        i = _ws(text, 0)
        if text[i:i + 1] != "{":
            return None
        head: dict[str, Any] = {}
        i = _ws(text, i + 1)
        while text[i:i + 1] == '"':
            key, i = _decoder.raw_decode(text, i)
            i = _ws(text, i)
            if text[i:i + 1] != ":":
                return None
            i = _ws(text, i + 1)
            if key == "games":
                if head.get("format") != export_format or "version" not in head or text[i:i + 1] != "[":
                    return None
                return head, _games(text, i + 1)
            head[key], i = _decoder.raw_decode(text, i)
            i = _ws(text, i)
            if text[i:i + 1] != ",":
                return None
            i = _ws(text, i + 1)
    except json.JSONDecodeError:
        pass  # json.loads will say where
    return None


def _ws(text: str, i: int) -> int:
    return WS.match(text, i).end()


def _games(text: str, i: int) -> Iterator[Any]:
    i = _ws(text, i)
    if text[i:i + 1] == "]":
        i += 1
    else:
        while True:
            game, i = _decoder.raw_decode(text, i)
            yield game
            i = _ws(text, i)
            if text[i:i + 1] == "]":
                i += 1
                break
            _expect(text, i, ",")
            i = _ws(text, i + 1)
    # the rest of the object: more fields, then nothing but white space
    i = _ws(text, i)
    while text[i:i + 1] == ",":
        i = _ws(text, i + 1)
        _, i = _decoder.raw_decode(text, i)
        i = _ws(text, i)
        _expect(text, i, ":")
        _, i = _decoder.raw_decode(text, _ws(text, i + 1))
        i = _ws(text, i)
    _expect(text, i, "}")
    if _ws(text, i + 1) != len(text):
        raise json.JSONDecodeError("Extra data", text, _ws(text, i + 1))


def _expect(text: str, i: int, char: str) -> None:
    if text[i:i + 1] != char:
        raise json.JSONDecodeError(f"Expecting '{char}' delimiter", text, i)
