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
    """Every player's running total, all in view at once: one row when the cells fit, else
    two (a table of ten on a phone upright). The leader is crowned, the player at the pad
    outlined, players still to enter this round drawn as empty outlined cards; a cell is tapped to jump to that
    player (when the pad allows it). Long names are cut with an ellipsis, never the total;
    the accessible name carries the full name."""

    MIN_CELL = 76   # narrowest cell: a total of three digits and a few letters of the name
    GAP = 4

    def __init__(self, on_pick=None):
        self.on_pick = on_pick
        self.width = 412
        self.per_row = 0
        self.control = ft.Column(spacing=self.GAP)
        self.cells: dict[str, tuple] = {}

    def set_width(self, width) -> None:
        if width:
            self.width = width

    def _cell(self, pid: str) -> ft.Container:
        crown = ft.Icon(ft.Icons.EMOJI_EVENTS, size=16, visible=False)
        name = ft.Text("", size=13, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS,
                       text_align=ft.TextAlign.CENTER)
        total = ft.Text("0", size=theme.LARGE, weight=ft.FontWeight.BOLD, no_wrap=True)
        label = ft.Semantics(
            button=self.on_pick is not None, exclude_semantics=True, container=True,
            content=ft.Column([name, ft.Row([crown, total], spacing=2, tight=True,
                                            alignment=ft.MainAxisAlignment.CENTER)],
                              spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
        cell = ft.Container(label, expand=True, padding=ft.Padding.symmetric(horizontal=6, vertical=4),
                            border_radius=ft.BorderRadius.all(10), alignment=ft.Alignment.CENTER,
                            ink=self.on_pick is not None,
                            on_click=partial(self._picked, pid) if self.on_pick else None)
        self.cells[pid] = (cell, label, crown, name, total)
        return cell

    async def _picked(self, pid: str, e) -> None:
        await self.on_pick(pid)

    def _lay_out(self, ch: Changes, ids: list[str]) -> None:
        n = len(ids)
        fits = n * self.MIN_CELL + (n - 1) * self.GAP <= self.width - 8
        per_row = n if fits else (n + 1) // 2
        if per_row == self.per_row and list(self.cells) == ids:
            return
        self.per_row = per_row
        cells = [self.cells[pid][0] if pid in self.cells else self._cell(pid) for pid in ids]
        rows = [ft.Row(cells[k:k + per_row], spacing=self.GAP) for k in range(0, n, per_row)]
        if n > per_row and n % per_row:  # keep the cells of the short row as wide as the others
            rows[-1].controls.append(ft.Container(expand=per_row - n % per_row))
        ch.set_children(self.control, rows)

    def fill(self, ch: Changes, result: Result, started: bool, here: str | None = None,
             pending=frozenset()) -> None:
        self._lay_out(ch, [s.id for s in result.players])
        for s in result.players:
            cell, label, crown, name, total = self.cells[s.id]
            lead = s.place == 1 and started
            todo = s.id in pending and s.id != here
            ch.set(crown, visible=lead)
            ch.set(name, value=s.name, weight=ft.FontWeight.BOLD if s.id == here else None)
            ch.set(total, value=signed(s.total))
            words = [f"{s.name}: {signed(s.total)}"] + (["leader"] if lead else []) + \
                (["entering now"] if s.id == here else []) + (["still to enter"] if todo else [])
            ch.set(label, label=", ".join(words))
            # Still to enter: an empty outlined card; entered: a filled one; at the pad: a thick outline.
            ch.set(cell, bgcolor=None if todo else ft.Colors.TERTIARY_CONTAINER if lead
                   else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                   border=ft.Border.all(3, ft.Colors.PRIMARY) if s.id == here
                   else ft.Border.all(1, ft.Colors.OUTLINE) if todo else None)
