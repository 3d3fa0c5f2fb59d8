"""What the Nokosu Dice pad shows, worked out from the record alone: no Flet here.

The round being entered lives in the record (`entry`), saved on every tap; this module turns
it into words: who deals and leads, the trick tally, each player's score with its bonus
explained, and where the keypad goes next.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Result
from scoring import nokosu_dice as nk
from views.pad.words import and_join, plural

DECLARE = "declare"
TRICKS = "tricks"
DONE = "done"       # everything of the round is in: no keypad, the Close button in view


# --------------------------------------------------------------------------- set-up aid
def setup_lines(n: int) -> list[tuple[str, str]]:
    """The new-game screen's set-up aid for n players: (what, how many)."""
    if n not in nk.TRICKS:
        return []
    return [("Cards each", str(nk.CARDS[n])),
            ("Dice each player draws and rolls", str(nk.DRAWN[n])),
            ("Dice in the middle", f"{nk.MIDDLE[n]} + the 2 zero-trick dice"),
            ("Dice each after the draft", str(nk.DICE[n])),
            ("Tricks per round", str(nk.TRICKS[n])),
            ("Rounds", str(n))]


# --------------------------------------------------------------------------- the round
@dataclass(frozen=True)
class Header:
    title: str          # "Round 2 of 4", "Correcting round 1"
    deals: str          # "Ben deals · Cat leads"
    tricks: str         # "14 tricks to play"


def header(record: nk.Record) -> Header:
    i = nk.entry_index(record)
    correcting = nk.entry_of(record).round is not None
    title = f"Correcting round {i + 1}" if correcting else f"Round {i + 1} of {nk.rounds_in_game(record)}"
    name = record.name_of
    n = len(record.players)
    return Header(title, f"{name(nk.dealer(record, i))} deals · {name(nk.leader(record, i))} leads",
                  f"{nk.tricks_per_round(record)} tricks to play: {nk.CARDS[n]} cards + {nk.DICE[n]} dice "
                  "− the die kept back")


def declared_text(d: int | None) -> str:
    return "–" if d is None else "Zero" if d == 0 else str(d)


def tally(record: nk.Record) -> tuple[str, bool]:
    """The trick count of the round and whether it is wrong (a warning saying by how much)."""
    entry = nk.entry_of(record)
    top = nk.tricks_per_round(record)
    won = sum(entry.tricks.values())
    off = nk.tricks_off(record)
    if off is not None:
        by = f"{plural(off, 'trick')} too many" if off > 0 else f"{plural(-off, 'trick')} short"
        return f"The tricks add up to {won}, not {top}: {by}", True
    if len(entry.tricks) == len(record.players):
        return f"All {top} tricks are in", False
    return f"Tricks: {won} of {top} entered, {top - won} to go", False


def zero_note(record: nk.Record, pid: str) -> str | None:
    """Why `pid` cannot declare zero now (the two zero-trick dice are taken), or None."""
    entry = nk.entry_of(record)
    zeros = nk.zero_declarers(entry, but=pid)
    if len(zeros) < nk.MAX_ZERO_DECLARATIONS:
        return None
    return f"No third zero: both zero-trick dice are taken ({and_join([record.name_of(p) for p in zeros])})"


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
        head = declared_text(d).lower() if d is not None else ""
        if t is None:
            words = "no tricks entered"
        elif d is None:
            words = f"no declaration, won {t}: {t}"
        elif made:
            parts = [str(t)] + ([f"{nk.MADE_BONUS} × {missed} missed"] if missed else []) + \
                ([f"{zero_bonus} zero bonus"] if d == 0 and zero_bonus else [])
            words = f"made {head}: {' + '.join(parts)} = {points[pid]}" if len(parts) > 1 \
                else f"made {head}: {t}, no bonus (nobody missed)"
        else:
            words = f"missed {head}, won {t}: {t}"
        lines.append(Line(pid, record.name_of(pid), d, t, made, points.get(pid), words))
    return lines


def missed_line(record: nk.Record, rnd: nk.Round) -> str:
    """Who missed, which sets the bonus of those who made it."""
    missed = [record.name_of(p) for p in record.player_ids()
              if p in rnd.declared and p in rnd.tricks and rnd.declared[p] != rnd.tricks[p]]
    if not missed:
        return "Everyone made their declaration: no bonus this round"
    return f"Missed: {and_join(missed)}. Each who made it adds {nk.MADE_BONUS} × {len(missed)}"


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
    return ("Winner: " if len(names) == 1 else "Shared win: ") + and_join(names)


def table_status(record: nk.Record) -> tuple[str, list[str]]:
    if is_over(record):
        return f"All {nk.rounds_in_game(record)} rounds played", []
    return header(record).title, [record.name_of(p) for p in still_to_enter(record)]
