"""What the Nokosu Dice pad shows, worked out from the record alone: no Flet here.

The round being entered lives in the record (`entry`), saved on every tap; this module turns
it into words: who deals and leads, the trick tally, each player's score with its bonus
explained, and where the keypad goes next.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Result
from scoring import nokosu_dice as nk
from views.words import lang
from views.words.lang import _, n_

DECLARE = "declare"
TRICKS = "tricks"
DONE = "done"       # everything of the round is in: no keypad, the Close button in view


# --------------------------------------------------------------------------- set-up aid
def setup_lines(n: int) -> list[tuple[str, str]]:
    """The new-game screen's set-up aid for n players: (what, how many)."""
    if n not in nk.TRICKS:
        return []
    return [(_("Cards each"), str(nk.CARDS[n])),
            (_("Dice each player draws and rolls"), str(nk.DRAWN[n])),
            (_("Dice in the middle"), _("{n} + the 2 zero-trick dice", n=nk.MIDDLE[n])),
            # TRANSLATORS: in the Nokosu Dice draft, the dice each player keeps
            (_("Dice each after the draft"), str(nk.DICE[n])),
            (_("Tricks per round"), str(nk.TRICKS[n])),
            (_("Rounds"), str(n))]


# --------------------------------------------------------------------------- the round
@dataclass(frozen=True)
class Header:
    title: str          # "Round 2 of 4", "Correcting round 1"
    deals: str          # "Ben deals · Cat leads"
    tricks: str         # "14 tricks to play"


def header(record: nk.Record) -> Header:
    i = nk.entry_index(record)
    correcting = nk.entry_of(record).round is not None
    title = (_("Correcting round {n}", n=i + 1) if correcting
             else _("Round {n} of {rounds}", n=i + 1, rounds=nk.rounds_in_game(record)))
    name = record.name_of
    n = len(record.players)
    return Header(title, _("{dealer} deals · {leader} leads", dealer=name(nk.dealer(record, i)),
                           leader=name(nk.leader(record, i))),
                  # TRANSLATORS: Nokosu Dice: each player keeps one die back, face down, as their declaration
                  _("{tricks} tricks to play: {cards} cards + {dice} dice − the die kept back",
                    tricks=nk.tricks_per_round(record), cards=nk.CARDS[n], dice=nk.DICE[n]))


def declared_text(d: int | None) -> str:
    # TRANSLATORS: Nokosu Dice: the declaration of zero tricks (a key on the keypad; keep it short)
    return "–" if d is None else _("Zero") if d == 0 else str(d)


def tally(record: nk.Record) -> tuple[str, bool]:
    """The trick count of the round and whether it is wrong (a warning saying by how much)."""
    entry = nk.entry_of(record)
    top = nk.tricks_per_round(record)
    won = sum(entry.tricks.values())
    off = nk.tricks_off(record)
    if off is not None:
        if off > 0:
            return n_("The tricks add up to {won}, not {top}: {n} trick too many",
                      "The tricks add up to {won}, not {top}: {n} tricks too many", off, won=won, top=top), True
        return n_("The tricks add up to {won}, not {top}: {n} trick short",
                  "The tricks add up to {won}, not {top}: {n} tricks short", -off, won=won, top=top), True
    if len(entry.tricks) == len(record.players):
        return _("All {top} tricks are in", top=top), False
    return _("Tricks: {won} of {top} entered, {left} to go", won=won, top=top, left=top - won), False


def zero_note(record: nk.Record, pid: str) -> str | None:
    """Why `pid` cannot declare zero now (the two zero-trick dice are taken), or None."""
    entry = nk.entry_of(record)
    zeros = nk.zero_declarers(entry, but=pid)
    if len(zeros) < nk.MAX_ZERO_DECLARATIONS:
        return None
    return _("No third zero: both zero-trick dice are taken ({names})",
             names=lang.names([record.name_of(p) for p in zeros]))


def fitting_tricks(record: nk.Record, pid: str) -> int | None:
    """The tricks that make the round add up, when `pid` is the only one left to enter."""
    entry = nk.entry_of(record)
    others = [p for p in record.player_ids() if p != pid]
    if pid in entry.tricks or any(p not in entry.tricks for p in others):
        return None
    left = nk.tricks_per_round(record) - sum(entry.tricks[p] for p in others)
    return left if left >= 0 else None


def key_rows(count: int, most: int = 7) -> list[int]:
    """How many keys each keypad row holds: even rows of at most `most` (15 keys: 5, 5, 5)."""
    rows = -(-count // most)
    per = -(-count // rows)
    return [min(per, count - k * per) for k in range(rows)]


# --------------------------------------------------------------------------- the cursor
@dataclass(frozen=True)
class Cursor:
    """The keypad's place: a player's declaration or tricks (on screen only)."""
    phase: str
    pid: str


def resume_cursor(record: nk.Record) -> Cursor:
    """The first declaration missing, else the first tricks missing, else the last tricks."""
    entry = nk.entry_of(record)
    ids = record.player_ids()
    for pid in ids:
        if pid not in entry.declared:
            return Cursor(DECLARE, pid)
    for pid in ids:
        if pid not in entry.tricks:
            return Cursor(TRICKS, pid)
    return Cursor(DONE, ids[-1])


def next_cursor(record: nk.Record, cursor: Cursor) -> Cursor:
    """After a tap: the next player (clockwise) still missing this phase's entry; when
    everyone has declared, the first tricks missing; when all is in, done."""
    entry = nk.entry_of(record)
    ids = record.player_ids()
    k = ids.index(cursor.pid)
    after = ids[k + 1:] + ids[:k + 1]
    have = entry.declared if cursor.phase == DECLARE else entry.tricks
    for pid in after:
        if pid not in have:
            return Cursor(cursor.phase, pid)
    for pid in ids:
        if pid not in entry.tricks:
            return Cursor(TRICKS, pid)
    return resume_cursor(record)


def changed_cell(before: nk.Record, after: nk.Record) -> Cursor | None:
    """The first declaration or tricks that differ between two records' entries."""
    a, b = nk.entry_of(before), nk.entry_of(after)
    for pid in after.player_ids():
        if a.declared.get(pid) != b.declared.get(pid):
            return Cursor(DECLARE, pid)
        if a.tricks.get(pid) != b.tricks.get(pid):
            return Cursor(TRICKS, pid)
    return None


def still_to_enter(record: nk.Record) -> list[str]:
    entry = nk.entry_of(record)
    return [p for p in record.player_ids() if p not in entry.declared or p not in entry.tricks]


# --------------------------------------------------------------------------- scores in words
@dataclass(frozen=True)
class Line:
    pid: str
    name: str
    declared: int | None
    tricks: int | None
    made: bool
    points: int | None
    words: str


def explain(record: nk.Record, rnd: nk.Round) -> list[Line]:
    """Each player's round score with its bonus in words, by the scoring module's own sums:
    'made 3: 3 + 10 × 2 missed = 23', 'made zero: 0 + 10 × 2 missed + 10 zero bonus = 30'."""
    points = nk.round_scores(record, rnd)
    missed = sum(1 for p in points if p in rnd.declared and rnd.tricks[p] != rnd.declared[p])
    zero_bonus = record.settings.zero_bonus
    lines = []
    for pid in record.player_ids():
        d, t = rnd.declared.get(pid), rnd.tricks.get(pid)
        made = d is not None and t is not None and d == t
        if t is None:
            words = _("no tricks entered")
        elif d is None:
            words = _("no declaration, won {tricks}: {tricks}", tricks=t)
        elif made:
            parts = [str(t)] + ([_("{bonus} × {missed} missed", bonus=nk.MADE_BONUS, missed=missed)]
                                if missed else []) + \
                ([_("{bonus} zero bonus", bonus=zero_bonus)] if d == 0 and zero_bonus else [])
            if len(parts) > 1:
                sums = " + ".join(parts)
                # TRANSLATORS: Nokosu Dice: a player made their declaration of zero tricks; {sum} adds up the points
                words = (_("made zero: {sum} = {points}", sum=sums, points=points[pid]) if d == 0
                         else _("made {declared}: {sum} = {points}", declared=d, sum=sums, points=points[pid]))
            else:
                words = (_("made zero: {tricks}, no bonus (nobody missed)", tricks=t) if d == 0
                         else _("made {declared}: {tricks}, no bonus (nobody missed)", declared=d, tricks=t))
        else:
            # TRANSLATORS: Nokosu Dice: a player missed their declaration of zero tricks
            words = (_("missed zero, won {tricks}: {tricks}", tricks=t) if d == 0
                     else _("missed {declared}, won {tricks}: {tricks}", declared=d, tricks=t))
        lines.append(Line(pid, record.name_of(pid), d, t, made, points.get(pid), words))
    return lines


def missed_line(record: nk.Record, rnd: nk.Round) -> str:
    """Who missed, which sets the bonus of those who made it."""
    missed = [record.name_of(p) for p in record.player_ids()
              if p in rnd.declared and p in rnd.tricks and rnd.declared[p] != rnd.tricks[p]]
    if not missed:
        return _("Everyone made their declaration: no bonus this round")
    return _("Missed: {names}. Each who made it adds {bonus} × {count}", names=lang.names(missed),
             bonus=nk.MADE_BONUS, count=len(missed))


# --------------------------------------------------------------------------- the game
@dataclass(frozen=True)
class TableRow:
    round: int                  # 1-based
    points: dict[str, int]
    running: dict[str, int]


def rounds_table(record: nk.Record, result: Result) -> list[TableRow]:
    running = {pid: 0 for pid in record.player_ids()}
    rows = []
    for i, points in enumerate(result.rounds):
        for pid, p in points.items():
            running[pid] += p
        rows.append(TableRow(i + 1, dict(points), dict(running)))
    return rows


def is_over(record: nk.Record) -> bool:
    """Every round closed and no correction open: time for the final standings."""
    return len(record.rounds) >= nk.rounds_in_game(record) and nk.entry_of(record).is_empty()


def winners_line(result: Result) -> str:
    names = [s.name for s in result.players if s.place == 1]
    return (_("Winner: {name}", name=names[0]) if len(names) == 1
            else _("Shared win: {names}", names=lang.names(names)))


def table_status(record: nk.Record) -> tuple[str, list[str]]:
    if is_over(record):
        return _("All {n} rounds played", n=nk.rounds_in_game(record)), []
    return header(record).title, [record.name_of(p) for p in still_to_enter(record)]
