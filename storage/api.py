"""What the store hands out: saved games, summary lines, import reports and its errors."""
from __future__ import annotations

from dataclasses import dataclass, field

from scoring import RecordBase
from scoring.names import described

ODD_NAMES_TOLD = 10  # names with hidden characters named in an import's report, the rest counted


class StoreError(Exception):
    """The store cannot be used (busy, closed, written by a newer app); the message says why."""


class StoreBusy(StoreError):
    """Another Pandapad process has the store open."""


class StoreTooNew(StoreError):
    """The store holds records of a newer version than this app reads."""

    def __init__(self, message: str, found: int, newest: int):
        super().__init__(message)
        self.found = found
        self.newest = newest


class ReadOnly(StoreError):
    """A write refused inside Store.reading_only(): nothing was written; the message says why."""


class StaleSave(Exception):
    """A save, undo or redo based on an older revision of a game than the stored one.

    The UI reloads the game (`Store.load`) and re-applies the edit. stored_revision is 0
    when the game is no longer stored (deleted meanwhile).
    """

    def __init__(self, game_id: str, stored_revision: int, message: str):
        super().__init__(message)
        self.game_id = game_id
        self.stored_revision = stored_revision


class NothingToUndo(Exception):
    """undo() with no earlier version, or redo() with no later one (see Saved.can_undo)."""


@dataclass(frozen=True)
class Saved:
    record: RecordBase
    revision: int
    can_undo: bool
    can_redo: bool


@dataclass(frozen=True)
class Summary:
    """One line of the history or home screen."""
    id: str
    game: str
    created: str | None
    finished: str | None
    players: list[tuple[str, str, int]]  # (player id, name, total) in seat order
    winners: list[str]  # winner names (the leaders so far while in progress)


@dataclass(frozen=True)
class ImportReport:
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    new_ids: list[str] = field(default_factory=list)
    kept: int = 0  # stored games left as they were: the copy would have taken them back
    playing: int = 0  # games in progress left as they are (the app, while phones play them)
    # (place, id in the file, new id, why): a copy under a stored id that is another game,
    # imported as a new game (counted in `new`) instead of replacing it (#22)
    as_new: list[tuple[str, str, str, str]] = field(default_factory=list)
    # (place, id, problems): finished games imported although their rules find errors
    problems: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    # (name, what in it does not show): names kept as the file has them, told (#31)
    odd_names: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.new + self.updated + self.unchanged + self.kept + self.playing

    def __str__(self) -> str:
        # The three counts as they always were (scripts read them); "kept" only when there are.
        text = f"{self.new} new, {self.updated} updated, {self.unchanged} unchanged"
        if self.kept:
            games = "game is" if self.kept == 1 else "games are"
            text += f", {self.kept} kept (the stored {games} newer or more complete)"
        if self.playing:
            games = "game is" if self.playing == 1 else "games are"
            text += f", {self.playing} left as they are (the stored {games} being played)"
        if self.as_new:
            n = len(self.as_new)
            text += f", {n} of the new under a new id (another stored game had {'its' if n == 1 else 'their'} id)"
        return text

    def warnings(self) -> list[str]:
        """One line per game the counts do not tell enough about: another game under a stored
        id, imported as new; a finished game whose record breaks its rules. Then one line for
        the names that would look different from how they are written (#31)."""
        lines = [f"{place}: game {gid} is not the stored game {gid} ({why}); it comes in as a new game, "
                 f"{new}, and the stored game stays as it is" for place, gid, new, why in self.as_new]
        for place, gid, problems in self.problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            lines.append(f"{place}: game {gid} is finished but breaks its rules: {problems[0]}{more}; "
                         f"it comes in as it is: fix it in the app")
        if self.odd_names:
            n = len(self.odd_names)
            shown = "; ".join(described(name) for name, _how in self.odd_names[:ODD_NAMES_TOLD])
            if n > ODD_NAMES_TOLD:  # a file of a thousand games must not make a page-long line
                shown += f"; and {n - ODD_NAMES_TOLD} more"
            lines.append(f"{n} {'name' if n == 1 else 'names'} would look different from how "
                         f"{'it is' if n == 1 else 'they are'} written: {shown}. "
                         f"{'It comes' if n == 1 else 'They come'} in as written; to tidy one, rename that player "
                         "in Statistics")
        return lines
