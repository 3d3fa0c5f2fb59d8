"""The screens reached from the home: `home.py`, `new_game.py` (the seating form every game
shares), `history.py` (`history_state.py`: its filters, no Flet), `finished.py` (a finished game,
read-only), `statistics.py`, `settings.py`, `data.py` (export, import with its preview, backups)
and `lost.py` (the store gone from under a session). May import words/, device/, theme.py,
games.py, pads/ (the registry; the parts a finished game is drawn with) and table/roles.py (who
may do what); the shell routes to them."""
