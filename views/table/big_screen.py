"""The big screen: a tablet or TV in the middle of the table shows the standings, where the
game is and who still has to enter, following every phone's taps."""
from __future__ import annotations

import logging

import flet as ft

from scoring import score
from views import theme
from views.words import lang
from views.words.lang import _
from views.pads.pad.words import signed
from views.pads.registry import title_of

log = logging.getLogger(__name__)


class BigScreen:
    def __init__(self, page: ft.Page, games, saved, pad):
        self.page = page
        self.games = games
        self.saved = saved
        self.pad = pad
        self.game_id = saved.record.id
        self.where = ft.Text("", size=28, weight=ft.FontWeight.BOLD)
        self.todo = ft.Text("", size=28)
        self.rows = ft.Column(spacing=6)
        self.view = ft.View(
            route=f"/big/{self.game_id}",
            appbar=ft.AppBar(title=ft.Text(title_of(pad.rules.GAME), size=theme.LARGE, weight=ft.FontWeight.BOLD),
                             toolbar_height=64),
            padding=ft.Padding.all(16),
            controls=[ft.Column([self.where, self.rows, self.todo], spacing=16, scroll=ft.ScrollMode.AUTO,
                                expand=True)])
        self.fill()
        self.topic = f"game:{self.game_id}"
        page.pubsub.subscribe_topic(self.topic, self.on_change)

    def fill(self) -> None:
        record = self.saved.record
        result = score(record)
        where, pending = self.pad.table_status(record, result)
        self.where.value = _("Final standings") if record.finished else where
        self.todo.value = (_("Still to enter: {names}", names=lang.names(pending)) if pending and not record.finished
                           else "")
        self.todo.visible = bool(self.todo.value)
        rows = []
        for s in sorted(result.players, key=lambda s: s.place):
            lead = s.place == 1 and any(p.total for p in result.players)
            # TRANSLATORS: a place in the standings ("1.", "2.")
            place = _("{place}.", place=s.place)
            rows.append(ft.Container(ft.Row([
                ft.Text(place, size=32, width=56, weight=ft.FontWeight.BOLD),
                ft.Text(s.name, size=32, expand=True, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                ft.Icon(ft.Icons.EMOJI_EVENTS, size=36, visible=lead),
                ft.Text(signed(s.total), size=44, weight=ft.FontWeight.BOLD)]),
                bgcolor=ft.Colors.TERTIARY_CONTAINER if lead else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                border_radius=ft.BorderRadius.all(16), padding=ft.Padding.symmetric(horizontal=16, vertical=8)))
        self.rows.controls = rows

    async def on_change(self, topic: str, revision: int) -> None:
        theme.bind(self.page)  # PubSub runs this in the sender's context: draw in this phone's sizes
        if revision <= self.saved.revision:
            return
        try:
            self.saved = await self.games.load(self.game_id)
        except Exception as exc:
            log.info("reloading %s: %s", self.game_id, exc)
            return
        self.fill()
        self.page.update(self.view)

    def close(self) -> None:
        self.page.pubsub.unsubscribe_topic(self.topic)

    def resized(self, width, height) -> None:
        pass
