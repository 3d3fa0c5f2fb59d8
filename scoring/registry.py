"""Game ids to their rules: a new game is one new module listed here."""
from __future__ import annotations

from types import ModuleType
from typing import Any

from pydantic import ValidationError

from . import bounds, nokosu_dice, panda_royale, pandoria, pass_the_pandas, royal_ur
from .common import RecordBase, RecordError, Result
from .json_text import json_type, shown
from .versions import upgrade

GAMES: dict[str, ModuleType] = {m.GAME: m for m in
                                (panda_royale, royal_ur, nokosu_dice, pandoria, pass_the_pandas)}


def rules_for(game: str) -> ModuleType:
    try:
        return GAMES[game]
    except KeyError:
        raise RecordError("game", f'unknown game "{game}"; expected one of {", ".join(GAMES)}') from None


def where_of(loc: tuple) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += ("." if path else "") + str(part)
    return path


def parse_record(data: Any) -> RecordBase:
    """A validated, immutable record from JSON data, upgraded to the current version.

    Raises RecordError naming the place when the data is not a record of a known game.
    """
    if not isinstance(data, dict):
        raise RecordError("", f"a game record is a JSON object, not {json_type(data)}")
    bounds.check(data)  # first: nothing below should read a million dice or print half a character
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError("game", "missing: which game this record is of")
    rules = rules_for(game)
    bounds.check_game(data, game, rules.TITLE, rules.PLAYERS[1])
    data = upgrade(data)
    try:
        record = rules.Record.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RecordError(where_of(err["loc"]), _plain(err)) from None
    _check_players(record, rules)
    rules.check_ids(record)
    return record


# pydantic's words for a wrong type, in JSON's words.
_SHOULD_BE = {"model_type": "an object", "dict_type": "an object", "model_attributes_type": "an object",
              "list_type": "an array", "tuple_type": "an array", "int_type": "a whole number",
              "int_parsing": "a whole number", "int_from_float": "a whole number",
              "string_type": "a string", "bool_type": "true or false"}


def _plain(err: dict) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown field"
    if err["type"] == "missing":
        return "missing"
    if err["type"] in _SHOULD_BE:
        found = err.get("input")
        if found is None or isinstance(found, bool):  # "not null" says it all
            return f"should be {_SHOULD_BE[err['type']]}, not {json_type(found)}"
        return f"should be {_SHOULD_BE[err['type']]}, not {json_type(found)} ({shown(found)})"
    if err["type"] == "value_error" and "error" in err.get("ctx", {}):  # our own words, without pydantic's
        return f"{err['ctx']['error']} (found {shown(err.get('input'))})"
    # One readable line in JSON's words, whatever came in ("found null", not "found None").
    return f"{err['msg'][0].lower()}{err['msg'][1:]} (found {shown(err.get('input'))})"


def _check_players(record: RecordBase, rules: ModuleType) -> None:
    low, high = rules.PLAYERS
    n = len(record.players)
    if not low <= n <= high:
        span = f"{low}" if low == high else f"{low}–{high}"
        raise RecordError("players", f"{rules.TITLE} is played by {span} players, not {n}")
    seen = set()
    for i, p in enumerate(record.players):
        if p.id in seen:
            raise RecordError(f"players[{i}].id", f"the id {p.id!r} is used by two players")
        seen.add(p.id)


def score(record: RecordBase) -> Result:
    return rules_for(record.game).score(record)


def score_data(data: Any) -> Result:
    return score(parse_record(data))
