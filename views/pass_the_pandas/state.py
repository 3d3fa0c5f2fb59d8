"""What the Pass the Pandas pad shows, worked out from the record alone: no Flet here.

The hand being played is part of the record from its first player out (rounds, with the dice
counted for each one out in `held`), and the hand the pad is on is the record's `hand`; so a
restarted server or another phone shows exactly the same pad.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Problem, Result
from scoring import pass_the_pandas as ptp
from views.pad.words import and_join, plural


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def monium(record: ptp.Record) -> bool:
    return record.settings.variant == "panda-monium"


def variant_line(settings: dict | ptp.Settings) -> str:
    s = settings if isinstance(settings, ptp.Settings) else ptp.Settings.model_validate(settings)
    return f"Panda-monium · first to {s.target}" if s.variant == "panda-monium" else "Basic · hands won"


def setup_line(players: int) -> str:
    """The set-up aid of the new-game screen."""
    low, high = ptp.PLAYERS
    start = ptp.STARTING_DICE.get(players)
    if start is None:
        return f"Seat {low} to {high} players to see how many dice each starts with."
    used = players * start
    rest = f"{used} of the {ptp.DICE} dice; the rest stay in the box" if used < ptp.DICE else f"all {ptp.DICE} dice"
    return f"{players} players: {start} dice each ({rest})"


# ------------------------------------------------------------------------ the race to the target
@dataclass(frozen=True)
class RaceRow:
    pid: str
    name: str
    total: int
    place: int
    share: float        # of the target (panda-monium) or of the most hands won (basic), 0–1
    reached: bool       # at or past the target
    label: str          # one line for a screen reader


def race(record: ptp.Record, result: Result) -> list[RaceRow]:
    """Each player in seat order: the total against the target, or hands won in the basic game."""
    target = record.settings.target
    top = max((s.total for s in result.players), default=0)
    played = bool(record.rounds)
    rows = []
    for s in result.players:
        if monium(record):
            share = min(1.0, s.total / target) if target > 0 else 0.0
            hit = s.total >= target
            label = f"{s.name}: {s.total} of {target}" + (", reached the target" if hit else "")
        else:
            share = s.total / top if top else 0.0
            hit = False
            label = f"{s.name}: {plural(s.total, 'hand')} won"
        if played and s.place == 1:
            label += ", leader" if sum(1 for o in result.players if o.place == 1) == 1 else ", shares the lead"
        rows.append(RaceRow(s.id, s.name, s.total, s.place, share, hit, label))
    return rows


def race_title(record: ptp.Record) -> str:
    return f"Race to {record.settings.target}" if monium(record) else "Hands won"


# ------------------------------------------------------------------------ the hand on the pad
@dataclass(frozen=True)
class Finisher:
    pid: str
    name: str
    place: int                              # 1 went out first
    points: int | None
    held: tuple[tuple[str, str, int], ...]  # (id, name, dice) of each player still in then


def finishers(record: ptp.Record, index: int) -> list[Finisher]:
    hand = ptp.hand_at(record, index)
    return [Finisher(o.player, record.name_of(o.player), k + 1, o.points,
                     tuple((pid, record.name_of(pid), n) for pid, n in (o.held or {}).items()))
            for k, o in enumerate(hand.out)]


def correcting(record: ptp.Record) -> bool:
    """The pad is on an earlier hand than the one being played."""
    return ptp.hand_on(record) < len(record.rounds) - 1


def hand_title(record: ptp.Record) -> str:
    n = ptp.hand_on(record) + 1
    return f"Correcting hand {n}" if correcting(record) else f"Hand {n}"


def prompt(record: ptp.Record) -> str:
    """What the table is asked now."""
    index = ptp.hand_on(record)
    hand = ptp.hand_at(record, index)
    if not hand.out:
        return "Who went out first?"
    if ptp.is_complete(record, hand):
        last = ptp.holding(record, index)
        name = record.name_of(last[0]) if last else ""
        if monium(record):
            return f"Hand over: {name} still held dice and scores 0"
        return f"{record.name_of(hand.out[0].player)} won the hand; {name} came last"
    if monium(record):
        return "Who went out next?"
    return f"{record.name_of(hand.out[0].player)} won the hand. Later places, if you play on:"


def counting_line(record: ptp.Record, f: Finisher) -> str:
    return f"Dice still in play when {f.name} went out"


def limit_line(record: ptp.Record, f: Finisher) -> str:
    """'13 of at most 15 dice in play'; said plainly once the limit is reached."""
    top = ptp.max_points(len(record.players))
    points = f.points or 0
    if points >= top:
        return f"All {top} dice that can be in play are counted"
    return f"{points} of at most {top} dice in play"


def hand_problems(result: Result, index: int) -> list[Problem]:
    """The warnings and errors of one hand (the later-finisher check and the like), without the
    'hand 2: ' the rules put in front: the hand card says which hand it is."""
    where, prefix = f"rounds[{index}]", f"hand {index + 1}: "
    return [Problem(p.level, p.where, p.message.removeprefix(prefix)) for p in result.problems
            if p.where == where or p.where.startswith(where + ".")]


def can_go_next(record: ptp.Record) -> bool:
    index = ptp.hand_on(record)
    if index != len(record.rounds) - 1 or not record.rounds[index].out:
        return False
    if monium(record):
        return ptp.is_complete(record, record.rounds[index]) and not ptp.is_over(record)
    return True


def next_hint(record: ptp.Record) -> str:
    """Why Next hand waits (empty when it does not)."""
    if can_go_next(record) or ptp.is_over(record) or correcting(record):
        return ""
    index = ptp.hand_on(record)
    hand = ptp.hand_at(record, index)
    if not hand.out:
        return "Tap who went out first."
    left = ptp.holding(record, index)
    return (f"Play on until one player holds dice: {and_join([record.name_of(p) for p in left])} "
            f"still {'holds' if len(left) == 1 else 'hold'} dice.")


# ------------------------------------------------------------------------ the match
def winners_line(result: Result) -> str:
    names = [s.name for s in result.players if s.place == 1]
    return ("Winner: " if len(names) == 1 else "Shared win: ") + and_join(names)


def over_line(record: ptp.Record, result: Result) -> str:
    """'Ann reached 30: the match is over' (the hand in which someone reached it is played out)."""
    target = record.settings.target
    names = [s.name for s in result.players if s.total >= target]
    return f"{and_join(names)} reached {target}: the match is over"


def target_note(record: ptp.Record, result: Result) -> str:
    """While the hand in which someone reached the target is still being played."""
    if not monium(record) or ptp.is_over(record) or not record.rounds:
        return ""
    target = record.settings.target
    names = [s.name for s in result.players if s.total >= target]
    if not names:
        return ""
    return f"{and_join(names)} reached {target}: the match ends after this hand"


@dataclass(frozen=True)
class HandRow:
    hand: int                       # 1-based
    cells: dict[str, tuple[str, str]]  # per player: (this hand, the running total)
    first: str                      # name of who went out first ('' if no one yet)


def hands_table(record: ptp.Record, result: Result) -> list[HandRow]:
    """Panda-monium: each hand's points and the running totals; basic: each player's place in
    the hand and the hands won so far."""
    running = {pid: 0 for pid in record.player_ids()}
    rows = []
    for i, (hand, points) in enumerate(zip(record.rounds, result.rounds)):
        places = {o.player: k + 1 for k, o in enumerate(hand.out)}
        cells = {}
        for pid in record.player_ids():
            running[pid] += points.get(pid, 0)
            if monium(record):
                top = str(points.get(pid, 0)) if pid in places else "0" if ptp.is_complete(record, hand) else "…"
            else:
                top = ordinal(places[pid]) if pid in places else "last" if ptp.is_complete(record, hand) else "–"
            cells[pid] = (top, str(running[pid]))
        first = record.name_of(hand.out[0].player) if hand.out else ""
        rows.append(HandRow(i + 1, cells, first))
    return rows


def hand_label(record: ptp.Record, row: HandRow) -> str:
    """A hand's row in words: 'Hand 2: Ann 13, Ben 7, Cy 0'."""
    ids = record.player_ids()
    if monium(record):
        said = {"…": "still in"}  # a screen reader would read the ellipsis as a pause
        return f"Hand {row.hand}: " + ", ".join(f"{record.name_of(p)} {said.get(row.cells[p][0], row.cells[p][0])}"
                                              for p in ids)
    return f"Hand {row.hand}: {row.first} won" if row.first else f"Hand {row.hand}: no one out"


def table_status(record: ptp.Record) -> str:
    """For the big screen: where the match is."""
    n = ptp.hand_on(record) + 1
    if ptp.is_over(record):
        return "The match is over"
    return f"Hand {n} · race to {record.settings.target}" if monium(record) else f"Hand {n}"
