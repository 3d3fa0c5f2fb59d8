"""The phone in hand, in either host: `session.py` (whether it is there; work run for it only
while it is) and `preferences.py` (what it keeps in its own browser: theme, text size, keep
awake, vibration, its language). May import words/ and theme.py; the pads, the screens and the
hosts import it."""
