"""The words a phone sees, in its own language (#33): `lang.py` (`_`, `n_`, `p_`, `N_`; numbers,
days, names), the catalogs in `locales/` (`locales/HOW.md`), `fonts.py` (the fonts for them),
`titles.py` (the games' names), `name_typing.py` (a typed name's text while the server's writes
travel) and `per_page.py` (a value per phone's session: its language here, its text size in
theme.py). Imports nothing else of views/: any module may import it."""
