"""Several phones on one game. The laptop's table (--lan): `table.py` (the token, the link),
`invite.py` (its QR code), `big_screen.py` (a tablet in the middle of the table following every
phone's taps) and `roles.py` (who may do what: the host, a guest; no Flet). The phones' table with
no laptop (#54): `phones.py` (Invite a phone, Join a table), `pairing.py` (the two codes that pair
them; no Flet) and `phone_table.py` (the host's phone holding the game, a guest's pad following
it). May import words/, theme.py, games.py, pads/ and handover/ (the pairing codes are shown and
read as a game's are)."""
