"""Pandoria: crown-track points plus the end-of-game conversion of what is left."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import Checks, Frozen, PlayerId, RecordBase, Result, require_known_ids, standings

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


def _check(checks: Checks, record: Record) -> None:
    mode = record.settings.mode
    realms = {pid: realm_of(record, pid) for pid in (record.settings.realms or {})}
    if realms and all(r in PROMO_REALMS for r in realms.values()) and len(realms) == len(record.players):
        checks.warning("settings.realms", "the promo realms (Nymphs, Hanbok) cannot be played alone")
    for pid, final in ((p, record.final[p]) for p in record.player_ids() if p in record.final):
        where, name = f"final.{pid}", record.name_of(pid)
        cap = CAPS.get(realms.get(pid) or "", CAP)
        for part in ("points", "cards", *RESOURCES, "captives"):
            value = getattr(final, part)
            if value is not None and value < 0:
                checks.error(f"{where}.{part}", f"{name}: {part} cannot be negative ({value})")
        for res in RESOURCES:
            if getattr(final, res) > cap:
                checks.warning(f"{where}.{res}", f"{name}: the {res} track stops at {cap}, "
                                                 f"but {getattr(final, res)} is entered")
        if final.rates and mode in FAMILY_MODES:
            checks.warning(f"{where}.rates", f"{name}: the family game has no buildings; "
                                             f"only 3 → 1 conversion applies")
        if final.captives and mode in FAMILY_MODES:
            checks.warning(f"{where}.captives", f"{name}: the family game has no realms, so no Hanbok "
                                                f"captives; {final.captives} captives not counted")
        elif final.captives and pid in realms and realms[pid] != CAPTIVE_REALM:
            checks.warning(f"{where}.captives", f"{name}: only Hanbok scores captives; "
                                                f"{final.captives} captives not counted")
