"""The score pads: `registry.py` (game id -> pad, as scoring/registry.py maps rules), `pad/` (what
every pad shares: the save on every tap, undo/redo, the strip, `changes.py` sending only what a
tap changed) and one folder per game (panda_royale, royal_ur, nokosu_dice, pandoria,
pass_the_pandas: state.py with no Flet, screen.py and its own widgets). May import words/,
device/, theme.py, games.py and handover/qr.py (a finished game's BG Stats link); never
screens/, table/, the shell or a host."""
