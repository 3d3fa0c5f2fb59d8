"""Game ids to their rules: a new game is one new module listed here."""
from __future__ import annotations

from types import ModuleType
from typing import Any

from pydantic import ValidationError

from . import nokosu_dice, panda_royale, pandoria, pass_the_pandas, royal_ur
from .common import RecordBase, RecordError, Result
from .versions import upgrade

GAMES: dict[str, ModuleType] = {m.GAME: m for m in
                                (panda_royale, royal_ur, nokosu_dice, pandoria, pass_the_pandas)}


def rules_for(game: str) -> ModuleType:
    try:
        return GAMES[game]
    except KeyError:
        raise RecordError("game", f"unknown game {game!r}; expected one of {', '.join(GAMES)}") from None


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
        raise RecordError("", f"a game record is a JSON object, not {type(data).__name__}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError("game", "missing: which game this record is of")
    rules = rules_for(game)
    data = upgrade(data)
    try:
        record = rules.Record.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RecordError(where_of(err["loc"]), _plain(err)) from None
    _check_players(record, rules)
    rules.check_ids(record)
    return record


def _plain(err: dict) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown field"
    if err["type"] == "missing":
        return "missing"
    found = repr(err.get("input"))
    found = found if len(found) <= 60 else found[:57] + "..."  # one readable line, whatever came in
    return f"{err['msg'][0].lower()}{err['msg'][1:]} (found {found})"


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
