"""The words a person reads, in the language of the phone that reads them (#33).

Every text a screen shows goes through `_` (or `n_` where a number decides the form), with the
English words as the message id and `{name}` placeholders; the catalogs are gettext files made
and read with Babel (views/words/locales/<code>/LC_MESSAGES/pandapad.po, `make catalogs` brings them up
to date with the code). Each phone has its own language, like its own text size: `_` looks up the
session whose event is running (theme.py installs that lookup; no Flet is imported here, so the
Flet-free pad states use it too). Outside any session (the command line, a state test) it is
English, and the record format, exports and `main.py score` never pass through here.
"""
from __future__ import annotations

import io
import math
import re
import unicodedata
from datetime import date as Date
from functools import lru_cache
from pathlib import Path
from typing import Callable

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_skeleton, format_time
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from views.words.per_page import PerPage

DOMAIN = "pandapad"
LOCALES = Path(__file__).resolve().parent / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
# Each choice named in its own language (Settings lists them so).
LANGUAGES = {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français", "it": "Italiano",
             "nl": "Nederlands", "pl": "Polski", "pt_BR": "Português", "ja": "日本語", "ko": "한국어",
             "zh_Hans": "简体中文"}
# A phone's language tag whose first part names one of these speaks it: Brazil's Portuguese for
# every Portuguese, the simplified characters for every Chinese (read by more of a table than
# English would be; Pandapad has no traditional-character catalog).
OF_PRIMARY = {"pt": "pt_BR", "zh": "zh_Hans"}
PHONE = "phone"  # the Settings choice "Phone's language": follow the phone
# A pseudo-locale for the tests (a phone set to Microsoft's pseudo-locale tag gets it): every
# message marked ⟦like this⟧, so a text on screen without the marks did not come from a catalog.
PSEUDO = "qps"
PSEUDO_TAGS = ("qps", "qps-ploc", "en-xa")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

_default = "en"
_pages = PerPage()  # page -> its phone's language
_current_page: Callable[[], object | None] = lambda: None


def use_sessions(current_page: Callable[[], object | None]) -> None:
    """How `_` finds the session it speaks to (theme.py gives Flet's current page)."""
    global _current_page
    _current_page = current_page


def language(page=None) -> str:
    page = page if page is not None else _current_page()
    return _pages.get(page, _default) if page is not None else _default


def set_language(code: str, page=None) -> None:
    """The language of one phone's session (page), or (no page) of everything outside one."""
    global _default
    if page is None:
        _default = code
    else:
        _pages[page] = code


def of_phone(tags) -> str:
    """The language for a phone whose own preference is `tags` (navigator.languages, the
    device's locales; best first): the first one Pandapad speaks, else English."""
    for tag in tags or ():
        tag = str(tag or "").strip().replace("_", "-").lower()
        if tag in PSEUDO_TAGS:
            return PSEUDO
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
        if primary in OF_PRIMARY:
            return OF_PRIMARY[primary]
    return "en"


def of_environment(env) -> str:
    """The language of a terminal (the command line's messages to a person), read as gettext
    reads it: LANGUAGE ('de:fr'), then LC_ALL, LC_MESSAGES, LANG ('de_DE.UTF-8'); English when
    none names a language Pandapad speaks ('C', 'POSIX')."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var) or ""
        if value:
            return of_phone(part.split(".")[0].split("@")[0] for part in value.split(":"))
    return "en"


# The pseudo-locale's words are 40 % longer than the English (#45), as German's and French's often
# are: the words themselves are longer (a vowel said twice, "Šéééţţîîñĝš"), not only the line, since a
# long word that cannot break is what gets cut in a narrow button.
LONGER = 0.4
_ACCENTED = str.maketrans("aceinorstuyACEINORSTUY", "áçéîñöŕšţûýÁÇÉÎÑÖŔŠŢÛÝ")
_VOWELS = set("aeiouyAEIOUY")


def _lengthened(word: str, extra: int) -> str:
    """`word` with `extra` more letters: its vowels said again in turn (its letters, if it has none)."""
    if not extra:
        return word
    places = [i for i, ch in enumerate(word) if ch in _VOWELS] or list(range(len(word)))
    times = [1] * len(word)
    for k in range(extra):
        times[places[k % len(places)]] += 1
    return "".join(ch * n for ch, n in zip(word, times))


def _pseudo(text: str) -> str:
    """⟦Ţhééé wöööŕdš⟧: about 40 % longer than the English, in longer words (each word's share of
    the letters to add, in its own vowels), accented letters, placeholders kept, the marks around."""
    parts = PLACEHOLDER.split(text)
    holders = PLACEHOLDER.findall(text)
    words = [(k, m) for k, part in enumerate(parts) for m in re.finditer(r"[A-Za-z]+", part)]
    letters = sum(len(m.group()) for _k, m in words)
    needed = math.ceil(round(LONGER * sum(map(len, parts)), 6))  # 40 % of the message's own characters
    # Each word's share, in proportion to its length (the largest remainders take what is left).
    shares = [needed * len(m.group()) / letters for _k, m in words] if letters else []
    extra = [int(s) for s in shares]
    for i in sorted(range(len(shares)), key=lambda i: int(shares[i]) - shares[i])[:needed - sum(extra)]:
        extra[i] += 1
    longer = list(parts)
    for k in range(len(parts)):
        mine = [(m, n) for (j, m), n in zip(words, extra) if j == k]
        for m, n in reversed(mine):
            longer[k] = longer[k][:m.start()] + _lengthened(m.group(), n) + longer[k][m.end():]
    out = longer[0].translate(_ACCENTED)
    for holder, part in zip(holders, longer[1:]):
        out += holder + part.translate(_ACCENTED)
    return f"⟦{out}⟧"


def source_path(code: str) -> Path:
    """Where a language's messages are written: its .po (the pseudo-locale's: the template)."""
    return TEMPLATE if code == PSEUDO else LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog(code: str):
    """The messages of a language as its .po file has them (the pseudo-locale's made from the
    template), before any line break is set: what the phone build compiles into its .mo files."""
    from babel.messages.pofile import read_po

    with source_path(code).open("rb") as f:
        found = read_po(f) if code == PSEUDO else read_po(f, locale=code)
    if code == PSEUDO:
        for message in found:
            if message.id:
                message.string = (tuple(_pseudo(s) for s in message.id) if isinstance(message.id, tuple)
                                  else _pseudo(message.id))
    return found


def compiled(code: str) -> bytes:
    """The .mo of a language (fuzzy entries left out, as gettext does)."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog(code))
    return buffer.getvalue()


def mo_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


@lru_cache(maxsize=None)
def translations(code: str) -> NullTranslations:
    """The catalog of a language, compiled in memory from its .po file (the server, a checkout:
    a .mo left beside it by a translator's tools is never read), or, where there is no .po, its
    .mo (the phone build's, web/build.py: no .po parsed in the phone)."""
    if code == "en":
        return NullTranslations()
    source = source_path(code)
    found = Translations(io.BytesIO(compiled(code) if source.is_file() else mo_path(code).read_bytes()), domain=DOMAIN)
    if code in ("ja", "ko", "zh_Hans", "pl") and _drawn:
        # Every message but the header ("": the catalog's own metadata), singular or each plural form.
        found._catalog = {key: kept_whole(text, code) if key else text for key, text in found._catalog.items()}
    return found


# Where lines may break (#45). Flutter breaks a line by Unicode's rules, which allow a break
# between any two kana or kanji: "ゲ / ーム", "Jonasの勝 / 利". A Japanese line breaks between
# the phrases BudouX finds, and a Korean one between words (at spaces), as their typesetting
# does: the characters of a phrase or word are joined by U+FEFF, a joiner of no width that
# forbids a break (Unicode's class WJ) and is in Flutter's own font (so no font is fetched
# for it). A line never starts with a small kana, ー or an iteration mark (kinsoku): Flutter
# would break before them too. A phrase wider than the line is still broken, at its characters.
JOIN = "\ufeff"
# Whether the words are for Flutter to draw (the joiners are its line breaks' business) or for a
# terminal, where a U+FEFF is a stray byte in a pipe (main.py's commands: for_terminal()).
_drawn = True


def plain(text: str) -> str:
    """Words that leave the app as text (copied, shared, in a chat): without the screen's joiners
    and no-break spaces, which only Flutter's line breaks need. A right-to-left name's isolates stay
    (name()): a chat orders the line by the same rules, where "محمد 25" would read "25 محمد"."""
    return text.replace(JOIN, "").replace("\u00a0", " ")


def for_terminal() -> None:
    global _drawn
    _drawn = False
    translations.cache_clear()
NO_LINE_START = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーゝゞヽヾ々"
                    "、。，．）」』】〕〉》”！？：；・")  # small kana, long vowel, closing marks
HANGUL = re.compile("[\uac00-\ud7a3]{2,}")
# Polish typesetting never leaves a one-letter word (a, i, o, u, w, z) at a line's end: it goes to the
# next line with the word it belongs to ("w | rundzie" was on a Polish screen, #56). A no-break space.
ONE_LETTER = re.compile(r"(?<![\w\-'’{])([AaIiOoUuWwZz]) ")


def kept_whole(text: str, code: str) -> str:
    """`text` with a JOIN wherever a line must not break inside a phrase (ja, zh) or word (ko);
    {placeholders} are kept as they are, each one with the phrase it stands in."""
    if code == "ko":
        return numbers_kept(HANGUL.sub(lambda m: JOIN.join(m.group()), text))
    if code == "pl":
        return ONE_LETTER.sub("\\1\u00a0", text)
    if code not in ("ja", "zh_Hans"):
        return text
    holders = PLACEHOLDER.findall(text)
    marked = PLACEHOLDER.sub(lambda m: chr(0xF0000 + holders.index(m.group())), text)  # one character each
    if code == "zh_Hans":
        return numbers_kept(_chinese(spaced(marked), holders))
    out = []
    for phrase in _japanese_phrases().parse(marked):
        out.append(_joined(phrase, ja=True))
        if out[-1] and out[-1][0] in NO_LINE_START and len(out) > 1:
            out[-1] = JOIN + out[-1]
    return _unmarked("".join(out), holders)


def _unmarked(text: str, holders: list[str]) -> str:
    return re.sub("[\U000F0000-\U000F00FF]", lambda m: holders[ord(m.group()) - 0xF0000], text)


# Chinese writes a space between hanzi and a Latin word ("新一局 Panda Royale", #56): in the catalog's
# words as they are read, and where a placeholder's Latin value meets the catalog's hanzi.
HANZI = "\u3400-\u4dbf\u4e00-\u9fff"
_HAN_LATIN = re.compile(f"(?<=[{HANZI}])(?=[A-Za-z])|(?<=[A-Za-z])(?=[{HANZI}])")


def spaced(text: str) -> str:
    return _HAN_LATIN.sub(" ", text)


def _spaced_holders(text: str, values: dict) -> str:
    def around(m: re.Match) -> str:
        holder = m.group().strip(JOIN)
        value = str(values.get(holder[1:-1].split(":")[0].split("!")[0], ""))
        value = "".join(ch for ch in value if ch not in (JOIN, "\u2068", "\u2069"))  # a name's joiners, isolates
        if not value:
            return m.group()
        lead = m.group()[:len(m.group()) - len(m.group().lstrip(JOIN))]  # the catalog's joiners beside it
        tail = m.group()[len(m.group().rstrip(JOIN)):]
        before, after = text[:m.start()][-1:], text[m.end():][:1]
        left = " " if spaced(before + value[0]) != before + value[0] else lead
        right = " " if spaced(value[-1] + after) != value[-1] + after else tail
        return left + holder + right
    return re.sub(f"{JOIN}*{PLACEHOLDER.pattern}{JOIN}*", around, text)


# Chinese (#56): Flutter broke "乌尔王族|局戏" (the Ur game's name) in the bar and on the home, and
# left one hanzi alone on a line ("…获 / 胜", "John 已 / 出完" on a button). A short message (a game's
# name, a label, a button) is one word (beside its placeholders: "新一局 / 乌尔王族局戏"), its spaces
# unbroken if it has no placeholder; a longer one breaks between any two hanzi, as Chinese does, but
# its last hanzi stays with what is before it (a hanzi, a mark, a number: "{rounds}轮"), and no line
# starts with a closing mark. (No word model: the phone build carries BudouX's Japanese one only.)
SHORT = 8
_LAST_TWO = re.compile(f"(?<=\\S)(?=[{HANZI}][{''.join(sorted(NO_LINE_START))}]*$)")
_CLOSING = re.compile(f"(?<=[^\\s])(?=[{''.join(sorted(NO_LINE_START))}])")


def _chinese(marked: str, holders: list[str]) -> str:
    words = re.sub("[ \U000F0000-\U000F00FF]", "", marked)
    if not holders and len(words) <= SHORT:
        return _joined(marked.replace(" ", "\u00a0"))
    if len(words) <= SHORT:  # "{name}已出完" on a button: "已 / 出完" was its two lines
        pieces = re.sub("[^\U000F0000-\U000F00FF]+", lambda m: _joined(m.group()), marked)
        return _unmarked(_CLOSING.sub(JOIN, _LAST_TWO.sub(JOIN, pieces)), holders)
    return _unmarked(_CLOSING.sub(JOIN, _LAST_TWO.sub(JOIN, marked)), holders)


# A number and the hanzi, kana or hangul it counts ("11月", "第3轮", "3라운드"): Flutter may break
# between them, and "（11 / 月24日" was a Chinese home's date (#45).
NUMBER_BESIDE = re.compile(r"(?<=\d)(?=[\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef])"
                           r"|(?<=[\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef])(?=\d)")


def numbers_kept(text: str) -> str:
    return NUMBER_BESIDE.sub(JOIN, text)


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


# A BudouX phrase wider than a line was broken anywhere by Flutter, as a last resort: "モニュ|メント" in
# "種族・呪文・建物・モニュメントなし", "能力な|し" in "種族ボードA面：能力なし、" (#56). Inside a phrase a
# line may still break where Japanese always may (after 、・： and the closing marks, before an opening
# one), and in a phrase longer than LONG, where a word starts (_word_starts: "エクスポート|できません").
BREAK_AFTER = set("、。，．：；・！？）」』】〕〉》")
BREAK_BEFORE = set("（「『【〔〈《")
LONG = 8
KATAKANA = re.compile("[ァ-ヺー]")
HIRAGANA = re.compile("[ぁ-ゖ]")
KANJI = re.compile("[\u4e00-\u9fff]")


def _joined(phrase: str, ja: bool = False) -> str:
    """A phrase kept whole where the script would break it: a JOIN beside each kana, kanji or
    full-width mark. Latin words, numbers and spaces inside it break as they always do (at the
    space), so "Panda Royale" can still wrap and its letters stay a plain word to a screen reader."""
    out = phrase[:1]
    long = ja and len(phrase) > LONG
    for i in range(1, len(phrase)):
        before, ch = phrase[i - 1], phrase[i]
        seam = ja and ch not in NO_LINE_START and (before in BREAK_AFTER or ch in BREAK_BEFORE
                                                   or long and _word_starts(phrase, i))
        out += (JOIN + ch) if (_wide(before) or _wide(ch)) and not before.isspace() and not ch.isspace() \
            and not seam else ch
    return out


def _word_starts(phrase: str, i: int) -> bool:
    """Whether a word starts at phrase[i]: a katakana word begins or ends there (but a one-kana
    particle stays with it: "クリスタルトラックの"), or a kanji follows a kana ("…の|指定")."""
    before, ch = phrase[i - 1], phrase[i]
    if KATAKANA.match(before) and HIRAGANA.match(ch):
        return i + 1 < len(phrase) and bool(HIRAGANA.match(phrase[i + 1]))
    return _wide(before) and _wide(ch) and (bool(KATAKANA.match(ch)) and not KATAKANA.match(before)
                                            or KATAKANA.match(before) and KANJI.match(ch)
                                            or HIRAGANA.match(before) and KANJI.match(ch))


@lru_cache(maxsize=None)
def _japanese_phrases():
    import budoux

    return budoux.load_default_japanese_parser()


# A name a player typed is one word in every language (#55): Flutter breaks a line between any two
# kanji, hanzi or hangul, and "김민|준", "高|橋" were a home's and a History row's. A JOIN beside each
# such character of the name holds it together (the line breaks before or after it); its spaces still
# break, as between two words. Kept is a name (or a list of them) already so.
class _Kept(str):
    pass


# The placeholders that hold a player's name, in every message of the catalogs.
NAME_PLACEHOLDERS = frozenset({"name", "winner", "other", "dealer", "leader", "first", "second"})
# What belongs to the character before it: a combining mark, a variation selector, a skin tone, an
# emoji tag, a joiner of an emoji sequence (a JOIN there would split a family emoji into three).
_BELONGS = ("Mn", "Me", "Mc", "Sk", "Cf")


def _characters(text: str) -> list[str]:
    """`text` in the characters a person sees (close enough for a name: a letter with its marks, an
    emoji with its modifiers and the ones a zero-width joiner adds to it)."""
    out: list[str] = []
    for ch in text:
        if out and (unicodedata.category(ch) in _BELONGS or out[-1].endswith("\u200d")):
            out[-1] += ch
        else:
            out.append(ch)
    return out


# A right-to-left name beside a number is reordered by the bidirectional algorithm (#56): "محمد 5"
# was drawn "5 محمد", the score beside the other name. Such a name is isolated (FSI … PDI): its
# direction stays inside, and what follows it is laid out as the line's own. A name without a
# right-to-left letter cannot be reordered in the app's left-to-right languages and stays as typed.
ISOLATE, POP_ISOLATE = "\u2068", "\u2069"
_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})
# Direction marks typed in a name: invisible, and an isolate does their work (a stray PDI would end it).
_EXPLICIT = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT | _EXPLICIT for ch in text)


def name(text: str, isolated: bool = True) -> str:
    """A typed name as a screen draws it: whole on its line in any language (no break inside a word
    of it), and a right-to-left one isolated (unless `isolated` is False: words only heard, read in
    the order they are written). Unchanged for a terminal; plain() takes the joiners out of text that
    leaves the app, and keeps the isolates (a chat lays the line out by the same rules)."""
    if not _drawn or isinstance(text, _Kept) or not isinstance(text, str):
        return text
    chars = _characters(text.replace(JOIN, ""))
    out = chars[:1]
    for before, ch in zip(chars, chars[1:]):
        if (_wide(before[0]) or _wide(ch[0])) and not before.isspace() and not ch.isspace():
            out.append(JOIN)
        out.append(ch)
    joined = "".join(out)
    if isolated and right_to_left(joined):
        joined = ISOLATE + "".join(ch for ch in joined if unicodedata.bidirectional(ch) not in _EXPLICIT) + POP_ISOLATE
    return _Kept(joined)


def _format(text: str, values: dict) -> str:
    if values and _drawn:
        values = {k: name(v) if k in NAME_PLACEHOLDERS else v for k, v in values.items()}
    if values and language() == "zh_Hans":
        text = _spaced_holders(text, values)
    text = text.format(**values) if values else text
    # A number filled in is held to the hanzi, kana or hangul beside it, as the catalog's are.
    return numbers_kept(text) if values and _drawn and language() in ("ja", "ko", "zh_Hans") else text


def _(message: str, /, **values) -> str:
    """`message` in this phone's language, its {placeholders} filled from `values`."""
    return _format(translations(language()).gettext(message), values)


def n_(singular: str, plural: str, n: int, /, **values) -> str:
    """The form for the number n ('1 die', '2 dice'), {n} and the other placeholders filled."""
    return _format(translations(language()).ngettext(singular, plural, n), {"n": n, **values})


def p_(context: str, message: str, /, **values) -> str:
    """As `_`, for a word whose translation depends on where it stands (msgctxt)."""
    return _format(translations(language()).pgettext(context, message), values)


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined; `_` translates it where it is shown."""
    return message


def problem(p) -> str:
    """What the rules said (a scoring Problem, or the Words of scoring.names) in this phone's
    language: its N_-marked English template translated, then filled from its values; a tuple
    of values (players) is joined as this language joins a list, each said in turn. Words
    without a template (a plain str, a Problem made by hand) are shown as they are."""
    template = getattr(p, "template", "")
    if not template:
        return p if isinstance(p, str) else p.message
    values = {k: names([problem(x) for x in v]) if isinstance(v, tuple) else
              format_decimal(v, "#,##0.0", locale=locale()) if isinstance(v, float) else v for k, v in p.params}
    return _(template, **values)


# English as Pandapad has always written it: "24 Nov", "Ann, Ben and Cat".
FORMS = {"en": "en_GB", PSEUDO: "en_GB"}


def locale(code: str | None = None) -> Locale:
    code = code or language()
    try:
        return Locale.parse(FORMS.get(code, code))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def number(value: int | float) -> str:
    """A number as this phone writes it: 1,234 / 1.234 / 1 234."""
    return format_decimal(value, locale=locale())


def decimal(value: float) -> str:
    """A number with one decimal, as this phone writes it: 5.5 / 5,5."""
    return format_decimal(value, "#,##0.0", locale=locale())


def _kept(date: str) -> str:
    """A short date or time on one line, in any language: its spaces no-break ("24.\u00a0Nov."), its
    numbers held to the 月 and 日 they count, a Korean word whole ("오|후" broke on a home, #56)."""
    if not _drawn:
        return date
    return numbers_kept(HANGUL.sub(lambda m: JOIN.join(m.group()), date.replace(" ", "\u00a0")))


def day(when: Date) -> str:
    """A date without its year, in this phone's form: 'Nov 24', '24. Nov.', '24 nov'."""
    return _kept(format_skeleton("MMMd", when, locale=locale()))


def day_with_year(when: Date) -> str:
    return _kept(format_skeleton("yMMMd", when, locale=locale()))


def long_day(when: Date) -> str:
    """'Tuesday, 24 November 2026', 'Dienstag, 24. November 2026', '2026年11月24日火曜日'."""
    return format_date(when, "full", locale=locale())


def clock(when, seconds: bool = False) -> str:
    """The time of day: '14:05' (or '14:05:09'), '오후 9:50'."""
    form = locale()
    pattern = form.time_formats["medium" if seconds else "short"].pattern
    said = format_time(when, _day_period_said(pattern, form), locale=form)
    return _kept(said)  # "오후 9:50" on one line


def _day_period_said(pattern: str, form: Locale) -> str:
    """`pattern` with its AM/PM as the language writes it: CLDR's short one is Latin in Korean ("PM
    9:50", #56), where a Korean phone's clock says "오후 9:50" (the wide one)."""
    periods = form.day_periods["format"]
    short, wide = periods["abbreviated"].get("pm", ""), periods["wide"].get("pm", "")
    if short.isascii() and wide and not wide.isascii():
        return re.sub(r"(?<![a'])a(?![a'])", "aaaa", pattern)
    return pattern


def day_clock(when, seconds: bool = False, year: bool = False) -> str:
    """'24 Nov 14:05', '24. Nov. 14:05', '11月24日 14:05'."""
    return f"{(day_with_year if year else day)(when)} {clock(when, seconds)}"


def names(items: list[str]) -> str:
    """'Ann, Ben and Cat' / 'Ann, Ben und Cat' / 'Ann、Ben、Cat' / 'Mei 和 Jonas'."""
    if not items:
        return ""
    named = {f"p{k}": name(item) for k, item in enumerate(items)}
    listed = format_list([f"{{{key}}}" for key in named], locale=locale())
    if _drawn and language() == "zh_Hans":  # "Mei和Jonas": a space between a Latin name and 和 (#56)
        listed = _spaced_holders(listed, named)
    return _Kept(listed.format(**named))


def written_forms(code: str) -> list[str]:
    """Every form of a date, time, number and list the app writes, in `code`'s language."""
    import datetime

    before = _default
    set_language(code)
    try:
        moments = [datetime.datetime(2026, month, 24, 14, 5, 9) for month in range(1, 13)]
        forms = [form for moment in moments for form in (
            day(moment), day_with_year(moment), long_day(moment), clock(moment, seconds=True),
            clock(moment.replace(hour=9)), day_clock(moment), day_clock(moment, seconds=True, year=True))]
        return forms + [number(1234567.5), number(-42), decimal(5.5), decimal(12.0),
                        names(["A", "B", "C"]), names(["A", "B"])]
    finally:
        set_language(before)


def read_every_language() -> dict[str, list[str]]:
    """Every language's catalog compiled and every piece of Babel's data the app writes with
    read, once: what the phone build keeps in its snapshot of Python (views/hosts/warm.prepare)
    and what web/build.py learns Babel's needed data files from. Each language's forms."""
    forms = {}
    for code in (*LANGUAGES, PSEUDO):
        translations(code)
        forms[code] = written_forms(code)
    return forms
