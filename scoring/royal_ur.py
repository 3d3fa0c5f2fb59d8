"""Royal Game of Ur: the winner scores from where the loser's counters stand."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from .common import N_, Checks, Count, Frozen, PlayerId, RecordBase, Result, Words, require_known_ids, standings

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


class Entry(Frozen):
    """The game being entered on the pad (an optional field records.md allows): saved on every
    tap so a restart or another phone finds it, never scored until kept in `rounds`.
    `game` is the index of the game being corrected, None for a new one; `squares` holds the
    route position of each loser counter on the board, one entry per counter."""
    game: Count | None = None
    winner: PlayerId | None = None
    unentered: Count = 0
    start: Count = 0
    home: Count = 0
    squares: tuple[StrictInt, ...] = ()

    def counted(self) -> int:
        return self.unentered + self.start + self.home + len(self.squares)

    def is_empty(self) -> bool:
        return self.winner is None and self.counted() == 0


class Record(RecordBase):
    game: Literal["royal-ur"] = GAME
    settings: Settings = Field(default_factory=Settings)
    rounds: tuple[Game, ...] = ()
    entry: Entry | None = None


def check_ids(record: Record) -> None:
    for i, g in enumerate(record.rounds):
        require_known_ids(record, [g.winner], f"rounds[{i}].winner")
    if record.entry is not None and record.entry.winner is not None:
        require_known_ids(record, [record.entry.winner], "entry.winner")


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
        checks.error(where,
                     # TRANSLATORS: S is the board's start square, where counters wait to be entered
                     N_("game {game}: the loser's counters add up to {counted} (not entered {unentered}, "
                        "on S {start}, on the board {board}, home {home}); a player has {counters}"),
                     game=i + 1, counted=counted, unentered=loser.unentered, start=loser.start,
                     board=len(loser.board), home=loser.home, counters=COUNTERS)
    if loser.home >= COUNTERS:
        checks.error(f"{where}.home", N_("game {game}: the loser cannot have all {counters} counters home"),
                     game=i + 1, counters=COUNTERS)
    for k, value in enumerate(loser.board):
        if value < 1:
            checks.error(f"{where}.board[{k}]",
                         N_("game {game}: a counter on the board scores at least 1, not {value}"),
                         game=i + 1, value=value)
    if loser.squares is None:
        return
    if len(loser.squares) != len(loser.board):
        checks.error(f"{where}.squares", N_("game {game}: {squares} squares given for {counters} counters on the board"),
                     game=i + 1, squares=len(loser.squares), counters=len(loser.board))
        return
    for k, (square, value) in enumerate(zip(loser.squares, loser.board)):
        if not 1 <= square <= ROUTE:
            checks.error(f"{where}.squares[{k}]", N_("game {game}: route positions are 1–{route}, not {square}"),
                         game=i + 1, route=ROUTE, square=square)
        elif square in ROSETTES and value != 1:
            checks.warning(f"{where}.board[{k}]",
                           # TRANSLATORS: a Rosette is one of the board's flower squares
                           N_("game {game}: a counter on the Rosette at square {square} scores 1, not {value}"),
                           game=i + 1, square=square, value=value)


def _check_board_setting(checks: Checks, record: Record) -> None:
    board = record.settings.board
    if board is None:
        return
    if len(board) != ROUTE:
        # TRANSLATORS: the dot map: how many dots (points) each square of the route scores
        checks.error("settings.board", N_("the dot map needs {route} squares, not {found}"),
                     route=ROUTE, found=len(board))
        return
    for pos, dots in enumerate(board, start=1):
        if pos in ROSETTES and dots != 1:
            checks.warning(f"settings.board[{pos - 1}]", N_("square {square} is a Rosette and scores 1, not {dots}"),
                           square=pos, dots=dots)
        elif dots < 1:
            checks.error(f"settings.board[{pos - 1}]", N_("square {square} must score at least 1, not {dots}"),
                         square=pos, dots=dots)


# --- the edits the pad makes (each returns a new record) ---------------------------------
# A refused tap says why in English `Words` (the pad shows them in the phone's language, #33).

# No counter left to take away from a place: one whole sentence for each place.
NO_COUNTER = {
    # TRANSLATORS: Royal Game of Ur: a tap took a counter away from "not entered", where there is none
    "unentered": N_("no counter is not entered"),
    # TRANSLATORS: Royal Game of Ur: S is the board's start square, where counters wait to be entered
    "start": N_("no counter is on S"),
    "home": N_("no counter is home"),
}
ALL_PLACED = N_("all {counters} of the loser's counters are placed; take one off first")
ALL_HOME = N_("the loser cannot have all {counters} counters home")


def square_value(record: Record, square: int) -> int:
    """What a loser counter on a route square scores: its dots, 1 on a Rosette."""
    return 1 if square in ROSETTES else board_map(record)[square - 1]


def entry_of(record: Record) -> Entry:
    return record.entry or Entry()


def other_player(record: Record, pid: str) -> str:
    return next(p for p in record.player_ids() if p != pid)


def _with_entry(record: Record, entry: Entry | None) -> Record:
    return record.model_copy(update={"entry": entry})


def set_winner(record: Record, pid: str) -> Record:
    require_known_ids(record, [pid], "entry.winner")
    return _with_entry(record, entry_of(record).model_copy(update={"winner": pid}))


def add_counter(record: Record, square: int) -> Record:
    entry = entry_of(record)
    if not 1 <= square <= ROUTE:
        # no key of the pad sends this (a programming error): English only
        raise ValueError(f"route positions are 1–{ROUTE}, not {square}")
    if entry.counted() >= COUNTERS:
        raise ValueError(Words(ALL_PLACED, counters=COUNTERS))
    return _with_entry(record, entry.model_copy(update={"squares": tuple(sorted(entry.squares + (square,)))}))


def remove_counter(record: Record, square: int) -> Record:
    entry = entry_of(record)
    if square not in entry.squares:
        raise ValueError(Words(N_("no loser counter is on square {square}"), square=square))
    squares = list(entry.squares)
    squares.remove(square)
    return _with_entry(record, entry.model_copy(update={"squares": tuple(squares)}))


def step(record: Record, place: str, delta: int) -> Record:
    """One counter more or fewer not entered, on S or home."""
    entry = entry_of(record)
    value = getattr(entry, place) + delta
    if value < 0:
        raise ValueError(Words(NO_COUNTER[place]))
    if delta > 0 and entry.counted() + delta > COUNTERS:
        raise ValueError(Words(ALL_PLACED, counters=COUNTERS))
    if place == "home" and value >= COUNTERS:
        raise ValueError(Words(ALL_HOME, counters=COUNTERS))
    return _with_entry(record, entry.model_copy(update={place: value}))


def rest_home(record: Record) -> Record:
    """The counters not placed yet are home (the usual case for most of them)."""
    entry = entry_of(record)
    return step(record, "home", COUNTERS - entry.counted())


def loser_of(record: Record, entry: Entry) -> Loser:
    """The entry as a record keeps it: the value each board counter earns under today's map."""
    return Loser(unentered=entry.unentered, start=entry.start, home=entry.home,
                 board=tuple(square_value(record, q) for q in entry.squares), squares=entry.squares)


def entry_points(record: Record) -> int:
    return winner_points(loser_of(record, entry_of(record)))


def entry_problem(record: Record) -> Words | None:
    """Why the entry cannot be kept as a game yet (English `Words`), or None."""
    entry = entry_of(record)
    if entry.winner is None:
        return Words(N_("tap who won first"))
    counted = entry.counted()
    if counted != COUNTERS:
        more = COUNTERS - counted
        return (Words(N_("{more} of the loser's {counters} counters still to place"), more=more, counters=COUNTERS)
                if more > 0 else
                Words(N_("{extra} counters too many: a player has {counters}"), extra=-more, counters=COUNTERS))
    if entry.home >= COUNTERS:
        return Words(ALL_HOME, counters=COUNTERS)
    return None


def keep_entry(record: Record) -> Record:
    """The entry becomes a game of the match (or replaces the game it corrects)."""
    problem = entry_problem(record)
    if problem:
        raise ValueError(problem)
    entry = entry_of(record)
    game = Game(winner=entry.winner, loser=loser_of(record, entry))
    rounds = list(record.rounds)
    if entry.game is not None and entry.game < len(rounds):
        rounds[entry.game] = game
    else:
        rounds.append(game)
    return record.model_copy(update={"rounds": tuple(rounds), "entry": None})


def edit_game(record: Record, index: int) -> Record:
    """Take a kept game back into the entry to correct it; it stays scored until saved again."""
    game = record.rounds[index]
    squares = game.loser.squares
    if squares is None or len(squares) != len(game.loser.board):
        # A record made without squares (by hand, another tool): put each counter on the first
        # square of the loser's route that scores what it scored.
        squares = tuple(next((q for q in range(1, ROUTE + 1) if square_value(record, q) == v), 1)
                        for v in game.loser.board)
    entry = Entry(game=index, winner=game.winner, unentered=game.loser.unentered, start=game.loser.start,
                  home=game.loser.home, squares=tuple(sorted(squares)))
    return _with_entry(record, entry)


def clear_entry(record: Record) -> Record:
    return _with_entry(record, None)


def set_board(record: Record, board: tuple[int, ...] | list[int]) -> Record:
    """The owner's dot map for games entered from now on; kept games keep what they scored."""
    board = tuple(board)
    if len(board) != ROUTE:
        raise ValueError(Words(N_("the dot map needs {route} squares, not {found}"), route=ROUTE, found=len(board)))
    for pos, dots in enumerate(board, start=1):
        if pos in ROSETTES and dots != 1:
            raise ValueError(Words(N_("square {square} is a Rosette and scores 1"), square=pos))
        if dots < 1:
            raise ValueError(Words(N_("square {square} must score at least 1, not {dots}"), square=pos, dots=dots))
    return record.model_copy(update={"settings": record.settings.model_copy(update={"board": board})})
