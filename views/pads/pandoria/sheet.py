"""One player's end-of-game sheet: crown points (from the log, adjustable), hand cards, the
resources left with the rate buildings the player has, captives for Hanbok; each resource's
conversion said live (which rate, and why), the points and the leftover."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import pandoria as pa
from views import theme
from views.words import lang
from views.pads.pad.changes import Changes
from views.words.lang import N_, _
from views.pads.pad.parts import Stepper, warning_row
from views.pads.pandoria.state import (RESOURCE_WORDS, conversions, points_note, rate_spoken, realm_title, sum_line,
                                  total_of)

# The realm under a player's name, beside the final score: about 116 px at 320 px.
REALM_ROOM = 116

ICONS = {"wood": (ft.Icons.FOREST, "#6D8B3A"), "gold": (ft.Icons.MONETIZATION_ON, "#E0A800"),
         "crystal": (ft.Icons.DIAMOND, "#5C8FD6")}
# Each part's counter, named for a screen reader: (More, Fewer, Set, its number sheet's title, the value said).
# Marked here, _(words, name=…) where shown.
WORDS = {
    # TRANSLATORS: Pandoria's end-of-game sheet: the points of the crown track
    "points": (N_("More crown points for {name}"), N_("Fewer crown points for {name}"),
               N_("Set crown points for {name}"), N_("{name}'s crown points"), N_("{name}'s crown points: {n}")),
    # TRANSLATORS: Pandoria's end-of-game sheet: the cards left in a player's hand
    "cards": (N_("More cards for {name}"), N_("Fewer cards for {name}"), N_("Set cards for {name}"),
              N_("{name}'s cards"), N_("{name}'s cards: {n}")),
    # TRANSLATORS: Pandoria's resources (the game's terms): wood, gold, crystal
    "wood": (N_("More wood for {name}"), N_("Fewer wood for {name}"), N_("Set wood for {name}"),
             N_("{name}'s wood"), N_("{name}'s wood: {n}")),
    "gold": (N_("More gold for {name}"), N_("Fewer gold for {name}"), N_("Set gold for {name}"),
             N_("{name}'s gold"), N_("{name}'s gold: {n}")),
    "crystal": (N_("More crystal for {name}"), N_("Fewer crystal for {name}"), N_("Set crystal for {name}"),
                N_("{name}'s crystal"), N_("{name}'s crystal: {n}")),
    # TRANSLATORS: Pandoria: Hanbok's captives (a promo realm's term)
    "captives": (N_("More captives for {name}"), N_("Fewer captives for {name}"), N_("Set captives for {name}"),
                 N_("{name}'s captives"), N_("{name}'s captives: {n}")),
}
HIGH = {"points": 300, "cards": 40, "captives": 40}


def _title(text: str, small: ft.Text | None = None, icon=None) -> ft.Control:
    head = ft.Text(text, size=theme.BODY, weight=ft.FontWeight.BOLD)
    if icon is not None:
        head = ft.Row([ft.Icon(icon[0], color=icon[1], size=24), head], spacing=6, tight=True)
    return ft.Column([head, *([small] if small is not None else [])], spacing=0, tight=True, expand=True)


def _beside(page, text: str, title: ft.Control, stepper: ft.Control) -> ft.Control:
    """A part's title beside its stepper where its longest word fits there, else above it: a
    long German word ('Kronenleiste') at extra-large text broke in the middle (#33)."""
    room = (page.width or 360) - 2 * 12 - 2 * 12 - 4 * theme.TAP - 2 * theme.BODY  # the stepper's keys and number
    # Whole words, a Japanese title too: '王冠トラッ|ク' beside the keys read worse than above them.
    if theme.widest_word(text, theme.BODY) <= room:
        return ft.Row([title, stepper], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    title.expand = False
    return ft.Column([title, ft.Row([stepper], alignment=ft.MainAxisAlignment.END)], spacing=4)


class Sheet:
    def __init__(self, screen, pid: str):
        self.screen = screen
        self.pid = pid
        record = screen.record
        name = self.name = record.name_of(pid)
        self.family = pa.family(record)
        self.realm = ft.Text("", size=theme.SMALL)
        self.total = ft.Text("0", size=theme.HUGE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)
        self.total_said = ft.Semantics(content=self.total, exclude_semantics=True, label="")
        self.steppers: dict[str, Stepper] = {}
        for part, (more, fewer, pick, title, _said) in WORDS.items():
            s = Stepper("", _(more, name=name), _(fewer, name=name), partial(self.on_step, part),
                        pick=_(pick, name=name), sheet_title=_(title, name=name))
            s.title.visible = False
            s.control.bgcolor = None
            self.steppers[part] = s
        self.points_note = ft.Text("", size=theme.SMALL)
        self.use_log = ft.TextButton("", icon=ft.Icons.RESTART_ALT, height=theme.TAP, on_click=self.on_use_log)
        self.toggles = {(res, rate): self._toggle(res, rate) for res in pa.RESOURCES for rate in pa.RATES}
        self.lines = {res: (ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD),
                            ft.Text("", size=theme.SMALL, color=theme.NOTE)) for res in pa.RESOURCES}
        self.caps = {res: ft.Text("", size=theme.SMALL) for res in pa.RESOURCES}
        # TRANSLATORS: Pandoria: Hanbok's captives (a promo realm's term)
        page = screen.page
        self.captives_row = self._box(_beside(page, _("Captives"), _title(_("Captives"), ft.Text(
            _("Hanbok: 1 point each"), size=theme.SMALL)), self.steppers["captives"].control))
        self.sum = ft.Text("", size=theme.BODY)
        self.warnings = ft.Column(spacing=4)
        resources = []
        for res in pa.RESOURCES:
            line, why = self.lines[res]
            resources.append(self._box(ft.Column([
                _beside(page, _(RESOURCE_WORDS[res]), _title(_(RESOURCE_WORDS[res]), self.caps[res], ICONS[res]),
                        self.steppers[res].control),
                # TRANSLATORS: Pandoria: the player's buildings that give a better conversion rate
                *([] if self.family else [ft.Row([ft.Text(_("Buildings"), size=theme.SMALL),
                                                 self.toggles[(res, "2:1")], self.toggles[(res, "3:2")]],
                                                spacing=8, wrap=True, run_spacing=4,  # big text: toggles below
                                                vertical_alignment=ft.CrossAxisAlignment.CENTER)]),
                line, why], spacing=4)))
        self.control = ft.Column([
            ft.Row([ft.Column([ft.Text(name, size=theme.LARGE, weight=ft.FontWeight.BOLD, no_wrap=True,
                                       overflow=ft.TextOverflow.ELLIPSIS), self.realm], spacing=0, expand=True),
                    ft.Column([ft.Text(_("Final score"), size=theme.SMALL), self.total_said], spacing=0,
                              horizontal_alignment=ft.CrossAxisAlignment.END)],
                   vertical_alignment=ft.CrossAxisAlignment.CENTER),
            self._box(ft.Column([
                # TRANSLATORS: Pandoria's crown track (the score track on the board)
                _beside(page, _("Crown track"), _title(_("Crown track"), self.points_note),
                        self.steppers["points"].control),
                self.use_log], spacing=0)),
            self._box(_beside(page, _("Hand cards"), _title(_("Hand cards"), ft.Text(_("1 point each"),
                                                                                     size=theme.SMALL)),
                              self.steppers["cards"].control)),
            *resources,
            self.captives_row,
            ft.Container(self.sum, bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=ft.BorderRadius.all(12),
                         padding=ft.Padding.symmetric(horizontal=12, vertical=10)),
            self.warnings,
        ], spacing=8, visible=False)

    @staticmethod
    def _box(content: ft.Control) -> ft.Container:
        return ft.Container(content, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, border_radius=ft.BorderRadius.all(12),
                            padding=ft.Padding.only(left=12, right=4, top=6, bottom=6))

    def _toggle(self, res: str, rate: str) -> ft.Container:
        icon = ft.Icon(ft.Icons.ADD, size=18)
        give, get = rate.split(":")
        text = [ft.Text(give, size=theme.BODY, weight=ft.FontWeight.BOLD), ft.Icon(ft.Icons.ARROW_FORWARD, size=16),
                ft.Text(get, size=theme.BODY, weight=ft.FontWeight.BOLD)]
        box = ft.Container(
            ft.Semantics(label=self._building(res, rate_spoken(rate)), toggled=False,
                         exclude_semantics=True, content=ft.Row([icon, *text], spacing=4, tight=True)),
            height=theme.TAP, width=104, border_radius=ft.BorderRadius.all(24), alignment=ft.Alignment.CENTER,
            border=ft.Border.all(1, ft.Colors.OUTLINE), ink=True, on_click=partial(self.on_toggle, res, rate))
        box.data = (icon, text)
        return box

    def _building(self, res: str, rate: str) -> str:
        """'Ann has a 2 to 1 wood building' (a rate toggle's name)."""
        if res == "wood":
            # TRANSLATORS: Pandoria: a building that converts resources at a better rate ({rate}: "2 to 1")
            return _("{name} has a {rate} wood building", name=self.name, rate=rate)
        if res == "gold":
            return _("{name} has a {rate} gold building", name=self.name, rate=rate)
        return _("{name} has a {rate} crystal building", name=self.name, rate=rate)

    def fill(self, ch: Changes, enabled: bool) -> None:
        screen, pid = self.screen, self.pid
        record, result = screen.record, screen.result
        mode = record.settings.mode
        where = pa.realm_of(record, pid)
        ch.set(self.realm, size=theme.size_to_fit(realm_title(mode, where) if where else "", REALM_ROOM))
        ch.set(self.realm, value=realm_title(mode, where) if where else
               (_("Family game") if self.family else _("Realm not chosen")))
        total = total_of(result, pid)
        ch.set(self.total, value=str(total))
        ch.set(self.total_said, label=_("{name}'s final score: {total}", name=self.name, total=total))
        final = pa.final_of(record, pid)
        cap = pa.cap_of(record, pid)
        ch.set(self.points_note, value=points_note(record, pid))
        from_log = pa.log_total(record, pid)
        adjusted = final.points is not None and final.points != from_log
        # TRANSLATORS: Pandoria: a button that puts back the crown points the log adds up to
        ch.set(self.use_log, content=_("Use the log's {points}", points=from_log), visible=adjusted and enabled)
        values = {"points": pa.crown_points(record, pid), "cards": final.cards, "captives": final.captives,
                  **{res: getattr(final, res) for res in pa.RESOURCES}}
        for part, stepper in self.steppers.items():
            high = cap if part in pa.RESOURCES else HIGH[part]
            ch.set(stepper.value, semantics_label=_(WORDS[part][4], name=self.name, n=values[part]))
            stepper.fill(ch, values[part], 0, max(high, values[part]) if part not in pa.RESOURCES else high,
                         enabled)
        for conv in conversions(record, pid):
            line, why = self.lines[conv.resource]
            # TRANSLATORS: Pandoria: how many of a resource the track holds; the Fairies realm's stop at 8
            ch.set(self.caps[conv.resource], value=_("0–{cap} (Fairies)", cap=cap) if cap != pa.CAP else f"0–{cap}")
            ch.set(line, value=conv.line)
            ch.set(why, value=conv.why, visible=bool(conv.why))
        for (res, rate), box in self.toggles.items():
            on = rate in final.rates.get(res, ())
            icon, text = box.data
            ch.set(box, bgcolor=ft.Colors.PRIMARY if on else None, disabled=not enabled)
            ch.set(box.content, toggled=on)
            ch.set(icon, icon=ft.Icons.CHECK if on else ft.Icons.ADD, color=ft.Colors.ON_PRIMARY if on else None)
            for t in text:
                ch.set(t, color=ft.Colors.ON_PRIMARY if on else None)
        ch.set(self.captives_row, visible=pa.has_captives(record, pid) or final.captives > 0)
        ch.set(self.sum, value=sum_line(record, result, pid))
        problems = [(lang.problem(p), p.level == "error") for p in result.problems if p.where.startswith(f"final.{pid}")]
        if self.warnings.data != problems:
            self.warnings.data = problems
            ch.set_children(self.warnings, [warning_row(m, err) for m, err in problems])

    async def on_step(self, part: str, delta: int, e) -> None:
        await self.screen.tap(lambda r: pa.step_part(r, self.pid, part, delta))

    async def on_toggle(self, res: str, rate: str, e) -> None:
        await self.screen.tap(lambda r: pa.toggle_rate(r, self.pid, res, rate))

    async def on_use_log(self, e) -> None:
        await self.screen.tap(lambda r: pa.use_log_points(r, self.pid))
