"""What the Panda Royale score pad shows, worked out from a record alone: no Flet here.

The screen keeps a cursor (which round, which player's hand, or the round's summary) and a few
table-mistake overrides (who holds a pink die); everything else is derived from the record and
its score, so a restarted server shows the table exactly where the record says it was.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scoring import Result
from scoring import panda_royale as pr
from views.words import lang
from views.words.lang import _, n_, p_
from views.pads.pad.words import MINUS, leaders, signed  # noqa: F401 (used by the pad)

# Sheet order, with glitter next to the plain blue it counts as.
PAD_COLOURS = ("yellow", "purple", "blue", "glitter", "red", "green", "clear", "pink")


def colour_name(colour: str) -> str:
    """A die colour as the players say it ('Yellow'); `colour` is the record's key ('yellow')."""
    return {
        # TRANSLATORS: a die colour of Panda Royale (the yellow dice).
        "yellow": p_("die colour", "Yellow"),
        "purple": p_("die colour", "Purple"),
        "blue": p_("die colour", "Blue"),
        # TRANSLATORS: the glittery blue die of Panda Royale (it counts as blue and doubles blue once).
        "glitter": p_("die colour", "Glitter"),
        "red": p_("die colour", "Red"),
        "green": p_("die colour", "Green"),
        # TRANSLATORS: the transparent (see-through) dice of Panda Royale, not "to clear".
        "clear": p_("die colour", "Clear"),
        # TRANSLATORS: the pink die of Panda Royale (the pity die a player may hold).
        "pink": p_("die colour", "Pink"),
    }[colour]


def colour_letters(colour: str) -> str:
    """Every colour also has letters, for colour-blind players and for narrow sheet headers."""
    return {
        # TRANSLATORS: the letters standing for a die colour (Y = Yellow), printed on the dice
        # for colour-blind players: one or two letters, different for each of the eight colours.
        "yellow": p_("die colour letters", "Y"),
        "purple": p_("die colour letters", "Pu"),
        "blue": p_("die colour letters", "B"),
        "glitter": p_("die colour letters", "Gl"),
        "red": p_("die colour letters", "R"),
        "green": p_("die colour letters", "G"),
        "clear": p_("die colour letters", "C"),
        "pink": p_("die colour letters", "Pk"),
    }[colour]


def pad_title(colour: str, hint: str) -> str:
    """Above the faces of one colour: 'Yellow (Y): sum of the faces'; '紫：…' where the letter is the
    name's own first kanji, kana or hangul ("紫（紫）" said it twice, #56)."""
    name, letters = colour_name(colour), colour_letters(colour)
    first = letters.replace(lang.JOIN, "")
    if name.replace(lang.JOIN, "").startswith(first) and all(lang._wide(c) for c in first):
        # TRANSLATORS: above the faces of one die colour whose letters are its name's first
        # character (in Japanese, Korean, Chinese): its name and how it scores.
        return _("{colour}: {hint}", colour=name, hint=hint)
    # TRANSLATORS: above the faces of one die colour: its name, its letters and how it scores
    # ("Yellow (Y): sum of the faces").
    return _("{colour} ({letters}): {hint}", colour=name, letters=letters, hint=hint)


def face_label(colour: str, face: int) -> str:
    """The accessible name of a face button and of a die: 'Yellow 4', 'Red −3'."""
    # TRANSLATORS: a die read out: its colour and its face ("Yellow 4", "Red −3").
    return _("{colour} {face}", colour=colour_name(colour), face=signed(face))


def faces(colour: str, black: bool = False) -> list[int]:
    """The faces of one colour's pad; black red faces are negative."""
    top = pr.FACES[colour]
    return [-f if black else f for f in range(1, top + 1)] if colour == "red" else list(range(1, top + 1))


@dataclass(frozen=True)
class Cursor:
    """Where the pad is: a player's hand in a round, or (pid None) the round's summary."""
    round: int
    pid: str | None

    @property
    def is_summary(self) -> bool:
        return self.pid is None


@dataclass(frozen=True)
class Die:
    colour: str
    position: int  # index within the colour's list (0 for pink)
    face: int

    @property
    def label(self) -> str:
        return face_label(self.colour, self.face)

    @property
    def text(self) -> str:
        return signed(self.face)


def dice_of(hand: pr.Hand | None) -> list[Die]:
    """The dice of a hand in pad order: one chip each."""
    if hand is None:
        return []
    out = [Die(c, k, f) for c in pr.DIE_LISTS for k, f in enumerate(getattr(hand, c))]
    out.sort(key=lambda d: PAD_COLOURS.index(d.colour))
    if hand.pink is not None:
        out.append(Die("pink", 0, hand.pink))
    return out


def expected_dice(index: int) -> int:
    """Non-pink dice a player rolls in round index+1: one starter die plus one per round."""
    return index + 1


def seats(record: pr.Record) -> list[str]:
    return record.player_ids()


def pity_holders(record: pr.Record, index: int) -> list[str]:
    """Who the pity rule gives a pink die in this round ([] in round 1 or while unknown)."""
    return pr.pity_for(record, index) or []


def holds_pink(record: pr.Record, index: int, pid: str, overrides: dict | None = None) -> bool:
    """A pink die is held when one was rolled, else when the pity rule (or the table) says so."""
    hand = pr.hand_of(record, index, pid)
    if hand is not None and hand.pink is not None:
        return True
    if overrides and (index, pid) in overrides:
        return overrides[(index, pid)]
    return pid in pity_holders(record, index)


def hand_full(record: pr.Record, index: int, pid: str, overrides: dict | None = None) -> bool:
    """Every die the round expects is in: index+1 dice, and the pink one when held."""
    hand = pr.hand_of(record, index, pid)
    if hand is None or hand.dice() < expected_dice(index):
        return False
    return hand.pink is not None or not holds_pink(record, index, pid, overrides)


@dataclass(frozen=True)
class DiceCount:
    have: int
    expected: int
    pink_held: bool
    pink_in: bool

    @property
    def text(self) -> str:
        """'1 of 2 dice', '2 of 2 dice + pink', '0 of 2 dice + pink to enter'."""
        if not self.pink_held:
            # TRANSLATORS: dice entered of the dice this round's hand has.
            return n_("{have} of {n} die", "{have} of {n} dice", self.expected, have=self.have)
        if self.pink_in:
            # TRANSLATORS: "pink": the pink (pity) die of Panda Royale, entered too.
            return n_("{have} of {n} die + pink", "{have} of {n} dice + pink", self.expected, have=self.have)
        # TRANSLATORS: "pink": the pink (pity) die of Panda Royale, held but not entered yet.
        return n_("{have} of {n} die + pink to enter", "{have} of {n} dice + pink to enter", self.expected,
                  have=self.have)

    @property
    def ok(self) -> bool:
        return self.have == self.expected and self.pink_in == self.pink_held


def dice_count(record: pr.Record, index: int, pid: str, overrides: dict | None = None) -> DiceCount:
    hand = pr.hand_of(record, index, pid)
    return DiceCount(have=hand.dice() if hand else 0, expected=expected_dice(index),
                     pink_held=holds_pink(record, index, pid, overrides),
                     pink_in=hand is not None and hand.pink is not None)


def repeat_slots(record: pr.Record, index: int, pid: str) -> list[str]:
    """Colours of last round's dice not yet entered this round: the fast-repeat slots.

    A player re-rolls last round's dice plus one new one, so each slot is one tap to fill.
    """
    hand = pr.hand_of(record, index, pid)
    have = Counter({c: len(getattr(hand, c)) for c in pr.DIE_LISTS}) if hand else Counter()
    slots: list[str] = []
    for colour in pr.last_dice_colours(record, index, pid):
        if have[colour] > 0:
            have[colour] -= 1
        else:
            slots.append(colour)
    return slots


def new_die_pending(record: pr.Record, index: int, pid: str) -> bool:
    """The round's new die is still to enter: fewer dice than expected once the slots are filled."""
    hand = pr.hand_of(record, index, pid)
    have = hand.dice() if hand else 0
    return have + len(repeat_slots(record, index, pid)) < expected_dice(index)


def colour_after_tap(record: pr.Record, index: int, pid: str, tapped: str) -> str:
    """Which colour's pad to show after a face tap: stay while that colour has empty slots,
    else jump to the next empty slot, else stay (the new die's colour is the player's choice)."""
    slots = repeat_slots(record, index, pid)
    if tapped in slots or not slots:
        return tapped
    return slots[0]


def first_colour(record: pr.Record, index: int, pid: str) -> str:
    """The pad to open on a hand: its first empty slot, else yellow."""
    slots = repeat_slots(record, index, pid)
    return slots[0] if slots else "yellow"


# --- moving around the sheet -------------------------------------------------

def resume_cursor(record: pr.Record, overrides: dict | None = None) -> Cursor:
    """Where the table was: the first unfinished hand of the last round with any hand in,
    or that round's summary when every hand is full."""
    ids = seats(record)
    last = max((i for i, rnd in enumerate(record.rounds) if rnd.hands), default=None)
    if last is None:
        return Cursor(0, ids[0])
    for pid in ids:
        if not hand_full(record, last, pid, overrides):
            return Cursor(last, pid)
    return Cursor(last, None)


def next_cursor(record: pr.Record, cursor: Cursor) -> Cursor:
    """After 'Next': the next seat; after the last seat the round's summary once every hand
    is in, else the first seat still missing its hand."""
    ids = seats(record)
    if cursor.pid is None:
        return after_summary(record, cursor.round)
    k = ids.index(cursor.pid)
    if k + 1 < len(ids):
        return Cursor(cursor.round, ids[k + 1])
    if cursor.round < len(record.rounds) and pr.is_complete(record, cursor.round):
        return Cursor(cursor.round, None)
    missing = hands_missing(record, cursor.round)
    return Cursor(cursor.round, missing[0] if missing else None)


def hands_missing(record: pr.Record, index: int) -> list[str]:
    """Players without a hand in round index+1, in seat order: the round closes once there are none."""
    rnd = record.rounds[index] if index < len(record.rounds) else None
    return [p for p in seats(record) if rnd is None or p not in rnd.hands]


def after_summary(record: pr.Record, index: int) -> Cursor:
    """Leaving a round's summary: the next round, or back to where the table is when an
    earlier round was being corrected."""
    ids = seats(record)
    later = any(rnd.hands for rnd in record.rounds[index + 1:])
    if later:
        return resume_cursor(record)
    if index + 1 >= pr.ROUNDS:
        return Cursor(index, None)
    return Cursor(index + 1, ids[0])


def still_to_enter(record: pr.Record, index: int, overrides: dict | None = None) -> list[str]:
    """Players whose hand of round index+1 is not complete yet, in seat order: the table hands
    the phone around out of seat order, so the pad shows who is left."""
    return [pid for pid in seats(record) if not hand_full(record, index, pid, overrides)]


def short(name: str, most: int = 16) -> str:
    """A name cut to fit a button: 'Maximilian Alexa…'."""
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"


def can_close(record: pr.Record, index: int) -> bool:
    return index < len(record.rounds) and pr.is_complete(record, index)


# --- what the screen reads out of a score ------------------------------------

def hand_problems(result: Result, index: int, pid: str, with_count: bool = True) -> list[str]:
    """Messages of the problems about one hand (its dice, its pink die). Without the dice-count
    warning while the hand is being entered: the pad shows the count itself."""
    where = f"rounds[{index}].hands.{pid}"
    return [lang.problem(p) for p in result.problems
            if (p.where == where and with_count) or p.where.startswith(where + ".")]


def problems_to_flag(result: Result, cursor: Cursor) -> list:
    """The problems worth a badge: all but the dice count of the hand being entered."""
    if cursor.pid is None:
        return list(result.problems)
    where = f"rounds[{cursor.round}].hands.{cursor.pid}"
    return [p for p in result.problems if p.where != where]


def round_problems(result: Result, index: int) -> list[str]:
    """Problems about the round as a whole (pink dice in play, the Panda token)."""
    where = f"rounds[{index}]"
    return [lang.problem(p) for p in result.problems
            if p.where == where or p.where.startswith(where + ".panda")]


def sheet_row(result: Result, index: int, pid: str) -> dict[str, int] | None:
    """The paper sheet's row of one player in one round: the 7 column scores and 'total'."""
    columns = result.detail.get("columns", [])
    if index >= len(columns) or pid not in columns[index]:
        return None
    row = dict(columns[index][pid])
    row["total"] = result.rounds[index][pid]
    return row


@dataclass(frozen=True)
class Placed:
    place: int
    pid: str
    name: str
    total: int


def ranking(record: pr.Record, totals: dict[str, int]) -> list[Placed]:
    """Best first; ties share a place (1, 1, 3); ties keep seat order."""
    ids = [pid for pid in seats(record) if pid in totals]
    ordered = sorted(ids, key=lambda pid: -totals[pid])
    return [Placed(1 + sum(1 for q in ids if totals[q] > totals[pid]), pid, record.name_of(pid), totals[pid])
            for pid in ordered]


@dataclass(frozen=True)
class RoundSummary:
    """What closing a round shows."""
    round: int                  # 0-based
    complete: bool
    panda: str | None           # token holder id (None in round 10 or while a tie is open)
    panda_choice: list[str]     # tied yellow leaders still waiting for the re-roll winner
    yellow_tie: list[str]       # tied yellow leaders (even once decided), for the screen
    pity: list[str]             # who holds a pink die next round
    ranking: list[Placed]       # this round's totals
    final: bool                 # round 10: the game's standings follow
    standings: list[Placed]     # grand totals, best first
    winners: list[str]          # ids sharing the win (final only)


def round_summary(record: pr.Record, result: Result, index: int) -> RoundSummary:
    complete = can_close(record, index)
    final = index == pr.ROUNDS - 1
    totals = result.rounds[index] if index < len(result.rounds) else {}
    leaders_ = pr.yellow_leaders(record, index) if complete else []
    panda = None if final or not complete else pr.panda_holder(record, index)
    choice = [] if final else pr.needs_panda_choice(record, index)
    # While a yellow tie is open the token holder, and so the pity order, is not known yet.
    pity = pr.pity_recipients(record, index) if complete and not final and not choice else []
    grand = {s.id: s.total for s in result.players}
    return RoundSummary(
        round=index, complete=complete, panda=panda,
        panda_choice=choice,
        yellow_tie=leaders_ if len(leaders_) > 1 and not final else [],
        pity=pity, ranking=ranking(record, totals), final=final,
        standings=ranking(record, grand),
        winners=list(result.winners) if final and complete else [])


def changed_hand(old: pr.Record, new: pr.Record) -> tuple[int, str | None] | None:
    """The first (round, player) whose hand differs between two records, (round, None) for a
    round whose Panda choice differs; None when the rounds are the same. Undo/redo go there."""
    for i in range(max(len(old.rounds), len(new.rounds))):
        a = old.rounds[i] if i < len(old.rounds) else pr.Round()
        b = new.rounds[i] if i < len(new.rounds) else pr.Round()
        for pid in seats(new):
            if a.hands.get(pid) != b.hands.get(pid):
                return i, pid
        if a.panda != b.panda:
            return i, None
    return None
