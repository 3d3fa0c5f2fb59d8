"""Where a Japanese or Korean line may break (#45). Flutter breaks by Unicode's rules, which allow
a break between any two kana or kanji and inside a hangul word; lang.kept_whole puts a word
joiner (U+FEFF, class WJ: no break on either side) wherever the language forbids one. These tests
read every translated message the way the line breaker does."""
from __future__ import annotations

import re

import pytest

from tests.test_catalogs import catalog, strings
from views.words import lang

SMALL_AND_LONG = set("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー")
CLOSING = set("、。，．）」』】〕〉》”！？：・")
KATAKANA_WORD = re.compile("[ァ-ヺー]{2,}")
NBSP = "\u00a0"  # a no-break space: no break after it either
PREFIX = set("+$£¥€＋￥")  # Unicode's class PR: no break between it and a kanji after it


@pytest.fixture(autouse=True)
def drawn(monkeypatch):
    """Words as a screen draws them, with no translation kept from another test's words: some tests
    here speak to a terminal (lang._drawn False, as main.py's commands do)."""
    monkeypatch.setattr(lang, "_drawn", True)
    lang.translations.cache_clear()
    yield
    lang.translations.cache_clear()


def breaks(text: str) -> list[int]:
    """The places a line may break in `text` (index of the character after it) as Unicode's rules
    allow them between East Asian characters: beside any kana, kanji or hangul, unless a joiner
    stands there; between Latin letters only after a space."""
    out = []
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if lang.JOIN in (before, after) or after.isspace():
            continue
        if before in PREFIX and lang._wide(after):  # UAX 14's LB23a: "+小さな" holds together
            continue
        if before == NBSP or after == NBSP:  # LB12: "S\u00a0格"
            continue
        if before.isspace() or lang._wide(before) or lang._wide(after):
            out.append(i)
    return out


def bare(text: str, places: list[int]) -> list[int]:
    """`places` in `text` counted without the joiners."""
    return [i - text[:i].count(lang.JOIN) for i in places]


def messages(code: str) -> list[str]:
    return [s for m in catalog(code) if m.id for s in strings(m) if s]


def test_a_katakana_word_a_long_vowel_or_a_closing_mark_never_starts_a_line_in_japanese():
    found = []
    for text in messages("ja"):
        shown = lang.kept_whole(text, "ja")
        assert shown.replace(lang.JOIN, "") == text
        plain = shown.replace(lang.JOIN, "")
        for i in bare(shown, breaks(shown)):
            if plain[i] in SMALL_AND_LONG | CLOSING:
                found.append(f"{plain[:i]} / {plain[i:]}")
            for word in KATAKANA_WORD.finditer(plain):
                if word.start() < i < word.end():
                    found.append(f"{plain[:i]} / {plain[i:]}")
    assert not found, found


def test_japanese_lines_still_break_between_phrases():
    shown = lang.kept_whole("ラウンド2のピンクダイス：{name}", "ja")
    plain = shown.replace(lang.JOIN, "")
    assert [plain[i:] for i in bare(shown, breaks(shown))] == ["ピンクダイス：{name}", "{name}"]
    # A Latin name in the message wraps at its space as it would anywhere.
    assert "Panda Royale" in lang.kept_whole("Panda Royaleの新しいゲーム", "ja")


def test_a_korean_word_is_never_broken_and_korean_lines_break_at_spaces():
    found = []
    for text in messages("ko"):
        shown = lang.kept_whole(text, "ko")
        plain = shown.replace(lang.JOIN, "")
        assert plain == text
        for i in bare(shown, breaks(shown)):
            if not plain[i - 1].isspace() and re.match(r"[\uac00-\ud7a3]", plain[i - 1]) \
                    and re.match(r"[\uac00-\ud7a3]", plain[i]):
                found.append(f"{plain[:i]} / {plain[i:]}")
    assert not found, found
    assert bare(*(lambda s: (s, breaks(s)))(lang.kept_whole("새 게임 시작", "ko"))) == [2, 5]


@pytest.mark.parametrize("text", ["ゲーム", "ゼロ", "パンダモニウム", "ラウンド"])
def test_the_words_the_issue_saw_broken_are_kept_whole(text):
    assert breaks(lang.kept_whole(text, "ja")) == []


# What a line holds at the largest text size on a 320 px phone: 288 px of a dialog's text at 23 px.
LINE = 12


def held_runs(shown: str) -> list[str]:
    """The pieces of `shown` a line cannot break inside (without the joiners)."""
    plain = shown.replace(lang.JOIN, "")
    places = [0, *bare(shown, breaks(shown)), len(plain)]
    return [plain[a:b].strip() for a, b in zip(places, places[1:])]


def width(run: str) -> float:
    """In full-width characters; a placeholder as two (a number, a short name), a Latin letter as half."""
    return sum(1 if lang._wide(c) else 0.55 for c in lang.PLACEHOLDER.sub("00", run))


def test_no_japanese_phrase_is_wider_than_a_line_so_no_word_is_broken_as_a_last_resort():
    """#56: "モニュ|メント", "能力な|し", "小さ|な", "クリス|タル": a BudouX phrase (or one held to a "+" or a
    placeholder beside it) wider than the line was broken by Flutter anywhere inside, through a word.
    Inside a long phrase a line may break after 、・： and where a word starts; no run is wider than a line."""
    wide = [f"{run} ({width(run):.1f}) in {text}" for text in messages("ja")
            for run in held_runs(lang.kept_whole(text, "ja")) if width(run) > LINE]
    assert not wide, wide


@pytest.mark.parametrize("text, words", [
    ("種族・呪文・建物・モニュメントなし", ["モニュメント"]),
    ("種族ボードA面：能力なし、開始時の建物あり", ["能力なし、"]),
    ("{name}：クリスタルトラックの上限は{cap}ですが、{value}が入力されています", ["クリスタルトラックの"]),
    ("エクスポートできませんでした：{reason}", ["エクスポート", "できませんでした："])])
def test_a_long_japanese_phrase_breaks_between_its_words_and_never_inside_one(text, words):
    runs = held_runs(lang.kept_whole(text, "ja"))
    assert all(word in runs for word in words), runs
    assert "クリスタルトラック" not in runs  # a one-kana particle stays with its word


def test_a_chinese_game_name_or_label_is_one_word_and_no_hanzi_is_left_alone_on_a_line():
    """#56: the Ur game's name broke inside ("乌尔王族|局戏") in the bar, the new-game title and a home
    tile; one hanzi stood alone on a message's last line (胜, 碑, 子, 片, 格)."""
    broken, alone = [], []
    for text in messages("zh_Hans"):
        shown = lang.kept_whole(text, "zh_Hans")
        plain = shown.replace(lang.JOIN, "")
        assert re.sub("[ \u00a0]", "", plain) == text.replace(" ", "")  # a space between hanzi and Latin only
        places = bare(shown, breaks(shown))
        if len(text.replace(" ", "")) <= lang.SHORT and not lang.PLACEHOLDER.search(text):
            broken += [f"{plain[:i]} / {plain[i:]}" for i in places if not plain[i - 1].isspace()]
        last = plain[places[-1]:].strip() if places else plain
        if places and len(last) == 1 and "\u4e00" <= last <= "\u9fff":
            alone.append(f"{plain[:places[-1]]} / {last}")
        assert not any(plain[i] in CLOSING for i in places), plain
    assert not broken, broken
    assert not alone, alone
    lang.set_language("zh_Hans")
    try:
        titles = [lang._("New {game} game", game=lang._(t)) for t in ("Royal Game of Ur", "Panda Royale")]
        button = lang._("{name} went out", name="John")
        listed = lang.names(["Mei", "Jonas"])
    finally:
        lang.set_language("en")
    assert [t.replace(lang.JOIN, "") for t in titles] == ["新一局乌尔王族局戏", "新一局 Panda Royale"]
    assert held_runs(titles[0]) == ["新一局", "乌尔王族局戏"]
    assert held_runs(button) == ["John", "已出完"]
    assert listed == "Mei 和 Jonas"


def test_a_korean_date_and_time_break_only_between_their_words():
    """#56: "27|일" and "오|후" on a Korean home at 320 px: "Pandoria(11월 24일" could break nowhere
    before its day (no break between a Latin word and "("), so Flutter broke it inside; 오후 was not held."""
    import datetime

    lang.set_language("ko")
    try:
        shown = lang._("Resume {game}, {when}", game="Pandoria",
                       when=lang.day_clock(datetime.datetime(2026, 11, 24, 19, 4)))
    finally:
        lang.set_language("en")
    assert [run.replace(NBSP, " ") for run in held_runs(shown)] == ["Pandoria", "(11월 24일", "오후 7:04)", "이어서", "하기"]


ONE_LETTER_WORD = re.compile(r"(?<![\w\-'’{])[AaIiOoUuWwZz]$")


def test_no_line_of_polish_ends_with_a_one_letter_word():
    """#56: "w", "z" (and a, i, o, u) left at a line's end; Polish typesetting takes them to the next line
    with the word they belong to."""
    found = []
    for text in messages("pl"):
        shown = lang.kept_whole(text, "pl")
        assert shown.replace(NBSP, " ") == text.replace(NBSP, " ")
        plain = shown.replace(lang.JOIN, "")
        found += [f"{plain[:i]} / {plain[i:]}" for i in bare(shown, breaks(shown))
                  if ONE_LETTER_WORD.search(plain[:i].rstrip())]
    assert not found, found[:10]
    lang.set_language("pl")
    try:  # as a phone shows it, from the compiled catalog; what leaves the app has plain spaces
        shown = lang._("Round {n} of {rounds}", n=1, rounds=10)
    finally:
        lang.set_language("en")
    assert shown == "Runda 1 z\u00a010" and lang.plain(shown) == "Runda 1 z 10"


def test_a_terminal_gets_the_words_without_the_screens_joiners():
    """The joiners are Flutter's line breaks' business: main.py's commands print none of them."""
    import os
    import subprocess
    import sys

    from tests.browser_harness import REPO_ROOT

    for terminal in ("ja_JP.UTF-8", "ko_KR.UTF-8", "zh_CN.UTF-8"):
        run = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "list", "--data-dir", ""],
                             capture_output=True, text=True, env={**os.environ, "LANG": terminal},
                             cwd=REPO_ROOT, timeout=60)
        assert run.returncode == 2 and run.stderr.strip(), run
        assert lang.JOIN not in run.stderr, (terminal, run.stderr)
        assert any(ord(c) >= 0x2E80 for c in run.stderr), (terminal, run.stderr)  # it is in that language


def test_a_chinese_or_korean_number_stays_with_what_it_counts():
    for code, message, values in (("zh_Hans", "Round {round} is in", {"round": 3}),
                                  ("ko", "Round {round} is in", {"round": 3})):
        lang.set_language(code)
        try:
            shown = lang._(message, **values)
        finally:
            lang.set_language("en")
        assert [shown.replace(lang.JOIN, "")[i - 1:i + 1] for i in bare(shown, breaks(shown))
                if "3" in shown.replace(lang.JOIN, "")[i - 1:i + 1]] == [], shown


# Names as the issue's walk typed them (#55), in six scripts, and a family emoji (one picture).
TYPED = ["髙橋", "김민준", "王小明", "Łukasz", "Дмитрий", "محمد", "さくら"]
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"


def inside(shown: str, typed: str) -> list[str]:
    """The places a line may break inside the name `typed` where it stands in `shown`."""
    plain = shown.replace(lang.JOIN, "")
    at = plain.index(typed)
    return [f"{plain[:i]} / {plain[i:]}" for i in bare(shown, breaks(shown)) if at < i < at + len(typed)]


@pytest.mark.parametrize("code", ["en", "de", "ja", "ko", "zh_Hans", lang.PSEUDO])
def test_a_typed_name_is_never_broken_inside_in_any_language(code):
    """#55: "김민|준" on a Japanese home's resume card, "高|橋" in a History row. Every way a name goes
    into a line: a message's placeholder, a list of names, the scores of a home card or a History row."""
    from views.screens.history_state import result_line
    from views.screens.home import players_line

    class Summary:
        players = [(f"p{k}", n, 10 * k) for k, n in enumerate(TYPED)]
        winners = [TYPED[0]]

    row = {"players": [(f"p{k}", n, 10 * k, k + 1) for k, n in enumerate(TYPED)], "finished": True,
           "winners": TYPED[:2]}
    lang.set_language(code)
    try:
        lines = [lang._("Winner: {name}", name=n) for n in TYPED]
        lines += [lang._("{winner} won the hand; {name} came last", winner=TYPED[1], name=TYPED[2]),
                  lang.names(TYPED), players_line(Summary), result_line(row)]
    finally:
        lang.set_language("en")
    found = [cut for shown in lines for typed in TYPED if typed in shown.replace(lang.JOIN, "")
             for cut in inside(shown, typed)]
    assert not found, found
    # The line still breaks between the names of a list (at its comma or space), not only before it.
    listed = lines[len(TYPED) + 1]
    assert len(breaks(listed)) >= len(TYPED) - 1, listed


def test_a_name_keeps_its_emoji_and_marks_whole_and_leaves_the_app_plain(monkeypatch):
    """No joiner inside an emoji sequence (a family stays one picture) or between a letter and its mark;
    copied or printed text has none at all."""
    shown = lang.name(FAMILY + "王" + "e\u0301")
    assert FAMILY in shown and "e\u0301" in shown and shown.replace(lang.JOIN, "") == FAMILY + "王e\u0301"
    assert lang.plain(lang._("Winner: {name}", name="김민준")) == "Winner: 김민준"
    monkeypatch.setattr(lang, "_drawn", False)  # main.py's commands (lang.for_terminal)
    assert lang.JOIN not in lang._("Winner: {name}", name="김민준") + lang.names(TYPED)


@pytest.mark.parametrize("code", ["en", "de", "ja", "ko", "zh_Hans"])
def test_a_right_to_left_name_is_isolated_wherever_it_is_drawn_beside_a_number(code, monkeypatch):
    """#56: "محمد 5" was drawn "5 محمد" (the bidirectional algorithm takes the number into the Arabic
    run): a right-to-left name is isolated (FSI … PDI) in a message, a list of names, the home's and
    History's score lines and the shared result; a name without a right-to-left letter, words only heard
    (isolated=False), a terminal and the record keep it as typed."""
    from scoring import parse_record
    from tests.records_for_tests import record
    from views.screens.history_state import result_line
    from views.screens.home import players_line
    from views.pads.pad.share import result_line as shared_line

    rtl = "\u2068محمد\u2069"

    class Summary:
        players = [("m", "محمد", 25), ("l", "Łukasz", 11)]
        winners = ["محمد"]

    game = parse_record({**record("panda-royale", [], rounds=[{"hands": {"m": {"yellow": [5]}, "l": {"yellow": [2]}}}]),
                         "players": [{"id": "m", "name": "محمد"}, {"id": "l", "name": "Łukasz"}]})
    row = {"players": [("m", "محمد", 25, 1), ("l", "Łukasz", 11, 2)], "finished": True, "winners": ["محمد"]}
    lang.set_language(code)
    try:
        lines = [lang._("Games won: {first} {first_wins}, {second} {second_wins}", first="محمد", first_wins=2,
                        second="Łukasz", second_wins=1),
                 lang.names(["محمد", "Łukasz"]), players_line(Summary), result_line(row), shared_line(game)]
        assert all(rtl in line for line in lines), lines
        assert all(re.search(f"{rtl} \\d", line) for line in lines[2:]), lines  # the score after the isolate
        assert lang.name("Łukasz") == "Łukasz" and lang.name("髙橋").replace(lang.JOIN, "") == "髙橋"
        assert lang.name("محمد", isolated=False) == "محمد"
        assert lang.name("مح\u202eمد") == rtl  # a direction mark typed in a name is no use inside its isolate
    finally:
        lang.set_language("en")
    assert [p.name for p in game.players] == ["محمد", "Łukasz"]  # the record: as typed
    monkeypatch.setattr(lang, "_drawn", False)  # main.py's commands (lang.for_terminal)
    assert lang._("Winner: {name}", name="محمد") == "Winner: محمد"
