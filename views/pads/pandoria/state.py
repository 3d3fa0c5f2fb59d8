"""What the Pandoria pad shows, worked out from the record alone: no Flet here.

The crown-track log and every number of the end step live in the record (saved on every
tap), so a restarted server or another phone shows the same; this module puts them in words.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Result
from scoring import pandoria as pa
from views.words import lang
from views.words.lang import N_, _, n_
from views.pads.pad.words import step

# The game modes, (name, what it is): marked here, translated where shown (_(title)).
MODES = {
    # TRANSLATORS: Pandoria's game modes (the rule book's names); realm sides A/B as printed on the boards
    "standard": (N_("Standard"), N_("Realms side B, with their abilities")),
    "beginner": (N_("Beginner"), N_("Realms side A: no abilities, a starting building")),
    "family": (N_("Family"), N_("No realms, spells, buildings or monuments")),
    "family-spells": (N_("Family with spells"), N_("The family game and a small spell deck")),
}
# The resources as a word on their own (a title on the end-of-game sheet).
RESOURCE_WORDS = {
    # TRANSLATORS: Pandoria's resources (the game's terms, as in that edition's rules)
    "wood": N_("Wood"),
    "gold": N_("Gold"),
    "crystal": N_("Crystal"),
}
# What moved a crown marker: the events of the game that score on the track. The English words
# are kept in the record (LogEntry.note); _(note) where they are shown.
NOTES = (
    # TRANSLATORS: Pandoria: what moved a crown marker (a region or city completed on the board)
    N_("region closed"),
    N_("city closed"),
    # TRANSLATORS: Pandoria: what moved a crown marker (the game's terms: monument, building, spell, relic)
    N_("monument"),
    N_("building"),
    N_("spell"),
    N_("relic"),
    # TRANSLATORS: Pandoria: points for resources beyond the track's cap
    N_("over the cap"))
FAMILY_NOTES = ("region closed", "city closed", "relic")
# The realms by their English names (scoring.pandoria's Realm.name): marked here, _(name) where shown.
REALM_NAMES = (
    # TRANSLATORS: Pandoria's realms (peoples): the names in that edition of the game; keep the English where
    # there is none (Nymphs and Hanbok are promo realms)
    N_("Humans"), N_("Dwarves"), N_("Elves"), N_("Mages"), N_("Halflings"), N_("Centaurs"), N_("Fairies"),
    N_("Goblins"), N_("Golems"), N_("Spirits of the Ancients"), N_("Nymphs"), N_("Hanbok"))


def notes_for(mode: str) -> tuple[str, ...]:
    return FAMILY_NOTES if mode in pa.FAMILY_MODES else NOTES


def rate_words(rate: str) -> str:
    """'2:1' -> '2 for 1' (the phone's font has no arrow; the toggles draw one as an icon)."""
    give, get = rate.split(":")
    # TRANSLATORS: Pandoria: a conversion rate, give 2 resources for 1 point
    return _("{give} for {get}", give=give, get=get)


def rate_spoken(rate: str) -> str:
    give, get = rate.split(":")
    # TRANSLATORS: Pandoria: a conversion rate as a screen reader says it ("2 to 1")
    return _("{give} to {get}", give=give, get=get)


def start_line(realm: pa.Realm | None) -> str:
    """The set-up aid: 'Starts with 5 crystal · 4 gold · 5 wood'."""
    if realm is None:
        return ""
    return _("Starts with {crystal} crystal · {gold} gold · {wood} wood",
             crystal=realm.crystal, gold=realm.gold, wood=realm.wood)


def realm_name(mode: str, realm: str | None) -> str:
    """The realm within a sentence: 'Realm for Ann: other realm'."""
    if realm is None:
        return _("not chosen")
    if realm == pa.OTHER_REALM:
        # TRANSLATORS: Pandoria: a realm not in the pad's list, within a sentence ("Realm for Ann: other realm")
        return _("other realm")
    info = pa.realm_info(mode, realm) or pa.realm_info("standard", realm)
    return _(info.name) if info else realm


def realm_title(mode: str, realm: str) -> str:
    """The realm on its own, as a title under a player's name: 'Dwarves', 'Other realm'."""
    if realm == pa.OTHER_REALM:
        return _("Other realm")
    return realm_name(mode, realm)


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
    name = record.name_of(e.player)
    if e.note:
        # TRANSLATORS: an entry of Pandoria's crown-track log: "Ann +5 · city closed"
        return _("{name} {points} · {note}", name=name, points=step(e.points), note=_(e.note))
    return _("{name} {points}", name=name, points=step(e.points))


def log_summary(record: pa.Record) -> str:
    if not record.log:
        return _("No entries yet")
    # TRANSLATORS: entries in Pandoria's crown-track log
    return n_("{n} entry", "{n} entries", len(record.log))


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
        line = _converted(res, amount, rate_words(rate), points, left) if amount else _none_left(res)
        out.append(Conversion(res, amount, points, left, rate, line, _why(amount, extra, points, left, rate)))
    return out


def _converted(res: str, amount: int, rate: str, points: int, left: int) -> str:
    """'7 wood at 2 for 1: 3 points, 1 left over'."""
    if res == "wood":
        # TRANSLATORS: Pandoria's resources left at the end converted into points, {rate} as in "2 for 1"
        return n_("{amount} wood at {rate}: {n} point, {left} left over",
                  "{amount} wood at {rate}: {n} points, {left} left over", points, amount=amount, rate=rate, left=left)
    if res == "gold":
        return n_("{amount} gold at {rate}: {n} point, {left} left over",
                  "{amount} gold at {rate}: {n} points, {left} left over", points, amount=amount, rate=rate, left=left)
    return n_("{amount} crystal at {rate}: {n} point, {left} left over",
              "{amount} crystal at {rate}: {n} points, {left} left over", points, amount=amount, rate=rate, left=left)


def _none_left(res: str) -> str:
    return _("No wood left") if res == "wood" else _("No gold left") if res == "gold" else _("No crystal left")


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
            # TRANSLATORS: Pandoria: another conversion rate ({rate} as in "2 for 1") gives the same points
            others.append(n_("{rate} gives the same {n} point but leaves {left}",
                             "{rate} gives the same {n} points but leaves {left}", p, rate=rate_words(rate), left=l))
        else:
            others.append(n_("{rate} gives only {n} point", "{rate} gives only {n} points", p, rate=rate_words(rate)))
    return "; ".join(others)


def points_note(record: pa.Record, pid: str) -> str:
    """Where the crown points come from: the log, or an adjustment of it."""
    from_log = pa.log_total(record, pid)
    final = pa.final_of(record, pid)
    if final.points is None:
        return _("From the log: {points}", points=from_log)
    return (_("Adjusted: the log says {points}", points=from_log) if final.points != from_log
            else _("As in the log"))


def sum_line(record: pa.Record, result: Result, pid: str) -> str:
    """'54 crown + 3 cards + 3 wood + 6 gold + 1 crystal = 67 · 4 left over'."""
    d = result.detail[pid]
    # TRANSLATORS: Pandoria's final score added up: "54 crown + 3 cards + 3 wood + 6 gold + 1 crystal"
    # ("crown": points of the crown track)
    parts = [n_("{n} crown", "{n} crown", d["points"]), n_("{n} card", "{n} cards", d["cards"]),
             n_("{n} wood", "{n} wood", d["wood"]), n_("{n} gold", "{n} gold", d["gold"]),
             n_("{n} crystal", "{n} crystal", d["crystal"])]
    if pa.has_captives(record, pid) or d["captives"]:
        # TRANSLATORS: Pandoria: Hanbok's captives, 1 point each
        parts.append(n_("{n} captive", "{n} captives", d["captives"]))
    # TRANSLATORS: {sum} is the points added up ("54 crown + 3 cards + …"); then the total and the resources left
    return _("{sum} = {total} · {left} left over", sum=" + ".join(parts), total=pa.total(d), left=d["leftover"])


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
    win_names = lang.names([s.name for s in winners])
    if len(tied) == 1:
        return _("{name} wins with {total}", name=win_names, total=top)
    tie = lang.names([s.name for s in tied])
    best = left[winners[0].id]
    if len(winners) == len(tied):
        # TRANSLATORS: Pandoria's tie-break: the most resources left over wins a tie on points
        return n_("{names} tie on {total} and on {n} resource left over: a shared win",
                  "{names} tie on {total} and on {n} resources left over: a shared win", best, names=tie, total=top)
    against = lang.names([str(v) for v in sorted((left[s.id] for s in tied if s.place != 1), reverse=True)])
    if len(winners) == 1:
        # TRANSLATORS: Pandoria's tie-break; {against}: the resources the others have left ("2", "2 and 1")
        return n_("{names} tie on {total}; {winner} wins with {n} resource left over against {against}",
                  "{names} tie on {total}; {winner} wins with {n} resources left over against {against}", best,
                  names=tie, total=top, winner=win_names, against=against)
    return n_("{names} tie on {total}; {winners} share the win with {n} resource left over each against {against}",
              "{names} tie on {total}; {winners} share the win with {n} resources left over each against {against}",
              best, names=tie, total=top, winners=win_names, against=against)


def standing_lines(result: Result) -> list[tuple[int, str, str]]:
    """(place, name, '71 · 4 left over'), best first; the left over decides ties on points."""
    ordered = sorted(result.players, key=lambda s: s.place)
    return [(s.place, s.name, _("{total} · {left} left over", total=s.total, left=result.detail[s.id]["leftover"]))
            for s in ordered]
