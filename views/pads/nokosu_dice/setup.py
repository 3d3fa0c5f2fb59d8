"""The new-game screen's part for Nokosu Dice: the zero bonus, and the set-up for the number of
players seated (cards each, dice drawn, dice in the middle, tricks per round)."""
from __future__ import annotations

import flet as ft

from scoring import nokosu_dice as nk
from views import theme
from views.pads.pad.changes import Changes
from views.words.lang import _, n_
from views.pads.nokosu_dice.state import setup_lines
from views.pads.pad.parts import Stepper

ZERO_BONUS_MAX = 50  # as in Settings


class SetupForm(ft.Column):
    """Edits `settings` in place; NewGame calls seat_count(n) when the seats change."""

    def __init__(self, settings: dict):
        super().__init__(spacing=8)
        self.settings = settings
        settings.setdefault("zero_bonus", nk.Settings().zero_bonus)
        # TRANSLATORS: Nokosu Dice: the bonus for making a declaration of zero tricks
        self.zero = Stepper(_("Zero bonus"), _("More zero bonus"), _("Fewer zero bonus"), self.on_zero, width=180)
        self.aid_title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.aid = ft.Column(spacing=2)
        self.controls = [
            theme.heading(_("Zero bonus"), size=theme.BODY),
            # The words under the stepper: beside it a word of them had 106 px at 320 px (#45).
            self.zero.control,
            ft.Text(_("added for making a zero declaration, on top of 10 × each player who missed"), size=theme.SMALL),
            ft.Container(ft.Column([self.aid_title, self.aid], spacing=6), padding=ft.Padding.all(12),
                         border_radius=ft.BorderRadius.all(12), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH),
        ]
        self.fill_zero()
        self.seat_count(0)

    def fill_zero(self) -> None:
        self.zero.fill(Changes(), self.settings["zero_bonus"], 0, ZERO_BONUS_MAX)

    def seat_count(self, n: int) -> None:
        lines = setup_lines(n)
        low, high = nk.PLAYERS
        self.aid_title.value = n_("Set-up for {n} player", "Set-up for {n} players", n) if lines else _("Set-up")
        self.aid.controls = [
            ft.Row([ft.Text(what, size=theme.SMALL, expand=True), ft.Text(value, size=theme.BODY,
                                                                           weight=ft.FontWeight.BOLD)])
            for what, value in lines] or [ft.Text(_("Seat {low} to {high} players to see the cards and dice "
                                                    "each round needs.", low=low, high=high), size=theme.SMALL)]

    def on_zero(self, delta: int, e) -> None:
        self.settings["zero_bonus"] = max(0, min(ZERO_BONUS_MAX, self.settings["zero_bonus"] + delta))
        self.fill_zero()
        self.update()
