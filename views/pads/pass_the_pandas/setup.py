"""The new-game screen's part for Pass the Pandas: the variant, the target, and the dice each
player starts with for the number of players seated."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import pass_the_pandas as ptp
from views import theme
from views.pads.pad.changes import Changes
from views.words.lang import N_, _
from views.pads.pad.parts import Stepper
from views.pads.pass_the_pandas.state import setup_line

TARGETS = (20, 30, 50)
TARGET_LOW, TARGET_HIGH, TARGET_STEP = 5, 200, 5  # as in Settings
# (variant, name, what it is): marked here, translated where shown.
VARIANTS = (
    # TRANSLATORS: Pass the Pandas' variants: "Panda-monium" is the game's own name (keep it where the edition does)
    ("panda-monium", N_("Panda-monium"), N_("Points for the dice still in play, to a target")),
    # TRANSLATORS: Pass the Pandas: the basic game; "first out": the first player to have no dice left
    ("basic", N_("Basic"), N_("First out wins the hand; hands won are counted")))


class SetupForm(ft.Column):
    """Edits `settings` in place; NewGame calls seat_count(n) when the seats change."""

    def __init__(self, settings: dict):
        super().__init__(spacing=8)
        self.settings = settings
        defaults = ptp.Settings()
        settings.setdefault("variant", defaults.variant)
        settings.setdefault("target", defaults.target)
        self.cards = {v: self._variant_card(v, _(title), _(what)) for v, title, what in VARIANTS}
        # TRANSLATORS: Pass the Pandas: the points that end the match
        self.target = Stepper(_("Target"), _("More target"), _("Fewer target"), self.on_step, width=148)
        self.target.title.visible = False  # the section's heading says it (read once, not "Target Target")
        self.chips = ft.Row(spacing=6)
        self.target_part = ft.Column([
            theme.heading(_("Target"), size=theme.BODY),
            ft.Row([self.target.control, self.chips], wrap=True, spacing=6, run_spacing=8,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Text(_("The match ends after the hand in which someone reaches it."), size=theme.SMALL)], spacing=6)
        self.dice = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.controls = [
            theme.heading(_("Variant"), size=theme.BODY),
            # One under the other, the width of the screen: side by side, "Panda-monium" was cut to
            # "Panda-moni" at the largest text, and the German descriptions needed a fourth line (#45).
            ft.Column(list(self.cards.values()), spacing=8),
            self.target_part,
            ft.Container(ft.Row([ft.Icon(ft.Icons.CASINO_OUTLINED, size=28), ft.Container(self.dice, expand=True)],
                                spacing=12),
                         padding=ft.Padding.all(12), border_radius=ft.BorderRadius.all(12),
                         bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH),
        ]
        self.fill()
        self.seat_count(0)

    def _variant_card(self, value: str, title: str, what: str) -> ft.Container:
        return ft.Container(
            ft.Semantics(label=title, button=True, exclude_semantics=True, content=ft.Column([
                ft.Row([ft.Icon(ft.Icons.RADIO_BUTTON_UNCHECKED, size=22),
                        ft.Text(title, size=theme.BODY, weight=ft.FontWeight.BOLD, expand=True)], spacing=6),
                ft.Text(what, size=theme.SMALL)], spacing=4, tight=True)),
            padding=ft.Padding.all(12), border_radius=ft.BorderRadius.all(12), ink=True,
            on_click=partial(self.on_variant, value))

    def fill(self) -> None:
        ch = Changes()
        chosen = self.settings["variant"]
        for value, card in self.cards.items():
            on = value == chosen
            card.bgcolor = ft.Colors.SECONDARY_CONTAINER if on else None
            card.border = ft.Border.all(2, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE_VARIANT)
            card.content.checked = on
            card.content.content.controls[0].controls[0].icon = (ft.Icons.RADIO_BUTTON_CHECKED if on
                                                                 else ft.Icons.RADIO_BUTTON_UNCHECKED)
        target = self.settings["target"]
        self.target.fill(ch, target, TARGET_LOW, TARGET_HIGH)
        self.chips.controls = [theme.choice(str(t), _("Target {n}", n=t), t == target, partial(self.on_choice, t))
                               for t in TARGETS]
        self.target_part.visible = chosen == "panda-monium"

    def seat_count(self, n: int) -> None:
        self.dice.value = setup_line(n)

    def on_variant(self, value: str, e) -> None:
        self.settings["variant"] = value
        self.fill()
        self.update()

    def on_step(self, delta: int, e) -> None:
        target = self.settings["target"] + TARGET_STEP * delta
        self.settings["target"] = max(TARGET_LOW, min(TARGET_HIGH, target))
        self.fill()
        self.update()

    def on_choice(self, target: int, e) -> None:
        self.settings["target"] = target
        self.fill()
        self.update()
