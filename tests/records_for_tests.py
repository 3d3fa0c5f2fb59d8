"""Small builders of game records as JSON data, the way a file given to `score` looks."""
from __future__ import annotations

import scoring


def players(*names: str) -> list[dict]:
    return [{"id": n.lower(), "name": n} for n in names]


def record(game: str, names, **body) -> dict:
    return {"format": "pandapad/game", "version": 1, "game": game, "players": players(*names), **body}


def scored(data: dict) -> scoring.Result:
    return scoring.score(scoring.parse_record(data))


def totals(result: scoring.Result) -> dict[str, int]:
    return {s.id: s.total for s in result.players}


def levels(result: scoring.Result) -> list[tuple[str, str]]:
    return [(p.level, p.where) for p in result.problems]
