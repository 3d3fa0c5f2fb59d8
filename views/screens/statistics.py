"""Statistics of each game and a player's page, from the store's index rows (scoring.statistics
does the sums, without Flet). Every chart has its numbers in words for screen readers."""
from __future__ import annotations

from functools import partial
from urllib.parse import quote

import flet as ft

from scoring import names
from scoring.statistics import COLOURS, game_stats, player_stats
from views import theme
from views.words import lang
from views.theme import GAME_LOOK
from views.words.lang import _, n_, p_
from views.pads.registry import GAME_ORDER, title_of
from views.table.roles import HOST_WHO, refusal_said

MOST_BARS = 8  # players in a chart; the table below lists everyone


def colour_word(colour: str) -> str:
    """A die colour key as the chart's legend and words name it ('yellow')."""
    words = {"yellow": p_("die colour", "yellow"), "purple": p_("die colour", "purple"),
             "blue": p_("die colour", "blue"), "red": p_("die colour", "red"), "green": p_("die colour", "green"),
             "clear": p_("die colour", "clear"), "pink": p_("die colour", "pink"),
             "glitter": p_("die colour", "glitter")}
    return words.get(colour, colour)


def _pair(name: str, value) -> str:
    # TRANSLATORS: a name and its number in a chart read aloud ("Ann 3", "yellow 12")
    return _("{name} {value}", name=name, value=value)


def _name_column(names: list[str]) -> tuple[float, int]:
    """The names' column of a chart: (width, size): as wide as the longest name, up to 40 % of the screen; a
    longer name takes a smaller size, then wraps at its spaces. Under bars standing up, a name had the bar's
    28 px and was cut to its first six letters ("Дмитри", #56): the bars lie down beside their names."""
    size = theme.SMALL
    room = ((getattr(theme.current_page(), "width", None) or 412) - 24) * 0.4
    width = min(room, max([40.0] + [theme.text_width(n, size) * 1.1 + 4 for n in names]))
    return width, min(theme.size_to_fit(n, width, "SMALL", least=12) for n in names) if names else size


def _upright(text: str, size: int, width: float | None = None, bold=ft.FontWeight.W_600, gap: int = 0) -> ft.Control:
    """A label of the turned chart, turned back so that it reads as any text (gap: px before it)."""
    return ft.RotatedBox(quarter_turns=3, content=ft.Container(ft.Text(text, size=size, width=width, weight=bold),
                                                               padding=ft.Padding.only(left=gap)))


def _lying(groups: list, names: list[str], values: list[str], bar: float, most: float | None = None) -> ft.Control:
    """A flet-charts BarChart turned a quarter (the bars lie down): its bottom axis, the players' names, is
    then the left column, each name whole at its width (standing bars gave a name its bar's 28 px and its first
    six letters, "Дмитри", #56); its top axis, each bar's value, the right one."""
    import flet_charts as fch  # here, not at the top: 0.15 s of the phone build's start
    width, size = _name_column(names)
    row = max(bar + 10, size * 1.5 * max(1, max((len(n.split()) for n in names), default=1)))
    value_width = max([theme.text_width(v, theme.SMALL) * 1.1 + 14 for v in values] + [30.0])
    chart = fch.BarChart(
        groups=groups, max_y=most, interactive=False, group_alignment=ft.MainAxisAlignment.SPACE_AROUND,
        bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=k, label=_upright(n, size, width))
                                          for k, n in enumerate(names)], label_size=width + 8),
        top_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=k, label=_upright(v, theme.SMALL,
                                                                                  bold=ft.FontWeight.BOLD, gap=6))
                                       for k, v in enumerate(values)], label_size=value_width),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1))
    return ft.Container(ft.RotatedBox(quarter_turns=1, content=chart), height=row * max(1, len(names)) + 8)


def _bars(values: list[tuple[str, int]], colour: str) -> ft.Control:
    """One bar a player, lying beside the name, as long as the wins."""
    import flet_charts as fch  # here, not at the top: 0.15 s of the phone build's start
    groups = [fch.BarChartGroup(x=k, rods=[fch.BarChartRod(to_y=v, width=20, color=colour,
                                                           border_radius=ft.BorderRadius.only(top_left=4, top_right=4))])
              for k, (_n, v) in enumerate(values)]
    chart = _lying(groups, [n for n, _v in values], [str(v) for _n, v in values], 20,
                   most=max([v for _n, v in values] + [1]))
    words = "; ".join(_pair(n, v) for n, v in values)
    # TRANSLATORS: the bar chart read aloud: then "Ann 3; Ben 2"
    return ft.Semantics(label=_("Wins per player: {words}", words=words), container=True, exclude_semantics=True,
                        content=chart)


def _colour_bars(colours: dict[str, list[int]]) -> ft.Control:
    """Points by colour per player, stacked ('which clan carries you'), lying beside the names; red below
    zero is drawn left of the zero line, the rest right of it."""
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
        groups.append(fch.BarChartGroup(x=k, rods=[fch.BarChartRod(from_y=low, to_y=high, width=22,
                                                                      stack_items=items)]))
    chart = _lying(groups, names, [str(sum(colours[n])) for n in names], 22)
    # TRANSLATORS: one player's bar read aloud: the name, then each colour's points ("Ann: yellow 3, blue 5")
    words = "; ".join(_("{name}: {points}", name=n, points=", ".join(_pair(colour_word(c), p) for c, p in
                                                                     zip(COLOURS, colours[n]))) for n in names)
    legend = ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=theme.DIE[c][0], border_radius=3,
                                          border=ft.Border.all(1, ft.Colors.OUTLINE)),
                             ft.Text(colour_word(c), size=12)], tight=True, spacing=3) for c in COLOURS],
                    wrap=True, spacing=8)
    return ft.Column([ft.Semantics(label=_("Points by colour: {words}", words=words), container=True,
                                   exclude_semantics=True, content=chart), legend], spacing=6)


class StatisticsScreen:
    def __init__(self, page: ft.Page, rows: list, game: str, navigate):
        self.page = page
        self.navigate = navigate
        stats = game_stats(game, rows)
        chips = ft.Row([ft.Chip(label=theme.chip_text(title_of(g), theme.SMALL), selected=g == game,
                                show_checkmark=False,
                                on_select=partial(self._go, f"/stats/{g}")) for g in GAME_ORDER],
                       scroll=ft.ScrollMode.AUTO, spacing=6)
        body: list[ft.Control] = [chips, ft.Text(n_("{n} game played", "{n} games played", stats.games),
                                                 size=theme.LARGE, weight=ft.FontWeight.BOLD)]
        if stats.games:
            colour = GAME_LOOK[game][0]
            body += [theme.heading(_("Wins per player"), size=theme.BODY),
                     _bars([(p.name, p.wins) for p in stats.players[:MOST_BARS]], colour)]
            average = f"{stats.average_total:.0f}"
            body += [ft.Text(_("Average total {average} · best total {best} by {name}", average=average,
                               best=stats.best_total[1], name=stats.best_total[0]) if stats.best_total
                             else _("Average total {average}", average=average), size=theme.BODY)]
            body += [self._extra(_(label), lang.decimal(value) if isinstance(value, float) else lang.problem(value))
                     for label, value in stats.extras]
            if stats.colours:
                body += [theme.heading(_("Which clan carries you: points by colour"), size=theme.BODY),
                         _colour_bars(stats.colours)]
            body.append(theme.heading(_("Players"), size=theme.BODY))
            body += [ft.ListTile(title=ft.Text(p.name, size=theme.BODY, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                                 subtitle=ft.Text(n_("{n} wins of {games} · {rate} % · average {average}",
                                                     "{n} wins of {games} · {rate} % · average {average}", p.wins,
                                                     games=p.games, rate=round(100 * p.win_rate),
                                                     average=f"{p.average:.0f}"), size=theme.SMALL),
                                 on_click=partial(self._go, f"/player/{quote(p.name, safe='')}"))
                     for p in stats.players]
        else:
            body.append(ft.Text(_("No finished game of this kind yet."), size=theme.BODY, color=theme.NOTE))
        self.view = ft.View(
            route=f"/stats/{game}", padding=ft.Padding.all(12),
            appbar=theme.titled_bar(_("Statistics · {game}", game=title_of(game))),
            controls=[ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10)])

    @staticmethod
    def _extra(label: str, value: str) -> ft.Control:
        """A label and its value side by side; the label above where a word of it is wider than its 150 px
        column, at the size of the value: shrunk to fit, "Durchschnittliche Punkte pro Durchgang" was 60 % of it (#56)."""
        said = ft.Text(label, size=theme.SMALL, weight=ft.FontWeight.BOLD)
        shown = ft.Text(value, size=theme.SMALL)
        if theme.widest_word(label, theme.SMALL) * 1.1 > 149:
            return ft.Column([said, shown], spacing=2)
        said.width, shown.expand = 150, True
        return ft.Row([said, shown], vertical_alignment=ft.CrossAxisAlignment.START)

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
            # TRANSLATORS: a player's games and wins over every game, and the share won ("12 games · 5 wins · 42 %")
            ft.Text(_("{games} · {wins} · {rate} %", games=n_("{n} game", "{n} games", stats.games),
                      wins=n_("{n} win", "{n} wins", stats.wins), rate=round(100 * stats.wins / stats.games))
                    if stats.games else
                    # TRANSLATORS: a player's games and wins ("0 games · 0 wins")
                    _("{games} · {wins}", games=n_("{n} game", "{n} games", stats.games),
                      wins=n_("{n} win", "{n} wins", stats.wins)),
                    size=theme.LARGE, weight=ft.FontWeight.BOLD),
            ft.Text(_("Winning streak: {now} now, {longest} at the longest", now=stats.current_streak,
                      longest=stats.longest_streak), size=theme.BODY),
        ]
        for game in GAME_ORDER:
            line = stats.by_game.get(game)
            if line is None:
                continue
            body.append(ft.Container(ft.Column([
                ft.Text(title_of(game), size=theme.BODY, weight=ft.FontWeight.BOLD),
                # TRANSLATORS: a player's games of one kind ("12 played · 5 won (42 %)")
                ft.Text(_("{played} · {won} ({rate} %)", played=n_("{n} played", "{n} played", line.games),
                          won=n_("{n} won", "{n} won", line.wins), rate=round(100 * line.win_rate)),
                        size=theme.SMALL),
                ft.Text(_("Total: average {average}, best {best}, worst {worst}", average=f"{line.average:.0f}",
                          best=max(line.totals), worst=min(line.totals)), size=theme.SMALL)], spacing=2),
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, border_radius=ft.BorderRadius.all(12),
                padding=ft.Padding.all(12)))
        if not stats.by_game:
            body.append(ft.Text(_("No finished game with this player yet."), size=theme.BODY, color=theme.NOTE))
        if who.may("rename"):
            body.append(ft.Row([ft.OutlinedButton(_("Rename"), icon=ft.Icons.EDIT, height=theme.TAP,
                                                  on_click=self.on_rename),
                                ft.OutlinedButton(_("Merge with…"), icon=ft.Icons.MERGE, height=theme.TAP,
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
        self.page.show_dialog(ft.SnackBar(ft.Text(refusal_said(action), size=theme.BODY)))
        return True

    async def change(self, new: str) -> None:
        self.page.pop_dialog()
        if self.refused("rename"):
            return
        try:
            # Games in progress are left as they are: phones are playing them (#24).
            renamed, kept = await self.games.run(self.games.store.rename_player, self.name, new, True)
        except Exception as exc:
            self.page.show_dialog(ft.SnackBar(ft.Text(_("Not changed: {reason}", reason=lang.problem(exc.message)
                                                              if hasattr(getattr(exc, "message", None), "template") else exc), size=theme.BODY)))
            return
        new = names.tidy(new)  # as the store keeps it
        self.navigate(f"/player/{quote(new, safe='')}")
        if kept:
            said = n_("{n} game now say {name}, {kept} left as they were (both at the table, or a game being "
                      "played).", "{n} games now say {name}, {kept} left as they were (both at the table, or a "
                      "game being played).", renamed, name=new, kept=kept)
        else:
            said = n_("{n} game now say {name}.", "{n} games now say {name}.", renamed, name=new)
        self.page.show_dialog(ft.SnackBar(ft.Text(said, size=theme.BODY)))

    def on_rename(self, e) -> None:
        if self.refused("rename"):
            return
        box = ft.TextField(label=_("New name"), value=self.shown, max_length=names.NAME_MAX, text_size=theme.BODY,
                           autofocus=True)
        n = self._count(self.name)
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("Rename {name}", name=self.shown), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column([ft.Text(n_("All {n} game of {name} will say the new name.",
                                          "All {n} games of {name} will say the new name.", n, name=self.shown),
                                       size=theme.BODY), box], tight=True),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog()),
                     ft.FilledButton(_("Rename"), on_click=lambda e: self.page.run_task(self.change, box.value or ""))]))

    def on_merge(self, e) -> None:
        if self.refused("merge"):
            return
        from views.screens.history_state import players
        others = [n for n in players(self.rows, most=30) if names.key(n) != names.key(self.name)]
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("{name} is the same person as…", name=self.shown), size=theme.LARGE,
                          weight=ft.FontWeight.BOLD),
            content=ft.Column([ft.OutlinedButton(n, height=theme.TAP, on_click=lambda e, n=n: self.preview_merge(n))
                               for n in others], scroll=ft.ScrollMode.AUTO, tight=True),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog())]))

    def preview_merge(self, other: str) -> None:
        self.page.pop_dialog()
        if self.refused("merge"):
            return
        mine, both = self._count(self.name), self._both(other)
        moving = mine - both
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("Merge {name} into {other}?", name=self.shown, other=other), size=theme.LARGE,
                          weight=ft.FontWeight.BOLD),
            content=ft.Text(" ".join([
                n_("{n} game of {name} become {other}'s ({other} has {count} now).",
                   "{n} games of {name} become {other}'s ({other} has {count} now).", moving,
                   name=self.shown, other=other, count=self._count(other)),
                *([n_("{n} game has both at the table and stay as they are.",
                      "{n} games have both at the table and stay as they are.", both)] if both else [])]),
                size=theme.BODY),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog()),
                     ft.FilledButton(n_("Merge {n} game", "Merge {n} games", moving),
                                     on_click=lambda e: self.page.run_task(self.change, other))]))
