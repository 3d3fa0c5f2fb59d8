"""History: every stored game, newest first, filtered by game and by player, searched by name.
Drawn from the store's index rows (never the records), a page of rows at a time."""
from __future__ import annotations

from functools import partial

import flet as ft

from views import theme
from views.words.lang import _
from views.screens.history_state import (FIRST, PAGE, RECENT_FOR_CHIPS, filtered, header, players, result_line, send_label,
                                  send_route, sendable, tonights)
from views.screens.home import colour_of, title_of, when
from views.pads.registry import GAME_ORDER


class HistoryScreen:
    def __init__(self, page: ft.Page, rows: list, navigate):
        self.page = page
        self.rows = rows
        self.navigate = navigate
        self.game: str | None = None
        self.player: str | None = None
        self.text = ""
        self.shown = FIRST
        self.found: list = []
        # What the chips and the rows on screen were drawn for: a filter that gives the same again
        # (a letter more in the search, the same games) keeps them, so a tap on a row while the
        # last letters are handled is not lost to its row being drawn anew.
        self._chips_for: tuple | None = None
        self._rows_for: tuple | None = None
        # The player chips: who played most in the latest games, counted once, not on every tap.
        self.names = players(rows[:RECENT_FOR_CHIPS])
        self.count = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        # The six game filters wrap onto a second line: in a row scrolled sideways two and a
        # half showed at 412 px and nothing said there were more.
        self.game_chips = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self.player_chips = ft.Row(scroll=ft.ScrollMode.AUTO, spacing=6)
        self.search = ft.TextField(label=_("Search by name"), prefix_icon=ft.Icons.SEARCH, dense=True,
                                   text_size=theme.BODY, on_change=self.on_search)
        self.list = ft.Column(spacing=0)
        self.more = ft.OutlinedButton(_("Show more"), height=theme.TAP, on_click=self.on_more)
        # Sending several games (#53): the list becomes a selection, tonight's games chosen.
        self.picking = False
        self.chosen: set[str] = set()
        self.boxes: dict[str, ft.Checkbox] = {}
        self.pick_note = ft.Text(_("Tap the games to send. The games of the last evening are chosen."),
                                 size=theme.BODY, color=theme.NOTE, visible=False)
        self.send_btn = ft.FilledButton(send_label(0), icon=ft.Icons.SEND_TO_MOBILE, style=theme.wraps(), expand=True,
                                        on_click=self.on_send)
        self.pick_bar = ft.Container(ft.Row([
            ft.OutlinedButton(_("Cancel"), style=theme.wraps(), on_click=self.on_pick), self.send_btn], spacing=8),
            padding=ft.Padding.only(top=8), visible=False)
        self.view = ft.View(
            route="/history", padding=ft.Padding.all(8),
            appbar=theme.titled_bar(_("History"), actions=[
                theme.icon_button(ft.Icons.QR_CODE_2, _("Send games"), self.on_pick)]),
            # One scrolling column, the filters at its top: kept above the list, they left it ~140 px of
            # a 320 x 640 phone at the largest text (about one game, #56); they scroll away with it.
            controls=[ft.Column([self.count, self.pick_note, self.search, self.game_chips, self.player_chips, self.list,
                                 self.more], scroll=ft.ScrollMode.AUTO, expand=True, on_scroll=self.on_scroll,
                                scroll_interval=150, spacing=8),
                      self.pick_bar])
        self.fill()

    def _chip(self, label: str, selected: bool, on_select) -> ft.Chip:
        # A plain label, not a Text control: ~20 chips fewer controls to send on the first screen.
        return ft.Chip(label=theme.chip_label(label, theme.SMALL), label_text_style=ft.TextStyle(size=theme.SMALL),
                       selected=selected,
                       on_select=on_select, show_checkmark=False)

    def fill(self) -> None:
        found = self.found = filtered(self.rows, self.game, self.player, self.text)
        if self.picking:  # only finished games are sent from here; a game in progress from its pad
            found = self.found = [r for r in found if sendable(r)]
        self.count.value = header(len(found))
        if self._chips_for != (self.game, self.player):
            self._chips_for = (self.game, self.player)
            self.game_chips.controls = [self._chip(_("All games"), self.game is None, partial(self.on_game, None))] + [
                self._chip(title_of(g), self.game == g, partial(self.on_game, g)) for g in GAME_ORDER]
            self.player_chips.controls = [self._chip(_("Everyone"), self.player is None,
                                                     partial(self.on_player, None))] + [
                self._chip(n, self.player == n, partial(self.on_player, n)) for n in self.names]
        listing = self._listing()
        if self._rows_for != listing:
            self._rows_for = listing
            self.boxes = {}
            self.list.controls = [self._row(r) for r in found[:self.shown]]
            if not found:
                self.list.controls = [ft.Text(_("No game matches."), size=theme.BODY, color=theme.NOTE)]
        self.more.visible = len(found) > self.shown
        self.pick_note.visible = self.pick_bar.visible = self.picking
        # Choosing, the rows come first: the filters took a small phone's whole screen at the largest text.
        self.search.visible = self.game_chips.visible = self.player_chips.visible = not self.picking
        self.fill_send()

    def _listing(self) -> tuple:
        return self.picking, tuple(r["id"] for r in self.found[:self.shown])

    def fill_send(self) -> None:
        self.send_btn.content = send_label(len(self.chosen))
        self.send_btn.disabled = not self.chosen

    def _row(self, row) -> ft.Control:
        live = not row["finished"]
        picked = self.picking and sendable(row)
        if picked:
            box = self.boxes[row["id"]] = ft.Checkbox(value=row["id"] in self.chosen,
                                                     on_change=partial(self.on_box, row["id"]))
        return ft.ListTile(
            leading=ft.Icon(ft.Icons.PLAY_CIRCLE_OUTLINE if live else ft.Icons.EMOJI_EVENTS, size=28,
                            color=colour_of(row["game"])),  # as on the home
            # A plain title (one control fewer a row); it wraps rather than being cut off.
            # TRANSLATORS: a history row's title: the game and when it started ("Pandoria, 24 Nov 14:05")
            title=_("{game}, {when}", game=title_of(row['game']), when=when(row['created'] or row['finished'])),
            title_text_style=ft.TextStyle(size=theme.BODY, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_SURFACE),
            # Choosing, a row is two lines of scores at most and its box beside its title: centred on
            # a row of ten long names, the box was a screen below the game's name at the largest text.
            subtitle=ft.Text(result_line(row), size=theme.SMALL, max_lines=2 if picked else None,
                             overflow=ft.TextOverflow.ELLIPSIS if picked else None),
            title_alignment=ft.ListTileTitleAlignment.TOP if picked else None,
            min_height=theme.TAP + 8, trailing=box if picked else None,
            on_click=partial(self.on_toggle if self.picking else self.on_open, row["id"]))

    def redraw(self) -> None:
        self.fill()
        self.page.update(self.view)

    def on_game(self, game, e) -> None:
        self.game, self.shown = game, FIRST
        self.redraw()

    def on_player(self, name, e) -> None:
        self.player, self.shown = name, FIRST
        self.redraw()

    def on_search(self, e) -> None:
        self.text, self.shown = self.search.value or "", FIRST
        self.redraw()

    def on_more(self, e) -> None:
        self.more_rows()

    def on_scroll(self, e: ft.OnScrollEvent) -> None:
        # Rows come a page at a time as the list nears its end: 10,000 games never all drawn.
        if e.max_scroll_extent - e.pixels < 2 * e.viewport_dimension and len(self.found) > self.shown:
            self.more_rows()

    def more_rows(self) -> None:
        """The next page of rows, appended: the rows already drawn are not sent again."""
        start, self.shown = self.shown, self.shown + PAGE
        self.list.controls.extend(self._row(r) for r in self.found[start:self.shown])
        self._rows_for = self._listing()
        self.more.visible = len(self.found) > self.shown
        self.page.update(self.view)

    def on_open(self, game_id: str, e) -> None:
        self.navigate(f"/game/{game_id}")

    def on_pick(self, e) -> None:
        """Send games: the list becomes a selection (again: back to the list)."""
        self.picking = not self.picking
        self.chosen = set(tonights(self.rows)) if self.picking else set()
        self.redraw()

    def choose(self, game_id: str, on: bool) -> None:
        if on:
            self.chosen.add(game_id)
        else:
            self.chosen.discard(game_id)
        self.fill_send()
        box = self.boxes.get(game_id)
        if box is not None:
            box.value = on
        self.page.update(*([box] if box is not None else []), self.send_btn)

    def on_toggle(self, game_id: str, e) -> None:
        self.choose(game_id, game_id not in self.chosen)

    def on_box(self, game_id: str, e) -> None:
        self.choose(game_id, bool(e.control.value))

    def on_send(self, e) -> None:
        # Newest first, as the list shows them.
        ids = [r["id"] for r in self.rows if r["id"] in self.chosen]
        if ids:
            self.navigate(send_route(ids))
