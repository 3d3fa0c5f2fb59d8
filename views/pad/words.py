"""Words and numbers as every pad shows them; no Flet here, so pad states can use them."""
from __future__ import annotations

from scoring import Result

MINUS = "\u2212"  # the typographic minus: "−3", as printed on a die and on the paper sheet


def signed(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def and_join(names: list[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cat'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def leaders(result: Result) -> list[str]:
    """Names sharing the best result."""
    return [s.name for s in result.players if s.place == 1]


def leader_line(result: Result, started: bool) -> str:
    """The app bar's second line: 'Leader: Ann · 62', 'Leaders: Ann and Ben · 40'."""
    if not started:
        return "Nothing entered yet"
    names = leaders(result)
    top = max((s.total for s in result.players), default=0)
    return f"{'Leader' if len(names) == 1 else 'Leaders'}: {and_join(names)} · {signed(top)}"
