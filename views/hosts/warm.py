"""What the phone build's Python does once per build instead of at every opening (#44, #52).

web/python-worker.js runs `prepare()` on a fresh Python, keeps a copy of Python's memory (a
Pyodide memory snapshot) in the browser's Cache Storage, and restores that copy at every later
opening of the same build: Pyodide's own start, Flet's modules, pydantic and its compiled core,
the games' rules, the store's code, every screen, and each language's catalog and Babel data are
then there at once, and an opening goes straight to the session. What a snapshot may hold:
- compiled extensions only as python-worker.js loads them, before Python starts, at the same
  places in memory every time (it refuses a snapshot where Python loaded any other library);
- nothing of the page (Flet's Pyodide connection imports the page's bridge, flet_js: it is
  imported at the opening), and nothing that depends on the day, the phone, its language or its
  store: importing a module of this app computes none of those (views/words/locales/HOW.md: words are
  translated when a screen is built, never at import).
"""
from __future__ import annotations

import importlib
import pkgutil

# Flet's modules that import the page's bridge (flet_js) as they load.
_NEEDS_THE_PAGE = ("flet.messaging.pyodide_connection",)
# The server's host (main.py --lan) and its door: never run on a phone.
_SERVER_ONLY = ("views.hosts.server", "views.hosts.serving", "views.hosts.connection", "views.hosts.gate",
                "views.hosts.flet_pin", "storage.cli")


def prepare() -> None:
    import flet as ft

    for name, module in list(getattr(ft, "_LAZY", {}).items()):  # what `ft.Column` etc. import at first use
        if not module.startswith(_NEEDS_THE_PAGE):
            getattr(ft, name)
    for module in ("argparse", "flet.app", "flet.messaging.session", "flet.messaging.protocol", "flet_charts", "segno",
                   "tinydb", "pydantic", "msgpack"):
        importlib.import_module(module)
    for name in app_modules():
        importlib.import_module(name)

    from views.words import lang

    lang.read_every_language()


def app_modules() -> list[str]:
    """Every module of the app a phone may run: the rules, the store, the screens, the phone's host."""
    import scoring
    import storage
    import views

    names = []
    for package in (scoring, storage, views):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not found.name.startswith(_SERVER_ONLY):
                names.append(found.name)
    return sorted(names)
