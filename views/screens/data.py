"""Your data: every game exported as the same files `main.py export` writes (a download in a
browser, a save dialog on a desktop); an import that shows what it would do before it writes
anything; and what the store repaired when it started."""
from __future__ import annotations

import asyncio
import json
import logging
import os
from datetime import datetime, timezone

import flet as ft

from scoring import RecordError
from storage import StoreError
from storage.export_file import export_bytes
from storage import reader
from storage.reader import Refused, import_bytes
from views import theme
from views.words import lang
from views.games import now_iso
from views.words.lang import _, n_, p_
from views.table.roles import HOST_WHO, refusal_said

log = logging.getLogger(__name__)

# 10,000 games export to about 70 MB. PANDAPAD_IMPORT_LIMIT (bytes) lets a test try a small one.
IMPORT_LIMIT = int(os.environ.get("PANDAPAD_IMPORT_LIMIT") or reader.IMPORT_LIMIT)


def backup_time(name: str) -> str:
    """A backup's folder name (a UTC stamp) as the local time a player reads: '23 Nov 2026 01:04'."""
    try:
        when = datetime.strptime(name, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=timezone.utc).astimezone()
    except ValueError:
        return name
    return lang.day_clock(when, seconds=True, year=True)


def megabytes(n: int) -> str:
    if n >= 1024 * 1024:
        return _("{n} MB", n=f"{n / 1024 / 1024:.0f}")
    return _("{n} KB", n=max(1, n // 1024))


def read_file(raw: bytes, name: str):
    """The games of an import file, validated, or the one-line reason it is refused: the
    same reader and the same words as `main.py import` (storage/reader.py)."""
    try:
        return import_bytes(raw, name, IMPORT_LIMIT), None
    except Refused as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - a phone gets a line, never a spinner for ever
        log.exception("import preview")
        return None, _("{file}: cannot be read ({error}); nothing was changed", file=name, error=type(exc).__name__)


_saving: set = set()  # downloads in flight, kept alive until the browser has the bytes


async def save_out(page: ft.Page, games, fmt: str) -> tuple[str | None, int]:
    """Every game as an export file (the same bytes as `main.py export`): a download in a
    browser, a save dialog on a desktop. The file's name (None: no file chosen) and the count.
    A JSON export is a backup file: its time is kept, and said in Your data (#46)."""
    data, count = await games.run(export_bytes, games.store, fmt)
    name = f"pandapad-{datetime.now().strftime('%Y-%m-%d-%H%M')}.{fmt}"
    picker = ft.FilePicker()
    saving = picker.save_file(file_name=name, src_bytes=data, dialog_title=_("Save the export"))
    if page.web:
        # The browser downloads the bytes; Flet's web client never answers the call.
        held = (picker, asyncio.ensure_future(saving))
        _saving.add(held)
        page.run_task(_forget_later, held)
        saved = name
    else:
        saved = await saving
    if saved is not None and fmt == "json":
        try:
            await games.save_settings(backup_file_made=now_iso())
        except Exception as exc:  # noqa: BLE001 - the file is made; only its time is not kept
            log.info("keeping the backup file's time: %s", exc)
    return saved, count


async def _forget_later(held) -> None:
    await asyncio.sleep(60)
    _saving.discard(held)


def counts_of(report) -> str:
    """An import's counts as a player reads them: "3 new, 1 updated, 0 unchanged"."""
    counts = [n_("{n} new", "{n} new", report.new), n_("{n} updated", "{n} updated", report.updated),
              n_("{n} unchanged", "{n} unchanged", report.unchanged)]
    if report.kept:
        counts.append(n_("{n} kept (the stored game is newer or more complete)",
                         "{n} kept (the stored game is newer or more complete)", report.kept))
    if report.playing:
        counts.append(n_("{n} left as it is (being played here now)",
                         "{n} left as they are (being played here now)", report.playing))
    # TRANSLATORS: between the counts of an import ("3 new, 1 updated")
    return p_("list of counts", ", ").join(counts)


def made_when(stamp: str | None) -> str:
    """When the last backup file was made, as a line of Your data and of a finished game."""
    if not stamp:
        return _("No backup file made yet.")
    try:
        when = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).astimezone()
    except ValueError:
        return _("No backup file made yet.")
    return _("Last backup file: {when}.", when=lang.day_clock(when, year=True))


class ImportPreview:
    """What an import shows before it writes (#22), for a file (Your data) and for the codes of
    another phone (views/handover/receive.py): the counts, the warnings, and `Import N games`. A screen
    gives it self.page, self.games, self.who and self.preview (the column it says things in)."""

    pending = None  # (games, name) read and previewed, not imported yet
    # A game in progress here is left as it is (counted as playing): phones may be on it (#24).
    keep_playing = True

    def refused(self, action: str) -> bool:
        """Asked when a handler runs: a replayed event from a guest's phone does nothing."""
        if self.who.may(action):
            return False
        self.page.show_dialog(ft.SnackBar(ft.Text(refusal_said(action), size=theme.BODY)))
        return True

    def say(self, *controls: ft.Control) -> None:
        self.preview.controls = list(controls)
        self.page.update(self.preview)

    def line(self, text: str, error: bool = False) -> ft.Control:
        return ft.Row([ft.Icon(ft.Icons.ERROR_OUTLINE if error else ft.Icons.INFO_OUTLINE,
                               color=ft.Colors.ERROR if error else ft.Colors.PRIMARY),
                       ft.Text(text, size=theme.BODY, expand=True)], vertical_alignment=ft.CrossAxisAlignment.START)

    async def show_preview(self, raw: bytes, name: str, read=read_file) -> None:
        """`read(raw, name)` gives (games, None) or (None, the one-line reason it is refused)."""
        if self.refused("import"):
            return
        games, problem = await self.games.run(read, raw, name)
        if problem:
            self.say(self.line(_("Refused, nothing was changed: {reason}", reason=problem), error=True))
            return
        try:
            report = await self.games.run(self.games.store.import_incoming, games, True, self.keep_playing)
        except (StoreError, RecordError) as exc:
            self.say(self.line(_("Refused, nothing was changed: {reason}", reason=exc), error=True))
            return
        except Exception as exc:  # noqa: BLE001 - a line on the phone, never a spinner for ever
            log.exception("import preview")
            self.say(self.line(_("Refused, nothing was changed: {reason}", reason=self.unreadable(name, type(exc).__name__)),
                               error=True))
            return
        writes = report.new + report.updated
        counts = counts_of(report)
        counts = self.holds(name, len(games), counts)
        # Said before the tap that imports (#22): another game under a stored id comes in as a
        # new game, a finished game that breaks its rules comes in with its problems shown.
        warnings = [self.line(text, error=True) for text in report.warnings()]
        if writes == 0 and report.playing:
            self.say(self.line(_("{counts}. Nothing to import: a game in progress here stays as it is while "
                                 "phones may be playing it.", counts=counts)))
            return
        if writes == 0:
            self.say(self.line(_("{counts}. Nothing to import: every game is stored already.", counts=counts)))
            return
        self.pending = (games, name)
        # TRANSLATORS: what an import file holds ("bets.json holds 4 games: 3 new, …") as a sentence
        self.say(self.line(_("{counts}.", counts=counts)), *warnings,
                 ft.Row([ft.FilledButton(n_("Import {n} game", "Import {n} games", writes),
                                         icon=ft.Icons.CHECK, style=theme.wraps(),
                                         on_click=lambda e: self.page.run_task(self.confirm)),
                         ft.TextButton(_("Cancel"), on_click=lambda e: self.say())], wrap=True))

    async def confirm(self) -> None:
        if self.pending is None or self.refused("import"):
            return
        games, name = self.pending
        self.pending = None
        try:
            # A game being played here is left as it is: its pads would not know (#24).
            report = await self.games.run(self.games.store.import_incoming, games, False, self.keep_playing)
        except Exception as exc:  # the store keeps all or nothing; say what happened
            log.exception("import")
            self.say(self.line(_("Not imported: {reason}. The store is as it was.", reason=exc), error=True))
            return
        # The counts in this phone's words (the report's own text is the command line's English).
        self.say(self.line(self.came_in(name, counts_of(report))))
        await self.imported(report)

    def holds(self, name: str, n: int, counts: str) -> str:
        # TRANSLATORS: what an import file holds, then the counts ("3 new, 1 updated, 0 unchanged")
        return n_("{file} holds {n} game: {counts}", "{file} holds {n} games: {counts}", n, file=name, counts=counts)

    def came_in(self, name: str, counts: str) -> str:
        return _("Imported from {file}: {report}.", file=name, report=counts)

    def unreadable(self, name: str, error: str) -> str:
        return _("{file} could not be read ({error}).", file=name, error=error)

    async def imported(self, report) -> None:
        """After an import: what the screen says again."""


class DataScreen(ImportPreview):
    def __init__(self, page: ft.Page, games, notices: list[str], who=HOST_WHO):
        self.page = page
        self.who = who  # the shell shows this screen to the host only; each handler asks again
        self.games = games
        self.host = games.host  # where files come from and go to, and where the games are kept
        self.pending = None          # (games, file name) read and previewed, not imported yet
        self.picker_in = None
        self.status = ft.Text("", size=theme.BODY, visible=False)  # shown once there is something to say
        self.kept = ft.Text("", size=theme.SMALL)
        self.keeping = ft.Text("", size=theme.SMALL, visible=False)  # may the browser clear them? (a phone)
        self.made = ft.Text(made_when(games.settings.backup_file_made), size=theme.SMALL,
                            visible=getattr(self.host, "backup_files", False))
        self.preview = ft.Column(spacing=8)
        self.backups = ft.Column(spacing=4)
        self.restored = ft.Text("", size=theme.BODY)
        repaired = [ft.Container(ft.Column([
            ft.Row([ft.Icon(ft.Icons.HEALING, color=ft.Colors.PRIMARY),
                    theme.heading(_("Repaired at start"), size=theme.BODY)]),
            *[ft.Text(n, size=theme.SMALL) for n in notices]], spacing=6),
            bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=ft.BorderRadius.all(12),
            padding=ft.Padding.all(12))] if notices else []
        self.view = ft.View(
            route="/data", padding=ft.Padding.all(12),
            appbar=theme.titled_bar(_("Your data")),
            controls=[ft.Column([
                *repaired,
                self.kept,
                self.keeping,
                theme.heading(_("Export every game"), size=theme.BODY),
                ft.Text(_("The same files as {command}: JSON to keep as a backup file or move to another phone, "
                          "CSV for a spreadsheet.", command="main.py export"), size=theme.SMALL),
                ft.Row([ft.FilledButton(_("Export JSON"), icon=ft.Icons.DOWNLOAD, style=theme.wraps(),
                                        on_click=lambda e: self.page.run_task(self.export, "json")),
                        ft.OutlinedButton(_("Export CSV"), icon=ft.Icons.TABLE_VIEW, style=theme.wraps(),
                                          on_click=lambda e: self.page.run_task(self.export, "csv"))],
                       wrap=True, spacing=12),
                self.status,
                self.made,
                ft.Divider(),
                theme.heading(_("Import games"), size=theme.BODY),
                ft.Text(_("An export file or one game record (JSON, up to {size}). You see what it would change "
                          "first; nothing is written until you confirm, and a refused file changes nothing.",
                          size=megabytes(IMPORT_LIMIT)), size=theme.SMALL),
                ft.Row([ft.OutlinedButton(_("Choose a file to import"), icon=ft.Icons.UPLOAD_FILE, style=theme.wraps(),
                                          on_click=lambda e: self.page.run_task(self.choose)),
                        # No file, no network: the other phone's screen, read by this one's camera (#53).
                        ft.OutlinedButton(_("Receive from another phone"), icon=ft.Icons.QR_CODE_SCANNER,
                                          style=theme.wraps(), on_click=lambda e: self.page.navigate("/receive"))],
                       wrap=True, spacing=12, run_spacing=12),
                self.preview,
                ft.Divider(),
                theme.heading(_("Backups"), size=theme.BODY),
                ft.Text(_("The app keeps a copy of every game when it starts after a change and after an "
                          "import (the last three). Restoring one keeps the games as they are now as a "
                          "backup first, so it can be undone. Games in progress stay as they are, every "
                          "score entered in them."),
                        size=theme.SMALL),
                self.backups,
                self.restored,
            ], scroll=ft.ScrollMode.AUTO, expand=True, spacing=12)])
        self.page.run_task(self.list_backups)
        self.page.run_task(self.say_where)

    async def say_where(self) -> None:
        """How many games the app holds and where; on a phone by itself, whether the browser may
        clear them and how much of the phone's storage the app takes. Said again after every
        import and restore (#46)."""
        rows = await self.games.rows()
        where = await self.host.where(self.games.store)
        # TRANSLATORS: {where} is "in /home/ann/.local/share/pandapad" or "on this phone, in this browser's storage"
        self.kept.value = n_("{n} game kept {where}.", "{n} games kept {where}.", len(rows), where=where)
        kept = await self.host.kept_for_good()
        if kept is not None:
            lines = [_("The browser keeps these games until you clear this site's data yourself.") if kept else
                     _("The browser may clear these games when the phone runs short of space. Add Pandapad to the "
                       "home screen, and export a backup file after playing.")]
            used = await self.host.used()
            if used is not None and used[1] is not None:
                lines.append(_("Pandapad uses {all} of this phone's storage, the games {games} of it.",
                               all=megabytes(used[0]), games=megabytes(used[1])))
            elif used is not None:
                lines.append(_("Pandapad uses {all} of this phone's storage.", all=megabytes(used[0])))
            self.keeping.value, self.keeping.visible = " ".join(lines), True
        self.page.update(self.kept, self.keeping)

    async def export(self, fmt: str) -> None:
        if self.refused("export"):
            return
        self.status.value, self.status.visible = _("Preparing the file…"), True
        self.page.update(self.status)
        try:
            saved, count = await save_out(self.page, self.games, fmt)
        except Exception as exc:
            log.exception("export")
            self.status.value = _("Not exported: {reason}", reason=exc)
        else:
            if saved is None and not self.page.web:
                self.status.value = _("Not exported: no file was chosen.")
            else:
                self.status.value = n_("Exported {n} game as {format}.", "Exported {n} games as {format}.", count,
                                       format=fmt.upper())
        self.made.value = made_when(self.games.settings.backup_file_made)
        self.page.update(self.status, self.made)

    # ------------------------------------------------------------------ import
    async def imported(self, report) -> None:
        await self.say_where()
        await self.list_backups()  # an import keeps a backup of the games before it

    async def choose(self) -> None:
        self.pending = None
        if self.refused("import"):
            return
        self.picker_in = self.host.picker()
        try:
            files = await self.picker_in.pick_files(dialog_title=_("Import a Pandapad file"),
                                                    file_type=ft.FilePickerFileType.CUSTOM,
                                                    allowed_extensions=["json"], with_data=self.host.pick_with_data)
        except Exception as exc:
            log.exception("file picker")
            self.say(self.line(_("The file could not be chosen: {reason}", reason=exc), error=True))
            return
        if not files:
            return
        chosen = files[0]
        if chosen.size > IMPORT_LIMIT:  # said before a byte is sent
            self.say(self.line(_("Refused: {file} is {size}; an import takes at most {limit}. Nothing was changed.",
                                 file=chosen.name, size=megabytes(chosen.size), limit=megabytes(IMPORT_LIMIT)),
                               error=True))
            return
        self.say(self.line(_("Reading {file}…", file=chosen.name)))
        try:
            raw = await self.host.receive(self.page, self.picker_in, chosen)
        except Exception as exc:  # noqa: BLE001 - a line on the phone, never a spinner for ever
            log.info("import: %s did not arrive: %s", chosen.name, exc)
            self.say(self.line(_("Refused: {file} could not be read ({reason}). Nothing was changed.", file=chosen.name,
                                 reason=exc), error=True))
            return
        await self.show_preview(raw, chosen.name)

    # ------------------------------------------------------------------ backups
    async def list_backups(self) -> None:
        try:
            found = await self.games.run(self.games.store.backups)
        except Exception as exc:
            log.exception("listing backups")
            found, self.restored.value = [], _("The backups cannot be listed: {reason}", reason=exc)
        # Restore under the copy's words, not beside them: there they had 60 px at 320 px (#45).
        rows = [ft.Row([ft.Icon(ft.Icons.RESTORE, size=28),
                        ft.Column([ft.Text(_("Copy of {when}", when=backup_time(b.name)), size=theme.BODY),
                                   ft.Text(n_("{n} game", "{n} games", b.games), size=theme.SMALL),
                                   ft.OutlinedButton(_("Restore"), height=theme.TAP,
                                                     on_click=lambda e, b=b: self.page.run_task(self.ask_restore, b))],
                                  spacing=4, expand=True)],
                       spacing=12, vertical_alignment=ft.CrossAxisAlignment.START) for b in found]
        self.backups.controls = rows or [ft.Text(_("No backup yet: one is made the next time the app starts."),
                                                 size=theme.BODY, color=theme.NOTE)]
        self.page.update(self.backups, self.restored)

    async def ask_restore(self, chosen) -> None:
        if self.refused("restore"):
            return
        now = len(await self.games.rows())
        dialog = ft.AlertDialog(
            title=ft.Text(_("Restore this backup?"), size=theme.LARGE, weight=ft.FontWeight.BOLD),
            content=ft.Text(n_("The copy of {when} holds {n} game; the app holds {now} now. The games as they are "
                               "now are kept as a backup first: restoring that one undoes this.",
                               "The copy of {when} holds {n} games; the app holds {now} now. The games as they are "
                               "now are kept as a backup first: restoring that one undoes this.", chosen.games,
                               when=backup_time(chosen.name), now=now),
                            size=theme.BODY),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: self.page.pop_dialog()),
                     ft.FilledButton(n_("Restore {n} game", "Restore {n} games", chosen.games),
                                     on_click=lambda e: self.page.run_task(self.restore, chosen))])
        self.page.show_dialog(dialog)

    async def restore(self, chosen) -> None:
        self.page.pop_dialog()
        if self.refused("restore"):
            return
        try:
            kept = await self.games.run(self.games.store.restore, chosen.name)
        except Exception as exc:
            log.exception("restore")
            self.restored.value = _("Not restored: {reason}", reason=exc)
        else:
            when = backup_time(chosen.name)
            if kept:
                said = n_("Restored the copy of {when}: {n} game. Games in progress stayed as they are. The games "
                          "as they were are kept as the newest backup.",
                          "Restored the copy of {when}: {n} games. Games in progress stayed as they are. The games "
                          "as they were are kept as the newest backup.", chosen.games, when=when)
            else:
                said = n_("Restored the copy of {when}: {n} game. Games in progress stayed as they are.",
                          "Restored the copy of {when}: {n} games. Games in progress stayed as they are.",
                          chosen.games, when=when)
            self.restored.value = said
        await self.list_backups()
        await self.say_where()
