"""Pandapad in the phone's own language (#33, #45), in headless Chromium on phones: a table where
each phone reads its own language, games tapped in Japanese, Korean and Polish, and the letterforms
a choice in Settings brings. The walk of every screen in the pseudo-locale that marks each message of
the catalogs (a text a person sees without the marks did not come from them) is
tests/test_browser_clipping.py's, with this module's screens and table. One --lan server for the
module; a phone's language is its browser's (Playwright's `locale`) or its choice in Settings."""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

import json
from pathlib import Path

import scoring
from storage import Store
from tests import finished_examples as fx
from tests.pad_checks import main_py_score
from tests.records_for_tests import record
from tests.browser_harness import (NOT_A_LANGUAGE, PHONE, enable_semantics, open_app_page, scrolled_to,
                                   semantics_texts, table_server, wait_for_fonts, wait_for_paint,
                                   wait_for_text)
from tests.test_browser_share import royale
from views.words import lang
from views.pads.panda_royale.state import face_label
from views.pads.pandoria.sheet import WORDS as PANDORIA_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOKEN = "languages-table-token"
# The games tapped in Japanese, Korean and Polish (#45; German since #33 is the guests' test's and the
# clipping walk's), light and dark, at the largest text size.
PLAYED = {"ja": ("ja-JP", "dark"), "ko": ("ko-KR", "light"), "pl": ("pl-PL", "dark")}
ROYALE = ["Mei", "Jonas", "Aylin"]
YELLOWS = {"Mei": 4, "Jonas": 6, "Aylin": 2}
ENDING = {"Ines": {"cards": 3, "wood": 2}, "Kira": {"cards": 1, "gold": 2}}
REALMS = {"ines": "humans", "kira": "dwarves"}
NAMES = ["Mei", "Jonas", "Aylin", "Sebastián"]
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
# A phone's own words that are not the app's: Flutter's (its tooltip of the back arrow, in the
# phone's language through page.locale_configuration; the pseudo-locale is English to Flutter).
FLUTTERS = re.compile(r"^(Back|Dismiss|Popup menu|\d+ characters? remaining)$")
# Each language in Settings is named in its own words, whatever the phone reads.
OWN_NAMES = set(lang.LANGUAGES.values())


@contextmanager
def speaking(code: str):
    """The catalog's words of `code`, as a test names what it taps."""
    lang.set_language(code)
    try:
        yield
    finally:
        lang.set_language("en")


def at_the_end(r, gid: str):
    return r.model_copy(update={"finished": None, "id": gid})


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data = tmp_path_factory.mktemp("languages-data")
    with Store.open(data) as store:
        for make in fx.ALL.values():  # finished: final standings, history, statistics
            store.save(make(), None)
        for game, make in fx.ALL.items():  # every round in, not finished: the end step
            store.save(at_the_end(make(), f"end-{game}"), None)
        mid = royale(NAMES, "mid-pr", finished=None)  # three rounds in: a pad mid-game
        store.save(mid.model_copy(update={"rounds": mid.rounds[:3]}), None)
        for code in PLAYED:  # a new game each, to be tapped in that language
            store.save(scoring.parse_record({**record("panda-royale", ROYALE), "id": f"pr-{code}",
                                             "created": fx.CREATED}), None)
            store.save(scoring.parse_record({**record("pandoria", list(ENDING), settings={"realms": REALMS},
                                                      log=[{"player": "ines", "points": 9},
                                                           {"player": "kira", "points": 7}]),
                                             "id": f"pa-{code}", "created": fx.CREATED}), None)
    return data


# A right-to-left name beside a score (#56): "محمد 5" was drawn "5 محمد", the number beside the other
# name. An Ur match in progress (its games won) and a finished game (the home's last results, History).
RTL = "محمد"
RTL_PLAYERS = [{"id": "m", "name": RTL}, {"id": "l", "name": "Łukasz"}]
RTL_LATER = {"created": "2026-11-25T19:04:00Z"}  # the newest: first on the home and in History


def rtl_games(store) -> None:
    ur_games = fx.royal_ur().rounds
    ur = {**record("royal-ur", [], rounds=[{**g.model_dump(exclude_none=True), "winner": w}
                                           for g, w in zip(ur_games * 2, "mlm")]),
          "players": RTL_PLAYERS, "id": "rtl-ur", **RTL_LATER}
    store.save(scoring.parse_record(ur), None)
    pr = {**record("panda-royale", [], rounds=[{"hands": {"m": {"yellow": [5], "green": [20]},
                                                          "l": {"yellow": [2], "green": [9]}}}]),
          "players": RTL_PLAYERS, "id": "rtl-pr", **RTL_LATER, "finished": "2026-11-25T20:40:00Z"}
    store.save(scoring.parse_record(pr), None)


@pytest.fixture(scope="module")
def server(data_dir):
    with Store.open(data_dir) as store:
        rtl_games(store)
    with table_server(data_dir, TOKEN) as s:
        yield s


def unmarked(texts: list[str], names: list[str]) -> list[str]:
    """The texts with words outside the pseudo-locale's marks (player names and Flutter's own
    words aside)."""
    found = []
    for text in texts:
        rest, before = text.replace(lang.JOIN, ""), None  # a name's joiners (#55) are no words
        while rest != before:  # a message inside a message: the inner marks first
            before, rest = rest, MARKED.sub(" ", rest)
        for name in names:
            rest = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", rest)
        if re.search(r"[^\W\d_]", rest) and not FLUTTERS.match(text.strip()) and text.strip() not in OWN_NAMES:
            found.append(text)
    return found


SCREENS = [
    ("home", "", "Pandapad"),
    *[(f"new {game}", f"new/{game}", None) for game in fx.ALL],
    ("Panda Royale mid-game", "game/mid-pr", None),
    *[(f"{game} at its end", f"game/end-{game}", None) for game in fx.ALL],
    *[(f"{game} finished", f"game/{make().id}", None) for game, make in fx.ALL.items()],
    ("history", "history", None),
    *[(f"statistics of {game}", f"stats/{game}", None) for game in fx.ALL],
    ("a player's page", "player/Susan", None),
    ("Your data", "data", None),
    ("Settings", "settings", None),
    ("Invite players", "invite", None),
]


# The pseudo-locale walk of every screen (SCREENS), which fails on a word not from the catalogs
# (unmarked), is tests/test_browser_clipping.py's: one walk, at 320 px and extra-large text, reads both.
WALK_NAMES = ["A", "B", "C", "D", "E", "F", "John", "Susan", "Bill", "Allison", *NAMES, *ROYALE, *ENDING, "Pandapad"]


def test_a_browser_whose_language_tag_is_not_a_language_opens_the_table_in_english(browser, server):
    """#46: on the LAN server as on the phone build (tests/test_web_phone.py), "C" is no language."""
    page = open_app_page(browser, f"{server.url}?token={server.host_token}", width=360, height=740,
                         init_script=NOT_A_LANGUAGE, **PHONE)
    try:
        assert page.evaluate("navigator.languages") == ["en"]
        wait_for_text(page, "New game")
    finally:
        page.context.close()


def test_the_check_finds_a_word_that_is_not_from_the_catalogs():
    assert unmarked(["⟦Ŕöûñđ 1 öƒ 10⟧", "Mei", "⟦⟦Šéţţîñĝš⟧: 3⟧"], ["Mei"]) == []
    assert unmarked(["⟦Ŕöûñđ⟧ of 10", "Total 12"], []) == ["⟦Ŕöûñđ⟧ of 10", "Total 12"]


def test_a_spanish_guest_and_an_english_host_each_read_their_own_language(browser, server):
    host = open_app_page(browser, f"{server.url}game/mid-pr?token={server.host_token}", width=412, height=915,
                         locale="en-US", **PHONE)
    guest = open_app_page(browser, f"{server.url}game/mid-pr?token={TOKEN}", width=412, height=915,
                          locale="es-ES", **PHONE)
    try:
        with speaking("es"):
            round_3 = lang._("Round {round} is in", round=3)
        assert round_3 != "Round 3 is in"
        wait_for_text(host, "Round 3 is in")
        wait_for_text(guest, round_3)
        assert not any("Round 3 is in" in t for t in semantics_texts(guest))
        # The guest chooses German in its Settings: the host's phone stays in English.
        guest.goto(f"{server.url}settings?token={TOKEN}")
        enable_semantics(guest)
        with speaking("es"):
            wait_for_text(guest, lang._("Language"))
        guest.get_by_role("radio", name="Deutsch").tap()
        with speaking("de"):
            wait_for_text(guest, lang._("Language"))
            settings_de = lang._("Settings")
        guest.goto(f"{server.url}game/mid-pr?token={TOKEN}")  # kept in the phone, as a text size is
        enable_semantics(guest)
        with speaking("de"):
            wait_for_text(guest, lang._("Round {round} is in", round=3))
        host.goto(f"{server.url}settings?token={server.host_token}")
        enable_semantics(host)
        wait_for_text(host, "Language")
        assert settings_de not in semantics_texts(host)
        host.get_by_role("radio", name="Phone's language").wait_for()
        wait_for_paint(host)
        assert host.get_by_role("radio", name="Phone's language").get_attribute("aria-checked") == "true"
    finally:
        host.context.close()
        guest.context.close()


def phone_in(browser, server, path: str, code: str):
    """A guest's phone in `code`'s language, at extra-large text, in its theme."""
    locale, mode = PLAYED[code]
    prefs = {"text_size": "extra-large", "theme": mode}
    script = "".join(f"localStorage.setItem('flutter.pandapad.{k}', JSON.stringify({json.dumps(v)}));"
                     for k, v in prefs.items())
    return open_app_page(browser, f"{server.url}{path}?token={TOKEN}", width=360, height=740, locale=locale,
                         init_script=script, color_scheme=mode, **PHONE)


def exported(browser, server, gid: str) -> dict:
    """The game as the app's own Export JSON writes it (the host's Your data)."""
    page = open_app_page(browser, f"{server.url}data?token={server.host_token}", accept_downloads=True)
    try:
        with page.expect_download() as download:
            page.get_by_role("button", name="Export JSON", exact=True).click()
        games = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["games"]
    finally:
        page.context.close()
    return next(g for g in games if g["id"] == gid)


def standings_said(record_data: dict, code: str) -> list[str]:
    """Each line of the standings as `main.py score` places them, in that language's words."""
    result = main_py_score(record_data)
    names = {p["id"]: p["name"] for p in record_data["players"]}
    with speaking(code):
        return [lang._("{place}. {name}: {total}", place=p["place"], name=names[p["id"]], total=p["total"])
                for p in result["players"]]


@pytest.mark.parametrize("code", list(PLAYED))
def test_a_panda_royale_round_tapped_in_each_language_scores_as_main_py_score(browser, server, code, artifacts_dir):
    page = phone_in(browser, server, f"game/pr-{code}", code)
    try:
        with speaking(code):
            wait_for_text(page, lang._("Round {round} of {rounds}", round=1, rounds=10))
            wait_for_fonts(page)  # the dice move down when the Japanese glyphs come
            for k, name in enumerate(ROYALE):
                page.get_by_role("button", name=face_label("yellow", YELLOWS[name]), exact=True).tap()
                step = (lang._("Next: {name}", name=ROYALE[k + 1]) if k + 1 < len(ROYALE)
                        else lang._("Close the round"))
                page.get_by_role("button", name=step, exact=True).tap()
            wait_for_text(page, lang._("Round {round} is in", round=1))
        wait_for_paint(page)
        page.screenshot(path=str(artifacts_dir / f"languages_panda_royale_{code}_360x740_xl.png"))
        game = exported(browser, server, f"pr-{code}")
        assert [h["yellow"] for h in game["rounds"][0]["hands"].values()] == [[YELLOWS[n]] for n in ROYALE]
        for line in standings_said(game, code):
            page.get_by_role("group", name=line).or_(page.get_by_text(line, exact=True)).first.wait_for()
    finally:
        page.context.close()


@pytest.mark.parametrize("code", list(PLAYED))
def test_a_pandoria_end_step_tapped_in_each_language_scores_as_main_py_score(browser, server, code, artifacts_dir):
    page = phone_in(browser, server, f"game/pa-{code}", code)
    try:
        with speaking(code):
            page.get_by_role("button", name=lang._("Score the game"), exact=True).tap()
            names = list(ENDING)
            for k, name in enumerate(names):
                for part, n in ENDING[name].items():
                    more, _fewer, _pick, _title, said = PANDORIA_WORDS[part]
                    for _tap in range(n):
                        page.get_by_role("button", name=lang._(more, name=name), exact=True).tap()
                    page.get_by_text(lang._(said, name=name, n=n), exact=True).or_(
                        page.get_by_role("group", name=lang._(said, name=name, n=n))).first.wait_for()
                if k + 1 < len(names):
                    page.get_by_role("button", name=lang._("Next: {name}", name=names[k + 1]), exact=True).tap()
            wait_for_paint(page)
            page.screenshot(path=str(artifacts_dir / f"languages_pandoria_end_{code}_360x740_xl.png"))
            page.get_by_role("button", name=lang._("Finish the game"), exact=True).tap()
            wait_for_text(page, lang._("This game is finished."))
        wait_for_paint(page)
        page.screenshot(path=str(artifacts_dir / f"languages_pandoria_final_{code}_360x740_xl.png"))
        game = exported(browser, server, f"pa-{code}")
        for name, parts in ENDING.items():
            pid = name.lower()
            assert {part: game["final"][pid][part] for part in parts} == parts
        result = main_py_score(game)
        names = {p["id"]: p["name"] for p in game["players"]}
        with speaking(code):  # "1. Ines: 12", read from the final standings
            for p in result["players"]:
                line = lang._("{place}. {name}: {shown}", place=p["place"], name=names[p["id"]], shown=p["total"])
                scrolled_to(page, page.get_by_role("group", name=line).or_(
                    page.get_by_text(line, exact=True)).first)
    finally:
        page.context.close()


def test_japanese_chosen_on_an_english_phone_opens_again_in_japanese_letterforms(browser, server):
    """#45: kanji shared by Japanese and Chinese are drawn in the letterforms of the language the
    engine was told as it started (assets/languages.js). Choosing Japanese in Settings on an
    English phone opens the app again, which then draws from the Japanese font, not the Chinese."""
    page = open_app_page(browser, f"{server.url}settings?token={TOKEN}", width=360, height=740,
                         locale="en-US", **PHONE)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/assets/fonts/noto" in r.url else None)
    try:
        wait_for_text(page, "Language")
        assert page.evaluate("navigator.language") == "en-US"
        with page.expect_navigation():
            page.get_by_role("radio", name="日本語").tap()
        enable_semantics(page)
        with speaking("ja"):
            wait_for_text(page, lang._("Language"))
        assert page.evaluate("navigator.language") == "ja"
        wait_for_paint(page)
        assert page.url.startswith(f"{server.url}settings"), page.url
        japanese = [u for u in asked if "/notosansjp/" in u]
        assert japanese, asked
    finally:
        page.context.close()


# Read after the clipping walk's HOOK_JS (tests/test_browser_clipping.py), which it chains onto: as the
# engine paints a paragraph where the name RTL is followed by a number (spaces, a colon, a middle dot, marks of
# direction and joiners between), where it draws each, from its own layout (Skia's boxes of the two ranges).
BESIDE_JS = r"""
(() => {
  const P = window.__ppText, hooked = Object.getOwnPropertyDescriptor(window, "_flutter_skwasmInstance");
  P.beside = [];
  let instance;
  Object.defineProperty(window, "_flutter_skwasmInstance", {configurable: true, get: () => instance,
    set: h => { hooked.set.call(window, h); instance = h;
      try { watch(h); } catch (e) { P.error = P.error || String(e && e.stack || e); } }});
  function watch(h) {
    const X = h.wasmExports, draw = X.canvas_drawParagraph;  // the clipping hook's wrapped exports
    let rect = 0;
    const boxes = (p, a, b) => {
      rect = rect || X.skData_getPointer(X.skData_create(16));
      const list = X.paragraph_getBoxesForRange(p, a, b, 0, 0), out = [];  // tight boxes
      for (let i = 0, n = X.textBoxList_getLength(list); i < n; i++) {
        X.textBoxList_getBoxAtIndex(list, i, rect);
        out.push(Array.from(new Float32Array((h.wasmMemory || X.memory).buffer, rect, 4)));
      }
      X.textBoxList_dispose(list);
      return out;
    };
    const NAME = "RTL", after = /^[\u200e\u200f\u2066-\u2069\uFEFF\u00A0 :\u00B7]*([\u2212-]?\d+)/;
    X.canvas_drawParagraph = (c, p, x, y) => {
      const r = P.paras.get(p);
      if (r) for (let k = r.text.indexOf(NAME); k >= 0; k = r.text.indexOf(NAME, k + 1)) {
        const m = after.exec(r.text.slice(k + NAME.length));
        if (!m) continue;
        const at = k + NAME.length + m[0].length - m[1].length;
        P.beside.push({text: r.text, name: boxes(p, k, k + NAME.length), number: boxes(p, at, at + m[1].length)});
      }
      return draw(c, p, x, y);
    };
  }
})();
""".replace('"RTL"', json.dumps(RTL))


def on_its_far_side(seen: dict) -> bool:
    """The number drawn left of the name it follows, on the name's line (a left-to-right line: it
    reads as the score of whatever stands before the name)."""
    for x0, top, _x1, bottom in seen["number"]:
        line = [b for b in seen["name"] if b[1] < bottom and top < b[3]]
        if line and x0 < max(b[2] for b in line) - 0.5:
            return True
    return False


def test_a_right_to_left_name_keeps_its_score_on_its_own_side(browser, server, artifacts_dir):
    """#56: an Arabic name and the number after it on one line (the Ur pad's games won, the home's tiles,
    History's rows), read from the engine's layout in English and Japanese: the number stays after the
    name, where a left-to-right line puts it, not on the far side of the name."""
    from tests.test_browser_clipping import HOOK_JS  # (that module imports this one)

    wrong, read = [], {}
    for code, locale in (("en", "en-US"), ("ja", "ja-JP")):
        page = open_app_page(browser, f"{server.url}?token={server.host_token}", width=360, height=740,
                             locale=locale, color_scheme="light", init_script=HOOK_JS + BESIDE_JS, **PHONE)
        try:
            for screen, path in (("home", ""), ("Ur pad", "game/rtl-ur"), ("history", "history")):
                if path:
                    page.goto(f"{server.url}{path}?token={server.host_token}")
                    enable_semantics(page)
                # The app's own signal: the engine painted a name beside its number.
                page.wait_for_function("() => window.__ppText.beside.length > 0 || window.__ppText.error", polling=100)
                wait_for_fonts(page)  # then drawn again with the fonts its scripts fetch
                page.screenshot(path=str(artifacts_dir / f"bidi_{screen.replace(' ', '_')}_{code}_360x740.png"))
                seen = page.evaluate("({error: window.__ppText.error, beside: window.__ppText.beside})")
                assert not seen["error"], seen["error"]
                for one in seen["beside"]:
                    read.setdefault((code, screen), set()).add(one["text"])
                    if on_its_far_side(one):
                        wrong.append(f"{code} {screen}: {one['text']!r}")
        finally:
            page.context.close()
    assert not wrong, "the number drawn on the far side of the name: " + "; ".join(sorted(set(wrong)))
    assert {screen for _code, screen in read} == {"home", "Ur pad", "history"}, read
