"""After the game: the result handed on. Under every finished game's standings (each pad's own,
and a finished game opened later): `Share the result` (a picture of the result card, to the
phone's share sheet; a download in a desktop browser), `Log in BG Stats` (BG Stats' import
link), the same result as text (copy or share), and the BG Stats link as a QR code for a phone
that is not on the table's link. The words and the link come from scoring/share.py."""
from __future__ import annotations

import asyncio
import logging
import re

import flet as ft

from scoring import rules_for, score, share
from views import theme
from views.handover import qr
from views.words import lang
from views.theme import GAME_LOOK
from views.words.titles import title_of
from views.words.lang import _
from views.pads.pad.words import signed, verdict

log = logging.getLogger(__name__)

CARD_WIDTH = 360     # the picture's layout width (logical pixels; less on a narrower phone)
CAPTURE_WAIT = 20   # seconds for the phone to draw the card (about 1 s here)
PIXEL_RATIO = 3      # 1080 pixels wide: sharp in a chat, a few hundred kB at most
GOLD = "#F2B705"     # the winner's trophy, on light and dark alike


def outcome_of(record, outcome_words) -> str:
    """How a tie on the best total was broken, in the game's words ('' when no tie or the
    game says nothing more)."""
    result = score(record)
    if outcome_words is None or not share.tie_on_top(result):
        return ""
    return outcome_words(result) or ""


def result_line(record, outcome: str = "") -> str:
    """share.result_line in this phone's language: 'Panda Royale, 24 Nov: 1. Mei 412, 2. Jonas
    398' (the English is that function's, word for word)."""

    result = score(record)
    when = share.local_time(record.created, None) or share.local_time(record.finished, None)
    # TRANSLATORS: one place in the shared result line: "1. Mei 412"
    places = lang.p_("list separator", ", ").join(
        _("{place}. {name} {total}", place=s.place, name=s.name, total=signed(s.total))
        for s in sorted(result.players, key=lambda s: s.place))
    line = (_("{game}, {day}: {places}", game=title_of(record.game), day=lang.day(when), places=places) if when
            else _("{game}: {places}", game=title_of(record.game), places=places))
    # TRANSLATORS: the shared result line, then how a tie on the best total was broken
    line = _("{line} ({outcome})", line=line, outcome=outcome.strip()) if outcome.strip() else line
    return lang.plain(line)


def _look(game: str) -> tuple[str, str, str]:
    return GAME_LOOK.get(game, ("#888888", "#FFFFFF", ft.Icons.CASINO))


def _long_date(record) -> str:
    when = share.local_time(record.created, None) or share.local_time(record.finished, None)
    return lang.long_day(when) if when else ""


def _duration(record) -> str:
    minutes = share.play(record).get("durationMin")
    if not minutes:
        return ""
    if minutes < 60:
        # TRANSLATORS: how long the game took, under 1 hour ("45 min").
        return _("{minutes} min", minutes=minutes)
    # TRANSLATORS: how long the game took, 1 hour or more ("1 h 05"); minutes always two digits.
    return _("{hours} h {minutes}", hours=minutes // 60, minutes=f"{minutes % 60:02d}")


def result_card(record, outcome: str = "", width: int = CARD_WIDTH) -> ft.Container:
    """The picture people post: the game's colour and name, the day, each place, name and total,
    the winner(s) with a trophy, how a tie was broken. Fixed sizes (not the phone's text size):
    the picture looks the same from every phone."""
    result = score(record)
    title = _(rules_for(record.game).TITLE)
    colour, ink, icon = _look(record.game)
    winners = [s.name for s in result.players if s.place == 1]
    many = len(result.players) > 6
    row_h = 40 if many else 48

    def row(s) -> ft.Control:
        won = s.place == 1
        badge = ft.Container(
            ft.Text(str(s.place), size=16, weight=ft.FontWeight.BOLD, color=ink if won else ft.Colors.ON_SURFACE),
            width=32, height=32, border_radius=16, alignment=ft.Alignment.CENTER,
            bgcolor=colour if won else ft.Colors.SURFACE_CONTAINER_HIGHEST)
        return ft.Container(ft.Row([
            badge,
            ft.Text(s.name, size=18 if won else 17, weight=ft.FontWeight.BOLD if won else ft.FontWeight.W_500,
                    expand=True, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS, color=ft.Colors.ON_SURFACE),
            *([ft.Icon(ft.Icons.EMOJI_EVENTS, color=GOLD, size=22)] if won else []),
            ft.Text(signed(s.total), size=20 if won else 18, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_SURFACE),
        ], spacing=10), height=row_h, padding=ft.Padding.symmetric(horizontal=10),
            border_radius=12, bgcolor=ft.Colors.with_opacity(0.16, colour) if won else None)

    when = " · ".join(part for part in (_long_date(record), _duration(record)) if part)
    header = ft.Container(ft.Row([
        ft.Icon(icon, color=ink, size=34),
        ft.Column([ft.Text(title, size=24, weight=ft.FontWeight.BOLD, color=ink),
                   *([ft.Text(when, size=14, color=ink)] if when else [])], spacing=0, tight=True, expand=True),
    ], spacing=12), bgcolor=colour, padding=ft.Padding.symmetric(horizontal=16, vertical=14))
    body = [ft.Text(verdict(winners), size=20, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_SURFACE)]
    if outcome:
        body.append(ft.Text(outcome, size=15, color=theme.NOTE))
    body.append(ft.Column([row(s) for s in sorted(result.players, key=lambda s: s.place)], spacing=2))
    # TRANSLATORS: the foot of the result picture; Pandapad is the app's name.
    footer = ft.Row([ft.Text(_("Scored with Pandapad"), size=12, color=theme.NOTE)],
                    alignment=ft.MainAxisAlignment.END)
    return ft.Container(
        ft.Column([header, ft.Container(ft.Column(body + [footer], spacing=8, tight=True),
                                        padding=ft.Padding.only(left=14, right=14, top=12, bottom=10))],
                  spacing=0, tight=True),
        width=width, bgcolor=ft.Colors.SURFACE, border_radius=20, clip_behavior=ft.ClipBehavior.ANTI_ALIAS,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


async def capture(shot: ft.Screenshot, width: int, tries: int = 6) -> bytes:
    """The card as a PNG, once two captures in a row agree. A capture taken while the dialog is
    still being laid out comes back the size of the whole screen with the card in a corner
    (seen in Chromium); one taken before the fonts of its names and date arrived (views/words/fonts.py:
    a phone fetches the slices of 髙橋 or 김민준 when it first draws them) has boxes or gaps,
    and the engine draws it again once they are in (#45): so the card is taken again until it
    stays the same."""
    png, before = b"", None
    for k in range(tries):
        # A float: the client takes an int pixel ratio as a wrong type. The delay lets the dialog settle.
        png = await asyncio.wait_for(shot.capture(pixel_ratio=float(PIXEL_RATIO), delay=400 if k == 0 else 300),
                                     timeout=CAPTURE_WAIT)
        if png_size(png)[0] != width * PIXEL_RATIO:
            log.info("result card captured at %s, not %s wide: again", png_size(png), width * PIXEL_RATIO)
            before = None
        elif png == before:
            return png
        else:
            before = png
    return png


def file_name(record) -> str:
    """'pandapad-panda-royale-2026-11-24.png'."""
    day = (share.play(record).get("playDate") or "")[:10]
    return re.sub(r"-+$", "", f"pandapad-{record.game}-{day}") + ".png"


def qr_src(link: str) -> str:
    """The link as a QR code (views/handover/qr.py), with the least error correction: a BG Stats link is
    long, and the code is read off a screen, not a crumpled print."""
    return qr.code_src(link, error="l", scale=3, border=3)


def _client_action(make):
    """A client action, which needs the session it is sent to; None when the screen is built
    outside one (the roles' tests build screens on a stand-in page)."""
    try:
        return make()
    except RuntimeError:
        return None


class ResultActions:
    """The buttons under a finished game's standings. A pad adds `.control` where it says the
    game is finished; the finished screen adds it under its standings."""

    def __init__(self, page: ft.Page, record, outcome_words=None):
        """outcome_words(result): the pad's words for how a tie was broken (or None)."""
        self.page = page
        self.record = record
        self.outcome = outcome_of(record, outcome_words)
        self.link = share.bgstats_link(share.play(record, outcome=self.outcome))
        self.text = result_line(record, outcome=self.outcome)
        open_link = _client_action(lambda: ft.OpenUrl(self.link, target=ft.UrlTarget.BLANK))
        self.copy = _client_action(lambda: ft.CopyToClipboard(self.text))
        # No fixed height: a label of two lines (longer languages, the largest text) had its foot cut.
        self.control = ft.Column([
            ft.Row([
                ft.FilledButton(_("Share the result"), icon=ft.Icons.SHARE, style=theme.wraps(), on_click=self.on_share),
                # Opened by the browser inside the tap (a client action): no pop-up blocker,
                # and on a phone with BG Stats the link opens its import dialog.
                # TRANSLATORS: BG Stats is an app (Board Game Stats) that keeps a log of plays: keep its name.
                ft.OutlinedButton(_("Log in BG Stats"), icon=ft.Icons.OPEN_IN_NEW, style=theme.wraps(), action=open_link,
                                  on_click=None if open_link else self.on_log),
            ], wrap=True, spacing=8, run_spacing=8),
            ft.Row([
                ft.TextButton(_("Copy as text"), icon=ft.Icons.CONTENT_COPY, style=theme.wraps(),
                              action=self.copy, on_click=self.on_copied),
                ft.TextButton(_("Share as text"), icon=ft.Icons.TEXT_SNIPPET_OUTLINED, style=theme.wraps(),
                              action=_client_action(lambda: ft.ShareText(self.text, subject=self.text.split(":")[0]))),
                ft.TextButton(_("BG Stats QR code"), icon=ft.Icons.QR_CODE_2, style=theme.wraps(), on_click=self.on_qr),
            ], wrap=True, spacing=0, run_spacing=0),
        ], spacing=4, tight=True)

    async def on_log(self, e) -> None:
        """Only when the screen was built outside a session (no client action): ask the client."""
        await ft.UrlLauncher().launch_url(self.link, web_only_window_name="_blank")

    async def on_copied(self, e) -> None:
        if self.copy is None:  # no client action: ask the client
            await ft.Clipboard().set(self.text)
        self.page.show_dialog(ft.SnackBar(ft.Text(_("Copied: {text}", text=self.text), size=theme.BODY)))

    async def on_share(self, e) -> None:
        """The card drawn in a dialog (what is shared is what the table sees), captured as a PNG
        by Flet's Screenshot and handed to the phone's share sheet; a browser without one (a
        desktop's) downloads it instead."""
        # As wide as the dialog allows on this phone (8 + 8 around the dialog, 8 + 8 inside).
        width = min(CARD_WIDTH, int(self.page.width or CARD_WIDTH + 32) - 32)
        shot = ft.Screenshot(result_card(self.record, self.outcome, width))
        status = ft.Text(_("Preparing the picture…"), size=theme.SMALL)
        dialog = ft.AlertDialog(
            content=ft.Column([shot, status], tight=True, spacing=8,
                              horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            content_padding=ft.Padding.all(8), inset_padding=ft.Padding.symmetric(horizontal=8, vertical=16),
            actions=[ft.TextButton(_("Close"), on_click=lambda e: self.page.pop_dialog())])
        self.page.show_dialog(dialog)
        try:
            png = await capture(shot, width)
        except asyncio.TimeoutError:  # its message is empty: say what it means
            log.warning("capturing the result card: no picture from the phone in %s s", CAPTURE_WAIT)
            status.value = _("Not shared: the phone did not draw the picture in time. Try again.")
        except Exception as exc:
            log.warning("capturing the result card: %s", exc)
            status.value = _("Not shared: the picture could not be made ({error})", error=exc)
        else:
            status.value = await self._hand_on(png)
        if dialog.open:
            status.update()

    async def _hand_on(self, png: bytes) -> str:
        """The PNG to the share sheet, else (a browser without Web Share) a download. Says which."""
        name = file_name(self.record)
        try:
            if getattr(self, "_share", None) is None:
                self._share = ft.Share()
            await asyncio.wait_for(self._share.share_files(
                [ft.ShareFile.from_bytes(png, mime_type="image/png", name=name)],
                text=self.text, subject=self.text.split(":")[0]), timeout=120)
            return _("Shared.")
        except Exception as exc:  # Flet's web client calls navigator.canShare, which a desktop browser lacks
            log.info("share sheet: %s", exc)
            if not self.page.web:
                return _("Not shared: {error}", error=exc)
        self._picker = ft.FilePicker()
        # The browser downloads the bytes; Flet's web client never answers this call.
        self._download = asyncio.ensure_future(self._picker.save_file(file_name=name, src_bytes=png))
        return _("No share sheet here: downloaded as a picture.")

    def on_qr(self, e) -> None:
        try:
            image = ft.Image(src=qr_src(self.link), width=300, height=300,
                             semantics_label=_("QR code of the BG Stats link"))
            body = [ft.Container(image, bgcolor="#FFFFFF", padding=ft.Padding.all(6), border_radius=12),
                    ft.Text(_("Scan with a phone that has BG Stats to log this play."), size=theme.BODY,
                            text_align=ft.TextAlign.CENTER)]
        except Exception as exc:  # segno: more than a QR code holds (very long names)
            log.info("BG Stats QR code: %s", exc)
            body = [ft.Text(_("This result is too long for a QR code: tap Log in BG Stats on a phone instead."),
                            size=theme.BODY)]
        self.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("Log in BG Stats"), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Column(body, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            actions=[ft.TextButton(_("Close"), on_click=lambda e: self.page.pop_dialog())]))
