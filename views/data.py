"""Your data: every game exported as the same files `main.py export` writes (a download in a
browser, a save dialog on a desktop), and what the store repaired when it started."""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime

import flet as ft

from storage.export_file import export_bytes
from views import theme

log = logging.getLogger(__name__)


class DataScreen:
    def __init__(self, page: ft.Page, games, notices: list[str]):
        self.page = page
        self.games = games
        self.status = ft.Text("", size=theme.BODY)
        repaired = [ft.Container(ft.Column([
            ft.Row([ft.Icon(ft.Icons.HEALING, color=ft.Colors.PRIMARY),
                    theme.heading("Repaired at start", size=theme.BODY)]),
            *[ft.Text(n, size=theme.SMALL) for n in notices]], spacing=6),
            bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=ft.BorderRadius.all(12),
            padding=ft.Padding.all(12))] if notices else []
        self.view = ft.View(
            route="/data", padding=ft.Padding.all(12),
            appbar=ft.AppBar(title=ft.Text("Your data", size=theme.LARGE, weight=ft.FontWeight.BOLD),
                             toolbar_height=64),
            controls=[ft.Column([
                *repaired,
                theme.heading("Export every game", size=theme.BODY),
                ft.Text("The same files as main.py export: JSON to keep or move to another phone, "
                        "CSV for a spreadsheet.", size=theme.SMALL),
                ft.Row([ft.FilledButton("Export JSON", icon=ft.Icons.DOWNLOAD, height=theme.TAP,
                                        on_click=lambda e: self.page.run_task(self.export, "json")),
                        ft.OutlinedButton("Export CSV", icon=ft.Icons.TABLE_VIEW, height=theme.TAP,
                                          on_click=lambda e: self.page.run_task(self.export, "csv"))],
                       wrap=True, spacing=12),
                self.status,
            ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=12)])

    async def export(self, fmt: str) -> None:
        self.status.value = "Preparing the file…"
        self.page.update(self.status)
        try:
            data, count = await asyncio.to_thread(export_bytes, self.games.store, fmt)
            name = f"pandapad-{datetime.now().strftime('%Y-%m-%d-%H%M')}.{fmt}"
            self.picker = ft.FilePicker()
            saving = self.picker.save_file(file_name=name, src_bytes=data, dialog_title="Save the export")
            if self.page.web:
                # The browser downloads the bytes; Flet's web client never answers the call.
                self._download = asyncio.ensure_future(saving)
                saved = name
            else:
                saved = await saving
        except Exception as exc:
            log.exception("export")
            self.status.value = f"Not exported: {exc}"
        else:
            if saved is None and not self.page.web:
                self.status.value = "Not exported: no file was chosen."
            else:
                self.status.value = f"Exported {count} {'game' if count == 1 else 'games'} as {fmt.upper()}."
        self.page.update(self.status)
