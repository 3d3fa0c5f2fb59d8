"""Game ids to their score pads, the way scoring/registry.py maps them to rules: a sixth game
is one rules module, one pad folder and one line here (views/README.md)."""
from __future__ import annotations

from views.lang import N_, _
from views.nokosu_dice.screen import NokosuScreen
from views.panda_royale.screen import RoyaleScreen
from views.pandoria.screen import PandoriaScreen
from views.pass_the_pandas.screen import PandasScreen
from views.royal_ur.screen import UrScreen

# In the order of rules.md; the home lists every game and starts those that have a pad.
GAME_ORDER = ("panda-royale", "royal-ur", "nokosu-dice", "pandoria", "pass-the-pandas")
PADS = {screen.rules.GAME: screen for screen in (RoyaleScreen, UrScreen, NokosuScreen, PandoriaScreen, PandasScreen)}

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
