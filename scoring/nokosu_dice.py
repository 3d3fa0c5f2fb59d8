"""Nokosu Dice: trick taking where the die you keep back is your declaration."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import (N_, Checks, Count, Frozen, PlayerId, RecordBase, Result, Words, require_known_ids,
                     standings)

GAME = "nokosu-dice"
TITLE = "Nokosu Dice"
PLAYERS = (3, 5)
TRICKS = {3: 12, 4: 14, 5: 11}       # tricks per round by player count
CARDS = {3: 9, 4: 10, 5: 8}
DICE = {3: 4, 4: 5, 5: 4}              # dice each player holds at the end of the draft
# The set-up the seed (Roger's Rules) gives beside rules.md's table: each player draws and rolls
# DRAWN dice, the dealer rolls MIDDLE more into the middle beside the two zero-trick dice, and the
# draft leaves one of them in the middle (the trump): n × (DICE − DRAWN) = MIDDLE − 1.
DRAWN = {3: 1, 4: 2, 5: 1}
MIDDLE = {3: 10, 4: 13, 5: 16}
MADE_BONUS = 10                        # × players who missed their declaration
MAX_DECLARATION = 6
MAX_ZERO_DECLARATIONS = 2             # there are two zero-trick dice


class Settings(Frozen):
    zero_bonus: StrictInt = 10
    # Optional (records.md allows added optional fields): who dealt round 1, for the pad's
    # "who deals, who leads"; None: the first seat. Never scored.
    first_dealer: PlayerId | None = None


class Round(Frozen):
    declared: dict[PlayerId, StrictInt] = Field(default_factory=dict)
    tricks: dict[PlayerId, StrictInt] = Field(default_factory=dict)


class Entry(Frozen):
    """The round being entered on the pad (an optional field, as royal_ur's): saved on every
    tap so a restart or another phone finds it, never scored until the round is closed.
    `round` is the index of a closed round being corrected, None for the next round."""
    round: Count | None = None
    declared: dict[PlayerId, StrictInt] = Field(default_factory=dict)
    tricks: dict[PlayerId, StrictInt] = Field(default_factory=dict)

    def is_empty(self) -> bool:
        return self.round is None and not self.declared and not self.tricks


class Record(RecordBase):
    game: Literal["nokosu-dice"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Round, ...] = ()
    entry: Entry | None = None


def check_ids(record: Record) -> None:
    for i, rnd in enumerate(record.rounds):
        require_known_ids(record, rnd.declared, f"rounds[{i}].declared")
        require_known_ids(record, rnd.tricks, f"rounds[{i}].tricks")
    if record.entry is not None:
        require_known_ids(record, record.entry.declared, "entry.declared")
        require_known_ids(record, record.entry.tricks, "entry.tricks")
    if record.settings.first_dealer is not None:
        require_known_ids(record, [record.settings.first_dealer], "settings.first_dealer")


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
        checks.warning("rounds", N_("a game of {players} players has {players} rounds; this one has {rounds}"),
                       players=len(ids), rounds=len(record.rounds))
    if record.settings.zero_bonus < 0:
        # TRANSLATORS: the points a player scores for making a declaration of zero tricks
        checks.error("settings.zero_bonus", N_("the zero bonus cannot be negative ({bonus})"),
                     bonus=record.settings.zero_bonus)
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
                         N_("round {round}: {name} declared {declared}; declarations are 0–{most}"),
                         round=i + 1, name=record.name_of(pid), declared=d, most=MAX_DECLARATION)
    for pid, t in ((p, rnd.tricks[p]) for p in seats if p in rnd.tricks):
        if t < 0 or (per_round is not None and t > per_round):
            checks.error(f"{where}.tricks.{pid}",
                         N_("round {round}: {name} won {tricks} tricks; a round has 0–{most}"),
                         round=i + 1, name=record.name_of(pid), tricks=t, most=per_round)
    zeros = [pid for pid in seats if rnd.declared.get(pid) == 0]
    if len(zeros) > MAX_ZERO_DECLARATIONS:
        checks.error(f"{where}.declared",
                     # TRANSLATORS: the zero-trick dice: the two dice a player takes to declare zero tricks
                     N_("round {round}: {zeros} players declared zero; there are only {dice} zero-trick dice"),
                     round=i + 1, zeros=len(zeros), dice=MAX_ZERO_DECLARATIONS)
    missing = {"declared": N_("round {round}: no declaration entered for {name}"),
               "tricks": N_("round {round}: no tricks entered for {name}")}
    for pid in record.player_ids():
        for part, words in missing.items():
            if pid not in getattr(rnd, part):
                checks.warning(f"{where}.{part}", words, round=i + 1, name=record.name_of(pid))
    if per_round is not None and len(rnd.tricks) == len(record.players):
        won = sum(rnd.tricks.values())
        if won != per_round:
            checks.warning(f"{where}.tricks", N_("round {round}: the tricks add up to {won}; "
                                                 "{players} players play {tricks}"),
                           round=i + 1, won=won, players=len(record.players), tricks=per_round)


# --------------------------------------------------------------------------- the pad's edits
# Pure functions record -> record (the pad saves what they return); a ValueError says in a
# player's words why a tap is refused: English `Words`, which the pad shows in the phone's
# language (#33).

def tricks_per_round(record: Record) -> int:
    return TRICKS[len(record.players)]


def rounds_in_game(record: Record) -> int:
    """As many rounds as players: everyone deals once."""
    return len(record.players)


def entry_of(record: Record) -> Entry:
    return record.entry or Entry()


def entry_index(record: Record) -> int:
    """The index of the round the entry is for (a correction, or the next round)."""
    entry = entry_of(record)
    return entry.round if entry.round is not None else len(record.rounds)


def dealer(record: Record, index: int) -> str:
    """The deal passes left (the next seat clockwise) from the first dealer."""
    ids = record.player_ids()
    first = record.settings.first_dealer
    start = ids.index(first) if first in ids else 0
    return ids[(start + index) % len(ids)]


def leader(record: Record, index: int) -> str:
    """The player on the dealer's left leads the first trick."""
    ids = record.player_ids()
    return ids[(ids.index(dealer(record, index)) + 1) % len(ids)]


def set_dealer(record: Record, index: int, pid: str) -> Record:
    """`pid` deals round `index`: the first dealer is whoever that makes it."""
    require_known_ids(record, [pid], "settings.first_dealer")
    ids = record.player_ids()
    first = ids[(ids.index(pid) - index) % len(ids)]
    return record.model_copy(update={"settings": record.settings.model_copy(update={"first_dealer": first})})


def _with_entry(record: Record, entry: Entry | None) -> Record:
    return record.model_copy(update={"entry": None if entry is not None and entry.is_empty() else entry})


def zero_declarers(entry: Entry | Round, but: str | None = None) -> list[str]:
    return [pid for pid, d in entry.declared.items() if d == 0 and pid != but]


def declare(record: Record, pid: str, declared: int) -> Record:
    require_known_ids(record, [pid], "entry.declared")
    if not 0 <= declared <= MAX_DECLARATION:
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"a declaration is zero or a die's face 1–{MAX_DECLARATION}, not {declared}")
    entry = entry_of(record)
    zeros = zero_declarers(entry, but=pid)
    if declared == 0 and len(zeros) >= MAX_ZERO_DECLARATIONS:
        # TRANSLATORS: Nokosu Dice: {names} is a list of players ("Ann and Cat")
        raise ValueError(Words(N_("both zero-trick dice are taken ({names} declared zero)"),
                               names=tuple(record.name_of(p) for p in zeros)))
    return _with_entry(record, entry.model_copy(update={"declared": {**entry.declared, pid: declared}}))


def set_tricks(record: Record, pid: str, tricks: int) -> Record:
    require_known_ids(record, [pid], "entry.tricks")
    top = tricks_per_round(record)
    if not 0 <= tricks <= top:
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"a round of {len(record.players)} players has 0–{top} tricks, not {tricks}")
    entry = entry_of(record)
    return _with_entry(record, entry.model_copy(update={"tricks": {**entry.tricks, pid: tricks}}))


def tricks_off(record: Record) -> int | None:
    """Tricks entered beyond the round's total (negative: short), once every player has tricks
    or they already overshoot; None while nothing is wrong yet."""
    entry = entry_of(record)
    won = sum(entry.tricks.values())
    top = tricks_per_round(record)
    if won > top or (len(entry.tricks) == len(record.players) and won != top):
        return won - top
    return None


def entry_round(record: Record) -> Round:
    entry = entry_of(record)
    ids = record.player_ids()  # seat order, as a round written by hand would be
    return Round(declared={p: entry.declared[p] for p in ids if p in entry.declared},
                 tricks={p: entry.tricks[p] for p in ids if p in entry.tricks})


# What is still to tap before a round closes, one whole sentence for each case: whose
# declaration and whose tricks are missing, everyone's or some players' ({declared} and
# {tricks} are lists of players).
STILL_TO_TAP = {
    ("everyone", None): N_("everyone's declaration still to tap"),
    # TRANSLATORS: Nokosu Dice: {declared} and {tricks} are lists of players ("Ann and Ben")
    ("some", None): N_("{declared}'s declaration still to tap"),
    (None, "everyone"): N_("everyone's tricks still to tap"),
    # TRANSLATORS: Nokosu Dice: {declared} and {tricks} are lists of players ("Ann and Ben")
    (None, "some"): N_("{tricks}'s tricks still to tap"),
    ("everyone", "everyone"): N_("everyone's declaration and everyone's tricks still to tap"),
    # TRANSLATORS: Nokosu Dice: {declared} and {tricks} are lists of players ("Ann and Ben")
    ("everyone", "some"): N_("everyone's declaration and {tricks}'s tricks still to tap"),
    # TRANSLATORS: Nokosu Dice: {declared} and {tricks} are lists of players ("Ann and Ben")
    ("some", "everyone"): N_("{declared}'s declaration and everyone's tricks still to tap"),
    # TRANSLATORS: Nokosu Dice: {declared} and {tricks} are lists of players ("Ann and Ben")
    ("some", "some"): N_("{declared}'s declaration and {tricks}'s tricks still to tap"),
}


def entry_problem(record: Record) -> Words | None:
    """Why the round cannot be closed yet (someone's declaration or tricks missing), in English
    `Words`, or None. Tricks that do not add up are a warning (rules.md): the round may still
    be closed."""
    entry = entry_of(record)
    if entry.round is None and len(record.rounds) >= rounds_in_game(record):
        return Words(N_("all {rounds} rounds are played"), rounds=rounds_in_game(record))
    ids = record.player_ids()
    cases, names = [], {}
    for part, have in (("declared", entry.declared), ("tricks", entry.tricks)):
        missing = tuple(record.name_of(p) for p in ids if p not in have)
        cases.append(None if not missing else "everyone" if len(missing) == len(ids) else "some")
        if cases[-1] == "some":
            names[part] = missing
    return Words(STILL_TO_TAP[tuple(cases)], **names) if any(cases) else None


def close_round(record: Record) -> Record:
    """The entry becomes a round of the game (or replaces the round it corrects)."""
    problem = entry_problem(record)
    if problem:
        raise ValueError(problem)
    entry = entry_of(record)
    rounds = list(record.rounds)
    if entry.round is not None and entry.round < len(rounds):
        rounds[entry.round] = entry_round(record)
    else:
        rounds.append(entry_round(record))
    return record.model_copy(update={"rounds": tuple(rounds), "entry": None})


def edit_round(record: Record, index: int) -> Record:
    """Take a closed round back into the entry to correct it; it stays scored until saved again.
    Refused while the next round is being entered, so that no tap of it is lost."""
    if not 0 <= index < len(record.rounds):
        raise ValueError(Words(N_("there is no round {round}"), round=index + 1))
    entry = entry_of(record)
    if entry.round is None and not entry.is_empty():
        raise ValueError(Words(N_("round {round} is being entered: close or clear it first"),
                               round=len(record.rounds) + 1))
    rnd = record.rounds[index]
    return _with_entry(record, Entry(round=index, declared=dict(rnd.declared), tricks=dict(rnd.tricks)))


def clear_entry(record: Record) -> Record:
    return _with_entry(record, None)
