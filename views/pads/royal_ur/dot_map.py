"""The dot map sheet: how many dots each square of the owner's board shows. Kept games keep
what they scored; games entered from now on score by this map."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import royal_ur as ur
from views import theme
from views.pads.pad.changes import Changes
from views.words.lang import _
from views.pads.pad.parts import Stepper

MOST_DOTS = 9


class DotMapDialog:
    """await on_save(board) is called with the 14 values once the owner taps Save."""

    def __init__(self, page: ft.Page, board: tuple[int, ...], is_default: bool, on_save):
        self.page = page
        self.board = list(board)
        self.on_save = on_save
        self.steppers: dict[int, Stepper] = {}
        rows = []
        for pos in range(1, ur.ROUTE + 1):
            if pos in ur.ROSETTES:
                # TRANSLATORS: Royal Game of Ur: a Rosette (the game's flower square) always scores 1 point.
                rosette = _("Rosette: scores 1")
                rows.append(ft.Row([ft.Text(_("Square {square}", square=pos), size=theme.BODY, expand=True),
                                    ft.Text(rosette, size=theme.BODY, color=theme.NOTE)], height=theme.TAP))
                continue
            # TRANSLATORS: Royal Game of Ur: above the count of dots printed on one square (lower case, short).
            stepper = Stepper(_("dots"), _("More dots on square {square}", square=pos),
                              _("Fewer dots on square {square}", square=pos), partial(self.on_step, pos))
            self.steppers[pos] = stepper
            if pos in ur.DOUBLES:
                # TRANSLATORS: Royal Game of Ur: "Doubles": the game's term for a square that moves the
                # same counter again.
                square = _("Square {square} (Doubles)", square=pos)
            else:
                square = _("Square {square}", square=pos)
            rows.append(ft.Row([ft.Text(square, size=theme.BODY, expand=True), stepper.control]))
        # TRANSLATORS: Royal Game of Ur: S is the start space (the letter on the board).
        note = _("This is the default map. Check it against your board: count the dots on each square of "
                 "one player's route, from the square next to S.") if is_default else \
            _("Your board's dots, square by square along one player's route from S.")
        self.dialog = ft.AlertDialog(
            # TRANSLATORS: Royal Game of Ur: how many dots each square of the owner's board shows.
            title=ft.Text(_("Dot map"), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column([ft.Text(note, size=theme.SMALL), *rows], tight=True, scroll=ft.ScrollMode.AUTO,
                              spacing=4, width=380),
            actions=[ft.TextButton(_("Default map"), on_click=self.on_default),
                     ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog()),
                     ft.FilledButton(_("Save the dot map"), on_click=self.on_save_clicked)])
        self.fill()

    def open(self) -> None:
        self.page.show_dialog(self.dialog)

    def fill(self) -> Changes:
        ch = Changes()
        for pos, stepper in self.steppers.items():
            stepper.fill(ch, self.board[pos - 1], 1, MOST_DOTS)
        return ch

    def on_step(self, pos: int, delta: int, e) -> None:
        self.board[pos - 1] = max(1, min(MOST_DOTS, self.board[pos - 1] + delta))
        ch = self.fill()
        if ch.controls:
            self.page.update(*ch.controls)

    def on_default(self, e) -> None:
        self.board = list(ur.DEFAULT_BOARD)
        ch = self.fill()
        if ch.controls:
            self.page.update(*ch.controls)

    async def on_save_clicked(self, e) -> None:
        self.page.pop_dialog()
        await self.on_save(list(self.board))
