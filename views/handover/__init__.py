"""Games handed from one phone to another by their screens (#53): `send.py` shows a game, or a
night's games, as QR codes, `receive.py` reads them with the camera into the import preview, and
`qr.py` draws every QR code a screen shows. May import words/, theme.py, games.py, pads/registry.py,
screens/ (the home's and the history's lists, data.py's import preview) and table/roles.py."""
