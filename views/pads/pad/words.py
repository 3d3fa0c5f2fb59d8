"""Words and numbers as every pad shows them; no Flet here, so pad states can use them."""
from __future__ import annotations

from scoring import Result
from views.words import lang
from views.words.lang import _, n_

MINUS = "\u2212"  # the typographic minus: "−3", as printed on a die and on the paper sheet


def signed(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def step(value: int) -> str:
    """A move along a track with its sign, "+5" or "−5": never "+-5" (#69)."""
    return signed(value) if value < 0 else f"+{value}"


def leaders(result: Result) -> list[str]:
    """Names sharing the best result."""
    return [s.name for s in result.players if s.place == 1]


def verdict(names: list[str]) -> str:
    """Under a finished game: 'Winner: Ann', 'Shared win: Ann and Ben'."""
    if len(names) == 1:
        return _("Winner: {name}", name=names[0])
    return _("Shared win: {names}", names=lang.names(names))


def leader_line(result: Result, started: bool) -> str:
    """The app bar's second line: 'Leader: Ann · 62', 'Leaders: Ann and Ben · 40'."""
    if not started:
        return _("Nothing entered yet")
    names = leaders(result)
    top = max((s.total for s in result.players), default=0)
    # TRANSLATORS: the player(s) with the best total so far, and that total.
    return n_("Leader: {names} · {total}", "Leaders: {names} · {total}", len(names),
              names=lang.names(names), total=signed(top))
