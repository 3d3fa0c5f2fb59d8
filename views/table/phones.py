"""A table of phones with no laptop (#54): Invite a phone (the host's) and Join a table (a guest's).

Two codes pair two phones: the host's phone shows an invitation, the guest's camera reads it and
its phone shows an answer, the host's camera reads that (views/table/pairing.py). Then the guest's
phone shows the host's game (views/table/phone_table.py) on its own pad, at /table/<game id>.
Both screens exist only where the host has phones to link (the phone build: host.phones)."""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time

import flet as ft

from views import theme
from views.handover import receive
from views.table import pairing
from views.words import lang
from views.words.lang import N_, _
from views.table.phone_table import LinkFailed, TableGuest, TableHost
from views.handover.send import code_side, code_src

log = logging.getLogger(__name__)

# Room kept above the code for the line and the steps, so the code is whole on screen below them.
ABOVE_THE_CODE = 160
# A guest's answer shown: how long the host may take to read it before the reasons are said. A
# code carried by hand, or read after a fumble with the camera, takes minutes; the link holds for
# an answer read 2 minutes after it was made in Chromium and Firefox (#69), so 3 are given.
ANSWER_READ_WITHIN = 180


def camera_words(title: str) -> dict[str, str]:
    """What the camera's layer (assets/camera.js) says while it reads a table's code: Receive's
    words, with this screen's title and what it says of a code that is not a table's."""
    return {**receive.camera_words(), "title": title,
            "foreign": _("That is not a table's code: hold the camera up to the code on the other phone.")}


def no_camera(why: str) -> str:
    if why == "refused":
        return _("The camera was not allowed. Allow it for Pandapad in the browser's or the phone's settings: the "
                 "phones need it to find each other.")
    if why == "busy":
        return _("The camera is in use by another app. Close that app, then try again.")
    if why == "reader":
        return _("The code reader could not start. Try again.")
    if why == "nortc":  # a browser built without WebRTC (WebKitGTK here): it cannot link phones at all
        return _("This browser cannot link phones: it has no WebRTC. Open Pandapad in another browser, or let "
                 "another phone invite this game's players.")
    return _("No camera can be used here, and the phones find each other through their cameras.")


PHONE_KEY = "pandapad.phone"  # this phone's own id at a table (the host's keep_note)
SPARE_KEY = "pandapad.table.spare"  # the host's invitation kept for this phone's return (the host's keep_note)
SPARE_KEPT_FOR = 12 * 3600  # seconds: an evening's table, not last week's
_UNSET = object()


async def kept(host, key: str, value=_UNSET):
    """One key of what the phone keeps for good (the host's keep_note): read it, or write `value`
    (None removes it). A phone that keeps nothing (a private window, a storage full or gone, or
    one that does not answer within 5 s) raises: each caller says what it does without."""
    if value is _UNSET:
        return await asyncio.wait_for(host.kept_note(key), timeout=5)
    await asyncio.wait_for(host.keep_note(key, value), timeout=5)
    return value


async def this_phone(host) -> str:
    """This phone's id at a table of phones, made once and kept: the host knows it when it joins
    again. None kept (private window): a new one, as a new phone."""
    try:
        phone = await kept(host, PHONE_KEY)
        if isinstance(phone, str) and phone:
            return phone
        return await kept(host, PHONE_KEY, secrets.token_hex(8))
    except Exception as exc:  # noqa: BLE001 - a phone that keeps nothing joins as a new one
        log.info("this phone's id: %s", exc)
        return secrets.token_hex(8)


async def kept_spare(host) -> str | None:
    """The invitation the host's phone sent for this phone's return, kept on the phone (a browser
    killed while its screen was locked starts again without it in memory)."""
    try:
        spare = json.loads(await kept(host, SPARE_KEY) or "null")
        if isinstance(spare, dict) and isinstance(spare.get("code"), str) \
                and 0 <= time.time() - float(spare.get("at", 0)) < SPARE_KEPT_FOR:
            return spare["code"]
    except Exception as exc:  # noqa: BLE001 - none kept: the guest joins by two codes
        log.info("the kept invitation: %s", exc)
    return None


async def keep_spare(host, code: str | None) -> None:
    try:
        await kept(host, SPARE_KEY, None if code is None else json.dumps({"code": code, "at": time.time()}))
    except Exception as exc:  # noqa: BLE001 - kept in memory still, for as long as the page lives
        log.info("keeping the invitation: %s", exc)


NOT_LINKED = N_("The phones did not connect. Are both on the same Wi-Fi? A guest network often keeps phones "
                "apart, and the phone that shares its hotspot may not be reachable: then let another phone "
                "share it. Tap Try again for new codes.")


class PairingScreen:
    """What both screens share: a line of what is going on, a code, steps, big buttons."""

    title = ""

    def __init__(self, page: ft.Page, link, navigate):
        self.page, self.link, self.navigate = page, link, navigate
        self.closed = False
        bar = theme.titled_bar(_(self.title))
        self.side = code_side(page.width, page.height, (bar.toolbar_height or 64) + ABOVE_THE_CODE)
        self.status = ft.Text("", size=theme.LARGE, weight=ft.FontWeight.BOLD)
        self.note = ft.Text("", size=theme.BODY)
        self.after = ft.Text("", size=theme.BODY, visible=False)  # below the code: what to do if it fails
        self.code = ft.Image(src=code_src(pairing.PREFIX), width=self.side, height=self.side, visible=False,
                             fit=ft.BoxFit.CONTAIN, filter_quality=ft.FilterQuality.NONE, gapless_playback=True,
                             semantics_label=_("A code for the other phone's camera"))
        self.buttons = ft.Column([], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.view = ft.View(route=self.route(), appbar=bar, padding=ft.Padding.all(16), scroll=ft.ScrollMode.AUTO,
                            controls=[ft.Column([self.status, self.note, ft.Row([self.code],
                                                                               alignment=ft.MainAxisAlignment.CENTER),
                                                 self.after, self.buttons], spacing=16)])

    def route(self) -> str:
        raise NotImplementedError

    def resized(self, width, height) -> None:
        """The phone turned (or its address bar hid): the code as big as it fits again."""
        side = code_side(width, height, (self.view.appbar.toolbar_height or 64) + ABOVE_THE_CODE)
        if side != self.side and not self.closed:
            self.side = self.code.width = self.code.height = side
            self.page.update(self.code)

    def say(self, status: str, note: str = "", code: str | None = None, buttons=(), error: bool = False,
            after: str = "") -> None:
        if self.closed:
            return
        self.status.value = status
        self.status.color = ft.Colors.ERROR if error else None
        self.note.value = note
        self.after.value, self.after.visible = after, bool(after)
        if code is not None:
            self.code.src = code_src(code)
        self.code.visible = code is not None
        # As tall as their words: a fixed height cut a label's second line (Japanese, extra large, 360 px)
        self.buttons.controls = [ft.FilledButton(text, icon=icon, on_click=act, style=theme.wraps())
                                 for text, icon, act in buttons]
        self.page.update(self.view)

    async def read(self, title: str, prefix: str | list[str]) -> str | None:
        """One code read by the camera, that starts with `prefix` (or one of them): its text, or
        None (cancelled, or the camera could not be used: said on screen)."""
        try:
            said = await self.link.ask("read", prefix=prefix, said=camera_words(title))
        except LinkFailed as exc:
            self.say(no_camera(str(exc)), error=True, buttons=self.again())
            return None
        return said.get("text")

    def again(self):
        return [(_("Try again"), ft.Icons.REFRESH, lambda e: self.page.run_task(self.begin))]

    async def begin(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.closed = True


class InvitePhoneScreen(PairingScreen):
    """The host's phone: a guest's phone joins this game."""

    title = N_("Invite a phone")

    def __init__(self, page: ft.Page, link, navigate, table: TableHost):
        self.table = table
        super().__init__(page, link, navigate)
        self.guest = None
        self.page.run_task(self.begin)

    def route(self) -> str:
        return f"/invite-phone/{self.table.game_id}"

    def back(self):
        return (_("Back to the game"), ft.Icons.ARROW_BACK, lambda e: self.navigate(f"/game/{self.table.game_id}"))

    def read_answer(self):
        return (_("Read the guest's code"), ft.Icons.QR_CODE_SCANNER, lambda e: self.page.run_task(self.answer))

    async def begin(self) -> None:
        if self.guest is not None and self.guest.state == "invited":
            self.table.forget(self.guest)  # this screen's last invitation, never answered
        self.say(_("Getting the invitation ready\u2026"))
        try:
            self.guest, code = await self.table.invite()
        except pairing.Refused as exc:
            self.say(lang.problem(exc.words), error=True, buttons=[*self.again(), self.back()])
            return
        except LinkFailed as exc:
            self.say(no_camera(str(exc)), error=True, buttons=[*self.again(), self.back()])
            return
        self.say(_("Step 1: the guest reads this code"),
                 _("On the guest's phone, open Pandapad, tap Join a table and hold it up to this code. Then tap "
                   "Read the guest's code here."), code=code, buttons=[self.read_answer(), self.back()])

    async def answer(self) -> None:
        text = await self.read(_("Read the guest's code"), f"{pairing.PREFIX}{pairing.FORMAT}/{pairing.ANSWER}/")
        if text is None or self.closed:
            return
        try:  # the answer to this screen's invitation, or to one kept for a guest's return
            guest = await self.table.accept(text)
        except pairing.Refused as exc:
            self.say(lang.problem(exc.words), error=True, buttons=[self.read_answer(), *self.again()])
            return
        except (pairing.NotATableCode, LinkFailed) as exc:
            log.info("accepting a guest: %s", exc)
            self.say(_(NOT_LINKED), error=True, buttons=[*self.again(), self.back()])
            return
        self.say(_("Connecting\u2026"))
        here = await self.table.joined(guest)
        if self.closed:
            return
        if here:
            self.say(_("Phone {n} is at the table.", n=guest.number),
                     _("It shows this game and enters its own taps. Invite the next phone the same way."),
                     buttons=[(_("Invite another phone"), ft.Icons.PERSON_ADD, lambda e: self.page.run_task(self.begin)),
                              self.back()])
        else:
            self.say(_(NOT_LINKED), error=True, buttons=[*self.again(), self.back()])


class JoinTableScreen(PairingScreen):
    """A guest's phone: the host's invitation read, its answer shown, then the host's game."""

    title = N_("Join a table")

    def __init__(self, page: ft.Page, host, navigate, joined, spare: str | None = None, kept: bool = True):
        super().__init__(page, host.phones, navigate)
        self.host = host         # keeps this phone's id and the invitation for joining again
        self.joined = joined     # joined(guest): the shell keeps the guest and opens its game
        self.guest: TableGuest | None = None
        # The host's invitation kept for this phone's return (phone_table.py, "A phone that
        # sleeps"): the one just lost, or (kept) the one the phone keeps, once; then codes are read.
        self.spare, self.kept = spare, kept
        self.page.run_task(self.begin)

    def route(self) -> str:
        return "/join"

    def read_button(self, forget: bool = False):
        return (_("Read the host's code"), ft.Icons.QR_CODE_SCANNER, lambda e: self.page.run_task(self.scan, forget))

    async def begin(self) -> None:
        if self.guest is not None:
            self.guest.leave()
        spare = self.spare or (await kept_spare(self.host) if self.kept else None)
        self.spare, self.kept = None, False
        if spare is not None:
            await self.join(spare, again=True)
            return
        self.say(_("Read the host's code"), _("On the host's phone, open the game and choose Invite a phone in its "
                                             "menu. Then hold this phone up to the code it shows."),
                 buttons=[self.read_button()])
        await self.scan()

    async def scan(self, forget: bool = False) -> None:
        if forget:  # the invitation kept for joining again did not do: a new one is read
            await keep_spare(self.host, None)
        text = await self.read(_("Join a table"), [f"{pairing.PREFIX}{f}/{pairing.INVITATION}/" for f in pairing.READS])
        if text is None or self.closed:
            return
        await self.join(text)

    async def join(self, text: str, again: bool = False) -> None:
        """The host's invitation (read, or kept for joining again): this phone's answer shown until
        the host's phone has read it and the link is open."""
        if self.guest is not None and self.guest.state == "joining":
            self.guest.leave()  # a reading before this one that did not link: its half-made link goes
        guest = self.guest = TableGuest(self.link, await this_phone(self.host))
        try:
            code = await guest.join(text)
        except pairing.Refused as exc:
            self.say(lang.problem(exc.words), error=True, buttons=[self.read_button(forget=again)])
            return
        except (pairing.NotATableCode, LinkFailed) as exc:
            log.info("joining: %s", exc)
            self.say(_(NOT_LINKED), error=True, buttons=self.again())
            return
        if again:
            # The code right under one line of steps, whole on a small phone (360 x 740); what to do
            # if the host's phone refuses it below, with its button.
            self.say(_("Joining again: the host reads this code"),
                     _("On the host's phone: Invite a phone, then Read the guest's code."), code=code,
                     after=_("If the host's phone says this code answers another invitation, read the host's code "
                             "instead."), buttons=[self.read_button(forget=True)])
        else:
            self.say(_("Step 2: the host reads this code"),
                     _("Hold this phone up to the host's phone: it reads this code with its camera."), code=code)
        for _tick in range(ANSWER_READ_WITHIN * 10):
            if self.closed or guest is not self.guest:
                return
            if guest.state == "here" and guest.saved is not None:
                self.joined(guest)
                return
            if guest.state in ("dropped", "ended"):
                break
            await asyncio.sleep(0.1)
        if again:
            await keep_spare(self.host, None)  # not read, or the host's phone no longer holds it: two codes next time
        self.say(_(NOT_LINKED), error=True, buttons=self.again())

    def close(self) -> None:
        super().close()
        if self.guest is not None and self.guest.state == "joining":
            self.guest.leave()  # left before the link opened: nothing half made stays
