"""Game ids to their score pads, the way scoring/registry.py maps them to rules: a sixth game
is one rules module, one pad folder, its name in views/words/titles.py and one line here (views/README.md)."""
from __future__ import annotations

from views.pads.nokosu_dice.screen import NokosuScreen
from views.pads.panda_royale.screen import RoyaleScreen
from views.pads.pandoria.screen import PandoriaScreen
from views.pads.pass_the_pandas.screen import PandasScreen
from views.pads.royal_ur.screen import UrScreen
from views.words.titles import GAME_ORDER, TITLES, title_of  # noqa: F401  (the screens' names, kept importable here)

PADS = {screen.rules.GAME: screen for screen in (RoyaleScreen, UrScreen, NokosuScreen, PandoriaScreen, PandasScreen)}
