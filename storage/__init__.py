"""Durable local history of games: TinyDB files that survive kills, crashes and updates."""
from .api import (ImportReport, NothingToUndo, Saved, StaleSave, StoreBusy, StoreError,
                  StoreTooNew, Summary)
from .store import Store

__all__ = ["ImportReport", "NothingToUndo", "Saved", "StaleSave", "Store", "StoreBusy",
           "StoreError", "StoreTooNew", "Summary"]
