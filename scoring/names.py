"""Players' names are what they look like (#31).

A name typed at the table is tidied before it is seated: the same letters always in the same
form (NFC), nothing that draws nothing or moves other letters (control and format characters:
zero-width spaces, bidi overrides, a carriage return, U+2028), one space between words. Two
names are the same player when their tidied forms match, case aside. Names read from a file
are never changed; `how_it_differs` says what in one would not show.
"""
from __future__ import annotations

import unicodedata

NAME_MAX = 40

ZWJ = "\u200d"
# What reads as a gap between words when it sits inside a name: turned into one space.
GAPS = {"Zl", "Zp", "Zs"}
HIDDEN = {"Cc", "Cf"}  # controls and format characters: they draw nothing of their own
# Controls have no Unicode name; the ones a keyboard or a paste puts in a name are these.
CONTROL_NAMES = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x0b": "a line break",
                 "\x0c": "a page break", "\x85": "a line break"}


def _joins_emoji(before: str, after: str) -> bool:
    # A zero-width joiner between two emoji makes one picture (a family, a flag): kept there,
    # dropped anywhere else, where it only hides a difference between two names.
    def emoji(ch: str) -> bool:
        return bool(ch) and (unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f")
    return emoji(before[-1:]) and emoji(after[:1])


def tidy(raw: str) -> str:
    """The name as it is seated: NFC, no hidden characters, single spaces, no spaces around."""
    text = unicodedata.normalize("NFC", raw)
    out: list[str] = []
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)
        if ch in CONTROL_NAMES or kind in GAPS:
            out.append(" ")
        elif kind in HIDDEN:
            if ch == ZWJ and _joins_emoji("".join(out), text[i + 1:i + 2]):
                out.append(ch)
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def key(name: str) -> str:
    """What two names are compared by: the same key, the same player."""
    return tidy(name).casefold()


def visible(name: str) -> bool:
    """Whether a name has a letter, digit, mark of punctuation or symbol of its own to show
    (combining marks alone sit on nothing)."""
    return any(unicodedata.category(ch)[0] in "LNPS" for ch in name)


def problem(raw: str, seated: list[str]) -> str | None:
    """Why a typed name cannot be seated beside `seated`, in words, or None."""
    name = tidy(raw)
    if not name:
        return "Type a name first."
    if not visible(name):
        return "A name needs a letter, a digit or a sign that shows."
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters."
    if key(name) in {key(other) for other in seated}:
        return f"{name} is already at the table."
    return None


def how_it_differs(name: str) -> tuple[str, ...]:
    """What in a stored name would not show as it is written: () for a name that is what it
    looks like."""
    if tidy(name) == name:
        return ()
    found: list[str] = []
    composed = unicodedata.normalize("NFC", name)
    if composed != name:
        found.append("letters in decomposed form")
    for i, ch in enumerate(composed):
        kind = unicodedata.category(ch)
        if ch in CONTROL_NAMES:
            what = CONTROL_NAMES[ch]
        elif kind in HIDDEN or kind in ("Zl", "Zp"):
            if ch == ZWJ and _joins_emoji(composed[:i], composed[i + 1:i + 2]):
                continue  # kept between emoji
            what = "a " + unicodedata.name(ch, f"U+{ord(ch):04X}").lower().replace("zero width", "zero-width")
        else:
            continue
        if what not in found:
            found.append(what)
    if not found:
        found.append("extra spaces")
    return tuple(found)
