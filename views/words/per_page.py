"""A value kept for each phone's session (its Flet page), forgotten with the page."""
from __future__ import annotations

import weakref


class PerPage:
    """Like weakref.WeakKeyDictionary, but a page is found by identity. WeakKeyDictionary compares
    its keys with ==, and a Flet Page is a dataclass whose == reads every one of its ~90 fields:
    the language looked up for each label of a pad (1,700 times) took most of the pad's drawing
    in Python (#52)."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[weakref.ref, object]] = {}

    def get(self, page, default=None):
        kept = self._by_id.get(id(page))
        return kept[1] if kept is not None and kept[0]() is page else default

    def __setitem__(self, page, value) -> None:
        key, by_id = id(page), self._by_id

        def forget(ref) -> None:  # the page is gone; its id may already be another page's
            if key in by_id and by_id[key][0] is ref:
                del by_id[key]

        kept = by_id.get(key)
        ref = kept[0] if kept is not None and kept[0]() is page else weakref.ref(page, forget)
        by_id[key] = (ref, value)

    def setdefault(self, page, default):
        kept = self.get(page, self)
        if kept is self:
            self[page] = kept = default
        return kept

    def __len__(self) -> int:
        return sum(1 for ref, _ in self._by_id.values() if ref() is not None)
