"""The Pass the Pandas pad: players tap who went out, in order; in Panda-monium the pad asks how
many dice each player still in held and scores the sum; the race to the target on top."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import pass_the_pandas as ptp
from views import theme
from views.words import lang
from views.pads.pad.changes import Changes
from views.games import Games
from views.words.lang import N_, _, n_
from views.pads.pad.parts import NumberSheet, action_bar, named_key, standings, warning_row
from views.pads.pad import side_table
from views.pads.pad.screen import PadScreen
from views.pads.pass_the_pandas import state
from views.pads.pass_the_pandas.setup import SetupForm

WIDE = 700  # from this width, when wider than tall, the pad is two columns
PIPS = 12  # hands won drawn as dots up to this many; the number says the rest


class RaceRow:
    """One player against the target: name, bar, total (basic: dots for hands won)."""

    def __init__(self, name: str, width: float = 104):
        """width: the names' column, as wide as the longest name takes (beside the crown)."""
        self.crown = ft.Icon(ft.Icons.EMOJI_EVENTS, size=18, visible=False, color=ft.Colors.TERTIARY)
        self.name = ft.Text(name, size=theme.size_to_fit(name, width - 20, "BODY", least=theme.SMALL),
                            weight=ft.FontWeight.W_600, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
        self.bar = ft.ProgressBar(value=0, bar_height=12, border_radius=ft.BorderRadius.all(6), expand=True,
                                  bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)
        self.pips = ft.Row(spacing=3, expand=True, visible=False)
        self.total = ft.Text("0", size=theme.LARGE, weight=ft.FontWeight.BOLD, width=44,
                             text_align=ft.TextAlign.END)
        self.flag = ft.Icon(ft.Icons.FLAG, size=18, visible=False, color=ft.Colors.TERTIARY)
        self.control = ft.Semantics(container=True, exclude_semantics=True, content=ft.Row([
            ft.Row([self.crown, ft.Container(self.name, expand=True)], width=width, spacing=2),
            self.bar, self.pips, self.total, ft.Container(self.flag, width=20)],
            spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER, height=36))

    def fill(self, ch: Changes, row: state.RaceRow, monium: bool, played: bool) -> None:
        ch.set(self.control, label=row.label)
        ch.set(self.crown, visible=played and row.place == 1)
        ch.set(self.bar, visible=monium, value=row.share,
               color=ft.Colors.TERTIARY if row.reached else ft.Colors.PRIMARY)
        ch.set(self.flag, visible=row.reached)
        ch.set(self.total, value=str(row.total))
        if not monium:
            ch.set(self.pips, visible=True)
            dots = min(row.total, PIPS)
            if len(self.pips.controls) != dots:
                ch.set_children(self.pips, [ft.Container(width=12, height=12, border_radius=6,
                                                         bgcolor=ft.Colors.PRIMARY) for _dot in range(dots)])


class DiceRow:
    """How many dice one player still held: − n +, named 'Fewer dice for Ben' / 'More dice for Ben'."""

    def __init__(self, name: str, on_step, above: bool = False):
        """above: the name over its keys, where a name is wider than the room beside them ("김민…" at 320 px, #56)."""
        self.value = ft.Text("0", size=theme.HUGE, weight=ft.FontWeight.BOLD, width=56,
                             text_align=ft.TextAlign.CENTER)
        self.minus = theme.icon_button(ft.Icons.REMOVE, _("Fewer dice for {name}", name=name), partial(on_step, -1))
        self.plus = theme.icon_button(ft.Icons.ADD, _("More dice for {name}", name=name), partial(on_step, 1))
        self.pick = theme.icon_button(ft.Icons.DIALPAD, _("Set dice for {name}", name=name), self.on_pick)
        self.on_step = on_step
        self.name = name
        self.range = (1, 1)
        said = ft.Text(name, size=theme.BODY, weight=ft.FontWeight.W_600, expand=not above, no_wrap=not above,
                       overflow=ft.TextOverflow.ELLIPSIS)
        keys = [self.minus, self.value, self.plus, self.pick]
        self.control = ft.Container(
            ft.Column([said, ft.Row(keys, spacing=0, alignment=ft.MainAxisAlignment.END)], spacing=0) if above else
            ft.Row([said, *keys], spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.only(left=14, right=4, top=2, bottom=2), border_radius=ft.BorderRadius.all(12),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)

    def fill(self, ch: Changes, value: int, enabled: bool, high: int | None = None) -> None:
        """high: the most this player can have held (the dice in play less the others' held)."""
        self.range = (value, max(value, high or value))
        # TRANSLATORS: Pass the Pandas: the dice a player still held when another went out
        ch.set(self.value, value=str(value), semantics_label=_("{name} held {n}", name=self.name, n=value))
        ch.set(self.minus, disabled=not enabled or value <= 1)
        # More stays tappable at the limit: the refusal says why (a greyed button would not).
        ch.set(self.plus, disabled=not enabled)
        ch.set(self.pick, disabled=not enabled)

    async def on_pick(self, e) -> None:
        value, high = self.range
        NumberSheet(e.page, _("Dice {name} still held", name=self.name), value, 1, high, self.set_to).open()

    async def set_to(self, n: int) -> None:
        await self.on_step(n - self.range[0], None)


class PandasScreen(PadScreen):
    rules = ptp
    nothing_yet = N_("No hand entered yet")

    @classmethod
    async def default_settings(cls, games: Games) -> dict:
        """The owner's target (Settings); the variant the table played last time."""
        last = await games.latest(ptp.GAME)
        variant = last.settings.variant if last is not None else ptp.Settings().variant
        return {"variant": variant, "target": games.settings.pass_the_pandas_target}

    @classmethod
    def settings_form(cls, settings: dict) -> ft.Control:
        return SetupForm(settings)

    @classmethod
    def table_status(cls, record, result) -> tuple[str, list[str]]:
        return state.table_status(record), []

    def __init__(self, page: ft.Page, games: Games, saved):
        # The player out whose dice counts are open (on screen only); None: the last one out.
        self.focus: str | None = None
        self.shown_pid: str | None = None
        super().__init__(page, games, saved)

    # ------------------------------------------------------------------ building
    def build(self) -> None:
        ids = self.record.player_ids()
        self.race_title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        # The names' column as wide as the longest name (with the crown beside it), up to 60 % of the row; the
        # bars take the rest ("Дмитрий" showed "Дмит…" in 104 px, #56).
        free = (self.page.width or 412) - 16 - 24 - 44 - 20 - 3 * 8
        names_w = min(0.6 * free, max([104] + [theme.text_width(self.record.name_of(p), theme.BODY) * 1.1 + 22
                                              for p in ids]))
        self.race_rows = {pid: RaceRow(self.record.name_of(pid), names_w) for pid in ids}
        self.race = ft.Container(ft.Column([self.race_title, *[r.control for r in self.race_rows.values()]],
                                           spacing=2),
                                 padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                                 border_radius=ft.BorderRadius.all(12), bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)

        self.hand_title = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        self.done_btn = ft.OutlinedButton("", icon=ft.Icons.CHECK, height=theme.TAP, on_click=self.on_done,
                                          visible=False)
        self.prompt = ft.Text("", size=theme.BODY)
        self.order = ft.Row(wrap=True, spacing=6, run_spacing=6)
        # Beside its four keys (3 × 48 px and the count's 56) and the row's padding, a name has what is left.
        width, height = self.page.width or 412, self.page.height or 0
        beside = (width / 2 if width >= WIDE and width > height else width) - 16 - 20 - 18 - 3 * 48 - 56
        above = any(theme.text_width(self.record.name_of(p), theme.BODY) * 1.1 > beside for p in ids)
        self.dice_rows = {pid: DiceRow(self.record.name_of(pid), partial(self.on_dice, pid), above) for pid in ids}
        self.count_title = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.count_rows = ft.Column(spacing=6)
        self.scores_who = ft.Text("", size=theme.BODY, weight=ft.FontWeight.W_600)
        self.limit = ft.Text("", size=theme.SMALL)
        self.points = ft.Text("", size=theme.HUGE, weight=ft.FontWeight.BOLD)
        self.hand_warnings = ft.Column(spacing=4)
        self.count = ft.Container(ft.Column([
            self.count_title, self.count_rows,
            ft.Row([ft.Column([self.scores_who, self.limit], spacing=0, expand=True), self.points],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            self.hand_warnings], spacing=8),
            padding=ft.Padding.all(10), border_radius=ft.BorderRadius.all(14), bgcolor=ft.Colors.SECONDARY_CONTAINER)
        self.out_btns = {pid: self._out_button(pid) for pid in ids}
        self.out_grid = ft.Column(spacing=8)
        self.target_note = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD, color=ft.Colors.TERTIARY)
        self.next_btn = ft.FilledButton(_("Next hand"), icon=ft.Icons.ARROW_FORWARD, height=56, on_click=self.on_next)
        self.finish_btn = ft.FilledButton(_("Finish the match"), icon=ft.Icons.FLAG, height=56,
                                          on_click=self.on_finish)
        self.bar_reason = ft.Text("", size=theme.SMALL, color=theme.NOTE, text_align=ft.TextAlign.END)
        self.bar = action_bar(self.bar_reason, self.finish_btn, self.next_btn)
        self.over = ft.Column(spacing=8, visible=False)
        self.entry = ft.Column([
            ft.Row([self.hand_title, self.done_btn], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True,
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            self.order, self.count, self.prompt, self.out_grid, self.target_note, self.over], spacing=10)

        self.final = ft.Column(spacing=8, visible=False)
        self.table = ft.Column(spacing=0)
        self.end = ft.Column(spacing=8)
        self.divider = ft.Divider(height=24)
        # TRANSLATORS: Pass the Pandas: the hands played (deals of the game), a heading
        self.hands = ft.Column([theme.heading(_("Hands"), size=theme.BODY), self.table, self.end], spacing=8)
        self.left = ft.Column(spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
        self.right = ft.Column(spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
        # Upright, one scrolling column; sideways (a phone turned, a tablet) the race and the
        # hands beside the hand being entered.
        self.body = ft.Row([self.left], spacing=16, expand=True, vertical_alignment=ft.CrossAxisAlignment.START)
        self.wide: bool | None = None
        self.bar_holder = ft.Container()
        self.set_layout(self.page.width, self.page.height)
        self.make_view(ft.Container(self.body, padding=ft.Padding.symmetric(horizontal=8), expand=True),
                       self.bar_holder)

    def set_layout(self, width, height) -> bool:
        wide = bool(width and height and width >= WIDE and width > height)
        if wide == self.wide:
            return False
        self.wide = wide
        if wide:
            self.left.controls = [self.race, self.final, self.hands]
            self.right.controls = [self.entry]
            # The next step under the race: the hand being entered keeps the whole height.
            self.bar_holder.content, self.bar_holder.visible = None, False
            self.body.controls = [ft.Column([self.left, self.bar], expand=True, spacing=0), self.right]
        else:
            self.left.controls = [self.race, ft.Container(height=4), self.final, self.entry, self.divider, self.hands]
            self.body.controls = [self.left]
            self.bar_holder.content, self.bar_holder.visible = self.bar, True
        return True

    def on_resize(self, width, height) -> None:
        if self.set_layout(width, height):
            self.page.update(self.view)

    def _out_button(self, pid: str) -> ft.Container:
        name = self.record.name_of(pid)
        # TRANSLATORS: Pass the Pandas: "went out" is the game's term for a player who has no dice left
        went = _("{name} went out", name=name)
        # Two keys a row: half of the screen, less its padding and the gap.
        return named_key(went, ft.Icons.LOGOUT, partial(self.on_out, pid), ((self.page.width or 360) - 32) / 2,
                         ft.Colors.PRIMARY)

    # ------------------------------------------------------------------ filling
    def fill(self, ch: Changes) -> None:
        self.fill_race(ch)
        self.fill_hand(ch)
        self.fill_table(ch)

    def fill_race(self, ch: Changes) -> None:
        monium = state.monium(self.record)
        ch.set(self.race_title, value=state.race_title(self.record))
        played = bool(self.record.rounds)
        for row in state.race(self.record, self.result):
            self.race_rows[row.pid].fill(ch, row, monium, played)

    def finisher_shown(self, fins: list[state.Finisher]) -> state.Finisher | None:
        """The player out whose dice counts are open: the one tapped, else the last one out."""
        for f in fins:
            if f.pid == self.focus and f.held:
                return f
        return fins[-1] if fins and fins[-1].held else None

    def fill_hand(self, ch: Changes) -> None:
        record, result = self.record, self.result
        playing = record.finished is None
        ch.set(self.entry, visible=playing)
        ch.set(self.divider, visible=playing)
        ch.set(self.bar, visible=playing)
        if not playing:
            self.fill_final(ch)
            return
        ch.set(self.final, visible=False)
        monium = state.monium(record)
        index = ptp.hand_on(record)
        fins = state.finishers(record, index)
        correcting = state.correcting(record)
        ch.set(self.hand_title, value=state.hand_title(record))
        emptied = correcting and not fins
        ch.set(self.done_btn, visible=correcting,
               content=_("Delete hand {n}", n=index + 1) if emptied else _("Done with hand {n}", n=index + 1),
               icon=ft.Icons.DELETE_OUTLINE if emptied else ft.Icons.CHECK)
        shown = self.finisher_shown(fins) if monium else None
        self.fill_order(ch, fins, shown)
        # The points before the counters: Flet sends one message per control in this order, so a
        # phone (or a test) that sees a new count already has the new points.
        ch.set(self.count, visible=shown is not None)
        if shown is not None:
            # TRANSLATORS: above the points a player scores in the hand (the number is shown beside it)
            ch.set(self.scores_who, value=_("{name} scores", name=shown.name))
            ch.set(self.points, value=str(shown.points or 0),
                   semantics_label=_("{name} scores {points}", name=shown.name, points=shown.points or 0))
            ch.set(self.limit, value=state.limit_line(record, shown))
            ch.set(self.count_title, value=state.counting_line(record, shown))
            rows = []
            in_play = ptp.max_points(len(record.players))
            held = sum(n for _pid, _name, n in shown.held)
            for pid, _name, n in shown.held:
                self.dice_rows[pid].fill(ch, n, enabled=True, high=in_play - held + n)
                rows.append(self.dice_rows[pid].control)
            ch.set_children(self.count_rows, rows)
            self.shown_pid = shown.pid
        else:
            self.shown_pid = None
        problems = state.hand_problems(result, index)
        if [p.message for p in problems] != getattr(self.hand_warnings, "data", None):
            self.hand_warnings.data = [p.message for p in problems]
            ch.set_children(self.hand_warnings, [warning_row(lang.problem(p), p.level == "error") for p in problems])
        ch.set(self.prompt, value=state.prompt(record))
        holders = ptp.holding(record, index)
        complete = ptp.is_complete(record, ptp.hand_at(record, index))
        btns = [self.out_btns[pid] for pid in holders] if not complete else []
        rows = [ft.Row(btns[k:k + 2], spacing=8) for k in range(0, len(btns), 2)]
        if [[id(b) for b in r.controls] for r in self.out_grid.controls] != [[id(b) for b in r.controls] for r in rows]:
            ch.set_children(self.out_grid, rows)
        over = ptp.is_over(record)
        ch.set(self.target_note, value=state.target_note(record, result), visible=bool(state.target_note(record, result)))
        # The bar: Next hand (why it waits beside it), or finishing the match once it can end.
        finishing = not correcting and (over or (not monium and bool(record.rounds)))
        blocked = _("Fix the errors first.") if result.has_errors and finishing else ""
        hint = state.next_hint(record) if not over and not correcting else ""
        # At most two lines, so the bar leaves the pad its room: else the reason without the names.
        room = ((self.page.width or 360) - 16) if not self.wide else (self.page.width or 700) / 2 * 0.4
        if hint and (theme.lines_of(hint, room / 1.15, theme.SMALL) or 3) > 2:
            hint = state.next_hint(record, short=True)
        ch.set(self.bar_reason, value=blocked or hint, visible=bool(blocked or hint),
               color=ft.Colors.ERROR if blocked else theme.NOTE)
        ch.set(self.next_btn, disabled=not state.can_go_next(record), visible=not over and not correcting)
        ch.set(self.finish_btn, visible=finishing, disabled=bool(blocked))
        self.fill_over(ch, over and not correcting)

    def fill_order(self, ch: Changes, fins: list[state.Finisher], shown: state.Finisher | None) -> None:
        key = [(f.pid, f.points, shown is not None and f.pid == shown.pid) for f in fins]
        if getattr(self.order, "data", None) == key:
            return
        self.order.data = key
        chips = []
        for k, f in enumerate(fins):
            open_ = shown is not None and f.pid == shown.pid
            points = f" · {f.points}" if f.points is not None else ""
            place = state.ordinal(f.place)
            # TRANSLATORS: Pass the Pandas: who went out in which place ({place}: "1st"), and the points scored
            words = (n_("{place} out: {name}, {n} point", "{place} out: {name}, {n} points", f.points, place=place,
                        name=f.name) if f.points is not None else _("{place} out: {name}", place=place, name=f.name))
            chip = ft.Container(
                ft.Semantics(label=words, button=bool(f.held), checked=open_ if f.held else None, exclude_semantics=True,
                             content=ft.Row([ft.Text(place, size=theme.SMALL),
                                             ft.Text(f"{lang.name(f.name)}{points}", size=theme.BODY, weight=ft.FontWeight.BOLD,
                                                     no_wrap=True)], spacing=6, tight=True)),
                height=theme.TAP, padding=ft.Padding.symmetric(horizontal=12), border_radius=ft.BorderRadius.all(24),
                bgcolor=ft.Colors.SECONDARY_CONTAINER if open_ else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                border=ft.Border.all(2, ft.Colors.PRIMARY) if open_ else None,
                ink=bool(f.held), on_click=partial(self.on_focus, f.pid) if f.held else None)
            if k == len(fins) - 1:
                chips.append(ft.Row([chip, theme.icon_button(ft.Icons.REMOVE_CIRCLE_OUTLINE,
                                                             _("Take back {name}", name=f.name), self.on_take_back)],
                                    spacing=0, tight=True))
            else:
                chips.append(chip)
        ch.set_children(self.order, chips)

    def fill_over(self, ch: Changes, over: bool) -> None:
        ch.set(self.over, visible=over)
        if not over:
            return
        self.over.controls = [
            ft.Container(ft.Column([
                ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.TERTIARY, size=28),
                        ft.Text(state.over_line(self.record, self.result), size=theme.BODY, weight=ft.FontWeight.BOLD,
                                expand=True)]),
                ft.Text(state.winners_line(self.result), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.PRIMARY),
                *standings(self.result)], spacing=6),
                padding=ft.Padding.all(12), border_radius=ft.BorderRadius.all(14),
                bgcolor=ft.Colors.TERTIARY_CONTAINER)]
        ch.add(self.over)

    def fill_final(self, ch: Changes) -> None:
        self.final.controls = [
            theme.heading(_("Final standings")),
            ft.Text(state.winners_line(self.result), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                    color=ft.Colors.PRIMARY),
            *standings(self.result),
            ft.Text(_("This match is finished."), size=theme.BODY),
            self.result_actions()]
        ch.set(self.final, visible=True)
        ch.add(self.final)

    def fill_table(self, ch: Changes) -> None:
        record, result = self.record, self.result
        ids = record.player_ids()
        rows = state.hands_table(record, result)
        monium = state.monium(record)
        on = ptp.hand_on(record)
        editable = record.finished is None
        small, body = theme.SMALL, theme.BODY
        # Each player's column as wide as the name over it; five names at 360 px ran out of room ("Дмит…",
        # "Łuk…", #56): the columns then scroll sideways beside the hand's number and its edit button.
        widths = [side_table.name_width(record.name_of(p), small, theme.text_width("= 99", body) + 12) for p in ids]
        room = ((self.page.width or 412) / (2 if self.wide else 1)) - 16 - 30 - 48
        if sum(widths) + side_table.FADE <= room:  # they fit: the room shared out as before
            widths = [w * (room - side_table.FADE) / sum(widths) for w in widths]
        heads = [ft.Text(record.name_of(p), size=small, width=w, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.END,
                         max_lines=2, overflow=ft.TextOverflow.ELLIPSIS) for p, w in zip(ids, widths)]
        fixed: list[ft.Control] = [ft.Text("#", size=small, width=30, weight=ft.FontWeight.BOLD)]
        moving: list[ft.Control] = [ft.Row(heads, spacing=0)]
        right: list[ft.Control] = [ft.Container(width=48)]
        heights = [round(small * 1.5) * (2 if max(widths) >= 160 else 1) + 6]
        looks: list[dict] = [{}]
        first = state.ordinal(1)
        for row in rows:
            cells = []
            for p, w in zip(ids, widths):
                top, running = row.cells[p]
                won = not monium and top == first
                cells.append(ft.Column([
                    ft.Text(top, size=body, weight=ft.FontWeight.BOLD if won or (monium and top not in ("0", "…"))
                            else None, color=ft.Colors.PRIMARY if won else None),
                    ft.Text(f"= {running}", size=13)],
                    spacing=0, width=w, horizontal_alignment=ft.CrossAxisAlignment.END))
            here = row.hand - 1 == on
            edit = (theme.icon_button(ft.Icons.EDIT_OUTLINED, _("Edit hand {n}", n=row.hand),
                                      partial(self.on_edit, row.hand - 1))
                    if editable and not here else
                    ft.Container(ft.Icon(ft.Icons.ARROW_LEFT, size=24), width=48, alignment=ft.Alignment.CENTER)
                    if here and editable else ft.Container(width=48))
            fixed.append(ft.Text(str(row.hand), size=body, width=30))
            moving.append(ft.Semantics(label=state.hand_label(record, row), container=True,
                                       content=ft.Row(cells, spacing=0)))
            right.append(edit)
            heights.append(max(theme.TAP, round((body + 13) * 1.45)) + 6)
            looks.append(dict(bgcolor=ft.Colors.SURFACE_CONTAINER_LOW if here and editable else None,
                              border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT))))
        lines: list[ft.Control] = [side_table.side_scrolled(fixed, moving, heights, right, looks)]
        if not rows:
            lines = [ft.Text(_("Each hand is listed here once someone goes out."), size=theme.BODY, color=theme.NOTE)]
        self.table.controls = lines
        ch.add(self.table)
        self.end.controls = self._end_controls()
        ch.add(self.end)

    def _end_controls(self) -> list[ft.Control]:
        record = self.record
        if record.finished is not None or not record.rounds:
            return []
        problems = [warning_row(lang.problem(p), p.level == "error") for p in self.result.problems]
        if state.monium(record):
            if ptp.is_over(record):
                return problems
            # Rare: a table that stops before anyone reaches the target.
            return [*problems, ft.TextButton(_("End the match now"), icon=ft.Icons.FLAG_OUTLINED, height=theme.TAP,
                                             on_click=self.on_end_early)]
        return problems  # Finish the match is in the bar

    # ------------------------------------------------------------------ moving with the record
    def after_history(self, before) -> None:
        self.focus = None

    def after_reload(self, before) -> None:
        if ptp.hand_on(before) != ptp.hand_on(self.record):
            self.focus = None

    # ------------------------------------------------------------------ taps
    async def _tap(self, change) -> None:
        async with self.lock:
            if self.record.finished is not None:
                return
            if await self.save(change):
                self.send(self.fill)

    async def on_out(self, pid: str, e) -> None:
        self.focus = None  # the counters of the one who just went out
        await self._tap(lambda r: ptp.go_out(r, pid))

    async def on_dice(self, holder: str, delta: int, e) -> None:
        finisher, index = self.shown_pid, ptp.hand_on(self.record)
        if finisher is None:
            return
        await self._tap(lambda r: ptp.step_held(r, index, finisher, holder, delta))

    async def on_focus(self, pid: str, e) -> None:
        self.focus = pid
        self.send(self.fill_hand)

    async def on_take_back(self, e) -> None:
        index = ptp.hand_on(self.record)
        self.focus = None
        await self._tap(lambda r: ptp.take_back(r, index))

    async def on_next(self, e) -> None:
        self.focus = None
        await self._tap(ptp.next_hand)

    async def on_edit(self, index: int, e) -> None:
        self.focus = None
        await self._tap(lambda r: ptp.edit_hand(r, index))

    async def on_done(self, e) -> None:
        self.focus = None
        await self._tap(ptp.done_editing)

    async def on_finish(self, e) -> None:
        async with self.lock:
            if self.record.finished is None and not self.result.has_errors and await self.finish():
                self.refresh_all()

    async def on_end_early(self, e) -> None:
        target = self.record.settings.target

        async def end(ev) -> None:
            self.page.pop_dialog()
            await self.on_finish(ev)

        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("End the match now?")),
            content=ft.Text(_("No one has reached {target} yet. The totals now become the final standings.",
                              target=target), size=theme.BODY),
            # One above the other, each as wide as the dialog: side by side at 320 px the filled one's
            # label broke over two lines inside it (Polish, German at the largest text, #56).
            actions=[ft.Column([ft.FilledButton(_("End the match"), on_click=end, style=theme.wraps()),
                                ft.TextButton(_("Keep playing"), on_click=lambda ev: self.page.pop_dialog(),
                                              style=theme.wraps())],
                               spacing=4, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)]))
