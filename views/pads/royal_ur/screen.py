"""The Royal Game of Ur pad: after each game of the match, who won and where the loser's
counters stood (tapped on the board), the points live; then the match table."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import royal_ur as ur
from views import theme
from views.pads.pad.changes import Changes
from views.games import Games
from views.words import lang
from views.words.lang import N_, _, p_
from views.pads.pad.parts import Stepper, action_bar, named_key, standings, warning_row
from views.pads.pad.screen import PadScreen
from views.pads.pad.words import signed
from views.pads.royal_ur.board import Board, square_for
from views.pads.royal_ur.state import (breakdown, counter_check, end_blocked, game_number, match_line,
                                  match_table, winners_line)
from views.pads.royal_ur.dot_map import DotMapDialog

WIDE = 700  # from this width (a phone on its side, a tablet) the match table sits beside the board


class UrScreen(PadScreen):
    rules = ur
    nothing_yet = N_("No game saved yet")

    @classmethod
    async def default_settings(cls, games: Games) -> dict:
        """A new match takes the owner's dot map (Settings, or edited from a pad), else the last
        match's: the owner edits it once per board."""
        board = games.settings.ur_board
        if board is None:
            last = await games.latest(ur.GAME)
            board = last.settings.board if last is not None else None
        return {"board": list(board)} if board is not None else {}

    @classmethod
    def table_status(cls, record, result) -> tuple[str, list[str]]:
        return _("Game {game} of the match", game=game_number(record)), []

    def __init__(self, page: ft.Page, games: Games, saved):
        self.wide = False
        super().__init__(page, games, saved)

    # ------------------------------------------------------------------ building
    def build(self) -> None:
        self.entry_title = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        self.cancel_btn = ft.TextButton(_("Cancel the correction"), icon=ft.Icons.CLOSE, on_click=self.on_clear,
                                        visible=False)
        self.winner_btns = {pid: self._winner_button(pid) for pid in self.record.player_ids()}
        self.board_title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.map_note = ft.Text("", size=theme.SMALL, color=theme.NOTE)
        self.board = Board(self.on_square, self.on_take)
        self.chips = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self.steppers = {
            # TRANSLATORS: Royal Game of Ur: the loser's counters never put on the board ("Not entered"),
            # waiting on S, the start space ("On S"), and gone round the board ("Home"). The names of the
            # counts above their − / + buttons (short: three sit side by side on a phone), then what a
            # screen reader says for the buttons.
            "unentered": Stepper(_("Not entered"), _("More not entered"), _("Fewer not entered"),
                                 partial(self.on_step, "unentered"), pick=_("Set not entered"),
                                 sheet_title=_("Counters not entered"), compact=True, beside=True),
            "start": Stepper(_("On S"), _("More on S"), _("Fewer on S"), partial(self.on_step, "start"),
                             pick=_("Set on S"), sheet_title=_("Counters on S"), compact=True, beside=True),
            # TRANSLATORS: Royal Game of Ur: the loser's counters gone round the board (the H space).
            "home": Stepper(p_("Ur board space", "Home"), _("More home"), _("Fewer home"),
                            partial(self.on_step, "home"),
                            pick=_("Set home"), sheet_title=_("Counters home"), compact=True, beside=True),
        }
        self.rest_btn = ft.OutlinedButton(_("The rest are home"), icon=ft.Icons.HOUSE_OUTLINED, height=theme.TAP,
                                          on_click=self.on_rest_home)
        self.check_text = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.points_text = ft.Text("", size=theme.HUGE, weight=ft.FontWeight.BOLD)
        self.points_who = ft.Text("", size=theme.SMALL)
        self.breakdown_text = ft.Text("", size=theme.BODY)
        self.reason_text = ft.Text("", size=theme.SMALL, color=ft.Colors.ERROR, text_align=ft.TextAlign.END)
        self.end_reason = ft.Text("", size=theme.SMALL, text_align=ft.TextAlign.END)
        self.end_btn = ft.OutlinedButton(_("End the match"), icon=ft.Icons.FLAG, height=56, on_click=self.on_end)
        self.save_btn = ft.FilledButton(_("Save game {game}", game=1), icon=ft.Icons.CHECK, height=56,
                                        on_click=self.on_save)
        self.entry = ft.Column([
            ft.Row([self.entry_title, self.cancel_btn], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True),
            ft.Row(list(self.winner_btns.values()), spacing=8),
            # Side by side where both fit, else the button under the words (not the words in 94 px).
            ft.Row([self.board_title,
                    ft.TextButton(_("Dot map"), icon=ft.Icons.EDIT, on_click=self.on_dot_map)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True, alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            self.board.control,
            self.map_note,
            self.chips,
            ft.Column([s.control for s in self.steppers.values()], spacing=6),
            ft.Row([self.check_text, self.rest_btn], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Container(ft.Row([
                ft.Column([self.points_who, self.breakdown_text], spacing=2, expand=True),
                self.points_text], vertical_alignment=ft.CrossAxisAlignment.CENTER),
                bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=ft.BorderRadius.all(12),
                padding=ft.Padding.symmetric(horizontal=12, vertical=8)),
        ], spacing=10)
        self.bar = action_bar(ft.Column([self.reason_text, self.end_reason], spacing=0, tight=True,
                                        horizontal_alignment=ft.CrossAxisAlignment.END),
                              self.end_btn, self.save_btn)
        self.table = ft.Column(spacing=0)
        self.match_text = ft.Text("", size=theme.SMALL)
        self.final = ft.Column(spacing=8, visible=False)
        self.end = ft.Column(spacing=8)
        self.match = ft.Column([
            self.final,
            # TRANSLATORS: Royal Game of Ur: the heading of the match table (games of the match, points).
            ft.Row([theme.heading(_("Match")), self.match_text], alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True),
            self.table, self.end], spacing=8)
        self.divider = ft.Divider(height=24)
        self.entry_side = ft.Column([ft.Container(self.entry, padding=ft.Padding.all(4))],
                                    scroll=ft.ScrollMode.AUTO, expand=True)
        self.match_side = ft.Column([ft.Container(self.match, padding=ft.Padding.all(4))],
                                    scroll=ft.ScrollMode.AUTO, expand=True)
        # Upright, one scrolling column (entry, then the match table); sideways, side by side.
        self.body = ft.Row([self.entry_side], expand=True, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)
        self.make_view(ft.Container(self.strip.control, padding=ft.Padding.symmetric(horizontal=4)), self.body,
                       self.bar)
        self.set_layout(self.page.width, self.page.height)

    def _winner_button(self, pid: str) -> ft.Container:
        name = self.record.name_of(pid)
        # TRANSLATORS: Royal Game of Ur: a button naming the winner of the game being entered.
        won = _("{name} won", name=name)
        return named_key(won, ft.Icons.EMOJI_EVENTS_OUTLINED, partial(self.on_winner, pid),
                         ((self.page.width or 360) - 32) / 2)

    def set_layout(self, width, height) -> bool:
        wide = bool(width and height and width >= WIDE and width > height)
        changed = wide != self.wide or not self.body.controls
        self.wide = wide
        if wide:
            self.body.controls = [self.entry_side, self.match_side]
            self.entry_side.controls[0].content = self.entry
            self.match_side.controls[0].content = self.match
        else:
            self.body.controls = [self.entry_side]
            self.entry_side.controls[0].content = ft.Column([self.entry, self.divider, self.match], spacing=0)
        # Sideways the match table beside the board shows the totals: the strip would only
        # push the board below the fold.
        self.strip.control.visible = not wide
        board_width = (width / 2 if wide else width or 412) - 24
        self.board.set_size(square_for(board_width))
        return changed

    def on_resize(self, width, height) -> None:
        self.set_layout(width, height)
        self.page.update(self.view)

    # ------------------------------------------------------------------ filling
    def fill(self, ch: Changes) -> None:
        self.fill_entry(ch)
        self.fill_match(ch)

    def fill_entry(self, ch: Changes) -> None:
        record = self.record
        entry = ur.entry_of(record)
        playing = record.finished is None
        ch.set(self.entry, visible=playing)
        ch.set(self.divider, visible=playing)
        ch.set(self.bar, visible=playing)
        if not playing:
            return
        # Ending the match: redrawn on every tap, with the reason when it cannot be done now.
        blocked = end_blocked(record, self.result)
        ch.set(self.end_btn, visible=bool(record.rounds), disabled=bool(blocked))
        ch.set(self.end_reason, value=blocked, visible=bool(record.rounds and blocked))
        n = game_number(record)
        correcting = entry.game is not None
        ch.set(self.entry_title, value=_("Correcting game {game}", game=n) if correcting else _("Game {game}", game=n))
        ch.set(self.cancel_btn, visible=correcting)
        for pid, btn in self.winner_btns.items():
            chosen = entry.winner == pid
            ch.set(btn, bgcolor=ft.Colors.PRIMARY if chosen else None)
            _spacer, icon, text = btn.content.content.controls  # parts.named_key's row
            ch.set(icon, color=ft.Colors.ON_PRIMARY if chosen else ft.Colors.PRIMARY,
                   icon=ft.Icons.EMOJI_EVENTS if chosen else ft.Icons.EMOJI_EVENTS_OUTLINED)
            ch.set(text.content, color=ft.Colors.ON_PRIMARY if chosen else ft.Colors.PRIMARY)
        loser = record.name_of(ur.other_player(record, entry.winner)) if entry.winner else None
        ch.set(self.board_title, value=_("Where were {name}'s counters?", name=loser) if loser
               else _("Who won? Then where the loser's counters were"))
        # TRANSLATORS: Royal Game of Ur: "(Dot map)" names the button beside the board.
        ch.set(self.map_note, value=_("Default dot map: check it against your board (Dot map)")
               if record.settings.board is None else _("Dots from your dot map; Rosettes score 1"))
        self.board.fill_dots(ch, record)
        self.board.fill(ch, record, entry, enabled=True)
        self.fill_chips(ch, entry)
        room = max(0, ur.COUNTERS - entry.counted())  # the sheet offers only counters still unplaced
        full = room == 0
        for place, stepper in self.steppers.items():
            value = getattr(entry, place)
            high = ur.COUNTERS - 1 if place == "home" else ur.COUNTERS
            stepper.fill(ch, value, 0, max(value, min(high, value + room)))
        ch.set(self.rest_btn, disabled=full or entry.home + ur.COUNTERS - entry.counted() >= ur.COUNTERS)
        # The points before the count: Flet sends one message per control, in this order, so a
        # phone (or a test) that sees the new count already has the new points.
        points = ur.entry_points(record)
        ch.set(self.points_who, value=_("{name} scores", name=record.name_of(entry.winner)) if entry.winner
               else _("The winner scores"))
        ch.set(self.breakdown_text, value=breakdown(record))
        ch.set(self.points_text, value=str(points), semantics_label=_("Points {points}", points=points))
        check, ok = counter_check(entry)
        ch.set(self.check_text, value=check, color=ft.Colors.PRIMARY if ok else None)
        problem = ur.entry_problem(record)
        ch.set(self.reason_text, value=_("To save: {problem}", problem=lang.problem(problem)) if problem else "",
               visible=bool(problem))
        ch.set(self.save_btn, content=_("Save game {game}", game=n), disabled=problem is not None)

    def fill_chips(self, ch: Changes, entry: ur.Entry) -> None:
        on = sorted(set(entry.squares))
        if getattr(self.chips, "data", None) == [(q, entry.squares.count(q)) for q in on]:
            return
        self.chips.data = [(q, entry.squares.count(q)) for q in on]
        chips = []
        for q in on:
            k = entry.squares.count(q)
            chips.append(ft.Container(
                ft.Semantics(label=_("Take a counter off square {square}", square=q), button=True,
                             exclude_semantics=True,
                             content=ft.Row([ft.Text(_("Square {square} × {count}", square=q, count=k) if k > 1
                                                     else _("Square {square}", square=q), size=theme.SMALL,
                                                     weight=ft.FontWeight.BOLD),
                                             ft.Icon(ft.Icons.CLOSE, size=18)], tight=True, spacing=4)),
                height=40, padding=ft.Padding.symmetric(horizontal=12), border_radius=ft.BorderRadius.all(20),
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, ink=theme.KEY_INK,
                on_click=partial(self._take_chip, q)))
        ch.set_children(self.chips, chips)

    def fill_match(self, ch: Changes) -> None:
        record, result = self.record, self.result
        ids = record.player_ids()
        ch.set(self.match_text, value=match_line(record, result))
        rows = match_table(record, result)
        # TRANSLATORS: Royal Game of Ur: the head of the match table's column of game numbers (short).
        head = ft.Row([ft.Text(_("Game"), size=theme.size_to_fit(_("Game"), 52, least=10), width=52, weight=ft.FontWeight.BOLD)]
                      + [ft.Text(record.name_of(p), size=theme.SMALL, expand=True, weight=ft.FontWeight.BOLD,
                                 text_align=ft.TextAlign.END, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
                         for p in ids] + [ft.Container(width=48)])
        lines: list[ft.Control] = [head]
        editable = record.finished is None
        for row in rows:
            cells = []
            for p in ids:
                got = row.points[p]
                cells.append(ft.Column([
                    ft.Text(str(got) if got else "–", size=theme.BODY, weight=ft.FontWeight.BOLD if got else None),
                    ft.Text(f"= {signed(row.running[p])}", size=12)],
                    spacing=0, expand=True, horizontal_alignment=ft.CrossAxisAlignment.END))
            edit = theme.icon_button(ft.Icons.EDIT_OUTLINED, _("Edit game {game}", game=row.game),
                                     partial(self.on_edit_game, row.game - 1)) if editable else ft.Container(width=48)
            lines.append(ft.Container(ft.Row([ft.Text(str(row.game), size=theme.BODY, width=52)] + cells + [edit],
                                             vertical_alignment=ft.CrossAxisAlignment.CENTER),
                                      border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT))))
        totals = {s.id: s for s in result.players}
        lines.append(ft.Container(ft.Row(
            [ft.Text(_("Total"), size=theme.size_to_fit(_("Total"), 52, "BODY", least=10), width=52, weight=ft.FontWeight.BOLD)]
            + [ft.Text(signed(totals[p].total), size=theme.LARGE, weight=ft.FontWeight.BOLD, expand=True,
                       text_align=ft.TextAlign.END, color=ft.Colors.PRIMARY if totals[p].place == 1 and rows else None)
               for p in ids] + [ft.Container(width=48)]),
            border=ft.Border.only(top=ft.BorderSide(2, ft.Colors.OUTLINE)), padding=ft.Padding.only(top=6)))
        self.table.controls = lines
        ch.add(self.table)
        self.end.controls = self._end_controls(rows)
        ch.add(self.end)
        finished = record.finished is not None
        if finished:
            self.final.controls = [
                theme.heading(_("Final standings")),
                ft.Text(winners_line(self.result), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.PRIMARY),
                *standings(self.result),
                ft.Text(_("This match is finished."), size=theme.BODY),
                self.result_actions(),
                ft.Divider(height=16)]
        ch.set(self.final, visible=finished)
        ch.add(self.final)

    def _end_controls(self, rows) -> list[ft.Control]:
        record = self.record
        problems = [warning_row(lang.problem(p), p.level == "error") for p in self.result.problems]
        if record.finished:
            return problems
        if not rows:
            return [ft.Text(_("Save the first game to start the match table."), size=theme.BODY, color=theme.NOTE)]
        return problems

    # ------------------------------------------------------------------ taps
    async def _tap(self, change, whole: bool = False) -> None:
        async with self.lock:
            if self.record.finished is not None:
                return
            if await self.save(change):
                if whole:
                    self.refresh_all()
                else:
                    self.send(self.fill_entry)

    async def on_winner(self, pid: str, e) -> None:
        await self._tap(lambda r: ur.set_winner(r, pid))

    async def on_square(self, pos: int) -> None:
        await self._tap(lambda r: ur.add_counter(r, pos))

    async def on_take(self, pos: int) -> None:
        await self._tap(lambda r: ur.remove_counter(r, pos))

    async def _take_chip(self, pos: int, e) -> None:
        await self.on_take(pos)

    async def on_step(self, place: str, delta: int, e) -> None:
        await self._tap(lambda r: ur.step(r, place, delta))

    async def on_rest_home(self, e) -> None:
        await self._tap(ur.rest_home)

    async def on_save(self, e) -> None:
        await self._tap(ur.keep_entry, whole=True)

    async def on_clear(self, e) -> None:
        await self._tap(ur.clear_entry, whole=True)

    async def on_edit_game(self, index: int, e) -> None:
        await self._tap(lambda r: ur.edit_game(r, index), whole=True)

    async def on_end(self, e) -> None:
        async with self.lock:
            if ur.entry_of(self.record).is_empty() and await self.finish():
                self.refresh_all()

    async def on_dot_map(self, e) -> None:
        DotMapDialog(self.page, ur.board_map(self.record), self.record.settings.board is None,
                     self.on_board).open()

    async def on_board(self, board: list[int]) -> None:
        await self._tap(lambda r: ur.set_board(r, board), whole=True)
        try:  # the owner's map for the matches to come, as in Settings
            await self.games.save_settings(ur_board=list(board))
        except Exception as exc:
            self.notify(_("The dot map is kept in this match, not for the next: {error}", error=exc))
