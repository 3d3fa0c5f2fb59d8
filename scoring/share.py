"""A finished game handed on: the play as BG Stats takes it, the link that opens BG Stats' import
dialog, and the result as one line of text for a chat. Pure: the caller gives the time zone.

BG Stats' format: https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
"""
from __future__ import annotations

import json
import unicodedata
import urllib.parse
from datetime import datetime, tzinfo
from typing import Any

from .common import RecordBase, Result
from .registry import rules_for, score

BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Pandapad"
# RFC 9110 asks every browser to take at least 8,000 octets in a request line; phones take far
# more (Chrome 2 MB, Safari 80 kB): under this, the link opens everywhere.
LINK_LIMIT = 8000
MINUS = "\u2212"  # the typographic minus, as every screen of the app writes it

# BG Stats' "board" (the variant played), in the words of the new-game screens.
_BOARDS = {
    ("pandoria", "beginner"): "Beginner", ("pandoria", "family"): "Family",
    ("pandoria", "family-spells"): "Family with spells", ("pass-the-pandas", "basic"): "Basic game",
}


def source_game_id(game: str) -> str:
    """The same for every play of a game, so BG Stats matches it once and remembers."""
    return f"pandapad-{game}"


def source_player_id(name: str) -> str:
    """The same for a player in every game: the app knows people by name (a rename in the app
    renames every game), so the id is the name, folded so that 'Mei', 'mei ' and 'MEI' are one."""
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    return "pandapad-player-" + folded.replace(" ", "-")


def local_time(iso: str | None, tz: tzinfo | None) -> datetime | None:
    """A record's ISO time in the table's zone (tz None: this machine's); None when absent."""
    if not iso:
        return None
    t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    if t.tzinfo is None:  # a time written without a zone is already the table's own
        return t
    return t.astimezone(tz)  # tz None: this machine's zone


def start_player(record: RecordBase, result: Result) -> str | None:
    """Who went first, where the record knows it: in Panda Royale who took the Panda token in
    round 1 (drafts first), in Nokosu Dice who led round 1's first trick. Else None."""
    if record.game == "panda-royale":
        pandas = result.detail.get("panda") or []
        return pandas[0] if pandas else None
    if record.game == "nokosu-dice":
        from . import nokosu_dice
        return nokosu_dice.leader(record, 0)
    return None


def _role(record: RecordBase, pid: str) -> str:
    """Pandoria: the player's realm, as named on its card."""
    if record.game != "pandoria":
        return ""
    from . import pandoria
    realm = pandoria.realm_of(record, pid)
    if not realm or realm == pandoria.OTHER_REALM:
        return ""
    info = pandoria.realm_info(record.settings.mode, realm) or pandoria.realm_info("standard", realm)
    return info.name if info else ""


def _board(record: RecordBase) -> str:
    settings = getattr(record, "settings", None)
    setting = getattr(settings, "mode", None) or getattr(settings, "variant", None)
    return _BOARDS.get((record.game, setting), "")


def play(record: RecordBase, tz: tzinfo | None = None, outcome: str = "") -> dict[str, Any]:
    """The play in BG Stats' JSON: ranks with shared places and the winners exactly as the pad
    shows them (scoring's standings), the date in the table's local time, the minutes between
    start and finish. outcome: how a tie was broken, in words (added to the comments)."""
    result = score(record)
    started, ended = local_time(record.created, tz), local_time(record.finished, tz)
    first = start_player(record, result)
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "game": {"name": rules_for(record.game).TITLE, "highestWins": True, "noPoints": False,
                 "sourceGameId": source_game_id(record.game)},
        "players": [{"name": s.name, "score": s.total, "rank": s.place, "winner": s.place == 1,
                     "startPlayer": s.id == first, "sourcePlayerId": source_player_id(s.name),
                     "role": _role(record, s.id)} for s in result.players],
        "board": _board(record),
    }
    if record.id:
        data["sourcePlayId"] = record.id  # the same play imported twice is recognised
    when = started or ended
    if when is not None:
        data["playDate"] = when.strftime("%Y-%m-%d %H:%M:%S")
    if started is not None and ended is not None and ended >= started:
        data["durationMin"] = round((ended - started).total_seconds() / 60)
    comments = " ".join(part for part in ((record.notes or "").strip(), outcome.strip()) if part)
    if comments:
        data["comments"] = comments
    return data


def bgstats_link(data: dict[str, Any], scheme: str = "https") -> str:
    """The createPlay link; scheme 'bgstats' gives the app's own scheme, which BG Stats also takes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    base = BGSTATS_LINK if scheme == "https" else BGSTATS_LINK.replace("https://", f"{scheme}://", 1)
    return base + urllib.parse.quote(text, safe="")


def _signed(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def day(record: RecordBase, tz: tzinfo | None = None) -> str:
    """'24 Nov': the day the game was played, in the table's local time ('' when unknown)."""
    when = local_time(record.created, tz) or local_time(record.finished, tz)
    return f"{when.day} {when.strftime('%b')}" if when else ""


def result_line(record: RecordBase, tz: tzinfo | None = None, outcome: str = "") -> str:
    """'Panda Royale, 24 Nov: 1. Mei 412, 2. Jonas 398, 2. Ann 398': best first, shared places
    as the pad shows them, seat order within a place; then how a tie was broken, if given."""
    result = score(record)
    title = rules_for(record.game).TITLE
    head = f"{title}, {day(record, tz)}" if day(record, tz) else title
    places = ", ".join(f"{s.place}. {s.name} {_signed(s.total)}"
                       for s in sorted(result.players, key=lambda s: s.place))
    return f"{head}: {places}" + (f" ({outcome.strip()})" if outcome.strip() else "")


def tie_on_top(result: Result) -> bool:
    """More than one player has the best total: a tie the game broke (or shared)."""
    top = max((s.total for s in result.players), default=0)
    return sum(1 for s in result.players if s.total == top) > 1
