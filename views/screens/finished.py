"""A finished game, read-only: who won, the standings, the round-by-round running totals as a
line chart (with the numbers as a table and a text for screen readers), the result handed on
(a picture, BG Stats, text: views/pads/pad/share.py), and what to do next: Edit (reopens it,
deliberately), Delete (with Undo), Rematch (same game, same seats)."""
from __future__ import annotations

import logging

import flet as ft

from scoring import score
from views import theme
from views.screens.data import made_when, save_out
from views.games import new_record
from views.words.lang import _, n_
from views.pads.pad.parts import standings
from views.pads.pad.share import ResultActions
from views.pads.pad.words import leaders, signed, verdict
from views.pads.registry import title_of
from views.table.roles import HOST_WHO, refusal_said

log = logging.getLogger(__name__)

# Line colours that stay apart in light and dark mode (and for the common colour blindnesses).
LINES = ["#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#7F7F7F",
         "#BCBD22", "#17BECF"]


def running_totals(result) -> dict[str, list[int]]:
    """Each player's total after each round / game / hand: [after 1, after 2, ...]."""
    out = {s.id: [] for s in result.players}
    for row in result.rounds:
        for pid, points in out.items():
            points.append((points[-1] if points else 0) + row.get(pid, 0))
    return out


def chart_text(result, runs: dict[str, list[int]]) -> str:
    """The chart in words, for a screen reader."""
    names = {s.id: s.name for s in result.players}
    # TRANSLATORS: one player's line of the chart read aloud: the name, then the totals ("Ann: 12, 30, 62")
    lines = "; ".join(_("{name}: {totals}", name=names[pid], totals=", ".join(signed(v) for v in values))
                      for pid, values in runs.items())
    # TRANSLATORS: the finished game's chart read aloud; then "Ann: 12, 30, 62; Ben: 8, 20, 40"
    return _("Running totals round by round. {lines}", lines=lines)


class FinishedScreen:
    def __init__(self, page: ft.Page, games, saved, pad, navigate, who=HOST_WHO):
        """pad: the game's pad class, or None for a game whose pad is still to come (then it
        can be looked at, deleted or played again from a file, not edited here)."""
        self.page = page
        self.games = games
        self.saved = saved
        self.pad = pad
        self.navigate = navigate
        self.who = who  # a guest looks (standings, chart, rematch), never edits or deletes
        record = saved.record
        self.title = title_of(record.game)
        result = score(record)
        runs = running_totals(result)
        body: list[ft.Control] = [
            ft.Text(verdict(leaders(result)), size=theme.LARGE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
        ]
        outcome = pad.outcome_words(result) if pad is not None else ""
        if outcome:
            body.append(ft.Text(outcome, size=theme.BODY))
        body += standings(result)
        body.append(ResultActions(page, record, pad.outcome_words if pad is not None else None).control)
        self.backup = ft.Container(visible=False)  # a phone by itself: the backup file offered (#46)
        body.append(self.backup)
        if len(result.rounds) >= 1:
            body += [theme.heading(_("How the game went"), size=theme.BODY), self._chart(result, runs)]
        body.append(ft.Row([
            # Everyone who may open this game may send it (#53): its whole label may take two lines.
            ft.OutlinedButton(_("Send to another phone"), icon=ft.Icons.SEND_TO_MOBILE, style=theme.wraps(),
                              on_click=lambda e: self.navigate(f"/send/{record.id}")),
            *([ft.OutlinedButton(_("Edit"), icon=ft.Icons.EDIT, height=theme.TAP, on_click=self.on_edit,
                                 disabled=pad is None)] if who.may("edit") else []),
            *([ft.OutlinedButton(_("Delete"), icon=ft.Icons.DELETE_OUTLINE, height=theme.TAP, on_click=self.on_delete)]
              if who.may("delete") else []),
            ft.FilledButton(_("Rematch"), icon=ft.Icons.REPLAY, height=theme.TAP, on_click=self.on_rematch,
                            disabled=pad is None),
        ], wrap=True, spacing=8))
        size, lines, height = theme.bar_title(self.title, (page.width or 412) - 56 - 32)
        self.view = ft.View(
            route=f"/game/{record.id}", padding=ft.Padding.all(12),
            appbar=ft.AppBar(title=ft.Column([ft.Text(self.title, size=size, weight=ft.FontWeight.BOLD, max_lines=lines),
                                              ft.Text(_("Finished"), size=theme.SMALL)], spacing=0, tight=True),
                             toolbar_height=height + round(theme.SMALL * 1.25) - 20),
            controls=[ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=10)])
        if games.host.backup_files and who.host:
            page.run_task(self.offer_backup)

    async def offer_backup(self) -> None:
        """A phone by itself keeps its games in the browser's storage only, which the browser or the
        person may clear: while finished games exist nowhere else, a backup file is offered (an
        export, which any Pandapad imports), with when the last one was made."""
        n = await self.games.unsaved_elsewhere()
        if not n:
            return
        self.backup_said = ft.Text(made_when(self.games.settings.backup_file_made), size=theme.SMALL)
        self.backup.content = ft.Column([
            ft.Row([ft.Icon(ft.Icons.SAVE_ALT, color=ft.Colors.PRIMARY),
                    ft.Text(n_("{n} finished game is kept only on this phone.",
                               "{n} finished games are kept only on this phone.", n),
                            size=theme.BODY, weight=ft.FontWeight.BOLD, expand=True)]),
            ft.Text(_("A backup file keeps them if the browser's storage is cleared: it imports in Your data, on "
                      "this phone or any other."), size=theme.SMALL),
            self.backup_said,
            ft.FilledButton(_("Save a backup file"), icon=ft.Icons.DOWNLOAD, style=theme.wraps(),
                            on_click=lambda e: self.page.run_task(self.save_backup))], spacing=8)
        self.backup.bgcolor = ft.Colors.SECONDARY_CONTAINER
        self.backup.border_radius = ft.BorderRadius.all(12)
        self.backup.padding = ft.Padding.all(12)
        self.backup.visible = True
        self.page.update(self.backup)

    async def save_backup(self) -> None:
        try:
            saved, count = await save_out(self.page, self.games, "json")
        except Exception as exc:  # noqa: BLE001 - a line under the button, never a traceback
            log.exception("backup file")
            self.backup_said.value = _("Not exported: {reason}", reason=exc)
        else:
            self.backup_said.value = (
                n_("Backup file saved: {file}, {n} game.", "Backup file saved: {file}, {n} games.", count, file=saved)
                if saved else _("Not exported: no file was chosen."))
        self.page.update(self.backup_said)

    def _chart(self, result, runs: dict[str, list[int]]) -> ft.Control:
        import flet_charts as fch  # here, not at the top: 0.15 s of the phone build's start
        n = len(result.rounds)
        series = [fch.LineChartData(
            points=[fch.LineChartDataPoint(x=0, y=0)] + [fch.LineChartDataPoint(x=k + 1, y=v) for k, v in enumerate(values)],
            color=LINES[i % len(LINES)], stroke_width=3, curved=False, point=True)
            for i, values in enumerate(runs.values())]
        values = [v for vs in runs.values() for v in vs] + [0]
        chart = fch.LineChart(
            data_series=series, min_x=0, max_x=n, min_y=min(values), max_y=max(values) or 1,
            height=240, interactive=False,
            horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
            left_axis=fch.ChartAxis(label_size=40),
            bottom_axis=fch.ChartAxis(label_size=24, label_spacing=max(1, n // 10)))
        legend = ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=LINES[i % len(LINES)], border_radius=7),
                                 ft.Text(s.name, size=theme.SMALL, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)],
                                tight=True, spacing=4) for i, s in enumerate(result.players)], wrap=True, spacing=12)
        # Room on the right for the last round's number, which the chart centres on its edge (cut by 4 px).
        return ft.Column([ft.Semantics(label=chart_text(result, runs), container=True, exclude_semantics=True,
                                       content=ft.Container(chart, padding=ft.Padding.only(right=12))), legend],
                         spacing=6)

    def refused(self, action: str) -> bool:
        """Asked when a handler runs: a replayed event from a guest's phone does nothing."""
        if self.who.may(action):
            return False
        self.page.show_dialog(ft.SnackBar(ft.Text(refusal_said(action), size=theme.BODY)))
        return True

    async def on_edit(self, e) -> None:
        if self.refused("edit"):
            return
        try:
            await self.games.edit(self.saved.record.id, self.saved, lambda r: r.model_copy(update={"finished": None}))
        except Exception as exc:
            self.page.show_dialog(ft.SnackBar(ft.Text(_("Not reopened: {reason}", reason=exc), size=theme.BODY)))
            return
        self.navigate(f"/game/{self.saved.record.id}")

    async def on_delete(self, e) -> None:
        if self.refused("delete"):
            return
        record = self.saved.record
        try:
            await self.games.delete(record.id)
        except Exception as exc:
            self.page.show_dialog(ft.SnackBar(ft.Text(_("Not deleted: {reason}", reason=exc), size=theme.BODY)))
            return

        async def undo(e) -> None:
            await self.games.create(record, tonight=False)
            self.navigate(f"/game/{record.id}")
        self.navigate("/")
        self.page.show_dialog(ft.SnackBar(ft.Text(_("{game} game deleted", game=self.title), size=theme.BODY),
                                          action=_("Undo"), on_action=undo, duration=ft.Duration(seconds=10)))

    async def on_rematch(self, e) -> None:
        record = self.saved.record
        settings = record.settings.model_dump(mode="json") if hasattr(record, "settings") else {}
        fresh = new_record(record.game, [p.name for p in record.players], settings)
        saved = await self.games.create(fresh)
        self.navigate(f"/game/{saved.record.id}")

    def close(self) -> None:
        pass

    def resized(self, width, height) -> None:
        pass
