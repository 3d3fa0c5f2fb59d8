"""Home: start one of the five games, resume a game in progress, look at the last finished ones."""
from __future__ import annotations

from datetime import datetime
from functools import partial

import flet as ft

from scoring import GAMES
from views import theme
from views.words import lang
from views.theme import GAME_LOOK
from views.words.lang import _, n_
from views.pads.registry import GAME_ORDER, PADS, title_of
from views.table.roles import HOST_WHO


def when(iso: str | None) -> str:
    """'22 Nov 19:04' in the server's local time, as this phone writes dates; '' when unknown."""
    if not iso:
        return ""
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return iso
    return lang.day_clock(t)


def players_line(summary) -> str:
    """Winners (or leaders) first, then the others in seat order: a line cut short at the
    screen's edge still shows the winner's score."""
    first = sorted(summary.players, key=lambda p: p[1] not in summary.winners)
    return " · ".join(f"{lang.name(name)} {total}" for _pid, name, total in first)


def span(game: str) -> str:
    low, high = GAMES[game].PLAYERS
    if low == high:
        return n_("{n} player", "{n} players", low)
    return _("{low}–{high} players", low=low, high=high)




def colour_of(game: str) -> str:
    """A game's own colour (grey for a game this app has no pad for)."""
    return GAME_LOOK.get(game, ("#888888",))[0]


def leader_line(summary) -> str:
    """'Ann leads · Ann 62 · Ben 40' for a game in progress."""
    scores = players_line(summary)
    if not summary.winners or all(total == 0 for _pid, _name, total in summary.players):
        return scores
    # TRANSLATORS: a game in progress: who leads, then every score ("Ann leads · Ann 62 · Ben 40")
    return n_("{names} leads · {scores}", "{names} lead · {scores}", len(summary.winners),
              names=lang.names(summary.winners), scores=scores)


def _game_cards(navigate, width: float) -> list[ft.Control]:
    """The five games' tiles, as tall as the tallest needs: its name whole (a smaller size, then a
    third line, before a word is cut: "Nokosu|Dice" and "Royal Game of…" in longer languages at the
    largest text, #45) and its player count."""
    columns = 3 if width >= 768 else 2  # the ResponsiveRow's xs 6 / md 4
    room = (width - 24 - 8 * (columns - 1)) / columns - 24 - 4  # the view's and the tile's padding
    # A name with a word wider than half the phone even at the small size ("Königliches" at 320 px, the largest
    # text) took a size of its own, much smaller than the others' (#56): then every tile is the phone's width.
    if columns == 2 and any(theme.lines_of(title_of(g), room, theme.SMALL) is None for g in GAME_ORDER):
        columns, room = 1, width - 24 - 24 - 4
    looks = []
    # TRANSLATORS: a game without a score pad yet: its player count, then this ("2–10 players · coming soon")
    unders = {game: span(game) if game in PADS else _("{players} · coming soon", players=span(game))
              for game in GAME_ORDER}
    for game in GAME_ORDER:
        title = title_of(game)
        size = theme.fitting(title, room, keys=("BODY", "SMALL"), lines=2)
        if theme.lines_of(title, room, size) is None:  # a word wider than the tile: smaller still
            size = theme.size_to_fit(title, room, "SMALL", least=12)
        under = theme.size_to_fit(unders[game], room, "SMALL", least=12)
        looks.append((game, title, size, theme.lines_of(title, room, size) or 3, under,
                      theme.lines_of(unders[game], room, under) or 3))
    height = max(24 + 30 + 4 + lines * 1.25 * size + under_lines * 1.4 * under
                 for _game, _title, size, lines, under, under_lines in looks)
    return [_game_card(navigate, game, title, size, unders[game], under, round(height), columns == 1)
            for game, title, size, _lines, under, _under_lines in looks]


def _game_card(navigate, game: str, title: str, size: int, under: str, under_size: int, height: int,
               whole: bool = False) -> ft.Control:
    bg, fg, icon = GAME_LOOK[game]
    ready = game in PADS
    # TRANSLATORS: a game's button read aloud: its name, then "2–10 players" (or "… · coming soon")
    label = _("{game}, {players}", game=title, players=under)
    return ft.Container(
        ft.Semantics(label=label, button=ready, exclude_semantics=True, container=True,
                     content=ft.Column([ft.Icon(icon, color=fg, size=30),
                                        ft.Text(title, size=size, weight=ft.FontWeight.BOLD, color=fg),
                                        ft.Text(under, size=under_size, color=fg)], spacing=2, tight=True)),
        col={"xs": 12 if whole else 6, "md": 4}, bgcolor=bg, opacity=1.0 if ready else 0.45, border_radius=ft.BorderRadius.all(16),
        padding=ft.Padding.all(12), height=height, ink=ready, disabled=not ready,
        on_click=partial(_go, navigate, f"/new/{game}") if ready else None)


def _card(control: ft.Control) -> ft.Container:
    return ft.Container(control, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, border_radius=ft.BorderRadius.all(16),
                        padding=ft.Padding.symmetric(vertical=2))


@ft.control(isolated=True)
class Hub(ft.View):
    """The home view. It is isolated: an update of the page (every other screen opening over
    it) stops at it instead of comparing its ~60 controls again (~5 ms a screen change); it
    sends its own changes (Home.show)."""


class Home:
    """The home, the hub a player opens at the table: games in progress first (one tap to go
    on), the five games to start, the last results; navigate(route) is called on a tap. A
    guest (who) gets no Your data, and History and Statistics only if the host opened them;
    a phone by itself (no table) has no Invite players.

    Kept for the session and filled again each time it is shown: its buttons stay the same
    controls, and a game's tile stays while the game is listed. The phone shows the home
    beneath a screen as soon as its back arrow is tapped, before the app hears of it; a tap
    there went to a control that the redraw had meanwhile replaced, and was lost (Your data
    tapped within 60 ms of Back did nothing, 4 times in 24 with a core busy)."""

    def __init__(self, navigate, who=HOST_WHO, table: bool = True, phones: bool = False):
        self.navigate, self.who = navigate, who
        self.look = look()  # what its controls were built with; another size or language builds a new home
        # Under the bar, not in it: beside three buttons it was cut to "Score pad for the …".
        self.intro = ft.Text(_("Score pad for the table"), size=theme.SMALL)
        self.in_progress_heading = theme.heading(_("In progress"))
        width = getattr(theme.current_page(), "width", None) or 412
        self.games = [theme.heading(_("New game")),
                      ft.ResponsiveRow(_game_cards(navigate, width), spacing=8, run_spacing=8)]
        looking = [(_("History"), ft.Icons.HISTORY, "/history"), (_("Statistics"), ft.Icons.BAR_CHART, "/stats/panda-royale")]
        # Side by side where each word fits half the width beside its icon, else one under the other.
        side = all(theme.widest_word(text, theme.BODY) * 1.05 <= (width - 24 - 8) / 2 - 40 - 26
                   for text, _icon, _route in looking)
        buttons = [ft.FilledTonalButton(text, icon=icon, expand=side, style=theme.wraps(),
                                        on_click=partial(_go, navigate, route)) for text, icon, route in looking]
        self.looking_back = ft.Row(buttons, spacing=8) if side else ft.Column(
            buttons, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        # A game handed over from another phone's screen (#53): where an import may be made.
        self.receive = ft.Row([ft.FilledTonalButton(_("Receive from another phone"), icon=ft.Icons.QR_CODE_SCANNER,
                                                    style=theme.wraps(), expand=True,
                                                    on_click=partial(_go, navigate, "/receive"))])
        # A table of phones with no laptop (#54): this phone follows another phone's game.
        self.join_route = "/join"
        self.join_button = ft.FilledTonalButton(_("Join a table"), icon=ft.Icons.PHONELINK_RING, style=theme.wraps(),
                                                expand=True, on_click=lambda e: _go(navigate, self.join_route, e))
        self.join = ft.Row([self.join_button]) if phones else None
        self.tiles: dict[tuple[str, str], tuple[ft.Control, ft.Text, ft.Text]] = {}  # (kind, game id) -> tile
        self.column = ft.Column([], scroll=ft.ScrollMode.AUTO, expand=True, spacing=10)
        self.view = Hub(
            route="/",
            appbar=ft.AppBar(title=ft.Text("Pandapad", size=theme.LARGE, weight=ft.FontWeight.BOLD),
                             actions=[*([theme.icon_button(ft.Icons.QR_CODE_2, _("Invite players"),
                                                           partial(_go, navigate, "/invite"))] if table else []),
                                      *([theme.icon_button(ft.Icons.FOLDER_OPEN, _("Your data"),
                                                           partial(_go, navigate, "/data"))]
                                        if who.may("data") else []),
                                      theme.icon_button(ft.Icons.SETTINGS, _("Settings"),
                                                        partial(_go, navigate, "/settings"))],
                             toolbar_height=64),
            controls=[self.column],
            padding=ft.Padding.all(12))

    def follow(self, game_id: str | None) -> None:
        """A guest's phone following the host's game (#54): Back to the table, else Join a table."""
        self.join_route = f"/table/{game_id}" if game_id else "/join"
        self.join_button.content = _("Back to the table") if game_id else _("Join a table")
        self.join_button.icon = ft.Icons.ARROW_FORWARD if game_id else ft.Icons.PHONELINK_RING

    def show(self, in_progress: list, recent: list) -> None:
        """Fill the home with these games (sent with the page's next update if it is new, else
        with its own: it is isolated)."""
        items: list[ft.Control] = [self.intro]
        listed = set()
        if in_progress:
            items.append(self.in_progress_heading)
            for s in in_progress:
                items.append(self._tile(
                    "resume", s, _("Resume {game}, {when}", game=title_of(s.game), when=when(s.created)),
                    leader_line(s), ft.Icons.PLAY_CIRCLE_FILL, 36, listed))
        items.extend(self.games)
        finished = [s for s in recent if s.finished][:5]
        history = self.who.may("history")  # the host may open or close it for guests at any time
        if history:
            items.append(self.looking_back)
        if self.who.may("import"):
            items.append(self.receive)
        if self.join is not None:
            items.append(self.join)
        items.append(theme.heading(_("Last results") if history else _("Finished at this table tonight")))
        if not finished:
            items.append(ft.Text(_("No finished game yet.") if history else _("No game finished here since the host "
                                                                              "started the app."),
                                 size=theme.BODY, color=theme.NOTE))
        for s in finished:
            items.append(self._tile(
                "result", s, n_("{game}, {when}: {names} won", "{game}, {when}: {names} won", len(s.winners),
                                game=title_of(s.game), when=when(s.finished), names=lang.names(s.winners)),
                players_line(s), ft.Icons.EMOJI_EVENTS, 30, listed))
        for gone in set(self.tiles) - listed:
            del self.tiles[gone]
        self.column.controls = items

    def _tile(self, kind: str, s, title: str, subtitle: str, icon, icon_size: int, listed: set) -> ft.Control:
        """A game's tile, the same control as last time with its words brought up to date."""
        key = (kind, s.id)
        listed.add(key)
        if key in self.tiles:
            tile, title_text, subtitle_text = self.tiles[key]
            title_text.value, subtitle_text.value = title, subtitle
            return tile
        # A game's name, its day, its winners and every score in full, on as many lines as they
        # take ("24. Nov. 1…" at the largest text in German, #45).
        title_text = ft.Text(title, size=theme.BODY, weight=ft.FontWeight.BOLD if kind == "resume" else None)
        subtitle_text = ft.Text(subtitle, size=theme.SMALL)
        tile = ft.ListTile(leading=ft.Icon(icon, size=icon_size, color=colour_of(s.game)), title=title_text,
                           subtitle=subtitle_text, min_height=theme.TAP + 16,
                           on_click=partial(_go, self.navigate, f"/game/{s.id}"))
        if kind == "resume":
            tile = _card(tile)
        self.tiles[key] = (tile, title_text, subtitle_text)
        return tile


def look() -> tuple[str, str]:
    """The text size and language this phone's screens are built with now."""
    return theme.text_size(), lang.language()


def _go(navigate, route: str, e) -> None:
    navigate(route)
