"""What every game shares: players, problems, places and the scored result."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StringConstraints

FORMAT = "pandapad/game"
EXPORT_FORMAT = "pandapad/export"
VERSION = 1  # the newest record version this app writes and understands

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
PlayerId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Count = Annotated[StrictInt, Field(ge=0)]


def _iso_time(value: str) -> str:
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not an ISO 8601 time such as 2026-11-22T19:04:00Z") from None
    try:  # games are sorted by their time in UTC: a time that has none cannot be sorted
        when.astimezone(timezone.utc) if when.tzinfo else when.replace(tzinfo=timezone.utc)
    except (OverflowError, ValueError):
        raise ValueError("a time that falls outside the years 1 to 9999 once turned into UTC") from None
    return value


IsoTime = Annotated[str, AfterValidator(_iso_time)]


class Frozen(BaseModel):
    # Records are values: an edit makes a new one, so undo is just the previous record.
    # Unknown keys are refused so that a typo ("yelow") never silently drops dice.
    model_config = ConfigDict(frozen=True, extra="forbid")


class Player(Frozen):
    id: PlayerId
    name: Name
    profile: str | None = None


class RecordBase(Frozen):
    format: Literal["pandapad/game"] = FORMAT
    version: StrictInt = VERSION
    id: str | None = None
    game: str
    created: IsoTime | None = None
    finished: IsoTime | None = None
    players: tuple[Player, ...]
    notes: str | None = None

    def player_ids(self) -> list[str]:
        return [p.id for p in self.players]

    def name_of(self, pid: str) -> str:
        for p in self.players:
            if p.id == pid:
                return p.name
        return pid

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=False)


class RecordError(ValueError):
    """The input is not a valid record: unreadable, wrong shape, unknown ids."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


def N_(message: str) -> str:
    """Marks an English message for the catalogs (`make catalogs` extracts it, #33). The rules
    speak English only: the message goes out as its template with the values beside it, and the
    views translate it where it is shown (views/words/lang.py: `lang.problem`)."""
    return message


def english(template: str, params: tuple[tuple[str, Any], ...]) -> str:
    """A message's English words: its template filled in, a tuple of names joined with 'and'."""
    return template.format(**{k: join_names(list(v)) if isinstance(v, tuple) else v for k, v in params})


class Words(str):
    """An English text (a str, equal to it everywhere) that keeps the template it was made from
    and the values that filled it, so a view can say it in a phone's language (`lang.problem`)."""

    template: str
    params: tuple[tuple[str, Any], ...]

    def __new__(cls, template: str, /, **params: Any) -> "Words":
        values = tuple(params.items())
        self = super().__new__(cls, english(template, values))
        self.template, self.params = template, values
        return self

    @property
    def message(self) -> str:
        return str(self)

    def __reduce__(self):  # a copy or a pickle is made again from the template and values
        return _words, (self.template, self.params)


def _words(template: str, params: tuple[tuple[str, Any], ...]) -> Words:
    return Words(template, **dict(params))


@dataclass(frozen=True)
class Problem:
    level: Literal["error", "warning"]
    where: str
    message: str  # the English words, as `main.py score` prints them
    # What the message was made from, for a view to translate it (#33): the English template
    # with {named} placeholders and its values as (name, value) pairs (a tuple of names is a
    # list of people). Neither takes part in equality or in the JSON.
    template: str = field(default="", compare=False)
    params: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, str]:
        return {"level": self.level, "where": self.where, "message": self.message}


@dataclass(frozen=True)
class Standing:
    id: str
    name: str
    total: int
    place: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "total": self.total, "place": self.place}


@dataclass(frozen=True)
class Result:
    game: str
    players: list[Standing]
    winners: list[str]
    rounds: list[dict[str, int]]
    problems: list[Problem]
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def has_errors(self) -> bool:
        return any(p.level == "error" for p in self.problems)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [s.to_json() for s in self.players],
            "winners": list(self.winners),
            "rounds": [dict(r) for r in self.rounds],
            "problems": [p.to_json() for p in self.problems],
            "detail": self.detail,
        }


def competition_places(keys: dict[str, Any]) -> dict[str, int]:
    """Place of each player, higher key better; ties share a place (1, 1, 3)."""
    ordered = sorted(keys.values(), reverse=True)
    return {pid: 1 + sum(1 for k in ordered if k > key) for pid, key in keys.items()}


def standings(record: RecordBase, totals: dict[str, int], rank_keys: dict[str, Any] | None = None):
    """Standings in seat order and the ids sharing first place."""
    keys = rank_keys if rank_keys is not None else totals
    places = competition_places({pid: keys[pid] for pid in record.player_ids()})
    table = [Standing(p.id, p.name, totals[p.id], places[p.id]) for p in record.players]
    winners = [s.id for s in table if s.place == 1]
    return table, winners


class Checks:
    """Collects problems while a game's rules look at a record."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, where: str, template: str, /, **params: Any) -> None:
        """An error at `where`: `template` is an English message marked with N_, its {named}
        placeholders filled from `params` (a tuple of names is joined: 'Ann and Ben')."""
        self._add("error", where, template, params)

    def warning(self, where: str, template: str, /, **params: Any) -> None:
        self._add("warning", where, template, params)

    def _add(self, level: Literal["error", "warning"], where: str, template: str, params: dict) -> None:
        values = tuple(params.items())
        self.problems.append(Problem(level, where, english(template, values), template, values))


def require_known_ids(record: RecordBase, ids, where: str) -> None:
    known = set(record.player_ids())
    for pid in ids:
        if pid not in known:
            raise RecordError(where, f"no player has the id {pid!r} (players: {', '.join(sorted(known))})")


def join_names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
