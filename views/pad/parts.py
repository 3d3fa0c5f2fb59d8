"""Controls every pad draws the same way: the score strip, standings, warnings, big steppers."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import Result
from views import theme
from views.changes import Changes
from views.pad.words import signed


def place_row(place: int, name: str, total: int | str) -> ft.Control:
    """One line of standings, one node for a screen reader: '1. Ann: 62'."""
    shown = signed(total) if isinstance(total, int) else total
    return ft.Semantics(label=f"{place}. {name}: {shown}", exclude_semantics=True, container=True,
                        content=ft.Row([ft.Text(f"{place}.", size=theme.BODY, width=32),
                                        ft.Text(name, size=theme.BODY, expand=True, no_wrap=True,
                                                overflow=ft.TextOverflow.ELLIPSIS),
                                        ft.Text(shown, size=theme.BODY, weight=ft.FontWeight.BOLD)]))


def standings(result: Result) -> list[ft.Control]:
    """Best first, ties sharing a place (competition ranking from scoring), seat order within."""
    ordered = sorted(result.players, key=lambda s: s.place)
    return [place_row(s.place, s.name, s.total) for s in ordered]


def warning_row(message: str, error: bool = False) -> ft.Control:
    return ft.Row([ft.Icon(ft.Icons.ERROR_OUTLINE if error else ft.Icons.WARNING_AMBER_ROUNDED,
                           color=ft.Colors.ERROR, size=20),
                   ft.Text(message, size=theme.SMALL, expand=True)],
                  vertical_alignment=ft.CrossAxisAlignment.START)


class Stepper:
    """A count with big − / + buttons, named for a screen reader ('More home', 'Fewer home')."""

    def __init__(self, title: str, more: str, fewer: str, on_step, width: int | None = None):
        """on_step(delta, event) is called with −1 or +1 (it may be async)."""
        self.value = ft.Text("0", size=theme.LARGE, weight=ft.FontWeight.BOLD, width=36,
                             text_align=ft.TextAlign.CENTER)
        self.title = ft.Text(title, size=theme.SMALL, text_align=ft.TextAlign.CENTER, no_wrap=True)
        self.minus = theme.icon_button(ft.Icons.REMOVE, fewer, partial(on_step, -1))
        self.plus = theme.icon_button(ft.Icons.ADD, more, partial(on_step, 1))
        self.control = ft.Container(
            ft.Column([self.title, ft.Row([self.minus, self.value, self.plus], spacing=0, tight=True,
                                          alignment=ft.MainAxisAlignment.CENTER)],
                      spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            width=width, border_radius=ft.BorderRadius.all(12), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            padding=ft.Padding.symmetric(vertical=4))

    def fill(self, ch: Changes, value: int, low: int, high: int, enabled: bool = True) -> None:
        ch.set(self.value, value=str(value))
        ch.set(self.minus, disabled=not enabled or value <= low)
        ch.set(self.plus, disabled=not enabled or value >= high)


class Strip:
    """Every player's running total: the leader crowned, the player at the pad outlined."""

    def __init__(self) -> None:
        self.control = ft.Row(scroll=ft.ScrollMode.AUTO, spacing=6)

    def _cell(self, name: str) -> ft.Container:
        crown = ft.Icon(ft.Icons.EMOJI_EVENTS, size=16, semantics_label="Leader", visible=False)
        label = ft.Text(name, size=theme.SMALL, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
        total = ft.Text("0", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        cell = ft.Container(
            ft.Column([crown, label, total], spacing=0, tight=True,
                      horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=ft.BorderRadius.all(10))
        cell.data = (crown, label, total)
        return cell

    def fill(self, ch: Changes, result: Result, started: bool, here: str | None = None) -> None:
        if len(self.control.controls) != len(result.players):
            ch.set_children(self.control, [self._cell(s.name) for s in result.players])
        for s, cell in zip(result.players, self.control.controls):
            crown, name, total = cell.data
            lead = s.place == 1 and started
            ch.set(crown, visible=lead)
            ch.set(name, value=s.name, weight=ft.FontWeight.BOLD if s.id == here else None)
            ch.set(total, value=signed(s.total))
            ch.set(cell, bgcolor=ft.Colors.TERTIARY_CONTAINER if lead else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                   border=ft.Border.all(2, ft.Colors.PRIMARY) if s.id == here else None)
