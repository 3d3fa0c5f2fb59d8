"""Home: start one of the five games, resume a game in progress, look at the last finished ones."""
from __future__ import annotations

from datetime import datetime
from functools import partial

import flet as ft

from scoring import GAMES
from views import theme
from views.pads import GAME_ORDER, PADS


def when(iso: str | None) -> str:
    """'22 Nov 19:04' in the server's local time; '' when unknown."""
    if not iso:
        return ""
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return iso
    return t.strftime("%-d %b %H:%M")


def players_line(summary) -> str:
    return " · ".join(f"{name} {total}" for _pid, name, total in summary.players)


def title_of(game: str) -> str:
    return GAMES[game].TITLE if game in GAMES else game


def span(game: str) -> str:
    low, high = GAMES[game].PLAYERS
    return f"{low} players" if low == high else f"{low}–{high} players"


def build(navigate, in_progress: list, recent: list) -> ft.View:
    """The home view; navigate(route) is called with the route of the tapped entry."""
    items: list[ft.Control] = [theme.heading("New game")]
    for game in GAME_ORDER:
        ready = game in PADS
        items.append(ft.ListTile(
            leading=ft.Icon(ft.Icons.CASINO if ready else ft.Icons.HOURGLASS_EMPTY, size=30),
            title=ft.Text(title_of(game), size=theme.BODY, weight=ft.FontWeight.BOLD),
            subtitle=ft.Text(span(game) if ready else f"{span(game)} · coming soon", size=theme.SMALL),
            trailing=ft.Icon(ft.Icons.ADD_CIRCLE_OUTLINE) if ready else None,
            disabled=not ready, min_height=theme.TAP + 16,
            on_click=partial(_go, navigate, f"/new/{game}") if ready else None))

    items.append(theme.heading("In progress"))
    if not in_progress:
        items.append(ft.Text("No game in progress.", size=theme.BODY, italic=True))
    for s in in_progress:
        items.append(ft.ListTile(
            leading=ft.Icon(ft.Icons.PLAY_CIRCLE_OUTLINE, size=30),
            title=ft.Text(f"Resume {title_of(s.game)}, {when(s.created)}", size=theme.BODY,
                          weight=ft.FontWeight.BOLD),
            subtitle=ft.Text(players_line(s), size=theme.SMALL),
            min_height=theme.TAP + 16,
            on_click=partial(_go, navigate, f"/game/{s.id}")))

    finished = [s for s in recent if s.finished][:10]
    items.append(theme.heading("Finished"))
    if not finished:
        items.append(ft.Text("No finished game yet.", size=theme.BODY, italic=True))
    for s in finished:
        winners = " and ".join(s.winners)
        items.append(ft.ListTile(
            leading=ft.Icon(ft.Icons.EMOJI_EVENTS, size=30),
            title=ft.Text(f"{title_of(s.game)}, {when(s.finished)}: {winners} won", size=theme.BODY),
            subtitle=ft.Text(players_line(s), size=theme.SMALL),
            min_height=theme.TAP + 16,
            on_click=partial(_go, navigate, f"/game/{s.id}")))

    return ft.View(
        route="/",
        appbar=ft.AppBar(title=ft.Column([ft.Text("Pandapad", size=theme.LARGE, weight=ft.FontWeight.BOLD),
                                          ft.Text("Score pad for the table", size=theme.SMALL)],
                                         spacing=0, tight=True),
                         actions=[theme.icon_button(ft.Icons.HISTORY, "History", partial(_go, navigate, "/history")),
                                  theme.icon_button(ft.Icons.QR_CODE_2, "Invite players",
                                                    partial(_go, navigate, "/invite")),
                                  theme.icon_button(ft.Icons.FOLDER_OPEN, "Your data",
                                                    partial(_go, navigate, "/data")),
                                  theme.icon_button(ft.Icons.SETTINGS, "Settings",
                                                    partial(_go, navigate, "/settings"))],
                         toolbar_height=64),
        controls=[ft.Column(items, scroll=ft.ScrollMode.AUTO, expand=True, spacing=6)],
        padding=ft.Padding.all(8))


def _go(navigate, route: str, e) -> None:
    navigate(route)
