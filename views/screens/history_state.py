"""What the history screen shows, from the store's index rows alone (never the records): no
Flet here. Rows are dicts of storage.summary: id, game, created, finished, players
[(id, name, total, place)], winners [names]."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable

from scoring.names import key
from views.words import lang
from views.words.lang import _, n_

RECENT_FOR_CHIPS = 500  # games whose players make the filter chips
PAGE = 25  # rows added at a time, on scrolling near the end or on "Show more"
FIRST = 10  # rows on the first screen (a phone shows about 8): it opens faster


def names_of(row) -> list[str]:
    return [p[1] for p in row["players"]]


def matches(row, game: str | None, player: str | None, text: str) -> bool:
    if game and row["game"] != game:
        return False
    names = [key(n) for n in names_of(row)]  # one person however the name hides (#31)
    if player and key(player) not in names:
        return False
    text = key(text)
    return not text or any(text in n for n in names)


def filtered(rows: Iterable, game: str | None = None, player: str | None = None, text: str = "") -> list:
    """Newest first as the store gives them, in-progress games first."""
    if not game and not player and not text.strip():
        return list(rows)  # the first screen: no filter, nothing to look at in 10,000 rows
    return [r for r in rows if matches(r, game, player, text)]


def players(rows: Iterable, most: int = 12) -> list[str]:
    """The names that played most often (one spelling per person, case aside), for the chips."""
    count: dict[str, list] = {}
    for row in rows:
        for name in names_of(row):
            entry = count.setdefault(key(name), [0, name])
            entry[0] += 1
    ranked = sorted(count.values(), key=lambda e: (-e[0], e[1].casefold()))
    return [name for _count, name in ranked[:most]]


def header(n: int) -> str:
    return n_("{n} game", "{n} games", n)


def result_line(row) -> str:
    """'Ann won · Ann 62 · Ben 40', 'In progress · Ann 12 · Ben 9': by place (seat order
    among equals), so a line cut short after two lines still shows who won with what."""
    ranked = sorted(row["players"], key=lambda p: (p[3] is None, p[3] or 0))
    scores = " · ".join(f"{lang.name(p[1])} {p[2]}" for p in ranked)
    if not row["finished"]:
        # TRANSLATORS: a history row of a game being played, then every score ("In progress · Ann 12 · Ben 9")
        return _("In progress · {scores}", scores=scores)
    winners = list(row["winners"])
    if not winners:
        # TRANSLATORS: a history row of a finished game without a winner, then every score
        return _("Finished · {scores}", scores=scores)
    # TRANSLATORS: a history row: who won, then every score ("Ann won · Ann 62 · Ben 40")
    return n_("{names} won · {scores}", "{names} won · {scores}", len(winners), names=lang.names(winners),
              scores=scores)


# A night's games end after midnight: a game finished before this hour counts to the evening before.
NIGHT_ENDS = 6


def evening_of(iso: str | None):
    """The evening a game finished in (local time, NIGHT_ENDS hours back), or None if unknown."""
    if not iso:
        return None
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return None
    return (t - timedelta(hours=NIGHT_ENDS)).date()


def tonights(rows: Iterable) -> list[str]:
    """The ids of the finished games of the latest evening any game finished in ("tonight's games",
    chosen when History starts a selection to send, #53), in the rows' order."""
    finished = [(r["id"], evening_of(r["finished"])) for r in rows if r["finished"]]
    latest = max((e for _id, e in finished if e is not None), default=None)
    return [game_id for game_id, e in finished if latest is not None and e == latest]


def sendable(row) -> bool:
    """Only finished games are sent from History (a game in progress is sent from its pad's menu)."""
    return bool(row["finished"])


def send_route(ids: Iterable[str]) -> str:
    return "/send/" + ",".join(ids)


def send_label(n: int) -> str:
    # TRANSLATORS: the button under History's list in selection mode ("Send 3 games")
    return n_("Send {n} game", "Send {n} games", n)
