"""What the Pass the Pandas pad shows, worked out from the record alone: no Flet here.

The hand being played is part of the record from its first player out (rounds, with the dice
counted for each one out in `held`), and the hand the pad is on is the record's `hand`; so a
restarted server or another phone shows exactly the same pad.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Problem, Result
from scoring import pass_the_pandas as ptp
from views.words import lang
from views.words.lang import N_, _, n_

# A player's place in a hand (a game has 2 to 5 players): marked here, _(place) where shown.
PLACES = (
    # TRANSLATORS: Pass the Pandas: a player's place in a hand, by the order they went out (short: a table cell)
    N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"))


def ordinal(n: int) -> str:
    """'1st' to '5th' (no more players); a bare number past them."""
    return _(PLACES[n - 1]) if 1 <= n <= len(PLACES) else str(n)


def monium(record: ptp.Record) -> bool:
    return record.settings.variant == "panda-monium"


def variant_line(settings: dict | ptp.Settings) -> str:
    s = settings if isinstance(settings, ptp.Settings) else ptp.Settings.model_validate(settings)
    # TRANSLATORS: Pass the Pandas' variants (Panda-monium: the game's own name for scoring to a target)
    return (_("Panda-monium · first to {target}", target=s.target) if s.variant == "panda-monium"
            else _("Basic · hands won"))


def setup_line(players: int) -> str:
    """The set-up aid of the new-game screen."""
    low, high = ptp.PLAYERS
    start = ptp.STARTING_DICE.get(players)
    if start is None:
        return _("Seat {low} to {high} players to see how many dice each starts with.", low=low, high=high)
    used = players * start
    if used < ptp.DICE:
        return _("{players} players: {start} dice each ({used} of the {dice} dice; the rest stay in the box)",
                 players=players, start=start, used=used, dice=ptp.DICE)
    return _("{players} players: {start} dice each (all {dice} dice)", players=players, start=start, dice=ptp.DICE)


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
            label = (_("{name}: {total} of {target}, reached the target", name=s.name, total=s.total, target=target)
                     if hit else _("{name}: {total} of {target}", name=s.name, total=s.total, target=target))
        else:
            share = s.total / top if top else 0.0
            hit = False
            label = n_("{name}: {n} hand won", "{name}: {n} hands won", s.total, name=s.name)
        if played and s.place == 1:
            # TRANSLATORS: a player's line in the race for a screen reader ({said}: "Ann: 13 of 30"), then
            # that the player leads / shares the lead
            label = (_("{said}, leader", said=label) if sum(1 for o in result.players if o.place == 1) == 1
                     else _("{said}, shares the lead", said=label))
        rows.append(RaceRow(s.id, s.name, s.total, s.place, share, hit, label))
    return rows


def race_title(record: ptp.Record) -> str:
    return _("Race to {target}", target=record.settings.target) if monium(record) else _("Hands won")


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
    # TRANSLATORS: Pass the Pandas: a hand (one deal of the game, until one player is left holding dice)
    return _("Correcting hand {n}", n=n) if correcting(record) else _("Hand {n}", n=n)


def prompt(record: ptp.Record) -> str:
    """What the table is asked now."""
    index = ptp.hand_on(record)
    hand = ptp.hand_at(record, index)
    if not hand.out:
        # TRANSLATORS: Pass the Pandas: "went out" is the game's term for a player who has no dice left
        return _("Who went out first?")
    if ptp.is_complete(record, hand):
        last = ptp.holding(record, index)
        name = record.name_of(last[0]) if last else ""
        if monium(record):
            return _("Hand over: {name} still held dice and scores 0", name=name)
        return _("{winner} won the hand; {name} came last", winner=record.name_of(hand.out[0].player), name=name)
    if monium(record):
        return _("Who went out next?")
    return _("{winner} won the hand. Later places, if you play on:", winner=record.name_of(hand.out[0].player))


def counting_line(record: ptp.Record, f: Finisher) -> str:
    # TRANSLATORS: Pass the Pandas: "went out": the game's term for a player who has no dice left
    return _("Dice still in play when {name} went out", name=f.name)


def limit_line(record: ptp.Record, f: Finisher) -> str:
    """'13 of at most 15 dice in play'; said plainly once the limit is reached."""
    top = ptp.max_points(len(record.players))
    points = f.points or 0
    if points >= top:
        return _("All {top} dice that can be in play are counted", top=top)
    return _("{points} of at most {top} dice in play", points=points, top=top)


def hand_problems(result: Result, index: int) -> list[Problem]:
    """The warnings and errors of one hand (the later-finisher check and the like), without the
    'hand 2: ' the rules put in front: the hand card says which hand it is. Their words are in
    this phone's language already (the prefix is taken off the translated sentence), so they
    carry no template: `lang.problem` shows them as they are."""
    where = f"rounds[{index}]"
    # TRANSLATORS: how the hand problems of Pass the Pandas begin ("hand {hand}: {name} went out
    # twice"); taken off on the hand's own card, so write it exactly as those translations begin
    prefix = lang._("hand {hand}: ", hand=index + 1)
    return [Problem(p.level, p.where, lang.problem(p).removeprefix(prefix)) for p in result.problems
            if p.where == where or p.where.startswith(where + ".")]


def can_go_next(record: ptp.Record) -> bool:
    index = ptp.hand_on(record)
    if index != len(record.rounds) - 1 or not record.rounds[index].out:
        return False
    if monium(record):
        return ptp.is_complete(record, record.rounds[index]) and not ptp.is_over(record)
    return True


def next_hint(record: ptp.Record, short: bool = False) -> str:
    """Why Next hand waits (empty when it does not). short: without the names of those still holding
    dice (their keys above say them), for a bar where the names took four lines of a 320 px phone (#56)."""
    if can_go_next(record) or ptp.is_over(record) or correcting(record):
        return ""
    index = ptp.hand_on(record)
    hand = ptp.hand_at(record, index)
    if not hand.out:
        return _("Tap who went out first.")
    if short:
        # TRANSLATORS: Pass the Pandas: why Next hand waits (as the start of "Play on until one player holds dice: …")
        return _("Play on until one player holds dice.")
    left = ptp.holding(record, index)
    return n_("Play on until one player holds dice: {names} still holds dice.",
              "Play on until one player holds dice: {names} still hold dice.", len(left),
              names=lang.names([record.name_of(p) for p in left]))


# ------------------------------------------------------------------------ the match
def winners_line(result: Result) -> str:
    names = [s.name for s in result.players if s.place == 1]
    return (_("Winner: {name}", name=names[0]) if len(names) == 1
            else _("Shared win: {names}", names=lang.names(names)))


def over_line(record: ptp.Record, result: Result) -> str:
    """'Ann reached 30: the match is over' (the hand in which someone reached it is played out)."""
    target = record.settings.target
    names = [s.name for s in result.players if s.total >= target]
    return n_("{names} reached {target}: the match is over", "{names} reached {target}: the match is over",
              len(names), names=lang.names(names), target=target)


def target_note(record: ptp.Record, result: Result) -> str:
    """While the hand in which someone reached the target is still being played."""
    if not monium(record) or ptp.is_over(record) or not record.rounds:
        return ""
    target = record.settings.target
    names = [s.name for s in result.players if s.total >= target]
    if not names:
        return ""
    return n_("{names} reached {target}: the match ends after this hand",
              "{names} reached {target}: the match ends after this hand", len(names), names=lang.names(names),
              target=target)


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
                # TRANSLATORS: Pass the Pandas: the place of the player left holding dice (short: a table cell)
                top = ordinal(places[pid]) if pid in places else _("last") if ptp.is_complete(record, hand) else "–"
            cells[pid] = (top, str(running[pid]))
        first = record.name_of(hand.out[0].player) if hand.out else ""
        rows.append(HandRow(i + 1, cells, first))
    return rows


def hand_label(record: ptp.Record, row: HandRow) -> str:
    """A hand's row in words: 'Hand 2: Ann 13, Ben 7, Cy 0'."""
    ids = record.player_ids()
    if monium(record):
        # "…" said in words: a screen reader would read the ellipsis as a pause.
        # TRANSLATORS: Pass the Pandas: a player's points in a hand ("Ann 13"), or still holding dice
        said = [_("{name} still in", name=record.name_of(p)) if row.cells[p][0] == "…"
                else _("{name} {points}", name=record.name_of(p), points=row.cells[p][0]) for p in ids]
        # TRANSLATORS: a hand's row for a screen reader: "Hand 2: Ann 13, Ben 7, Cy 0"
        return _("Hand {n}: {players}", n=row.hand, players=", ".join(said))
    return (_("Hand {n}: {name} won", n=row.hand, name=row.first) if row.first
            else _("Hand {n}: no one out", n=row.hand))


def table_status(record: ptp.Record) -> str:
    """For the big screen: where the match is."""
    n = ptp.hand_on(record) + 1
    if ptp.is_over(record):
        return _("The match is over")
    return (_("Hand {n} · race to {target}", n=n, target=record.settings.target) if monium(record)
            else _("Hand {n}", n=n))
