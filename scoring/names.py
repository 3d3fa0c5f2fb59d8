"""Players' names are what they look like (#31).

A name typed at the table is tidied before it is seated: the same letters always in the same
form (NFC), nothing that draws nothing or moves other letters (control and format characters:
zero-width spaces, bidi overrides, a carriage return, U+2028), one space between words. Two
names are the same player when their keys match: the tidied form, case aside. Names read from
a file are never changed; `how_it_differs` says what in one would not show as it is written.

The words said here are English `Words` (a str that keeps its N_-marked template and values):
a view shows them in the phone's language with `lang.problem(words)` (#33).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from .common import N_, Words

NAME_MAX = 40

ZWJ = "\u200d"
BLACK_FLAG = "\U0001F3F4"
CANCEL_TAG = "\U000E007F"
# What reads as a gap between words when it sits inside a name: turned into one space.
GAPS = {"Zl", "Zp", "Zs"}
HIDDEN = {"Cc", "Cf"}  # controls and format characters: they draw nothing of their own
# Letters and symbols that draw a blank (the favourite of "invisible name" tricks): a gap too.
BLANKS = {"\u2800", "\u3164", "\uffa0"}  # braille pattern blank, hangul filler, halfwidth hangul filler
# Marks that Unicode asks renderers to ignore and that no name needs: hidden too.
IGNORED = {"\u034f", "\u17b4", "\u17b5"}  # combining grapheme joiner, khmer inherent vowels
# What a keyboard or a paste puts in a name, in a player's words (controls have no Unicode
# name, and a carriage return or U+2028 is a line break to anyone who sees it).
CONTROL_NAMES = {"\t": N_("a tab"), "\n": N_("a line break"), "\r": N_("a line break"),
                 "\x0b": N_("a line break"), "\x0c": N_("a page break"), "\x85": N_("a line break"),
                 "\u2028": N_("a line break"), "\u2029": N_("a paragraph break")}


def _emoji(ch: str) -> bool:
    # A picture, a skin tone or the emoji-style selector (not ASCII's ^ and `, symbols too).
    return bool(ch) and (unicodedata.category(ch) == "So" or "\U0001F3FB" <= ch <= "\U0001F3FF" or ch == "\ufe0f")


def _is_tag(ch: str) -> bool:
    return "\U000E0020" <= ch <= CANCEL_TAG


def _is_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000E0100" <= ch <= "\U000E01EF"


def _fate(text: str, i: int) -> str:
    """What becomes of text[i] (text in NFC) in the seated name: "keep", "space" or "drop".

    Emoji are names too (a panda, a family): a zero-width joiner between two emoji makes one
    picture, and the tag letters after a black flag make a subdivision's flag (England,
    Scotland), so those are kept. Anywhere else they draw nothing and only hide that two names
    differ, so they go."""
    ch = text[i]
    if ch == " ":
        return "keep"
    kind = unicodedata.category(ch)
    if ch in CONTROL_NAMES or kind in GAPS or ch in BLANKS:
        return "space"
    if ch in IGNORED:
        return "drop"
    if _is_selector(ch):
        # It picks a glyph's variant or an emoji's style; after a plain letter, a space or
        # nothing it picks nothing (Unicode defines no such variant) and only hides a difference.
        before = text[i - 1] if i else " "
        return "drop" if before.isspace() or (before.isascii() and before.isalpha()) else "keep"
    if kind not in HIDDEN:
        return "keep"
    if ch == ZWJ:
        return "keep" if _emoji(text[i - 1:i] if i else "") and _emoji(text[i + 1:i + 2]) else "drop"
    if _is_tag(ch):
        start = i
        while start > 0 and _is_tag(text[start - 1]) and text[start - 1] != CANCEL_TAG:
            start -= 1
        end = i
        while end + 1 < len(text) and _is_tag(text[end + 1]) and text[end] != CANCEL_TAG:
            end += 1
        flag = start > 0 and text[start - 1] == BLACK_FLAG and text[end] == CANCEL_TAG and end > start
        return "keep" if flag else "drop"
    return "drop"


def tidy(raw: str) -> str:
    """The name as it is seated: NFC, no hidden characters, single spaces, no spaces around."""
    if raw.isascii() and raw.isprintable():
        # The common case, fast (statistics key every name of every game): nothing hidden.
        return " ".join(raw.split())
    text = unicodedata.normalize("NFC", raw)
    out = []
    for i, ch in enumerate(text):
        fate = _fate(text, i)
        out.append(ch if fate == "keep" else " " if fate == "space" else "")
    return " ".join("".join(out).split())


@lru_cache(maxsize=4096)
def key(name: str) -> str:
    """What two names are compared by: the same key, the same player. Variation selectors
    (the text or emoji style of a heart, a glyph's variant) are left out: a heart in another
    style is not another person."""
    folded = tidy(name).casefold()
    if folded.isascii():
        return folded
    return "".join(ch for ch in folded if not _is_selector(ch))


def visible(name: str) -> bool:
    """Whether a name has a letter, digit, mark of punctuation or symbol of its own to show
    (combining marks alone sit on nothing; a blank draws nothing)."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANKS for ch in name)


def problem(raw: str, seated: list[str]) -> str | None:
    """Why a typed name cannot be seated beside `seated`, in words, or None."""
    name = tidy(raw)
    if not name:
        return Words(N_("Type a name first."))
    if not visible(name):
        return Words(N_("A name needs a letter, a digit or a sign that shows."))
    if len(name) > NAME_MAX:
        return Words(N_("A name has at most {most} characters."), most=NAME_MAX)
    if key(name) in {key(other) for other in seated}:
        return Words(N_("{name} is already at the table."), name=name)
    return None


def _what(ch: str) -> str:
    if ch in CONTROL_NAMES:
        return Words(CONTROL_NAMES[ch])
    if _is_tag(ch):
        return Words(N_("hidden tag letters"))
    if _is_selector(ch):
        return Words(N_("a variation selector"))
    # Any other character by its Unicode name ("a zero-width space"): English, as Unicode names
    # them; no catalog has them, so they show in English in every language.
    name = unicodedata.name(ch, f"U+{ord(ch):04X}").lower().replace("zero width", "zero-width")
    return ("an " if name[0] in "aeiou" else "a ") + name


def how_it_differs(name: str) -> tuple[str, ...]:
    """What in a stored name would not show as it is written, in words ("a zero-width space",
    "a right-to-left override", "a line break"): () for a name that is what it looks like."""
    if tidy(name) == name:
        return ()
    found: list[str] = []
    composed = unicodedata.normalize("NFC", name)
    if composed != name:
        apart = any(unicodedata.category(ch).startswith("M") for ch in name)
        found.append(Words(N_("accents stored apart from their letters")) if apart
                     else Words(N_("letters in another Unicode form")))
    for i, ch in enumerate(composed):
        if ch != " " and _fate(composed, i) != "keep" and (what := _what(ch)) not in found:
            found.append(what)
    if not found:
        found.append(Words(N_("extra spaces")))
    return tuple(found)


def described(name: str) -> str:
    """A stored name as it would show, quoted, and what in it does not show:
    '"Ann" has a zero-width space'. For the import's report."""
    # {how} stays English words glued with "and" (the import's report is English as a whole).
    how = " and ".join(how_it_differs(name)) or "nothing hidden"
    shown = tidy(name)
    if not visible(shown):
        return Words(N_("a name that shows nothing ({how})"), how=how)
    # TRANSLATORS: {how} says what in the name does not show ("a zero-width space")
    return Words(N_('"{name}" has {how}'), name=shown, how=how)
