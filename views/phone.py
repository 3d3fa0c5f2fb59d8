"""Settings that belong to a phone, not to the host (#24): theme, text size, keep awake and
vibration. A guest's choices live in its own browser (Flet's SharedPreferences) and in this
session; the host's settings (settings.json) are what a phone shows until it chooses."""
from __future__ import annotations

import asyncio
import logging
import weakref

import flet as ft
from pydantic import ValidationError

from views import theme

log = logging.getLogger(__name__)

# Setting -> the key it is kept under in the phone's browser.
PREF_KEYS = {"theme": "pandapad.theme", "text_size": "pandapad.text_size",
             "keep_awake": "pandapad.keep_awake", "haptics": "pandapad.haptics"}

_chosen: "weakref.WeakKeyDictionary[ft.Page, dict]" = weakref.WeakKeyDictionary()  # page -> own choices


def settings_of(page: ft.Page, games):
    """The settings this phone goes by: the host's, with the phone's own choices over them."""
    own = _chosen.get(page)
    return games.settings.model_copy(update=own) if own else games.settings


def _valid(settings_type, key: str, value) -> bool:
    try:
        settings_type.model_validate({key: value})
    except ValidationError:
        return False
    return True


async def load(page: ft.Page, games) -> None:
    """Read what this phone chose on earlier visits (a value it cannot use is left out)."""
    prefs = ft.SharedPreferences()
    try:  # all four in one round trip's time: this is on the way to the phone's first screen
        values = await asyncio.wait_for(asyncio.gather(*(prefs.get(p) for p in PREF_KEYS.values())), timeout=5)
    except Exception as exc:  # no browser storage: the host's settings it is
        log.info("reading this phone's settings: %s", exc)
        values = [None] * len(PREF_KEYS)
    own = {key: value for key, value in zip(PREF_KEYS, values)
           if value is not None and _valid(type(games.settings), key, value)}
    _chosen[page] = own
    if "text_size" in own:
        theme.set_text_size(own["text_size"], page)


async def choose(page: ft.Page, games, **changes) -> None:
    """Keep a phone's choice for this session and in its browser for the next visit."""
    for key, value in changes.items():
        if key not in PREF_KEYS or not _valid(type(games.settings), key, value):
            raise ValueError(f"{key} is not a setting of this phone")
    _chosen.setdefault(page, {}).update(changes)
    if "text_size" in changes:
        theme.set_text_size(changes["text_size"], page)
    prefs = ft.SharedPreferences()
    for key, value in changes.items():
        try:
            await asyncio.wait_for(prefs.set(PREF_KEYS[key], value), timeout=5)
        except Exception as exc:  # kept for this visit only
            log.info("keeping %s: %s", key, exc)
