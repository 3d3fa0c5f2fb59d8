"""Dialogs of the crown log: bigger steps than +5, and editing one entry (whose, how many,
what for, or deleting it). Every tap in them is saved at once, like any tap on the pad."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import pandoria as pa
from views import theme
from views.pads.pad.changes import Changes
from views.words.lang import _
from views.pads.pad.parts import Stepper
from views.pads.pandoria.state import notes_for

MORE = range(6, 26)  # a big city or a relic scores more than +5 in one go


class MorePoints:
    def __init__(self, screen, pid: str):
        self.screen = screen
        self.pid = pid
        name = screen.record.name_of(pid)
        keys = [ft.Container(
            # TRANSLATORS: a key's name for a screen reader: n crown points for this player
            ft.Semantics(label=_("+{n} for {name}", n=n, name=name), button=True, exclude_semantics=True,
                         content=ft.Text(f"+{n}", size=theme.LARGE, weight=ft.FontWeight.BOLD,
                                         color=ft.Colors.ON_PRIMARY_CONTAINER)),
            expand=True, height=52, border_radius=ft.BorderRadius.all(12), alignment=ft.Alignment.CENTER,
            bgcolor=ft.Colors.PRIMARY_CONTAINER, ink=True, on_click=partial(self.on_key, n)) for n in MORE]
        rows = [ft.Row(keys[k:k + 5], spacing=6) for k in range(0, len(keys), 5)]
        self.dialog = ft.AlertDialog(
            title=ft.Text(_("Points for {name}", name=name), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column(rows, tight=True, spacing=6, width=340),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: screen.page.pop_dialog())])

    def open(self) -> None:
        self.screen.page.show_dialog(self.dialog)

    async def on_key(self, n: int, e) -> None:
        self.screen.page.pop_dialog()
        await self.screen.tap(lambda r: pa.add_entry(r, self.pid, n))


class EntryEditor:
    def __init__(self, screen, index: int):
        self.screen = screen
        self.index = index
        record = screen.record
        n = index + 1
        self.players = {pid: self._chip(record.name_of(pid), partial(self.on_player, pid))
                        for pid in record.player_ids()}
        self.stepper = Stepper(_("Points"),
                               # TRANSLATORS: an entry of Pandoria's crown-track log, numbered
                               _("More points for entry {n}", n=n), _("Fewer points for entry {n}", n=n),
                               self.on_step, pick=_("Set points for entry {n}", n=n),
                               sheet_title=_("Points of entry {n}", n=n))
        self.stepper.control.bgcolor = None
        # The record keeps the English note; the chip shows it in this phone's language.
        self.notes = {note: self._chip(_(note), partial(self.on_note, note))
                      for note in notes_for(record.settings.mode)}
        self.dialog = ft.AlertDialog(
            title=ft.Text(_("Entry {n}", n=n), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column([
                # TRANSLATORS: Pandoria: which player's crown marker moved
                ft.Text(_("Whose crown marker"), size=theme.SMALL),
                ft.Row(list(self.players.values()), wrap=True, spacing=6, run_spacing=6),
                self.stepper.control,
                # TRANSLATORS: Pandoria: what the points were for (a region closed, a spell, …)
                ft.Text(_("What for"), size=theme.SMALL),
                ft.Row(list(self.notes.values()), wrap=True, spacing=6, run_spacing=6),
            ], tight=True, spacing=8, width=340),
            actions=[ft.TextButton(_("Delete entry"), icon=ft.Icons.DELETE_OUTLINE, on_click=self.on_delete,
                                   style=ft.ButtonStyle(color=ft.Colors.ERROR)),
                     ft.FilledButton(_("Done"), on_click=lambda e: self.close())],
            on_dismiss=self.on_dismiss)

    @staticmethod
    def _chip(text: str, on_click) -> ft.Container:
        return ft.Container(
            ft.Semantics(label=text, button=True, exclude_semantics=True,
                         content=ft.Row([ft.Text(text, size=theme.SMALL, weight=ft.FontWeight.BOLD, no_wrap=True)],
                                        tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)),
            height=theme.TAP, padding=ft.Padding.symmetric(horizontal=14), border_radius=ft.BorderRadius.all(24),
            border=ft.Border.all(1, ft.Colors.OUTLINE), ink=True, on_click=on_click)

    def valid(self) -> bool:
        return self.index < len(self.screen.record.log)

    def open(self) -> None:
        self.fill(Changes())
        self.screen.editor = self
        self.screen.page.show_dialog(self.dialog)

    def close(self) -> None:
        if self.screen.editor is self:
            self.screen.editor = None
            self.screen.page.pop_dialog()

    def on_dismiss(self, e) -> None:
        if self.screen.editor is self:
            self.screen.editor = None

    def fill(self, ch: Changes) -> None:
        if not self.valid():
            return
        entry = self.screen.record.log[self.index]
        for pid, chip in self.players.items():
            self._paint(ch, chip, entry.player == pid)
        for note, chip in self.notes.items():
            self._paint(ch, chip, entry.note == note)
        self.stepper.fill(ch, entry.points, 1, 99)

    @staticmethod
    def _paint(ch: Changes, chip: ft.Container, on: bool) -> None:
        ch.set(chip, bgcolor=ft.Colors.PRIMARY if on else None)
        ch.set(chip.content, selected=on)
        ch.set(chip.content.content.controls[0], color=ft.Colors.ON_PRIMARY if on else None)

    async def on_player(self, pid: str, e) -> None:
        await self.screen.tap(lambda r: pa.move_entry(r, self.index, pid))

    async def on_note(self, note: str, e) -> None:
        await self.screen.tap(lambda r: pa.set_note(r, self.index, note))

    async def on_step(self, delta: int, e) -> None:
        await self.screen.tap(lambda r: pa.step_entry(r, self.index, delta))

    async def on_delete(self, e) -> None:
        index = self.index
        self.close()
        await self.screen.tap(lambda r: pa.delete_entry(r, index))
