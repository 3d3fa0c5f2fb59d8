"""All or nothing across files: a change of many store files commits with one atomic rename.

    with files.all_or_nothing("an import of 3,000 games"):
        ...every write and removal of a store file in here is staged...
    # committed: a kill at any moment leaves the store as before the block or as after it

Outside such a block a write is one file replaced atomically (atomic.write_atomic): a tap
still rewrites only its own game's file, at the same cost as before.

Inside one, each store file written is staged under `.<name>.txn-<12 hex>` in the folder of
the file it will replace, fsynced, and not yet seen by anyone; a removal is only noted. At the
end (`commit`):

1. the folders holding staged files are fsynced (their names are durable);
2. COMMIT_FILE (`commit.json`) is written atomically: every (staged name, final name,
   sha256) to put in place and every file to remove. Its rename into place, fsynced, is the
   commit point: before it the old files are untouched, after it the new ones are decided;
3. each staged file is renamed over its final name, each removal done, folders fsynced;
4. COMMIT_FILE is removed (fsynced): the change is over.

`recover` runs first at every open, before anything else reads or sweeps the folder. With a
COMMIT_FILE it rolls forward: a staged file still there is renamed into place; one already
gone was renamed before the kill (its final file has the sha256 named: nothing to do);
removals are done again (removing twice is removing once). Only then is COMMIT_FILE removed,
so a kill during recovery leaves it in place and the next open simply recovers again. Without
a COMMIT_FILE nothing was committed: every staged file is deleted (roll back) and the old
files, never touched, are the store. A COMMIT_FILE half written cannot exist: it is written
as a hidden temporary file renamed into place (a leftover temporary one is swept as ever).

A small intent file, `.change.txn-<12 hex>`, is staged with the first file of a change and
says what the change was, so that the next open can tell the user, in words, that an import
cut short was undone (or completed) and that nothing was lost.
"""
from __future__ import annotations

import json
import os
import re
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .api import ReadOnly
from .atomic import dump_bytes, fsync_dir, remove_durably, sha256, write_atomic, write_synced
from .layout import ACTIVE_DIR, is_store_file

COMMIT_FILE = "commit.json"
COMMIT_FORMAT = "pandapad/commit"
STAGED_RE = re.compile(r"^\..+\.txn-[0-9a-f]{12}$")
INTENT_PREFIX = ".change.txn-"


def _write_synced(path: Path, data: bytes) -> None:
    """Write a staged file (created or truncated) and fsync it; its name is made durable by
    the commit's fsync of its folder."""
    write_synced(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o644), data)


def _put_in_place(staged: Path, final: Path) -> None:
    os.replace(staged, final)


def _remove(final: Path) -> None:
    final.unlink(missing_ok=True)


class Change:
    """The files staged by one all-or-nothing change."""

    def __init__(self, root: Path, what: str | None):
        self.root = root
        self.what = what
        self.token = secrets.token_hex(6)
        self.staged: dict[Path, tuple[Path, str]] = {}  # final -> (staged file, sha256)
        self.removed: set[Path] = set()
        self.intent: Path | None = None
        self.committed = False  # past the commit point: only recovery may touch the staged files

    def write(self, final: Path, data: bytes) -> None:
        if self.intent is None:
            self.intent = self.root / f"{INTENT_PREFIX}{self.token}"
            _write_synced(self.intent, dump_bytes({"what": self.what}))
        staged = self.staged.get(final, (final.with_name(f".{final.name}.txn-{self.token}"), ""))[0]
        _write_synced(staged, data)
        self.staged[final] = (staged, sha256(data))
        self.removed.discard(final)

    def remove(self, final: Path) -> None:
        if final in self.staged:
            self.staged.pop(final)[0].unlink(missing_ok=True)
        self.removed.add(final)

    def read(self, final: Path) -> bytes | None:
        """The file as this change leaves it so far (None: removed or missing)."""
        if final in self.staged:
            return self.staged[final][0].read_bytes()
        if final in self.removed:
            return None
        try:
            return final.read_bytes()
        except FileNotFoundError:
            return None

    def exists(self, final: Path) -> bool:
        return final in self.staged or (final not in self.removed and final.exists())

    def commit(self) -> None:
        """Put the change in place. If this raises before the commit point, nothing of the
        change is kept; after it, the staged files stay for recovery to finish the change
        (never abandon a committed change: its journal needs them)."""
        try:
            removes = sorted(p for p in self.removed if p.exists())
            if not self.staged and not removes:
                self.abandon()
                return
            for folder in {self.root, *(staged.parent for staged, _ in self.staged.values())}:
                fsync_dir(folder)  # 1. every staged name is durable before the journal names it
            journal = {"format": COMMIT_FORMAT, "version": 1, "what": self.what,
                       "renames": [[_rel(self.root, staged), _rel(self.root, final), digest]
                                   for final, (staged, digest) in sorted(self.staged.items())],
                       "removes": [_rel(self.root, p) for p in removes]}
            write_atomic(self.root / COMMIT_FILE, dump_bytes(journal))  # 2. the commit point
        except BaseException:
            # write_atomic may fail after its rename: a journal in place is a commit
            self.committed = (self.root / COMMIT_FILE).exists()
            self.abandon()
            raise
        self.committed = True
        _finish(self.root, journal)  # 3. and 4.

    def abandon(self) -> None:
        """Nothing of this change is kept (best effort: the next open sweeps what is left).
        A committed change is never abandoned: its journal needs the staged files."""
        if self.committed:
            return
        for staged, _ in self.staged.values():
            staged.unlink(missing_ok=True)
        if self.intent is not None:
            self.intent.unlink(missing_ok=True)


class Files:
    """Every write of a store file goes through here: at once, or staged in a Change."""

    def __init__(self, root: Path):
        self.root = root
        self.change: Change | None = None
        self.refusal: str | None = None  # Store.reading_only(): why every write is refused

    @contextmanager
    def all_or_nothing(self, what: str | None = None) -> Iterator[None]:
        """Every write inside commits together when the block ends, or none does (an
        exception, a kill). Nested blocks are part of the outermost one. `what` names the
        change for the notice of the next open if a kill cuts it short (None: no notice)."""
        if self.change is not None:
            yield
            return
        self.change = change = Change(self.root, what)
        try:
            yield
        except BaseException:
            self.change = None
            change.abandon()
            raise
        self.change = None
        change.commit()

    def _refuse(self) -> None:
        if self.refusal is not None:
            raise ReadOnly(self.refusal)

    def write(self, path: Path, data: bytes) -> None:
        self._refuse()
        if self.change is None:
            write_atomic(path, data)
        else:
            self.change.write(path, data)

    def remove(self, path: Path) -> None:
        self._refuse()
        if self.change is None:
            remove_durably(path)
        else:
            self.change.remove(path)

    def read(self, path: Path) -> bytes | None:
        if self.change is None:
            try:
                return path.read_bytes()
            except FileNotFoundError:
                return None
        return self.change.read(path)

    def exists(self, path: Path) -> bool:
        return path.exists() if self.change is None else self.change.exists(path)


def _rel(root: Path, path: Path) -> str:
    return str(path.relative_to(root)).replace("\\", "/")


def _folders(root: Path) -> list[Path]:
    return [root] + ([root / ACTIVE_DIR] if (root / ACTIVE_DIR).is_dir() else [])


def _finish(root: Path, journal: dict, verify: bool = False) -> list[str]:
    """Steps 3 and 4 of a committed change; idempotent, so recovery runs it again after a
    kill. With verify (recovery), a file whose staged copy is gone must be the one the journal
    names (put in place before the kill); returns those that are not (none, unless something
    other than this store changed the folder)."""
    wrong = []
    for staged_rel, final_rel, digest in journal["renames"]:
        staged = root / staged_rel
        if staged.exists():
            _put_in_place(staged, root / final_rel)
        elif verify:  # put in place before a kill: the final file is the one named
            try:
                if sha256((root / final_rel).read_bytes()) != digest:
                    wrong.append(final_rel)
            except FileNotFoundError:
                wrong.append(final_rel)
    for final_rel in journal["removes"]:
        _remove(root / final_rel)
    _sweep_staged(root)  # the intent file too: gone before the journal, never after it
    remove_durably(root / COMMIT_FILE)
    return wrong


class BadJournal(ValueError):
    pass


def _check_journal(raw: bytes) -> dict:
    try:
        journal = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadJournal("it does not parse") from None
    if not isinstance(journal, dict) or journal.get("format") != COMMIT_FORMAT:
        raise BadJournal("it is not a Pandapad commit journal")
    renames, removes = journal.get("renames"), journal.get("removes")
    if not isinstance(renames, list) or not isinstance(removes, list):
        raise BadJournal("it lacks its lists of renames and removals")
    for item in renames:  # only ever a staged file onto a store file of the same folder
        if not (isinstance(item, list) and len(item) == 3 and all(isinstance(s, str) for s in item)
                and is_store_file(item[1]) and STAGED_RE.match(item[0].rsplit("/", 1)[-1])
                and item[0].rpartition("/")[0] == item[1].rpartition("/")[0]):
            raise BadJournal(f"it names a rename that is not the store's: {item!r}")
    for item in removes:
        if not (isinstance(item, str) and is_store_file(item)):
            raise BadJournal(f"it names a removal that is not the store's: {item!r}")
    return journal


def _intents(root: Path) -> list[str | None]:
    found = []
    for entry in root.iterdir():
        if entry.name.startswith(INTENT_PREFIX) and STAGED_RE.match(entry.name):
            try:
                what = json.loads(entry.read_bytes()).get("what")
            except (OSError, ValueError, AttributeError, RecursionError):
                what = None  # cut short while written: the change named nothing yet
            found.append(what if isinstance(what, str) else None)
    return found


def _sweep_staged(root: Path) -> None:
    """Delete the staged files left (after a roll forward: none but the intent) and make
    every rename and removal in the store's folders durable."""
    for folder in _folders(root):
        for entry in folder.iterdir():
            if STAGED_RE.match(entry.name) and entry.is_file():
                entry.unlink(missing_ok=True)
        fsync_dir(folder)


def recover(root: Path, stamp: str) -> tuple[list[str], bool]:
    """Finish or undo a change that a kill cut short. Returns (notices, damaged): damaged
    when a commit journal itself was unreadable (set aside; the opener then brings back the
    last backup's games, as for any damaged file)."""
    notices: list[str] = []
    journal_path = root / COMMIT_FILE
    if journal_path.exists():
        try:
            journal = _check_journal(journal_path.read_bytes())
        except BadJournal as bad:
            aside = journal_path.with_name(f"commit.did-not-validate-{stamp}.json")
            journal_path.replace(aside)
            fsync_dir(root)
            notices.append(f"{COMMIT_FILE} (the record of a change being put in place) could not be read "
                           f"({bad}); moved aside as {aside.name}.")
            _sweep_staged(root)
            return notices, True
        wrong = _finish(root, journal, verify=True)
        what = journal.get("what")
        if wrong:
            notices.append(f"{what if isinstance(what, str) else 'a change'} was cut short while its files "
                           f"were being put in place, and {', '.join(wrong)} is not what it wrote; the "
                           f"games of the last backup were checked for anything missing.")
            return notices, True
        if isinstance(what, str):
            notices.append(f"{what} was cut short while its files were being put in place; it was "
                           f"completed: every game it brought is stored and nothing was lost.")
        return notices, False
    for what in _intents(root):
        if what is not None:
            notices.append(f"{what} was cut short before it was written, so it was undone: the games "
                           f"are as they were before it and nothing was lost; do it again to finish it.")
    if notices or any(STAGED_RE.match(e.name) for folder in _folders(root) for e in folder.iterdir()):
        _sweep_staged(root)
    return notices, False
