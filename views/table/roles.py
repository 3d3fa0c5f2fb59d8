"""Who may do what at a table (#24): the host (the host link, or the one user without --lan)
owns the history; a guest (the table link) plays tonight's games. No Flet here: the shell
asks these rules when a route is typed and every changing handler asks them again when it
runs, so a hidden button is never the only guard."""
from __future__ import annotations

from views.words.lang import N_, _

HOST, GUEST = "host", "guest"

# What only the host may do, and the refusal a guest gets (translated where it is said).
HOST_ONLY = {
    # TRANSLATORS: "Your data" is the name of the screen (its title and the home's button)
    "data": N_("Only the host can open Your data"),
    "import": N_("Only the host can import games"),
    "restore": N_("Only the host can restore a backup"),
    "export": N_("Only the host can export every game"),
    "delete": N_("Only the host can delete a game"),
    "edit": N_("Only the host can edit a finished game"),
    "rename": N_("Only the host can rename a player"),
    "merge": N_("Only the host can merge players"),
    "settings": N_("Only the host can change these settings"),
    "history": N_("Only the host can browse the history"),
}
# Read-only pages a guest may open when the host switched on "Guests may see the history".
READ_ONLY = {"history"}

# Addresses only the host opens (a guest typing one gets the refusal and the home).
# Receiving games from another phone imports them into this store (#53): as Import does.
HOST_ONLY_ROUTES = {"/receive": "import", "/data": "data", "/history": "history", "/stats/": "history", "/player/": "history"}


def may(role: str | None, action: str, guests_see_history: bool = False) -> bool:
    """May a session of this role do `action` (a key of HOST_ONLY, or anything else a guest
    may do: play, finish, invite, the big screen)?"""
    if role == HOST:
        return True
    if role != GUEST:
        return False
    if action not in HOST_ONLY:
        return True
    return guests_see_history and action in READ_ONLY


def refusal(action: str) -> str:
    """'Only the host can delete a game', in this phone's language (no full stop)."""
    return _(HOST_ONLY[action])


def refusal_said(action: str) -> str:
    """The refusal as a sentence on its own, as a snack bar says it."""
    # TRANSLATORS: a refusal ("Only the host can delete a game") said as a sentence: its full stop
    return _("{refusal}.", refusal=refusal(action))


def route_action(route: str) -> str | None:
    """The host-only action an address opens, or None for one every player may open."""
    for prefix, action in HOST_ONLY_ROUTES.items():
        if route == prefix or (prefix.endswith("/") and route.startswith(prefix)):
            return action
    return None


def may_open_finished(role: str | None, game_id: str, tonight: set[str], guests_see_history: bool) -> bool:
    """A finished game: the host always; a guest one finished at this table since the server
    started (tonight's), or any when the history is open to guests."""
    return may(role, "history", guests_see_history) or (role == GUEST and game_id in tonight)


class Who:
    """One session's role, with the host's live setting: a screen asks who.may("delete") at
    the moment a handler runs, so switching the history off takes effect at once."""

    def __init__(self, role: str, games=None):
        self.role = role
        self.games = games

    @property
    def host(self) -> bool:
        return self.role == HOST

    @property
    def guests_see_history(self) -> bool:
        settings = getattr(self.games, "settings", None)
        return bool(getattr(settings, "guests_see_history", False))

    def may(self, action: str) -> bool:
        return may(self.role, action, self.guests_see_history)


HOST_WHO = Who(HOST)  # the one user without --lan, and screens built without a role
