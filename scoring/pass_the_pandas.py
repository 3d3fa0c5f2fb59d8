"""Pass the Pandas: get rid of your dice; Panda-monium scores the dice still in play."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import N_, Checks, Count, Frozen, PlayerId, RecordBase, Result, Words, require_known_ids, standings

GAME = "pass-the-pandas"
TITLE = "Pass the Pandas"
PLAYERS = (2, 5)
STARTING_DICE = {2: 6, 3: 6, 4: 5, 5: 4}
DICE = 20  # in the box


class Settings(Frozen):
    # A score pad is for scores, so a record that names no variant is read as Panda-monium.
    variant: Literal["basic", "panda-monium"] = "panda-monium"
    target: StrictInt = 30


class Out(Frozen):
    player: PlayerId
    points: StrictInt | None = None
    # Optional, written by the pad and never scored: the dice each player still in the hand
    # held when this one went out (points is their sum), so a correction shows the counts again.
    held: dict[PlayerId, Count] | None = None


class Hand(Frozen):
    out: tuple[Out, ...] = ()


class Record(RecordBase):
    game: Literal["pass-the-pandas"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Hand, ...] = ()
    # Optional, pad only, never scored: the hand the pad is on (an index into rounds, or
    # len(rounds) once the table tapped Next hand); None: the pad works it out (hand_on).
    hand: Count | None = None


def check_ids(record: Record) -> None:
    for i, hand in enumerate(record.rounds):
        require_known_ids(record, [o.player for o in hand.out], f"rounds[{i}].out")
        for k, o in enumerate(hand.out):
            if o.held is not None:
                require_known_ids(record, list(o.held), f"rounds[{i}].out[{k}].held")


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
        checks.error("settings.target", N_("the target must be at least 1 point, not {target}"),
                     target=settings.target)
    totals = {pid: 0 for pid in ids}
    rounds_out = []
    reached_in = None
    for i, hand in enumerate(record.rounds):
        _check_hand(checks, record, i, hand)
        if reached_in is not None:
            checks.warning(f"rounds[{i}]", N_("hand {hand} was played after someone reached "
                                              "{target} points in hand {reached}"),
                           hand=i + 1, target=settings.target, reached=reached_in + 1)
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
            checks.error(f"{where}[{k}].player", N_("hand {hand}: {name} went out twice"),
                         hand=i + 1, name=record.name_of(o.player))
        seen.add(o.player)
    if record.settings.variant != "panda-monium":
        return
    top = max_points(len(record.players))
    earlier = None
    for k, o in enumerate(hand.out):
        name = record.name_of(o.player)
        if o.points is None:
            checks.error(f"{where}[{k}].points", N_("hand {hand}: no points entered for {name} going out"),
                         hand=i + 1, name=name)
            continue
        if o.points < 0 or o.points > top:
            checks.error(f"{where}[{k}].points", N_("hand {hand}: {name} scored {points}; going out scores "
                                                    "0–{most} with {players} players"),
                         hand=i + 1, name=name, points=o.points, most=top, players=len(record.players))
        elif earlier is not None and o.points > earlier:
            checks.warning(f"{where}[{k}].points", N_("hand {hand}: {name} went out later but scored more "
                                                      "({points}) than the player before ({before})"),
                           hand=i + 1, name=name, points=o.points, before=earlier)
        earlier = o.points
    if len(hand.out) == len(record.players) and (hand.out[-1].points or 0) > 0:
        checks.warning(f"{where}[{len(hand.out) - 1}].points",
                       N_("hand {hand}: the last player still holding dice scores 0"), hand=i + 1)


# --- the edits the pad makes (each returns a new record) ---------------------------------
# The hand being played is kept in `rounds` from its first player out, so every total (the
# pad's, the big screen's, `main.py score`'s) counts it at once; `hand` says where the pad is.

def starting_dice(record: Record) -> int:
    return STARTING_DICE.get(len(record.players), 0)


def is_complete(record: Record, hand: Hand) -> bool:
    """Everyone but one player is out: the last one still holds dice and scores 0."""
    return len(hand.out) >= len(record.players) - 1


def hand_on(record: Record) -> int:
    """The index of the hand the pad is on: `hand` when set, else the last hand while it is
    being played, else a new one after it (a record from elsewhere opens where play goes on)."""
    n = len(record.rounds)
    if record.hand is not None:
        return min(record.hand, n)
    if n and not is_complete(record, record.rounds[-1]):
        return n - 1
    return n


def hand_at(record: Record, index: int) -> Hand:
    return record.rounds[index] if index < len(record.rounds) else Hand()


def holding(record: Record, index: int) -> list[str]:
    """Players still holding dice in that hand, in seat order."""
    out = {o.player for o in hand_at(record, index).out}
    return [pid for pid in record.player_ids() if pid not in out]


def reached(record: Record, totals: dict[str, int]) -> bool:
    return record.settings.variant == "panda-monium" and max(totals.values(), default=0) >= record.settings.target


def is_over(record: Record) -> bool:
    """Panda-monium: the hand in which someone reached the target is played out."""
    if record.settings.variant != "panda-monium" or not record.rounds:
        return False
    if not is_complete(record, record.rounds[-1]):
        return False
    totals = {pid: 0 for pid in record.player_ids()}
    for hand in record.rounds:
        for pid, points in hand_points(record, hand).items():
            totals[pid] += points
    return reached(record, totals)


def _with_hand(record: Record, index: int, hand: Hand) -> Record:
    rounds = list(record.rounds)
    if index < len(rounds):
        rounds[index] = hand
    else:
        rounds.append(hand)
    return record.model_copy(update={"rounds": tuple(rounds), "hand": index})


def plausible_held(record: Record, index: int, pid: str) -> dict[str, int]:
    """Where the dice counters start when `pid` goes out: what each player still in held when
    the player before went out, or, for the first one out, one die fewer than they started with
    (some dice are lost to Water by then); never more than the dice in play, never below 1."""
    hand = hand_at(record, index)
    others = [p for p in holding(record, index) if p != pid]
    before = hand.out[-1].held if hand.out and hand.out[-1].held else None
    start = starting_dice(record)
    held = {p: max(1, before.get(p, start - 1) if before else start - 1) for p in others}
    top = max_points(len(record.players))
    for p in reversed(others):  # a table with its own numbers: keep within the limit
        while sum(held.values()) > top and held[p] > 1:
            held[p] -= 1
    return held


def go_out(record: Record, pid: str) -> Record:
    """`pid` went out, next in the order of the hand the pad is on."""
    require_known_ids(record, [pid], "player")
    index = hand_on(record)
    hand = hand_at(record, index)
    if any(o.player == pid for o in hand.out):
        raise ValueError(Words(N_("{name} is already out in hand {hand}"), name=record.name_of(pid), hand=index + 1))
    if is_complete(record, hand):
        raise ValueError(Words(N_("hand {hand} is over: only one player still holds dice"), hand=index + 1))
    if record.settings.variant == "panda-monium":
        held = plausible_held(record, index, pid)
        out = Out(player=pid, points=sum(held.values()), held=held)
    else:
        out = Out(player=pid)
    return _with_hand(record, index, Hand(out=hand.out + (out,)))


def dice_limit(record: Record, pid: str) -> Words:
    n, start = len(record.players), starting_dice(record)
    return Words(N_("at most {most} dice can be in play when {name} goes out "
                    "({players} players × {start} dice, less {name}'s own {start})"),
                 most=max_points(n), name=record.name_of(pid), players=n, start=start)


def step_held(record: Record, index: int, finisher: str, holder: str, delta: int) -> Record:
    """One die more or fewer held by `holder` when `finisher` went out; the points follow."""
    hand = hand_at(record, index)
    k = next((k for k, o in enumerate(hand.out) if o.player == finisher), None)
    if k is None or hand.out[k].held is None or holder not in hand.out[k].held:
        raise ValueError(Words(N_("no dice are counted for {name} in hand {hand}"),
                               name=record.name_of(holder), hand=index + 1))
    held = dict(hand.out[k].held)
    value = held[holder] + delta
    if value < 1:
        raise ValueError(Words(N_("{name} still held dice, so at least 1; if {name} had none, {name} went out too"),
                               name=record.name_of(holder)))
    held[holder] = value
    if delta > 0 and sum(held.values()) > max_points(len(record.players)):
        raise ValueError(dice_limit(record, finisher))
    out = list(hand.out)
    out[k] = out[k].model_copy(update={"held": held, "points": sum(held.values())})
    return _with_hand(record, index, Hand(out=tuple(out)))


def take_back(record: Record, index: int) -> Record:
    """The last player out of that hand was not out after all."""
    hand = hand_at(record, index)
    if not hand.out:
        raise ValueError(Words(N_("no one is out in hand {hand}"), hand=index + 1))
    if len(hand.out) == 1 and index == len(record.rounds) - 1:
        # The hand being played had only this player out: it has not started after all.
        return record.model_copy(update={"rounds": record.rounds[:-1], "hand": index})
    return _with_hand(record, index, Hand(out=hand.out[:-1]))


def next_hand(record: Record) -> Record:
    index = hand_on(record)
    if index != len(record.rounds) - 1 or not record.rounds[index].out:
        raise ValueError(Words(N_("tap who went out first")))
    if record.settings.variant == "panda-monium":
        if not is_complete(record, record.rounds[index]):
            raise ValueError(Words(N_("hand {hand} goes on until only one player holds dice"), hand=index + 1))
        if is_over(record):
            # TRANSLATORS: Pass the Pandas: {target} is the points that win the match
            raise ValueError(Words(N_("someone reached {target}: the match is over"), target=record.settings.target))
    return record.model_copy(update={"hand": index + 1})


def edit_hand(record: Record, index: int) -> Record:
    if not 0 <= index < len(record.rounds):
        raise ValueError(Words(N_("there is no hand {hand}"), hand=index + 1))
    return record.model_copy(update={"hand": index})


def done_editing(record: Record) -> Record:
    """Back to play after a correction; a hand emptied by the correction is deleted."""
    index = hand_on(record)
    rounds = record.rounds
    if index < len(rounds) and not rounds[index].out:
        rounds = rounds[:index] + rounds[index + 1:]
    return record.model_copy(update={"rounds": rounds, "hand": None})
