"""The Nokosu Dice pad: each round's declarations and tricks tapped on a keypad, who deals and
leads, the trick tally, the scores with each bonus explained, the rounds table and the end."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import nokosu_dice as nk
from views import theme
from views.pads.pad.changes import Changes
from views.games import Games
from views.words import lang
from views.words.lang import N_, _
from views.pads.nokosu_dice.setup import SetupForm
from views.pads.nokosu_dice.state import (DECLARE, DONE, TRICKS, Cursor, changed_cell, declared_text, explain, fitting_tricks, header,
                                     is_over, key_rows, missed_line, next_cursor, resume_cursor, rounds_table,
                                     still_to_enter, table_status, tally, winners_line, zero_note)
from views.pads.pad.parts import action_bar, standings, warning_row
from views.pads.pad.screen import PadScreen
from views.pads.pad.words import signed

KEY_HEIGHT = 56
CELL_WIDTH = 76


def _key_style(bg, fg) -> ft.ButtonStyle:
    return ft.ButtonStyle(bgcolor=bg, color=fg, elevation=0, padding=ft.Padding.all(0),
                          shape=ft.RoundedRectangleBorder(radius=12))


PLAIN = _key_style(ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.ON_SURFACE)
CHOSEN = _key_style(ft.Colors.PRIMARY, ft.Colors.ON_PRIMARY)
FITS = _key_style(ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER)


class NokosuScreen(PadScreen):
    rules = nk
    nothing_yet = N_("No round closed yet")

    @classmethod
    async def default_settings(cls, games: Games) -> dict:
        return {"zero_bonus": games.settings.nokosu_zero_bonus}

    @classmethod
    def settings_form(cls, settings: dict) -> ft.Control:
        return SetupForm(settings)

    @classmethod
    def table_status(cls, record, result) -> tuple[str, list[str]]:
        return table_status(record)

    phone_state = ("cursor", "showing")

    def settle_phone_state(self) -> None:
        if self.cursor.pid not in self.record.player_ids() or (
                self.showing is not None and self.showing >= len(self.record.rounds)):
            self.cursor, self.showing = resume_cursor(self.record), None

    def __init__(self, page: ft.Page, games: Games, saved):
        self.cursor = resume_cursor(saved.record)
        # The closed round whose scores are on screen instead of the entry (on screen only): the
        # one just closed, one tapped in the rounds table, the last one once the game is over.
        self.showing: int | None = len(saved.record.rounds) - 1 if is_over(saved.record) else None
        super().__init__(page, games, saved)

    # ------------------------------------------------------------------ hooks
    def entering(self) -> bool:
        return self.showing is None and self.record.finished is None and not is_over(self.record)

    def here(self) -> str | None:
        return self.cursor.pid if self.entering() and self.cursor.phase != DONE else None

    def pending(self) -> set[str]:
        return set(still_to_enter(self.record)) if self.entering() else set()

    async def strip_pick(self, pid: str) -> None:
        """A tap on a player's total: that player's next entry of the round."""
        async with self.lock:
            if not self.entering():
                return
            entry = nk.entry_of(self.record)
            self.cursor = Cursor(DECLARE if pid not in entry.declared else TRICKS, pid)
            self.send(self.fill_entry)

    def after_history(self, before) -> None:
        self._follow(before)

    def after_reload(self, before) -> None:
        self._follow(before)

    def _follow(self, before) -> None:
        """Undo/redo or another phone changed the game: show what changed."""
        record = self.record
        if len(record.rounds) > len(before.rounds) and nk.entry_of(record).is_empty():
            self.showing = len(record.rounds) - 1
        elif before.entry != record.entry:
            self.showing = None
            self.cursor = changed_cell(before, record) or resume_cursor(record)
        if is_over(record) and self.showing is None:
            self.showing = len(record.rounds) - 1
        if self.showing is not None and self.showing >= len(record.rounds):
            self.showing = None
        if self.cursor.pid not in record.player_ids():
            self.cursor = resume_cursor(record)

    # ------------------------------------------------------------------ building
    def build(self) -> None:
        ids = self.record.player_ids()
        # --- the round being entered
        self.title = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        self.deals = ft.Text("", size=theme.BODY, expand=True)
        self.tricks_line = ft.Text("", size=theme.SMALL)
        # TRANSLATORS: the player who deals the cards (a button: change who deals)
        self.dealer_btn = ft.TextButton(_("Dealer"), icon=ft.Icons.SWAP_HORIZ, on_click=self.on_dealer,
                                        tooltip=theme.mouse_tip(_("Change who deals")), height=theme.TAP)
        self.rows = {pid: self._player_row(pid) for pid in ids}
        self.pad_title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.declare_keys = [self._key(declared_text(n), partial(self.on_declare, n),
                                       max(key_rows(nk.MAX_DECLARATION + 1)))
                             for n in range(nk.MAX_DECLARATION + 1)]
        top = nk.tricks_per_round(self.record)
        self.trick_keys = [self._key(str(n), partial(self.on_tricks, n)) for n in range(top + 1)]
        self.declare_pad = self._keypad(self.declare_keys)
        self.tricks_pad = self._keypad(self.trick_keys)
        self.zero_text = ft.Text("", size=theme.SMALL, color=ft.Colors.ERROR)
        self.tally_icon = ft.Icon(ft.Icons.WARNING_AMBER_ROUNDED, color=ft.Colors.ERROR, size=22)
        self.tally_text = ft.Text("", size=theme.BODY, expand=True)
        self.reason = ft.Text("", size=theme.SMALL, text_align=ft.TextAlign.END)
        self.close_btn = ft.FilledButton(_("Close the round"), icon=ft.Icons.CHECK, height=56, on_click=self.on_close)
        self.cancel_btn = ft.TextButton(_("Cancel the correction"), icon=ft.Icons.CLOSE, height=theme.TAP,
                                        on_click=self.on_cancel)
        self.entry = ft.Column([
            # The button under the round's name where both do not fit (the name was broken in 109 px).
            ft.Row([self.title, self.dealer_btn], vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True,
                   alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
            ft.Row([ft.Icon(ft.Icons.STYLE_OUTLINED, size=22), self.deals]),
            self.tricks_line,
            ft.Row([ft.Text("", expand=True),
                    # TRANSLATORS: Nokosu Dice: column heading above each player's declaration (keep it short)
                    ft.Text(_("Declares"), size=theme.size_to_fit(_("Declares"), CELL_WIDTH, least=10), width=CELL_WIDTH,
                            text_align=ft.TextAlign.CENTER),
                    # TRANSLATORS: column heading above the tricks each player won (keep it short)
                    ft.Text(_("Tricks"), size=theme.size_to_fit(_("Tricks"), CELL_WIDTH, least=10), width=CELL_WIDTH,
                            text_align=ft.TextAlign.CENTER)],
                   spacing=8),
            *self.rows.values(),
            ft.Container(ft.Column([self.pad_title, self.declare_pad, self.tricks_pad, self.zero_text], spacing=8),
                         padding=ft.Padding.only(top=8)),
            ft.Row([self.tally_icon, self.tally_text], vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ], spacing=8)
        self.round_btn = ft.FilledButton(_("Start round {n}", n=2), icon=ft.Icons.CHEVRON_RIGHT, height=56,
                                         on_click=self.on_back)
        self.finish_btn = ft.FilledButton(_("Finish the game"), icon=ft.Icons.FLAG, height=56, on_click=self.on_finish)
        self.bar = action_bar(self.reason, self.cancel_btn, self.close_btn, self.round_btn, self.finish_btn)
        # --- a closed round's scores, and at the end the standings
        self.summary = ft.Column(spacing=8)
        # --- every closed round
        self.table = ft.Column(spacing=0)
        self.problems = ft.Column(spacing=4)
        self.body = ft.Column([
            ft.Container(ft.Column([self.entry, self.summary], spacing=0), padding=ft.Padding.all(8)),
            ft.Divider(height=16),
            ft.Container(ft.Column([theme.heading(_("Rounds")), self.table, self.problems], spacing=8),
                         padding=ft.Padding.all(8)),
        ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=0)
        self.make_view(ft.Container(self.strip.control, padding=ft.Padding.symmetric(horizontal=4)), self.body,
                       self.bar)

    def _player_row(self, pid: str) -> ft.Column:
        name = self.record.name_of(pid)
        role = ft.Text("", size=theme.SMALL, no_wrap=True)
        cells = {phase: self._cell(pid, phase) for phase in (DECLARE, TRICKS)}
        words = ft.Text("", size=theme.SMALL, visible=False)
        row = ft.Column([
            ft.Row([ft.Column([ft.Text(name, size=theme.BODY, weight=ft.FontWeight.BOLD, no_wrap=True,
                                       overflow=ft.TextOverflow.ELLIPSIS), role], spacing=0, expand=True),
                    cells[DECLARE], cells[TRICKS]], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            words], spacing=2)
        row.data = (role, cells, words)
        return row

    def _cell(self, pid: str, phase: str) -> ft.Container:
        value = ft.Text("–", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        return ft.Container(
            ft.Semantics(button=True, exclude_semantics=True, content=value),
            width=CELL_WIDTH, height=KEY_HEIGHT, border_radius=ft.BorderRadius.all(12), alignment=ft.Alignment.CENTER,
            ink=True, on_click=partial(self.on_cell, phase, pid))

    def _key(self, text: str, on_click, per_row: int = 7) -> ft.Button:
        size = theme.BODY if len(text) > 2 else theme.LARGE  # "Zero" fits a seventh of a phone
        if len(text) > 2:  # a word ("Zero", "ゼロ", "Null"): smaller before it would break in its key
            key = ((self.page.width or 412) - 16 - 6 * (per_row - 1)) / per_row - 4  # PLAIN: no padding
            size = theme.size_to_fit(text, key, "BODY", least=9)
        return ft.Button(content=ft.Text(text, size=size, weight=ft.FontWeight.BOLD, no_wrap=True), expand=True,
                         height=KEY_HEIGHT, style=PLAIN, on_click=on_click)

    def _keypad(self, keys: list[ft.Button]) -> ft.Column:
        rows, k = [], 0
        widest = key_rows(len(keys))
        for n in widest:
            row = keys[k:k + n] + ([ft.Container(expand=widest[0] - n)] if n < widest[0] else [])
            rows.append(ft.Row(row, spacing=6))
            k += n
        return ft.Column(rows, spacing=6)

    # ------------------------------------------------------------------ filling
    def fill(self, ch: Changes) -> None:
        entering = self.entering()
        ch.set(self.entry, visible=entering)
        ch.set(self.summary, visible=not entering)
        if entering:
            self.fill_entry(ch)
        else:
            self.fill_summary(ch)
        self.fill_table(ch)

    def fill_entry(self, ch: Changes) -> None:
        record = self.record
        entry = nk.entry_of(record)
        i = nk.entry_index(record)
        h = header(record)
        correcting = entry.round is not None
        ch.set(self.title, value=h.title)
        ch.set(self.deals, value=h.deals)
        ch.set(self.tricks_line, value=h.tricks)
        complete = not still_to_enter(record)
        lines = {line.pid: line for line in explain(record, nk.entry_round(record))} if complete else {}
        dealer, leader = nk.dealer(record, i), nk.leader(record, i)
        for pid, row in self.rows.items():
            role, cells, words = row.data
            name = record.name_of(pid)
            # TRANSLATORS: under a player's name: this player deals the cards this round
            deals = _("deals")
            # TRANSLATORS: under a player's name: this player plays the first card this round
            leads = _("leads")
            ch.set(role, value=deals if pid == dealer else leads if pid == leader else "")
            d, t = entry.declared.get(pid), entry.tricks.get(pid)
            made = d is not None and t is not None and d == t
            # TRANSLATORS: Nokosu Dice: a player's declaration (the tricks they said they would win)
            said = (_("{name}'s declaration: not entered", name=name) if d is None
                    else _("{name}'s declaration: zero", name=name) if d == 0
                    else _("{name}'s declaration: {n}", name=name, n=d))
            won = (_("{name}'s tricks: not entered", name=name) if t is None
                   else _("{name}'s tricks: {n}", name=name, n=t))
            for phase, value, label in ((DECLARE, declared_text(d), said),
                                        (TRICKS, "–" if t is None else str(t), won)):
                cell = cells[phase]
                here = self.cursor == Cursor(phase, pid)
                ch.set(cell.content, label=label)
                ch.set(cell.content.content, value=value,
                       color=ft.Colors.ON_PRIMARY_CONTAINER if phase == TRICKS and made else None)
                ch.set(cell, border=ft.Border.all(3, ft.Colors.PRIMARY) if here else ft.Border.all(1, ft.Colors.OUTLINE),
                       bgcolor=ft.Colors.PRIMARY_CONTAINER if phase == TRICKS and made
                       else ft.Colors.SURFACE_CONTAINER_HIGHEST if value != "–" else None)
            line = lines.get(pid)
            ch.set(words, value=line.words if line else "", visible=line is not None,
                   color=ft.Colors.PRIMARY if line and line.made else None,
                   weight=ft.FontWeight.BOLD if line and line.made else None)
        self.fill_keys(ch)
        text, wrong = tally(record)
        ch.set(self.tally_text, value=text, color=ft.Colors.ERROR if wrong else None,
               weight=ft.FontWeight.BOLD if wrong else None)
        ch.set(self.tally_icon, visible=wrong)
        problem = nk.entry_problem(record)
        # TRANSLATORS: beside the greyed Close the round button; {problem} says what is missing
        ch.set(self.reason, value=_("To close: {problem}", problem=lang.problem(problem)) if problem else
               _("Close the round anyway, or correct the tricks") if wrong else "", visible=bool(problem or wrong))
        ch.set(self.close_btn, content=_("Save round {n}", n=i + 1) if correcting else _("Close the round"),
               disabled=problem is not None, visible=True)
        ch.set(self.round_btn, visible=False)
        ch.set(self.finish_btn, visible=False)
        ch.set(self.bar, visible=True)
        ch.set(self.cancel_btn, visible=correcting)
        ch.set(self.dealer_btn, visible=not correcting)

    def fill_keys(self, ch: Changes) -> None:
        record = self.record
        entry = nk.entry_of(record)
        pid, phase = self.cursor.pid, self.cursor.phase
        name = record.name_of(pid)
        ch.set(self.declare_pad, visible=phase == DECLARE)
        ch.set(self.tricks_pad, visible=phase == TRICKS)
        if phase == DONE:
            ch.set(self.pad_title, value=_("All in. Tap a declaration or tricks above to change it."))
            ch.set(self.zero_text, value="", visible=False)
        elif phase == DECLARE:
            # TRANSLATORS: Nokosu Dice: a player declares the tricks they will win with the die they keep back;
            # "Zero" is the keypad's key for a declaration of zero tricks
            ch.set(self.pad_title, value=_("{name} declares…  (the die kept back, or Zero)", name=name))
            now = entry.declared.get(pid)
            no_zero = zero_note(record, pid)
            for n, key in enumerate(self.declare_keys):
                label = _("{name} declares zero", name=name) if n == 0 else _("{name} declares {n}", name=name, n=n)
                ch.set(key.content, semantics_label=label, color=ft.Colors.ON_PRIMARY if now == n else None)
                ch.set(key, style=CHOSEN if now == n else PLAIN, disabled=n == 0 and no_zero is not None)
            ch.set(self.zero_text, value=no_zero or "", visible=no_zero is not None)
        else:
            ch.set(self.pad_title, value=_("{name} won how many tricks?", name=name))
            now = entry.tricks.get(pid)
            fits = fitting_tricks(record, pid)
            for n, key in enumerate(self.trick_keys):
                # TRANSLATORS: a keypad key's name for a screen reader: this player won n tricks
                ch.set(key.content, semantics_label=_("{name} tricks {n}", name=name, n=n),
                       color=ft.Colors.ON_PRIMARY if now == n else None)
                ch.set(key, style=CHOSEN if now == n else FITS if fits == n else PLAIN)
            ch.set(self.zero_text, value="", visible=False)

    def fill_summary(self, ch: Changes) -> None:
        record, result = self.record, self.result
        i = self.showing if self.showing is not None else len(record.rounds) - 1
        out: list[ft.Control] = []
        if 0 <= i < len(record.rounds):
            rnd = record.rounds[i]
            last = i == len(record.rounds) - 1
            out += [ft.Text(_("Round {n} closed", n=i + 1) if last else _("Round {n}", n=i + 1), size=theme.LARGE,
                            weight=ft.FontWeight.BOLD),
                    ft.Text(missed_line(record, rnd), size=theme.SMALL)]
            out += [self._score_line(line) for line in explain(record, rnd)]
            out += [warning_row(lang.problem(p), p.level == "error") for p in result.problems
                    if p.where.startswith(f"rounds[{i}]")]
        over = is_over(record)
        playing = record.finished is None
        buttons: list[ft.Control] = []
        n = len(record.rounds) + 1
        fresh = i == n - 2 and nk.entry_of(record).is_empty()
        # The next step in the bar below: the next round, or finishing once the last is closed.
        ch.set(self.bar, visible=playing)
        ch.set(self.close_btn, visible=False)
        ch.set(self.cancel_btn, visible=False)
        ch.set(self.round_btn, visible=playing and not over,
               content=_("Start round {n}", n=n) if fresh else _("Back to round {n}", n=n))
        ch.set(self.finish_btn, visible=playing and over, disabled=result.has_errors)
        ch.set(self.reason, value=_("Fix the errors before finishing."), visible=playing and over and result.has_errors)
        if playing:
            if 0 <= i < len(record.rounds):
                buttons.append(ft.OutlinedButton(_("Edit round {n}", n=i + 1), icon=ft.Icons.EDIT, height=theme.TAP,
                                                 on_click=partial(self.on_edit, i)))
        if buttons and not over:
            out.append(ft.Row(buttons, wrap=True, spacing=8))
        if over:
            out += [ft.Divider(height=16), theme.heading(_("Final standings")),
                    ft.Text(winners_line(result), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY),
                    *standings(result)]
            if record.finished:
                out += [ft.Text(_("This game is finished."), size=theme.BODY), self.result_actions()]
            if buttons:
                out.append(ft.Row(buttons, wrap=True, spacing=8))
        self.summary.controls = out
        ch.add(self.summary)

    def _score_line(self, line) -> ft.Control:
        made = line.made
        points = "–" if line.points is None else signed(line.points)
        # One node for a screen reader: "Ann: 23 (made 3: 3 + 10 × 2 missed = 23)".
        # TRANSLATORS: a player's round score for a screen reader: "Ann: 23 (made 3: 3 + 10 × 2 missed = 23)"
        said = _("{name}: {points} ({words})", name=line.name, points=points, words=line.words)
        return ft.Container(ft.Semantics(label=said, exclude_semantics=True,
                                         container=True, content=ft.Row([
            ft.Column([ft.Text(line.name, size=theme.BODY, weight=ft.FontWeight.BOLD, no_wrap=True,
                               overflow=ft.TextOverflow.ELLIPSIS),
                       ft.Text(line.words, size=theme.SMALL)], spacing=0, expand=True),
            ft.Text(points, size=theme.HUGE, weight=ft.FontWeight.BOLD,
                    color=ft.Colors.ON_PRIMARY_CONTAINER if made else None)],
            vertical_alignment=ft.CrossAxisAlignment.CENTER)),
            bgcolor=ft.Colors.PRIMARY_CONTAINER if made else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border_radius=ft.BorderRadius.all(12), padding=ft.Padding.symmetric(horizontal=12, vertical=6))

    def fill_table(self, ch: Changes) -> None:
        record, result = self.record, self.result
        ids = record.player_ids()
        rows = rounds_table(record, result)
        # TRANSLATORS: column heading of the round numbers (keep it short)
        head = ft.Row([ft.Text(_("Round"), size=theme.size_to_fit(_("Round"), 64, least=10), width=64, weight=ft.FontWeight.BOLD)]
                      + theme.column_heads([record.name_of(p) for p in ids], (self.page.width or 412) - 16, 64))
        lines: list[ft.Control] = [head] if rows else [
            ft.Text(_("Closed rounds appear here with their scores."), size=theme.BODY, color=theme.NOTE)]
        for row in rows:
            cells = [ft.Column([ft.Text(signed(row.points[p]) if p in row.points else "–", size=theme.BODY,
                                        weight=ft.FontWeight.BOLD),
                                ft.Text(f"= {signed(row.running[p])}", size=theme.SMALL)],
                               spacing=0, expand=True, horizontal_alignment=ft.CrossAxisAlignment.END)
                     for p in ids]
            shown = self.showing == row.round - 1 and not self.entering()
            # The round's number opens its scores with the bonus explained (and Edit round n).
            opener = ft.Container(
                ft.Semantics(label=_("Round {n} scores", n=row.round), button=True, exclude_semantics=True,
                             content=ft.Row([ft.Text(str(row.round), size=theme.BODY, weight=ft.FontWeight.BOLD),
                                             ft.Icon(ft.Icons.CHEVRON_RIGHT, size=20)], spacing=0)),
                width=64, height=theme.TAP + 8, ink=True, border_radius=ft.BorderRadius.all(8),
                on_click=partial(self.on_show_round, row.round - 1))
            lines.append(ft.Container(
                ft.Row([opener] + cells, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
                bgcolor=ft.Colors.SECONDARY_CONTAINER if shown else None))
        if rows:
            totals = {s.id: s for s in result.players}
            lines.append(ft.Container(ft.Row(
                # TRANSLATORS: the row of totals under the rounds (keep it short)
                [ft.Text(_("Total"), size=theme.size_to_fit(_("Total"), 64, "BODY", least=10), width=64, weight=ft.FontWeight.BOLD)]
                + [ft.Text(signed(totals[p].total), size=theme.LARGE, weight=ft.FontWeight.BOLD, expand=True,
                           text_align=ft.TextAlign.END, color=ft.Colors.PRIMARY if totals[p].place == 1 else None)
                   for p in ids]),
                border=ft.Border.only(top=ft.BorderSide(2, ft.Colors.OUTLINE)), padding=ft.Padding.only(top=6)))
        self.table.controls = lines
        ch.add(self.table)
        self.problems.controls = [warning_row(lang.problem(p), p.level == "error") for p in result.problems
                                  if not p.where.startswith("rounds[")]
        ch.add(self.problems)

    # ------------------------------------------------------------------ taps
    async def _tap(self, change, after=None) -> bool:
        async with self.lock:
            if self.record.finished is not None:
                return False
            if not await self.save(change):
                return False
            if after is not None:
                after()
            self.refresh_all()
            return True

    async def on_declare(self, n: int, e) -> None:
        await self._entry_tap(lambda r, pid: nk.declare(r, pid, n), DECLARE)

    async def on_tricks(self, n: int, e) -> None:
        await self._entry_tap(lambda r, pid: nk.set_tricks(r, pid, n), TRICKS)

    async def _entry_tap(self, edit, phase: str) -> None:
        async with self.lock:
            if self.record.finished is not None or not self.entering() or self.cursor.phase != phase:
                return
            pid = self.cursor.pid
            if not await self.save(lambda r: edit(r, pid)):
                return
            self.cursor = next_cursor(self.record, Cursor(phase, pid))
            self.send(self.fill_entry)

    async def on_cell(self, phase: str, pid: str, e) -> None:
        async with self.lock:
            self.cursor = Cursor(phase, pid)
            self.send(self.fill_entry)

    async def on_close(self, e) -> None:
        index = nk.entry_index(self.record)

        def shown():
            self.showing = index
            self.cursor = resume_cursor(self.record)
        await self._tap(nk.close_round, after=shown)

    async def on_cancel(self, e) -> None:
        index = nk.entry_index(self.record)

        def shown():
            self.showing = index
            self.cursor = resume_cursor(self.record)
        await self._tap(nk.clear_entry, after=shown)

    async def on_edit(self, index: int, e) -> None:
        def shown():
            self.showing = None
            self.cursor = Cursor(DECLARE, self.record.player_ids()[0])
        await self._tap(lambda r: nk.edit_round(r, index), after=shown)

    async def on_back(self, e) -> None:
        async with self.lock:
            self.showing = None
            self.cursor = resume_cursor(self.record)
            self.refresh_all()

    async def on_show_round(self, index: int, e) -> None:
        async with self.lock:
            if nk.entry_of(self.record).round is not None:  # finish the correction first
                self.notify(_("Save or cancel the correction of round {n} first", n=nk.entry_index(self.record) + 1))
                return
            self.showing = index
            self.refresh_all()
        await self.body.scroll_to(offset=0, duration=200)  # its scores are at the top

    async def on_finish(self, e) -> None:
        async with self.lock:
            if is_over(self.record) and await self.finish():
                self.refresh_all()

    async def on_dealer(self, e) -> None:
        record = self.record
        i = nk.entry_index(record)
        buttons = [ft.OutlinedButton(_("{name} deals round {n}", name=record.name_of(p), n=i + 1), height=theme.TAP,
                                     on_click=partial(self.on_pick_dealer, p)) for p in record.player_ids()]
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("Who deals this round?")),
            content=ft.Column([ft.Text(_("The deal then passes left round by round."), size=theme.SMALL), *buttons],
                              tight=True, spacing=8),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog())]))

    async def on_pick_dealer(self, pid: str, e) -> None:
        self.page.pop_dialog()
        i = nk.entry_index(self.record)
        await self._tap(lambda r: nk.set_dealer(r, i, pid))

