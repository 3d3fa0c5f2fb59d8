"""Royal Game of Ur: the winner scores from where the loser's counters stand."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import Checks, Count, Frozen, PlayerId, RecordBase, Result, require_known_ids, standings

GAME = "royal-ur"
TITLE = "Royal Game of Ur"
PLAYERS = (2, 2)
COUNTERS = 7
ROUTE = 14
ROSETTES = (4, 8, 14)   # route positions; a counter on a Rosette scores 1
DOUBLES = (7, 10)
UNENTERED_POINTS = 25
START_POINTS = 10
# The dots printed on this edition's squares are unknown; this map is the default the owner can edit.
DEFAULT_BOARD = (4, 5, 4, 1, 4, 5, 2, 1, 5, 2, 4, 5, 3, 1)


class Loser(Frozen):
    unentered: Count = 0
    start: Count = 0
    home: Count = 0
    board: tuple[StrictInt, ...] = ()
    squares: tuple[StrictInt, ...] | None = None


class Game(Frozen):
    winner: PlayerId
    loser: Loser = Field(default_factory=Loser)


class Settings(Frozen):
    board: tuple[StrictInt, ...] | None = None


class Record(RecordBase):
    game: Literal["royal-ur"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Game, ...] = ()


def check_ids(record: Record) -> None:
    for i, g in enumerate(record.rounds):
        require_known_ids(record, [g.winner], f"rounds[{i}].winner")


def board_map(record: Record) -> tuple[int, ...]:
    board = record.settings.board
    return board if board is not None and len(board) == ROUTE else DEFAULT_BOARD


def winner_points(loser: Loser) -> int:
    return UNENTERED_POINTS * loser.unentered + START_POINTS * loser.start + sum(loser.board)


def score(record: Record) -> Result:
    checks = Checks()
    ids = record.player_ids()
    _check_board_setting(checks, record)
    totals = {pid: 0 for pid in ids}
    rounds_out = []
    for i, g in enumerate(record.rounds):
        _check_loser(checks, i, g.loser)
        points = winner_points(g.loser)
        totals[g.winner] += points
        rounds_out.append({pid: points if pid == g.winner else 0 for pid in ids})
    table, winners = standings(record, totals)
    return Result(GAME, table, winners, rounds_out, checks.problems, {})


def _check_loser(checks: Checks, i: int, loser: Loser) -> None:
    where = f"rounds[{i}].loser"
    counted = loser.unentered + loser.start + loser.home + len(loser.board)
    if counted != COUNTERS:
        checks.error(where, f"game {i + 1}: the loser's counters add up to {counted} "
                            f"(not entered {loser.unentered}, on S {loser.start}, on the board "
                            f"{len(loser.board)}, home {loser.home}); a player has {COUNTERS}")
    if loser.home >= COUNTERS:
        checks.error(f"{where}.home", f"game {i + 1}: the loser cannot have all {COUNTERS} counters home")
    for k, value in enumerate(loser.board):
        if value < 1:
            checks.error(f"{where}.board[{k}]", f"game {i + 1}: a counter on the board scores at least 1, not {value}")
    if loser.squares is None:
        return
    if len(loser.squares) != len(loser.board):
        checks.error(f"{where}.squares", f"game {i + 1}: {len(loser.squares)} squares given "
                                         f"for {len(loser.board)} counters on the board")
        return
    for k, (square, value) in enumerate(zip(loser.squares, loser.board)):
        if not 1 <= square <= ROUTE:
            checks.error(f"{where}.squares[{k}]", f"game {i + 1}: route positions are 1–{ROUTE}, not {square}")
        elif square in ROSETTES and value != 1:
            checks.warning(f"{where}.board[{k}]",
                           f"game {i + 1}: a counter on the Rosette at square {square} scores 1, not {value}")


def _check_board_setting(checks: Checks, record: Record) -> None:
    board = record.settings.board
    if board is None:
        return
    if len(board) != ROUTE:
        checks.error("settings.board", f"the dot map needs {ROUTE} squares, not {len(board)}")
        return
    for pos, dots in enumerate(board, start=1):
        if pos in ROSETTES and dots != 1:
            checks.warning(f"settings.board[{pos - 1}]", f"square {pos} is a Rosette and scores 1, not {dots}")
        elif dots < 1:
            checks.error(f"settings.board[{pos - 1}]", f"square {pos} must score at least 1, not {dots}")
