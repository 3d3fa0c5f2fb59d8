"""What a person has typed into the new-game form's name field, kept true while the server's
own writes to that field are on their way to the phone (no Flet; the caller gives the time).

The server writes the field after Enter (emptied for the next name) and when the phone lost
letters (given back). Flet's TextField takes a write whole when it lands, so letters typed while
it travelled vanish from the phone, and its change events name no write they were typed on. So
the server keeps every text a change can have been typed on: the phone's own last value, then
each write still on its way, oldest first. A change is read as one key on one of them, its new
letters are added to what was typed, and the field is written again until the phone shows it all.
"""
from __future__ import annotations


def _edit(old: str, new: str) -> tuple[int, str]:
    """The change from old to new as (letters taken off the end, letters added)."""
    keep = 0
    for a, b in zip(old, new):
        if a != b:
            break
        keep += 1
    return len(old) - keep, new[keep:]


def _word_start(text: str) -> bool:
    return not text or text.endswith(" ")


class TypedName:
    def __init__(self, trip: float = 0.0, capital_words: bool = False) -> None:
        # A field that capitalizes words: the phone makes a letter typed at a word's start a
        # capital by what its field shows, which a write may have emptied under the person.
        self.capital_words = capital_words
        self.text = ""        # what Enter seats: every letter typed since the last name, in order
        self.bases = [""]     # the phone's last value, then the writes it may not show yet
        self.sent = [0.0]     # when each of those writes left
        self.seat = [0]       # how much of each is a name already seated: no one rubs that out
        self.trip = trip      # the round trip as seen: a write this old has landed

    def _base(self, value: str, now: float) -> tuple[int, bool]:
        """Which text the phone typed `value` on. Most changes are one key (a letter or a rub)
        and most fit one text only. Texts alike give the same letters: the oldest is taken, as
        the newer ones may not have landed. A letter on one text that is a rub on another: the
        newest write old enough to have landed wins (the phone lands writes in order), else
        the oldest. A pasted or suggested word goes the same way; any other edit on the text
        it shares the longest start with. Also says whether no other text fitted."""
        def landed(ks: list[int]) -> int:
            old = [k for k in ks if k == 0 or now - self.sent[k] >= self.trip]
            pick = old[-1] if old else ks[0]
            return min(k for k in ks if self.bases[k] == self.bases[pick])
        keys = [k for k, b in enumerate(self.bases) if len(value) == len(b) + 1 and value.startswith(b)]
        rubs = [k for k, b in enumerate(self.bases) if b and b[:-1] == value]
        keys = sorted(keys + ([k for k in rubs if len(value) >= self.seat[k]] if keys else rubs))
        if keys:
            return landed(keys), len({self.bases[k] for k in keys}) == 1
        grown = [k for k, b in enumerate(self.bases) if len(value) > len(b) and value.startswith(b)]
        if grown:
            return landed(grown), False
        edits = [k for k, b in enumerate(self.bases) if b != value] or [0]
        return max(edits, key=lambda k: (len(self.bases[k]) - _edit(self.bases[k], value)[0], -k)), False

    def typed(self, value: str, now: float) -> str | None:
        """The phone sent its field's value; returns what to write to the field, or None."""
        if len(self.bases) == 1:
            self.text = self.bases[0] = value
            self.seat[0] = min(self.seat[0], len(value))
            return None
        k, sure = self._base(value, now)
        if sure:  # learn the round trip: a write this old had, or had not, landed
            self.trip = min(self.trip, now - self.sent[k]) if k else max(self.trip, now - self.sent[1])
        cut, added = _edit(self.bases[k], value)
        kept = self.text[:max(0, len(self.text) - cut)]
        self.text = kept + (self._as_typed(value, added, kept) if self.capital_words else added)
        self.bases, self.sent = [value] + self.bases[k + 1:], [0.0] + self.sent[k + 1:]
        self.seat = [min(self.seat[k], len(value))] + self.seat[k + 1:]
        return self._write(now) if self.bases[-1] != self.text else None

    @staticmethod
    def _as_typed(value: str, added: str, kept: str) -> str:
        """The added letters as the person typed them: a capital the phone made at what its field
        showed as a word's start, where the name typed so far has the letter inside a word, was
        the write's doing (the field emptied under "D" made "De" into "DE")."""
        shown = value[:len(value) - len(added)]
        letters = ""
        for c in added:
            if c.isupper() and _word_start(shown) and not _word_start(kept + letters):
                c = c.lower()
            shown, letters = shown + c, letters + c
        return letters

    def seated(self, now: float, rest: str = "") -> str:
        """The name was seated: the field is emptied (or keeps what followed a typed new line).
        Returns what to write to the field."""
        self.seat = [len(b) for b in self.bases]
        return self.put(rest, now)

    def put(self, text: str, now: float) -> str:
        """The form sets the field itself. Returns what to write to the field."""
        self.text = text
        return self._write(now)

    def _write(self, now: float) -> str:
        self.bases.append(self.text)
        self.sent.append(now)
        self.seat.append(0)
        return self.text
