"""Nokosu Dice: trick taking where the die you keep back is your declaration."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import Checks, Frozen, PlayerId, RecordBase, Result, require_known_ids, standings

GAME = "nokosu-dice"
TITLE = "Nokosu Dice"
PLAYERS = (3, 5)
TRICKS = {3: 12, 4: 14, 5: 11}       # tricks per round by player count
CARDS = {3: 9, 4: 10, 5: 8}
DICE = {3: 4, 4: 5, 5: 4}
MADE_BONUS = 10                        # × players who missed their declaration
MAX_DECLARATION = 6
MAX_ZERO_DECLARATIONS = 2             # there are two zero-trick dice


class Settings(Frozen):
    zero_bonus: StrictInt = 10


class Round(Frozen):
    declared: dict[PlayerId, StrictInt] = Field(default_factory=dict)
    tricks: dict[PlayerId, StrictInt] = Field(default_factory=dict)


class Record(RecordBase):
    game: Literal["nokosu-dice"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Round, ...] = ()


def check_ids(record: Record) -> None:
    for i, rnd in enumerate(record.rounds):
        require_known_ids(record, rnd.declared, f"rounds[{i}].declared")
        require_known_ids(record, rnd.tricks, f"rounds[{i}].tricks")


def round_scores(record: Record, rnd: Round) -> dict[str, int]:
    """Points of each player whose tricks are entered; the bonus needs the declaration too."""
    entered = [pid for pid in record.player_ids() if pid in rnd.tricks]
    made = {pid: pid in rnd.declared and rnd.tricks[pid] == rnd.declared[pid] for pid in entered}
    missed = sum(1 for pid in entered if pid in rnd.declared and not made[pid])
    scores = {}
    for pid in entered:
        points = rnd.tricks[pid]
        if made[pid]:
            points += MADE_BONUS * missed
            if rnd.declared[pid] == 0:
                points += record.settings.zero_bonus
        scores[pid] = points
    return scores


def score(record: Record) -> Result:
    checks = Checks()
    ids = record.player_ids()
    per_round = TRICKS.get(len(ids))
    if len(record.rounds) > len(ids):
        checks.warning("rounds", f"a game of {len(ids)} players has {len(ids)} rounds; "
                                 f"this one has {len(record.rounds)}")
    if record.settings.zero_bonus < 0:
        checks.error("settings.zero_bonus", f"the zero bonus cannot be negative ({record.settings.zero_bonus})")
    totals = {pid: 0 for pid in ids}
    rounds_out = []
    for i, rnd in enumerate(record.rounds):
        _check_round(checks, record, i, rnd, per_round)
        row = round_scores(record, rnd)
        for pid, points in row.items():
            totals[pid] += points
        rounds_out.append(row)
    table, winners = standings(record, totals)
    return Result(GAME, table, winners, rounds_out, checks.problems, {})


def _check_round(checks: Checks, record: Record, i: int, rnd: Round, per_round: int | None) -> None:
    where = f"rounds[{i}]"
    seats = record.player_ids()  # problems in seat order, whatever the order of keys
    for pid, d in ((p, rnd.declared[p]) for p in seats if p in rnd.declared):
        if not 0 <= d <= MAX_DECLARATION:
            checks.error(f"{where}.declared.{pid}",
                         f"round {i + 1}: {record.name_of(pid)} declared {d}; declarations are 0–{MAX_DECLARATION}")
    for pid, t in ((p, rnd.tricks[p]) for p in seats if p in rnd.tricks):
        if t < 0 or (per_round is not None and t > per_round):
            checks.error(f"{where}.tricks.{pid}",
                         f"round {i + 1}: {record.name_of(pid)} won {t} tricks; a round has 0–{per_round}")
    zeros = [pid for pid in seats if rnd.declared.get(pid) == 0]
    if len(zeros) > MAX_ZERO_DECLARATIONS:
        checks.error(f"{where}.declared", f"round {i + 1}: {len(zeros)} players declared zero; "
                                          f"there are only {MAX_ZERO_DECLARATIONS} zero-trick dice")
    for pid in record.player_ids():
        for part, label in (("declared", "declaration"), ("tricks", "tricks")):
            if pid not in getattr(rnd, part):
                checks.warning(f"{where}.{part}", f"round {i + 1}: no {label} entered for {record.name_of(pid)}")
    if per_round is not None and len(rnd.tricks) == len(record.players):
        won = sum(rnd.tricks.values())
        if won != per_round:
            checks.warning(f"{where}.tricks", f"round {i + 1}: the tricks add up to {won}; "
                                              f"{len(record.players)} players play {per_round}")
