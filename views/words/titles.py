"""The five games as the screens name them, in the order of rules.md: no pad is imported here, so
any screen (the result card too) may name a game without importing every pad."""
from __future__ import annotations

from views.words.lang import N_, _

# In the order of rules.md; the home lists every game and starts those that have a pad.
GAME_ORDER = ("panda-royale", "royal-ur", "nokosu-dice", "pandoria", "pass-the-pandas")

# The games' names as screens show them (#33): the rules modules' TITLE, marked for the catalogs
# here; _(rules.TITLE) gives the same translation anywhere.
TITLES = {
    # TRANSLATORS: the game's published name; keep it unless the edition in your language has its own
    "panda-royale": N_("Panda Royale"),
    # TRANSLATORS: the game's published name; keep it unless the edition in your language has its own
    "royal-ur": N_("Royal Game of Ur"),
    # TRANSLATORS: the game's published name; keep it unless the edition in your language has its own
    "nokosu-dice": N_("Nokosu Dice"),
    # TRANSLATORS: the game's published name; keep it unless the edition in your language has its own
    "pandoria": N_("Pandoria"),
    # TRANSLATORS: the game's published name; keep it unless the edition in your language has its own
    "pass-the-pandas": N_("Pass the Pandas"),
}


def title_of(game: str) -> str:
    """A game's name in this phone's language; an unknown game's id as it is."""
    return _(TITLES[game]) if game in TITLES else game
