"""Every character a phone shows is drawn (#45): in each of the eleven languages, every catalog
message, every date and number form the app writes, and names typed in every script a table
uses. A character is drawn when Flutter's own font (Roboto, in Flet's client) has it, or when
every font Flutter's engine may fetch for it (its fallback table, read from the client) is
served by the site and the served file has the glyph (views/words/fonts.py). Otherwise the phone
shows a box, whichever phone it is."""
from __future__ import annotations

import unicodedata
from datetime import date, datetime, timedelta
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont

from views.device import preferences
from views.words import fonts, lang
from views.hosts import serving

# Names as tables type them: kanji (髙 too), kana, hangul, Chinese in both scripts, Cyrillic,
# Greek, Arabic, Hebrew, Latin with marks, and emoji in a name.
NAMES = ["田中", "佐藤", "髙橋", "翔太", "さくら", "ケンジ", "김민준", "이서연", "王小明", "陳大文", "張偉",
         "Дмитрий", "Ёлка", "Σοφία", "محمد", "فاطمة", "דוד", "שרה", "Zoë", "Łukasz", "Jürgen", "Nguyễn",
         "Ann 🐼", "🎲 Ben", "Çağla", "Søren"]
# Drawn as nothing, by any font: spaces, joiners and marks of direction.
INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp"}


@lru_cache(maxsize=None)
def served() -> Path:
    folder = serving.fallback_fonts(serving.cache_root())
    assert folder is not None, "the fallback fonts are not made: `make setup` installs web/node_modules"
    return folder


@lru_cache(maxsize=None)
def roboto() -> frozenset[int]:
    return frozenset(TTFont(serving.client_dir() / "assets" / "fonts" / "roboto.woff2").getBestCmap())


@lru_cache(maxsize=None)
def by_character() -> dict[int, list[fonts.EngineFont]]:
    table: dict[int, list[fonts.EngineFont]] = {}
    for font in fonts.engine_fonts():
        for c in font.code_points:
            table.setdefault(c, []).append(font)
    return table


@lru_cache(maxsize=None)
def served_cmap(url: str) -> frozenset[int] | None:
    path = served() / fonts.PREFIX / url
    return frozenset(TTFont(path, lazy=True).getBestCmap()) if path.is_file() else None


CJK = ("Noto Sans SC", "Noto Sans TC", "Noto Sans HK", "Noto Sans JP", "Noto Sans KR")
FOR_LANGUAGE = {"zh-Hans": "Noto Sans SC", "zh-CN": "Noto Sans SC", "zh-SG": "Noto Sans SC", "zh-MY": "Noto Sans SC",
                "zh-Hant": "Noto Sans TC", "zh-TW": "Noto Sans TC", "zh-MO": "Noto Sans TC", "zh-HK": "Noto Sans HK",
                "ja": "Noto Sans JP", "ko": "Noto Sans KR"}


@lru_cache(maxsize=None)
def engine_order() -> dict[str, int]:
    return {font.url: i for i, font in enumerate(fonts.engine_fonts())}


# Cached: a catalog's texts ask again and again about the same characters (#70: the eleven
# languages' checks 34 -> 3 s of one core).
@lru_cache(maxsize=None)
def engine_choice(missing: frozenset[int], language: str) -> dict[int, fonts.EngineFont]:
    """The fonts Flutter's engine fetches for the characters `missing` of a frame, each
    character -> the font chosen for it: its greedy cover, ties to the phone's CJK family by
    navigator.language (else SC), else Noto Sans Symbols, else SC, else the first in its table
    (Flutter's font_fallbacks.dart, FontFallbackManager.findFontsForMissingCodePoints)."""
    order = engine_order()
    left = {c for c in missing if c in by_character()}
    chosen = {}
    while left:
        counts: dict[str, int] = {}
        for c in left:
            for font in by_character()[c]:
                counts[font.url] = counts.get(font.url, 0) + 1
        most = max(counts.values())
        best = sorted((f for f in fonts.engine_fonts() if counts.get(f.url) == most), key=lambda f: order[f.url])
        pick = best[0]
        if len(best) > 1:
            if all(f.family in CJK for f in best):
                wanted = FOR_LANGUAGE.get(language, "Noto Sans SC")
                pick = next((f for f in best if f.family == wanted), pick)
            else:
                pick = next((f for f in best if f.name == "Noto Sans Symbols"),
                            next((f for f in best if f.family == "Noto Sans SC"), pick))
        for c in list(left):
            if c in pick.code_points:
                chosen[c] = pick
                left.discard(c)
    return chosen


def boxes(text: str, language: str = "en-US") -> dict[str, str]:
    """The characters of `text` a phone whose navigator.language is `language` would draw as a
    box -> why: alone in a frame, and with the rest of the text."""
    found = {}
    missing = frozenset(ord(ch) for ch in text if unicodedata.category(ch) not in INVISIBLE and ord(ch) not in roboto())
    for c in missing:
        if c not in by_character():  # (not `missing - keys()`: that copies every key into a set)
            found[chr(c)] = "no font of Flutter's table has it"
    for group in [missing] + [frozenset((c,)) for c in missing]:
        for c, font in engine_choice(group, language).items():
            cmap = served_cmap(font.url)
            if cmap is None:
                found[chr(c)] = f"{font.name} is not served"
            elif c not in cmap:
                found[chr(c)] = f"{font.name} is served without it"
    return found


def catalog_texts(code: str) -> list[str]:
    if code == "en":
        with lang.TEMPLATE.open("rb") as f:
            return [s for m in read_po(f) if m.id for s in (m.id if isinstance(m.id, tuple) else (m.id,))]
    lang.set_language(code)
    translations = lang.translations(code)
    with (lang.LOCALES / code / "LC_MESSAGES" / f"{lang.DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    texts = []
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            texts += [translations.ngettext(m.id[0], m.id[1], n) for n in (0, 1, 2, 3, 5, 22, 25)]
        else:
            texts.append(translations.pgettext(m.context, m.id) if m.context else translations.gettext(m.id))
    return texts


def date_texts() -> list[str]:
    """Every form the app writes a date, time, number and list in, over a year's months and a week's days."""
    days = [date(2026, month, 1 + month) for month in range(1, 13)] + [date(2026, 11, 23) + timedelta(d) for d in range(7)]
    texts = []
    for d in days:
        moment = datetime(d.year, d.month, d.day, 21, 5, 9)
        texts += [lang.day(d), lang.day_with_year(d), lang.long_day(d), lang.clock(moment, seconds=True),
                  lang.day_clock(moment, seconds=True, year=True)]
    texts += [lang.number(1234567.5), lang.number(-42), lang.names(NAMES[:3]), lang.names(NAMES[:2])]
    return texts


@pytest.mark.parametrize("code", list(lang.LANGUAGES))
def test_every_character_a_phone_shows_is_drawn(code):
    try:
        texts = catalog_texts(code)
        lang.set_language(code)
        texts += date_texts() + NAMES + [lang.LANGUAGES[c] for c in lang.LANGUAGES]
    finally:
        lang.set_language("en")
    letterforms = preferences.LETTERFORMS.get(code, "en-US")  # as assets/languages.js tells the engine
    missing = {}
    for text in texts:
        for ch, why in boxes(text, letterforms).items():
            missing.setdefault(ch, (why, text))
    assert not missing, f"{code}: drawn as boxes: " + "; ".join(
        f"{ch!r} U+{ord(ch):04X} ({why}) in {text!r}" for ch, (why, text) in list(missing.items())[:10])


def test_a_character_no_served_font_has_is_found():
    """The check itself: a script the site serves no font for (Thai), and a character in no
    font of Flutter's table, are reported."""
    assert boxes("สมชาย")["ส"] == "Noto Sans Thai is not served"
    assert boxes("\U000F0001") == {"\U000F0001": "no font of Flutter's table has it"}
    assert boxes("Ann") == {} and boxes("髙橋 김민준") == {}


def test_the_engine_table_is_read_from_the_client_and_each_served_file_is_the_engines():
    table = fonts.engine_fonts()
    assert len(table) > 500
    jp = {f.name: f for f in table if f.family == "Noto Sans JP"}
    assert len(jp) > 100 and 0x6708 in jp["Noto Sans JP 118"].code_points  # 月
    made = fonts.plan(table)
    assert not made.missing.keys() & {f.url for f in jp.values()}
    served_files = list((served() / fonts.PREFIX).rglob("*.woff2"))
    assert len(served_files) == len(made.files)


def test_the_offline_copy_keeps_in_the_background_the_cjk_slices_names_are_mostly_written_with():
    """#68: an English phone's offline copy kept 7.1 MB of Japanese, Korean and Chinese slices in
    the background; it keeps those of each script's everyday characters (90 % of them at least)
    and of the variant forms family names keep, a minority of each family's bytes, and the names
    a table types in them (髙橋 too) are in what it keeps."""
    chosen = fonts.everyday_slices(served())
    by_url = {fonts.PREFIX + f.url: f for f in fonts.engine_fonts()}
    names = {"Noto Sans JP": "田中佐藤髙橋翔太さくらケンジ", "Noto Sans KR": "김민준이서연", "Noto Sans SC": "王小明张伟"}
    for family, folder in (("Noto Sans JP", "notosansjp"), ("Noto Sans KR", "notosanskr"), ("Noto Sans SC", "notosanssc")):
        kept = chosen[folder]
        held = frozenset().union(*(by_url[rel].code_points for rel in kept))
        wanted = fonts.everyday(family)
        assert len(held & wanted) >= fonts.EVERYDAY_SHARE * len(wanted), family
        variants = {ord(c) for c in fonts.NAME_VARIANTS} & {c for f in by_url.values() if f.family == family
                                                              for c in f.code_points}
        assert variants <= held, family
        assert {ord(c) for c in names[family]} <= held, family
        whole = sum(p.stat().st_size for p in (served() / fonts.PREFIX / folder).rglob("*.woff2"))
        assert sum((served() / rel).stat().st_size for rel in kept) < 0.5 * whole, family
