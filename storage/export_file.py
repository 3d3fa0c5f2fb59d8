"""The export files, built once for `main.py export` and the app's Export alike: the same
bytes whichever way a player asks for them."""
from __future__ import annotations

import io
from typing import Iterable, Iterator

from .transfer import export_envelope, export_lines, write_csv


def export_pieces(store, fmt: str) -> tuple[Iterator[str], list[int]]:
    """The export as text pieces (JSON: one game per line, never every game in memory as
    objects), and a one-item list that holds the number of games once the pieces are read."""
    count = [0]
    if fmt == "csv":
        buffer = io.StringIO(newline="")
        count[0] = write_csv(store.rows() if store else [], buffer)
        return iter([buffer.getvalue()]), count

    def counted(records):
        for record in records:
            count[0] += 1
            yield record
    head = {k: v for k, v in export_envelope([]).items() if k != "games"}
    return export_lines(head, counted(store.iter_records() if store else ())), count


def export_text(records: Iterable[dict], exported: str) -> str:
    """The JSON export of the records given (as the store holds them), stamped `exported`: the
    text `main.py export` writes for those games at that time (the handoff by QR code carries
    it, storage/handoff.py)."""
    head = {k: v for k, v in export_envelope([]).items() if k != "games"} | {"exported": exported}
    return "".join(export_lines(head, records))


def export_bytes(store, fmt: str) -> tuple[bytes, int]:
    pieces, count = export_pieces(store, fmt)
    data = "".join(pieces).encode("utf-8")
    return data, count[0]
