"""What the Ur pad shows, worked out from the record alone: no Flet here.

The game being entered lives in the record (`entry`), saved on every tap, so a restarted
server or another phone shows exactly the same board; this module turns it into words.
"""
from __future__ import annotations

from dataclasses import dataclass

from scoring import Result
from scoring import royal_ur as ur
from views.words.lang import _, n_
from views.pads.pad.words import verdict

# The board drawn as on the table, 8 columns by 3 rows: the winner's row on top, the shared
# centre track, the loser's row at the bottom. Each player's route: own row 1–4 (towards the
# corner Rosette), centre 5–12, small block 13–14; S and H sit in the gap of the own rows.
COLUMNS = 8
OWN_ROW = {1: 3, 2: 2, 3: 1, 4: 0, 13: 7, 14: 6}     # route position -> column
GAP = {"start": 4, "home": 5}                          # the S and H spaces, in the gap
CENTRE = {pos: pos - 5 for pos in range(5, 13)}         # route position -> column


@dataclass(frozen=True)
class Cell:
    """One place of the drawn board: a square of the loser's route (pos), a square of the
    winner's own row (pos, not tappable), S / H, or nothing."""
    row: int        # 0 winner's row, 1 centre, 2 loser's row
    col: int
    kind: str       # "square" | "winner" | "start" | "home" | "gap"
    pos: int = 0

    @property
    def rosette(self) -> bool:
        return self.kind in ("square", "winner") and self.pos in ur.ROSETTES

    @property
    def double(self) -> bool:
        return self.kind in ("square", "winner") and self.pos in ur.DOUBLES


def board_cells() -> list[Cell]:
    """Row by row, left to right."""
    own = {col: pos for pos, col in OWN_ROW.items()}
    gap = {col: kind for kind, col in GAP.items()}
    cells = []
    for row in range(3):
        for col in range(COLUMNS):
            if row == 1:
                cells.append(Cell(1, col, "square", col + 5))
            elif col in own:
                cells.append(Cell(row, col, "square" if row == 2 else "winner", own[col]))
            elif row == 2:
                cells.append(Cell(row, col, gap[col]))
            else:
                cells.append(Cell(row, col, "gap"))
    return cells


def dots(record: ur.Record, pos: int) -> int:
    """The dots printed on a square by the owner's map (a Rosette shows 1 dot)."""
    return ur.square_value(record, pos)


def counters_on(entry: ur.Entry, pos: int) -> int:
    return entry.squares.count(pos)


def square_label(record: ur.Record, pos: int, entry: ur.Entry) -> str:
    """'Square 9, 5 dots, 2 loser counters'; Rosettes and Doubles say so."""
    n = counters_on(entry, pos)
    # TRANSLATORS: Royal Game of Ur: the counters of the player who lost this game, left on the board.
    on = _("no loser counters") if n == 0 else n_("{n} loser counter", "{n} loser counters", n)
    # TRANSLATORS: Royal Game of Ur: the dots printed on a square of the board (they give its points).
    dotted = n_("{n} dot", "{n} dots", dots(record, pos))
    if pos in ur.ROSETTES:
        # TRANSLATORS: a square of the Ur board read out; "Rosette": the game's term for the flower
        # squares (keep the usual word of the game in your language, else "Rosette").
        return _("Square {square}, Rosette, {dots}, {counters}", square=pos, dots=dotted, counters=on)
    if pos in ur.DOUBLES:
        # TRANSLATORS: a square of the Ur board read out; "Doubles": the game's term for the squares
        # that move the same counter again.
        return _("Square {square}, Doubles, {dots}, {counters}", square=pos, dots=dotted, counters=on)
    # TRANSLATORS: a square of the Ur board read out: its number, its dots, the loser's counters on it.
    return _("Square {square}, {dots}, {counters}", square=pos, dots=dotted, counters=on)


def breakdown(record: ur.Record) -> str:
    """The winner's points written out: '25 × 2 not entered + 10 × 1 on S + 5 + 1 = 66'."""
    entry = ur.entry_of(record)
    loser = ur.loser_of(record, entry)
    parts = []
    if loser.unentered:
        # TRANSLATORS: Royal Game of Ur: points for each of the loser's counters never put on the board.
        parts.append(_("{points} × {count} not entered", points=ur.UNENTERED_POINTS, count=loser.unentered))
    if loser.start:
        # TRANSLATORS: Royal Game of Ur: points for each of the loser's counters on S, the start space.
        parts.append(_("{points} × {count} on S", points=ur.START_POINTS, count=loser.start))
    parts += [str(v) for v in loser.board]
    total = ur.winner_points(loser)
    return f"{' + '.join(parts)} = {total}" if parts else "0"


def counter_check(entry: ur.Entry) -> tuple[str, bool]:
    """'5 of 7 counters placed: 2 to go' and whether the count is right."""
    n = entry.counted()
    if n == ur.COUNTERS:
        # TRANSLATORS: Royal Game of Ur: every counter of the loser is on the board, S or home.
        return n_("All {n} counter placed", "All {n} counters placed", ur.COUNTERS), entry.home < ur.COUNTERS
    return n_("{placed} of {n} counter placed: {left} to go", "{placed} of {n} counters placed: {left} to go",
              ur.COUNTERS, placed=n, left=ur.COUNTERS - n), False


def game_number(record: ur.Record) -> int:
    """The 1-based number of the game the entry is for."""
    entry = ur.entry_of(record)
    return (entry.game if entry.game is not None else len(record.rounds)) + 1


@dataclass(frozen=True)
class TableRow:
    game: int                   # 1-based
    winner: str                 # name
    points: dict[str, int]      # this game's points per player id
    running: dict[str, int]     # match totals after this game


def match_table(record: ur.Record, result: Result) -> list[TableRow]:
    running = {pid: 0 for pid in record.player_ids()}
    rows = []
    for i, (game, points) in enumerate(zip(record.rounds, result.rounds)):
        for pid, p in points.items():
            running[pid] += p
        rows.append(TableRow(i + 1, record.name_of(game.winner), dict(points), dict(running)))
    return rows


def match_line(record: ur.Record, result: Result) -> str:
    """'Ann leads 3 games to 1' style summary of game wins (points decide the match)."""
    wins = {pid: 0 for pid in record.player_ids()}
    for game in record.rounds:
        wins[game.winner] += 1
    a, b = record.player_ids()
    if not record.rounds:
        return _("No game kept yet")
    # TRANSLATORS: Royal Game of Ur: how many games of the match each of the two players won.
    return _("Games won: {first} {first_wins}, {second} {second_wins}", first=record.name_of(a),
             first_wins=wins[a], second=record.name_of(b), second_wins=wins[b])


def winners_line(result: Result) -> str:
    return verdict([s.name for s in result.players if s.place == 1])


def end_blocked(record: ur.Record, result: Result) -> str:
    """Why the match cannot be ended now ('' when it can): shown beside the greyed button."""
    if not record.rounds:
        return _("Save the first game first.")
    if not ur.entry_of(record).is_empty():
        return _("Save or cancel the game being entered first.")
    return _("Fix the errors first.") if result.has_errors else ""
