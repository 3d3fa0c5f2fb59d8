"""The Pandoria pad: a crown-track log during play (because the board's track gets knocked and
players argue), then the end-of-game step done for the table: hand cards, the resources left
and their conversion at the best rate, the leftover tie-break said in words."""
from __future__ import annotations

import re

from functools import partial

import flet as ft

from scoring import pandoria as pa
from views import theme
from views.words import lang
from views.pads.pad.changes import Changes
from views.games import Games
from views.words.lang import N_, _, n_
from views.pads.pad.parts import action_bar, bar_reason, warning_row
from views.pads.pad.words import step
from views.pads.pad.screen import PadScreen
from views.pads.pandoria.editor import EntryEditor, MorePoints
from views.pads.pandoria.setup import SetupForm
from views.pads.pandoria.sheet import Sheet
from views.pads.pandoria.state import final_words, log_rows, log_summary, notes_for, realm_title, standing_lines

QUICK = (1, 2, 3, 4, 5)


class PandoriaScreen(PadScreen):
    rules = pa
    nothing_yet = N_("No crown points logged yet")

    @classmethod
    async def default_settings(cls, games: Games) -> dict:
        """A new game takes the mode of the table's last Pandoria game (realms are chosen anew)."""
        last = await games.latest(pa.GAME)
        return {"mode": last.settings.mode if last is not None else "standard"}

    @classmethod
    def outcome_words(cls, result) -> str:
        return final_words(result)

    @classmethod
    def settings_form(cls, settings: dict) -> ft.Control:
        return SetupForm(settings)

    @classmethod
    def table_status(cls, record, result) -> tuple[str, list[str]]:
        if pa.at_end(record):
            return _("End of game: cards and resources"), []
        if not record.log:
            return _("Crown track · No entries yet"), []
        # TRANSLATORS: Pandoria: the crown track and the number of entries in its log
        return n_("Crown track · {n} entry", "Crown track · {n} entries", len(record.log)), []

    phone_state = ("picked",)

    def __init__(self, page: ft.Page, games: Games, saved):
        self.picked = saved.record.player_ids()[0]   # whose end step this phone shows
        self.editor: EntryEditor | None = None
        self._row_cache: dict[tuple, ft.Control] = {}
        super().__init__(page, games, saved)

    def started(self) -> bool:
        return bool(self.record.log or self.record.final)

    def here(self) -> str | None:
        return self.picked if pa.at_end(self.record) else None

    async def strip_pick(self, pid: str) -> None:
        """A tap on a player's total at the end step: that player's sheet."""
        self.picked = pid
        self.send()

    # ------------------------------------------------------------------ building
    def build(self) -> None:
        record = self.record
        mode = record.settings.mode
        # --- the crown-track log
        self.cards = {pid: self._player_card(pid) for pid in record.player_ids()}
        self.last_title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD, expand=True)
        self.last_edit = ft.TextButton(_("Edit"), icon=ft.Icons.EDIT_OUTLINED, height=theme.TAP,
                                       on_click=self.on_edit_last)
        self.note_chips = {n: self._note_chip(n) for n in notes_for(mode)}
        self.last_panel = ft.Container(ft.Column([
            ft.Row([self.last_title, self.last_edit], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Row(list(self.note_chips.values()), wrap=True, spacing=6, run_spacing=6)], spacing=4),
            bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=ft.BorderRadius.all(12),
            padding=ft.Padding.only(left=12, right=4, top=4, bottom=10))
        self.hint = ft.Text(_("Tap +n when a crown marker moves; the log keeps every step."), size=theme.SMALL,
                            color=theme.NOTE)
        self.score_btn = ft.FilledButton(_("Score the game"), icon=ft.Icons.CALCULATE, height=56,
                                         on_click=self.on_score)
        self.log_count = ft.Text("", size=theme.SMALL)
        self.log_list = ft.Column(spacing=0)
        self.log_area = ft.Column([
            *self.cards.values(), self.hint, self.last_panel,
            ft.Container(ft.Row([theme.heading(_("Crown log"), size=theme.BODY), self.log_count],
                                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                                vertical_alignment=ft.CrossAxisAlignment.CENTER), padding=ft.Padding.only(top=8)),
            self.log_list,
        ], spacing=8)
        # --- the end step: one player's sheet at a time, then the standings
        self.sheets = {pid: Sheet(self, pid) for pid in record.player_ids()}
        self.next_btn = ft.OutlinedButton(_("Next player"), height=56,
                                          on_click=self.on_next)
        self.final_words = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)
        self.standings = ft.Column(spacing=2)
        self.problems = ft.Column(spacing=4)
        self.finish_btn = ft.FilledButton(_("Finish the game"), icon=ft.Icons.FLAG, height=56,
                                          on_click=self.on_finish)
        self.finish_note = ft.Text("", size=theme.SMALL)
        self.result_box = ft.Column()  # once finished: share the result, log it in BG Stats
        self.back_btn = ft.TextButton(_("Back to the crown log"), icon=ft.Icons.ARROW_BACK, style=theme.wraps(),
                                      on_click=self.on_back)
        self.end_area = ft.Column([
            *[s.control for s in self.sheets.values()],
            ft.Divider(height=16),
            theme.heading(_("Final standings")),
            self.final_words, self.standings, self.problems,
            self.finish_note, self.result_box, self.back_btn,
        ], spacing=8)
        self.bar_reason = bar_reason()
        self.bar = action_bar(self.bar_reason, self.score_btn, self.next_btn, self.finish_btn)
        self.strip_box = ft.Container(self.strip.control, padding=ft.Padding.symmetric(horizontal=4))
        self.body = ft.Column([ft.Container(ft.Column([self.log_area, self.end_area], spacing=0),
                                            padding=ft.Padding.all(8))],
                              scroll=ft.ScrollMode.AUTO, expand=True, spacing=0)
        self.make_view(self.strip_box, self.body, self.bar)

    def _player_card(self, pid: str) -> ft.Container:
        name = self.record.name_of(pid)
        total = ft.Text("0", size=theme.HUGE, weight=ft.FontWeight.BOLD)
        realm = ft.Text("", size=theme.SMALL, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
        crown = ft.Icon(ft.Icons.EMOJI_EVENTS, size=22, color=ft.Colors.PRIMARY, visible=False)
        said = ft.Semantics(content=total, label="", exclude_semantics=True)
        keys = [self._plus_key(pid, name, n, f"+{n}", partial(self.on_plus, pid, n)) for n in QUICK]
        keys.append(self._plus_key(pid, name, None, "+…", partial(self.on_more, pid)))
        card = ft.Container(ft.Column([
            ft.Row([ft.Column([ft.Text(name, size=theme.BODY, weight=ft.FontWeight.BOLD, no_wrap=True,
                                       overflow=ft.TextOverflow.ELLIPSIS), realm], spacing=0, expand=True),
                    crown, said],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Row(keys, spacing=6)], spacing=4),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, border_radius=ft.BorderRadius.all(14),
            padding=ft.Padding.only(left=12, right=8, top=4, bottom=8))
        card.data = (said, total, realm, crown)
        return card

    def _plus_key(self, pid: str, name: str, n: int | None, text: str, on_click) -> ft.Container:
        label = _("+{n} for {name}", n=n, name=name) if n is not None else _("More points for {name}", name=name)
        return ft.Container(
            ft.Semantics(label=label, button=True, exclude_semantics=True,
                         content=ft.Text(text, size=theme.LARGE, weight=ft.FontWeight.BOLD,
                                         color=ft.Colors.ON_PRIMARY_CONTAINER)),
            expand=True, height=52, border_radius=ft.BorderRadius.all(12), alignment=ft.Alignment.CENTER,
            bgcolor=ft.Colors.PRIMARY_CONTAINER, ink=True, on_click=on_click)

    def _note_chip(self, note: str) -> ft.Container:
        icon = ft.Icon(ft.Icons.CHECK, size=18, visible=False)
        # The record keeps the English note; the chip shows it in this phone's language.
        text = ft.Text(_(note), size=theme.SMALL, weight=ft.FontWeight.BOLD)
        chip = ft.Container(
            ft.Semantics(label=_(note), button=True, exclude_semantics=True,
                         content=ft.Row([icon, text], spacing=4, tight=True,
                                        vertical_alignment=ft.CrossAxisAlignment.CENTER)),
            height=theme.TAP, padding=ft.Padding.symmetric(horizontal=14), border_radius=ft.BorderRadius.all(24),
            border=ft.Border.all(1, ft.Colors.OUTLINE), ink=True,
            on_click=partial(self.on_note, note))
        chip.data = icon
        return chip

    # ------------------------------------------------------------------ filling
    def fill(self, ch: Changes) -> None:
        end = pa.at_end(self.record) or self.record.finished is not None
        ch.set(self.log_area, visible=not end)
        ch.set(self.end_area, visible=end)
        ch.set(self.strip_box, visible=end)
        if end:
            self.fill_end(ch)
        else:
            self.fill_log(ch)
        if self.editor is not None:
            self.editor.fill(ch)

    def fill_log(self, ch: Changes) -> None:
        record = self.record
        totals = {pid: pa.log_total(record, pid) for pid in record.player_ids()}
        top = max(totals.values())
        for pid, card in self.cards.items():
            said, total, realm, crown = card.data
            name = record.name_of(pid)
            ch.set(total, value=str(totals[pid]))
            ch.set(said, label=_("{name}'s crown track: {points}", name=name, points=totals[pid]))
            ch.set(crown, visible=top > 0 and totals[pid] == top)
            where = pa.realm_of(record, pid)
            ch.set(realm, value=realm_title(record.settings.mode, where) if where else "",
                   visible=bool(where))
        last = len(record.log) - 1
        ch.set(self.last_panel, visible=last >= 0)
        ch.set(self.hint, visible=last < 0)
        if last >= 0:
            entry = record.log[last]
            running = pa.log_total(record, entry.player)
            # TRANSLATORS: Pandoria: the last entry of the crown-track log, the player's total, then the chips
            # saying what it was for
            said = _("Last: {name} {points} (= {total}) · what for?",
                     name=record.name_of(entry.player), points=step(entry.points), total=running)
            # The sum kept with its sign: German and Spanish lines broke "(= / 3)" (#45).
            ch.set(self.last_title, value=re.sub(r"([=+]) (?=\d)", "\\1\u00a0", said))
            for note, chip in self.note_chips.items():
                on = record.log[last].note == note
                ch.set(chip, bgcolor=ft.Colors.PRIMARY if on else None)
                ch.set(chip.data, visible=on, color=ft.Colors.ON_PRIMARY)
                ch.set(chip.content, selected=on)
                ch.set(chip.content.content.controls[1], color=ft.Colors.ON_PRIMARY if on else None)
        ch.set(self.log_count, value=log_summary(record))
        ch.set_children(self.log_list, [self._log_row(row) for row in log_rows(record)] or [
            ft.Text(_("Nothing logged yet."), size=theme.BODY, color=theme.NOTE)])
        ch.set(self.score_btn, disabled=record.finished is not None, visible=True)
        ch.set(self.next_btn, visible=False)
        ch.set(self.finish_btn, visible=False)
        ch.set(self.bar_reason, visible=False)
        ch.set(self.bar, visible=record.finished is None)

    def _log_row(self, row) -> ft.Control:
        key = (row.index, row.pid, row.name, row.points, row.note, row.running)
        if key in self._row_cache:
            return self._row_cache[key]
        n = row.index + 1
        note = _(row.note) if row.note else ""
        # TRANSLATORS: a crown-track log entry's button for a screen reader: "Edit entry 3: Ann +5, city closed,
        # 17 in all"
        words = (_("Edit entry {n}: {name} {points}, {note}, {total} in all", n=n, name=row.name,
                   points=step(row.points), note=note, total=row.running) if row.note
                 else _("Edit entry {n}: {name} {points}, {total} in all", n=n, name=row.name,
                        points=step(row.points), total=row.running))
        control = ft.Container(
            ft.Semantics(label=words, button=True, exclude_semantics=True, content=ft.Row([
                ft.Text(str(n), size=theme.SMALL, width=30, color=theme.NOTE),
                ft.Column([ft.Text(row.name, size=theme.BODY, weight=ft.FontWeight.BOLD, no_wrap=True,
                                   overflow=ft.TextOverflow.ELLIPSIS),
                           *([ft.Text(note, size=theme.SMALL, color=theme.NOTE)] if row.note else [])],
                          spacing=0, expand=True),
                ft.Text(step(row.points), size=theme.LARGE, weight=ft.FontWeight.BOLD, width=56,
                        text_align=ft.TextAlign.END),
                ft.Text(f"= {row.running}", size=theme.BODY, width=64, text_align=ft.TextAlign.END),
                ft.Icon(ft.Icons.EDIT_OUTLINED, size=20, color=theme.NOTE),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=8)),
            padding=ft.Padding.symmetric(horizontal=4, vertical=6), ink=True,
            border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            on_click=partial(self.on_edit, row.index))
        control.height = None
        self._row_cache = {k: v for k, v in self._row_cache.items() if k[0] != row.index}
        self._row_cache[key] = control
        return control

    def fill_end(self, ch: Changes) -> None:
        record, result = self.record, self.result
        ids = record.player_ids()
        if self.picked not in ids:
            self.picked = ids[0]
        finished = record.finished is not None
        for pid, sheet in self.sheets.items():
            ch.set(sheet.control, visible=pid == self.picked)
            if pid == self.picked:
                sheet.fill(ch, enabled=not finished)
        nxt = ids[(ids.index(self.picked) + 1) % len(ids)]
        # TRANSLATORS: the button to the next player's end-of-game sheet
        ch.set(self.next_btn, content=_("Next: {name}", name=record.name_of(nxt)), visible=not finished, data=nxt)
        ch.set(self.final_words, value=final_words(result))
        lines = standing_lines(result)
        key = tuple(lines)
        if self.standings.data != key:
            self.standings.data = key
            ch.set_children(self.standings, [self._place_row(*line) for line in lines])
        problems = [(lang.problem(p), p.level == "error") for p in result.problems]
        if self.problems.data != problems:
            self.problems.data = problems
            ch.set_children(self.problems, [warning_row(m, err) for m, err in problems])
        ch.set(self.score_btn, visible=False)
        ch.set(self.finish_btn, visible=not finished, disabled=result.has_errors)
        ch.set(self.bar_reason, value=_("Fix the errors before finishing."), visible=result.has_errors)
        ch.set(self.bar, visible=not finished)
        ch.set(self.finish_note, value=_("This game is finished.") if finished else
               _("Fix the errors before finishing.") if result.has_errors else
               _("Check every player's sheet, then finish: the game moves to the history."))
        ch.set(self.back_btn, visible=not finished)
        if self.result_box.data != (finished, self.saved.revision):
            self.result_box.data = (finished, self.saved.revision)
            ch.set_children(self.result_box, [self.result_actions()] if finished else [])

    def _place_row(self, place: int, name: str, shown: str) -> ft.Control:
        # TRANSLATORS: a place in the final standings for a screen reader: "1. Hilde: 25 · 3 left over"
        said = _("{place}. {name}: {shown}", place=place, name=name, shown=shown)
        # TRANSLATORS: a place in the final standings ("1.", "2.")
        number = _("{place}.", place=place)
        place_width = max(32, round(theme.text_width(_("{place}.", place=4), theme.BODY)) + 4)  # "4." or "4位"
        room = (self.page.width or 412) - 24 - place_width - 20  # the name's and the score's, the row's spacing aside
        # The score gives way to the name whole, down to its widest word, then the name takes a smaller size:
        # "김…" beside blank space at 320 px (#55).
        shown_width = min(theme.text_width(shown, theme.BODY) + 4,
                          max(room - theme.text_width(name, theme.BODY) - 4, room / 3,
                              theme.widest_piece(shown, theme.BODY) * 1.1 + 4))
        name_size = theme.size_to_fit(name, room - shown_width, "BODY", least=12)
        return ft.Semantics(label=said, exclude_semantics=True, container=True,
                            content=ft.Row([ft.Text(number, size=theme.BODY, width=place_width),
                                            ft.Text(name, size=name_size, expand=True, no_wrap=True,
                                                    overflow=ft.TextOverflow.ELLIPSIS),
                                            # "58 · 2 left over" may take two lines rather than run off.
                                            ft.Text(shown, size=theme.BODY, weight=ft.FontWeight.BOLD,
                                                    text_align=ft.TextAlign.END,
                                                    width=shown_width)]))

    # ------------------------------------------------------------------ taps
    async def tap(self, change) -> bool:
        async with self.lock:
            if self.record.finished is not None:
                return False
            if await self.save(change):
                self.send()
                return True
            return False

    async def on_plus(self, pid: str, n: int, e) -> None:
        await self.tap(lambda r: pa.add_entry(r, pid, n))

    async def on_more(self, pid: str, e) -> None:
        MorePoints(self, pid).open()

    async def on_note(self, note: str, e) -> None:
        index = len(self.record.log) - 1
        if index >= 0:
            await self.tap(lambda r: pa.set_note(r, index, note))

    async def on_edit(self, index: int, e) -> None:
        if self.record.finished is None:
            EntryEditor(self, index).open()

    async def on_edit_last(self, e) -> None:
        await self.on_edit(len(self.record.log) - 1, e)

    async def on_score(self, e) -> None:
        if await self.tap(pa.to_end):
            self.picked = self.record.player_ids()[0]
            self.send()

    async def on_back(self, e) -> None:
        await self.tap(pa.to_log)

    async def on_next(self, e) -> None:
        self.picked = self.next_btn.data or self.picked
        self.send()
        await self.body.scroll_to(offset=0, duration=200)

    async def on_finish(self, e) -> None:
        async with self.lock:
            if await self.finish():
                self.send()

    def after_history(self, before) -> None:
        self.after_reload(before)

    def after_reload(self, before) -> None:
        if self.editor is not None and not self.editor.valid():
            self.editor.close()
