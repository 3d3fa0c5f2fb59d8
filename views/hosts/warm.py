"""What the phone build's Python does once per build instead of at every opening (#44).

web/python-worker.js runs `prepare()` on a fresh Python, keeps a copy of Python's memory (a
Pyodide memory snapshot) in the browser's Cache Storage, and restores that copy at every later
opening of the same build: Pyodide's own start, Flet's modules and each language's catalog and
Babel data are then there at once. What a snapshot may hold is narrow, so this module imports
no screen:
- no compiled extension: Pyodide restores memory, not the dynamically loaded libraries, so
  pydantic_core's and msgpack's (and so scoring, storage, the screens and flet.app) are
  imported after the restore, at every opening;
- nothing that depends on the day, the phone, its language or its store, and nothing of the page.
"""
from __future__ import annotations

import sys

# Flet's lazily imported names whose modules load msgpack's compiled extension.
_AFTER_RESTORE = ("flet.app", "flet.messaging")


def prepare() -> None:
    import flet as ft

    for name, module in list(getattr(ft, "_LAZY", {}).items()):  # what `ft.Column` etc. import at first use
        if not module.startswith(_AFTER_RESTORE):
            getattr(ft, name)
    import flet_charts  # noqa: F401
    import segno  # noqa: F401
    import tinydb  # noqa: F401

    from views import lang

    lang.read_every_language()
    loaded = compiled_extensions()
    if loaded:
        raise RuntimeError(f"a snapshot cannot hold compiled extensions: {', '.join(loaded)}")


def compiled_extensions() -> list[str]:
    """Modules loaded from a shared library (.so): none may be in a snapshot."""
    return sorted(name for name, module in list(sys.modules.items())
                  if (getattr(module, "__file__", None) or "").endswith(".so"))
