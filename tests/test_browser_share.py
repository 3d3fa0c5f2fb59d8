"""After the game, in headless Chromium on a phone: `Share the result` and `Log in BG Stats` on
the final standings of every pad (right after Finish) and on a finished game opened from the
history; Share gives a PNG of the result card (a download in a desktop browser), Log opens BG
Stats' link for this game. Screenshots of the card for 4 and 10 players, light and dark."""
from __future__ import annotations

import io
import re
from datetime import datetime, timedelta, timezone

import pytest
from PIL import Image

from scoring import parse_record, share
from storage import Store
from tests import finished_examples as fx
from tests.browser_harness import (ARTIFACTS_DIR, PHONE, flet_server, open_app_page, screenshot, scrolled_to,
                                   wait_for_paint, wait_for_text)
from tests.records_for_tests import record
from tests.test_share import decoded
from views.words import lang

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FOUR = ["Mei", "Jonas", "Aylin", "Sebastián"]
# A table's names in Japanese and Korean (#45): 髙 is a kanji of names that simplified Chinese lacks.
CJK = ["髙橋", "김민준", "Mei", "Jonas"]
TEN = ["Mei", "Jonas", "Aylin", "Sebastián", "Priya", "Tomasz", "Chloé", "Kwame", "Ingrid", "Maximilian-Alexander"]


def royale(names: list[str], gid: str, finished: str | None = fx.FINISHED):
    """Ten complete rounds as the pad wants them (round n: n dice, and a pink die): each player
    rolls two yellows and some green, with a pink die every round after the first."""
    ids = [f"p{k}" for k in range(1, len(names) + 1)]
    rounds = []
    for r in range(10):
        hands = {pid: ({"yellow": [1 + k % 6]} if r == 0 else
                       {"yellow": [1 + k % 6, 1 + (k + r) % 6],
                        "green": [2 + (k * 7 + r * 3 + j) % 11 for j in range(r - 1)],
                        "pink": 1 + (k + r) % 6})
                 for k, pid in enumerate(ids)}
        tops = {pid: sum(h["yellow"]) for pid, h in hands.items()}
        best = max(tops.values())
        rounds.append({"hands": hands, "panda": next(pid for pid in ids if tops[pid] == best)})
    data = {"format": "pandapad/game", "version": 1, "game": "panda-royale", "id": gid, "created": fx.CREATED,
            "finished": finished, "players": [{"id": pid, "name": n} for pid, n in zip(ids, names)],
            "rounds": rounds}
    return parse_record(data)


# The games left at their end were started 90 minutes before the test: finishing them now
# gives a play of at least 90 minutes.
STARTED = (datetime.now(timezone.utc) - timedelta(minutes=90)).strftime("%Y-%m-%dT%H:%M:%SZ")


def unfinished(r):
    return r.model_copy(update={"finished": None, "id": r.id + "-live", "created": STARTED})


# Each pad with a game at its end, not yet finished: the button that finishes it, the words after.
AT_THE_END = {
    "panda-royale": (lambda: unfinished(royale(FOUR, "pad-pr")), "Finish the game", "This game is finished."),
    "royal-ur": (lambda: unfinished(fx.royal_ur()), "End the match", "This match is finished."),
    "nokosu-dice": (lambda: unfinished(parse_record({**record("nokosu-dice", list("ABC"), rounds=[
        {"declared": {"a": 4, "b": 5, "c": 3}, "tricks": {"a": 4, "b": 5, "c": 3}}] * 3),
        "id": "pad-nk"})), "Finish the game", "This game is finished."),
    "pandoria": (lambda: unfinished(fx.pandoria()), "Finish the game", "This game is finished."),
    "pass-the-pandas": (lambda: unfinished(fx.pass_the_pandas()), "Finish the match", "This match is finished."),
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    data = tmp_path_factory.mktemp("share")
    # The finished Pandoria game a day earlier than the one left at its end: told apart in History.
    earlier = fx.pandoria().model_copy(update={"created": "2026-11-23T19:04:00Z", "finished": "2026-11-23T20:40:00Z"})
    games = {"four": royale(FOUR, "card-four"), "ten": royale(TEN, "card-ten"), "pandoria": earlier,
             "kanji and hangul": royale(CJK, "card-cjk")}
    with Store.open(data) as store:
        for r in games.values():
            store.save(r, None)
        for make, _finish, _said in AT_THE_END.values():
            store.save(make(), None)
    return data, games


@pytest.fixture(scope="module")
def server(stored):
    with flet_server("main.py", args=["--data-dir", str(stored[0])], port_arg="--port") as s:
        yield s


def phone(browser, server, path: str = "", **kwargs):
    page = open_app_page(browser, server.url + path.lstrip("/"), **{**PHONE, **kwargs})
    # No network here: BG Stats' page is answered by the test, which only looks at the address.
    page.context.route("https://app.bgstatsapp.com/**",
                       lambda route: route.fulfill(status=200, content_type="text/html", body="<p>BG Stats</p>"))
    return page


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True).first


def check_png(data: bytes, min_width: int = 900) -> Image.Image:
    """A real picture: a PNG, wide enough for a chat, and not one flat colour."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width >= min_width and image.height >= 300, image.size
    assert len(data) > 20_000, len(data)
    colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 50, "the picture is (nearly) one colour"
    return image


def share_png(page, name: str) -> bytes:
    """Tap Share the result; the desktop browser has no share sheet, so the PNG comes as a download."""
    with page.expect_download(timeout=30_000) as got:
        scrolled_to(page, button(page, "Share the result")).tap()
    download = got.value
    assert re.fullmatch(r"pandapad-[a-z-]+-\d{4}-\d\d-\d\d\.png", download.suggested_filename)
    path = ARTIFACTS_DIR / name
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    download.save_as(path)
    return path.read_bytes()


def logged_link(page) -> str:
    """Tap Log in BG Stats: the address BG Stats' page is opened at (a new tab)."""
    with page.context.expect_page(timeout=15_000) as opened:
        scrolled_to(page, button(page, "Log in BG Stats")).tap()
    tab = opened.value
    tab.wait_for_load_state("commit")
    url = tab.url
    tab.close()
    return url


def test_finished_game_from_the_history_shares_a_png_and_logs_its_link(browser, server, stored):
    _, games = stored
    game = games["pandoria"]
    page = phone(browser, server)
    try:
        button(page, "History").tap()
        page.get_by_role("button", name=re.compile(r"^Pandoria, 23 Nov")).first.tap()
        wait_for_text(page, "Winner: A")
        wait_for_paint(page)
        image = check_png(share_png(page, "share_result_pandoria.png"))
        assert image.width == 3 * 360
        wait_for_text(page, "No share sheet here: downloaded as a picture.")
        button(page, "Close").tap()
        url = logged_link(page)
        # The pad's words for the tie on 58 go with the play, as the card shows them.
        outcome = "A and B tie on 58; A wins with 2 resources left over against 0"
        assert url == share.bgstats_link(share.play(game, outcome=outcome))
        data = decoded(url)
        assert [(p["name"], p["score"], p["rank"], p["winner"], p["role"]) for p in data["players"]] == \
            [("A", 58, 1, True, "Humans"), ("B", 58, 2, False, "Mages")]
        assert (data["sourcePlayId"], data["durationMin"]) == ("share-pa", 96)
        assert data["comments"] == outcome
    finally:
        page.context.close()


@pytest.mark.parametrize("game", list(AT_THE_END))
def test_every_pads_final_standings_have_both_buttons(browser, server, game):
    make, finish, said = AT_THE_END[game]
    r = make()
    page = phone(browser, server, f"game/{r.id}")
    try:
        scrolled_to(page, button(page, finish)).tap()
        wait_for_text(page, said)
        for name in ("Share the result", "Log in BG Stats"):
            assert page.get_by_role("button", name=name, exact=True).count() == 1, name
        url = logged_link(page)
        data = decoded(url)
        names = [p.name for p in r.players]
        assert [p["name"] for p in data["players"]] == names
        assert data["sourcePlayId"] == r.id and data["game"]["sourceGameId"] == f"pandapad-{game}"
        assert 90 <= data["durationMin"] < 90 + 60  # finished just now, 90 minutes after the start
        if game == "panda-royale":
            screenshot(page, "share_buttons_panda_royale_412x915")
    finally:
        page.context.close()


@pytest.mark.parametrize("which,scheme,size", [("four", "light", (412, 915)), ("four", "dark", (412, 915)),
                                               ("ten", "light", (412, 915)), ("ten", "dark", (412, 915)),
                                               ("ten", "light", (360, 740))])
def test_result_card_pictures(browser, server, stored, which, scheme, size):
    _, games = stored
    game = games[which]
    width, height = size
    page = phone(browser, server, f"game/{game.id}", color_scheme=scheme, width=width, height=height)
    try:
        names = [p.name for p in game.players]
        page.get_by_text(re.compile(r"^(Winner|Shared win): ")).first.wait_for()
        wait_for_paint(page)
        png = share_png(page, f"result_card_{which}_{scheme}_{width}.png")
        image = check_png(png)
        assert image.width == 3 * min(360, width - 32)
        # The dialog shows the card that was captured: every name on it.
        for name in names:
            page.get_by_text(name, exact=True).first.wait_for()
        screenshot(page, f"result_card_{which}_{scheme}_{width}x{height}")
    finally:
        page.context.close()


def test_names_in_kanji_and_hangul_are_drawn_on_the_result_card(browser, server, stored):
    """#45: the picture Share makes draws 髙橋 and 김민준 from the fonts the site serves (Japanese
    letterforms on a Japanese phone, Korean for hangul), fetched before the card is captured."""
    _, games = stored
    game = games["kanji and hangul"]
    page = phone(browser, server, f"game/{game.id}", locale="ja-JP", width=412, height=915)
    try:
        page.get_by_text(re.compile(r"^髙橋|김민준")).first.wait_for()
        wait_for_paint(page)
        with page.expect_download(timeout=30_000) as got:
            lang.set_language("ja")
            try:
                share_it = lang._("Share the result")
            finally:
                lang.set_language("en")
            scrolled_to(page, button(page, share_it)).tap()
        path = ARTIFACTS_DIR / "result_card_kanji_hangul_ja_412.png"
        got.value.save_as(path)
        check_png(path.read_bytes())
        # Every font the page fetched, with what the site answered (the page's own record of it).
        fonts = page.evaluate("""performance.getEntriesByType('resource')
            .filter(e => e.name.includes('/assets/fonts/noto')).map(e => [e.name, e.responseStatus])""")
        families = {url.split("/assets/fonts/")[1].split("/")[0] for url, _status in fonts}
        assert {"notosansjp", "notosanskr"} <= families, fonts
        assert {status for _url, status in fonts} == {200}, fonts
        for name in CJK:
            page.get_by_text(name, exact=True).first.wait_for()
        screenshot(page, "result_card_kanji_hangul_ja_412x915")
    finally:
        page.context.close()


def test_copy_and_share_as_text_and_the_qr_code(browser, server, stored):
    _, games = stored
    game = games["four"]
    page = phone(browser, server, f"game/{game.id}")
    try:
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.get_by_text(re.compile(r"^(Winner|Shared win): ")).first.wait_for()
        wait_for_paint(page)
        scrolled_to(page, button(page, "Copy as text")).tap()
        line = share.result_line(game)
        assert line.startswith("Panda Royale, 24 Nov: 1. ")
        wait_for_text(page, "Copied: " + line)
        assert page.evaluate("navigator.clipboard.readText()") == line
        scrolled_to(page, button(page, "BG Stats QR code")).tap()
        page.get_by_role("img", name="QR code of the BG Stats link").wait_for()
        screenshot(page, "share_bgstats_qr_412x915")
    finally:
        page.context.close()
