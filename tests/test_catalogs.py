"""The message catalogs are whole (#33): every message of the code is in the template, every
language has every message translated (no fuzzy one), with the plural forms its grammar needs
and the same placeholders as the English."""
from __future__ import annotations

import re

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from tests.browser_harness import REPO_ROOT
from views.words import lang

TRANSLATED = [code for code in lang.LANGUAGES if code != "en"]
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None}


def read(path, code=None):
    with open(path, "rb") as f:
        return read_po(f, locale=code)


def template():
    return read(lang.TEMPLATE)


def catalog(code):
    return read(lang.LOCALES / code / "LC_MESSAGES" / f"{lang.DOMAIN}.po", code)


def ids(message) -> tuple:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def strings(message) -> tuple:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def holders(text: str) -> set[str]:
    return set(lang.PLACEHOLDER.findall(text))


def test_the_template_holds_every_message_of_the_code():
    in_code = set()
    for folder in ("scoring", "storage", "views"):
        for _file, _line, message, _comments, context in extract_from_dir(
                REPO_ROOT / folder, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
            in_code.add((context, message if isinstance(message, str) else message[0]))
    for _line, message, _comments, context in extract_from_file("python", REPO_ROOT / "main.py", keywords=KEYWORDS):
        in_code.add((context, message if isinstance(message, str) else message[0]))
    in_template = {(m.context, ids(m)[0]) for m in template() if m.id}
    missing = sorted(str(m) for m in in_code - in_template)
    assert not missing, f"not in views/words/locales/pandapad.pot (run `make catalogs`): {missing[:10]}"
    stale = sorted(str(m) for m in in_template - in_code)
    assert not stale, f"in the template but no longer in the code (run `make catalogs`): {stale[:10]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(code):
    translated = catalog(code)
    missing, fuzzy = [], []
    for message in template():
        if not message.id:
            continue
        found = translated.get(message.id, context=message.context)
        if found is None or not all(strings(found)):
            missing.append(ids(message)[0])
        elif found.fuzzy:
            fuzzy.append(ids(message)[0])
    assert not missing, f"{code}: {len(missing)} messages not translated, e.g. {missing[:8]}"
    assert not fuzzy, f"{code}: {len(fuzzy)} fuzzy messages (check and unmark them), e.g. {fuzzy[:8]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_translation_has_the_english_placeholders(code):
    wrong = []
    for message in catalog(code):
        if not message.id or not all(strings(message)):
            continue
        english = set().union(*(holders(i) for i in ids(message)))
        for text in strings(message):
            # A plural form may leave out {n} ("one die"), never add or misspell one.
            extra = holders(text) - english
            lost = english - holders(text) - {"{n}"}
            if extra or lost:
                wrong.append(f"{ids(message)[0]!r} -> {text!r}")
            try:
                text.format(**{h.strip("{}"): 1 for h in english | holders(text)})
            except (ValueError, IndexError, KeyError) as exc:
                wrong.append(f"{text!r}: {exc}")
    assert not wrong, f"{code}: placeholders differ from the English:\n" + "\n".join(wrong[:10])


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_has_the_plural_forms_of_its_grammar(code):
    translated = catalog(code)
    plural = get_plural(code)
    assert translated.num_plurals == plural.num_plurals, code
    for message in translated:
        if message.id and isinstance(message.id, tuple):
            assert len(message.string) == plural.num_plurals, f"{code}: {message.id[0]!r}"


def test_a_phone_in_german_gets_german_plurals_and_list_words():
    lang.set_language("de")
    try:
        one = lang.n_("{have} of {n} die", "{have} of {n} dice", 1, have=0)
        two = lang.n_("{have} of {n} die", "{have} of {n} dice", 2, have=1)
        assert (one, two) == ("0 von 1 Würfel", "1 von 2 Würfeln")
        assert lang.names(["Ann", "Ben", "Cat"]) == "Ann, Ben und Cat"
    finally:
        lang.set_language("en")


def test_the_pseudo_locale_marks_every_message_and_keeps_its_placeholders():
    lang.set_language(lang.PSEUDO)
    try:
        assert lang._("Undo").startswith("⟦") and lang._("Undo").endswith("⟧")
        said = lang._("{name} went out", name="Ann")
        assert said.startswith("⟦") and "Ann" in said
    finally:
        lang.set_language("en")


def test_a_phone_speaks_the_first_of_its_languages_that_pandapad_speaks():
    assert lang.of_phone(["sv-SE", "de-AT", "en"]) == "de"
    assert lang.of_phone(["ja-JP"]) == "ja"
    assert lang.of_phone(["pt-PT"]) == lang.of_phone(["pt-BR"]) == "pt_BR"
    assert lang.of_phone(["zh-TW", "ko"]) == lang.of_phone(["zh-Hans-CN"]) == "zh_Hans"
    assert lang.of_phone(["ko-KR", "en"]) == "ko"
    assert lang.of_phone(["pl"]) == "pl"
    assert lang.of_phone([]) == "en"


@pytest.mark.parametrize("header, speaks", [
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("sv-SE,sv;q=0.9,fr;q=0.7,es;q=0.8", "es"),   # the weights count, not the order written
    ("pt-BR,pt;q=0.9,en;q=0.8", "pt_BR"),
    ("fr;q=0, sv", "en"),                          # q=0: "not French"
    ("*, es;q=0.1", "es"),
    ("ko;q=abc, sv", "en"),                        # a weight that is no number: that language is skipped
    ("ko;q=abc, zh", "zh_Hans"),
    ("", "en"),
    (None, "en"),
])
def test_a_browser_that_names_its_languages_in_its_request_gets_the_first_pandapad_speaks(header, speaks):
    """What the table reads from a phone's Accept-Language as it connects (the locked page
    too): views/hosts/gate.accepted_languages."""
    from views.hosts.gate import accepted_languages
    assert lang.of_phone(accepted_languages(header)) == speaks


def test_the_command_line_tells_a_person_in_the_terminals_language_and_prints_the_same_scores(tmp_path):
    import json
    import os
    import subprocess
    import sys

    from tests import finished_examples as fx

    record = tmp_path / "game.json"
    record.write_text(json.dumps(fx.pandoria().to_json()))
    german = {**os.environ, "LANG": "de_DE.UTF-8"}
    runs = [subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args], capture_output=True, text=True,
                           env=env, cwd=REPO_ROOT, timeout=60)
            for env in (os.environ, german) for args in (["score", str(record)], ["list", "--data-dir", ""])]
    english_scores, english_refusal, german_scores, german_refusal = runs
    assert german_scores.returncode == 0 and german_scores.stdout == english_scores.stdout  # what tools read
    assert german_refusal.returncode == english_refusal.returncode == 2
    lang.set_language("de")
    try:
        said = lang._("{option} is empty; give the folder of the store", option="--data-dir")
    finally:
        lang.set_language("en")
    assert "is empty" in english_refusal.stderr and said in german_refusal.stderr and said != "is empty"


def test_a_chinese_message_has_chinese_punctuation_not_latin():
    """#56: "得分原因?", "谁最先出完?": a Chinese sentence ends with the full-width mark."""
    latin = [f"{ids(m)[0]!r} -> {text!r}" for m in catalog("zh_Hans") if m.id for text in strings(m)
             if text and any(mark in text for mark in "?!,")]
    assert not latin, latin


# A particle written as a choice ("{name}이(가)"): what a form letter does, never a Korean sentence.
CHOICE = re.compile(r"\((이|가|은|는|을|를|과|와|으|아|야|이에요|예요)\)|(이|은|을|과|와|가|는|를)\([가-힣]\)")


def test_no_korean_particle_is_written_as_a_choice():
    """#56: "{name}이(가)", "은(는)", "을(를)", "(으)로", "과(와)" read as machine-made; the messages say
    "{name} 님이" or put the name where no particle follows it."""
    chosen = [f"{ids(m)[0]!r} -> {text!r}" for m in catalog("ko") if m.id for text in strings(m)
              if text and CHOICE.search(text)]
    assert not chosen, chosen


def test_a_korean_phone_tells_the_time_as_a_korean_clock_does():
    """#56: "11월 27일 PM 9:50": CLDR's short day period is Latin in Korean; a Korean phone says 오후."""
    import datetime

    evening, morning = datetime.datetime(2026, 11, 27, 21, 50), datetime.datetime(2026, 11, 27, 9, 5, 9)
    lang.set_language("ko")
    try:
        said = [lang.day_clock(evening), lang.clock(morning, seconds=True)]
    finally:
        lang.set_language("en")
    assert [lang.plain(s.replace(lang.JOIN, "")) for s in said] == ["11월 27일 오후 9:50", "오전 9:05:09"]
    assert "\u00a0" in said[0].split("일")[-1]  # "오후 9:50" is not broken between its words
    assert lang.written_forms("en")[4] == "09:05"  # and a 24-hour clock is as it was


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_games_length_stays_on_one_line(code):
    """#56: "…2026 · 1 | Min." on a German result card: a number and its unit are held together."""
    translated = catalog(code)
    for message in ("{minutes} min", "{hours} h {minutes}"):
        said = translated.get(message).string
        assert " " not in said, f"{code}: {said!r}"


def test_in_german_the_match_is_a_spiel_and_each_game_of_it_a_partie():
    """#56: German players say "Spiel beenden" for the whole match and "Partie 2 speichern" for one game
    of it (Ur's games, Pass the Pandas' match); the catalog had them the other way round."""
    wrong = []
    for m in catalog("de"):
        english = " ".join(ids(m)).lower() if m.id else ""
        for text in strings(m) if m.id else ():
            if "match" in english and "game" not in english and "Partie" in text:
                wrong.append(f"{ids(m)[0]!r} -> {text!r}")
            if re.search(r"\bgames? (\{game\}|won|wins|being entered)|first game|game (saved|kept) yet|margin of a game",
                         english) and "Spiel " in text.replace("Spiels", ""):
                wrong.append(f"{ids(m)[0]!r} -> {text!r}")
    assert not wrong, wrong


def test_a_die_colour_is_not_named_twice_where_its_letter_is_its_name():
    """#56: "紫（紫）" above the purple faces: in Japanese, Korean and Chinese a colour's letter is its name's
    first character, so the title names it once; in English it still gives the letters printed on the dice."""
    from views.pads.panda_royale.state import pad_title

    said = {}
    for code in ("en", "ja", "ko", "zh_Hans", "pl"):
        lang.set_language(code)
        try:
            said[code] = lang.plain(pad_title("purple", "x")).replace(lang.JOIN, "")
        finally:
            lang.set_language("en")
    assert said == {"en": "Purple (Pu): x", "ja": "紫：x", "ko": "보라: x", "zh_Hans": "紫色：x", "pl": "Fioletowa (F): x"}


@pytest.mark.parametrize("code", [*TRANSLATED, lang.PSEUDO])
@pytest.mark.parametrize("drawn", [True, False])
def test_a_catalog_read_from_its_mo_gives_the_messages_of_its_po(code, drawn, tmp_path, monkeypatch):
    """The phone build ships .mo files compiled by web/build.py (lang.compiled), not the .po: a
    language read from its .mo gives every message, plural form and line break as from its .po."""
    monkeypatch.setattr(lang, "_drawn", drawn)
    lang.translations.cache_clear()
    try:
        from_po = lang.translations(code)
        locales = tmp_path / "locales"
        (locales / code / "LC_MESSAGES").mkdir(parents=True)
        (locales / code / "LC_MESSAGES" / f"{lang.DOMAIN}.mo").write_bytes(lang.compiled(code))
        monkeypatch.setattr(lang, "LOCALES", locales)  # nothing there but the .mo
        monkeypatch.setattr(lang, "TEMPLATE", locales / "absent.pot")
        lang.translations.cache_clear()
        from_mo = lang.translations(code)
        assert len(from_po._catalog) > 500
        assert from_mo._catalog == from_po._catalog
        assert [from_mo.ngettext("{n} new", "{n} new", n) for n in (0, 1, 2, 5, 22, 101)] == \
            [from_po.ngettext("{n} new", "{n} new", n) for n in (0, 1, 2, 5, 22, 101)]
    finally:
        monkeypatch.undo()
        lang.translations.cache_clear()


def test_a_mo_beside_its_po_is_never_read(tmp_path, monkeypatch):
    """Where the .po is (a checkout, the server), it is what the app reads: a .mo a translator's
    tools left beside it, stale the moment the .po is edited, is not."""
    folder = tmp_path / "locales" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{lang.DOMAIN}.po").write_bytes((lang.LOCALES / "de" / "LC_MESSAGES" / f"{lang.DOMAIN}.po").read_bytes())
    (folder / f"{lang.DOMAIN}.mo").write_bytes(b"not a catalog")
    monkeypatch.setattr(lang, "LOCALES", tmp_path / "locales")
    lang.translations.cache_clear()
    try:
        assert len(lang.translations("de")._catalog) > 500
    finally:
        monkeypatch.undo()
        lang.translations.cache_clear()
