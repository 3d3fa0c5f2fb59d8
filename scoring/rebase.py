"""A guest's tap made on an older revision, put on the latest one (#69: taps at table speed).

When guests tap at once they all start from the same revision; the host stores the first, and
the others are on an older record. If what a guest's tap changed and what changed since touch
different parts of the game, the host takes the tap on the latest record in the same round trip
(views/table/phone_table.py) instead of sending the latest back for the guest to make the tap again.
Pure: no Flet, no store, no clock.

A three-way merge over the records' JSON (model_dump(mode="json")). A *part* is:
- one value at one place: a die's face, a player's declaration or tricks, a resource, the dice
  one player held, the Panda token, the step or hand the pad is on, a setting;
- one key of a map: a player's hand in a round (Panda Royale), a player's end-step line
  (Pandoria), a player's declaration (Nokosu Dice), the dice a player held (Pass the Pandas);
  added or taken away as a whole;
- a whole list once its length changes: the dice of one colour, the crown-track log, the rounds,
  the players out of a hand. Its order means something (who went out first, the log's order, the
  index a later tap names), so an insertion or removal takes the list as it is on that side; a
  list of the same length on both sides is merged item by item (a log entry stepped, another's
  player moved);
- Royal Game of Ur's game being entered (`entry`), whole (ONE_PART below).
Why this size: the five pads write one player's tap under that player's key (hands, final,
declared, tricks, held) or in one leaf, so guests tapping their own lines at once touch different
parts, and a tap that changes how many of something there are, or its order, touches the whole
list. A part both sides changed is a conflict *even when both made it the same value*: many taps
are counts stepped by one (Pandoria's resources and cards, the dice held), and two phones' "+1"
from the same 2 are two taps, not one; the guest makes its tap again on the latest, as before.

A tap that computes a value from another part is merged only if that other part did not change
since, so the merge gives what the tap made again on the latest would. Where the computed value
sits beside what it reads (Pass the Pandas' points = the dice held) both sides change it: a
conflict. Where it reads another field of the record, the game says so below (ONE_PART, TOGETHER).
Everything else a pad refuses (two zero declarations too many, a counter beyond the 7) the host
refuses by checking the merged record as one tap from the latest (scoring/guest_edit.py `refusal`).
"""
from __future__ import annotations

from typing import Any

from . import pandoria, pass_the_pandas, royal_ur
from .common import RecordBase, RecordError
from .registry import parse_record

# A field of the record that is one part whatever changes in it: Ur's loser counters being entered
# ("Rest home" puts home what the other counts leave; 2 players, one of them entering).
ONE_PART: dict[str, tuple[str, ...]] = {royal_ur.GAME: ("entry",)}
# Fields a tap reads across: one changed on one side and another of the group on the other side is
# a conflict. Ur: Save game values the loser's counters by the dot map (settings.board). Pandoria:
# a player's end-step points start from the crown-track log's total. Pass the Pandas: Next hand,
# Edit hand and Done move the pad by what the hands hold (Next hand not past the match's end).
TOGETHER: dict[str, tuple[tuple[str, ...], ...]] = {
    royal_ur.GAME: (("settings", "rounds"),),
    pandoria.GAME: (("log", "final"),),
    pass_the_pandas.GAME: (("rounds", "hand"),),
}


class _Conflict(Exception):
    """Both sides changed the same part."""


_ABSENT = object()  # a key one side has and another has not


def rebase(base: RecordBase, theirs: RecordBase, latest: RecordBase) -> RecordBase | None:
    """`theirs` (a tap made on `base`) on `latest` (what `base` became since): the merged record
    when the two changes touch different parts, else None. Not checked by the rules here: the
    host still asks guest_edit.refusal(latest, merged)."""
    b, t, lt = base.model_dump(mode="json"), theirs.model_dump(mode="json"), latest.model_dump(mode="json")
    mine = {f for f in b.keys() | t.keys() if t.get(f) != b.get(f)}
    since = {f for f in b.keys() | lt.keys() if lt.get(f) != b.get(f)}
    if mine & since & set(ONE_PART.get(base.game, ())):
        return None
    for group in TOGETHER.get(base.game, ()):
        if any(f != g for f in mine & set(group) for g in since & set(group)):
            return None
    try:
        merged = _merge(b, t, lt, tuple(latest.player_ids()))
    except _Conflict:
        return None
    try:
        return parse_record(merged)  # as an import reads one: its shape, bounds and ids
    except (RecordError, ValueError):
        return None


def _merge(base: Any, theirs: Any, latest: Any, seats: tuple[str, ...]) -> Any:
    if theirs == base:
        return latest
    if latest == base:
        return theirs
    if isinstance(base, dict) and isinstance(theirs, dict) and isinstance(latest, dict):
        keys = list(latest) + [k for k in theirs if k not in latest]
        if all(k in seats for k in keys):  # keyed by player: in seat order, as the pads write it
            keys.sort(key=seats.index)
        out = {}
        for key in keys + [k for k in base if k not in keys]:
            value = _merge(base.get(key, _ABSENT), theirs.get(key, _ABSENT), latest.get(key, _ABSENT), seats)
            if value is not _ABSENT:
                out[key] = value
        return out
    if (isinstance(base, list) and isinstance(theirs, list) and isinstance(latest, list)
            and len(base) == len(theirs) == len(latest)):
        return [_merge(b, t, lt, seats) for b, t, lt in zip(base, theirs, latest)]
    raise _Conflict
