"""Statistics of each game and a player's page, from the store's index rows (scoring.statistics
does the sums, without Flet). Every chart has its numbers in words for screen readers."""
from __future__ import annotations

from functools import partial
from urllib.parse import quote

import flet as ft

from scoring import names
from scoring.statistics import COLOURS, game_stats, player_stats
from views import theme
from views.home import GAME_LOOK, title_of
from views.pads import GAME_ORDER
from views.roles import HOST_WHO, refusal

MOST_BARS = 8  # players in a chart; the table below lists everyone
LEFT_LABELS = 52  # wide enough for "13.1 K" on one line (40 broke it over two)


def _bars(values: list[tuple[str, int]], colour: str) -> ft.Control:
    import flet_charts as fch  # here, not at the top: 0.15 s of the phone build's start
    chart = fch.BarChart(
        groups=[fch.BarChartGroup(x=k, rods=[fch.BarChartRod(to_y=v, width=22, color=colour,
                                                               border_radius=ft.BorderRadius.only(top_left=4, top_right=4))])
                for k, (_n, v) in enumerate(values)],
        bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=k, label=ft.Text(n[:6], size=12))
                                          for k, (n, _v) in enumerate(values)], label_size=28),
        left_axis=fch.ChartAxis(label_size=LEFT_LABELS),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        max_y=max([v for _n, v in values] + [1]), height=200, interactive=False)
    words = "; ".join(f"{n} {v}" for n, v in values)
    return ft.Semantics(label=f"Wins per player: {words}", container=True, exclude_semantics=True, content=chart)


def _colour_bars(colours: dict[str, list[int]]) -> ft.Control:
    """Points by colour per player, stacked ('which clan carries you'); red below zero is drawn
    below the axis."""
    import flet_charts as fch  # here, not at the top: 0.15 s of the phone build's start
    names = sorted(colours, key=lambda n: -sum(colours[n]))[:MOST_BARS]
    groups = []
    for k, name in enumerate(names):
        items, low, high = [], 0, 0
        for colour, points in zip(COLOURS, colours[name]):
            if points >= 0:
                items.append(fch.BarChartRodStackItem(from_y=high, to_y=high + points, color=theme.DIE[colour][0]))
                high += points
            else:
                items.append(fch.BarChartRodStackItem(from_y=low + points, to_y=low, color=theme.RED_BLACK[0]))
                low += points
        groups.append(fch.BarChartGroup(x=k, rods=[fch.BarChartRod(from_y=low, to_y=high, width=24,
                                                                      stack_items=items)]))
    chart = fch.BarChart(groups=groups, height=220, interactive=False,
                         bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=k, label=ft.Text(n[:6], size=12))
                                                           for k, n in enumerate(names)], label_size=28),
                         left_axis=fch.ChartAxis(label_size=LEFT_LABELS),
                         horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1))
    words = "; ".join(f"{n}: " + ", ".join(f"{c} {p}" for c, p in zip(COLOURS, colours[n])) for n in names)
    legend = ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=theme.DIE[c][0], border_radius=3,
                                          border=ft.Border.all(1, ft.Colors.OUTLINE)),
                             ft.Text(c, size=12)], tight=True, spacing=3) for c in COLOURS], wrap=True, spacing=8)
    return ft.Column([ft.Semantics(label=f"Points by colour: {words}", container=True, exclude_semantics=True,
                                   content=chart), legend], spacing=6)


class StatisticsScreen:
    def __init__(self, page: ft.Page, rows: list, game: str, navigate):
        self.page = page
        self.navigate = navigate
        stats = game_stats(game, rows)
        chips = ft.Row([ft.Chip(label=ft.Text(title_of(g), size=theme.SMALL), selected=g == game, show_checkmark=False,
                                on_select=partial(self._go, f"/stats/{g}")) for g in GAME_ORDER],
                       scroll=ft.ScrollMode.AUTO, spacing=6)
        body: list[ft.Control] = [chips, ft.Text(f"{stats.games} {'game' if stats.games == 1 else 'games'} played",
                                                 size=theme.LARGE, weight=ft.FontWeight.BOLD)]
        if stats.games:
            colour = GAME_LOOK[game][0]
            body += [theme.heading("Wins per player", size=theme.BODY),
                     _bars([(p.name, p.wins) for p in stats.players[:MOST_BARS]], colour)]
            body += [ft.Text(f"Average total {stats.average_total:.0f}" +
                             (f" · best total {stats.best_total[1]} by {stats.best_total[0]}" if stats.best_total else ""),
                             size=theme.BODY)]
            body += [ft.Row([ft.Text(label, size=theme.SMALL, weight=ft.FontWeight.BOLD, width=150),
                             ft.Text(value, size=theme.SMALL, expand=True)], vertical_alignment=ft.CrossAxisAlignment.START)
                     for label, value in stats.extras]
            if stats.colours:
                body += [theme.heading("Which clan carries you: points by colour", size=theme.BODY),
                         _colour_bars(stats.colours)]
            body.append(theme.heading("Players", size=theme.BODY))
            body += [ft.ListTile(title=ft.Text(p.name, size=theme.BODY, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                                 subtitle=ft.Text(f"{p.wins} wins of {p.games} · {round(100 * p.win_rate)} % · "
                                                  f"average {p.average:.0f}", size=theme.SMALL),
                                 on_click=partial(self._go, f"/player/{quote(p.name, safe='')}"))
                     for p in stats.players]
        else:
            body.append(ft.Text("No finished game of this kind yet.", size=theme.BODY, italic=True))
        self.view = ft.View(
            route=f"/stats/{game}", padding=ft.Padding.all(12),
            appbar=ft.AppBar(title=ft.Text(f"Statistics · {title_of(game)}", size=theme.LARGE, weight=ft.FontWeight.BOLD,
                                           no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS), toolbar_height=64),
            controls=[ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10)])

    def _go(self, route: str, e) -> None:
        self.navigate(route)


class PlayerScreen:
    """A player's page: games, wins and streaks over every game; rename (the history follows)
    and merge with another name that is the same person."""

    def __init__(self, page: ft.Page, games, rows: list, name: str, navigate, who=HOST_WHO):
        self.page = page
        self.who = who  # a guest with the history open reads this page; only the host changes names
        self.games = games
        self.rows = rows
        self.name = name
        self.navigate = navigate
        stats = player_stats(name, rows)
        shown = next((line.name for line in stats.by_game.values()), name)
        self.shown = shown
        body: list[ft.Control] = [
            ft.Text(f"{stats.games} games · {stats.wins} wins" +
                    (f" · {round(100 * stats.wins / stats.games)} %" if stats.games else ""),
                    size=theme.LARGE, weight=ft.FontWeight.BOLD),
            ft.Text(f"Winning streak: {stats.current_streak} now, {stats.longest_streak} at the longest",
                    size=theme.BODY),
        ]
        for game in GAME_ORDER:
            line = stats.by_game.get(game)
            if line is None:
                continue
            body.append(ft.Container(ft.Column([
                ft.Text(title_of(game), size=theme.BODY, weight=ft.FontWeight.BOLD),
                ft.Text(f"{line.games} played · {line.wins} won ({round(100 * line.win_rate)} %)", size=theme.SMALL),
                ft.Text(f"Total: average {line.average:.0f}, best {max(line.totals)}, worst {min(line.totals)}",
                        size=theme.SMALL)], spacing=2),
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, border_radius=ft.BorderRadius.all(12),
                padding=ft.Padding.all(12)))
        if not stats.by_game:
            body.append(ft.Text("No finished game with this player yet.", size=theme.BODY, italic=True))
        if who.may("rename"):
            body.append(ft.Row([ft.OutlinedButton("Rename", icon=ft.Icons.EDIT, height=theme.TAP,
                                                  on_click=self.on_rename),
                                ft.OutlinedButton("Merge with…", icon=ft.Icons.MERGE, height=theme.TAP,
                                                  on_click=self.on_merge)], wrap=True, spacing=8))
        self.view = ft.View(route=f"/player/{quote(name, safe='')}", padding=ft.Padding.all(12),
                            appbar=ft.AppBar(title=ft.Text(shown, size=theme.LARGE, weight=ft.FontWeight.BOLD,
                                                           no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                                             toolbar_height=64),
                            # Stretched: each game's card as wide as the screen, not as its longest line.
                            controls=[ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10,
                                                horizontal_alignment=ft.CrossAxisAlignment.STRETCH)])

    def _count(self, name: str) -> int:
        key = names.key(name)  # as the store's rename finds the games
        return sum(1 for r in self.rows if any(names.key(p[1]) == key for p in r["players"]))

    def _both(self, other: str) -> int:
        a, b = names.key(self.name), names.key(other)
        return sum(1 for r in self.rows if {a, b} <= {names.key(p[1]) for p in r["players"]})

    def refused(self, action: str) -> bool:
        """Asked when a handler runs: a replayed event from a guest's phone does nothing."""
        if self.who.may(action):
            return False
        self.page.show_dialog(ft.SnackBar(ft.Text(f"{refusal(action)}.", size=theme.BODY)))
        return True

    async def change(self, new: str) -> None:
        self.page.pop_dialog()
        if self.refused("rename"):
            return
        try:
            # Games in progress are left as they are: phones are playing them (#24).
            renamed, kept = await self.games.run(self.games.store.rename_player, self.name, new, True)
        except Exception as exc:
            self.page.show_dialog(ft.SnackBar(ft.Text(f"Not changed: {exc}", size=theme.BODY)))
            return
        new = names.tidy(new)  # as the store keeps it
        self.navigate(f"/player/{quote(new, safe='')}")
        note = f", {kept} left as they were (both at the table, or a game being played)" if kept else ""
        self.page.show_dialog(ft.SnackBar(ft.Text(f"{renamed} {'game' if renamed == 1 else 'games'} now say "
                                                  f"{new}{note}.", size=theme.BODY)))

    def on_rename(self, e) -> None:
        if self.refused("rename"):
            return
        box = ft.TextField(label="New name", value=self.shown, max_length=names.NAME_MAX, text_size=theme.BODY,
                           autofocus=True)
        n = self._count(self.name)
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Rename {self.shown}", size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column([ft.Text(f"All {n} {'game' if n == 1 else 'games'} of {self.shown} will say the new "
                                       "name.", size=theme.BODY), box], tight=True),
            actions=[ft.TextButton("Cancel", on_click=lambda e: self.page.pop_dialog()),
                     ft.FilledButton("Rename", on_click=lambda e: self.page.run_task(self.change, box.value or ""))]))

    def on_merge(self, e) -> None:
        if self.refused("merge"):
            return
        from views.history_state import players
        others = [n for n in players(self.rows, most=30) if names.key(n) != names.key(self.name)]
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"{self.shown} is the same person as…", size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column([ft.OutlinedButton(n, height=theme.TAP, on_click=lambda e, n=n: self.preview_merge(n))
                               for n in others], scroll=ft.ScrollMode.AUTO, tight=True),
            actions=[ft.TextButton("Cancel", on_click=lambda e: self.page.pop_dialog())]))

    def preview_merge(self, other: str) -> None:
        self.page.pop_dialog()
        if self.refused("merge"):
            return
        mine, both = self._count(self.name), self._both(other)
        moving = mine - both
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Merge {self.shown} into {other}?", size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Text(f"{moving} {'game' if moving == 1 else 'games'} of {self.shown} become {other}'s "
                            f"({other} has {self._count(other)} now)." +
                            (f" {both} {'game has' if both == 1 else 'games have'} both at the table and "
                             "stay as they are." if both else ""), size=theme.BODY),
            actions=[ft.TextButton("Cancel", on_click=lambda e: self.page.pop_dialog()),
                     ft.FilledButton(f"Merge {moving} {'game' if moving == 1 else 'games'}",
                                     on_click=lambda e: self.page.run_task(self.change, other))]))
