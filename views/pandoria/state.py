"""What the Pandoria pad shows, worked out from the record alone: no Flet here.

The crown-track log and every number of the end step live in the record (saved on every
tap), so a restarted server or another phone shows the same; this module puts them in words.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Result
from scoring import pandoria as pa
from views.pad.words import and_join, plural

MODES = {
    "standard": ("Standard", "Realms side B, with their abilities"),
    "beginner": ("Beginner", "Realms side A: no abilities, a starting building"),
    "family": ("Family", "No realms, spells, buildings or monuments"),
    "family-spells": ("Family with spells", "The family game and a small spell deck"),
}
RESOURCE_WORDS = {"wood": "wood", "gold": "gold", "crystal": "crystal"}
# What moved a crown marker: the events of the game that score on the track.
NOTES = ("region closed", "city closed", "monument", "building", "spell", "relic", "over the cap")
FAMILY_NOTES = ("region closed", "city closed", "relic")


def notes_for(mode: str) -> tuple[str, ...]:
    return FAMILY_NOTES if mode in pa.FAMILY_MODES else NOTES


def rate_words(rate: str) -> str:
    """'2:1' -> '2 for 1' (the phone's font has no arrow; the toggles draw one as an icon)."""
    give, get = rate.split(":")
    return f"{give} for {get}"


def rate_spoken(rate: str) -> str:
    give, get = rate.split(":")
    return f"{give} to {get}"


def start_line(realm: pa.Realm | None) -> str:
    """The set-up aid: 'Starts with 5 crystal · 4 gold · 5 wood'."""
    if realm is None:
        return ""
    return f"Starts with {realm.crystal} crystal · {realm.gold} gold · {realm.wood} wood"


def realm_name(mode: str, realm: str | None) -> str:
    if realm is None:
        return "not chosen"
    if realm == pa.OTHER_REALM:
        return "other realm"
    info = pa.realm_info(mode, realm) or pa.realm_info("standard", realm)
    return info.name if info else realm


# --------------------------------------------------------------------------- the log

@dataclass(frozen=True)
class LogRow:
    index: int          # 0-based place in record.log
    pid: str
    name: str
    points: int
    note: str | None
    running: int        # the player's crown total after this entry


def log_rows(record: pa.Record) -> list[LogRow]:
    """Newest first: the entry the table argues about is the one just made."""
    running = {pid: 0 for pid in record.player_ids()}
    rows = []
    for i, e in enumerate(record.log):
        running[e.player] = running.get(e.player, 0) + e.points
        rows.append(LogRow(i, e.player, record.name_of(e.player), e.points, e.note, running[e.player]))
    return rows[::-1]


def entry_line(record: pa.Record, index: int) -> str:
    e = record.log[index]
    return f"{record.name_of(e.player)} +{e.points}" + (f" · {e.note}" if e.note else "")


def log_summary(record: pa.Record) -> str:
    if not record.log:
        return "No entries yet"
    return plural(len(record.log), "entry", "entries")


# --------------------------------------------------------------------------- the end step

@dataclass(frozen=True)
class Conversion:
    resource: str
    amount: int
    points: int
    left: int
    rate: str
    line: str           # '7 wood at 2 for 1: 3 points, 1 left over'
    why: str            # which rates were compared, or ''


def conversions(record: pa.Record, pid: str) -> list[Conversion]:
    final = pa.final_of(record, pid)
    out = []
    for res in pa.RESOURCES:
        amount = getattr(final, res)
        extra = () if pa.family(record) else tuple(final.rates.get(res, ()))
        points, left, rate = pa.convert(amount, extra)
        line = (f"{amount} {res} at {rate_words(rate)}: {plural(points, 'point')}, {left} left over"
                if amount else f"No {res} left")
        out.append(Conversion(res, amount, points, left, rate, line, _why(amount, extra, points, left, rate)))
    return out


def _why(amount: int, extra: tuple[str, ...], points: int, left: int, used: str) -> str:
    """Why this rate: the points of the others, and the left-over rule when points are equal."""
    if not amount or not extra:
        return ""
    others = []
    for rate in (pa.BASE_RATE, *extra):
        if rate == used:
            continue
        give, get = (int(x) for x in rate.split(":"))
        p, l = (amount // give) * get, amount % give
        if p == points:
            others.append(f"{rate_words(rate)} gives the same {plural(p, 'point')} but leaves {l}")
        else:
            others.append(f"{rate_words(rate)} gives only {plural(p, 'point')}")
    return "; ".join(others)


def points_note(record: pa.Record, pid: str) -> str:
    """Where the crown points come from: the log, or an adjustment of it."""
    from_log = pa.log_total(record, pid)
    final = pa.final_of(record, pid)
    if final.points is None:
        return f"From the log: {from_log}"
    return f"Adjusted: the log says {from_log}" if final.points != from_log else "As in the log"


def sum_line(record: pa.Record, result: Result, pid: str) -> str:
    """'54 crown + 3 cards + 3 wood + 6 gold + 1 crystal = 67 · 4 left over'."""
    d = result.detail[pid]
    parts = [f"{d['points']} crown", f"{d['cards']} {'card' if d['cards'] == 1 else 'cards'}"]
    parts += [f"{d[r]} {r}" for r in pa.RESOURCES]
    if pa.has_captives(record, pid) or d["captives"]:
        parts.append(f"{d['captives']} captives")
    return f"{' + '.join(parts)} = {pa.total(d)} · {d['leftover']} left over"


def total_of(result: Result, pid: str) -> int:
    return next(s.total for s in result.players if s.id == pid)


def final_words(result: Result) -> str:
    """Who wins, the leftover tie-break said in words:
    'Hilde and Oskar tie on 71; Hilde wins with 4 resources left over against 2'."""
    if not result.players:
        return ""
    top = max(s.total for s in result.players)
    tied = [s for s in result.players if s.total == top]
    left = {s.id: result.detail[s.id]["leftover"] for s in tied}
    winners = [s for s in tied if s.place == 1]
    win_names = and_join([s.name for s in winners])
    if len(tied) == 1:
        return f"{win_names} wins with {top}"
    tie = f"{and_join([s.name for s in tied])} tie on {top}"
    best = left[winners[0].id]
    if len(winners) == len(tied):
        return f"{tie} and on {plural(best, 'resource')} left over: a shared win"
    against = and_join([str(v) for v in sorted((left[s.id] for s in tied if s.place != 1), reverse=True)])
    if len(winners) == 1:
        return f"{tie}; {win_names} wins with {plural(best, 'resource')} left over against {against}"
    return f"{tie}; {win_names} share the win with {best} resources left over each against {against}"


def standing_lines(result: Result) -> list[tuple[int, str, str]]:
    """(place, name, '71 · 4 left over'), best first; the left over decides ties on points."""
    ordered = sorted(result.players, key=lambda s: s.place)
    return [(s.place, s.name, f"{s.total} · {result.detail[s.id]['leftover']} left over") for s in ordered]
