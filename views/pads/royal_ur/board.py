"""The Ur board drawn for tapping: 8 × 3 squares with their dots, Rosettes and Doubles marked,
the loser's counters stacked on the squares where they stood."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import royal_ur as ur
from views import theme
from views.pads.pad.changes import Changes
from views.words.lang import _, p_
from views.pads.royal_ur.state import COLUMNS, Cell, board_cells, counters_on, dots, square_label

# A board's own colours (the same in light and dark mode, like the wooden board on the table).
WOOD = "#E9D5AE"
WOOD_EDGE = "#8D6E63"
LAPIS = "#2B4C9B"
INK = "#3E2723"
COUNTER = "#212121"
GAP = 2


SQUARE = 40  # the least side of a square a finger hits without a second look
NARROW = 32  # the least width of a square as tall as a key: a 320 px phone's eighth column is whole


def square_for(width: float) -> tuple[int, int]:
    """(width, height) of a square on a board whose squares and gaps take `width` px: 8 squares,
    40-64 px a side; where 8 squares of 40 px do not fit (a 320 px phone: 35 px), narrower but as tall as
    a key (theme.TAP), like a phone keyboard's keys: the whole board in view, the eighth column too (#55:
    it was a sliver at the screen's edge), and still a finger's tap."""
    across = int((width - (COLUMNS - 1) * GAP) // COLUMNS)
    if across >= SQUARE:
        return min(64, across), min(64, across)
    return max(NARROW, across), theme.TAP


def letter_size(letter: str, side: int) -> int:
    """S's or H's size in a square `side` px wide, inside its 2 px border: 15, or smaller where the
    language's letter is wider than a 35 px square's 31 px."""
    return max(9, min(15, int((side - 6) / (theme.text_width(letter, 1.0) * 1.1))))


def _dot_row(n: int, colour: str) -> ft.Control:
    dot = 7 if n <= 4 else 6
    return ft.Row([ft.Container(width=dot, height=dot, bgcolor=colour, border_radius=dot) for _unused in range(n)],
                  spacing=2, alignment=ft.MainAxisAlignment.CENTER, tight=True, wrap=True, run_spacing=2)


class Board:
    """await on_add(pos) and on_take(pos) are called with a route position of the loser."""

    def __init__(self, on_add, on_take):
        self.on_add = on_add
        self.on_take = on_take
        self.side = self.height = 48
        self.squares: dict[int, ft.Container] = {}      # loser's route position -> square
        self.stacks: dict[int, ft.Container] = {}       # the counter disc on a square
        self.labels: dict[int, ft.Semantics] = {}
        self.dot_rows: dict[tuple[int, int], ft.Container] = {}
        self.gap_text: dict[str, ft.Text] = {}
        self.letters: list[ft.Text] = []  # S and H: their size follows the squares' width
        self.cells: list[ft.Container] = []
        rows = []
        for row in range(3):
            rows.append(ft.Row([self._cell(c) for c in board_cells() if c.row == row], spacing=GAP, tight=True))
        self.control = ft.Container(ft.Column(rows, spacing=GAP, tight=True), padding=ft.Padding.all(4),
                                    bgcolor=WOOD_EDGE, border_radius=ft.BorderRadius.all(8))

    def _cell(self, cell: Cell) -> ft.Container:
        if cell.kind == "gap":
            box = ft.Container(width=self.side, height=self.height)
        elif cell.kind in ("start", "home"):
            if cell.kind == "start":
                # TRANSLATORS: Royal Game of Ur: the letter of the start space, where counters wait to
                # enter the board ("On S", "Counters on S" say it too): one letter.
                initial = p_("Ur board space", "S")
            else:
                # TRANSLATORS: Royal Game of Ur: the letter of the home space, where counters that went
                # round the board end ("Home"): one letter.
                initial = p_("Ur board space", "H")
            letter = ft.Text(initial, size=letter_size(initial, self.side), weight=ft.FontWeight.BOLD, color=INK,
                             data=initial)
            self.letters.append(letter)
            count = ft.Text("", size=15, weight=ft.FontWeight.BOLD, color=INK)
            self.gap_text[cell.kind] = count
            box = ft.Container(ft.Column([letter, count], spacing=0, tight=True,
                                         horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                               width=self.side, height=self.height, alignment=ft.Alignment.CENTER,
                               border=ft.Border.all(2, WOOD), border_radius=ft.BorderRadius.all(6))
        else:
            box = self._square(cell)
        self.cells.append(box)
        return box

    def _square(self, cell: Cell) -> ft.Container:
        mine = cell.kind == "square"
        bg = LAPIS if cell.rosette else WOOD
        top = ft.Container(height=16, alignment=ft.Alignment.CENTER)
        self.dot_rows[(cell.row, cell.pos)] = top
        if cell.rosette:
            top.content = ft.Icon(ft.Icons.FILTER_VINTAGE, color="#FFD54F", size=16)
        # TRANSLATORS: Royal Game of Ur: the letter marking a Doubles square (landing there moves the same counter again): one letter.
        mark = ft.Text(p_("Ur board square", "D") if cell.double else "", size=10, weight=ft.FontWeight.BOLD,
                       color=INK)
        stack = ft.Container(width=24, height=24, border_radius=12, alignment=ft.Alignment.CENTER,
                             bgcolor=COUNTER, visible=False,
                             content=ft.Text("", size=13, weight=ft.FontWeight.BOLD, color="#FFFFFF"))
        body = ft.Column([top, ft.Row([stack], alignment=ft.MainAxisAlignment.CENTER, tight=True), mark],
                         spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        border = ft.Border.all(3, INK) if cell.double else None
        if not mine:  # the winner's own row: drawn as on the board, not part of the loser's route
            return ft.Container(body, width=self.side, height=self.height, bgcolor=bg, opacity=0.45,
                                border_radius=ft.BorderRadius.all(6), border=border,
                                alignment=ft.Alignment.CENTER)
        label = ft.Semantics(label=_("Square {square}", square=cell.pos), button=True, exclude_semantics=True,
                             content=body)
        square = ft.Container(label, width=self.side, height=self.height, bgcolor=bg, border=border,
                              border_radius=ft.BorderRadius.all(6), alignment=ft.Alignment.CENTER, ink=theme.KEY_INK,
                              on_click=partial(self._tapped, cell.pos),
                              on_long_press=partial(self._held, cell.pos))
        self.squares[cell.pos] = square
        self.stacks[cell.pos] = stack
        self.labels[cell.pos] = label
        return square

    async def _tapped(self, pos: int, e) -> None:
        await self.on_add(pos)

    async def _held(self, pos: int, e) -> None:
        await self.on_take(pos)

    def set_size(self, size: tuple[int, int]) -> bool:
        """Each square `size` (width, height) px (square_for)."""
        if size == (self.side, self.height):
            return False
        self.side, self.height = size
        for box in self.cells:
            box.width, box.height = size
        for letter in self.letters:
            letter.size = letter_size(letter.data, self.side)
        return True

    def fill_dots(self, ch: Changes, record: ur.Record) -> None:
        """The dots of every square by the owner's map (the map changes rarely)."""
        for (row, pos), top in self.dot_rows.items():
            if pos in ur.ROSETTES:
                continue
            n = dots(record, pos)
            if getattr(top, "data", None) != n:
                top.data = n
                top.content = _dot_row(n, INK)
                ch.add(top)

    def fill(self, ch: Changes, record: ur.Record, entry: ur.Entry, enabled: bool) -> None:
        for pos, square in self.squares.items():
            n = counters_on(entry, pos)
            stack = self.stacks[pos]
            ch.set(stack, visible=n > 0)
            ch.set(stack.content, value=str(n) if n else "")
            ch.set(self.labels[pos], label=square_label(record, pos, entry))
            ch.set(square, disabled=not enabled)
        ch.set(self.gap_text["start"], value=str(entry.start) if entry.start else "")
        ch.set(self.gap_text["home"], value=str(entry.home) if entry.home else "")
