"""Settings: how the app looks and behaves, and the defaults new games start with. Each change
is saved at once (no Save button to forget) and survives a restart: the host's with the store
(they are also what a phone starts from), a guest's look and feel in its own phone (#24)."""
from __future__ import annotations

import logging
from functools import partial

import flet as ft

from scoring import royal_ur as ur
from views import theme
from views import phone
from views.changes import Changes
from views.pad.parts import Stepper
from views.roles import HOST_WHO, refusal
from views.royal_ur.dot_map import DotMapDialog

log = logging.getLogger(__name__)

THEMES = (("system", "Follow the phone"), ("light", "Light"), ("dark", "Dark"))
SIZES = (("normal", "Normal"), ("large", "Large"), ("extra-large", "Extra large"))
TARGETS = (20, 30, 50)


WORDS = {"theme": "theme", "text_size": "text size", "keep_awake": "keep the screen awake",
         "haptics": "vibrate on taps", "nokosu_zero_bonus": "zero bonus", "pass_the_pandas_target": "target",
         "ur_board": "the dot map", "guests_see_history": "guests may see the history"}


def said(changes: dict) -> str:
    """A change of settings in words: 'text size extra large', 'vibrate on taps off'."""
    out = []
    for key, value in changes.items():
        if key == "ur_board":
            out.append(WORDS[key])
        elif isinstance(value, bool):
            out.append(f"{WORDS[key]} {'on' if value else 'off'}")
        else:
            out.append(f"{WORDS[key]} {str(value).replace('-', ' ')}")
    return ", ".join(out)


class SettingsScreen:
    def __init__(self, page: ft.Page, games, who=HOST_WHO):
        self.page = page
        self.games = games
        self.who = who
        s = phone.settings_of(page, games)  # the look and feel this phone goes by
        self.theme_group = ft.RadioGroup(value=s.theme, on_change=self.on_theme, content=ft.Column(
            [ft.Radio(value=v, label=t, label_style=ft.TextStyle(size=theme.BODY)) for v, t in THEMES], spacing=0))
        self.size_group = ft.RadioGroup(value=s.text_size, on_change=self.on_text_size, content=ft.Column(
            [ft.Radio(value=v, label=t, label_style=ft.TextStyle(size=theme.BODY)) for v, t in SIZES], spacing=0))
        self.awake = ft.Switch(label="Keep the screen awake", value=s.keep_awake,
                               label_text_style=ft.TextStyle(size=theme.BODY), on_change=self.on_awake)
        self.haptics = ft.Switch(label="Vibrate on taps", value=s.haptics,
                                 label_text_style=ft.TextStyle(size=theme.BODY), on_change=self.on_haptics)
        self.map_text = ft.Text("", size=theme.BODY, expand=True)
        self.zero = Stepper("Zero bonus", "More zero bonus", "Fewer zero bonus", self.on_zero)
        self.target = Stepper("Target", "Higher target", "Lower target", self.on_target)
        self.target_chips = ft.Row(spacing=8)
        self.saved_note = ft.Text("", size=theme.SMALL, italic=True)
        self.guests = ft.Switch(label="Guests may see the history", value=games.settings.guests_see_history,
                                label_text_style=ft.TextStyle(size=theme.BODY), on_change=self.on_guests)
        section = partial(theme.heading, size=theme.BODY)
        mine = [
            section("Theme"), self.theme_group,
            section("Text size"), self.size_group,
            ft.Divider(),
            self.awake,
            ft.Text("During a game, so a phone lying on the table stays on.", size=theme.SMALL),
            self.haptics,
            ft.Text("A light tick with each entry, on phones that can.", size=theme.SMALL),
            ft.Divider(),
        ]
        if not who.may("settings"):  # a guest: this phone's look and feel, nothing of the host's
            mine = [ft.Text("These settings are this phone's own.", size=theme.SMALL, italic=True), *mine,
                    ft.Text(f"{refusal('settings')}: the Royal Game of Ur's dot map, the defaults of new "
                            "games, and who may see the history.", size=theme.BODY),
                    self.saved_note]
        self.view = ft.View(
            route="/settings", padding=ft.Padding.all(12),
            appbar=ft.AppBar(title=ft.Text("Settings", size=theme.LARGE, weight=ft.FontWeight.BOLD), toolbar_height=64),
            controls=[ft.Column(mine if not who.may("settings") else [
                *mine,
                *([section("Table mode"),
                   self.guests,
                   ft.Text("Off: a phone with the table link sees the games of tonight only. On: it may also "
                           "read the history and the statistics, never change them.", size=theme.SMALL),
                   ft.Divider()] if games.host.table else []),  # a phone by itself has no guests
                section("Royal Game of Ur"),
                ft.Row([self.map_text, ft.OutlinedButton("Dot map", icon=ft.Icons.EDIT, height=theme.TAP,
                                                         on_click=self.on_dot_map)]),
                section("Nokosu Dice: zero bonus of a new game"), self.zero.control,
                section("Pass the Pandas: target of a new game"),
                ft.Row([self.target.control, self.target_chips], wrap=True, spacing=12),
                self.saved_note,
            ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=8)])
        self.fill()

    def fill(self) -> Changes:
        s = self.games.settings
        ch = Changes()
        ch.set(self.map_text, value="Your board's dot map" if s.ur_board else
               "The default dot map (check it against your board)")
        self.zero.fill(ch, s.nokosu_zero_bonus, 0, 50)
        self.target.fill(ch, s.pass_the_pandas_target, 5, 200)
        chips = [theme.choice(f"{t}", f"Target {t}", t == s.pass_the_pandas_target,
                              partial(self.on_target_choice, t)) for t in TARGETS]
        ch.set_children(self.target_chips, chips)
        return ch

    def refused(self, changes: dict) -> bool:
        """A guest may change this phone's look and feel only, asked when the handler runs."""
        if self.who.may("settings") or set(changes) <= set(phone.PREF_KEYS):
            return False
        self.page.show_dialog(ft.SnackBar(ft.Text(f"{refusal('settings')}.", size=theme.BODY)))
        return True

    async def save(self, **changes) -> None:
        if self.refused(changes):
            return
        try:
            if self.who.host:  # the host's choices are also the defaults of every new phone
                await self.games.save_settings(**changes)
            else:
                await phone.choose(self.page, self.games, **changes)
        except Exception as exc:  # a full disk: say so, keep the screen as it was
            log.exception("saving settings")
            self.page.show_dialog(ft.SnackBar(ft.Text(f"Not saved: {exc}", size=theme.BODY)))
            return
        self.saved_note.value = "Saved. New screens use it; this one too after you leave it."
        self.page.show_dialog(ft.SnackBar(ft.Text(f"Saved: {said(changes)}.", size=theme.BODY),
                                          duration=ft.Duration(seconds=2)))
        ch = self.fill() if self.who.host else Changes()  # a guest's screen has no game settings
        ch.add(self.saved_note)
        self.page.update(*ch.roots())

    async def on_theme(self, e) -> None:
        await self.save(theme=self.theme_group.value)
        theme.apply(self.page, phone.settings_of(self.page, self.games).theme)
        self.page.update()

    async def on_text_size(self, e) -> None:
        await self.save(text_size=self.size_group.value)
        if self.who.host:  # the default of every phone that did not choose; a guest's is its own
            theme.set_text_size(self.games.settings.text_size)
        theme.apply(self.page, phone.settings_of(self.page, self.games).theme)  # button labels take the new size
        self.page.update()

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
