"""Where a Japanese or Korean line may break (#45). Flutter breaks by Unicode's rules, which allow
a break between any two kana or kanji and inside a hangul word; lang.kept_whole puts a word
joiner (U+FEFF, class WJ: no break on either side) wherever the language forbids one. These tests
read every translated message the way the line breaker does."""
from __future__ import annotations

import re

import pytest

from tests.test_catalogs import catalog, strings
from views import lang

SMALL_AND_LONG = set("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー")
CLOSING = set("、。，．）」』】〕〉》”！？：・")
KATAKANA_WORD = re.compile("[ァ-ヺー]{2,}")


def breaks(text: str) -> list[int]:
    """The places a line may break in `text` (index of the character after it) as Unicode's rules
    allow them between East Asian characters: beside any kana, kanji or hangul, unless a joiner
    stands there; between Latin letters only after a space."""
    out = []
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if lang.JOIN in (before, after) or after.isspace():
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
    assert [plain[i:] for i in bare(shown, breaks(shown))] == ["ピンクダイス：{name}"]
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
