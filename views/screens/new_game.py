"""New game: type each name once (known players are one tap next time), then seat them
clockwise; the game's player-count limits come from its rules module."""
from __future__ import annotations

from functools import partial
from time import monotonic

import flet as ft

from scoring import GAMES, names
from scoring.names import NAME_MAX
from views import theme
from views.words.lang import _, n_
from views.words.name_typing import TypedName
from views.pads.registry import title_of


def check_name(name: str, seated: list[str]) -> str | None:
    """Why a typed name cannot be seated, or None (scoring/names.py: what a name may be)."""
    return names.problem(name, seated)


class NewGame:
    """The form; on_start(game, names, settings) creates the game (async) and navigates to it.
    `form` (from the pad) edits `settings` in place: what the game needs chosen before play."""

    def __init__(self, game: str, known: list[str], settings: dict, form: ft.Control | None, on_start):
        self.game = game
        self.settings = settings
        self.form = form
        self.rules = GAMES[game]
        self.low, self.high = self.rules.PLAYERS
        self.known = known
        self.on_start = on_start
        self.seated: list[str] = []
        # shift_enter: Flet then submits on Enter itself and the field keeps the focus. A plain
        # field loses it on Enter until the server gives it back, and what was typed in between
        # went nowhere or was wiped (the next name typed at once after Enter).
        self.name = ft.TextField(label=_("Player name"), on_submit=self.on_add, on_change=self.on_typed,
                                 shift_enter=True, min_lines=1, max_lines=1, expand=True, autofocus=True,
                                 max_length=NAME_MAX, text_size=theme.BODY,
                                 capitalization=ft.TextCapitalization.WORDS)
        # What was typed, true while the field's writes travel (#32); the field capitalizes words.
        self.typing = TypedName(capital_words=True)
        self.message = ft.Text("", size=theme.SMALL, color=ft.Colors.ERROR)
        self.known_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
        self.seats = ft.Column(spacing=4)
        self.count = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD)
        self.start = ft.FilledButton(_("Start the game"), icon=ft.Icons.PLAY_ARROW, height=56,
                                     on_click=self.on_start_clicked)
        self.start_reason = ft.Text("", size=theme.SMALL, text_align=ft.TextAlign.END)
        if self.low != self.high:
            players = _("{low}–{high} players. Seat them in order, clockwise around the table.",
                        low=self.low, high=self.high)
        else:
            players = n_("{n} player. Seat them in order, clockwise around the table.",
                         "{n} players. Seat them in order, clockwise around the table.", self.low)
        title = _("New {game} game", game=title_of(game))
        size, lines, height = theme.bar_title(title, (getattr(theme.current_page(), "width", None) or 412) - 56 - 32)
        self.view = ft.View(
            route=f"/new/{game}",
            appbar=ft.AppBar(title=ft.Text(title, size=size, weight=ft.FontWeight.BOLD, max_lines=lines),
                             toolbar_height=max(72, height)),
            controls=[ft.Column([
                ft.Text(players, size=theme.BODY),
                ft.Row([self.name, self.add_button()]),
                self.message,
                self.known_row,
                ft.Row([theme.heading(_("Seats")), self.count], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
                self.seats,
                *([form] if form is not None else []),
            ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=10),
                # Below the part that scrolls: on screen with five players seated and big text.
                ft.Container(ft.Column([self.start_reason, ft.Row([self.start], alignment=ft.MainAxisAlignment.END)],
                                       spacing=2, tight=True),
                             border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
                             padding=ft.Padding.only(top=6))],
            padding=ft.Padding.all(12), spacing=0)
        self.fill()

    def add_button(self) -> ft.Control:
        """'Add player' in words where the name field keeps room beside it, else its icon alone
        (same name to a screen reader): 'Spieler hinzufügen' left the field 60 px (#33)."""
        label = _("Add player")
        page = theme.current_page()
        room = ((page.width if page is not None else None) or 360) - 24
        if room - (theme.text_width(label, theme.BODY) + 18 + 8 + 48) >= 150:
            return ft.FilledButton(label, icon=ft.Icons.PERSON_ADD, height=56, on_click=self.on_add)
        return ft.FilledIconButton(ft.Icon(ft.Icons.PERSON_ADD, semantics_label=label), tooltip=label,
                                   on_click=self.on_add, icon_size=28, width=56, height=56)

    def fill(self) -> None:
        # A known name shows and seats as a typed one does: tidied, once per person (#31).
        spare, taken = [], {names.key(s) for s in self.seated}
        for n in map(names.tidy, self.known):
            if names.visible(n) and names.key(n) not in taken:
                taken.add(names.key(n))
                spare.append(n)
        full = len(self.seated) >= self.high
        self.known_row.controls = ([ft.Text(_("Known players:"), size=theme.SMALL)] if spare else []) + [
            ft.OutlinedButton(n, icon=ft.Icons.ADD, height=theme.TAP, disabled=full,
                              on_click=partial(self.on_known, n)) for n in spare]
        self.seats.controls = [self._seat(k, n) for k, n in enumerate(self.seated)]
        n = len(self.seated)
        # TRANSLATORS: players seated so far of how many the game takes ("3 of 2–10", "1 of 2")
        self.count.value = (_("{n} of {low}–{high}", n=n, low=self.low, high=self.high) if self.low != self.high
                            else _("{n} of {low}", n=n, low=self.low))
        self.start.disabled = not self.low <= n <= self.high
        self.start_reason.value = (n_("Seat at least {n} player to start.", "Seat at least {n} players to start.",
                                      self.low) if n < self.low else "")
        self.start_reason.visible = n < self.low
        self.name.disabled = full
        if hasattr(self.form, "seat_count"):  # set-up aids that depend on the player count
            self.form.seat_count(n)
        if hasattr(self.form, "seat_names"):  # set-up per player (a Pandoria realm per seat)
            self.form.seat_names(list(self.seated))

    def _seat(self, k: int, name: str) -> ft.Control:
        last = len(self.seated) - 1
        # TRANSLATORS: a seat's number in the new-game form ("1.", "2."), clockwise around the table
        seat = _("{seat}.", seat=k + 1)
        return ft.Container(ft.Row([
            ft.Text(seat, size=theme.BODY, width=34, weight=ft.FontWeight.BOLD),
            ft.Text(name, size=theme.BODY, expand=True),
            theme.icon_button(ft.Icons.ARROW_UPWARD, _("Move {name} up", name=name), partial(self.on_move, k, -1),
                              disabled=k == 0),
            theme.icon_button(ft.Icons.ARROW_DOWNWARD, _("Move {name} down", name=name), partial(self.on_move, k, 1),
                              disabled=k == last),
            theme.icon_button(ft.Icons.CLOSE, _("Remove {name}", name=name), partial(self.on_remove, k)),
        ], spacing=0), border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))

    def seat(self, name: str) -> str | None:
        problem = check_name(name, self.seated)
        if problem is None and len(self.seated) >= self.high:
            problem = n_("{game} is played by at most {n}.", "{game} is played by at most {n}.", self.high,
                         game=title_of(self.game))
        if problem is None:
            self.seated.append(names.tidy(name))
        return problem

    def _write(self, value: str | None) -> bool:
        """Put `value` in the phone's field. Flet sends a value only when it differs from the
        last the phone sent, and a write may have to restore exactly that."""
        if value is None:
            return False
        self.name.value = None
        self.name.value = value
        return True

    async def on_add(self, e) -> None:
        typed, _newline, rest = self.typing.text.partition("\n")
        problem = self.seat(typed)
        self.message.value = problem or ""
        # A refused name stays to be mended; a typed new line's tail is the next name.
        self._write(self.typing.put(typed, monotonic()) if problem else self.typing.seated(monotonic(), rest))
        self.fill()
        self.view.update()

    async def on_typed(self, e) -> None:
        value = e.data if isinstance(e.data, str) else self.name.value or ""
        wrote = self._write(self.typing.typed(value, monotonic()))
        if "\n" in self.typing.text:  # a phone keyboard's return key typed a new line instead of submitting
            await self.on_add(e)
        elif wrote:
            self.name.update()

    def on_known(self, name: str, e) -> None:
        self.message.value = self.seat(name) or ""
        self.fill()

    def on_move(self, k: int, step: int, e) -> None:
        j = k + step
        if 0 <= j < len(self.seated):
            self.seated[k], self.seated[j] = self.seated[j], self.seated[k]
        self.fill()

    def on_remove(self, k: int, e) -> None:
        del self.seated[k]
        self.fill()

    async def on_start_clicked(self, e) -> None:
        if not self.low <= len(self.seated) <= self.high:
            return
        self.start.disabled = True
        self.start.update()
        await self.on_start(self.game, list(self.seated), self.settings)
