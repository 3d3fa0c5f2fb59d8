"""Settings that belong to a phone, not to the host (#24): theme, text size, keep awake and
vibration. A guest's choices live in its own browser (Flet's SharedPreferences) and in this
session; the host's settings (settings.json) are what a phone shows until it chooses."""
from __future__ import annotations

import asyncio
import json
import logging
import weakref

import flet as ft
from pydantic import ValidationError

from views import theme
from views.words import lang
from views.words.lang import _
from views.words.per_page import PerPage

log = logging.getLogger(__name__)

# Setting -> the key it is kept under in the phone's browser.
PREF_KEYS = {"theme": "pandapad.theme", "text_size": "pandapad.text_size",
             "keep_awake": "pandapad.keep_awake", "haptics": "pandapad.haptics"}

# A phone's language (#33) is its own, whoever it is at the table: chosen in Settings, else the
# phone's (navigator.languages in a browser, the device's locales in an app). Never the host's.
LANGUAGE_KEY = "pandapad.language"
# The words of the "Not connected" banner, which assets/connection.js draws when the table cannot
# be reached (so Python cannot say them then): kept in the phone's preferences, in its language.
OFFLINE_WORDS_KEY = "pandapad.offline_words"

_languages = PerPage()  # page -> (choice, phone's own)
_chosen = PerPage()  # page -> own choices
_banners: "weakref.WeakSet[ft.Page]" = weakref.WeakSet()  # pages that draw the banner (has_banner)


def has_banner(page: ft.Page) -> None:
    """This phone draws the "Not connected" banner when its link to the app drops (a host with
    a link: the server's pages, assets/connection.js), so its words are kept in its language."""
    _banners.add(page)


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


def _phone_tags(info) -> list[str]:
    """The phone's languages, best first, as tags ('de-DE')."""
    tags = list(getattr(info, "languages", None) or [])
    # navigator.language only where the list is missing: assets/languages.js may have set it to
    # the language of the letterforms kanji are drawn in, which is not the phone's own (#45).
    if getattr(info, "language", None) and not tags:
        tags.insert(0, info.language)
    for loc in getattr(info, "locales", None) or []:
        tags.append("-".join(p for p in (loc.language_code, loc.script_code, loc.country_code) if p))
    return tags


def flutter_locale(code: str) -> ft.Locale:
    """A language of lang.LANGUAGES as Flutter names it: pt_BR -> pt, BR; zh_Hans -> zh, Hans."""
    from babel import Locale

    tag = Locale.parse(code)
    return ft.Locale(tag.language, country_code=tag.territory, script_code=tag.script)


def show_language(page: ft.Page, code: str) -> None:
    """Speak `code` on this phone: our catalogs, and Flutter's own words (a text field's menu)."""
    lang.set_language(code, page)
    flutter = "en" if code == lang.PSEUDO else code
    # English is Flutter's own: a phone that reads it is spared the change of locale, which
    # cost its first screen a reload of Flutter's words (bench_join: 1.30 s against 1.16 s).
    if flutter != "en" or page.locale_configuration is not None:
        page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[flutter_locale(c) for c in lang.LANGUAGES], current_locale=flutter_locale(flutter))
    if page not in _banners:  # the phone build: no link, no banner
        return
    try:  # not on the way to the first screen
        page.run_task(_keep_offline_words, page)
    except Exception as exc:  # a session already gone
        log.info("the banner's words: %s", exc)


def offline_words() -> dict[str, str]:
    """The banner's words in the language of this session (assets/connection.js reads them)."""
    return {"lang": lang.locale().language,  # the banner's glyphs: Japanese kanji, not Chinese
            "title": _("Not connected \u2014 taps are not saved"),
            "trying": _("Trying to reach the table\u2026"),
            "refused": _("That tap was not saved. Trying to reach the table\u2026")}


OFFLINE_WORDS_AFTER = 3.0  # seconds: after the first screen, not in its way (bench_join)


async def _keep_offline_words(page: ft.Page) -> None:
    await asyncio.sleep(OFFLINE_WORDS_AFTER)
    try:
        await asyncio.wait_for(ft.SharedPreferences().set(OFFLINE_WORDS_KEY, json.dumps(offline_words())), timeout=5)
    except Exception as exc:  # the banner stays in English
        log.info("keeping the banner's words: %s", exc)


def language_choice(page: ft.Page) -> str:
    """What Settings shows as chosen: a language, or lang.PHONE."""
    return _languages.get(page, (lang.PHONE, "en"))[0]


async def load_language(page: ft.Page, known: tuple[str | None, list[str]] | None = None, late=None) -> None:
    """This phone's language, before its first screen: its choice, else its own; `known`: both
    as the host has them already (Host.phone_languages), else asked. A phone that has not told
    its own languages within FIRST_WAIT gets English first, and its own language as soon as it
    tells them: `late()` (the shell's redraw) then draws the screen again."""
    if known is not None:
        chosen, tags = known
        _settle(page, chosen, tags)
        return
    asked = asyncio.ensure_future(page.get_device_info())
    chosen = await kept(page, LANGUAGE_KEY)
    try:
        info = await asyncio.wait_for(asyncio.shield(asked), timeout=FIRST_WAIT)
    except asyncio.TimeoutError:
        log.warning("this phone's languages: no answer in %s s; English until they come", FIRST_WAIT)
        info = None
        asyncio.ensure_future(_told_late(page, asked, late))
    except Exception as exc:  # English, as for a phone whose language Pandapad does not speak
        log.info("reading this phone's languages: %s", exc)
        info = None
    _settle(page, chosen, _phone_tags(info))


def _settle(page: ft.Page, chosen: str | None, tags: list[str]) -> None:
    """Speak the chosen language (a code of lang.LANGUAGES), else the phone's own (`tags`)."""
    choice = chosen if chosen in lang.LANGUAGES else lang.PHONE
    own = lang.of_phone(tags)
    _languages[page] = (choice, own)
    show_language(page, own if choice == lang.PHONE else choice)


async def _told_late(page: ft.Page, asked, late) -> None:
    try:
        info = await asyncio.wait_for(asked, timeout=LATE_WAIT)
    except Exception as exc:
        log.info("this phone's languages never came: %s", exc)
        return
    before = lang.language(page)
    _settle(page, language_choice(page), _phone_tags(info))  # the choice as it is now
    if lang.language(page) != before and late is not None:
        await late()


# The phone's own languages come from a question to the phone (its device info), asked with
# the question for its chosen one: a first screen waits FIRST_WAIT for them at most.
FIRST_WAIT, LATE_WAIT = 3.0, 60.0


async def kept(page: ft.Page, key: str, tries: int = 4, wait: float = 1.0):
    """What this phone kept under `key` (None if nothing or no storage), asked a few times
    briefly rather than once for long: the storage service reaches the phone with the next
    update, and a phone busy starting (or back at a restarted server) missed the first
    question now and then. The shell asks for the kept token so too."""
    prefs = ft.SharedPreferences()
    for attempt in range(tries):
        try:
            return await asyncio.wait_for(prefs.get(key), timeout=wait)
        except asyncio.TimeoutError:
            log.info("%s: no answer in %s s (try %d)", key, wait, attempt + 1)
            page.update()  # the service goes to the phone with it
        except Exception as exc:  # no browser storage
            log.info("reading %s: %s", key, exc)
            return None
    return None


# The languages whose kanji and hanzi have letterforms of their own, as assets/languages.js tells
# Flutter's engine before it starts (navigator.language): it reads that once.
LETTERFORMS = {"ja": "ja", "ko": "ko", "zh_Hans": "zh-CN"}


async def choose_language(page: ft.Page, choice: str) -> bool:
    """A language chosen in Settings (or lang.PHONE): for this session, and kept in the phone.
    True when the app must open again in the browser to draw the new language's letterforms
    (Japanese kanji are not Chinese hanzi)."""
    if choice != lang.PHONE and choice not in lang.LANGUAGES:
        raise ValueError(f"{choice} is not a language of Pandapad")
    before = LETTERFORMS.get(lang.language(page))
    own = _languages.get(page, (lang.PHONE, "en"))[1]
    _languages[page] = (choice, own)
    show_language(page, own if choice == lang.PHONE else choice)
    try:
        prefs = ft.SharedPreferences()
        if choice == lang.PHONE:
            await asyncio.wait_for(prefs.remove(LANGUAGE_KEY), timeout=5)
        else:
            await asyncio.wait_for(prefs.set(LANGUAGE_KEY, choice), timeout=5)
    except Exception as exc:  # kept for this visit only: no opening again, which would lose it
        log.info("keeping the language: %s", exc)
        return False
    return bool(page.web) and LETTERFORMS.get(lang.language(page)) != before
