"""The game store: one object per process, every method behind one lock.

    store = Store.open(data_dir)           # checks, repairs and backs up the folder
    saved = store.save(record, None)       # a new game -> Saved(record, revision=1, ...)
    saved = store.save(edited, saved.revision)   # each tap: durable when it returns
    saved = store.undo(game_id, saved.revision)  # undo/redo survive restarts

    with store.all_or_nothing():           # many changes, one commit: all stored, or none
        ...

Files and their layout: layout.py. Crash safety: atomic.py (one file), commit.py (many files).
What open() repairs: recovery.py.
"""
from __future__ import annotations

import json
import threading
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Callable, Iterator

from scoring import RecordBase, RecordError, names, parse_record

from . import journal, transfer
from .api import ImportReport, NothingToUndo, Saved, StaleSave, StoreError, Summary
from .areas import Areas
from .atomic import make_dirs
from .layout import ACTIVE_DIR, LOCK_FILE
from .lock import ProcessLock
from .recovery import Opening
from .summary import index_row, order_key, to_summary

IMPORT_BATCH = 200


class Store:
    def __init__(self, root: Path, lock: ProcessLock, areas: Areas, notices: list[str], stats=None):
        self.root = root
        self._stats = stats  # statcache.StatCache of the open: checksums of files unchanged since
        self.notices = notices  # what open() repaired, as sentences for a person; [] normally
        self._process_lock = lock
        self._areas = areas
        self._lock = threading.RLock()  # re-entered by the methods called in all_or_nothing()
        self._closed = False
        self._summaries: dict[str, tuple[int, dict[str, Any]]] = {}  # in progress: id -> (revision, row)

    @classmethod
    def open(cls, data_dir: Path) -> "Store":
        """Open (creating) the store in `data_dir`. Raises StoreBusy when another process
        has it open, StoreTooNew when it holds records newer than this app reads, StoreError
        when a file stands where the folder should be."""
        root = Path(data_dir)
        try:
            make_dirs(root)
        except (FileExistsError, NotADirectoryError):
            blocker = next((p for p in (root, *root.parents) if p.exists() and not p.is_dir()), root)
            raise StoreError(f"{root} is a file, not a folder" if blocker == root else
                             f"{root} cannot be made: {blocker} is a file, not a folder") from None
        lock = ProcessLock(root / LOCK_FILE)
        areas = Areas(root)
        try:
            opening = Opening(root, areas)
            opening.run()
        except BaseException:
            areas.close()
            lock.release()
            raise
        return cls(root, lock, areas, opening.notices, opening.stats)

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._areas.close()
                self._process_lock.release()

    @contextmanager
    def all_or_nothing(self, what: str | None = None) -> Iterator["Store"]:
        """Every save, undo, redo, delete and import made inside the block (by this thread:
        the store is locked meanwhile) is written when the block ends, all of them at once:
        a kill at any moment leaves the store as before the block or as after it, never
        a mixture (commit.py). A save inside is durable when the block returns, not before.
        An exception inside writes nothing; the store then reads its files again (the games
        it hands out are those of before the block). For a restore, a merge of players, or
        anything else that changes many games as one. `what` ("a restore from ...") names
        the change in the notice of the next open if a kill cuts it short."""
        with self._lock:
            self._check_open()
            with self._changing_together(what):
                yield self

    @contextmanager
    def _changing_together(self, what: str | None) -> Iterator[None]:
        files = self._areas.files
        if files.change is not None:  # part of an enclosing block
            yield
            return
        try:
            with files.all_or_nothing(what):
                yield
        except BaseException:
            self._reload()
            raise

    @contextmanager
    def reading_only(self, why: str) -> Iterator["Store"]:
        """Calls inside read as usual; the first write raises ReadOnly(why), and nothing of the
        call is written (the store reads its files again). For a phone whose storage was taken
        away under the app: its games can still be looked at and exported, never changed."""
        with self._lock:
            self._check_open()
            files = self._areas.files
            files.refusal = why
            try:
                with self._changing_together(None):
                    yield self
            finally:
                files.refusal = None

    def read_again(self) -> None:
        """The files were put back under the store (a phone's storage refused a change, and its
        folder was made again as the storage holds it): what the store hands out is read anew."""
        with self._lock:
            self._check_open()
            self._reload()

    def games_of_player(self, name: str) -> list[str]:
        """Ids of the games a player of this name (case aside) sits in, from the index rows."""
        key = names.key(name)
        return [r["id"] for r in self.rows() if any(names.key(p[1]) == key for p in r["players"])]

    def rename_player(self, name: str, new: str, keep_in_progress: bool = False) -> tuple[int, int]:
        """Every game where a player is called `name` (case aside) calls them `new`, all at
        once (a kill leaves every game as before or every game renamed). A game that already
        has a player called `new` (a merge of two people who sat at one table) is left as it
        is, and so is a game in progress with keep_in_progress (the app: phones are playing
        it). Returns (games renamed, games left as they were)."""
        if (problem := names.problem(new, [])) is not None:  # the words of the new-game form
            raise RecordError("", problem)
        key, new = names.key(name), names.tidy(new)
        renamed = kept = 0
        with self.all_or_nothing(f"a rename of {name} to {new}"):
            for game_id in self.games_of_player(name):
                if keep_in_progress and game_id in self._areas.active.games:
                    kept += 1
                    continue
                saved = self.load(game_id)
                seated = [names.key(p.name) for p in saved.record.players]
                if names.key(new) in seated and names.key(new) != key:
                    kept += 1
                    continue
                players = tuple(p.model_copy(update={"name": new}) if names.key(p.name) == key else p
                                for p in saved.record.players)
                self.save(saved.record.model_copy(update={"players": players}), saved.revision)
                renamed += 1
        return renamed, kept

    def backups(self) -> list:
        """The automatic backups, newest first (restore.Backup: name, when, games)."""
        from .restore import listing
        with self._lock:
            self._check_open()
            return listing(self.root)

    def restore(self, name: str) -> str:
        """Put back the backup `name`, all at once (a kill leaves the store as it was or as
        the backup), after keeping the store as it is now as a backup of its own: returns that
        backup's name, the way back. StoreError, and nothing changed, for a damaged backup.

        Games in progress stay as they are stored now, every tap in them (#24): phones may be
        playing them, and a restore must not take a tap back from under their pads. The
        backup's copy of such a game (in progress or finished then) is left out."""
        from . import backup
        from .restore import read_backup
        with self._lock:
            self._check_open()
            data = read_backup(self.root, name)  # whole and checked before anything is touched
            playing = {gid: json.loads(json.dumps(self._areas.active.doc(gid))) for gid in self._areas.active.games}
            kept = backup.take(self.root)
            files = self._areas.files
            try:
                with files.all_or_nothing(f"a restore of the backup {name}"):
                    for rel in backup.store_files(self.root):
                        if rel not in data and not rel.startswith(f"{ACTIVE_DIR}/"):
                            files.remove(self.root / rel)
                    for rel, raw in data.items():
                        if not (self.root / rel).exists() or not rel.startswith(f"{ACTIVE_DIR}/"):
                            files.write(self.root / rel, raw)
            finally:
                self._reload()  # what is on disk now, either way
            # A game being played now that the backup had finished later (restoring the way
            # back): the open reads the higher revision, so put the one being played back.
            for gid, doc in playing.items():
                if gid not in self._areas.active.games or self._areas.revision(gid) != doc["revision"]:
                    self._areas.place(doc, parse_record(doc["record"]))
            return kept.name if kept is not None else ""

    def _reload(self) -> None:
        """After a change that was not written (or not wholly): the files are the truth."""
        self._areas.close()
        self._summaries.clear()
        areas = Areas(self.root)
        try:
            opening = Opening(self.root, areas, take_backup=False)
            opening.run()
        except BaseException:
            areas.close()
            self._closed = True
            self._process_lock.release()
            raise
        self._areas = areas
        self._stats = opening.stats
        self.notices += opening.notices

    # --- one game ---------------------------------------------------------------------
    def save(self, record: RecordBase, expected_revision: int | None) -> Saved:
        """Store a new version of a game. expected_revision None means a new game;
        otherwise it must be the stored revision (StaleSave if not). Raises RecordError
        when the record does not validate. Durable (fsynced) when it returns."""
        data = record.to_json()
        checked = parse_record(data)
        if not checked.id:
            raise RecordError("id", "a stored game needs an id")
        if checked != record:  # upgraded or normalised (names trimmed): store what validated
            data = checked.to_json()
        with self._lock, self._forgetting():
            self._check_open()
            game_id = checked.id
            if expected_revision is None:
                stored = self._areas.revision(game_id)
                if stored is not None:
                    raise StaleSave(game_id, stored, f"game {game_id} is already stored (revision "
                                                     f"{stored}); load it instead of starting it again")
                doc = journal.new_doc(game_id, data)
            else:
                self._expect(game_id, expected_revision)
                old = self._areas.doc(game_id)
                if old["record"] == data:  # nothing changed: no write, same revision
                    return _saved(old, checked)
                doc = journal.saved(old, data)
            return _saved(self._areas.place(doc, checked), checked)

    def load(self, game_id: str) -> Saved:
        """The stored game; KeyError if unknown."""
        with self._lock:
            self._check_open()
            active = self._areas.active.games.get(game_id)
            if active is not None:
                return Saved(active.record, active.revision, active.can_undo, active.can_redo)
            if game_id not in self._areas.history.where:
                raise KeyError(game_id)
            with self._forgetting():
                doc = self._areas.history.doc(game_id)
            return _saved(doc, parse_record(doc["record"]))

    def undo(self, game_id: str, expected_revision: int, check: Callable | None = None) -> Saved:
        """Back one version (stored like a save: the revision still increases). `check(now,
        then)` sees the record and the one it goes back to first; what it raises stores nothing."""
        return self._step(game_id, expected_revision, "undo", check)

    def redo(self, game_id: str, expected_revision: int, check: Callable | None = None) -> Saved:
        return self._step(game_id, expected_revision, "redo", check)

    def _step(self, game_id: str, expected_revision: int, way: str, check: Callable | None = None) -> Saved:
        with self._lock, self._forgetting():
            self._check_open()
            self._expect(game_id, expected_revision)
            old = self._areas.doc(game_id)
            if not old[way]:
                raise NothingToUndo(f"game {game_id} has no {'earlier' if way == 'undo' else 'later'} "
                                    f"version to {way} to")
            try:
                doc = journal.undone(old) if way == "undo" else journal.redone(old)
                record = parse_record(doc["record"])
            except (RecordError, ValueError, KeyError, IndexError, TypeError) as exc:
                raise StoreError(f"the {way} history of game {game_id} is damaged ({exc}); "
                                 f"the game itself is intact") from None
            if check is not None:
                check(parse_record(old["record"]), record)
            return _saved(self._areas.place(doc, record), record)

    def delete(self, game_id: str) -> None:
        with self._lock:
            self._check_open()
            if game_id not in self._areas:
                raise KeyError(game_id)
            self._areas.remove(game_id)
            self._summaries.pop(game_id, None)

    # --- lists ------------------------------------------------------------------------
    def in_progress(self) -> list[Summary]:
        """Games not finished, newest first (by created)."""
        with self._lock:
            self._check_open()
            return [to_summary(r) for r in self._active_rows()]

    def recent(self, limit: int = 50) -> list[Summary]:
        """Finished games, newest first, read from the index (not the records)."""
        with self._lock:
            self._check_open()
            return [to_summary(r) for r in self._areas.history.newest(limit)]

    def rows(self) -> list[dict[str, Any]]:
        """Index rows of every game, in progress first then finished, each newest first:
        {id, revision, version, game, created, finished, order, players: [[id, name,
        total, place], ...], winners: [names]} (for `list` and the CSV export)."""
        with self._lock:
            self._check_open()
            history = self._areas.history.newest(len(self._areas.history.where))
            return self._active_rows() + history

    def known_players(self) -> list[str]:
        """Distinct player names of all stored games (names with the same key, case and hidden
        characters aside, count once, spelt as last used), most recently used first."""
        with self._lock:
            self._check_open()
            latest: dict[str, tuple[str, str]] = {}  # names.key -> (order, name)
            for row in list(self._areas.history.rows()) + self._active_rows():
                for player in row["players"]:
                    key = names.key(player[1])
                    if key not in latest or latest[key][0] < row["order"]:
                        latest[key] = (row["order"], player[1])
            return [name for _, name in sorted(latest.values(), key=lambda v: (v[0], v[1].casefold()),
                                                reverse=True)]

    def _active_rows(self) -> list[dict[str, Any]]:
        rows = []
        for game_id, game in self._areas.active.games.items():
            cached = self._summaries.get(game_id)
            if cached is None or cached[0] != game.revision:
                cached = self._summaries[game_id] = (game.revision, index_row(game.record, game.revision))
            rows.append(cached[1])
        return sorted(rows, key=lambda r: r["order"], reverse=True)

    # --- import and export ------------------------------------------------------------
    def import_data(self, data: Any) -> ImportReport:
        """Import an export file's data or a single record, all or nothing: RecordError
        (naming the record and the problem) and nothing stored if any record is bad."""
        return self.import_incoming(transfer.prepare(data))

    def import_incoming(self, games: list[transfer.Incoming], dry_run: bool = False,
                        keep_in_progress: bool = False) -> ImportReport:
        """Store games validated by transfer.read_import / prepare. A stored id is updated in
        place (the stored version stays one undo step away), never stored twice, and never
        taken back by an older or less complete copy (transfer.goes_back): that copy is left
        out whole and counted as kept, the stored game untouched. dry_run: count what an
        import would do (the app's preview) and write nothing. keep_in_progress (the app):
        a game in progress here is left as it is, counted as playing: phones may be on it."""
        what = f"an import of {len(games):,} {'game' if len(games) == 1 else 'games'}"
        with self._lock:
            self._check_open()
            # One all-or-nothing change (commit.py): a kill at any moment leaves the store as
            # before the import or as after it; an error writes nothing.
            with nullcontext() if dry_run else self._changing_together(what):
                report = self._import_batches(games, dry_run, keep_in_progress)
            if not dry_run and (report.new or report.updated):
                self._back_up()
            return report

    def _back_up(self) -> None:
        """A backup of the store as an import left it (#22): a history file damaged before the
        next open is then put back with the imported games, not from before them. Unchanged
        files are hard links; the chunks' checksums are known, so only indexes and active games
        are hashed."""
        from . import backup
        from .layout import chunk_name
        digests = self._stats.still_true() if self._stats is not None else {}
        digests.update({chunk_name(n): c.sha256 for n, c in self._areas.history.chunks.items()
                        if c.sha256 and (self.root / chunk_name(n)).exists()})
        try:
            backup.take(self.root, digests)
        except OSError:  # the import is stored; a backup that cannot be written is taken at the next open
            pass

    def _import_batches(self, games: list[transfer.Incoming], dry_run: bool, keep_in_progress: bool = False
                        ) -> ImportReport:
        now = transfer.now_iso()
        new_ids, updated, unchanged, kept, playing = [], 0, 0, 0, 0
        as_new: list[tuple[str, str, str, str]] = []
        problems: list[tuple[str, str, tuple[str, ...]]] = []
        odd: dict[str, tuple[str, ...]] = {}  # names that would not show as written, as they are
        for start in range(0, len(games), IMPORT_BATCH):  # a batch of records in memory at a time
            items = []
            for game in games[start:start + IMPORT_BATCH]:
                data, row = json.loads(game.record), game.row
                for player in row["players"]:
                    if player[1] not in odd and (how := names.how_it_differs(player[1])):
                        odd[player[1]] = how
                if keep_in_progress and game.id in self._areas.active.games:
                    playing += 1
                    continue
                gid = game.id
                old = self._areas.doc(gid) if gid in self._areas else None
                why = transfer.other_game(old["record"], data) if old is not None else None
                if why is not None:  # never turn a stored game into another one: keep both
                    gid = transfer.new_id_for(game.id, game.record)
                    data["id"], row = gid, {**row, "id": gid}
                    old = self._areas.doc(gid) if gid in self._areas else None
                    if old is None:
                        as_new.append((game.place, game.id, gid, why))
                if game.undated:
                    data["created"] = (old["record"].get("created") if old else None) or data["finished"] or now
                    row = {**row, "created": data["created"], "order": order_key(data["created"], data["finished"])}
                if old is None:
                    items.append((journal.new_doc(gid, data), None, row))
                    new_ids.append(gid)
                elif old["record"] == data:
                    unchanged += 1
                    continue
                elif transfer.goes_back(old["record"], data):
                    kept += 1
                    continue
                else:
                    items.append((journal.saved(old, data), None, row))
                    updated += 1
                if game.problems:
                    problems.append((game.place, gid, game.problems))
            if not dry_run:
                self._areas.place_many(items)
            self._areas.history.forget()
        return ImportReport(len(new_ids), updated, unchanged, new_ids, kept, playing, as_new, problems,
                            list(odd.items()))

    def export_data(self) -> dict[str, Any]:
        """{"format": "pandapad/export", "version": 1, "exported": now, "games": [records]}:
        games in progress, then the history in the order it was stored; the caller's to keep."""
        return transfer.export_envelope([json.loads(json.dumps(r)) for r in self.iter_records()])

    def iter_records(self) -> Iterator[dict[str, Any]]:
        """Every stored record, as export_data orders them, with one history file in memory
        at a time (for exporting 10,000 games). The store's lock is taken once for the list
        of games and once per batch (the games in progress, then one history file), never
        held while the caller has a record: a reader that stops early (a closed pipe) or
        saves meanwhile cannot block the store. Games stored after the start are left out;
        a game deleted meanwhile is skipped; a game that moved (finished or undone) is given
        once, as it is when its batch is read. The dicts are the store's own: serialise them,
        never change or keep them (the store never changes a record in place, it replaces it)."""
        with self._lock:
            self._check_open()
            by_chunk: dict[int, list[tuple[int, str]]] = {n: [] for n in self._areas.history.chunks}
            for game_id, (n, doc_id) in self._areas.history.where.items():
                by_chunk[n].append((doc_id, game_id))
            batches = [list(self._areas.active.games)] + [[gid for _, gid in sorted(ids)]
                                                         for ids in by_chunk.values() if ids]
        for batch in batches:
            with self._lock, self._forgetting():
                self._check_open()
                records = [self._areas.doc(gid)["record"] for gid in batch if gid in self._areas]
            yield from records

    # --- helpers ----------------------------------------------------------------------
    @contextmanager
    def _forgetting(self) -> Iterator[None]:
        """Drop the parsed history files an operation read (see HistoryArea.forget)."""
        try:
            yield
        finally:
            self._areas.history.forget()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _expect(self, game_id: str, expected_revision: int) -> None:
        stored = self._areas.revision(game_id)
        if stored is None:
            raise StaleSave(game_id, 0, f"game {game_id} is no longer stored (it was deleted, perhaps "
                                        f"on another device); this edit cannot be saved")
        if stored != expected_revision:
            raise StaleSave(game_id, stored, f"game {game_id} was changed elsewhere: it is at revision "
                                             f"{stored}, but this edit is based on revision "
                                             f"{expected_revision}; reload the game and apply the edit again")


def _saved(doc: dict[str, Any], record: RecordBase) -> Saved:
    return Saved(record, doc["revision"], bool(doc["undo"]), bool(doc["redo"]))
