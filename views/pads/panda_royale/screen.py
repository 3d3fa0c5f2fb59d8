"""The Panda Royale score pad: the hand of the current player by tapping dice, the sheet,
the round's close, undo/redo. Every tap: edit the record -> save it -> only then redraw."""
from __future__ import annotations

import logging
from functools import partial

import flet as ft

from scoring import panda_royale as pr
from views import theme
from views.pads.pad.changes import Changes
from views.words import lang
from views.games import Games
from views.words.lang import N_, _, p_
from views.pads.pad.parts import action_bar, place_row, warning_row
from views.pads.pad.screen import PadScreen
from views.pads.pad.words import verdict
from views.pads.panda_royale.state import (PAD_COLOURS, Cursor, after_summary, changed_hand, colour_after_tap,
                             colour_letters, colour_name, dice_count, dice_of, faces, first_colour,
                             hand_problems, hands_missing, holds_pink, new_die_pending, next_cursor, pad_title,
                             problems_to_flag, repeat_slots, resume_cursor, round_summary, seats,
                             short, signed, still_to_enter)
from views.pads.panda_royale import dice
from views.pads.panda_royale.sheet import Sheet

log = logging.getLogger(__name__)

# How each colour scores, under its pad (translated where shown).
HINTS = {
    # TRANSLATORS: how a die colour of Panda Royale scores: the faces added up.
    "yellow": N_("sum of the faces"),
    # TRANSLATORS: how the purple dice of Panda Royale score: the faces added up, times 2.
    "purple": N_("sum × 2"),
    # TRANSLATORS: how the blue dice of Panda Royale score; "glitter": the glittery blue die.
    "blue": N_("sum of plain and glitter blue; × 2 once with a glitter die"),
    # TRANSLATORS: the glittery blue die of Panda Royale: what it does.
    "glitter": N_("a blue die: counts with blue and doubles blue once"),
    # TRANSLATORS: how the red dice of Panda Royale score: white faces count plus, black faces minus.
    "red": N_("(white − black) × number of red dice"),
    "green": N_("sum of the faces"),
    "clear": N_("sum of the faces"),
    # TRANSLATORS: the pink die of Panda Royale scores its face; "pity die": the game's term for it
    # (given to players who are behind).
    "pink": N_("the pity die's face"),
}


class RoyaleScreen(PadScreen):
    """One game's screen; `view` is the ft.View to put on the page."""
    rules = pr
    nothing_yet = N_("No dice entered yet")
    phone_state = ("cursor", "colour", "black", "sheet_pid", "showing_sheet", "overrides")

    def __init__(self, page: ft.Page, games: Games, saved):
        record = saved.record
        self.overrides: dict[tuple[int, str], bool] = {}
        self.cursor = resume_cursor(record)
        self.colour = "yellow" if self.cursor.is_summary else first_colour(record, self.cursor.round, self.cursor.pid)
        self.black = False
        self.sheet_pid = self.cursor.pid or seats(record)[0]
        self.showing_sheet = False
        self.wide = False
        super().__init__(page, games, saved)

    def settle_phone_state(self) -> None:
        ids = seats(self.record)
        c = self.cursor
        if c.round > min(len(self.record.rounds), pr.ROUNDS - 1) or (c.pid is not None and c.pid not in ids):
            self.cursor = resume_cursor(self.record, self.overrides)
        if self.sheet_pid not in ids:
            self.sheet_pid = self.cursor.pid or ids[0]
        self.set_layout(self.page.width, self.page.height)

    def _cur(self) -> tuple[int, str]:
        return self.cursor.round, self.cursor.pid

    def started(self) -> bool:
        return any(r.hands for r in self.record.rounds)

    def here(self) -> str | None:
        return self.cursor.pid

    def problems_to_flag(self) -> list:
        return problems_to_flag(self.result, self.cursor)

    @classmethod
    def table_status(cls, record, result) -> tuple[str, list[str]]:
        i = min(pr.current_round(record), pr.ROUNDS - 1)
        return (_("Round {round} of {rounds}", round=i + 1, rounds=pr.ROUNDS),
                [record.name_of(p) for p in still_to_enter(record, i)])

    def pending(self) -> set[str]:
        return set() if self.cursor.is_summary else set(still_to_enter(self.record, self.cursor.round, self.overrides))

    async def strip_pick(self, pid: str) -> None:
        """A tap on a player's total: that player's hand in the round on the pad."""
        async with self.lock:
            self.show_hand()
            await self.move_to(Cursor(self.cursor.round, pid))

    # ------------------------------------------------------------------ building
    def build(self) -> None:

        # --- the hand being entered
        self.round_text = ft.Text("", size=theme.SMALL)
        self.player_text = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD, max_lines=2,
                                   overflow=ft.TextOverflow.ELLIPSIS)
        self.todo_text = ft.Text("", size=theme.SMALL)  # wraps: at 360 px a cut list hid who was missing
        self.total_text = ft.Text("", size=theme.HUGE, weight=ft.FontWeight.BOLD)
        self.count_text = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.pink_switch = ft.Switch(label=_("Pink die"), value=False, on_change=self.on_pink_switch,
                                     label_text_style=ft.TextStyle(size=theme.BODY))
        # A tab names its colour under the letters where every name fits (about 5.5 px a letter
        # at size 10); else the letters alone, as printed on the dice ('Transparent' was cut).
        tab_width = ((self.page.width or 360) - 24 - 4 * (len(PAD_COLOURS) - 1)) / len(PAD_COLOURS)
        self.tab_names = all(5.5 * len(colour_name(c)) <= tab_width for c in PAD_COLOURS)
        self.tabs = {c: self._tab(c) for c in PAD_COLOURS}
        self.tab_row = ft.Row([self.tabs[c] for c in PAD_COLOURS], spacing=4)
        self.pad_title = ft.Text("", size=theme.SMALL)
        self.sign_white = self._sign_button(False)
        self.sign_black = self._sign_button(True)
        self.sign_row = ft.Row([self.sign_white, self.sign_black], spacing=8)
        # A pad per colour, shown by turns; red has a white (+) and a black (−) side.
        self.pads: dict[str, ft.Row] = {c: self._pad(c, faces(c)) for c in PAD_COLOURS if c != "red"}
        self.pads["red+"] = self._pad("red", faces("red"))
        self.pads["red-"] = self._pad("red", faces("red", black=True))
        self.pad_area = ft.Column([self.pad_title, self.sign_row] + list(self.pads.values()), spacing=8)
        # An arrow alone: "Previous" beside "Next: <a long name>" took a second row of the bar.
        self.prev_btn = theme.icon_button(ft.Icons.CHEVRON_LEFT, _("Previous"), self.on_prev)
        self.next_btn = ft.FilledButton(_("Next"), icon=ft.Icons.CHEVRON_RIGHT, on_click=self.on_next,
                                        height=56)
        # After a round: the next round or finishing, in the bar with Previous / Next.
        self.round_btn = ft.FilledButton(_("Start round {round}", round=2), icon=ft.Icons.CHEVRON_RIGHT, height=56,
                                         on_click=self.on_start_next, visible=False)
        self.finish_btn = ft.FilledButton(_("Finish the game"), icon=ft.Icons.FLAG, height=56, on_click=self.on_finish,
                                          visible=False)
        self.bar_reason = ft.Text("", size=theme.SMALL, color=ft.Colors.ERROR, visible=False,
                                  text_align=ft.TextAlign.END)
        self.bar = action_bar(self.bar_reason, self.prev_btn, self.next_btn, self.round_btn, self.finish_btn)
        self.bar.data[1].alignment = ft.MainAxisAlignment.SPACE_BETWEEN
        self._chips: dict[tuple, ft.Control] = {}
        self.line_rows = {c: self._line(c) for c in pr.COLOURS}
        # TRANSLATORS: each round of Panda Royale a player rolls one die more than the round before.
        self.new_die_hint = ft.Text(_("+ this round's new die: pick its colour above"), size=theme.SMALL,
                                    color=theme.NOTE, visible=False)
        self.lines = ft.Column([*self.line_rows.values(), self.new_die_hint], spacing=6)
        self.warnings = ft.Column(spacing=4)
        self._warning_messages: list[str] = []
        self.editor = ft.Column([
            ft.Row([ft.Column([self.round_text, self.player_text], spacing=0, expand=True),
                    ft.Column([ft.Text(_("Hand total"), size=theme.SMALL), self.total_text], spacing=0,
                              horizontal_alignment=ft.CrossAxisAlignment.END)]),
            # The switch below the count where both do not fit ('Rosa Würfel' at extra-large text).
            ft.Row([self.count_text, self.pink_switch], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True,
                   run_spacing=0),
            self.todo_text,
            self.tab_row,
            self.pad_area,
            self.lines,
            self.warnings,
        ], spacing=10)
        self.summary = ft.Column(spacing=10)
        # Both stay mounted and take turns being visible: swapping a control out and back in
        # would make Flet resend a stale copy of it.
        self.panel = ft.Container(ft.Column([self.editor, self.summary], spacing=0), padding=ft.Padding.all(8))
        self.sheet = Sheet(self.on_sheet_player, self.on_sheet_round)
        # A phone upright shows the hand or the sheet (a toggle next to the totals); held
        # sideways, or on a wider screen, both side by side. One of them alone also keeps each
        # tap cheap: a hand growing by a chip does not move a hundred sheet cells below it.
        self.hand_side = ft.Column([self.panel], scroll=ft.ScrollMode.AUTO, expand=True)
        # The sheet is mounted the first time it shows (set_layout): a phone upright opens on the
        # hand, and its first screen was sent and drawn with the sheet's ~150 hidden controls too
        # (#52: a third of the pad's). Mounted once, it stays.
        self.sheet_side = ft.Column([], scroll=ft.ScrollMode.AUTO, expand=True, visible=False)
        self.toggle_icon = ft.Icon(ft.Icons.TABLE_CHART_OUTLINED, size=26)
        self.toggle_text = ft.Text("", size=13, weight=ft.FontWeight.BOLD)
        self.toggle = ft.Container(
            ft.Semantics(label="", button=True, exclude_semantics=True, content=ft.Column(
                [self.toggle_icon, self.toggle_text], spacing=0, tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
            width=64, height=64, border_radius=ft.BorderRadius.all(10), ink=True,
            # As far from the screen's edge as the totals are from the other edge (it touched it).
            margin=ft.Margin.only(right=4),
            bgcolor=ft.Colors.SECONDARY_CONTAINER, alignment=ft.Alignment.CENTER, on_click=self.on_toggle)
        self.make_view(
            ft.Row([ft.Container(self.strip.control, padding=ft.Padding.symmetric(horizontal=4), expand=True),
                    self.toggle], vertical_alignment=ft.CrossAxisAlignment.START),
            ft.Row([self.hand_side, self.sheet_side], expand=True, spacing=8,
                   vertical_alignment=ft.CrossAxisAlignment.START),
            self.bar)
        self.set_layout(self.page.width, self.page.height)

    def set_layout(self, width, height) -> bool:
        """Side by side when the screen is wide (a phone on its side); True if that changed."""
        wide = bool(width and height and width >= 600 and width > height)
        changed = wide != self.wide
        self.wide = wide
        self.toggle.visible = not wide
        self.hand_side.visible = wide or not self.showing_sheet
        self.sheet_side.visible = wide or self.showing_sheet
        if self.sheet_side.visible and not self.sheet_side.controls:
            self.sheet_side.controls.append(ft.Container(self.sheet.control, padding=ft.Padding.all(8)))
        sheet_next = not self.showing_sheet
        self.toggle_icon.icon = ft.Icons.TABLE_CHART_OUTLINED if sheet_next else ft.Icons.CASINO_OUTLINED
        if sheet_next:
            # TRANSLATORS: a short button label (about 6 letters): show the score sheet (the paper
            # sheet of Panda Royale, rounds by colours).
            self.toggle_text.value = _("Sheet")
            self.toggle.content.label = _("Show the sheet")
        else:
            # TRANSLATORS: a short button label (about 6 letters): show the dice of the player's hand
            # (the dice a player rolled this round), not a body part.
            self.toggle_text.value = _("Hand")
            self.toggle.content.label = _("Show the hand")
        return changed

    @property
    def sheet_on_screen(self) -> bool:
        return self.wide or self.showing_sheet

    def on_resize(self, width, height) -> None:
        if self.set_layout(width, height):
            self.fill_sheet()
            self.page.update(self.view)

    async def on_toggle(self, e) -> None:
        self.showing_sheet = not self.showing_sheet
        self.set_layout(self.page.width, self.page.height)
        if self.sheet_on_screen:
            self.fill_sheet()
        self.page.update(self.view)

    def fill_sheet(self, ch: Changes | None = None) -> None:
        self.sheet.show(self.record, self.result, self.sheet_pid, self.cursor.round, self.editable_to(), ch)

    def show_hand(self) -> None:
        """Back to the hand (after picking a round on the sheet)."""
        if self.showing_sheet:
            self.showing_sheet = False
            self.set_layout(self.page.width, self.page.height)

    def _tab(self, colour: str) -> ft.Container:
        bg, fg = theme.DIE[colour]
        tab = ft.Container(
            # TRANSLATORS: the tab showing the faces of one die colour to tap ("Yellow pad").
            ft.Semantics(label=_("{colour} pad", colour=colour_name(colour)), button=True, exclude_semantics=True,
                         content=ft.Column([ft.Text(colour_letters(colour), size=17, color=fg,
                                                    weight=ft.FontWeight.BOLD),
                                            *([ft.Text(colour_name(colour), size=10, color=fg, no_wrap=True)]
                                              if self.tab_names else [])],
                                           spacing=0, tight=True,
                                           horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
            expand=True, height=54, bgcolor=bg, border_radius=ft.BorderRadius.all(8),
            alignment=ft.Alignment.CENTER, ink=True, on_click=partial(self.on_tab, colour))
        return tab

    def _sign_button(self, black: bool) -> ft.Container:
        if black:
            # TRANSLATORS: the black side of the red dice of Panda Royale: its faces count minus.
            text, said = _("−  Black"), _("Red black (−) faces")
        else:
            # TRANSLATORS: the white side of the red dice of Panda Royale: its faces count plus.
            text, said = _("+  White"), _("Red white (+) faces")
        bg, fg = theme.RED_BLACK if black else ("#FFFFFF", "#C62828")
        return ft.Container(
            ft.Text(text, size=theme.BODY, weight=ft.FontWeight.BOLD, color=fg, semantics_label=said),
            expand=True, height=theme.TAP, bgcolor=bg, border_radius=ft.BorderRadius.all(8),
            alignment=ft.Alignment.CENTER, ink=True, on_click=partial(self.on_sign, black))

    def _pad(self, colour: str, fs: list[int]) -> ft.Row:
        # Its faces are mounted the first time it shows (fill_pad), as the sheet is: a pad opens
        # on one colour, and its first screen carried the hidden pads' 80 buttons too (#52).
        pad = ft.Row(wrap=True, spacing=4, run_spacing=6, visible=False)
        pad.data = (colour, fs)
        return pad

    # ------------------------------------------------------------------ filling
    def fill(self, ch: Changes) -> None:
        """Everything below the strip, from the record (new cursor, undo, another round)."""
        summary = self.cursor.is_summary
        ch.set(self.editor, visible=not summary)
        ch.set(self.summary, visible=summary)
        for b in (self.prev_btn, self.next_btn):
            ch.set(b, visible=not summary)
        if not summary:
            for b in (self.round_btn, self.finish_btn, self.bar_reason):
                ch.set(b, visible=False)
        ch.set(self.bar, visible=self.record.finished is None)
        if summary:
            self.fill_summary(ch)
        else:
            self.fill_hand(ch)
            self.fill_pad(ch)
        if self.sheet_on_screen:  # a hidden sheet is filled when it is shown (on_toggle, on_resize)
            self.fill_sheet(ch)

    def editable_to(self) -> int:
        return min(pr.current_round(self.record), pr.ROUNDS - 1) if self.record.rounds else 0

    def fill_hand(self, ch: Changes) -> None:
        i, pid = self._cur()
        rec = self.record
        hand = pr.hand_of(rec, i, pid)
        ch.set(self.round_text, value=_("Round {round} of {rounds}", round=i + 1, rounds=pr.ROUNDS))
        ch.set(self.player_text, value=rec.name_of(pid))
        total = signed(pr.hand_total(hand) if hand else 0)
        ch.set(self.total_text, value=total, semantics_label=_("Hand total {total}", total=total))
        count = dice_count(rec, i, pid, self.overrides)
        # Green when the hand is complete, red when it has too many dice; short is just "not yet".
        colour = ft.Colors.PRIMARY if count.ok else ft.Colors.ERROR if count.have > count.expected else None
        ch.set(self.count_text, value=count.text, color=colour)
        ch.set(self.pink_switch, value=count.pink_held, disabled=i == 0)
        ch.set(self.tabs["pink"], visible=count.pink_held)
        ids = seats(rec)
        k = ids.index(pid)
        ch.set(self.prev_btn, disabled=k == 0)
        ch.set(self.next_btn, content=_("Next: {name}", name=short(rec.name_of(ids[k + 1]))) if k + 1 < len(ids)
               else _("Close the round"))
        # Close the round with hands missing says whose, beside it, as a greyed button says why (#56);
        # its tap takes the table to the first of them.
        missing = [rec.name_of(p) for p in hands_missing(rec, i)] if k + 1 == len(ids) else []
        ch.set(self.bar_reason, value=_("Still to enter: {names}", names=lang.names(missing)) if missing else "",
               visible=bool(missing))
        others = [rec.name_of(p) for p in still_to_enter(rec, i, self.overrides) if p != pid]
        ch.set(self.todo_text, value=_("Still to enter: {names} (tap a total above)", names=lang.names(others))
               if others else _("Every other hand of this round is in"))
        self.fill_lines(ch, hand)
        messages = hand_problems(self.result, i, pid, with_count=False)
        if messages != self._warning_messages:
            self._warning_messages = messages
            ch.set_children(self.warnings, [warning_row(m) for m in messages])

    def _line(self, colour: str) -> ft.Row:
        chips = ft.Row(wrap=True, spacing=4, run_spacing=4, expand=True)
        formula = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.END)
        # As on the paper sheet: the dice, then the sum written out with its score.
        line = ft.Row([dice.letter_badge(colour), chips, formula], visible=False,
                      vertical_alignment=ft.CrossAxisAlignment.CENTER)
        line.data = (chips, formula)
        return line

    def _chip(self, d) -> ft.Control:
        # Chips are reused from tap to tap (a chip reads the cursor when tapped): a tap then
        # sends one new chip, not the whole hand again.
        key = ("die", d.colour, d.position, d.face)
        if key not in self._chips:
            self._chips[key] = dice.chip(d, partial(self.on_chip, d.colour, d.position, d.face))
        return self._chips[key]

    def _slot(self, colour: str, k: int) -> ft.Control:
        key = ("slot", colour, k)
        if key not in self._chips:
            self._chips[key] = dice.slot(colour, partial(self.on_tab, colour))
        return self._chips[key]

    def fill_lines(self, ch: Changes, hand: pr.Hand | None) -> None:
        i, pid = self._cur()
        slots = repeat_slots(self.record, i, pid)
        chips = dice_of(hand)
        for colour in pr.COLOURS:
            line = self.line_rows[colour]
            row, formula = line.data
            members = ("blue", "glitter") if colour == "blue" else (colour,)
            ds = [d for d in chips if d.colour in members]
            empty = [c for c in slots if c in members]
            ch.set(line, visible=bool(ds or empty))
            ch.set_children(row, [self._chip(d) for d in ds] + [self._slot(c, k) for k, c in enumerate(empty)])
            # The sheet's minus sign throughout ("= −3", as on the black die), not a hyphen.
            ch.set(formula, value=pr.formula(hand, colour) if hand and ds else "")
        ch.set(self.new_die_hint, visible=new_die_pending(self.record, i, pid))

    def fill_pad(self, ch: Changes) -> None:
        """Show the pad of the chosen colour (the red one on its white or black side)."""
        colour = self.colour
        if colour == "pink" and not self.tabs["pink"].visible:
            colour = self.colour = "yellow"
        for key, pad in self.pads.items():
            shown = key == colour or (colour == "red" and key == ("red-" if self.black else "red+"))
            if shown and not pad.controls:
                die, fs = pad.data
                ch.set_children(pad, [dice.face_button(die, f, partial(self.on_face, die, f)) for f in fs])
            ch.set(pad, visible=shown)
        ch.set(self.sign_row, visible=colour == "red")
        ch.set(self.sign_white, border=None if self.black else ft.Border.all(4, ft.Colors.PRIMARY))
        ch.set(self.sign_black, border=ft.Border.all(4, ft.Colors.PRIMARY) if self.black else None)
        ch.set(self.pad_title, value=pad_title(colour, _(HINTS[colour])))
        for c, tab in self.tabs.items():
            ch.set(tab, border=ft.Border.all(4, ft.Colors.ON_SURFACE) if c == colour else None)

    def fill_summary(self, ch: Changes) -> None:
        i = self.cursor.round
        s = round_summary(self.record, self.result, i)
        name = self.record.name_of
        self.bar_reason.visible = False
        ch.add(self.bar)  # its buttons and reason are set below and in _summary_buttons
        out: list[ft.Control] = [ft.Text(_("Final standings") if s.final and s.complete
                                         else _("Round {round} is in", round=i + 1),
                                         size=theme.LARGE, weight=ft.FontWeight.BOLD)]
        if not s.complete:
            out.append(ft.Text(_("Some hands of this round are still missing."), size=theme.BODY))
        if s.panda_choice:
            # TRANSLATORS: Panda Royale: players tied on the best yellow score re-roll for the Panda
            # token (a game piece; keep the game's own word for it).
            out.append(ft.Text(_("Yellow tie: {names}. Who won the re-roll for the Panda token?",
                                 names=lang.names([name(p) for p in s.panda_choice])), size=theme.BODY))
            # TRANSLATORS: Panda Royale: a button naming who won the re-roll of a yellow tie.
            out.append(ft.Row([ft.FilledButton(_("{name} won the re-roll", name=name(p)), height=theme.TAP,
                                               on_click=partial(self.on_panda, p)) for p in s.panda_choice],
                              wrap=True))
        elif s.panda:
            if s.yellow_tie:
                # TRANSLATORS: Panda Royale: who holds the Panda token, won in a re-roll against the others.
                token = _("Panda token: {name} (re-roll of the yellow tie with {names})", name=name(s.panda),
                          names=lang.names([name(p) for p in s.yellow_tie if p != s.panda]))
            else:
                # TRANSLATORS: Panda Royale: who holds the Panda token (a game piece) next round.
                token = _("Panda token: {name}", name=name(s.panda))
            out.append(ft.Row([ft.Icon(ft.Icons.PETS, size=24), ft.Text(token, size=theme.BODY, expand=True)]))
            if s.yellow_tie:
                out.append(ft.Row([ft.OutlinedButton(_("{name} won the re-roll", name=name(p)), height=theme.TAP,
                                                     on_click=partial(self.on_panda, p))
                                   for p in s.yellow_tie if p != s.panda], wrap=True))
        if s.complete and not s.final:
            if s.pity:
                # TRANSLATORS: between the names of a list, in order ("Ann, Ben, Cat").
                comma = p_("list separator", ", ")
                # TRANSLATORS: Panda Royale: who holds a pink (pity) die in the next round.
                out.append(ft.Row([dice.letter_badge("pink"), ft.Text(
                    _("Pink dice for round {round}: {names}", round=i + 2, names=comma.join(lang.name(name(p)) for p in s.pity)),
                    size=theme.BODY, expand=True)]))
            else:
                out.append(ft.Text(_("Pink dice for round {round}: known after the re-roll", round=i + 2),
                                   size=theme.BODY))
        # What the table acts on next (the pink dice, the next round) before the ranking: at ten
        # players the ranking alone fills half the screen.
        problems = [lang.problem(p) for p in self.result.problems if p.where.startswith(f"rounds[{i}]")]
        out += [warning_row(m) for m in problems]
        actions = self._summary_buttons(s)
        if not s.final:
            out.append(actions)
        if s.ranking and not (s.final and s.complete):
            out.append(ft.Text(_("Round {round} ranking", round=i + 1), size=theme.BODY, weight=ft.FontWeight.BOLD))
            out += [place_row(p.place, p.name, p.total) for p in s.ranking]
        if s.final and s.complete:
            winners = [name(w) for w in s.winners]
            out.append(ft.Text(verdict(winners),
                               size=theme.LARGE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY))
            out += [place_row(p.place, p.name, p.total) for p in s.standings]
            if self.record.finished:
                out += [ft.Text(_("This game is finished."), size=theme.BODY), self.result_actions()]
        finishing = s.final and s.complete and not self.record.finished
        self.finish_btn.visible = finishing
        self.finish_btn.disabled = self.result.has_errors
        if finishing and self.result.has_errors:
            self.bar_reason.value, self.bar_reason.visible = _("Fix the errors before finishing."), True
        if s.final:
            out.append(actions)
        self.summary.controls = out  # made anew from the record: all of it sent
        ch.add(self.summary)

    def _summary_buttons(self, s) -> ft.Control:
        i = s.round
        buttons = [ft.OutlinedButton(_("Edit round {round}", round=i + 1), icon=ft.Icons.EDIT, height=theme.TAP,
                                     on_click=self.on_edit_round)]
        nxt = after_summary(self.record, i)
        self.round_btn.visible = bool(s.complete and nxt != self.cursor)
        if self.round_btn.visible:
            started = nxt.round < len(self.record.rounds) and self.record.rounds[nxt.round].hands
            self.round_btn.content = (_("Back to round {round}", round=nxt.round + 1) if started
                                      else _("Start round {round}", round=nxt.round + 1))
            self.round_btn.disabled = bool(s.panda_choice)
            if s.panda_choice:
                self.bar_reason.value, self.bar_reason.visible = _("Tap who won the re-roll first."), True
        return ft.Row(buttons, wrap=True, alignment=ft.MainAxisAlignment.SPACE_BETWEEN)

    def send_tap_update(self) -> None:
        """Only what a tap changed: a few texts of the hand panel, the totals, the sheet row.

        Updating the whole panel would diff ~100 face buttons and redraw them in the browser."""
        self.send(self.fill_tap)

    def fill_tap(self, ch: Changes) -> None:
        self.fill_hand(ch)
        self.fill_pad(ch)
        if self.sheet_on_screen:
            self.sheet.fill_row(ch, self.result, self.cursor.round)
            self.sheet.fill_totals(ch, self.result)
            self.sheet.fill_overview(ch, self.record, self.result)

    # ------------------------------------------------------------------ handlers
    async def on_face(self, colour: str, face: int, e) -> None:
        async with self.lock:
            if self.cursor.is_summary:
                return
            i, pid = self._cur()
            if not await self.save(lambda r: pr.add_die(r, i, pid, colour, face)):
                return
            self.colour = colour_after_tap(self.record, i, pid, "glitter" if colour == "glitter" else colour)
            if self.colour == "red" and colour != "red":
                self.black = False
            self.send_tap_update()

    async def on_chip(self, colour: str, position: int, face: int, e) -> None:
        async with self.lock:
            i, pid = self._cur()

            def change(r):
                hand = pr.hand_of(r, i, pid)
                faces_now = (hand.pink,) if hand and colour == "pink" else getattr(hand, colour, ()) if hand else ()
                pos = position if position < len(faces_now) and faces_now[position] == face else \
                    (list(faces_now).index(face) if face in faces_now else None)
                if pos is None:
                    # TRANSLATORS: after "Not saved: ": a die tapped away on another phone ("yellow").
                    raise ValueError(_("that {colour} die is already gone", colour=colour_name(colour).lower()))
                return pr.remove_die(r, i, pid, colour, pos)

            if not await self.save(change):
                return
            self.send_tap_update()

    async def on_tab(self, colour: str, e) -> None:
        self.colour = colour
        if colour == "red":
            self.black = False
        ch = Changes()
        self.fill_pad(ch)
        self.page.update(*ch.controls)

    async def on_sign(self, black: bool, e) -> None:
        self.black = black
        ch = Changes()
        self.fill_pad(ch)
        self.page.update(*ch.controls)

    async def on_pink_switch(self, e) -> None:
        async with self.lock:
            i, pid = self._cur()
            held = bool(self.pink_switch.value)
            self.overrides[(i, pid)] = held
            hand = pr.hand_of(self.record, i, pid)
            if not held and hand is not None and hand.pink is not None:
                if not await self.save(lambda r: pr.remove_die(r, i, pid, "pink")):
                    return
            if held:
                self.colour = "pink"
            self.send_tap_update()

    async def move_to(self, cursor: Cursor) -> None:
        self.cursor = cursor
        if not cursor.is_summary:
            self.colour = first_colour(self.record, cursor.round, cursor.pid)
            self.black = False
            self.sheet_pid = cursor.pid
        self.refresh_all()

    async def on_next(self, e) -> None:
        async with self.lock:
            await self.move_to(next_cursor(self.record, self.cursor))

    async def on_prev(self, e) -> None:
        async with self.lock:
            ids = seats(self.record)
            k = ids.index(self.cursor.pid)
            if k > 0:
                await self.move_to(Cursor(self.cursor.round, ids[k - 1]))

    async def on_start_next(self, e) -> None:
        async with self.lock:
            await self.move_to(after_summary(self.record, self.cursor.round))

    async def on_edit_round(self, e) -> None:
        async with self.lock:
            await self.move_to(Cursor(self.cursor.round, seats(self.record)[0]))

    async def on_panda(self, pid: str, e) -> None:
        async with self.lock:
            i = self.cursor.round
            if await self.save(lambda r: pr.set_panda(r, i, pid)):
                self.refresh_all()

    async def on_finish(self, e) -> None:
        async with self.lock:
            if await self.finish():
                self.refresh_all()

    def on_sheet_player(self, pid: str) -> None:
        self.sheet_pid = pid
        self.fill_sheet()
        self.page.update(self.sheet.control)

    def on_sheet_round(self, index: int, pid: str) -> None:
        self.page.run_task(self._edit_hand, index, pid)

    async def _edit_hand(self, index: int, pid: str) -> None:
        async with self.lock:
            self.show_hand()
            await self.move_to(Cursor(index, pid))

    def after_history(self, before) -> None:
        where = changed_hand(before, self.record)
        if where is not None:
            index, pid = where
            self.cursor = Cursor(index, pid) if pid else Cursor(index, None)
            if pid:
                self.sheet_pid = pid
                if self.colour == "pink" and not holds_pink(self.record, index, pid, self.overrides):
                    self.colour = "yellow"
