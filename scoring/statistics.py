"""Statistics of played games: pure, from what the store's index keeps of each game.

`facts(record, result)` is worked out once, when a game is saved (storage keeps it in the
game's index row), so statistics over 10,000 games read small rows, never the records.
Everything else here aggregates rows: {"game", "finished", "created", "order", "players":
[(id, name, total, place)], "facts": {...}}. A person is their name, case aside (the same
name in two games is the same player)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from . import nokosu_dice, panda_royale, pandoria, pass_the_pandas, royal_ur
from .common import N_, RecordBase, Result, Words
from .names import key as name_key

COLOURS = panda_royale.COLOURS


# --------------------------------------------------------------------------- facts of one game

def facts(record: RecordBase, result: Result) -> dict[str, Any]:
    """The few numbers per game that the statistics of its kind need (JSON-able, small)."""
    game = record.game
    if game == panda_royale.GAME:
        best = max(((pts, i, pid) for i, row in enumerate(result.rounds) for pid, pts in row.items()),
                   default=None)
        colours = {pid: [0] * len(COLOURS) for pid in record.player_ids()}
        red_hands = red_negative = 0
        for rnd in record.rounds:
            for pid, hand in rnd.hands.items():
                cols = panda_royale.column_scores(hand)
                colours[pid] = [a + cols[c] for a, c in zip(colours[pid], COLOURS)]
                if hand.red:
                    red_hands += 1
                    red_negative += cols["red"] < 0
        return {"best_round": [best[2], best[1], best[0]] if best else None, "colours": colours,
                "red_hands": red_hands, "red_negative": red_negative}
    if game == royal_ur.GAME:
        return {"games": [[g.winner, royal_ur.winner_points(g.loser)] for g in record.rounds]}
    if game == nokosu_dice.GAME:
        declared, made, zeros = {}, {}, {}
        for rnd in record.rounds:
            for pid, d in rnd.declared.items():
                if pid not in rnd.tricks:
                    continue
                declared[pid] = declared.get(pid, 0) + 1
                if rnd.tricks[pid] == d:
                    made[pid] = made.get(pid, 0) + 1
                    if d == 0:
                        zeros[pid] = zeros.get(pid, 0) + 1
        return {"declared": declared, "made": made, "zero_made": zeros}
    if game == pandoria.GAME:
        parts = result.detail
        return {"conversion": {pid: sum(d.get(r, 0) for r in pandoria.RESOURCES) for pid, d in parts.items()}}
    if game == pass_the_pandas.GAME:
        wins: dict[str, int] = {}
        for hand in record.rounds:
            if hand.out:
                wins[hand.out[0].player] = wins.get(hand.out[0].player, 0) + 1
        return {"hands": len(record.rounds), "hand_wins": wins}
    return {}


# --------------------------------------------------------------------------- one kind of game

@dataclass
class PlayerLine:
    name: str
    games: int = 0
    wins: int = 0
    totals: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average(self) -> float:
        return sum(self.totals) / len(self.totals) if self.totals else 0.0


@dataclass
class GameStats:
    game: str
    games: int                                  # finished games of this kind
    players: list[PlayerLine]                   # most wins first
    average_total: float
    best_total: tuple[str, int] | None          # (name, total)
    extras: list[tuple[str, str]]               # what fits this game, as (label, value) lines
    colours: dict[str, list[int]] = field(default_factory=dict)   # Panda Royale: points by colour per name


def _key(name: str) -> str:
    return name_key(name)  # one person: the same name case and hidden characters aside (#31)


def game_stats(game: str, rows: Iterable[dict[str, Any]]) -> GameStats:
    """Statistics of the finished games of one kind."""
    lines: dict[str, PlayerLine] = {}
    finished = [r for r in rows if r["game"] == game and r["finished"]]
    all_totals: list[int] = []
    best: tuple[str, int] | None = None
    for row in finished:
        for _pid, name, total, place in row["players"]:
            line = lines.setdefault(_key(name), PlayerLine(name))
            line.games += 1
            line.wins += place == 1
            line.totals.append(total)
            all_totals.append(total)
            if best is None or total > best[1]:
                best = (name, total)
    players = sorted(lines.values(), key=lambda p: (-p.wins, -p.win_rate, p.name.casefold()))
    stats = GameStats(game, len(finished), players, sum(all_totals) / len(all_totals) if all_totals else 0.0,
                      best, [])
    _extras(stats, finished)
    return stats


def _names(row) -> dict[str, str]:
    return {pid: name for pid, name, _t, _p in row["players"]}


def _pct(a: int, b: int) -> str:
    return f"{round(100 * a / b)} %" if b else "–"


def row_facts(row: dict[str, Any]) -> dict[str, Any]:
    """A row's facts: the store keeps them as JSON text (an untracked string per row)."""
    f = row.get("facts")
    if isinstance(f, str):
        try:
            f = json.loads(f)
        except ValueError:
            return {}
    return f if isinstance(f, dict) else {}


def _extras(stats: GameStats, rows: list[dict[str, Any]]) -> None:
    with_facts = [(r, row_facts(r)) for r in rows]
    out = stats.extras
    if stats.game == panda_royale.GAME:
        best = None
        red_hands = red_negative = 0
        for row, f in with_facts:
            names = _names(row)
            if f.get("best_round") and (best is None or f["best_round"][2] > best[2]):
                pid, i, pts = f["best_round"]
                best = (names.get(pid, pid), i + 1, pts)
            red_hands += f.get("red_hands", 0)
            red_negative += f.get("red_negative", 0)
            for pid, cols in (f.get("colours") or {}).items():
                name = names.get(pid, pid)
                key = next((k for k in stats.colours if _key(k) == _key(name)), name)
                stats.colours[key] = [a + b for a, b in zip(stats.colours.get(key, [0] * len(COLOURS)), cols)]
        if best:
            out.append((N_("Best single round ever"),
                        Words(N_("{points} by {name} (round {round})"), points=best[2], name=best[0], round=best[1])))
        out.append((N_("Red went negative"), Words(N_("{negative} of {hands} hands with red dice ({percent})"),
                                                   negative=red_negative, hands=red_hands,
                                                   percent=_pct(red_negative, red_hands))))
    elif stats.game == royal_ur.GAME:
        wins: dict[str, int] = {}
        margins = []
        for row, f in with_facts:
            names = _names(row)
            for winner, points in f.get("games", []):
                wins[names.get(winner, winner)] = wins.get(names.get(winner, winner), 0) + 1
                margins.append(points)
        out.append((N_("Match wins"), ", ".join(f"{p.name} {p.wins}" for p in stats.players) or "–"))
        out.append((N_("Game wins"), ", ".join(f"{n} {w}" for n, w in sorted(wins.items(), key=lambda x: -x[1])) or "–"))
        # TRANSLATORS: {average} is a number with one decimal (90.0)
        out.append((N_("Average margin of a game"), Words(N_("{average} points"), average=round(
            sum(margins) / len(margins), 1)) if margins else "–"))
    elif stats.game == nokosu_dice.GAME:
        declared = made = zeros = 0
        for _row, f in with_facts:
            declared += sum((f.get("declared") or {}).values())
            made += sum((f.get("made") or {}).values())
            zeros += sum((f.get("zero_made") or {}).values())
        out.append((N_("Declarations made"), Words(N_("{made} of {declared} ({percent})"), made=made,
                                                   declared=declared, percent=_pct(made, declared))))
        out.append((N_("Zero-trick successes"), str(zeros)))
    elif stats.game == pandoria.GAME:
        conversion = total = 0
        for row, f in with_facts:
            conversion += sum((f.get("conversion") or {}).values())
            total += sum(t for _i, _n, t, _p in row["players"])
        out.append((N_("Points from the end-game conversion"), Words(
            N_("{points} of {total} ({percent})"), points=conversion, total=total, percent=_pct(conversion, total))))
    elif stats.game == pass_the_pandas.GAME:
        hands = 0
        wins: dict[str, int] = {}
        for row, f in with_facts:
            names = _names(row)
            hands += f.get("hands", 0)
            for pid, n in (f.get("hand_wins") or {}).items():
                wins[names.get(pid, pid)] = wins.get(names.get(pid, pid), 0) + n
        points = sum(t for row, _f in with_facts for _i, _n, t, _p in row["players"])
        out.append((N_("Hand wins"), ", ".join(f"{n} {w}" for n, w in sorted(wins.items(), key=lambda x: -x[1])) or "–"))
        # A number, written by the phone in its own form (5.5, 5,5).
        out.append((N_("Average points per hand"), round(points / hands, 1) if hands else "–"))


# --------------------------------------------------------------------------- one player

@dataclass
class PlayerStats:
    name: str
    by_game: dict[str, PlayerLine]
    current_streak: int        # wins in a row up to the latest finished game
    longest_streak: int

    @property
    def games(self) -> int:
        return sum(p.games for p in self.by_game.values())

    @property
    def wins(self) -> int:
        return sum(p.wins for p in self.by_game.values())


def player_stats(name: str, rows: Iterable[dict[str, Any]]) -> PlayerStats:
    key = _key(name)
    played = sorted((r for r in rows if r["finished"] and any(_key(p[1]) == key for p in r["players"])),
                    key=lambda r: r.get("order") or "")
    by_game: dict[str, PlayerLine] = {}
    streak = longest = 0
    for row in played:
        me = next(p for p in row["players"] if _key(p[1]) == key)
        line = by_game.setdefault(row["game"], PlayerLine(me[1]))
        line.games += 1
        won = me[3] == 1
        line.wins += won
        line.totals.append(me[2])
        streak = streak + 1 if won else 0
        longest = max(longest, streak)
    return PlayerStats(name, by_game, streak, longest)
