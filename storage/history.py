"""Finished games: chunk files of up to CHUNK_GAMES records, each with a small index file.

The index (index-NNNN.json) holds one summary row per game and the sha256 of the chunk file
it describes. At open, a chunk whose bytes still match that checksum is exactly what this
store wrote after validating every record, so only the small index is parsed; a mismatch
(a crash between the two writes, or a file changed behind the store's back) makes the
opener check the chunk record by record and rebuild its index.
"""
from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from tinydb import TinyDB

from .atomic import open_tinydb, replace_docs, table_docs
from .commit import Files
from .layout import CHUNK_GAMES, chunk_name, index_name

GAMES, SUMMARIES, META = "games", "summaries", "meta"


@dataclass
class Chunk:
    n: int
    games: TinyDB
    index: TinyDB
    _rows: dict[int, dict[str, Any]] | None = field(default_factory=dict)  # doc id -> index row
    sha256: str | None = None  # of the chunk file as last written or verified
    # An index found unchanged at open (statcache.py) is parsed when a row is first wanted:
    # an open that looks at one game (`main.py import`) then parses no other chunk's index.
    load: Callable[[], dict[int, dict[str, Any]]] | None = None
    known_ids: dict[int, str] = field(default_factory=dict)  # doc id -> game id while unparsed

    @property
    def rows(self) -> dict[int, dict[str, Any]]:
        if self._rows is None:
            self._rows, self.load = self.load(), None
        return self._rows

    @rows.setter
    def rows(self, rows: dict[int, dict[str, Any]]) -> None:
        self._rows, self.load = rows, None

    def next_id(self) -> int:
        return max(self.rows, default=0) + 1


class HistoryArea:
    def __init__(self, root: Path, files: Files):
        self.root = root
        self.files = files
        self.chunks: dict[int, Chunk] = {}
        self.where: dict[str, tuple[int, int]] = {}  # game id -> (chunk, doc id)
        # Every row, newest first, until a chunk's rows change: the history screen asks for
        # all of them on each tap, and sorting 10,000 rows each time showed in that tap.
        self._newest: list[dict[str, Any]] | None = None

    # --- reading --------------------------------------------------------------
    def row(self, game_id: str) -> dict[str, Any]:
        n, doc_id = self.where[game_id]
        return self.chunks[n].rows[doc_id]

    def rows(self) -> Iterator[dict[str, Any]]:
        self.load_all()
        for chunk in self.chunks.values():
            yield from chunk.rows.values()

    def load_all(self) -> None:
        """Parse every index not parsed yet. ~100 objects a row, none of them cyclic garbage:
        the collections this would trigger cost more than the parse, so they wait."""
        waiting = [c for c in self.chunks.values() if c._rows is None]
        if not waiting:
            return
        paused = gc.isenabled()
        gc.disable()
        try:
            for chunk in waiting:
                chunk.rows  # noqa: B018 - the property parses it
        finally:
            if paused:
                gc.enable()

    def newest(self, limit: int) -> list[dict[str, Any]]:
        if self._newest is None:
            self._newest = sorted(self.rows(), key=lambda r: r["order"], reverse=True)
        return self._newest[:limit]

    def doc(self, game_id: str) -> dict[str, Any]:
        """The stored journal (shared with TinyDB's cache: read it, never mutate it)."""
        n, doc_id = self.where[game_id]
        return table_docs(self.chunks[n].games, GAMES)[doc_id]

    def docs(self) -> Iterator[dict[str, Any]]:
        """Every stored journal, one chunk in memory at a time."""
        for chunk in list(self.chunks.values()):
            yield from table_docs(chunk.games, GAMES).values()
            chunk.games.storage.forget()  # export must not keep 10,000 games in memory

    # --- opening ----------------------------------------------------------------
    def chunk(self, n: int) -> Chunk:
        if n not in self.chunks:
            self.chunks[n] = Chunk(n, open_tinydb(self.root / chunk_name(n), self.files),
                                   open_tinydb(self.root / index_name(n), self.files))
        return self.chunks[n]

    def adopt_unparsed(self, n: int, ids: dict[int, str], sha256: str,
                       load: Callable[[], dict[int, dict[str, Any]]]) -> list[tuple[str, int, int]]:
        """adopt() for a chunk and index unchanged since the last open: its game ids are known
        (statcache.py), its rows are parsed by load() when first wanted."""
        chunk = self.chunk(n)
        chunk._rows, chunk.load, chunk.sha256, chunk.known_ids = None, load, sha256, dict(ids)
        self._newest = None
        clashes = []
        for doc_id, game_id in ids.items():
            if game_id in self.where:
                clashes.append((game_id, n, doc_id))
            else:
                self.where[game_id] = (n, doc_id)
        return clashes

    def ids(self, n: int) -> dict[int, str]:
        """doc id -> game id of a chunk (for the stat cache), parsed or not."""
        chunk = self.chunks[n]
        if chunk._rows is None:
            return dict(chunk.known_ids)
        return {doc_id: row["id"] for doc_id, row in chunk._rows.items()}

    def adopt(self, n: int, rows: dict[int, dict[str, Any]], sha256: str,
              write_docs: dict[int, dict] | None = None) -> list[tuple[str, int, int]]:
        """Take over a chunk checked at open. With write_docs (repairs: migrated records, a
        rebuilt index) the chunk and its index are written. Returns the (game id, chunk,
        doc id) of games already known from another chunk, which the caller resolves."""
        chunk = self.chunk(n)
        chunk.rows, chunk.sha256 = {}, sha256
        self._newest = None
        clashes = []
        for doc_id, row in rows.items():
            if row["id"] in self.where:
                clashes.append((row["id"], n, doc_id))
            else:
                self.where[row["id"]] = (n, doc_id)
        if write_docs is None:
            chunk.rows = dict(rows)
        else:
            self._write(n, write_docs, rows, set())
        return clashes

    # --- writing ------------------------------------------------------------------
    def put_many(self, items: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> None:
        """Store (journal, index row) pairs: a known game stays in its chunk, a new one goes
        to the newest chunk with room. One write per touched chunk and one per its index."""
        plan: dict[int, dict[int, tuple[dict, dict]]] = {}
        next_id: dict[int, int] = {}
        newest = max(self.chunks, default=0)
        room = CHUNK_GAMES - len(self.chunks[newest].rows) if newest else 0
        for doc, row in items:
            if doc["id"] in self.where:
                n, doc_id = self.where[doc["id"]]
            else:
                if room <= 0:
                    newest, room = newest + 1, CHUNK_GAMES
                    self.chunk(newest)
                n, room = newest, room - 1
                doc_id = next_id.get(n) or self.chunks[n].next_id()
                next_id[n] = doc_id + 1
            plan.setdefault(n, {})[doc_id] = (doc, row)
            self.where[doc["id"]] = (n, doc_id)
        for n, puts in sorted(plan.items()):
            self._write(n, {i: d for i, (d, _) in puts.items()}, {i: r for i, (_, r) in puts.items()}, set())
        self.forget()

    def remove_doc(self, n: int, doc_id: int) -> None:
        """Drop one document from a chunk (a duplicate found at open)."""
        self._write(n, {}, {}, {doc_id})
        self.forget()

    def remove(self, game_id: str) -> None:
        n, doc_id = self.where.pop(game_id)
        self._write(n, {}, {}, {doc_id})
        self.forget()

    def _write(self, n: int, docs: dict[int, dict], rows: dict[int, dict], removes: set[int]) -> None:
        chunk = self.chunk(n)
        # The records first, then the index naming their checksum: a crash in between
        # leaves an index that no longer matches, which the next open rebuilds.
        if docs or removes or not self.files.exists(chunk.games.storage.path):
            replace_docs(chunk.games, {GAMES: (docs, removes)})
            chunk.sha256 = chunk.games.storage.last_sha256
        chunk.rows.update(rows)
        for doc_id in removes:
            chunk.rows.pop(doc_id, None)
        self._newest = None
        replace_docs(chunk.index, {SUMMARIES: (dict(chunk.rows), None),
                                   META: ({1: {"chunk_sha256": chunk.sha256}}, None)})
        chunk.index.storage.forget()  # the rows live in chunk.rows

    def forget(self) -> None:
        """Drop the parsed copies of the chunks. Kept, 200 games' worth of lists would slow
        every garbage collection, and so every save of the game being played; parsing a
        chunk again when a game finishes or an old game is opened costs ~15 ms."""
        for chunk in self.chunks.values():
            chunk.games.storage.forget()

    def close(self) -> None:
        for chunk in self.chunks.values():
            chunk.games.close()
            chunk.index.close()
