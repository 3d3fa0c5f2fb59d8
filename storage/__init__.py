"""Durable local history of games: TinyDB files that survive kills, crashes and updates."""
from .api import (ImportReport, NothingToUndo, ReadOnly, Saved, StaleSave, StoreBusy, StoreError,
                  StoreTooNew, Summary)

__all__ = ["ImportReport", "NothingToUndo", "ReadOnly", "Saved", "StaleSave", "Store", "StoreBusy",
           "StoreError", "StoreTooNew", "Summary"]


def __getattr__(name: str):
    # Store (and TinyDB with it) is loaded when first asked for: `main.py score` reads its file
    # through storage.reader and never needs the store.
    if name == "Store":
        from .store import Store
        return Store
    raise AttributeError(name)
