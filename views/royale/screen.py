"""The Panda Royale score pad: the hand of the current player by tapping dice, the sheet,
the round's close, undo/redo. Every tap: edit the record -> save it -> only then redraw."""
from __future__ import annotations

import asyncio
import logging
from functools import partial

import flet as ft

from scoring import RecordError, score
from scoring import panda_royale as pr
from views import theme
from views.games import Games, SaveFailed, now_iso
from views.pad_state import (LETTERS, and_join, NAMES, PAD_COLOURS, Cursor, after_summary, changed_hand,
                             colour_after_tap, dice_count, dice_of, first_colour, faces,
                             hand_problems, holds_pink, leaders, new_die_pending, next_cursor,
                             repeat_slots, resume_cursor, round_summary, seats, signed)
from views.royale import dice
from views.royale.sheet import Sheet

log = logging.getLogger(__name__)

HINTS = {
    "yellow": "sum of the faces",
    "purple": "sum × 2",
    "blue": "sum of plain and glitter blue; × 2 once with a glitter die",
    "glitter": "a blue die: counts with blue and doubles blue once",
    "red": "(white − black) × number of red dice",
    "green": "sum of the faces",
    "clear": "sum of the faces",
    "pink": "the pity die's face",
}


class RoyaleScreen:
    """One game's screen; `view` is the ft.View to put on the page."""

    def __init__(self, page: ft.Page, games: Games, saved, wakelock=None):
        self.page = page
        self.games = games
        self.saved = saved
        self.game_id = saved.record.id
        self.result = score(saved.record)
        self.overrides: dict[tuple[int, str], bool] = {}
        self.cursor = resume_cursor(self.record)
        self.colour = "yellow" if self.cursor.is_summary else first_colour(self.record, *self._cur())
        self.black = False
        self.sheet_pid = self.cursor.pid or seats(self.record)[0]
        self.lock = asyncio.Lock()
        self.wakelock = wakelock
        self._build()
        self.refresh_all(send=False)

    # ------------------------------------------------------------------ state
    @property
    def record(self) -> pr.Record:
        return self.saved.record

    def _cur(self) -> tuple[int, str]:
        return self.cursor.round, self.cursor.pid

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        self.leader_text = ft.Text("", size=theme.SMALL)
        self.undo_btn = theme.icon_button(ft.Icons.UNDO, "Undo", self.on_undo)
        self.redo_btn = theme.icon_button(ft.Icons.REDO, "Redo", self.on_redo)
        self.warn_btn = theme.icon_button(ft.Icons.WARNING_AMBER_ROUNDED, "Warnings", self.on_warnings)
        self.appbar = ft.AppBar(
            title=ft.Column([ft.Text("Panda Royale", size=theme.LARGE, weight=ft.FontWeight.BOLD),
                             self.leader_text], spacing=0, tight=True),
            actions=[self.warn_btn, self.undo_btn, self.redo_btn], toolbar_height=64)
        self.strip = ft.Row(scroll=ft.ScrollMode.AUTO, spacing=6)

        # --- the hand being entered
        self.round_text = ft.Text("", size=theme.SMALL)
        self.player_text = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        self.total_text = ft.Text("", size=theme.HUGE, weight=ft.FontWeight.BOLD)
        self.count_text = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.pink_switch = ft.Switch(label="Pink die", value=False, on_change=self.on_pink_switch)
        self.tabs = {c: self._tab(c) for c in PAD_COLOURS}
        self.tab_row = ft.Row([self.tabs[c] for c in PAD_COLOURS], spacing=4)
        self.pad_title = ft.Text("", size=theme.SMALL)
        self.sign_white = self._sign_button(False)
        self.sign_black = self._sign_button(True)
        self.sign_row = ft.Row([self.sign_white, self.sign_black], spacing=8)
        self.pads: dict[str, ft.Row] = {}
        for colour in PAD_COLOURS:
            key_faces = [(colour, faces(colour))] if colour != "red" else []
            for c, fs in key_faces:
                self.pads[c] = self._pad(c, fs)
        self.pads["red+"] = self._pad("red", faces("red"))
        self.pads["red-"] = self._pad("red", faces("red", black=True))
        self.pad_area = ft.Column([self.pad_title, self.sign_row] + list(self.pads.values()), spacing=8)
        self.prev_btn = ft.OutlinedButton("Previous", icon=ft.Icons.CHEVRON_LEFT, on_click=self.on_prev,
                                          height=theme.TAP)
        self.next_btn = ft.FilledButton("Next", icon=ft.Icons.CHEVRON_RIGHT, on_click=self.on_next,
                                        height=theme.TAP)
        self.lines = ft.Column(spacing=6)
        self.warnings = ft.Column(spacing=4)
        self.editor = ft.Column([
            ft.Row([ft.Column([self.round_text, self.player_text], spacing=0, expand=True),
                    ft.Column([ft.Text("Hand total", size=theme.SMALL), self.total_text], spacing=0,
                              horizontal_alignment=ft.CrossAxisAlignment.END)]),
            ft.Row([self.count_text, self.pink_switch], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            self.tab_row,
            self.pad_area,
            ft.Row([self.prev_btn, self.next_btn], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            self.lines,
            self.warnings,
        ], spacing=10)
        self.summary = ft.Column(spacing=10)
        # Both stay mounted and take turns being visible: swapping a control out and back in
        # would make Flet resend a stale copy of it.
        self.panel = ft.Container(ft.Column([self.editor, self.summary], spacing=0), padding=ft.Padding.all(8))
        self.sheet = Sheet(self.on_sheet_player, self.on_sheet_round)
        body = ft.ResponsiveRow([
            ft.Container(self.panel, col={"xs": 12, "md": 6}),
            ft.Container(self.sheet.control, col={"xs": 12, "md": 6}, padding=ft.Padding.all(8)),
        ], spacing=8, run_spacing=8)
        self.view = ft.View(
            route=f"/game/{self.game_id}", appbar=self.appbar, padding=ft.Padding.all(4), spacing=4,
            controls=[ft.Container(self.strip, padding=ft.Padding.symmetric(horizontal=4)),
                      ft.Column([body], scroll=ft.ScrollMode.AUTO, expand=True)])

    def _tab(self, colour: str) -> ft.Container:
        bg, fg = theme.DIE[colour]
        count = ft.Text("", size=12, color=fg, weight=ft.FontWeight.BOLD)
        tab = ft.Container(
            ft.Semantics(label=f"{NAMES[colour]} pad", button=True, exclude_semantics=True,
                         content=ft.Column([ft.Text(LETTERS[colour], size=16, color=fg, weight=ft.FontWeight.BOLD),
                                            count], spacing=0, tight=True,
                                           horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
            expand=True, height=54, bgcolor=bg, border_radius=ft.BorderRadius.all(8),
            alignment=ft.Alignment.CENTER, ink=True, on_click=partial(self.on_tab, colour))
        tab.data = count
        return tab

    def _sign_button(self, black: bool) -> ft.Container:
        text = f"{'−' if black else '+'}  {'Black' if black else 'White'}"
        bg, fg = theme.RED_BLACK if black else ("#FFFFFF", "#C62828")
        return ft.Container(
            ft.Text(text, size=theme.BODY, weight=ft.FontWeight.BOLD, color=fg,
                    semantics_label=f"Red {'black (−)' if black else 'white (+)'} faces"),
            expand=True, height=theme.TAP, bgcolor=bg, border_radius=ft.BorderRadius.all(8),
            alignment=ft.Alignment.CENTER, ink=True, on_click=partial(self.on_sign, black))

    def _pad(self, colour: str, fs: list[int]) -> ft.Row:
        return ft.Row([dice.face_button(colour, f, partial(self.on_face, colour, f)) for f in fs],
                      wrap=True, spacing=6, run_spacing=6, visible=False)

    # ------------------------------------------------------------------ filling
    def refresh_all(self, send: bool = True) -> None:
        """Redraw everything from the record (new cursor, undo, another round)."""
        self.fill_strip()
        self.fill_appbar()
        self.editor.visible = not self.cursor.is_summary
        self.summary.visible = self.cursor.is_summary
        if self.cursor.is_summary:
            self.fill_summary()
        else:
            self.fill_hand()
            self.fill_pad()
        self.sheet.show(self.record, self.result, self.sheet_pid, self.cursor.round, self.editable_to())
        if send:
            self.page.update(self.view)

    def editable_to(self) -> int:
        return min(pr.current_round(self.record), pr.ROUNDS - 1) if self.record.rounds else 0

    def fill_appbar(self) -> None:
        names = leaders(self.result)
        top = max((s.total for s in self.result.players), default=0)
        self.leader_text.value = (f"{'Leader' if len(names) == 1 else 'Leaders'}: {and_join(names)} · {signed(top)}" if self.record.rounds
                                  and any(r.hands for r in self.record.rounds) else "No dice entered yet")
        self.undo_btn.disabled = not self.saved.can_undo
        self.redo_btn.disabled = not self.saved.can_redo
        n = len(self.result.problems)
        self.warn_btn.visible = n > 0
        self.warn_btn.badge = str(n) if n else None

    def fill_strip(self) -> None:
        cells = []
        for s in self.result.players:
            lead = s.place == 1 and any(r.hands for r in self.record.rounds)
            here = s.id == self.cursor.pid
            cells.append(ft.Container(
                ft.Column([ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, size=16, semantics_label="Leader")] if lead else [],
                                  spacing=0, tight=True),
                           ft.Text(s.name, size=theme.SMALL, weight=ft.FontWeight.BOLD if here else None,
                                   no_wrap=True),
                           ft.Text(signed(s.total), size=theme.LARGE, weight=ft.FontWeight.BOLD)],
                          spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=ft.BorderRadius.all(10),
                bgcolor=ft.Colors.TERTIARY_CONTAINER if lead else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                border=ft.Border.all(2, ft.Colors.PRIMARY) if here else None))
        self.strip.controls = cells

    def fill_hand(self) -> None:
        i, pid = self._cur()
        rec = self.record
        hand = pr.hand_of(rec, i, pid)
        self.round_text.value = f"Round {i + 1} of {pr.ROUNDS}"
        self.player_text.value = rec.name_of(pid)
        total = pr.hand_total(hand) if hand else 0
        self.total_text.value = signed(total)
        self.total_text.semantics_label = f"Hand total {signed(total)}"
        count = dice_count(rec, i, pid, self.overrides)
        self.count_text.value = count.text
        self.count_text.color = None if count.ok else ft.Colors.ERROR
        self.pink_switch.value = count.pink_held
        self.pink_switch.disabled = i == 0
        self.tabs["pink"].visible = count.pink_held
        have = {c: 0 for c in PAD_COLOURS}
        for d in dice_of(hand):
            have[d.colour] += 1
        for c, tab in self.tabs.items():
            tab.data.value = str(have[c]) if have[c] else ""
            tab.border = ft.Border.all(4, ft.Colors.ON_SURFACE) if c == self.colour else None
        ids = seats(rec)
        k = ids.index(pid)
        self.prev_btn.disabled = k == 0
        if k + 1 < len(ids):
            self.next_btn.content = f"Next: {rec.name_of(ids[k + 1])}"
        else:
            self.next_btn.content = "Close the round"
        self.fill_lines(hand)
        self.warnings.controls = [self._warning(m) for m in hand_problems(self.result, i, pid)]

    def fill_lines(self, hand: pr.Hand | None) -> None:
        i, pid = self._cur()
        slots = repeat_slots(self.record, i, pid)
        chips = dice_of(hand)
        lines = []
        for colour in pr.COLOURS:
            members = ("blue", "glitter") if colour == "blue" else (colour,)
            ds = [d for d in chips if d.colour in members]
            empty = [s for s in slots if s in members]
            if not ds and not empty:
                continue
            row = [dice.chip(d, partial(self.on_chip, d.colour, d.position, d.face)) for d in ds]
            row += [dice.slot(s, partial(self.on_tab, s)) for s in empty]
            # As on the paper sheet: the dice, then the sum written out with its score.
            lines.append(ft.Row([
                dice.letter_badge(colour),
                ft.Row(row, wrap=True, spacing=4, run_spacing=4, expand=True),
                ft.Text(pr.formula(hand, colour) if hand and ds else "", size=theme.BODY,
                        weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.END),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER))
        if new_die_pending(self.record, i, pid):
            lines.append(ft.Text("+ this round's new die: pick its colour above", size=theme.SMALL,
                                 italic=True))
        self.lines.controls = lines

    def fill_pad(self) -> None:
        colour = self.colour
        if colour == "pink" and not self.tabs["pink"].visible:
            colour = self.colour = "yellow"
        for key, pad in self.pads.items():
            pad.visible = key == colour or (colour == "red" and key == ("red-" if self.black else "red+"))
        self.sign_row.visible = colour == "red"
        self.sign_white.border = None if self.black else ft.Border.all(4, ft.Colors.PRIMARY)
        self.sign_black.border = ft.Border.all(4, ft.Colors.PRIMARY) if self.black else None
        self.pad_title.value = f"{NAMES[colour]} ({LETTERS[colour]}): {HINTS[colour]}"
        for c, tab in self.tabs.items():
            tab.border = ft.Border.all(4, ft.Colors.ON_SURFACE) if c == colour else None

    def _warning(self, message: str) -> ft.Control:
        return ft.Row([ft.Icon(ft.Icons.WARNING_AMBER_ROUNDED, color=ft.Colors.ERROR, size=20),
                       ft.Text(message, size=theme.SMALL, expand=True)], vertical_alignment=ft.CrossAxisAlignment.START)

    def fill_summary(self) -> None:
        i = self.cursor.round
        s = round_summary(self.record, self.result, i)
        name = self.record.name_of
        out: list[ft.Control] = [ft.Text("Final standings" if s.final and s.complete else f"Round {i + 1} is in",
                                         size=theme.LARGE, weight=ft.FontWeight.BOLD)]
        if not s.complete:
            out.append(ft.Text("Some hands of this round are still missing.", size=theme.BODY))
        if s.panda_choice:
            out.append(ft.Text(f"Yellow tie: {and_join([name(p) for p in s.panda_choice])}. "
                               "Who won the re-roll for the Panda token?", size=theme.BODY))
            out.append(ft.Row([ft.FilledButton(f"{name(p)} won the re-roll", height=theme.TAP,
                                               on_click=partial(self.on_panda, p)) for p in s.panda_choice],
                              wrap=True))
        elif s.panda:
            tie = f" (re-roll of the yellow tie with {and_join([name(p) for p in s.yellow_tie if p != s.panda])})" \
                if s.yellow_tie else ""
            out.append(ft.Row([ft.Icon(ft.Icons.PETS, size=24), ft.Text(f"Panda token: {name(s.panda)}{tie}",
                                                                        size=theme.BODY, expand=True)]))
            if s.yellow_tie:
                out.append(ft.Row([ft.OutlinedButton(f"{name(p)} won the re-roll", height=theme.TAP,
                                                     on_click=partial(self.on_panda, p))
                                   for p in s.yellow_tie if p != s.panda], wrap=True))
        if s.complete and not s.final:
            if s.pity:
                out.append(ft.Row([dice.letter_badge("pink"), ft.Text(
                    f"Pink dice for round {i + 2}: {', '.join(name(p) for p in s.pity)}", size=theme.BODY,
                    expand=True)]))
            else:
                out.append(ft.Text(f"Pink dice for round {i + 2}: known after the re-roll", size=theme.BODY))
        if s.ranking and not (s.final and s.complete):
            out.append(ft.Text(f"Round {i + 1} ranking", size=theme.BODY, weight=ft.FontWeight.BOLD))
            out += [self._place_row(p.place, p.name, p.total) for p in s.ranking]
        if s.final and s.complete:
            winners = [name(w) for w in s.winners]
            out.append(ft.Text(("Winner: " if len(winners) == 1 else "Shared win: ") + and_join(winners),
                               size=theme.LARGE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY))
            out += [self._place_row(p.place, p.name, p.total) for p in s.standings]
            if self.record.finished:
                out.append(ft.Text("This game is finished.", size=theme.BODY))
            elif self.result.has_errors:
                out.append(ft.Text("Fix the errors before finishing.", size=theme.BODY, color=ft.Colors.ERROR))
            else:
                out.append(ft.FilledButton("Finish the game", icon=ft.Icons.FLAG, height=theme.TAP,
                                           on_click=self.on_finish))
        problems = [p.message for p in self.result.problems if p.where.startswith(f"rounds[{i}]")]
        out += [self._warning(m) for m in problems]
        buttons = [ft.OutlinedButton(f"Edit round {i + 1}", icon=ft.Icons.EDIT, height=theme.TAP,
                                     on_click=self.on_edit_round)]
        nxt = after_summary(self.record, i)
        if s.complete and nxt != self.cursor:
            label = f"Start round {nxt.round + 1}" if nxt.round == i + 1 else f"Back to round {nxt.round + 1}"
            buttons.append(ft.FilledButton(label, icon=ft.Icons.CHEVRON_RIGHT, height=theme.TAP,
                                           disabled=bool(s.panda_choice), on_click=self.on_start_next))
        out.append(ft.Row(buttons, wrap=True, alignment=ft.MainAxisAlignment.SPACE_BETWEEN))
        self.summary.controls = out

    def _place_row(self, place: int, name: str, total: int) -> ft.Control:
        # One node for a screen reader: "1. Ann: 62".
        return ft.Semantics(label=f"{place}. {name}: {signed(total)}", exclude_semantics=True, container=True,
                            content=ft.Row([ft.Text(f"{place}.", size=theme.BODY, width=32),
                                            ft.Text(name, size=theme.BODY, expand=True),
                                            ft.Text(signed(total), size=theme.BODY, weight=ft.FontWeight.BOLD)]))

    # ------------------------------------------------------------------ saving
    async def save(self, change) -> bool:
        """Apply one edit: save it through the store, then take the new record. False if refused."""
        try:
            saved = await self.games.edit(self.game_id, self.saved, change)
        except (ValueError, RecordError, SaveFailed) as exc:
            self.notify(f"Not saved: {getattr(exc, 'message', None) or exc}")
            return False
        except Exception as exc:  # the store failing (disk full, ...) must not lose the screen
            log.exception("save failed")
            self.notify(f"Not saved: {exc}")
            return False
        self.saved = saved
        self.result = score(saved.record)
        return True

    def notify(self, message: str) -> None:
        self.page.show_dialog(ft.SnackBar(ft.Text(message, size=theme.BODY)))

    def send_tap_update(self) -> None:
        """Only what a tap changes: the hand panel, the sheet row, the totals."""
        i = self.cursor.round
        self.fill_strip()
        self.fill_appbar()
        self.fill_hand()
        self.fill_pad()
        self.sheet.fill_row(self.result, i)
        self.sheet.fill_totals(self.result)
        self.page.update(self.strip, self.appbar, self.editor, *self.sheet.changed_controls(i))

    # ------------------------------------------------------------------ handlers
    async def on_face(self, colour: str, face: int, e) -> None:
        async with self.lock:
            if self.cursor.is_summary:
                return
            i, pid = self._cur()
            if self.sheet_pid != pid:
                self.sheet_pid = pid
            if not await self.save(lambda r: pr.add_die(r, i, pid, colour, face)):
                return
            self.colour = colour_after_tap(self.record, i, pid, "glitter" if colour == "glitter" else colour)
            if self.colour == "red" and colour != "red":
                self.black = False
            self.send_tap_update()

    async def on_chip(self, colour: str, position: int, face: int, e) -> None:
        async with self.lock:
            i, pid = self._cur()

            def change(r):
                hand = pr.hand_of(r, i, pid)
                faces_now = (hand.pink,) if hand and colour == "pink" else getattr(hand, colour, ()) if hand else ()
                pos = position if position < len(faces_now) and faces_now[position] == face else \
                    (list(faces_now).index(face) if face in faces_now else None)
                if pos is None:
                    raise ValueError(f"that {colour} die is already gone")
                return pr.remove_die(r, i, pid, colour, pos)

            if not await self.save(change):
                return
            self.send_tap_update()

    async def on_tab(self, colour: str, e) -> None:
        self.colour = colour
        if colour == "red":
            self.black = False
        self.fill_pad()
        self.page.update(self.tab_row, self.pad_area)

    async def on_sign(self, black: bool, e) -> None:
        self.black = black
        self.fill_pad()
        self.page.update(self.pad_area)

    async def on_pink_switch(self, e) -> None:
        async with self.lock:
            i, pid = self._cur()
            held = bool(self.pink_switch.value)
            self.overrides[(i, pid)] = held
            hand = pr.hand_of(self.record, i, pid)
            if not held and hand is not None and hand.pink is not None:
                if not await self.save(lambda r: pr.remove_die(r, i, pid, "pink")):
                    return
            if held:
                self.colour = "pink"
            self.send_tap_update()

    async def move_to(self, cursor: Cursor) -> None:
        self.cursor = cursor
        if not cursor.is_summary:
            self.colour = first_colour(self.record, cursor.round, cursor.pid)
            self.black = False
            self.sheet_pid = cursor.pid
        self.refresh_all()

    async def on_next(self, e) -> None:
        async with self.lock:
            await self.move_to(next_cursor(self.record, self.cursor))

    async def on_prev(self, e) -> None:
        async with self.lock:
            ids = seats(self.record)
            k = ids.index(self.cursor.pid)
            if k > 0:
                await self.move_to(Cursor(self.cursor.round, ids[k - 1]))

    async def on_start_next(self, e) -> None:
        async with self.lock:
            await self.move_to(after_summary(self.record, self.cursor.round))

    async def on_edit_round(self, e) -> None:
        async with self.lock:
            await self.move_to(Cursor(self.cursor.round, seats(self.record)[0]))

    async def on_panda(self, pid: str, e) -> None:
        async with self.lock:
            i = self.cursor.round
            if await self.save(lambda r: pr.set_panda(r, i, pid)):
                self.refresh_all()

    async def on_finish(self, e) -> None:
        async with self.lock:
            if await self.save(lambda r: r.model_copy(update={"finished": now_iso()})):
                self.refresh_all()

    def on_sheet_player(self, pid: str) -> None:
        self.sheet_pid = pid
        self.sheet.show(self.record, self.result, pid, self.cursor.round, self.editable_to())
        self.page.update(self.sheet.control)

    def on_sheet_round(self, index: int, pid: str) -> None:
        self.page.run_task(self._edit_hand, index, pid)

    async def _edit_hand(self, index: int, pid: str) -> None:
        async with self.lock:
            await self.move_to(Cursor(index, pid))

    async def on_undo(self, e) -> None:
        await self._history(self.games.undo)

    async def on_redo(self, e) -> None:
        await self._history(self.games.redo)

    async def _history(self, step) -> None:
        async with self.lock:
            before = self.record
            try:
                saved = await step(self.game_id, self.saved)
            except Exception as exc:  # StaleSave included: reload and show what is stored now
                log.info("undo/redo refused: %s", exc)
                saved = await self.games.load(self.game_id)
                self.notify("Another phone changed this game; showing its latest state")
            self.saved = saved
            self.result = score(saved.record)
            where = changed_hand(before, saved.record)
            if where is not None:
                index, pid = where
                self.cursor = Cursor(index, pid) if pid else Cursor(index, None)
                if pid:
                    self.sheet_pid = pid
                    if self.colour == "pink" and not holds_pink(self.record, index, pid, self.overrides):
                        self.colour = "yellow"
            self.refresh_all()

    async def on_warnings(self, e) -> None:
        items = [ft.Text(f"{'Error' if p.level == 'error' else 'Warning'}: {p.message}", size=theme.BODY)
                 for p in self.result.problems]
        dialog = ft.AlertDialog(title=ft.Text("Warnings"), content=ft.Column(items, tight=True, scroll=ft.ScrollMode.AUTO),
                                actions=[ft.TextButton("Close", on_click=lambda e: self.page.pop_dialog())])
        self.page.show_dialog(dialog)
