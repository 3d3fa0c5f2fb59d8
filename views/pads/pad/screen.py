"""The machinery of every pad: a tap becomes a new record, saved through the store, and only
then drawn; undo/redo; the problems badge; phones on the same game following each other.

A pad subclasses PadScreen, sets `rules` (its scoring module) and `title`, builds its body in
build() (calling self.make_view) and draws everything from self.record / self.result in
fill(ch). It edits the game only through `await self.save(change)`.
"""
from __future__ import annotations

import asyncio
import logging
from types import ModuleType

import flet as ft

from scoring import RecordError, score
from views import theme
from views.device import preferences
from views.words import lang
from views.pads.pad.changes import Changes
from views.device.session import run_soon
from views.games import Games, SaveFailed, now_iso
from views.words.lang import N_, _
from views.pads.pad.parts import Strip, lay_out_bar
from views.pads.pad.share import ResultActions
from views.pads.pad.words import leader_line

log = logging.getLogger(__name__)


class PadScreen:
    rules: ModuleType
    nothing_yet = N_("Nothing entered yet")  # translated where shown; a pad names its own
    # What this phone chose to look at (not stored): kept when the screen is drawn again from
    # the store after a dropped link (carry_over). A pad names its own.
    phone_state: tuple[str, ...] = ()

    def __init__(self, page: ft.Page, games: Games, saved):
        self.page = page
        self.games = games
        self.saved = saved
        self.game_id = saved.record.id
        self.result = score(saved.record)
        self.lock = asyncio.Lock()  # one tap at a time, each on the record the last one saved
        # Below the app bar, not in it: at 360 px the bar's buttons leave the title ~140 px.
        self.leader_text = ft.Text("", size=theme.SMALL)
        # A table of phones (#54): who is linked to this phone's game, or the host's phone followed.
        self.table_text = ft.Text("", size=theme.SMALL, weight=ft.FontWeight.BOLD, visible=False)
        self.undo_btn = theme.icon_button(ft.Icons.UNDO, _("Undo"), self.on_undo)
        self.redo_btn = theme.icon_button(ft.Icons.REDO, _("Redo"), self.on_redo)
        self.warn_btn = theme.icon_button(ft.Icons.WARNING_AMBER_ROUNDED, _("Warnings"), self.on_warnings)
        # The icon carries the name: a screen reader is not told the tooltip of a menu button.
        # TRANSLATORS: the menu button with more actions (the three dots in the app bar).
        more_name = _("More")
        more = ft.PopupMenuButton(
            icon=ft.Icon(ft.Icons.MORE_VERT, semantics_label=more_name), tooltip=more_name, items=[
            *([ft.PopupMenuItem(content=_("Big screen"), icon=ft.Icons.TV,
                                on_click=lambda e: self.page.navigate(f"/big/{self.game_id}"))]
              if not games.following else []),
            # A game in progress handed to another phone (this one's battery is low, #53); not the
            # host's game a guest's phone follows (#54): it is not stored here.
            *([ft.PopupMenuItem(content=_("Send to another phone"), icon=ft.Icons.SEND_TO_MOBILE,
                                on_click=lambda e: self.page.navigate(f"/send/{self.game_id}"))]
              if not games.following else []),
            *([ft.PopupMenuItem(content=_("Invite players"), icon=ft.Icons.QR_CODE_2,
                                on_click=lambda e: self.page.navigate("/invite"))] if games.host.table else []),
            # A table of phones with no laptop (#54): the phone by itself invites the others.
            *([ft.PopupMenuItem(content=_("Invite a phone"), icon=ft.Icons.PHONELINK_RING,
                                on_click=lambda e: self.page.navigate(f"/invite-phone/{self.game_id}"))]
              if games.host.phones is not None and not games.following else [])])
        self.title_text = ft.Text(_(self.rules.TITLE), weight=ft.FontWeight.BOLD, max_lines=2,
                                  size=self.title_size(page.width))
        # The game's name above the leader line when the bar has no room for it (#45: at 320 px, or
        # "Königliches Spiel von Ur" at the largest text, the bar was left with no name at all).
        self.title_below = ft.Text(_(self.rules.TITLE), weight=ft.FontWeight.BOLD, size=theme.BODY, visible=False)
        self.appbar = ft.AppBar(
            title=self.title_text,
            actions=[self.warn_btn, self.undo_btn, self.redo_btn, more], toolbar_height=72)
        self.strip = Strip(on_pick=self.strip_pick)
        self.strip.set_width(page.width)
        self.view: ft.View | None = None
        self.closed = False
        self.build()
        self.refresh_all(send=False)
        # The other phones at the table showing this game redraw when one of them saves.
        self.topic = f"game:{self.game_id}"
        self.page.pubsub.subscribe_topic(self.topic, self.on_other_session)

    # ------------------------------------------------------------ for the pad to fill in
    @classmethod
    async def default_settings(cls, games: Games) -> dict:
        """The settings a new game starts with (rules.md's defaults; the new-game screen shows
        settings_form to change them)."""
        return {}

    @classmethod
    def table_status(cls, record, result) -> tuple[str, list[str]]:
        """For the big screen: where the game is ('Round 7 of 10') and the names of the players
        still to enter something there."""
        return "", []

    @classmethod
    def outcome_words(cls, result) -> str:
        """A finished game's outcome in the game's own words, shown under the winner when the
        game is looked at later (Pandoria: how a tie on points was broken); "": nothing more."""
        return ""

    @classmethod
    def settings_form(cls, settings: dict) -> ft.Control | None:
        """Controls on the new-game screen that edit `settings` in place; None: nothing to choose.
        If the control has a method seat_count(n), the screen calls it whenever the number of
        seated players changes (for set-up aids such as the dice each player starts with)."""
        return None

    def build(self) -> None:
        raise NotImplementedError

    def fill(self, ch: Changes) -> None:
        """Draw the pad's own part from self.record and self.result."""
        raise NotImplementedError

    def result_actions(self) -> ft.Control:
        """Under the standings of a finished game: share the result, log it in BG Stats."""
        return ResultActions(self.page, self.record, self.outcome_words).control

    def started(self) -> bool:
        return bool(self.result.rounds)

    def here(self) -> str | None:
        """The player whose entry the pad shows (outlined in the strip), if any."""
        return None

    def problems_to_flag(self) -> list:
        return list(self.result.problems)

    def pending(self) -> set[str]:
        """Players still to enter something this round (marked in the strip)."""
        return set()

    # A pad whose strip cells jump to a player sets this to an async method (pid).
    strip_pick = None

    def after_history(self, before) -> None:
        """Undo or redo replaced `before` with self.record: move the pad to what changed."""

    def on_resize(self, width, height) -> None:
        pass

    def title_size(self, width, icons: int = 3) -> int:
        # Beside the back arrow and three icon buttons (at 360 px about 140 px are left).
        return theme.fitting(_(self.rules.TITLE), (width or 412) - 56 - icons * 48 - 24)

    def title_fits(self, width, icons: int) -> bool:
        """Whether the game's name fits beside the buttons with no word cut: at 320 px, with the
        problems badge too, 48 px are left and 'Panda Royale' read 'Pan|da …' (#33); the pad
        then leaves its name out (the phone's back arrow and the home still name the game)."""
        room = (width or 412) - 56 - icons * 48 - 24
        return theme.widest_piece(_(self.rules.TITLE), theme.SMALL) <= room

    def resized(self, width, height) -> None:
        """The window changed size (a phone turned): the strip and the pad's own layout."""
        self.strip.set_width(width)
        icons = 4 if self.warn_btn.visible else 3
        self.title_text.size = self.title_size(width, icons)
        self.title_text.visible = self.title_fits(width, icons)
        self.title_below.visible = not self.title_text.visible
        bar = getattr(self, "bar", None)
        moved = bar is not None and lay_out_bar(bar, width)
        self.on_resize(width, height)
        if self.closed:
            return
        self.page.update(self.title_text, self.title_below)
        if moved:
            self.page.update(self.view)
        self.send(lambda ch: None)

    # ------------------------------------------------------------ shared
    @property
    def record(self):
        return self.saved.record

    def make_view(self, *controls: ft.Control, **kwargs) -> ft.View:
        kwargs.setdefault("padding", ft.Padding.all(4))
        kwargs.setdefault("spacing", 4)
        leader = ft.Container(ft.Column([self.title_below, self.table_text, self.leader_text], spacing=0, tight=True),
                              padding=ft.Padding.symmetric(horizontal=8))
        if getattr(self, "bar", None) is not None:
            lay_out_bar(self.bar, self.page.width)
        where = "table" if self.games.following else "game"  # a guest's phone follows the host's game at /table/
        self.view = ft.View(route=f"/{where}/{self.game_id}", appbar=self.appbar, controls=[leader, *controls],
                            **kwargs)
        return self.view

    def close(self) -> None:
        """The screen is left: stop listening to the other sessions."""
        self.closed = True
        self.page.pubsub.unsubscribe_topic(self.topic)

    def carry_over(self, old: "PadScreen") -> None:
        """The same game drawn again from the store (the phone came back): keep the place this
        phone was at (whose hand, which round), on the record as stored now."""
        for name in self.phone_state:
            setattr(self, name, getattr(old, name))
        self.settle_phone_state()
        self.refresh_all(send=False)

    def place(self) -> tuple[str, int, dict]:
        """Where this phone is in the game, for the app's next opening (the host keeps it)."""
        return self.game_id, self.saved.revision, {name: getattr(self, name) for name in self.phone_state}

    def take_place(self, kept: dict | None) -> None:
        """The place this phone was at when the app was last open on this game, as stored now."""
        if not kept:
            return
        for name in self.phone_state:
            if name in kept:
                setattr(self, name, kept[name])
        self.settle_phone_state()
        self.refresh_all(send=False)

    def settle_phone_state(self) -> None:
        """After carry_over: bring a kept place back inside the stored record if the game
        moved under it (an undo elsewhere took a round away)."""

    def refresh_all(self, send: bool = True) -> None:
        if self.closed:  # no longer on the page: nothing to draw into
            return
        ch = Changes()
        self.fill_frame(ch)
        self.fill(ch)
        if send:
            self.page.update(self.view)

    def send(self, fill=None) -> None:
        """Send only the controls whose properties changed (a whole-view update would make Flet
        diff and the browser redraw every control of the pad)."""
        if self.closed:
            return
        ch = Changes()
        self.fill_frame(ch)
        (fill or self.fill)(ch)
        if ch.controls:
            self.page.update(*ch.roots())

    def fill_frame(self, ch: Changes) -> None:
        """The app bar (leader, undo/redo, problems badge) and the score strip."""
        started = self.started()
        ch.set(self.leader_text, value=leader_line(self.result, started) if started else _(self.nothing_yet))
        table = self.games.table_status(self.game_id)
        ch.set(self.table_text, value=table[0] if table else "", visible=table is not None,
               color=(ft.Colors.ERROR if table[1] else ft.Colors.PRIMARY) if table else None)
        ch.set(self.undo_btn, disabled=not self.saved.can_undo)
        ch.set(self.redo_btn, disabled=not self.saved.can_redo)
        n = len(self.problems_to_flag())
        ch.set(self.warn_btn, visible=n > 0, badge=str(n) if n else None)
        icons = 4 if n else 3
        fits = self.title_fits(self.page.width, icons)
        ch.set(self.title_text, size=self.title_size(self.page.width, icons), visible=fits)
        ch.set(self.title_below, visible=not fits)
        self.strip.fill(ch, self.result, started, self.here(), self.pending())

    def notify(self, message: str) -> None:
        self.page.show_dialog(ft.SnackBar(ft.Text(message, size=theme.BODY)))

    async def save(self, change) -> bool:
        """Apply one edit: save it through the store, then take the new record. False if refused
        (the message says why and the screen keeps the record it had)."""
        if self.closed:  # a tap on a screen already replaced: what it showed may be out of date
            self.notify(_("Not saved: that tap was on an old picture of the game; tap again on this one"))
            return False
        try:
            saved = await self.games.edit(self.game_id, self.saved, change)
        except (ValueError, RecordError, SaveFailed) as exc:
            # The rules refuse a tap in English Words (template and values): said in this phone's
            # language. Any other reason (a RecordError, SaveFailed) is shown as it is.
            reason = getattr(exc, 'message', None) or exc
            if exc.args and hasattr(exc.args[0], "template"):
                reason = lang.problem(exc.args[0])
            self.notify(_("Not saved: {reason}", reason=reason))
            return False
        except Exception as exc:  # the store failing (disk full, ...) must not lose the screen
            log.exception("save failed")
            self.notify(_("Not saved: {reason}", reason=exc))
            return False
        self.take(saved)
        self.tell_others()
        if preferences.settings_of(self.page, self.games).haptics and self.page.platform in (ft.PagePlatform.ANDROID, ft.PagePlatform.IOS):
            run_soon(self.page, self.buzz)
        return True

    async def buzz(self) -> None:
        """A light tick under the finger where the device has it (not in a desktop browser)."""
        try:
            if getattr(self, "_haptic", None) is None:
                self._haptic = ft.HapticFeedback()
            await asyncio.wait_for(self._haptic.light_impact(), timeout=2)
        except Exception as exc:
            log.debug("haptic feedback: %s", exc)

    def take(self, saved) -> None:
        if saved is self.saved:  # a guest's own tap's answer, taken already as the host's latest (#69)
            return
        # A guest's pad (#69) may have shown a later revision of the host's, heard while its own
        # tap's answer was on its way: that later one holds the tap too, and stays.
        if (self.games.following and saved.revision < self.saved.revision
                and saved.record.id == self.saved.record.id):
            return
        self.saved = saved
        self.result = score(saved.record)

    async def finish(self) -> bool:
        if not await self.save(lambda r: r.model_copy(update={"finished": now_iso()})):
            return False
        # A game just finished: a browser that would not keep the games for a site often does
        # for one it sees used (the phone by itself; elsewhere nothing to ask).
        run_soon(self.page, self.games.host.ask_to_keep)
        return True

    async def reopen(self) -> bool:
        return await self.save(lambda r: r.model_copy(update={"finished": None}))

    def tell_others(self) -> None:
        self.page.pubsub.send_others_on_topic(self.topic, self.saved.revision)

    async def on_other_session(self, topic: str, revision: int, saved=None) -> None:
        """Another phone saved `revision`; `saved`, when given, is that revision as stored (a table
        of phones' host has it in hand: no second read of its store, #69)."""
        theme.bind(self.page)  # PubSub runs this in the sender's context: draw in this phone's sizes
        if self.games.following and self.lock.locked() and saved is not None and saved.revision == revision:
            # This guest's own tap is on its way to the host and back (#69): what the host stored
            # meanwhile (another phone's tap) shows now, not after that round trip. The pad's
            # place (its cursor, an open editor) stays as the tap in flight left it.
            if revision > self.saved.revision:
                self.take(saved)
                self.send()
            return
        async with self.lock:
            if revision <= self.saved.revision:
                return
            try:
                if saved is None or saved.revision != revision:
                    saved = await self.games.load(self.game_id)
            except Exception as exc:  # deleted meanwhile: keep what is on screen
                log.info("reloading %s: %s", self.game_id, exc)
                return
            before = self.record
            self.take(saved)
            self.after_reload(before)
            # Only what the other phone's save changed (#69): at a table of phones every save of
            # any phone redraws every other pad, and a whole-view update made Flet diff the whole
            # pad (4 players of Panda Royale: 5 ms against 1 ms in CPython here; Pyodide on a
            # mid-range phone about 10 times that).
            self.send()

    def after_reload(self, before) -> None:
        """Another phone saved: the pad may move its cursor (default: stay)."""

    async def on_undo(self, e) -> None:
        await self._history(self.games.undo)

    async def on_redo(self, e) -> None:
        await self._history(self.games.redo)

    async def _history(self, step) -> None:
        async with self.lock:
            before = self.record
            try:
                saved = await step(self.game_id, self.saved)
            except Exception as exc:  # StaleSave included: reload and show what is stored now
                log.info("undo/redo refused: %s", exc)
                saved = await self.games.load(self.game_id)
                self.notify(_("Another phone changed this game; showing its latest state"))
            self.take(saved)
            self.tell_others()
            self.after_history(before)
            self.refresh_all()

    async def on_warnings(self, e) -> None:
        items = [ft.Text(_("Error: {problem}", problem=lang.problem(p)) if p.level == "error"
                         else _("Warning: {problem}", problem=lang.problem(p)), size=theme.BODY)
                 for p in self.result.problems]
        dialog = ft.AlertDialog(title=ft.Text(_("Warnings")),
                                content=ft.Column(items, tight=True, scroll=ft.ScrollMode.AUTO),
                                actions=[ft.TextButton(_("Close"), on_click=lambda e: self.page.pop_dialog())])
        self.page.show_dialog(dialog)
