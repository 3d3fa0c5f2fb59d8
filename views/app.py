"""The app shell, the same in every host (views/hosts/host.py): routes (so the browser's back button and the phone's back gesture
work), and the three screens: home, new game, a game's score pad."""
from __future__ import annotations

import asyncio
import logging
import urllib.parse

import flet as ft

from views import theme
from views.screens import home
from views.table import invite
from views.device import preferences
from views.words.lang import _
from views.device.session import run_soon
from views.table.big_screen import BigScreen
from views.screens.data import DataScreen
from views.screens.finished import FinishedScreen
from views.screens.history import HistoryScreen
from views.hosts.host import Host
from views.screens.statistics import PlayerScreen, StatisticsScreen
from views.handover.send import SendScreen
from views.screens.settings import SettingsScreen
from views.games import Games, new_record
from views.screens.new_game import NewGame
from views.pads.registry import GAME_ORDER, PADS
from views.handover.receive import ReceiveScreen
from views.table.phone_table import TableGames, TableHost
from views.table.phones import InvitePhoneScreen, JoinTableScreen, keep_spare
from views.table.roles import GUEST, HOST_WHO, Who, may_open_finished, refusal, route_action
from views.table.table import TOKEN_KEY, Access

log = logging.getLogger(__name__)

# Screens to look at, with nothing typed or tapped on arrival: drawn before the address
# moves (History's first screen, #12). Not the new-game screen: its name field takes typing
# at once, and the address change that follows may cost a name typed in between.
DRAWN_AHEAD = ("/history", "/stats/", "/player/", "/settings", "/data")

# Asking a phone for the token it kept: TOKEN_TRIES questions of TOKEN_WAIT seconds each.
TOKEN_TRIES = 4
TOKEN_WAIT = 1.0


def app_main(store, host: Host):
    """Flet's main for one store in one host (views/hosts/server.py, views/hosts/standalone.py): every
    session gets the shell."""
    notices = list(store.notices)
    games = Games(store, host)
    theme.set_text_size(games.settings.text_size)

    async def main(page: ft.Page) -> None:
        await Shell(page, games, notices, host.access, host).start()

    return main


REPAIRS_TOLD: list[bool] = []


def repairs_dialog(page: ft.Page, notices: list[str]) -> ft.AlertDialog:
    """What the store repaired when it opened, said once, in a player's words first."""
    return ft.AlertDialog(
        title=ft.Text(_("Pandapad repaired its files"), size=theme.LARGE, weight=ft.FontWeight.BOLD),
        content=ft.Column([
            ft.Text(_("When it started, the app found something left unfinished or damaged (a phone "
                      "switched off mid-save, an import cut short, a full disk) and set it right from its "
                      "own files and backups; the home screen lists the games that were kept. A damaged "
                      "file is kept aside, never deleted."),
                    size=theme.BODY),
            ft.Text(_("What was done:"), size=theme.BODY, weight=ft.FontWeight.BOLD),
            *[ft.Text(f"• {n}", size=theme.SMALL) for n in notices],
            # TRANSLATORS: "Your data" is the name of a screen (the home's folder button)
            ft.Text(_("Your data (on the home screen) shows this again."), size=theme.SMALL, color=theme.NOTE),
        ], tight=True, scroll=ft.ScrollMode.AUTO, spacing=8),
        actions=[ft.FilledButton(_("OK"), on_click=lambda e: page.pop_dialog())])


class Shell:
    """One browser session: builds page.views from the route."""

    def __init__(self, page: ft.Page, games: Games, notices: list[str], access: Access | None = None,
                 host: Host | None = None):
        self.host = host or games.host
        self.page = page
        self.games = games
        self.notices = notices
        self.access = access or Access(None)
        self.admitted = self.access.open
        # The host (the host link, or everyone without --lan) or a guest (the table link), #24.
        self.who = Who(HOST_WHO.role if self.access.open else GUEST, games)
        self.screen = None  # the game screen on show, if any
        self.wakelock = None
        self.awake: bool | None = False  # the screen held on? (a page opens without; None: unknown)
        self.home: home.Home | None = None  # the home this session drew, kept under other screens
        self.drawn = ""  # the route on show
        self.ahead: list[str] = []  # drawn before the browser's address followed them
        self.left_new: str | None = None  # the new-game address a game was just started from
        self.link = None  # what keeps this phone's link (the server's pulse), if the host has one
        self.new_game: NewGame | None = None  # the new-game form on show, if any
        # A table of phones with no laptop (#54): this phone's as the host, or the host's it follows.
        self.table_host: TableHost | None = None
        self.table_guest = None
        self.table_note: ft.SnackBar | None = None  # a guest's note that its table dropped (offer_to_keep)
        # One screen drawn at a time, in the order asked. Each draw awaits the store (a thread
        # on the server, IndexedDB on a phone): Back then Your data tapped at once drew the
        # data screen first, and the home's slower draw then replaced it.
        self.drawing = asyncio.Lock()

    async def start(self) -> None:
        page = self.page
        page.title = "Pandapad"
        theme.apply(page, self.games.settings.theme)
        # Every phone gets the pulse, the locked page too: without it the phone would take a
        # quiet page for a lost link.
        self.link = self.host.link(page)
        if self.link is not None:
            self.link.start()
            preferences.has_banner(page)  # the link's banner speaks the phone's language too
        page.on_connect = self.on_connect
        page.on_disconnect = self.on_disconnect
        # The language is every phone's own, the host's too, the locked page's too (#33): read
        # while the token is checked.
        language = asyncio.ensure_future(preferences.load_language(page, self.host.phone_languages(page),
                                                             late=self.redraw_if_admitted))
        if not self.admitted:
            self.admitted = await self.check_token()
        await language
        if not self.admitted:
            self.show_locked()
            return
        if self.who.role == GUEST:  # a guest's theme and text size are its own phone's
            await preferences.load(page, self.games)
            theme.apply(page, preferences.settings_of(page, self.games).theme)
        page.on_route_change = self.on_route_change
        page.on_view_pop = self.on_view_pop
        page.on_resize = self.on_resize
        await self.show(page.route or "/")
        # The phone's storage taken away under the app: said at once, on whatever is on screen.
        self.host.on_lost(lambda: page.run_task(self.storage_lost))
        if self.notices and not REPAIRS_TOLD and self.who.host:  # the host's files: not a guest's business
            REPAIRS_TOLD.append(True)  # once per start of the server, to the first phone let in
            page.show_dialog(repairs_dialog(page, self.notices))

    async def storage_lost(self) -> None:
        from views.screens.lost import LostBanner
        LostBanner(self.page, self.games).show()

    async def check_token(self) -> bool:
        """The first page load's ?token=, else the one this phone kept from an earlier visit
        (a reload, the phone waking up); a good one is kept for next time."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.page.route or "").query)
        presented = query.get("token", [None])[0]
        if presented is None:
            presented = await self.kept_token()
        role = self.access.role(presented if isinstance(presented, str) else None)
        if role is None:
            return False
        self.who = Who(role, self.games)
        try:
            await asyncio.wait_for(ft.SharedPreferences().set(TOKEN_KEY, presented), timeout=5)
        except Exception as exc:
            log.info("keeping the token: %s", exc)
        return True

    async def kept_token(self) -> str | None:
        """The token this phone kept: a phone coming back to a restarted server sometimes never
        answered the first question, and the page stayed blank for the whole 5 s wait (2
        restarts in 12), so it is asked TOKEN_TRIES times for TOKEN_WAIT s (preferences.kept)."""
        return await preferences.kept(self.page, TOKEN_KEY, TOKEN_TRIES, TOKEN_WAIT)

    def show_locked(self) -> None:
        """All a session without the token sees: no game, no name, no history."""
        self.page.views.clear()
        self.page.views.append(ft.View(route="/", padding=ft.Padding.all(24), controls=[ft.Column([
            ft.Icon(ft.Icons.LOCK_OUTLINE, size=64),
            ft.Text(_("This table is private"), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            ft.Text(_("Ask the host for the link: scan the QR code on the host's screen, or open the "
                      "address the host gives you, with its token."), size=theme.BODY,
                    text_align=ft.TextAlign.CENTER),
        ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=16)],
            vertical_alignment=ft.MainAxisAlignment.CENTER))
        self.page.update()

    def navigate(self, route: str) -> None:
        if route.startswith(DRAWN_AHEAD) and route != self.drawn:
            self.page.run_task(self._ahead, route)
        else:
            # The address first; the screen follows from the route change, as it does for a
            # link or the back gesture.
            self.page.navigate(route)

    async def _ahead(self, route: str) -> None:
        # A screen to look at: drawn first, then the address follows; its route change, when
        # it comes back, finds it on show. A tap costs one trip to the phone, not two.
        self.ahead.append(route)
        await self.show(route)
        await self.page.push_route(route)

    async def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        async with self.drawing:  # after the draw before it: its `drawn` is what this compares
            await self._route_changed(e)

    async def _route_changed(self, e: ft.RouteChangeEvent) -> None:
        if self.drawn.startswith("/game/") and e.route.split("?")[0] == self.left_new:
            # Back from a game just started: the empty new-game form it came from would only
            # invite starting the same game twice. The home, where the game is listed, instead.
            self.left_new = None
            await self.page.push_route("/")
            return
        if e.route in self.ahead:  # already on show (a quick second tap may be too: keep it)
            del self.ahead[:self.ahead.index(e.route) + 1]
            return
        self.ahead.clear()
        if (e.route.split("?")[0].rstrip("/") or "/") == self.drawn:
            # The address caught up with the screen on show (a reload of "/?token=…" as "/":
            # the reconnect drew it already). Drawing it again replaced every control under a
            # test's finger (#32's flake list) and cost the phone a second build.
            return
        await self._draw(e.route)

    async def on_connect(self, e) -> None:
        """The phone is back after a dropped link (Flet re-attached this session): what it
        shows missed every change sent meanwhile, so the screen is built again from the store.
        A pad keeps the phone's own place in it (whose hand, which round)."""
        if self.link is not None:
            self.link.start()
        self.awake = None  # a reload let the screen go; a dropped link may not have
        if self.admitted:
            # Not awaited here: Flet runs this inside its receive loop, which must go on
            # reading (drawing the screen waits for answers from the phone that come through it).
            asyncio.create_task(self.redraw())

    async def redraw_if_admitted(self) -> None:
        """The screen again, in the language the phone told late (the locked page stays)."""
        if self.admitted:
            await self.redraw()

    async def redraw(self) -> None:
        # The page's route, not the one last drawn: a reload of another address comes back to
        # the same session (Flet then sends a route change too, which draws the same). The home
        # let go inside the lock: a draw awaiting the store found it gone ('NoneType' has no show).
        async with self.drawing:
            self.home = None
            await self._draw(self.page.route or self.drawn or "/")

    async def restyle(self) -> None:
        """This phone's text size changed (Settings): the home beneath the screen on show is built
        again at the new size now, so Back shows it so (it was kept at the old one until a reload)."""
        async with self.drawing:
            views = self.page.views
            if self.home is None or self.home.look == home.look() or not views or views[0] is not self.home.view:
                return
            self.home = home.Home(self.navigate, self.who, self.host.table, phones=self.host.phones is not None)
            await self.fill_home()
            views[0] = self.home.view
            self.page.update()

    async def on_disconnect(self, e) -> None:
        """The phone's link is gone. Flet would send the whole page back on reconnect and the
        phone rebuilds it all, which took 3.4 s of the phone's time here; so the page is left
        empty until then, and on_connect draws it as on a first visit (~0.1 s)."""
        if self.link is not None:
            self.link.stop()
        if not self.admitted:
            return
        if self.screen is not None:
            self.screen.close()  # no more updates to a phone that is not there
        self.page.views.clear()
        self.page.views.append(ft.View(route=self.drawn or "/"))

    def on_resize(self, e) -> None:
        if self.screen is not None and not getattr(self.screen, "closed", False):
            self.screen.resized(e.width, e.height)

    async def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        # The phone's back gesture / the app bar's back arrow: go to the view below.
        views = self.page.views
        if len(views) > 1:
            await self.page.push_route(views[-2].route)

    async def show(self, route: str) -> None:
        """Rebuild the view stack for a route: home at the bottom, the route's screen on top."""
        async with self.drawing:
            await self._draw(route)

    async def _draw(self, route: str) -> None:
        route = route.split("?")[0].rstrip("/") or "/"
        parts = route.strip("/").split("/")
        action = route_action(route)
        if action is not None and not self.who.may(action):  # a guest typing a host-only address
            self.refuse(action)
            route, parts = "/", [""]
        views = self.page.views
        if self.home is not None and self.home.look != home.look():  # the host's text size changed meanwhile
            self.home = None
        below = self.home is not None and bool(views) and views[0] is self.home.view  # on the phone now
        refilled = False
        if route != "/" and below:
            stack = [views[0]]  # the home below stays as drawn: only the new screen is sent
        else:
            # Not Flet's own first view (route "/" too, but empty): a link straight to a game
            # in a fresh session gets the home under it, for the back arrow. Back to the home
            # it had: the same controls, filled again (home.Home says why).
            if not below:
                self.home = home.Home(self.navigate, self.who, self.host.table, phones=self.host.phones is not None)
            await self.fill_home()
            refilled = below
            stack = [self.home.view]
        screen = None
        if len(parts) == 2 and parts[0] == "new" and parts[1] in PADS:
            pad = PADS[parts[1]]
            known = await self.games.known_players()
            old = self.new_game if self.new_game is not None and self.new_game.game == parts[1] else None
            # Drawn again after a dropped link: the names seated and the choices made stay.
            settings = old.settings if old else await pad.default_settings(self.games)
            self.new_game = NewGame(parts[1], known, settings, pad.settings_form(settings), self.start_game)
            if old:
                self.new_game.seated = old.seated
                self.new_game.fill()
            stack.append(self.new_game.view)
        elif len(parts) == 2 and parts[0] in ("game", "big"):
            screen = await self.game_screen(parts[1], big=parts[0] == "big")
            if screen is not None and type(screen) is type(self.screen) and hasattr(screen, "carry_over") \
                    and self.screen.game_id == parts[1]:
                screen.carry_over(self.screen)  # the same game drawn again: this phone's place in it
            elif screen is not None and hasattr(screen, "take_place"):  # opening the app: the place it was left at
                screen.take_place(self.host.kept_place(parts[1], screen.saved.revision))
            if screen is not None:
                stack.append(screen.view)
            self.host.showing(screen.place if screen is not None and hasattr(screen, "place") else None)
        elif route == "/invite" and self.host.table:
            stack.append(invite.build(self.host.invite))
        elif route == "/settings":
            stack.append(SettingsScreen(self.page, self.games, self.who, self.redraw, self.restyle).view)
        elif len(parts) == 2 and parts[0] == "stats" and parts[1] in GAME_ORDER:
            stack.append(StatisticsScreen(self.page, await self.games.rows(), parts[1], self.navigate).view)
        elif len(parts) == 2 and parts[0] == "player":
            stack.append(PlayerScreen(self.page, self.games, await self.games.rows(), urllib.parse.unquote(parts[1]),
                                      self.navigate, self.who).view)
        elif route == "/history":
            rows = await self.games.rows()
            stack.append(HistoryScreen(self.page, rows, self.navigate).view)
        elif route == "/data":
            stack.append(DataScreen(self.page, self.games, self.notices, self.who).view)
        elif len(parts) == 2 and parts[0] == "send":
            screen = await self.send_screen(parts[1].split(","))
            if screen is not None:
                stack.append(screen.view)
        elif route == "/receive":
            screen = ReceiveScreen(self.page, self.games, self.navigate, self.who)
            stack.append(screen.view)
        elif len(parts) == 2 and parts[0] == "invite-phone" and self.host.phones is not None:
            screen = await self.invite_phone_screen(parts[1])
            if screen is not None:
                stack.append(screen.view)
        elif route == "/join" and self.host.phones is not None:
            # A guest whose link dropped joins again by the invitation the host kept for it (one
            # code read); one still at a table reads a new invitation (two).
            guest = self.table_guest
            linked = guest is not None and guest.state == "here"
            if self.table_note is not None:
                # The drop's note, done with: over the code, it hid half of it from the host's camera.
                note, self.table_note = self.table_note, None
                note.open = False
                note.update()  # as Flet's pop_dialog closes one
            screen = JoinTableScreen(self.page, self.host, self.navigate, self.joined_table,
                                     spare=None if linked or guest is None else guest.spare, kept=not linked)
            stack.append(screen.view)
        elif len(parts) == 2 and parts[0] == "table" and self.table_guest is not None \
                and self.table_guest.saved is not None and self.table_guest.saved.record.id == parts[1]:
            saved = self.table_guest.saved
            pad = PADS.get(saved.record.game)
            screen = pad(self.page, TableGames(self.games, self.table_guest), saved) if pad else None
            if screen is not None:
                stack.append(screen.view)
        elif route != "/":
            self.page.show_dialog(ft.SnackBar(ft.Text(_("Nothing at {route}; here is the home screen.", route=route))))
        if not route.startswith("/new/"):
            self.new_game = None
        if self.screen is not None and self.screen is not screen:
            self.screen.close()
        self.screen = screen
        self.drawn = route
        self.page.views.clear()
        self.page.views.extend(stack)
        self.page.update()
        if refilled:
            self.page.update(self.home.view)  # isolated: the update of the page stopped at it
        # A code shown to another phone's camera, or this phone's camera reading a loop of them,
        # keeps the screen on whatever the setting (#53): a locked phone would stop the reading.
        self.keep_awake(isinstance(screen, (SendScreen, ReceiveScreen, InvitePhoneScreen, JoinTableScreen)) or (
            screen is not None and preferences.settings_of(self.page, self.games).keep_awake))

    async def fill_home(self) -> None:
        try:
            in_progress = await self.games.in_progress()
            recent = await self.games.recent(20)
        except Exception:  # a broken store must not leave a blank page
            log.exception("reading the store for the home screen")
            in_progress, recent = [], []
        if not self.who.may("history"):  # a guest: the games finished at this table tonight only
            recent = [s for s in recent if s.id in self.games.tonight]
        guest = self.table_guest
        if self.home.join is not None:
            # A link gone quiet is said to be dropped (table_changed): Join a table brings it back.
            self.home.follow(guest.saved.record.id if guest is not None and guest.saved is not None
                             and guest.state == "here" else None)
        self.home.show(in_progress, recent)

    async def openable(self, game_id: str):
        """The stored game, where this phone may open it; else None, and the phone told why."""
        try:
            saved = await self.games.load(game_id)
        except Exception as exc:
            log.info("cannot open game %s: %s", game_id, exc)
            self.page.show_dialog(ft.SnackBar(ft.Text(_("That game is not stored here."), size=theme.BODY)))
            return None
        if saved.record.finished and not may_open_finished(self.who.role, game_id, self.games.tonight,
                                                           self.who.guests_see_history):
            self.refuse("history")  # a finished game of another evening
            return None
        return saved

    async def game_screen(self, game_id: str, big: bool = False):
        saved = await self.openable(game_id)
        if saved is None:
            return None
        pad = PADS.get(saved.record.game)
        if saved.record.finished and not big:  # read-only (any game); Edit reopens it on purpose
            return FinishedScreen(self.page, self.games, saved, pad, self.navigate, self.who)
        if pad is None:
            self.page.show_dialog(ft.SnackBar(ft.Text(_("The score pad of this game is coming soon."))))
            return None
        if big:
            return BigScreen(self.page, self.games, saved, pad)
        return pad(self.page, self.games, saved)

    async def send_screen(self, game_ids: list[str]):
        """The codes of these games for another phone's camera (#53): games this phone may open."""
        saved = []
        for game_id in dict.fromkeys(game_ids):
            one = await self.openable(game_id)
            if one is None:
                return None
            saved.append(one)
        return SendScreen(self.page, self.games, saved, self.navigate) if saved else None

    async def invite_phone_screen(self, game_id: str):
        """The host's phone invites a guest's phone to this game (#54): one table, of one game."""
        if await self.openable(game_id) is None:
            return None
        if self.table_host is None or self.table_host.game_id != game_id:
            if self.table_host is not None:
                self.table_host.end()
            table = self.table_host = TableHost(self.games, self.host.phones, game_id)
            table.tell_pad = lambda saved: self.reload_pad(game_id, saved.revision, saved)
            table.told = lambda: self.redraw_pad(game_id)
        return InvitePhoneScreen(self.page, self.host.phones, self.navigate, self.table_host)

    def joined_table(self, guest) -> None:
        """A guest's phone is at the host's table: its pad follows the host's game."""
        if self.table_guest is not None and self.table_guest is not guest:
            self.table_guest.leave()
        self.table_guest = guest
        guest.heard_game = lambda saved: self.heard_table_game(guest, saved)
        guest.changed = lambda: self.page.run_task(self.table_changed, guest)
        guest.kept_spare = lambda code: self.page.run_task(keep_spare, self.host, code)
        self.navigate(f"/table/{guest.saved.record.id}")

    def heard_table_game(self, guest, saved) -> None:
        finished_now = saved.record.finished and not guest.told_finished
        guest.told_finished = bool(saved.record.finished)
        self.reload_pad(saved.record.id, saved.revision, saved)
        if finished_now:
            self.offer_to_keep(guest, _("The game is finished. Keep it on this phone too?"))

    def reload_pad(self, game_id: str, revision: int, saved=None) -> None:
        """Another phone of a table of phones changed the game (#54): the pad on show takes it
        (`saved`, that revision as stored), as it takes another phone's save at a --lan table
        (Flet's PubSub has no loop in the phone's worker, and one session: the pad is told directly)."""
        screen = self.screen
        if screen is not None and getattr(screen, "game_id", None) == game_id and hasattr(screen, "on_other_session"):
            self.page.run_task(screen.on_other_session, f"game:{game_id}", revision, saved)

    def redraw_pad(self, game_id: str) -> None:
        """Who is linked changed (#54): the pad on show says so."""
        screen = self.screen
        if screen is not None and getattr(screen, "game_id", None) == game_id and hasattr(screen, "fill_frame"):
            screen.send(lambda ch: None)

    async def table_changed(self, guest) -> None:
        if guest is not self.table_guest:
            return
        if guest.saved is not None:
            self.redraw_pad(guest.saved.record.id)
        if guest.state == "here":
            guest.told_down = False  # back: a later drop is said again
        if guest.state not in ("dropped", "ended", "quiet") or guest.told_down:
            return
        guest.told_down = True  # once: a link that drops, then closes, is one event to the player
        if guest.state == "ended":
            text = _("The host ended the table. This phone still shows the game as it was last seen.")
        elif guest.spare is not None:  # one code brings it back (views/table/phone_table.py, "A phone that sleeps")
            text = _("The link to the host's phone dropped, or the host's phone left: nothing more is saved from "
                     "here. To go on, tap Join a table on the home: the host's phone then reads one code from this "
                     "phone.")
        else:
            text = _("The link to the host's phone dropped, or the host's phone left: nothing more is saved from "
                     "here. To go on, tap Join a table on the home and read the host's code again.")
        self.offer_to_keep(guest, text)

    def offer_to_keep(self, guest, text: str) -> None:
        """Say what happened to the table, with Keep this game: the game as last seen, written into
        this phone's own store (a guest keeps nothing of the host's until it chooses to)."""
        self.table_note = ft.SnackBar(
            ft.Text(text, size=theme.BODY), duration=ft.Duration(seconds=30), show_close_icon=True,
            action=_("Keep this game"), on_action=lambda e: self.page.run_task(self.keep_table_game, guest),
            on_dismiss=lambda e: setattr(self, "table_note", None))
        self.page.show_dialog(self.table_note)

    async def keep_table_game(self, guest) -> None:
        saved = guest.saved
        try:
            await self.games.run(self.games.store.import_data, saved.record.model_dump(mode="json", exclude_none=True))
        except Exception as exc:  # noqa: BLE001 - said in words; the table's copy is still on screen
            log.exception("keeping the table's game")
            self.page.show_dialog(ft.SnackBar(ft.Text(_("Not saved: {reason}", reason=exc), size=theme.BODY)))
            return
        # Where the home lists it: a game the host ended before it was finished is played on here.
        where = (_("Kept on this phone: the game is in its History.") if saved.record.finished
                 # TRANSLATORS: "In progress" is the home screen's heading of the games being played
                 else _("Kept on this phone: the game is under In progress."))
        self.page.show_dialog(ft.SnackBar(ft.Text(where, size=theme.BODY)))

    def refuse(self, action: str) -> None:
        self.page.show_dialog(ft.SnackBar(ft.Text(
            # TRANSLATORS: a refusal ("Only the host can browse the history"), then the home is shown
            _("{refusal}; here is the home screen.", refusal=refusal(action)), size=theme.BODY)))

    async def start_game(self, game: str, names: list[str], settings: dict) -> None:
        saved = await self.games.create(new_record(game, names, settings))
        self.left_new = f"/new/{game}"
        await self.page.push_route(f"/game/{saved.record.id}")

    def keep_awake(self, on: bool) -> None:
        """Keep the screen on during a game where the platform allows it (not every browser does)."""
        if on == self.awake:  # as it is: no message (every screen change sent one, #34)
            return
        self.awake = on
        if self.wakelock is None:
            self.wakelock = ft.Wakelock()
        run_soon(self.page, self._wakelock, on)

    async def _wakelock(self, on: bool) -> None:
        try:
            await asyncio.wait_for(self.wakelock.enable() if on else self.wakelock.disable(), timeout=5)
        except Exception as exc:  # unsupported platform or browser: the game goes on
            log.info("wakelock %s: %s", "on" if on else "off", exc)
