"""What a game record can hold at all, checked before its rules look at it (issue #22).

A record far past what the games allow (a million dice, 100,000 rounds, a number of a
thousand digits, text that is not text) is refused with one line that says where and what,
instead of being scored for minutes, stored, and then breaking every export and `list`.
The limits are far above anything a real table enters: a record a little past the rules
(an 11th round) is still read, and scoring reports it as an error, as before.
"""
from __future__ import annotations

import math
from typing import Any

from .common import RecordError

MOST_DIGITS = 15  # 2**53 has 16 digits: a longer whole number is not exact on the phone (JavaScript)
MOST_TEXT = 10_000  # characters of one text (a note); names and ids are shorter still
MOST_DEPTH = 12  # a record nests 6 levels (rounds[0].hands.a.yellow[0]); an export 2 more
MOST_ITEMS = 1_000  # items of one list or object: far more than any game enters

# Per game, how many rounds (or log lines) a record may hold before it is not read at all:
# rules.md gives 10 rounds for Panda Royale and as many as players (3–5) for Nokosu Dice;
# a match of Royal Ur, a game of Pass the Pandas and Pandoria's crown-track log have no
# fixed length, so theirs are far past any evening's play.
MOST_ROUNDS = {"panda-royale": ("rounds", 20), "nokosu-dice": ("rounds", 20), "royal-ur": ("rounds", 200),
               "pass-the-pandas": ("rounds", 500), "pandoria": ("log", 1_000)}
MOST_DICE = 20  # Panda Royale: one colour's dice in one hand (a player rolls 10 dice in round 10)
_BIG = 10 ** MOST_DIGITS


def check(data: dict[str, Any]) -> None:
    """RecordError naming the first place where `data` (a record's JSON object) holds what no
    game record holds: a number too long or not finite, text that is not Unicode text or is
    too long, lists too long, nesting too deep."""
    if _sound(data, 0):  # the common case, without building a path for every value (~0.4 ms for 13 KB)
        return
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        kind = type(value)
        if kind is str:
            _check_text(value, where)
        elif kind is int:
            if not -_BIG < value < _BIG:
                raise RecordError(where, f"a number of {_digits(value):,} digits; no score or count in a "
                                         f"game has more than {MOST_DIGITS}")
        elif kind is dict or kind is list:
            if depth >= MOST_DEPTH:
                raise RecordError(where, f"nested more than {MOST_DEPTH} levels deep; no game record nests "
                                         f"that deep")
            if len(value) > MOST_ITEMS:
                what = "a list" if kind is list else "an object"
                raise RecordError(where, f"{what} of {len(value):,} items; no game record holds more than "
                                         f"{MOST_ITEMS:,} in one place")
            if kind is list:
                stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
            else:
                for key, item in value.items():
                    if type(key) is str:
                        _check_text(key, where, key=True)
                    stack.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif kind is float:
            if not math.isfinite(value):
                raise RecordError(where, "not a number a game can count (found "
                                         f"{'NaN' if math.isnan(value) else 'Infinity'})")
            if not -_BIG < value < _BIG:
                raise RecordError(where, f"a number far larger than any score or count in a game ({value:.3g})")


def _sound(value: dict | list, depth: int) -> bool:
    """check() without the places: True when nothing is out of bounds."""
    if depth >= MOST_DEPTH or len(value) > MOST_ITEMS:
        return False
    if type(value) is dict:
        for key in value:
            if type(key) is not str or len(key) > MOST_TEXT or not (key.isascii() or _encodes(key)):
                return False
        items = value.values()
    else:
        items = value
    for item in items:
        kind = type(item)
        if kind is int:
            if not -_BIG < item < _BIG:
                return False
        elif kind is str:
            if len(item) > MOST_TEXT or not (item.isascii() or _encodes(item)):
                return False
        elif kind is dict or kind is list:
            if not _sound(item, depth + 1):
                return False
        elif not (item is None or kind is bool):
            return False  # a float (or anything else): the careful walk decides
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def check_game(data: dict[str, Any], game: str, title: str, most_players: int) -> None:
    """The per-game limits that make a record far past its game's rules unreadable."""
    players = data.get("players")
    if isinstance(players, list) and len(players) > most_players:
        raise RecordError("players", f"{title} is played by at most {most_players} players, not {len(players):,}")
    field, most = MOST_ROUNDS.get(game, ("rounds", 0))
    rounds = data.get(field)
    if most and isinstance(rounds, list) and len(rounds) > most:
        raise RecordError(field, f"{len(rounds):,} {'log lines' if field == 'log' else 'rounds'} are far past "
                                 f"what a game of {title} can have (at most {most} are read)")
    if game == "panda-royale" and isinstance(rounds, list):
        for i, rnd in enumerate(rounds):
            hands = rnd.get("hands") if isinstance(rnd, dict) else None
            for pid, hand in (hands.items() if isinstance(hands, dict) else ()):
                for colour, faces in (hand.items() if isinstance(hand, dict) else ()):
                    if isinstance(faces, list) and len(faces) > MOST_DICE:
                        raise RecordError(f"rounds[{i}].hands.{pid}.{colour}",
                                          f"{len(faces):,} {colour} dice in one hand; a player rolls at most "
                                          f"10 dice in a round (at most {MOST_DICE} of one colour are read)")


def _check_text(text: str, where: str, key: bool = False) -> None:
    if len(text) > MOST_TEXT:
        raise RecordError(where, f"a text of {len(text):,} characters; at most {MOST_TEXT:,} are kept")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            code = ord(text[exc.start])
            what = f"the key {_printable(text)!s}" if key else "text"
            raise RecordError(where, f"{what} holds \\u{code:04x}, half of a character pair on its own, "
                                     f"which is not a character (the file was cut or made wrongly)") from None


def _printable(text: str) -> str:
    return '"' + text.encode("utf-8", "backslashreplace").decode("utf-8")[:40] + '"'


def _digits(value: int) -> int:
    """Digits of a whole number, without turning it into text (Python refuses past 4,300)."""
    n = abs(value)
    guess = max(1, int(n.bit_length() * 0.30103))
    return guess + (n >= 10 ** guess)
