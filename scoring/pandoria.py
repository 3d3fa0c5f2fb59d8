"""Pandoria: crown-track points plus the end-of-game conversion of what is left."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import N_, Checks, Frozen, PlayerId, RecordBase, Result, Words, require_known_ids, standings

GAME = "pandoria"
TITLE = "Pandoria"
PLAYERS = (2, 4)
RESOURCES = ("wood", "gold", "crystal")
BASE_RATE = "3:1"
CAP = 10
CAPS = {"fairies": 8}          # resource tracks stop at 10, the Fairies' at 8
FAMILY_MODES = ("family", "family-spells")
CAPTIVE_REALM = "hanbok"
PROMO_REALMS = ("nymphs", "hanbok")

Mode = Literal["standard", "beginner", "family", "family-spells"]
Rate = Literal["2:1", "3:2"]


class Settings(Frozen):
    mode: Mode = "standard"
    realms: dict[PlayerId, str] | None = None


class LogEntry(Frozen):
    player: PlayerId
    points: StrictInt
    note: str | None = None


class Final(Frozen):
    points: StrictInt | None = None
    cards: StrictInt = 0
    wood: StrictInt = 0
    gold: StrictInt = 0
    crystal: StrictInt = 0
    rates: dict[Literal["wood", "gold", "crystal"], tuple[Rate, ...]] = Field(default_factory=dict)
    captives: StrictInt = 0


class Record(RecordBase):
    game: Literal["pandoria"] = GAME
    settings: Settings = Field(default_factory=Settings)
    log: tuple[LogEntry, ...] = ()
    final: dict[PlayerId, Final] = Field(default_factory=dict)
    # Optional, for the pad only (the score ignores it): which step the table is at, so a
    # restart or another phone opens the same one. None: the end step once `final` has entries.
    step: Literal["log", "end"] | None = None


def check_ids(record: Record) -> None:
    require_known_ids(record, record.settings.realms or {}, "settings.realms")
    for i, entry in enumerate(record.log):
        require_known_ids(record, [entry.player], f"log[{i}].player")
    require_known_ids(record, record.final, "final")


def convert(amount: int, rates: tuple[str, ...]) -> tuple[int, int, str]:
    """(points, left over, rate used): the most points; on equal points, the most left over."""
    best = None
    for rate in (BASE_RATE, *rates):
        give, get = (int(x) for x in rate.split(":"))
        option = ((amount // give) * get, amount % give, rate)
        if best is None or option[:2] > best[:2]:
            best = option
    return best


def realm_of(record: Record, pid: str) -> str | None:
    realm = (record.settings.realms or {}).get(pid)
    return realm.strip().lower() if realm else None


def crown_points(record: Record, pid: str) -> int:
    final = record.final.get(pid)
    if final is not None and final.points is not None:
        return final.points
    return sum(e.points for e in record.log if e.player == pid)


def end_step(record: Record, pid: str) -> dict:
    """The end-of-game breakdown of one player: points per part, the rate used, left over."""
    final = record.final.get(pid, Final())
    family = record.settings.mode in FAMILY_MODES
    realm = realm_of(record, pid)
    detail = {"points": crown_points(record, pid), "cards": final.cards}
    rates_used, leftover = {}, 0
    for res in RESOURCES:
        extra = () if family else final.rates.get(res, ())
        points, left, rate = convert(getattr(final, res), extra)
        detail[res] = points
        rates_used[res] = rate
        leftover += left
    # Captives are Hanbok's; the family game has no realms, so none count there.
    detail["captives"] = final.captives if realm in (None, CAPTIVE_REALM) and not family else 0
    detail["leftover"] = leftover
    return {"detail": detail, "rates": rates_used}


def total(breakdown: dict) -> int:
    return sum(v for k, v in breakdown.items() if k != "leftover")


def score(record: Record) -> Result:
    checks = Checks()
    _check(checks, record)
    ids = record.player_ids()
    detail = {pid: end_step(record, pid)["detail"] for pid in ids}
    totals = {pid: total(detail[pid]) for pid in ids}
    # Left-over resources break a tie on points.
    keys = {pid: (totals[pid], detail[pid]["leftover"]) for pid in ids}
    table, winners = standings(record, totals, keys)
    return Result(GAME, table, winners, [], checks.problems, detail)


# The problems' words, one whole sentence for each part of the end step.
NEGATIVE = {
    "points": N_("{name}: points cannot be negative ({value})"),
    "cards": N_("{name}: cards cannot be negative ({value})"),
    "wood": N_("{name}: wood cannot be negative ({value})"),
    "gold": N_("{name}: gold cannot be negative ({value})"),
    "crystal": N_("{name}: crystal cannot be negative ({value})"),
    "captives": N_("{name}: captives cannot be negative ({value})"),
}
OVER_THE_TRACK = {
    "wood": N_("{name}: the wood track stops at {cap}, but {value} is entered"),
    "gold": N_("{name}: the gold track stops at {cap}, but {value} is entered"),
    "crystal": N_("{name}: the crystal track stops at {cap}, but {value} is entered"),
}


def _check(checks: Checks, record: Record) -> None:
    mode = record.settings.mode
    for i, entry in enumerate(record.log):
        if entry.points < 1:  # a crown marker only moves forward: no key of the pad goes below 1
            checks.error(f"log[{i}].points",
                         # TRANSLATORS: Pandoria: an entry of the crown-track log ("Ann +4")
                         N_("{name}: a crown-track entry moves the marker at least 1, not {points}"),
                         name=record.name_of(entry.player), points=entry.points)
    realms = {pid: realm_of(record, pid) for pid in (record.settings.realms or {})}
    if realms and all(r in PROMO_REALMS for r in realms.values()) and len(realms) == len(record.players):
        # TRANSLATORS: Nymphs and Hanbok are Pandoria's promo realms: their names as the edition prints them
        checks.warning("settings.realms", N_("the promo realms (Nymphs, Hanbok) cannot be played alone"))
    for pid, final in ((p, record.final[p]) for p in record.player_ids() if p in record.final):
        where, name = f"final.{pid}", record.name_of(pid)
        cap = CAPS.get(realms.get(pid) or "", CAP)
        for part in ("points", "cards", *RESOURCES, "captives"):
            value = getattr(final, part)
            if value is not None and value < 0:
                checks.error(f"{where}.{part}", NEGATIVE[part], name=name, value=value)
        for res in RESOURCES:
            if getattr(final, res) > cap:
                checks.warning(f"{where}.{res}", OVER_THE_TRACK[res], name=name, cap=cap, value=getattr(final, res))
        if final.rates and mode in FAMILY_MODES:
            checks.warning(f"{where}.rates",
                           # TRANSLATORS: 3 → 1: three of a resource are exchanged for one point
                           N_("{name}: the family game has no buildings; only 3 → 1 conversion applies"),
                           name=name)
        if final.captives and mode in FAMILY_MODES:
            checks.warning(f"{where}.captives", N_("{name}: the family game has no realms, so no Hanbok "
                                                   "captives; {captives} captives not counted"),
                           name=name, captives=final.captives)
        elif final.captives and pid in realms and realms[pid] != CAPTIVE_REALM:
            checks.warning(f"{where}.captives", N_("{name}: only Hanbok scores captives; "
                                                   "{captives} captives not counted"),
                           name=name, captives=final.captives)


# --- The realms, from the seed (001): starting crystal / gold / wood ----------------------

class Realm(Frozen):
    id: str
    name: str
    crystal: int
    gold: int
    wood: int
    group: str


def _realms(group: str, rows) -> tuple[Realm, ...]:
    return tuple(Realm(id=name.split()[0].lower(), name=name, crystal=c, gold=g, wood=w, group=group)
                 for name, c, g, w in rows)


# Side B (standard game): the five base realms, the five of the Realms expansion, the two promos.
REALMS = (
    _realms("base", [("Humans", 5, 4, 5), ("Dwarves", 2, 10, 5), ("Elves", 8, 3, 4), ("Mages", 9, 2, 2),
                     ("Halflings", 4, 3, 7)])
    + _realms("expansion", [("Centaurs", 5, 6, 6), ("Fairies", 4, 4, 4), ("Goblins", 5, 9, 3),
                            ("Golems", 3, 4, 9), ("Spirits of the Ancients", 6, 5, 3)])
    + _realms("promo", [("Nymphs", 7, 4, 2), ("Hanbok", 3, 3, 6)]))
# Side A (beginner game): the seed lists only the five base realms, each with its own amounts.
BEGINNER_REALMS = _realms("base", [("Humans", 5, 5, 5), ("Dwarves", 2, 8, 5), ("Elves", 6, 3, 4),
                                   ("Mages", 7, 2, 2), ("Halflings", 5, 3, 6)])
OTHER_REALM = "other"


def realms_for(mode: str) -> tuple[Realm, ...]:
    """The realms a table can choose in a mode (none in the family game)."""
    return () if mode in FAMILY_MODES else BEGINNER_REALMS if mode == "beginner" else REALMS


def realm_info(mode: str, realm: str | None) -> Realm | None:
    return next((r for r in realms_for(mode) if r.id == realm), None)


# --- Record edits the pad makes (pure: each returns a new record) ---------------------------

RATES = ("2:1", "3:2")
PARTS = ("points", "cards", *RESOURCES, "captives")
# A refused tap says why in English `Words` (the pad shows them in the phone's language, #33):
# one whole sentence for each part of the end step.
BELOW_ZERO = {
    "points": N_("points cannot go below 0"),
    "cards": N_("cards cannot go below 0"),
    "wood": N_("wood cannot go below 0"),
    "gold": N_("gold cannot go below 0"),
    "crystal": N_("crystal cannot go below 0"),
    "captives": N_("captives cannot go below 0"),
}
TRACK_ENDS = {
    "wood": N_("the wood track stops at {cap}"),
    "gold": N_("the gold track stops at {cap}"),
    "crystal": N_("the crystal track stops at {cap}"),
}


def family(record: Record) -> bool:
    return record.settings.mode in FAMILY_MODES


def cap_of(record: Record, pid: str) -> int:
    """Where a player's resource tracks stop (the Fairies' camp holds 8)."""
    return CAP if family(record) else CAPS.get(realm_of(record, pid) or "", CAP)


def has_captives(record: Record, pid: str) -> bool:
    """Only Hanbok keeps captives (never in the family game)."""
    return not family(record) and realm_of(record, pid) == CAPTIVE_REALM


def at_end(record: Record) -> bool:
    """The table is at the end-of-game step (else at the crown-track log)."""
    return record.step == "end" if record.step is not None else bool(record.final)


def log_total(record: Record, pid: str, upto: int | None = None) -> int:
    """A player's crown-track total from the log (after the first `upto` entries)."""
    entries = record.log if upto is None else record.log[:upto]
    return sum(e.points for e in entries if e.player == pid)


def add_entry(record: Record, pid: str, points: int, note: str | None = None) -> Record:
    require_known_ids(record, [pid], "log.player")
    if points < 1:
        # no key of the pad sends this (a programming error): English only
        raise ValueError("an entry moves a crown marker forward at least 1")
    return record.model_copy(update={"log": record.log + (LogEntry(player=pid, points=points, note=note),)})


def _entry(record: Record, index: int) -> LogEntry:
    if not 0 <= index < len(record.log):
        raise ValueError(Words(N_("the log has no entry {n} (another phone may have removed it)"), n=index + 1))
    return record.log[index]


def _with_entry(record: Record, index: int, **changes) -> Record:
    log = list(record.log)
    log[index] = _entry(record, index).model_copy(update=changes)
    return record.model_copy(update={"log": tuple(log)})


def set_note(record: Record, index: int, note: str | None) -> Record:
    """Tag an entry with what scored it; the same note again takes it off."""
    current = _entry(record, index).note
    return _with_entry(record, index, note=None if note == current else note)


def step_entry(record: Record, index: int, delta: int) -> Record:
    points = _entry(record, index).points + delta
    if points < 1:
        raise ValueError(Words(N_("an entry moves a crown marker at least 1; delete it instead")))
    return _with_entry(record, index, points=points)


def move_entry(record: Record, index: int, pid: str) -> Record:
    """The points were someone else's (the marker of the wrong colour was moved)."""
    require_known_ids(record, [pid], "log.player")
    return _with_entry(record, index, player=pid)


def delete_entry(record: Record, index: int) -> Record:
    _entry(record, index)
    return record.model_copy(update={"log": record.log[:index] + record.log[index + 1:]})


def to_end(record: Record) -> Record:
    return record.model_copy(update={"step": "end"})


def to_log(record: Record) -> Record:
    return record.model_copy(update={"step": "log"})


def final_of(record: Record, pid: str) -> Final:
    return record.final.get(pid, Final())


def _with_final(record: Record, pid: str, **changes) -> Record:
    require_known_ids(record, [pid], "final")
    final = {**record.final, pid: final_of(record, pid).model_copy(update=changes)}
    # Seat order, so that the record reads like the table.
    ordered = {p: final[p] for p in record.player_ids() if p in final}
    return record.model_copy(update={"final": ordered})


def step_part(record: Record, pid: str, part: str, delta: int) -> Record:
    """One more or fewer: crown points (from the log's total), hand cards, a resource, captives."""
    if part not in PARTS:
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"no such part of the end step: {part}")
    value = (crown_points(record, pid) if part == "points" else getattr(final_of(record, pid), part)) + delta
    if value < 0:
        raise ValueError(Words(BELOW_ZERO[part]))
    if part in RESOURCES and delta > 0 and value > cap_of(record, pid):
        raise ValueError(Words(TRACK_ENDS[part], cap=cap_of(record, pid)))
    return _with_final(record, pid, **{part: value})


def use_log_points(record: Record, pid: str) -> Record:
    """Back to the crown-track total of the log (drop the adjustment)."""
    return _with_final(record, pid, points=None)


def toggle_rate(record: Record, pid: str, resource: str, rate: str) -> Record:
    """The player has (or no longer has) a building converting `resource` at `rate`."""
    if resource not in RESOURCES or rate not in RATES:
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"no {rate} building for {resource}")
    rates = dict(final_of(record, pid).rates)
    have = set(rates.get(resource, ()))
    have ^= {rate}
    if have:
        rates[resource] = tuple(r for r in RATES if r in have)
    else:
        rates.pop(resource, None)
    return _with_final(record, pid, rates={r: rates[r] for r in RESOURCES if r in rates})
