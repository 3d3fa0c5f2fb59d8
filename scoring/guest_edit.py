"""What a guest's pad can make of a game in one tap (#69): the host's phone takes a change, not a
record. A guest's phone sends the whole record its tap made, on the revision it started from; the
host compares it with that revision's record and takes it only when the difference is one the
guest's pad makes (views/table/roles.py: a guest plays; it does not rename, change the game's settings,
rewrite what the pad does not let it, nor edit a finished game) and no error appears that was not
there before. Pure: no Flet, no store, no clock.

Every pad saves one edit of its game's rules module per tap (views/pads/pad/screen.py `save`), so one
change is compared with what one such edit can do."""
from __future__ import annotations

from collections import Counter
from typing import Callable

from . import nokosu_dice, panda_royale, pandoria, pass_the_pandas, royal_ur
from .common import N_, Problem, RecordBase, Words
from .registry import score

# The same words as views/table/roles.py's refusals (one message in the catalogs).
RENAME = N_("Only the host can rename a player")
SETTINGS = N_("Only the host can change these settings")
FINISHED = N_("Only the host can edit a finished game")
# TRANSLATORS: a guest's phone sent a change its score pad has no key for (a past round rewritten,
# several things at once); said after "Not saved: "
NO_KEY = N_("the score pad has no key for that change, so the host's phone did not take it")

# Fields no pad changes: the game's identity and its note (written on the host's screens only).
FIXED = ("format", "version", "id", "game", "created", "notes")


def refusal(before: RecordBase, after: RecordBase) -> Words | None:
    """Why a guest's pad could not have turned `before` into `after` in one tap, in English Words
    (the phone says them in its language), or None when the host may take it."""
    if before.finished is not None:
        return Words(FINISHED)
    if any(getattr(before, name) != getattr(after, name) for name in FIXED):
        return Words(NO_KEY)
    if before.players != after.players:  # names, seats, profiles: the host's (Statistics)
        return Words(RENAME)
    if after.finished is not None:  # Finish changes nothing else, and not past an error
        if _but(after, finished=None) != before:
            return Words(NO_KEY)
        return _first_error(score(after).problems)
    why = REACH[before.game](before, after)
    if why is not None:
        return why
    return _first_error(new_errors(before, after))


def step_refusal(now: RecordBase, then: RecordBase) -> Words | None:
    """Why a guest's Undo or Redo may not go from `now` to `then`, the version it steps to: that
    version differs by what only the host changes (names and seats, the game's settings but by a
    pad's own settings key, its note). Any other difference is a tap taken back or made again."""
    if now.finished is not None:
        return Words(FINISHED)
    if any(getattr(now, name) != getattr(then, name) for name in FIXED):
        return Words(NO_KEY)
    if now.players != then.players:
        return Words(RENAME)
    if now.settings != then.settings and REACH[now.game](now, _but(then, finished=now.finished)) is not None:
        return Words(SETTINGS)
    return None


def new_errors(before: RecordBase, after: RecordBase) -> list[Problem]:
    """The errors by the rules that `after` has and `before` had not. Compared by their words,
    not their place, so that an entry deleted before an old error does not make it new."""
    had = Counter(p.message for p in score(before).problems if p.level == "error")
    new = []
    for p in score(after).problems:
        if p.level != "error":
            continue
        if had[p.message]:
            had[p.message] -= 1
        else:
            new.append(p)
    return new


def _first_error(problems: list[Problem]) -> Words | None:
    error = next((p for p in problems if p.level == "error"), None)
    return None if error is None else Words(error.template, **dict(error.params))


def _but(record: RecordBase, **fields) -> RecordBase:
    return record.model_copy(update=fields)


def _only(before: RecordBase, after: RecordBase, *fields: str) -> bool:
    """Nothing but `fields` differs."""
    return _but(after, **{f: getattr(before, f) for f in fields}) == before


def _settings(before, after, edit: Callable | None = None) -> Words | None | bool:
    """The game's settings: Words when changed as no pad does; True when the change is the pad's
    own settings tap (`edit(before, after)` made `after` exactly); False when unchanged."""
    if before.settings == after.settings:
        return False
    if edit is not None:
        try:
            if edit(before, after) == after:
                return True
        except ValueError:
            pass
    return Words(SETTINGS)


# ---------------------------------------------------------------- Panda Royale
def _panda_royale(before, after) -> Words | None:
    if (why := _settings(before, after)) or not _only(before, after, "rounds"):
        return why or Words(NO_KEY)
    if len(after.rounds) < len(before.rounds):  # a die taken off never takes a round away
        return Words(NO_KEY)
    # A die tapped in a later round adds the empty rounds before it (panda_royale.with_hand).
    old = list(before.rounds) + [panda_royale.Round()] * (len(after.rounds) - len(before.rounds))
    changed = [i for i, (a, b) in enumerate(zip(old, after.rounds)) if a != b]
    if not changed:
        return None
    if len(changed) > 1:
        return Words(NO_KEY)
    index = changed[0]
    was, now = old[index], after.rounds[index]
    if was.hands == now.hands:  # who won the re-roll for the Panda token: the pad offers only
        # the players tied on the highest yellow of a complete round
        tied = panda_royale.yellow_leaders(after, index) if panda_royale.is_complete(after, index) else []
        return None if len(tied) > 1 and now.panda in tied else Words(NO_KEY)
    players = [p for p in set(was.hands) | set(now.hands) if was.hands.get(p) != now.hands.get(p)]
    if was.panda != now.panda or len(players) != 1:
        return Words(NO_KEY)
    empty = panda_royale.Hand()
    return None if _one_die(was.hands.get(players[0], empty), now.hands.get(players[0], empty)) else Words(NO_KEY)


def _one_die(was, now) -> bool:
    """A die tapped onto the hand, or one taken off it (the pink die's face set or cleared)."""
    lists = [c for c in panda_royale.DIE_LISTS if getattr(was, c) != getattr(now, c)]
    if was.pink != now.pink:
        return not lists
    if len(lists) != 1:
        return False
    old, new = getattr(was, lists[0]), getattr(now, lists[0])
    if len(new) == len(old) + 1:
        return new[:-1] == old  # add_die puts it last
    return len(new) == len(old) - 1 and any(old[:k] + old[k + 1:] == new for k in range(len(old)))


# ---------------------------------------------------------------- Royal Game of Ur
def _royal_ur(before, after) -> Words | None:
    why = _settings(before, after, lambda b, a: royal_ur.set_board(b, a.settings.board or ()))
    if why is True or why:
        return None if why is True else why
    if not _only(before, after, "rounds", "entry"):
        return Words(NO_KEY)
    if before.rounds != after.rounds:  # a game of the match is written only by Save game
        return None if _made(royal_ur.keep_entry, before, after) else Words(NO_KEY)
    entry = after.entry
    if entry is None:
        return None
    if (entry.counted() > royal_ur.COUNTERS or entry.home >= royal_ur.COUNTERS
            or any(not 1 <= q <= royal_ur.ROUTE for q in entry.squares)
            or (entry.game is not None and entry.game >= len(after.rounds))):
        return Words(NO_KEY)
    return None


def _made(edit, before, after) -> bool:
    try:
        return edit(before) == after
    except ValueError:
        return False


# ---------------------------------------------------------------- Nokosu Dice
def _nokosu_dice(before, after) -> Words | None:
    why = _settings(before, after, lambda b, a: nokosu_dice.set_dealer(b, 0, a.settings.first_dealer))
    if why is True or why:
        return None if why is True else why
    if not _only(before, after, "rounds", "entry"):
        return Words(NO_KEY)
    if before.rounds != after.rounds:  # a round is written only by Close the round
        return None if _made(nokosu_dice.close_round, before, after) else Words(NO_KEY)
    entry = after.entry
    if entry is None:
        return None
    top = nokosu_dice.tricks_per_round(after)
    if (any(not 0 <= d <= nokosu_dice.MAX_DECLARATION for d in entry.declared.values())
            or any(not 0 <= t <= top for t in entry.tricks.values())
            or len(nokosu_dice.zero_declarers(entry)) > nokosu_dice.MAX_ZERO_DECLARATIONS
            or (entry.round is not None and entry.round >= len(after.rounds))):
        return Words(NO_KEY)
    return None


# ---------------------------------------------------------------- Pandoria
def _pandoria(before, after) -> Words | None:
    if (why := _settings(before, after)) or not _only(before, after, "log", "final", "step"):
        return why or Words(NO_KEY)
    if before.log != after.log and before.final != after.final:
        return Words(NO_KEY)
    if before.log != after.log:
        old, new = before.log, after.log
        if len(new) == len(old):
            ok = sum(a != b for a, b in zip(old, new)) == 1
        elif len(new) == len(old) + 1:
            ok = new[:-1] == old  # an entry is added at the end
        else:
            ok = len(new) == len(old) - 1 and any(old[:k] + old[k + 1:] == new for k in range(len(old)))
        return None if ok else Words(NO_KEY)
    players = [p for p in after.player_ids() if pandoria.final_of(before, p) != pandoria.final_of(after, p)]
    if not players:
        return None
    if len(players) > 1:
        return Words(NO_KEY)
    pid = players[0]
    was, now = pandoria.final_of(before, pid), pandoria.final_of(after, pid)
    parts = [part for part in (*pandoria.PARTS, "rates") if getattr(was, part) != getattr(now, part)]
    if len(parts) != 1:
        return Words(NO_KEY)
    part = parts[0]
    cap = pandoria.cap_of(after, pid)
    if part in pandoria.RESOURCES and getattr(now, part) > max(cap, getattr(was, part)):
        return Words(pandoria.TRACK_ENDS[part], cap=cap)  # the pad's own words for this tap
    return None


# ---------------------------------------------------------------- Pass the Pandas
def _pass_the_pandas(before, after) -> Words | None:
    if (why := _settings(before, after)) or not _only(before, after, "rounds", "hand"):
        return why or Words(NO_KEY)
    if after.hand is not None and after.hand > len(after.rounds):
        return Words(NO_KEY)
    old, new = before.rounds, after.rounds
    if len(new) == len(old) + 1:  # the first player out of a new hand
        ok = new[:-1] == old and len(new[-1].out) == 1 and _out_ok(after, new[-1].out[0])
    elif len(new) == len(old) - 1:  # a hand with no one (or one) out taken away
        ok = any(old[:k] + old[k + 1:] == new and len(old[k].out) <= 1 for k in range(len(old)))
    else:
        changed = [k for k in range(len(new)) if old[k] != new[k]]
        ok = not changed or (len(changed) == 1 and _hand_step(after, old[changed[0]], new[changed[0]]))
    return None if ok else Words(NO_KEY)


def _hand_step(record, was, now) -> bool:
    """Who went out next, the last one out taken back, or one count of dice held changed."""
    if len(now.out) == len(was.out) + 1:
        return now.out[:-1] == was.out and _out_ok(record, now.out[-1])
    if len(now.out) == len(was.out) - 1:
        return now.out == was.out[:-1]
    changed = [k for k in range(len(now.out)) if was.out[k] != now.out[k]]
    if len(changed) != 1:
        return False
    a, b = was.out[changed[0]], now.out[changed[0]]
    return (a.player == b.player and a.held is not None and b.held is not None
            and set(a.held) == set(b.held) and _out_ok(record, b))


def _out_ok(record, out) -> bool:
    """As the pad writes a player out: in Panda-monium the dice each player still in held (at
    least 1 each) and their sum as the points; in the basic game the order only."""
    if record.settings.variant != "panda-monium":
        return out.points is None and out.held is None
    return (out.held is not None and all(n >= 1 for n in out.held.values()) and out.player not in out.held
            and out.points == sum(out.held.values()))


REACH: dict[str, Callable[[RecordBase, RecordBase], Words | None]] = {
    panda_royale.GAME: _panda_royale, royal_ur.GAME: _royal_ur, nokosu_dice.GAME: _nokosu_dice,
    pandoria.GAME: _pandoria, pass_the_pandas.GAME: _pass_the_pandas,
}
