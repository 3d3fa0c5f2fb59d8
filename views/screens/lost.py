"""The phone's storage taken away under the running app (#46): site data cleared, the database
deleted. The games are still in this tab; the banner says so at once, on every screen, and
offers the two ways on: keep them on this phone again, or save them out to a file first. Until
one is chosen, the host refuses every change in words (views/hosts/standalone.py)."""
from __future__ import annotations

import logging

import flet as ft

from views import theme
from views.screens.data import save_out
from views.words.lang import _, n_

log = logging.getLogger(__name__)


class LostBanner:
    def __init__(self, page: ft.Page, games):
        self.page = page
        self.games = games
        self.said = ft.Text(_("The games are no longer kept on this phone. This tab still holds them until it is "
                              "closed: keep them on this phone again, or export them to a file first."),
                            size=theme.BODY, color=ft.Colors.ON_ERROR_CONTAINER)
        self.banner = ft.Banner(
            leading=ft.Icon(ft.Icons.WARNING_AMBER_ROUNDED, color=ft.Colors.ON_ERROR_CONTAINER, size=36),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            content=ft.Column([
                ft.Text(_("The browser cleared Pandapad's storage"), size=theme.BODY, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ON_ERROR_CONTAINER),
                self.said], tight=True, spacing=4),
            actions=[ft.TextButton(_("Export"), icon=ft.Icons.DOWNLOAD,
                                   style=theme.wraps(color=ft.Colors.ON_ERROR_CONTAINER,
                                                     icon_color=ft.Colors.ON_ERROR_CONTAINER),
                                   on_click=lambda e: page.run_task(self.export)),
                     ft.FilledButton(_("Keep them again"), icon=ft.Icons.SAVE, style=theme.wraps(),
                                     on_click=lambda e: page.run_task(self.keep_again))],
            force_actions_below=True)

    def show(self) -> None:
        self.page.show_dialog(self.banner)

    async def export(self) -> None:
        try:
            saved, count = await save_out(self.page, self.games, "json")
        except Exception as exc:  # noqa: BLE001 - said in the banner, never a traceback
            log.exception("export after the storage was lost")
            self.said.value = _("Not exported: {reason}", reason=exc)
        else:
            self.said.value = n_("Exported {n} game as {format}.", "Exported {n} games as {format}.", count,
                                 format="JSON") if saved else _("Not exported: no file was chosen.")
        self.page.update(self.said)

    async def keep_again(self) -> None:
        try:
            await self.games.host.keep_again()
        except Exception as exc:  # noqa: BLE001 - said in the banner, never a traceback
            log.exception("keeping the games again")
            self.said.value = _("Not kept: {reason}", reason=exc)
            self.page.update(self.said)
            return
        self.banner.open = False  # this banner, whatever SnackBar came after it
        self.banner.update()
        count = len(await self.games.rows())
        self.page.show_dialog(ft.SnackBar(ft.Text(
            n_("Kept on this phone again: {n} game.", "Kept on this phone again: {n} games.", count),
            size=theme.BODY)))
