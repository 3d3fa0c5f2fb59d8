"""The new-game form of Pandoria: the mode, then (outside the family game) each player's realm
with its starting crystal / gold / wood as a set-up aid. Edits `settings` in place."""
from __future__ import annotations

from functools import partial

import flet as ft

from scoring import pandoria as pa
from views import theme
from views.words.lang import N_, _
from views.pads.pandoria.state import MODES, realm_name, realm_title, start_line

GROUPS = {
    # TRANSLATORS: Pandoria: where a realm comes from (the base game's box, the Realms expansion, promo cards)
    "base": N_("Base game"),
    "expansion": N_("Realms expansion"),
    # TRANSLATORS: Pandoria: promo realms cannot be the only realms at the table
    "promo": N_("Promo realms (not alone)")}


class SetupForm(ft.Column):
    """NewGame calls seat_count(n) and seat_names(names) whenever the seats change. A realm is
    kept with the player's name, so moving a player up or down keeps their realm."""

    def __init__(self, settings: dict):
        super().__init__(spacing=8)
        self.settings = settings
        settings.setdefault("mode", "standard")
        self.names: list[str] = []
        self.by_name: dict[str, str] = {}
        self.mode_cards = {m: self._mode_card(m) for m in MODES}
        # TRANSLATORS: Pandoria's realms (each player plays one)
        self.realm_title = theme.heading(_("Realms"), size=theme.BODY)
        self.realm_hint = ft.Text("", size=theme.SMALL)
        self.seat_rows = ft.Column(spacing=6)
        self.promo_note = ft.Text("", size=theme.SMALL, color=ft.Colors.ERROR)
        # TRANSLATORS: heading of the choice of Pandoria's game mode (standard, beginner, family)
        self.controls = [theme.heading(_("Mode"), size=theme.BODY), *self.mode_cards.values(),
                         self.realm_title, self.realm_hint, self.seat_rows, self.promo_note]
        self.fill()

    # ------------------------------------------------------------------ NewGame's hooks
    def seat_count(self, n: int) -> None:
        if len(self.names) != n:  # seat_names follows with the names; until then, seat numbers
            self.names = [_("Player {n}", n=k) for k in range(1, n + 1)]
            self.fill()

    def seat_names(self, names: list[str]) -> None:
        self.names = list(names)
        self.fill()

    # ------------------------------------------------------------------ drawing
    def _mode_card(self, mode: str) -> ft.Container:
        title, what = (_(words) for words in MODES[mode])
        icon = ft.Icon(ft.Icons.RADIO_BUTTON_UNCHECKED, size=24)
        return ft.Container(
            ft.Semantics(label=title, hint_text=what, button=True, exclude_semantics=True,
                         content=ft.Row([icon, ft.Column([
                             ft.Text(title, size=theme.BODY, weight=ft.FontWeight.BOLD),
                             ft.Text(what, size=theme.SMALL)], spacing=0, tight=True, expand=True)],
                             vertical_alignment=ft.CrossAxisAlignment.CENTER)),
            padding=ft.Padding.symmetric(horizontal=12, vertical=6), border_radius=ft.BorderRadius.all(12),
            ink=True, on_click=partial(self.on_mode, mode), data=icon)

    def _seat_row(self, k: int, name: str) -> ft.Control:
        mode = self.settings["mode"]
        realm = self.by_name.get(name)
        info = pa.realm_info(mode, realm)
        aid = start_line(info) if info else (_("Starting resources as on its tableau") if realm == pa.OTHER_REALM
                                             else _("Tap to choose"))
        if realm == "fairies":
            # TRANSLATORS: Pandoria: the Fairies' resource tracks end at 8 (after "Starts with … · ")
            aid += " · " + _("tracks stop at 8")
        label = _("Realm for {name}: {realm}", name=name, realm=realm_name(mode, realm))
        return ft.Container(
            ft.Semantics(label=label, hint_text=aid, button=True, exclude_semantics=True,
                         content=ft.Row([
                             ft.Text(f"{k + 1}.", size=theme.BODY, width=30, weight=ft.FontWeight.BOLD),
                             ft.Column([
                                 ft.Row([ft.Text(name, size=theme.BODY, weight=ft.FontWeight.BOLD, no_wrap=True,
                                                 overflow=ft.TextOverflow.ELLIPSIS, expand=True),
                                         ft.Text(realm_title(mode, realm) if realm else _("Choose a realm"),
                                                 size=theme.BODY, color=ft.Colors.PRIMARY,
                                                 weight=ft.FontWeight.BOLD)]),
                                 ft.Text(aid, size=theme.SMALL)], spacing=0, tight=True, expand=True),
                             ft.Icon(ft.Icons.CHEVRON_RIGHT)], vertical_alignment=ft.CrossAxisAlignment.CENTER)),
            padding=ft.Padding.symmetric(horizontal=8, vertical=6), border_radius=ft.BorderRadius.all(12),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, ink=True, on_click=partial(self.on_seat, name))

    def fill(self) -> None:
        mode = self.settings["mode"]
        for m, card in self.mode_cards.items():
            on = m == mode
            card.bgcolor = ft.Colors.SECONDARY_CONTAINER if on else None
            card.border = ft.Border.all(2 if on else 1, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE_VARIANT)
            card.content.selected = on
            card.data.icon = ft.Icons.RADIO_BUTTON_CHECKED if on else ft.Icons.RADIO_BUTTON_UNCHECKED
            card.data.color = ft.Colors.PRIMARY if on else None
        family = mode in pa.FAMILY_MODES
        # A realm that the mode does not offer (an expansion realm in the beginner game) is dropped.
        offered = {r.id for r in pa.realms_for(mode)} | {pa.OTHER_REALM}
        self.by_name = {n: r for n, r in self.by_name.items() if r in offered}
        self.realm_title.visible = not family
        self.realm_hint.visible = not family
        self.seat_rows.visible = not family
        # TRANSLATORS: Pandoria: side A / side B of the realm boards
        self.realm_hint.value = (_("Side A: the five base realms, each with a starting building.")
                                 if mode == "beginner" else _("Side B. Seat the players first, then tap a seat."))
        self.seat_rows.controls = [self._seat_row(k, n) for k, n in enumerate(self.names)] if self.names else [
            ft.Text(_("Seat the players to choose their realms."), size=theme.SMALL, color=theme.NOTE)]
        chosen = [self.by_name[n] for n in self.names if n in self.by_name]
        alone = bool(chosen) and len(chosen) == len(self.names) and all(r in pa.PROMO_REALMS for r in chosen)
        # TRANSLATORS: Pandoria: Nymphs and Hanbok are promo realms (their names as in the realm list)
        self.promo_note.value = _("Nymphs and Hanbok cannot be played alone: add a base or expansion realm.") \
            if alone and not family else ""
        self.promo_note.visible = bool(self.promo_note.value)
        # The record keeps a realm per seat (players get ids p1..pN in seat order).
        realms = {f"p{k}": self.by_name[n] for k, n in enumerate(self.names, start=1) if n in self.by_name}
        if realms and not family:
            self.settings["realms"] = realms
        else:
            self.settings.pop("realms", None)

    # ------------------------------------------------------------------ taps
    def on_mode(self, mode: str, e) -> None:
        self.settings["mode"] = mode
        self.fill()
        self.update()

    def on_seat(self, name: str, e) -> None:
        mode = self.settings["mode"]
        realms = pa.realms_for(mode)
        options: list[ft.Control] = []
        for group in GROUPS:
            in_group = [r for r in realms if r.group == group]
            if not in_group:
                continue
            if mode != "beginner":
                options.append(ft.Text(_(GROUPS[group]), size=theme.SMALL, weight=ft.FontWeight.BOLD))
            options += [self._option(name, r.id, _(r.name), start_line(r)) for r in in_group]
        options.append(self._option(name, pa.OTHER_REALM, _("Other realm"), _("Not in this list")))
        if name in self.by_name:
            options.append(self._option(name, None, _("No realm"), _("Leave it open")))
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("{name}'s realm", name=name), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column(options, tight=True, spacing=4, scroll=ft.ScrollMode.AUTO, width=360),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog())]))

    def _option(self, name: str, realm: str | None, title: str, what: str) -> ft.Control:
        chosen = self.by_name.get(name) == realm
        return ft.Container(
            ft.Semantics(label=title, hint_text=what, button=True, checked=chosen, exclude_semantics=True,
                         content=ft.Column([
                             ft.Text(title, size=theme.BODY, weight=ft.FontWeight.BOLD),
                             ft.Text(what, size=theme.SMALL)], spacing=0, tight=True)),
            padding=ft.Padding.symmetric(horizontal=12, vertical=6), border_radius=ft.BorderRadius.all(10),
            bgcolor=ft.Colors.SECONDARY_CONTAINER if chosen else None, ink=True,
            on_click=partial(self.on_realm, name, realm))

    def on_realm(self, name: str, realm: str | None, e) -> None:
        if realm is None:
            self.by_name.pop(name, None)
        else:
            self.by_name[name] = realm
        self.page.pop_dialog()
        self.fill()
        self.update()
