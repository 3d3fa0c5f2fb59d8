"""Receive from another phone (#53): this phone's camera reads the codes the other phone shows
(views/handover/send.py), and the games they hold go through the import preview every import has
(views/screens/data.py ImportPreview): nothing is written until `Import N games` is tapped.

The camera and the reading of codes live in the page (assets/camera.js): Flet has no camera on
the web. The screen asks Flet's FilePicker for a file of the type camera.js answers; the
"file" that comes back holds the frames read, or says why there are none (its name). Every frame
is then read by storage/handoff.py and the same reader every import uses (storage/reader.py)."""
from __future__ import annotations

import asyncio
import json
import logging
import secrets

import flet as ft

from storage import handoff
from storage.reader import Refused, import_bytes
from views import theme
from views.words import lang
from views.screens.data import IMPORT_LIMIT, ImportPreview, megabytes
from views.words.lang import _, n_
from views.table.roles import HOST_WHO

log = logging.getLogger(__name__)

# The made-up file type assets/camera.js answers instead of a file dialog (its PICK_TYPE).
PICK_TYPE = "pandapadqr"
# The camera's words, in this phone's language: camera.js reads them when it opens.
CAMERA_WORDS_KEY = "pandapad.camera_words"
# What a file of frames may weigh: a frame is at most ~1,300 characters, and no sending needs
# more than a few hundred of them (an export of a whole history goes by file).
MOST_CHARACTERS = 4 * 1024 * 1024


def camera_words() -> dict[str, str | int]:
    """What assets/camera.js says over the camera, in this session's language."""
    return {"lang": lang.locale().language, "dir": "rtl" if lang.locale().text_direction == "rtl" else "ltr",
            "title": _("Receive from another phone"),
            "starting": _("Starting the camera\u2026"),
            "point": _("Hold the camera up to the code on the other phone."),
            # TRANSLATORS: said over the camera as a loop of codes is read ("Codes read: 2 of 5")
            "have": _("Codes read: {have} of {n}"),
            "one": _("Code read"),
            "foreign": _("That is not a Pandapad code: hold the camera up to the code on the other phone."),
            "other": _("That code holds other games: finish reading this set first."),
            "cancel": _("Cancel"),
            # the frames' header, from storage/handoff.py alone: camera.js gathers a sending by it
            "header": handoff.GATHERED, "most": handoff.MAX_FRAMES}


def read_codes(raw: bytes, name: str):
    """The games the frames hold (one frame's text per line), or the one-line reason they are
    refused, in this phone's language: storage/handoff.py, then the reader of every import. Its
    size was checked before it was read (ReceiveScreen); handoff bounds what the frames hold."""
    try:
        texts = raw.decode("ascii").split("\n")
    except UnicodeDecodeError:
        return None, _("A code holds characters no Pandapad code has.")
    try:
        payload = handoff.payload_of(texts, IMPORT_LIMIT, name)
    except Refused as exc:
        return None, said(exc)
    try:
        return import_bytes(payload, name, IMPORT_LIMIT), None
    except Refused as exc:  # the games inside, read as a file's are (its words are the reader's)
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - a phone gets a line, never a spinner for ever
        log.exception("reading codes")
        return None, _("The codes could not be read ({error}).", error=type(exc).__name__)


def said(exc: Refused) -> str:
    """Why the codes are refused (storage/handoff.py), in this phone's words: what, and where."""
    what = lang.problem(exc.said_what)
    if exc.said_where:
        # TRANSLATORS: where in a loop of codes ("code 2 of 5"), then what is wrong there
        return _("{where}: {what}", where=lang.problem(exc.said_where), what=what)
    return what


class ReceiveScreen(ImportPreview):
    """Opens the camera at once; says what came of it; the preview; then the game to go on with."""

    def __init__(self, page: ft.Page, games, navigate, who=HOST_WHO):
        self.page = page
        self.games = games
        self.host = games.host
        self.navigate = navigate
        self.who = who
        self.picker = None
        self.closed = False
        self.reading = False
        self.source = _("the other phone")
        self.preview = ft.Column(spacing=8)
        self.again = ft.FilledButton(_("Read the codes"), icon=ft.Icons.QR_CODE_SCANNER, style=theme.wraps(),
                                     on_click=lambda e: self.page.run_task(self.read))
        self.file = ft.OutlinedButton(_("Choose a file to import"), icon=ft.Icons.UPLOAD_FILE, style=theme.wraps(),
                                      visible=False, on_click=lambda e: self.navigate("/data"))
        self.view = ft.View(
            route="/receive", padding=ft.Padding.all(12),
            appbar=theme.titled_bar(_("Receive from another phone")),
            # The buttons first, where they stay whatever is said; then what is happening (the
            # camera's outcome, the preview and its Import), then what to do: at the largest text
            # on a small phone the outcome is in view, and a tap never lands where a button was.
            controls=[ft.Column([
                ft.Row([self.again, self.file], wrap=True, spacing=12, run_spacing=12),
                self.preview,
                ft.Text(_("On the other phone, open the game and tap Send to another phone. Then hold this "
                          "phone's camera up to its code; a loop of codes is read as it goes round."),
                        size=theme.BODY),
                ft.Text(_("Nothing is written until you have seen what the codes hold and tapped Import."),
                        size=theme.SMALL, color=theme.NOTE),
            ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=16)])
        page.run_task(self.read)

    def close(self) -> None:
        self.closed = True

    def resized(self, width, height) -> None:
        """Nothing to redraw: the camera's layer is the page's (assets/camera.js), the rest wraps."""

    @property
    def keep_playing(self) -> bool:
        # A game handed back to the phone it came from, played on meanwhile, comes in over its
        # older self (transfer.goes_back keeps an older copy out). Only a table's host leaves its
        # games in progress as they are: a guest's phone may be on one.
        return bool(self.host.table)

    def holds(self, name: str, n: int, counts: str) -> str:
        # TRANSLATORS: what the other phone's codes hold, then the counts ("1 new, 0 updated, 0 unchanged")
        return n_("The codes hold {n} game: {counts}", "The codes hold {n} games: {counts}", n, counts=counts)

    def came_in(self, name: str, counts: str) -> str:
        return _("Imported from the other phone: {report}.", report=counts)

    def unreadable(self, name: str, error: str) -> str:
        return _("The codes could not be read ({error}).", error=error)

    async def read(self) -> None:
        """Open the camera (assets/camera.js) and wait for what it reads."""
        if self.reading or self.closed or self.refused("import"):
            return
        self.reading = True
        self.pending = None
        self.file.visible = False
        self.page.update(self.file)
        self.say(self.line(_("Starting the camera\u2026")))
        try:
            try:
                # A fresh "asked" with the words tells camera.js this pick is this screen's, though
                # the browser's address may not say /receive yet (Flutter moves it after a frame).
                said = {**camera_words(), "asked": secrets.token_hex(6)}
                await asyncio.wait_for(ft.SharedPreferences().set(CAMERA_WORDS_KEY, json.dumps(said)), timeout=5)
            except Exception as exc:  # the camera speaks English
                log.info("the camera's words: %s", exc)
            self.picker = self.host.picker()
            files = await self.picker.pick_files(file_type=ft.FilePickerFileType.CUSTOM,
                                                 allowed_extensions=[PICK_TYPE], with_data=self.host.pick_with_data)
            if self.closed:
                return
            if not files:
                self.say(self.line(_("The camera is closed. Tap Read the codes to start again.")))
                return
            chosen = files[0]
            outcome = chosen.name.rsplit(".", 1)[0]
            if outcome != "frames":
                self.no_camera(outcome)
                return
            if chosen.size > MOST_CHARACTERS:
                self.say(self.line(_("Refused: the codes hold more than {limit}. Nothing was changed.",
                                     limit=megabytes(MOST_CHARACTERS)), error=True))
                return
            self.say(self.line(_("Reading the codes\u2026")))
            raw = await self.host.receive(self.page, self.picker, chosen)
            await self.show_preview(raw, self.source, read=read_codes)
        except Exception as exc:  # noqa: BLE001 - a line on the phone, never a spinner for ever
            log.exception("receive")
            self.say(self.line(_("The codes could not be read: {reason}. Nothing was changed.", reason=exc),
                               error=True))
        finally:
            self.reading = False

    def no_camera(self, outcome: str) -> None:
        """The camera could not be used: why, in words, and the file import instead."""
        if outcome == "refused":
            text = _("The camera was not allowed. Allow it for Pandapad in the browser's or the phone's settings, "
                     "then tap Read the codes; or import a file the other phone exported.")
        elif outcome == "busy":
            text = _("The camera is in use by another app. Close that app, then tap Read the codes.")
        elif outcome == "reader":
            text = _("The code reader could not start. Tap Read the codes to try again, or import a file the "
                     "other phone exported.")
        elif outcome == "insecure":
            text = _("This browser gives the camera only to a secure (https) address, and the table's address "
                     "is not one. Import a file the other phone exported instead.")
        else:
            text = _("No camera can be used here. Import a file the other phone exported instead.")
        self.file.visible = True
        self.say(self.line(text, error=True))
        self.page.update(self.file)

    async def imported(self, report) -> None:
        """A game in progress received goes on here, from where it was: one tap away."""
        ids = list(report.new_ids)
        if len(ids) != 1:
            return
        try:
            saved = await self.games.load(ids[0])
        except Exception:  # noqa: BLE001 - the import stands; the home lists it
            return
        label = _("Open the game") if saved.record.finished else _("Go on with the game")
        self.preview.controls.append(ft.FilledButton(label, icon=ft.Icons.PLAY_ARROW, style=theme.wraps(),
                                                     on_click=lambda e: self.navigate(f"/game/{ids[0]}")))
        self.page.update(self.preview)
