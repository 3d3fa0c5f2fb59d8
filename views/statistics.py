"""Statistics of each game and a player's page, from the store's index rows (scoring.statistics
does the sums, without Flet). Every chart has its numbers in words for screen readers."""
from __future__ import annotations

from functools import partial
from urllib.parse import quote

import flet as ft
import flet_charts as fch

from scoring.statistics import COLOURS, game_stats, player_stats
from views import theme
from views.home import GAME_LOOK, title_of
from views.pads import GAME_ORDER

MOST_BARS = 8  # players in a chart; the table below lists everyone


def _bars(values: list[tuple[str, int]], colour: str) -> ft.Control:
    chart = fch.BarChart(
        groups=[fch.BarChartGroup(x=k, rods=[fch.BarChartRod(to_y=v, width=22, color=colour,
                                                               border_radius=ft.BorderRadius.only(top_left=4, top_right=4))])
                for k, (_n, v) in enumerate(values)],
        bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=k, label=ft.Text(n[:6], size=12))
                                          for k, (n, _v) in enumerate(values)], label_size=28),
        left_axis=fch.ChartAxis(label_size=32),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        max_y=max([v for _n, v in values] + [1]), height=200, interactive=False)
    words = "; ".join(f"{n} {v}" for n, v in values)
    return ft.Semantics(label=f"Wins per player: {words}", container=True, exclude_semantics=True, content=chart)


def _colour_bars(colours: dict[str, list[int]]) -> ft.Control:
    """Points by colour per player, stacked ('which clan carries you'); red below zero is drawn
    below the axis."""
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
                         left_axis=fch.ChartAxis(label_size=40),
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


def player_view(rows: list, name: str) -> ft.View:
    stats = player_stats(name, rows)
    shown = next((line.name for line in stats.by_game.values()), name)
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
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, border_radius=ft.BorderRadius.all(12), padding=ft.Padding.all(12)))
    if not stats.by_game:
        body.append(ft.Text("No finished game with this player yet.", size=theme.BODY, italic=True))
    return ft.View(route=f"/player/{quote(name, safe='')}", padding=ft.Padding.all(12),
                   appbar=ft.AppBar(title=ft.Text(shown, size=theme.LARGE, weight=ft.FontWeight.BOLD, no_wrap=True,
                                                  overflow=ft.TextOverflow.ELLIPSIS), toolbar_height=64),
                   controls=[ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10)])
