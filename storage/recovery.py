"""What Store.open does before it hands the store out: check every file, repair, back up.

- First of all, a change of many files that a kill cut short is completed or undone
  (commit.recover): everything below reads a store that is wholly before or after it.
- Temporary files of interrupted writes and half-made backups are swept.
- Every in-progress game file is parsed and validated; a history chunk whose checksum still
  matches its index is what the store wrote (and validated) itself, any other chunk is
  parsed and validated record by record.
- Records of an older version are migrated and written back; a newer one stops the open
  (StoreTooNew) before anything is changed.
- A file that does not parse or validate is moved aside under a name that says so (never
  deleted) and the newest good copy in the backups is put back; then every game of the
  newest backup (the store at the last successful open) that is missing or older here is
  brought back, so nothing stored at the last successful start is lost.
- A damaged or stale index is rebuilt from its chunk; a game found twice keeps the copy
  with the higher revision.
- Every file these steps write (migrated records, repairs, rebuilt indexes) is one
  all-or-nothing change (commit.py): a kill during them leaves the store as it was, and the
  next open does them again.
- Finally the rolling backup is taken.
"""
from __future__ import annotations

import gc
import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from scoring import VERSION

from . import backup, commit
from .api import StoreError
from .areas import Areas
from .atomic import fsync_dir, hard_link, remove_durably, sha256, sweep_temp_files, write_atomic
from .checks import BadFile, check_active, check_chunk, check_game, check_index, known_index
from .layout import ACTIVE_DIR, CHUNK_RE, INDEX_RE, RECOVERY_MARKER, chunk_name, index_name
from .statcache import Key, StatCache, stat_key
from .summary import index_row


class Opening:
    def __init__(self, root: Path, areas: Areas, take_backup: bool = True):
        self.root = root
        self.areas = areas
        self.files = areas.files
        self.take_backup = take_backup
        self.notices: list[str] = []
        self.damaged = False  # a file holding games was set aside (now or by a cut-short open)
        self.clashes: list[tuple[str, int, int]] = []
        self.salvaged: list[tuple[dict, Any]] = []  # sound games of files moved aside
        # Games a moved-aside file held (by its own text, else by its index): each must be
        # in the store when the repair is done, or be named as lost (#22). id -> (words, file)
        self.were_there: dict[str, tuple[str, str | None]] = {}
        self.listed: dict[int, dict] = {}  # the rows of the index of the chunk being opened
        self.stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        self.stats = StatCache(root)  # sha256 of files unchanged since the last open, unread
        self.described: set[int] = set()  # chunks whose index file describes them (for the cache)

    def run(self) -> None:
        # Before anything reads or sweeps: a change cut short is rolled forward or back, so
        # that the store is wholly as before it or wholly as after it (commit.py).
        notices, bad_journal = commit.recover(self.root, self.stamp)
        self.notices += notices
        sweep_temp_files(self.root)
        sweep_temp_files(self.root / ACTIVE_DIR)
        backup.sweep_partial(self.root)
        marker = self.root / RECOVERY_MARKER
        # A repair cut short by a kill: the newest backup is still the one from before it.
        self.damaged = marker.exists()
        if bad_journal:
            self._mark_damaged()
        with self.files.all_or_nothing():  # migrations and repairs: one commit
            self._open_active()
            self._open_history()
            if self.damaged:
                self._recover_from_backup()
                self._keep_salvaged()
            self._resolve_duplicates()
            self._name_the_lost()
        if self.take_backup:
            digests = self.stats.still_true()
            digests.update({chunk_name(n): c.sha256 for n, c in self.areas.history.chunks.items()
                            if c.sha256 and (self.root / chunk_name(n)).exists()})
            backup.take(self.root, digests)
            for chunk in self.areas.history.chunks.values():
                if isinstance(chunk.load, IndexLoader):
                    chunk.load.settle()
            remove_durably(marker)
            history = self.areas.history
            self.stats.save(self.stats.still_true(), {
                index_name(n): (c.sha256, VERSION, history.ids(n))
                for n, c in history.chunks.items() if n in self.described and c.sha256})
        self.areas.history.forget()

    def _mark_damaged(self) -> None:
        """Until the repaired store is backed up, a marker says a repair is under way."""
        if not self.damaged or not (self.root / RECOVERY_MARKER).exists():
            write_atomic(self.root / RECOVERY_MARKER, b"a damaged file was found; repair under way\n")
        self.damaged = True

    # --- in-progress games ------------------------------------------------------------
    def _open_active(self) -> None:
        for path in self.areas.active.files():
            rel = f"{ACTIVE_DIR}/{path.name}"
            check = lambda raw, name=path.name: check_active(raw, name)  # noqa: E731
            raw, _ = self.stats.read(rel)
            try:
                doc, record, migrated = check(raw)
            except BadFile as bad:
                restored = self._set_aside_and_restore(rel, bad, raw, check, "game in progress")
                if restored is None:
                    continue
                doc, record, migrated = restored[1]
            if migrated:
                self.areas.active.put(doc, record)
            else:
                self.areas.active.adopt(doc, record)

    # --- history ------------------------------------------------------------------------
    def _open_history(self) -> None:
        numbers = sorted({int(m.group(1)) for p in self.root.iterdir()
                          for m in [CHUNK_RE.match(p.name) or INDEX_RE.match(p.name)] if m})
        # Parsing 10,000 index rows allocates ~1M objects, none of them cyclic garbage: the
        # collections this would trigger (each walking everything allocated so far) cost more
        # than the parse. Paused here only, and restored as it was.
        paused = gc.isenabled()
        gc.disable()
        try:
            for n in numbers:
                self._open_chunk(n)
        finally:
            if paused:
                gc.enable()

    def _open_chunk(self, n: int) -> None:
        chunk_rel, index_rel = chunk_name(n), index_name(n)
        chunk_path, index_path = self.root / chunk_rel, self.root / index_rel
        known = self.stats.index_ids(index_rel) if chunk_path.exists() else None
        if known is not None and known[1] == VERSION and self.stats.clean(chunk_rel) == known[0]:
            # Both unchanged since the last open, where the index described the chunk: the
            # game ids are in the cache, the rows are parsed when first wanted.
            self.clashes += self.areas.history.adopt_unparsed(n, known[2], known[0],
                                                              self._index_loader(index_rel, known[2]))
            self.described.add(n)
            return
        rows = index_digest = None
        self.listed = {}
        if index_path.exists():
            try:
                raw, _, clean = self.stats.read_clean(index_rel)
                # Unchanged since the last open, where it validated: the same bytes validate.
                index_digest, rows = (known_index if clean else check_index)(raw)
                self.listed = rows
            except BadFile as bad:
                aside = self._set_aside(index_rel, bad.reason)
                for gid in _ids_in(raw):  # the games it listed must come back from the chunk, or be named
                    self.were_there.setdefault(gid, (f"game {gid}", None))
                self.notices.append(f"{index_rel} {_words(bad.reason)} ({bad.detail}); moved aside as "
                                    f"{aside}; rebuilt it from {chunk_rel}.")
        if not chunk_path.exists():
            found = backup.good_copy(self.root, chunk_rel, check_chunk)
            self._mark_damaged()
            if found is None:
                if index_path.exists():
                    aside = self._set_aside(index_rel, "without-its-history-file")
                    self.notices.append(f"{chunk_rel} is missing and no backup holds it; its index "
                                        f"was moved aside as {aside}.")
                return
            self.files.write(chunk_path, found[1])
            self.notices.append(f"{chunk_rel} was missing; restored it from {backup.describe(found[0])}.")
            raw, checked = found[1], found[2]
        else:
            # A chunk whose stat is as at the last open has the sha256 it had then: not read.
            raw, digest = None, self.stats.clean(chunk_rel)
            if digest is None:
                raw, digest = self.stats.read(chunk_rel)
            if rows is not None and index_digest == digest and all(r["version"] == VERSION for r in rows.values()):
                self.clashes += self.areas.history.adopt(n, rows, digest)
                self.described.add(n)
                return
            if raw is None:
                raw, digest = self.stats.read(chunk_rel)
            try:
                checked = check_chunk(raw)
            except BadFile as bad:
                restored = self._set_aside_and_restore(chunk_rel, bad, raw, check_chunk, "history file")
                if restored is None:
                    if index_path.exists():
                        self._set_aside(index_rel, "of-a-moved-aside-file")
                    return
                raw, checked = restored
        rows = {doc_id: index_row(record, doc["revision"]) for doc_id, (doc, record, _) in checked.items()}
        migrated = {doc_id: doc for doc_id, (doc, _, was_migrated) in checked.items() if was_migrated}
        self.clashes += self.areas.history.adopt(n, rows, sha256(raw), write_docs=migrated)

    def _index_loader(self, rel: str, ids: dict[int, str]) -> "IndexLoader":
        return IndexLoader(self.root / rel, rel, ids, self.stats.key_seen(rel))

    # --- damaged files -------------------------------------------------------------------
    def _set_aside(self, rel: str, reason: str, raw: bytes | None = None) -> str:
        """Give a bad file a name that says so. With `raw` (its bytes) the bad file also stays
        under its own name, to be replaced atomically by a good copy: a kill in between
        leaves a bad file to find again, never a missing one."""
        path = self.root / rel
        base = f"{path.stem}.{reason}-{self.stamp}"
        target, k = path.with_name(base + path.suffix), 1
        while target.exists():
            k += 1
            target = path.with_name(f"{base}-{k}{path.suffix}")
        if raw is None:
            path.replace(target)
        else:
            if not hard_link(path, target):
                write_atomic(target, raw)
        fsync_dir(path.parent)
        return str(target.relative_to(self.root)).replace("\\", "/")

    def _set_aside_and_restore(self, rel: str, bad: BadFile, raw: bytes, check: Callable[[bytes], Any],
                               what: str) -> tuple[bytes, Any] | None:
        self._mark_damaged()
        self.salvaged += _sound_games(raw)
        aside = self._set_aside(rel, bad.reason, raw)
        listed = self.listed if what == "history file" else {}
        for row in listed.values():
            self.were_there.setdefault(row["id"], (_described(row), aside))
        for gid in _ids_in(raw):
            self.were_there.setdefault(gid, (f"game {gid}", aside))
        for gid, (words, where) in self.were_there.items():  # listed by its index, moved aside before it
            if where is None and what == "history file":
                self.were_there[gid] = (words, aside)
        found = backup.good_copy(self.root, rel, check)
        note = f"{rel} ({what}) {_words(bad.reason)} ({bad.detail}); moved aside as {aside}"
        if found is None:
            self.files.remove(self.root / rel)
            self.notices.append(note + "; no backup holds a good copy of it.")
            return None
        self.files.write(self.root / rel, found[1])
        self.notices.append(note + f"; restored it from {backup.describe(found[0])}.")
        return found[1], found[2]

    def _recover_from_backup(self) -> None:
        """Bring back every game of the newest backup that is missing here or older here."""
        latest = next(iter(backup.backups(self.root)), None)
        if latest is None:
            return
        wanted: list[tuple[dict, Any]] = []
        folder = latest / ACTIVE_DIR
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            try:
                doc, record, _ = check_active(path.read_bytes(), path.name)
            except Exception:  # noqa: BLE001 - a bad backup copy is no worse than none
                continue
            if self._is_newer(doc):
                wanted.append((doc, record))
        for path in sorted(latest.iterdir()):
            if not CHUNK_RE.match(path.name):
                continue
            try:
                checked = check_chunk(path.read_bytes())
            except Exception:  # noqa: BLE001
                continue
            wanted += [(doc, record) for doc, record, _ in checked.values() if self._is_newer(doc)]
        if wanted:
            self.areas.place_many([(doc, record, None) for doc, record in wanted])
            games = "game" if len(wanted) == 1 else "games"
            self.notices.append(f"brought back {len(wanted)} {games} from {backup.describe(latest)}.")

    def _keep_salvaged(self) -> None:
        """Games of a moved-aside file that validate on their own and are newer than what the
        backups gave back (saved since the last start): one bad record costs only itself."""
        newest: dict[str, tuple[dict, Any]] = {}
        for doc, record in self.salvaged:
            if self._is_newer(doc) and (doc["id"] not in newest or newest[doc["id"]][0]["revision"] < doc["revision"]):
                newest[doc["id"]] = (doc, record)
        if newest:
            self.areas.place_many([(doc, record, None) for doc, record in newest.values()])
            games = "game" if len(newest) == 1 else "games"
            self.notices.append(f"kept {len(newest)} sound {games} saved since the last start "
                                f"from the file moved aside.")

    def _name_the_lost(self) -> None:
        """Each game a moved-aside file held that neither the backups nor the file itself gave
        back, named: a repair never drops a game without a word (#22)."""
        for gid, (words, aside) in self.were_there.items():
            if gid not in self.areas:
                kept = f"; what is left of it is in {aside}" if aside else ""
                self.notices.append(f"could not keep {words}: its file is damaged and no backup "
                                    f"holds it{kept}.")

    def _is_newer(self, doc: dict) -> bool:
        here = self.areas.revision(doc["id"])
        return here is None or here < doc["revision"]

    def _resolve_duplicates(self) -> None:
        history, active = self.areas.history, self.areas.active
        for game_id, n, doc_id in self.clashes:
            other = history.chunks[n].rows[doc_id]
            if other["revision"] > history.row(game_id)["revision"]:
                kept_n, kept_id = history.where[game_id]
                history.where[game_id] = (n, doc_id)
                history.remove_doc(kept_n, kept_id)
            else:
                history.remove_doc(n, doc_id)
        for game_id in sorted(set(active.games) & set(history.where)):
            ongoing, done = active.games[game_id], history.row(game_id)
            if ongoing.revision > done["revision"] or (ongoing.revision == done["revision"]
                                                       and ongoing.record.finished is None):
                history.remove(game_id)
            else:
                active.remove(game_id)


# Where a stored game starts in a TinyDB file: "12": {"id": "…" (the store writes docs so).
_DOC_START = re.compile(r'"\d+"\s*:\s*(\{\s*"id"\s*:\s*"((?:[^"\\]|\\.){1,200})")')
_DECODER = json.JSONDecoder()


def _ids_in(raw: bytes) -> list[str]:
    """The game ids a store file's text names at the start of its documents, even when the
    file no longer parses (cut short, a byte changed): to name each game a repair could not keep."""
    ids = []
    for m in _DOC_START.finditer(raw.decode("utf-8", "replace")):
        try:
            gid = json.loads('"' + m.group(2) + '"')
            gid.encode("utf-8")
        except (ValueError, UnicodeError):
            continue
        ids.append(gid)
    return ids


def _sound_games(raw: bytes) -> list[tuple[dict, Any]]:
    """The games of a file moved aside which validate one by one: all of them when it parses,
    else each document that still reads whole (a file cut short keeps the games before the cut)."""
    try:
        data = json.loads(raw)
        tables = [t for name, t in data.items() if name in ("game", "games") and isinstance(t, dict)]
    except (ValueError, AttributeError, RecursionError):  # did not parse: read it game by game
        text = raw.decode("utf-8", "replace")
        docs: dict[str, Any] = {}
        for m in _DOC_START.finditer(text):
            try:
                docs[str(len(docs))], _ = _DECODER.raw_decode(text, m.start(1))
            except (ValueError, RecursionError):
                continue
        tables = [docs]
    sound = []
    for table in tables:
        for doc in table.values():
            try:
                doc, record, _ = check_game(doc, "")
            except Exception:  # noqa: BLE001 - the bad ones stay in the moved-aside file
                continue
            sound.append((doc, record))
    return sound


def _described(row: dict) -> str:
    """A game as a player finds it in the history: 'game g1 (panda-royale of 2026-11-22: Ann, Ben)'."""
    names = ", ".join(str(p[1]) for p in row.get("players", ()))
    when = (row.get("created") or row.get("finished") or "")[:10]
    return f"game {row['id']} ({row.get('game')}{' of ' + when if when else ''}: {names})"


def _words(reason: str) -> str:
    return reason.replace("-", " ")


class IndexLoader:
    """Parses an index found unchanged at open when a row is first wanted (history.py): the
    same bytes as at open, or it refuses. The store holds the folder and parses an index
    before it writes it, so only a change from outside makes it refuse."""

    def __init__(self, path: Path, rel: str, ids: dict[int, str], key: Key | None):
        self.path, self.rel, self.ids, self.key = path, rel, ids, key

    def settle(self) -> None:
        """After the backup's hard link (which changes only the ctime): the stat to expect,
        ctime included, so that any later write to the file shows."""
        try:
            now = stat_key(self.path)
        except OSError:
            return
        if self.key is not None and now[:3] == self.key[:3]:
            self.key = now

    def __call__(self) -> dict[int, dict]:
        problem = "changed while the store was open, not by this app"
        try:
            if self.key is not None and stat_key(self.path) == self.key:
                _, rows = known_index(self.path.read_bytes())
                if {doc_id: row["id"] for doc_id, row in rows.items()} == self.ids:
                    return rows
                problem = "no longer lists the games it listed at open"
        except (OSError, BadFile) as exc:
            problem = f"cannot be read ({exc})"
        raise StoreError(f"{self.rel} {problem}; restart the app so that it checks the folder again "
                         "(nothing was changed)")
