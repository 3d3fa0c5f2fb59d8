"""The paper sheet of one player: rounds × Yellow … Pink, Total; tap a round to edit that hand.
Below it, every player's round totals side by side."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import Result
from scoring import panda_royale as pr
from views import theme
from views.pads.pad.changes import Changes
from views.words.lang import _
from views.pads.panda_royale.state import sheet_row, signed
from views.pads.panda_royale.dice import letter_badge
from views.pads.pad import side_table

COLUMNS = pr.COLOURS  # yellow purple blue red green clear pink
CELL_W = 1  # the colours share the sheet's width (the round and total columns take their numbers' and heads')
CHIPS_UP_TO = 4  # players shown as chips above the sheet; a bigger table gets a one-line picker


def _cell(text: str = "", width: int = CELL_W, bold: bool = False, size: int | None = None) -> ft.Text:
    return ft.Text(text, size=size or theme.SMALL, expand=width, text_align=ft.TextAlign.CENTER,
                   weight=ft.FontWeight.BOLD if bold else None, no_wrap=True)


def _fixed(text: str, width: int, bold: bool = False, size: int | None = None) -> ft.Text:
    """A cell of the every-player table, which scrolls sideways: widths of its own."""
    return ft.Text(text, size=size or theme.SMALL, width=width, text_align=ft.TextAlign.CENTER,
                   weight=ft.FontWeight.BOLD if bold else None, no_wrap=True)


def _num(value: int | None) -> str:
    return "" if value is None else signed(value)


class Sheet:
    """The sheet panel: a player picker and the player's ten rows with column totals."""

    def __init__(self, on_pick_player, on_pick_round):
        self.on_pick_player = on_pick_player
        self.on_pick_round = on_pick_round
        self.pid: str | None = None
        self._chosen = None  # the player and the names its picker was last made for
        self.players = ft.Column(spacing=0)
        # The total column as wide as its head and its largest number, the round column as "10"; the colours
        # share the rest, their swatches as large as that leaves (#56: at 320 px, German at the largest text,
        # "Gesamt" showed "Gesam" and the yellow swatch lay over "Rde.").
        room = ((getattr(theme.current_page(), "width", None) or 412) - 16)
        round_w = round(theme.text_width("10", theme.SMALL) * 1.1) + 8
        total_w = round(max(theme.text_width(_("Total"), theme.SMALL), theme.text_width("+123", theme.LARGE)) * 1.1)
        swatch = max(20, min(28, int((room - round_w - total_w) / len(COLUMNS)) - 2))
        # The round column's head is "#" (as Pass the Pandas' hands table): "Rd" took the swatch's room.
        # TRANSLATORS: the head of the sheet's round column, as short as possible ("Rd" for Round).
        header = ft.Row([ft.Text("#", size=theme.SMALL, width=round_w, text_align=ft.TextAlign.CENTER,
                                 weight=ft.FontWeight.BOLD, semantics_label=_("Rd"))]
                        + [ft.Container(letter_badge(c, swatch), expand=CELL_W, alignment=ft.Alignment.CENTER)
                           for c in COLUMNS]
                        + [_fixed(_("Total"), total_w, True)], spacing=0)
        self.cells: list[list[ft.Text]] = []
        self.rows: list[ft.Container] = []
        for i in range(pr.ROUNDS):
            cells = [_cell() for _unused in COLUMNS] + [_fixed("", total_w, True, theme.BODY)]
            row = ft.Container(
                ft.Row([ft.Text(str(i + 1), size=theme.SMALL, width=round_w, text_align=ft.TextAlign.CENTER,
                                weight=ft.FontWeight.BOLD, semantics_label=_("Round {round}", round=i + 1))] + cells,
                       spacing=0),
                padding=ft.Padding.symmetric(vertical=6), border_radius=ft.BorderRadius.all(6),
                on_click=partial(self._round_clicked, i), ink=True)
            self.cells.append(cells)
            self.rows.append(row)
        self.total_cells = [_cell(bold=True) for _unused in COLUMNS] + [_fixed("", total_w, True, theme.LARGE)]
        total_row = ft.Container(
            ft.Row([_fixed("Σ", round_w, True)] + self.total_cells, spacing=0),
            padding=ft.Padding.symmetric(vertical=8),
            border=ft.Border.only(top=ft.BorderSide(2, ft.Colors.OUTLINE)))
        self.title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD, expand=True)
        self.overview = ft.Column(spacing=0)
        self.control = ft.Column(
            # TRANSLATORS: the title of the score sheet (the paper sheet of Panda Royale).
            [ft.Row([ft.Text(_("Sheet"), size=theme.LARGE, weight=ft.FontWeight.BOLD), self.title],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER),
             self.players,
             ft.Column([header] + self.rows + [total_row], spacing=0),
             ft.Text(_("Every player, round by round"), size=theme.BODY, weight=ft.FontWeight.BOLD),
             self.overview],
            spacing=8)

    def _round_clicked(self, index: int, e) -> None:
        if self.pid is not None:
            self.on_pick_round(index, self.pid)

    def show(self, record: pr.Record, result: Result, pid: str, cursor_round: int | None,
             editable_to: int, ch: Changes | None = None) -> None:
        """Fill the whole sheet for one player: what changed is in `ch` (without one, send
        self.control afterwards)."""
        ch = ch or Changes()
        self.pid = pid
        # TRANSLATORS: beside the title "Sheet": whose sheet it is ("Sheet of Ann").
        ch.set(self.title, value=_("of {name}", name=record.name_of(pid)))
        # The picker is made again only for another player or other names: another phone's save
        # redraws the sheet, and new chips every time were a whole row sent for nothing.
        chosen = (pid, tuple((p.id, p.name) for p in record.players))
        if chosen != self._chosen:
            self._chosen = chosen
            ch.set_children(self.players, [
                ft.Row([self._player_chip(p.id, p.name, p.id == pid) for p in record.players],
                       wrap=True, spacing=6, run_spacing=6) if len(record.players) <= CHIPS_UP_TO
                else self._player_picker(record, pid)])
        for i in range(pr.ROUNDS):
            self.fill_row(ch, result, i)
            self.mark_row(ch, i, i == cursor_round, i <= editable_to)
        self.fill_totals(ch, result)
        self.fill_overview(ch, record, result)

    def _player_picker(self, record: pr.Record, pid: str) -> ft.Control:
        """One line for a big table: ‹ the player's name (a menu of every player) ›, so the
        sheet starts right under it."""
        ids = record.player_ids()
        k = ids.index(pid)
        menu = ft.PopupMenuButton(
            content=ft.Container(ft.Row([ft.Text(record.name_of(pid), size=theme.BODY, weight=ft.FontWeight.BOLD,
                                                 no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS, expand=True),
                                         ft.Icon(ft.Icons.ARROW_DROP_DOWN)], spacing=4),
                                 padding=ft.Padding.symmetric(horizontal=12), height=theme.TAP,
                                 border=ft.Border.all(1, ft.Colors.OUTLINE), border_radius=ft.BorderRadius.all(24)),
            tooltip=theme.mouse_tip(_("Choose whose sheet")), expand=True,
            items=[ft.PopupMenuItem(content=p.name, checked=p.id == pid, on_click=partial(self._player_clicked, p.id))
                   for p in record.players])
        prev_id, next_id = ids[k - 1], ids[(k + 1) % len(ids)]
        return ft.Row([
            theme.icon_button(ft.Icons.CHEVRON_LEFT, _("Previous player's sheet"),
                              partial(self._player_clicked, prev_id)),
            menu,
            theme.icon_button(ft.Icons.CHEVRON_RIGHT, _("Next player's sheet"), partial(self._player_clicked, next_id)),
        ], spacing=0)

    def _player_chip(self, pid: str, name: str, selected: bool) -> ft.Container:
        return ft.Container(
            ft.Text(name, size=theme.SMALL, weight=ft.FontWeight.BOLD if selected else None),
            padding=ft.Padding.symmetric(horizontal=14, vertical=12), border_radius=ft.BorderRadius.all(24),
            bgcolor=ft.Colors.SECONDARY_CONTAINER if selected else None,
            border=ft.Border.all(1, ft.Colors.OUTLINE), on_click=partial(self._player_clicked, pid), ink=True)

    def _player_clicked(self, pid: str, e) -> None:
        self.on_pick_player(pid)

    def fill_row(self, ch: Changes, result: Result, index: int) -> None:
        row = sheet_row(result, index, self.pid) if self.pid else None
        for k, colour in enumerate(COLUMNS):
            ch.set(self.cells[index][k], value=_num(row[colour]) if row else "")
        ch.set(self.cells[index][-1], value=_num(row["total"]) if row else "")

    def mark_row(self, ch: Changes, index: int, current: bool, editable: bool) -> None:
        ch.set(self.rows[index], bgcolor=ft.Colors.PRIMARY_CONTAINER if current else None,
               disabled=not editable)

    def fill_totals(self, ch: Changes, result: Result) -> None:
        sums = {c: 0 for c in COLUMNS}
        total = 0
        for i in range(len(result.rounds)):
            row = sheet_row(result, i, self.pid)
            if row:
                for c in COLUMNS:
                    sums[c] += row[c]
                total += row["total"]
        for k, colour in enumerate(COLUMNS):
            ch.set(self.total_cells[k], value=signed(sums[colour]))
        ch.set(self.total_cells[-1], value=signed(total))

    def _build_overview(self, record: pr.Record) -> None:
        """Rounds × players: the round column stays, the players' columns (each as wide as its name) scroll
        sideways under a fade that says more follow (#56: at 360 px six players ran off the screen with the
        round column, and "Дмитрий" showed "Дмит…")."""
        ids = record.player_ids()
        self._overview_ids = ids
        small, body = theme.SMALL, theme.BODY
        widths = [side_table.name_width(record.name_of(p), small, theme.text_width("+123", body) + 8) for p in ids]
        names = [ft.Text(record.name_of(p), size=small, width=w, text_align=ft.TextAlign.CENTER,
                         weight=ft.FontWeight.BOLD, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
                 for p, w in zip(ids, widths)]
        self.overview_cells = [[_fixed("", w) for w in widths] for _unused in range(pr.ROUNDS)]
        self.overview_totals = [_fixed("", w, True, body) for w in widths]
        first = max(34, round(theme.text_width(_("Rd"), small) * 1.1) + 6)
        line, head = round(small * 1.5), round(small * 1.5) * (2 if any(w >= 160 for w in widths) else 1) + 4
        heights = [head] + [line] * pr.ROUNDS + [round(body * 1.5) + 6]
        fixed = [_fixed(_("Rd"), first, True)] + [_fixed(str(i + 1), first, True) for i in range(pr.ROUNDS)] \
            + [_fixed("Σ", first, True)]
        rows: list[ft.Control] = [ft.Row(names, spacing=0)] + [ft.Row(cells, spacing=0) for cells in self.overview_cells] \
            + [ft.Row(self.overview_totals, spacing=0)]
        # The total's line across both parts.
        rule = ft.Border.only(top=ft.BorderSide(2, ft.Colors.OUTLINE))
        fixed[-1] = ft.Container(fixed[-1], border=rule, height=heights[-1], alignment=ft.Alignment.CENTER)
        rows[-1] = ft.Container(rows[-1], border=rule, height=heights[-1])
        self.overview.controls = [side_table.side_scrolled(fixed, rows, heights)]

    def fill_overview(self, ch: Changes, record: pr.Record, result: Result) -> None:
        """Rounds × players: each player's round totals and grand total."""
        if getattr(self, "_overview_ids", None) != record.player_ids():
            self._build_overview(record)
        ids = self._overview_ids
        for i in range(pr.ROUNDS):
            got = result.rounds[i] if i < len(result.rounds) else {}
            for cell, p in zip(self.overview_cells[i], ids):
                ch.set(cell, value=_num(got.get(p)))
        totals = {s.id: s.total for s in result.players}
        for cell, p in zip(self.overview_totals, ids):
            ch.set(cell, value=signed(totals[p]))
