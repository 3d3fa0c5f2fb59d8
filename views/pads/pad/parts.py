"""Controls every pad draws the same way: the score strip, standings, warnings, big steppers."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import Result
from views import theme
from views.words import lang
from views.pads.pad.changes import Changes
from views.words.lang import _
from views.pads.pad import picking
from views.pads.pad.words import signed


def named_key(label: str, icon, on_click, width: float, colour=None) -> ft.Container:
    """A big key that names a player ('Susan went out', 'Ann won'), `width` px wide: its words
    wrap between words and take a smaller size before one would be cut (#33: 'Susan went ou'
    at 360 px, German at extra-large text)."""
    room = max(48.0, width - 22 - 6 - 2 * 8 - 2 * 2)  # the icon, the gap, the padding, the border
    size = theme.fitting(label, room, keys=("BODY", "SMALL"), lines=2)
    if theme.lines_of(label, room / 1.1, size) is None:  # a word as wide as the key ("gewonnen"): smaller
        size = theme.size_to_fit(label, room, "SMALL")
    text = ft.Text(label, size=size,
                   weight=ft.FontWeight.BOLD, color=colour, max_lines=3, text_align=ft.TextAlign.CENTER)
    return ft.Container(
        ft.Semantics(label=label, button=True, exclude_semantics=True, content=ft.Row(
            [ft.Container(height=40), ft.Icon(icon, size=22, color=colour), ft.Container(text, expand=True)],
            spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)),  # 40 + 2 × 8: a key at least 56 high
        expand=True, border_radius=ft.BorderRadius.all(12), alignment=ft.Alignment.CENTER,
        padding=ft.Padding.symmetric(horizontal=8, vertical=8),
        border=ft.Border.all(2, ft.Colors.PRIMARY), ink=True, on_click=on_click)


def place_row(place: int, name: str, total: int | str) -> ft.Control:
    """One line of standings, one node for a screen reader: '1. Ann: 62'."""
    shown = signed(total) if isinstance(total, int) else total
    # TRANSLATORS: one line of the standings read out: place, player's name, total ("1. Ann: 62").
    label = _("{place}. {name}: {total}", place=place, name=name, total=shown)
    # TRANSLATORS: a place in the standings ("1."), as the line read out above writes it.
    numbered = _("{place}.", place=place)
    # One width for every line, room for "10." or "10位" (at most ten players).
    place_width = max(32, round(theme.text_width(_("{place}.", place=10), theme.BODY)) + 4)
    return ft.Semantics(label=label, exclude_semantics=True, container=True,
                        content=ft.Row([ft.Text(numbered, size=theme.BODY, width=place_width),
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


WIDE_BAR = 600  # from this width the reason sits beside the buttons, else above them


def action_bar(reason: ft.Control, *buttons: ft.Control) -> ft.Container:
    """The pad's next step, below the part that scrolls: on screen whatever the phone, the text
    size or how long the game's log is. `reason` says why a greyed button cannot act now.
    lay_out_bar places the reason for the width (PadScreen does it on every resize)."""
    row = ft.Row(list(buttons), wrap=True, spacing=8, run_spacing=6, alignment=ft.MainAxisAlignment.END)
    bar = ft.Container(padding=ft.Padding.only(left=8, right=8, top=4, bottom=6),
                       border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))
    bar.data = [reason, row, None]
    lay_out_bar(bar, None)
    return bar


def lay_out_bar(bar: ft.Container, width) -> bool:
    """Beside the buttons when the screen is wide; above them on a phone upright (squeezed
    beside them, a reason took four lines and broke 'Save game 1' in two). True if it changed."""
    reason, row, was = bar.data
    beside = bool(width and width >= WIDE_BAR)
    if was == beside:
        return False
    bar.data[2] = beside
    reason.expand, row.expand = (2, 3) if beside else (None, None)
    bar.content = ft.Row([reason, row], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER) if beside \
        else ft.Column([reason, row], spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    return True


def bar_reason() -> ft.Text:
    return ft.Text("", size=theme.SMALL, color=ft.Colors.ERROR, visible=False, text_align=ft.TextAlign.END)


class NumberSheet:
    """A grid of numbers in a bottom sheet: the count read off the table is one tap, with no
    keyboard popping up (as Nokosu's trick keypad). on_pick(n) is awaited after it closes."""

    def __init__(self, page: ft.Page, title: str, value: int, low: int, high: int, on_pick):
        self.page, self.value, self.low, self.high, self.on_pick = page, value, low, high, on_pick
        self.values = picking.choices(value, low, high)
        self.grid = ft.Column(spacing=6)
        self.lower = ft.TextButton(_("Lower numbers"), icon=ft.Icons.CHEVRON_LEFT, height=theme.TAP,
                                   on_click=lambda e: self.turn(-1))
        self.higher = ft.TextButton(_("Higher numbers"), icon=ft.Icons.CHEVRON_RIGHT, height=theme.TAP,
                                    on_click=lambda e: self.turn(1))
        self.pages = ft.Row([self.lower, self.higher], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True)
        self.draw()
        self.sheet = ft.BottomSheet(ft.Container(ft.Column([
            ft.Row([ft.Text(title, size=theme.LARGE, weight=ft.FontWeight.BOLD, expand=True),
                    ft.TextButton(_("Cancel"), height=theme.TAP, on_click=lambda e: self.page.pop_dialog())],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            self.grid, self.pages], tight=True, spacing=8),
            padding=ft.Padding.only(left=16, right=16, top=8, bottom=16)),
            scrollable=True, show_drag_handle=True)

    def draw(self) -> None:
        per_row = picking.columns(self.page.width, len(self.values))
        keys = [self._key(n) for n in self.values]
        rows = []
        for k in range(0, len(keys), per_row):
            row = keys[k:k + per_row]
            row += [ft.Container(expand=True) for _unused in range(per_row - len(row))]
            rows.append(ft.Row(row, spacing=6))
        self.grid.controls = rows
        self.lower.visible = self.values[0] > self.low
        self.higher.visible = self.values[-1] < self.high
        self.pages.visible = self.lower.visible or self.higher.visible

    def _key(self, n: int) -> ft.Control:
        on = n == self.value
        return ft.Container(
            ft.Semantics(label=str(n), button=True, selected=on, exclude_semantics=True,
                         content=ft.Text(str(n), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                                         color=ft.Colors.ON_PRIMARY if on else ft.Colors.ON_PRIMARY_CONTAINER)),
            expand=True, height=theme.TAP, border_radius=ft.BorderRadius.all(12), alignment=ft.Alignment.CENTER,
            bgcolor=ft.Colors.PRIMARY if on else ft.Colors.PRIMARY_CONTAINER, ink=theme.KEY_INK,
            on_click=partial(self.picked, n))

    def open(self) -> None:
        self.page.show_dialog(self.sheet)

    def turn(self, step: int) -> None:
        self.values = picking.page_of(self.values, self.low, self.high, step)
        self.draw()
        self.sheet.update()

    async def picked(self, n: int, e) -> None:
        self.page.pop_dialog()
        if n != self.value:
            await self.on_pick(n)


class Stepper:
    """A count with big − / + buttons, named for a screen reader ('More home', 'Fewer home'),
    and (given `pick`, the name of its button) a number sheet to set it in two taps."""

    def __init__(self, title: str, more: str, fewer: str, on_step, width: int | None = None,
                 pick: str | None = None, sheet_title: str | None = None, compact: bool = False,
                 beside: bool = False):
        """on_step(delta, event) is called with −1 or +1, or the difference to a picked number
        (it may be async). compact: the number itself opens the sheet (no fourth button).
        beside: the title on the left of the buttons, one stepper a line (three side by side
        did not fit a phone: their + was cut at 360 px)."""
        self.on_step = on_step
        self.sheet_title = sheet_title or title or pick
        self.range = (0, 0, 0)
        self.value = ft.Text("0", size=theme.LARGE, weight=ft.FontWeight.BOLD, width=36,
                             text_align=ft.TextAlign.CENTER)
        self.title = ft.Text(title, size=theme.SMALL, text_align=ft.TextAlign.CENTER, no_wrap=True)
        self.minus = theme.icon_button(ft.Icons.REMOVE, fewer, partial(on_step, -1))
        self.plus = theme.icon_button(ft.Icons.ADD, more, partial(on_step, 1))
        if pick and compact:
            self.pick = ft.Container(ft.Semantics(label=pick, button=True, exclude_semantics=True, content=self.value),
                                     height=theme.TAP, border_radius=ft.BorderRadius.all(10), ink=True,
                                     alignment=ft.Alignment.CENTER, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                                     on_click=self.on_pick)
            middle = [self.pick]
        else:
            self.pick = theme.icon_button(ft.Icons.DIALPAD, pick, self.on_pick) if pick else None
            middle = [self.value]
        keys = ft.Row([self.minus, *middle, self.plus, *([self.pick] if pick and not compact else [])],
                      spacing=0, tight=True, alignment=ft.MainAxisAlignment.CENTER)
        if beside:
            self.title.size, self.title.no_wrap, self.title.text_align = theme.BODY, False, ft.TextAlign.START
            body = ft.Row([ft.Container(self.title, expand=True), keys], spacing=8,
                          vertical_alignment=ft.CrossAxisAlignment.CENTER)
        else:
            body = ft.Column([self.title, keys], spacing=0, tight=True,
                             horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        self.control = ft.Container(
            body, width=width, border_radius=ft.BorderRadius.all(12), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            padding=ft.Padding.only(left=12, top=2, bottom=2) if beside else ft.Padding.symmetric(vertical=4))

    def fill(self, ch: Changes, value: int, low: int, high: int, enabled: bool = True) -> None:
        self.range = (value, low, high)
        ch.set(self.value, value=str(value))
        ch.set(self.minus, disabled=not enabled or value <= low)
        ch.set(self.plus, disabled=not enabled or value >= high)
        if self.pick is not None:
            ch.set(self.pick, disabled=not enabled or low >= high)

    async def on_pick(self, e) -> None:
        value, low, high = self.range
        NumberSheet(e.page, self.sheet_title, value, low, high, self.set_to).open()

    async def set_to(self, n: int) -> None:
        done = self.on_step(n - self.range[0], None)
        if hasattr(done, "__await__"):
            await done


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

    @staticmethod
    def _said(name: str, total: str, lead: bool, here: bool, todo: bool) -> str:
        """A cell's accessible name: 'Ann: 62, leader, entering now' (here and todo never both)."""
        # TRANSLATORS: a player's cell of the score strip read out: name, total and what holds
        # for the player ("leader": best total; "entering now": at the pad; "still to enter": this round).
        name = lang.name(name, isolated=False)  # heard, never drawn: no isolates (lang.name)
        if lead and here:
            return _("{name}: {total}, leader, entering now", name=name, total=total)
        if lead and todo:
            return _("{name}: {total}, leader, still to enter", name=name, total=total)
        if lead:
            return _("{name}: {total}, leader", name=name, total=total)
        if here:
            return _("{name}: {total}, entering now", name=name, total=total)
        if todo:
            return _("{name}: {total}, still to enter", name=name, total=total)
        return _("{name}: {total}", name=name, total=total)

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
            ch.set(label, label=self._said(s.name, signed(s.total), lead, s.id == here, todo))
            # Still to enter: an empty outlined card; entered: a filled one; at the pad: a thick outline.
            ch.set(cell, bgcolor=None if todo else ft.Colors.TERTIARY_CONTAINER if lead
                   else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                   border=ft.Border.all(3, ft.Colors.PRIMARY) if s.id == here
                   else ft.Border.all(1, ft.Colors.OUTLINE) if todo else None)
