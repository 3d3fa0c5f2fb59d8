"""Which numbers the number sheet offers (no Flet): a count read off the table is set in two
taps, the sheet's button and the number, instead of one tap of + per unit."""
from __future__ import annotations

MOST = 42      # a range this long is shown whole: 0–40 hand cards, 6 or 7 to a row on a phone
WINDOW = 50    # else this many around the value: 20 either side of it, whatever the rounding
KEY = 52       # a key's least side plus the gap between keys (logical pixels)


def choices(value: int, low: int, high: int, most: int = MOST) -> list[int]:
    """Every value from low to high when they fit on one sheet; else `most` values around the
    current one (a crown track adjusted from the log moves a few points, not a hundred),
    starting on a multiple of 5 so the rows read 15, 20, 25 …"""
    high = max(high, value)
    if high - low + 1 <= most:
        return list(range(low, high + 1))
    start = max(low, value - 22)
    start = max(low, start - start % 5)
    start = min(start, high - WINDOW + 1)
    return list(range(start, start + WINDOW))


def page_of(values: list[int], low: int, high: int, step: int) -> list[int]:
    """The sheet's window moved a page lower (step < 0) or higher, inside low–high."""
    most = len(values)
    start = min(max(low, values[0] + step * most), max(low, high - most + 1))
    return list(range(start, min(high, start + most - 1) + 1))


def columns(width: float | None, count: int) -> int:
    """Keys to a row: as many as the sheet's width holds (at most 10, so rows read as tens)."""
    fit = int(((width or 360) - 32) // KEY)
    return max(3, min(fit, 10, count))


def taps(value: int, target: int, low: int, high: int) -> int:
    """The fewest taps from value to target: + or − per unit, or the sheet (open it, tap the
    number; each page further is one tap more)."""
    if target == value:
        return 0
    values = choices(value, low, high)
    pages = 0
    while target not in values:
        values = page_of(values, low, high, 1 if target > values[-1] else -1)
        pages += 1
    return min(abs(target - value), 2 + pages)
