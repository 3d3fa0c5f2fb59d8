"""Pass the Pandas: get rid of your dice; Panda-monium scores the dice still in play."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import Checks, Frozen, PlayerId, RecordBase, Result, require_known_ids, standings

GAME = "pass-the-pandas"
TITLE = "Pass the Pandas"
PLAYERS = (2, 5)
STARTING_DICE = {2: 6, 3: 6, 4: 5, 5: 4}


class Settings(Frozen):
    # A score pad is for scores, so a record that names no variant is read as Panda-monium.
    variant: Literal["basic", "panda-monium"] = "panda-monium"
    target: StrictInt = 30


class Out(Frozen):
    player: PlayerId
    points: StrictInt | None = None


class Hand(Frozen):
    out: tuple[Out, ...] = ()


class Record(RecordBase):
    game: Literal["pass-the-pandas"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Hand, ...] = ()


def check_ids(record: Record) -> None:
    for i, hand in enumerate(record.rounds):
        require_known_ids(record, [o.player for o in hand.out], f"rounds[{i}].out")


def max_points(players: int) -> int:
    """The most dice another player's going out can leave in play (rules.md: players × start − own)."""
    start = STARTING_DICE.get(players, 0)
    return players * start - start


def hand_points(record: Record, hand: Hand) -> dict[str, int]:
    ids = record.player_ids()
    if record.settings.variant == "basic":
        # The basic game has no points: the hand's winner is counted as one hand won.
        return {pid: int(bool(hand.out) and hand.out[0].player == pid) for pid in ids}
    row = {pid: 0 for pid in ids}
    for o in hand.out:
        row[o.player] = o.points or 0
    return row


def score(record: Record) -> Result:
    checks = Checks()
    ids = record.player_ids()
    settings = record.settings
    if settings.variant == "panda-monium" and settings.target < 1:
        checks.error("settings.target", f"the target must be at least 1 point, not {settings.target}")
    totals = {pid: 0 for pid in ids}
    rounds_out = []
    reached_in = None
    for i, hand in enumerate(record.rounds):
        _check_hand(checks, record, i, hand)
        if reached_in is not None:
            checks.warning(f"rounds[{i}]", f"hand {i + 1} was played after someone reached "
                                           f"{settings.target} points in hand {reached_in + 1}")
        row = hand_points(record, hand)
        for pid, points in row.items():
            totals[pid] += points
        rounds_out.append(row)
        if settings.variant == "panda-monium" and reached_in is None and max(totals.values()) >= settings.target:
            reached_in = i
    table, winners = standings(record, totals)
    return Result(GAME, table, winners, rounds_out, checks.problems, {})


def _check_hand(checks: Checks, record: Record, i: int, hand: Hand) -> None:
    where = f"rounds[{i}].out"
    seen = set()
    for k, o in enumerate(hand.out):
        if o.player in seen:
            checks.error(f"{where}[{k}].player", f"hand {i + 1}: {record.name_of(o.player)} went out twice")
        seen.add(o.player)
    if record.settings.variant != "panda-monium":
        return
    top = max_points(len(record.players))
    earlier = None
    for k, o in enumerate(hand.out):
        name = record.name_of(o.player)
        if o.points is None:
            checks.error(f"{where}[{k}].points", f"hand {i + 1}: no points entered for {name} going out")
            continue
        if o.points < 0 or o.points > top:
            checks.error(f"{where}[{k}].points", f"hand {i + 1}: {name} scored {o.points}; going out scores "
                                                 f"0–{top} with {len(record.players)} players")
        elif earlier is not None and o.points > earlier:
            checks.warning(f"{where}[{k}].points", f"hand {i + 1}: {name} went out later but scored more "
                                                   f"({o.points}) than the player before ({earlier})")
        earlier = o.points
    if len(hand.out) == len(record.players) and (hand.out[-1].points or 0) > 0:
        checks.warning(f"{where}[{len(hand.out) - 1}].points",
                       f"hand {i + 1}: the last player still holding dice scores 0")
