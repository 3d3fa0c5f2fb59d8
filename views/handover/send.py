"""Send to another phone (#53): one game, or a night's games, as a QR code another phone's camera
reads (its Receive from another phone); a record too big for one readable code is a loop of
frames, about four a second. The frames are storage/handoff.py's; this screen only shows them."""
from __future__ import annotations

import asyncio
import logging

import flet as ft

from views import theme
from views.handover import qr
from views.words import lang
from views.games import now_iso
from views.screens.history_state import header
from views.screens.home import when
from views.words.lang import _, n_
from views.pads.registry import title_of

log = logging.getLogger(__name__)

TICK = 0.25  # seconds a frame shows: about four a second, what a phone's scanner keeps up with
# The longest loop offered: ten seconds a round. A code missed is seen again a round later, so a
# longer loop is slow to read (and its pictures slow to make): fewer games at a time, or a file.
MOST_CODES = 40
MARGIN = 16  # the view's padding on each side of the code
LARGEST = 480  # px: a code larger than this is no easier to read, and pushes the words off screen
QUIET = 4  # modules of white around the code, as ISO/IEC 18004 asks


def frames(saved: list, exported: str | None = None) -> list[str]:
    """The frames' texts of these games, as the store holds their records. Stamped with the
    games' own last moment, not the clock: the same games always give the same codes, so a
    screen drawn again (a reconnect, Send opened twice) does not change the codes under a
    camera halfway through reading them (their checksum is the sending's identity)."""
    from storage.handoff import frames_of  # here: the phone build imports it only when a game is sent
    records = [s.record for s in saved]
    stamp = max((r.finished or r.created or "" for r in records), default="") or "1970-01-01T00:00:00Z"
    return frames_of([r.model_dump(mode="json") for r in records], exported or stamp)


def code_png(text: str, scale: int = 8) -> bytes:
    """One frame as a QR code at level M (segno picks the alphanumeric mode the frame is written
    in), scaled so a phone's screen shows it about pixel for pixel, never blurred."""
    return qr.code_png(text, error="m", scale=scale, border=QUIET)


def code_src(text: str) -> str:
    """That code as the screen's Image is given it: base64 text, painted by every browser (views/handover/qr.py)."""
    return qr.code_src(text, error="m", scale=8, border=QUIET)


def code_side(width: float | None, height: float | None, bar: float) -> int:
    """The code's side: the screen's width less the margins, at most LARGEST, and whole on screen
    below the app bar (a phone on its side)."""
    width, height = width or 412, height or 915
    return int(max(160, min(width - 2 * MARGIN, height - bar - 2 * MARGIN, LARGEST)))


def frame_caption(k: int, n: int) -> str:
    # TRANSLATORS: under a QR code that is one of a loop of codes shown in turn ("Code 2 of 5")
    return _("Code {k} of {n}", k=k, n=n)


def game_line(record) -> str:
    """'Pandoria, 24 Nov 19:04': the game and when it started, as a history row says it."""
    # TRANSLATORS: a history row's title: the game and when it started ("Pandoria, 24 Nov 14:05")
    return _("{game}, {when}", game=title_of(record.game), when=when(record.created or record.finished))


def players_line(record) -> str:
    """'Ann, Ben and Cat'."""
    return lang.names([p.name for p in record.players])


def what_to_do() -> str:
    # TRANSLATORS: under the code; "Receive from another phone" is the name of that button on the other phone
    return _("On the other phone: Receive from another phone, then hold its camera up to this code.")


class SendScreen:
    def __init__(self, page: ft.Page, games, saved: list, navigate):
        self.page = page
        self.games = games
        self.saved = saved
        self.navigate = navigate
        self.closed = False
        self.shown = 0
        self.task = None
        self.brightness = None
        records = [s.record for s in saved]
        bar = theme.titled_bar(_("Send to another phone"))
        self.side = code_side(page.width, page.height, bar.toolbar_height or 64)
        self.codes: list[ft.Image] = []
        self.card = ft.Container(visible=False)
        self.caption = ft.Text("", size=theme.BODY, weight=ft.FontWeight.BOLD, no_wrap=True, visible=False)
        self.problem = ft.Text("", size=theme.BODY, color=ft.Colors.ERROR, visible=False)
        try:
            self.frames = frames(saved)
            if len(self.frames) > MOST_CODES:
                raise ValueError(f"{len(self.frames)} codes")
            # The first code now, the others made off the event loop by the loop's task.
            srcs = [code_src(self.frames[0])]
        except ValueError as exc:  # more games than codes read in one go (or than any loop holds)
            log.info("codes of %s: %s", [r.id for r in records], exc)
            self.frames = []
            self.problem.value = _("These games need more codes than a camera reads in one go. Send fewer games "
                                   "at a time, or export a file in Your data.")
            self.problem.visible = True
        except Exception as exc:  # noqa: BLE001 - said in words, never a traceback
            log.exception("codes of %s", [r.id for r in records])
            self.frames = []
            self.problem.value = n_("This game cannot be shown as a code: {reason}",
                                    "These games cannot be shown as codes: {reason}", len(records), reason=exc)
            self.problem.visible = True
        else:
            # Every frame is on the phone from the start, stacked; a tick shows the next one by
            # opacity: two properties sent, where sending the next picture was its whole PNG (1-3 KB)
            # four times a second, and Flutter decoded each picture again before drawing it.
            # TRANSLATORS: a screen reader's name for the QR code(s) this phone shows
            label = n_("QR code of this game", "QR code of these games", len(records))
            self.codes = [self.image(src, shown=k == 0) for k, src in enumerate(srcs)]
            self.stack = ft.Stack(list(self.codes), width=self.side, height=self.side)
            self.card = ft.Semantics(label=label, image=True, container=True, content=ft.Container(
                self.stack, bgcolor=qr.LIGHT, border_radius=ft.BorderRadius.all(12), width=self.side,
                height=self.side))
            if len(self.frames) > 1:
                self.caption.value = frame_caption(1, len(self.frames))
                self.caption.visible = True
        # The words under the code as wide as the code, their left edge on its edge.
        self.words = ft.Column([*self.about(records), ft.Text(what_to_do(), size=theme.BODY)],
                               width=self.side, spacing=10)
        body: list[ft.Control] = [self.card, self.caption, self.problem, self.words]
        self.view = ft.View(
            route="/send/" + ",".join(r.id for r in records), padding=ft.Padding.all(MARGIN), appbar=bar,
            controls=[ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=14,
                                horizontal_alignment=ft.CrossAxisAlignment.CENTER)])
        if len(self.frames) > 1:
            self.task = self._start(self.loop)
        if not page.web:
            # A phone's app: the code at full brightness, given back in close(). In a browser there
            # is no such control (ScreenBrightness is Android's and iOS's only): the shell's wakelock
            # keeps the screen on, and the person turns it up.
            self.brightness = ft.ScreenBrightness()
            self._start(self._bright, True)

    def _start(self, work, *args):
        try:
            return self.page.run_task(work, *args)
        except Exception as exc:  # a session gone already, or a screen built outside one (tests)
            log.info("not started on this page: %s", exc)
            return None

    def about(self, records) -> list[ft.Control]:
        """What the code holds: the game in its own colour and glyph, its day and players; for
        several games their number and one short line each."""
        if len(records) == 1:
            record = records[0]
            return [ft.Row([self.glyph(record.game, 44),
                            ft.Column([ft.Text(title_of(record.game), size=theme.LARGE, weight=ft.FontWeight.BOLD),
                                       ft.Text(when(record.created or record.finished), size=theme.BODY)],
                                      spacing=0, tight=True, expand=True)],
                           spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                    ft.Text(players_line(record), size=theme.BODY)]
        lines: list[ft.Control] = [ft.Text(header(len(records)), size=theme.LARGE, weight=ft.FontWeight.BOLD)]
        for record in records:
            lines.append(ft.Row([self.glyph(record.game, 36),
                                 ft.Column([ft.Text(game_line(record), size=theme.BODY, weight=ft.FontWeight.BOLD),
                                            # One short line a game: ten long names cut after two lines.
                                            ft.Text(players_line(record), size=theme.SMALL, color=theme.NOTE,
                                                    max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)],
                                           spacing=0, tight=True, expand=True)],
                                spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))
        return lines

    @staticmethod
    def glyph(game: str, side: int) -> ft.Control:
        bg, fg, icon = theme.GAME_LOOK.get(game, ("#888888", "#FFFFFF", ft.Icons.CASINO))
        return ft.Container(ft.Icon(icon, color=fg, size=side * 0.6), bgcolor=bg, width=side, height=side,
                            border_radius=ft.BorderRadius.all(side / 2), alignment=ft.Alignment.CENTER)

    def image(self, src: str, shown: bool) -> ft.Image:
        return ft.Image(src=src, width=self.side, height=self.side, fit=ft.BoxFit.CONTAIN,
                        filter_quality=ft.FilterQuality.NONE, gapless_playback=True,
                        opacity=1.0 if shown else 0.0, exclude_from_semantics=True)

    async def make_codes(self) -> None:
        """The loop's other codes, each made off the event loop (85 ms a code here: the other
        phones of a table go on meanwhile) and put under the first, hidden, as it is made."""
        for text in self.frames[len(self.codes):]:
            src = await (self.games.host.work(code_src, text) if self.games is not None else
                         asyncio.to_thread(code_src, text))
            if self.closed:
                return
            image = self.image(src, shown=False)
            self.codes.append(image)
            self.stack.controls.insert(0, image)  # under the one shown: nothing changes on screen
            self.page.update(self.stack)

    def step(self) -> list[ft.Control]:
        """The next frame shown (its opacity and the caption): the controls that changed."""
        old = self.codes[self.shown]
        self.shown = (self.shown + 1) % len(self.codes)
        new = self.codes[self.shown]
        old.opacity, new.opacity = 0.0, 1.0
        self.caption.value = frame_caption(self.shown + 1, len(self.codes))
        # The next code shown before the last one is hidden: a phone may draw between the two,
        # and hiding first left the card blank for that frame (seen in 1 of 80 screenshots).
        return [new, self.caption, old]

    async def loop(self) -> None:
        theme.bind(self.page)  # the caption in this phone's language (a task has no session of its own)
        try:
            await self.make_codes()
        except Exception as exc:  # the phone left while they were made
            log.info("codes not made: %s", exc)
            return
        while not self.closed:
            await asyncio.sleep(TICK)
            if self.closed:
                return
            try:
                self.page.update(*self.step())
            except Exception as exc:  # the phone left between two ticks
                log.info("code loop stopped: %s", exc)
                return

    async def _bright(self, on: bool) -> None:
        try:
            if on:
                await asyncio.wait_for(self.brightness.set_application_screen_brightness(1.0), timeout=5)
            else:
                await asyncio.wait_for(self.brightness.reset_application_screen_brightness(), timeout=5)
        except Exception as exc:  # an app build without the brightness plugin: the code still shows
            log.info("screen brightness: %s", exc)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.task is not None:
            self.task.cancel()
        if self.brightness is not None:
            self._start(self._bright, False)

    def resized(self, width, height) -> None:
        side = code_side(width, height, self.view.appbar.toolbar_height or 64)
        if side == self.side or not self.codes:
            return
        self.side = self.words.width = side
        for image in self.codes:
            image.width = image.height = side
        holder = self.card.content
        holder.width = holder.height = holder.content.width = holder.content.height = side
        try:
            self.page.update(self.card, self.words)
        except Exception as exc:
            log.info("not resized: %s", exc)
