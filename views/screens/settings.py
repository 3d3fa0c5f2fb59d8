"""Settings: how the app looks and behaves, and the defaults new games start with. Each change
is saved at once (no Save button to forget) and survives a restart: the host's with the store
(they are also what a phone starts from), a guest's look and feel in its own phone (#24)."""
from __future__ import annotations

import logging
from functools import partial

import flet as ft

from scoring import royal_ur as ur
from views import theme
from views.words import lang
from views.device import preferences
from views.pads.pad.changes import Changes
from views.words.lang import N_, _, p_
from views.pads.pad.parts import Stepper
from views.pads.registry import title_of
from views.table.roles import HOST_WHO, refusal_said
from views.pads.royal_ur.dot_map import DotMapDialog

log = logging.getLogger(__name__)

THEMES = (
    # TRANSLATORS: a theme in Settings: light or dark as the phone is set
    ("system", N_("Follow the phone")),
    # TRANSLATORS: a theme in Settings (light colours)
    ("light", N_("Light")),
    # TRANSLATORS: a theme in Settings (dark colours)
    ("dark", N_("Dark")),
)
SIZES = (
    # TRANSLATORS: a text size in Settings
    ("normal", N_("Normal")),
    # TRANSLATORS: a text size in Settings
    ("large", N_("Large")),
    # TRANSLATORS: a text size in Settings
    ("extra-large", N_("Extra large")),
)
TARGETS = (20, 30, 50)


def change_said(key: str, value) -> str:
    """One change of a setting in words: 'text size extra large', 'vibrate on taps off'."""
    if key == "ur_board":
        # TRANSLATORS: a changed setting, said after "Saved: "
        return _("the dot map")
    if key == "nokosu_zero_bonus":
        # TRANSLATORS: a changed setting, said after "Saved: " ("zero bonus 15")
        return _("zero bonus {n}", n=value)
    if key == "pass_the_pandas_target":
        # TRANSLATORS: a changed setting, said after "Saved: " ("target 30")
        return _("target {n}", n=value)
    # Each setting and value a whole phrase (said after "Saved: "): word order is the language's.
    phrases = {
        ("theme", "system"): _("theme system"),
        ("theme", "light"): _("theme light"),
        ("theme", "dark"): _("theme dark"),
        ("text_size", "normal"): _("text size normal"),
        ("text_size", "large"): _("text size large"),
        ("text_size", "extra-large"): _("text size extra large"),
        ("keep_awake", True): _("keep the screen awake on"),
        ("keep_awake", False): _("keep the screen awake off"),
        ("haptics", True): _("vibrate on taps on"),
        ("haptics", False): _("vibrate on taps off"),
        ("guests_see_history", True): _("guests may see the history on"),
        ("guests_see_history", False): _("guests may see the history off"),
    }
    return phrases.get((key, value), f"{key} {value}")


def said(changes: dict) -> str:
    """A change of settings in words: 'text size extra large', 'vibrate on taps off'."""
    # TRANSLATORS: between two changed settings ("theme dark, text size large")
    return p_("list of settings", ", ").join(change_said(key, value) for key, value in changes.items())


# The switch and the space Flutter keeps beside it (Material 3: a 52 px track in a 60 px box).
SWITCH_WIDTH = 68
RADIO_WIDTH = 48  # a radio's 40 px box and the gap to its label


class SettingsScreen:
    def __init__(self, page: ft.Page, games, who=HOST_WHO, redraw=None, restyle=None):
        self.page = page
        self.games = games
        self.who = who
        self.redraw = redraw  # every screen again, in a newly chosen language
        self.restyle = restyle  # the screens beneath this one again, at a new text size
        s = preferences.settings_of(page, games)  # the look and feel this phone goes by
        self.theme_group = ft.RadioGroup(value=s.theme, on_change=self.on_theme, content=ft.Column(
            [self.radio(v, _(t)) for v, t in THEMES], spacing=0))
        # Each language named in its own words, whatever this phone reads now (#33, #45): 日本語,
        # 한국어 and 简体中文 in the slices the site serves, fetched when this screen first shows.
        self.language_group = ft.RadioGroup(value=preferences.language_choice(page), on_change=self.on_language,
                                            content=ft.Column([self.radio(v, t)
                                                for v, t in ((lang.PHONE, _("Phone's language")),
                                                             *lang.LANGUAGES.items())], spacing=0))
        self.size_group = ft.RadioGroup(value=s.text_size, on_change=self.on_text_size, content=ft.Column(
            [self.radio(v, _(t)) for v, t in SIZES], spacing=0))
        self.awake = self.switch(_("Keep the screen awake"), s.keep_awake, self.on_awake)
        self.haptics = self.switch(_("Vibrate on taps"), s.haptics, self.on_haptics)
        self.map_text = ft.Text("", size=theme.BODY)
        self.zero = Stepper(_("Zero bonus"), _("More zero bonus"), _("Fewer zero bonus"), self.on_zero)
        self.target = Stepper(_("Target"), _("Higher target"), _("Lower target"), self.on_target)
        self.target_chips = ft.Row(spacing=8)
        self.saved_note = ft.Text("", size=theme.SMALL, color=theme.NOTE)
        self.guests = self.switch(_("Guests may see the history"), games.settings.guests_see_history, self.on_guests)
        section = partial(theme.heading, size=theme.BODY)
        mine = [
            section(_("Language")), self.language_group,
            section(_("Theme")), self.theme_group,
            section(_("Text size")), self.size_group,
            ft.Divider(),
            self.awake,
            ft.Text(_("During a game, so a phone lying on the table stays on."), size=theme.SMALL),
            self.haptics,
            ft.Text(_("A light tick with each entry, on phones that can."), size=theme.SMALL),
            ft.Divider(),
        ]
        if not who.may("settings"):  # a guest: this phone's look and feel, nothing of the host's
            mine = [ft.Text(_("These settings are this phone's own."), size=theme.SMALL, color=theme.NOTE), *mine,
                    ft.Text(_("Only the host can change these settings: the Royal Game of Ur's dot map, the "
                              "defaults of new games, and who may see the history."), size=theme.BODY),
                    self.saved_note]
        self.view = ft.View(
            route="/settings", padding=ft.Padding.all(12),
            appbar=theme.titled_bar(_("Settings")),
            controls=[ft.Column(mine if not who.may("settings") else [
                *mine,
                *([section(_("Table mode")),
                   self.guests,
                   ft.Text(_("Off: a phone with the table link sees the games of tonight only. On: it may also "
                             "read the history and the statistics, never change them."), size=theme.SMALL),
                   ft.Divider()] if games.host.table else []),  # a phone by itself has no guests
                section(title_of("royal-ur")),
                # The words over the button: beside it they had 74 px at 320 px and the largest text.
                self.map_text,
                ft.OutlinedButton(_("Dot map"), icon=ft.Icons.EDIT, height=theme.TAP, on_click=self.on_dot_map),
                section(_("{game}: zero bonus of a new game", game=title_of("nokosu-dice"))), self.zero.control,
                section(_("{game}: target of a new game", game=title_of("pass-the-pandas"))),
                ft.Row([self.target.control, self.target_chips], wrap=True, spacing=12),
                self.saved_note,
            ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=8)])
        self.fill()

    def fill(self) -> Changes:
        s = self.games.settings
        ch = Changes()
        ch.set(self.map_text, value=_("Your board's dot map") if s.ur_board else
               _("The default dot map (check it against your board)"))
        self.zero.fill(ch, s.nokosu_zero_bonus, 0, 50)
        self.target.fill(ch, s.pass_the_pandas_target, 5, 200)
        chips = [theme.choice(f"{t}", _("Target {n}", n=t), t == s.pass_the_pandas_target,
                              partial(self.on_target_choice, t)) for t in TARGETS]
        ch.set_children(self.target_chips, chips)
        return ch

    def refused(self, changes: dict) -> bool:
        """A guest may change this phone's look and feel only, asked when the handler runs."""
        if self.who.may("settings") or set(changes) <= set(preferences.PREF_KEYS):
            return False
        self.page.show_dialog(ft.SnackBar(ft.Text(refusal_said("settings"), size=theme.BODY)))
        return True

    async def save(self, **changes) -> None:
        if self.refused(changes):
            return
        try:
            if self.who.host:  # the host's choices are also the defaults of every new phone
                await self.games.save_settings(**changes)
            else:
                await preferences.choose(self.page, self.games, **changes)
        except Exception as exc:  # a full disk: say so, keep the screen as it was
            log.exception("saving settings")
            self.page.show_dialog(ft.SnackBar(ft.Text(_("Not saved: {reason}", reason=exc), size=theme.BODY)))
            return
        self.saved_note.value = _("Saved. New screens use it; this one too after you leave it.")
        # TRANSLATORS: the settings just changed ("Saved: text size extra large.")
        self.page.show_dialog(ft.SnackBar(ft.Text(_("Saved: {changes}.", changes=said(changes)), size=theme.BODY),
                                          duration=ft.Duration(seconds=2)))
        ch = self.fill() if self.who.host else Changes()  # a guest's screen has no game settings
        ch.add(self.saved_note)
        self.page.update(*ch.roots())

    async def on_theme(self, e) -> None:
        await self.save(theme=self.theme_group.value)
        theme.apply(self.page, preferences.settings_of(self.page, self.games).theme)
        self.page.update()

    async def on_language(self, e) -> None:
        try:
            again = await preferences.choose_language(self.page, self.language_group.value)
        except ValueError as exc:
            log.info("language: %s", exc)
            return
        if again:  # this screen, opened again: the engine learns the letterforms as it starts
            await ft.UrlLauncher().launch_url((self.page.route or "/").lstrip("/") or ".", web_only_window_name="_self")
            return
        if self.redraw is not None:
            await self.redraw()
        else:
            self.page.update()

    def radio(self, value: str, label: str) -> ft.Radio:
        """A choice with its label on one line beside it (Flet draws it so), smaller where it would
        not fit at the body size."""
        room = (self.page.width or 412) - 2 * 12 - RADIO_WIDTH
        return ft.Radio(value=value, label=label, label_style=ft.TextStyle(size=theme.size_for_line(label, room)))

    def switch(self, label: str, value: bool, on_change) -> ft.Switch:
        """A switch whose label wraps beside it: Flet's string label is one line, and at the
        largest text "Gäste dürfen den Verlauf s" was all a German phone read (#45)."""
        room = (self.page.width or 412) - 2 * 12 - SWITCH_WIDTH
        return ft.Switch(label=ft.Text(label, size=theme.BODY, width=room), value=value, on_change=on_change)

    async def on_text_size(self, e) -> None:
        await self.save(text_size=self.size_group.value)
        if self.who.host:  # the default of every phone that did not choose; a guest's is its own
            theme.set_text_size(self.games.settings.text_size)
        theme.apply(self.page, preferences.settings_of(self.page, self.games).theme)  # button labels take the new size
        self.page.update()
        if self.restyle is not None:
            await self.restyle()

    async def on_guests(self, e) -> None:
        await self.save(guests_see_history=bool(self.guests.value))

    async def on_awake(self, e) -> None:
        await self.save(keep_awake=bool(self.awake.value))

    async def on_haptics(self, e) -> None:
        await self.save(haptics=bool(self.haptics.value))

    async def on_zero(self, delta: int, e) -> None:
        await self.save(nokosu_zero_bonus=max(0, min(50, self.games.settings.nokosu_zero_bonus + delta)))

    async def on_target(self, delta: int, e) -> None:
        await self.save(pass_the_pandas_target=max(5, min(200, self.games.settings.pass_the_pandas_target + 5 * delta)))

    async def on_target_choice(self, target: int, e) -> None:
        await self.save(pass_the_pandas_target=target)

    async def on_dot_map(self, e) -> None:
        if self.refused({"ur_board": None}):
            return
        board = self.games.settings.ur_board or ur.DEFAULT_BOARD
        DotMapDialog(self.page, tuple(board), self.games.settings.ur_board is None, self.on_board).open()

    async def on_board(self, board: list[int]) -> None:
        await self.save(ur_board=list(board))
