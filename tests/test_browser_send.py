"""Send to another phone (#53) in headless Chromium on a phone at the largest text: a finished game
sends itself as one code, a game in progress from its pad's menu, and History sends the last
evening's games as a loop of codes ("Code 1 of 2"); each code whole on a 360 × 740 screen.
Screenshots at 360 × 740 and 412 × 915, light and dark."""
from __future__ import annotations

import re

import pytest

from scoring import parse_record
from storage import Store
from tests import finished_examples as fx
from tests.browser_harness import enable_semantics, flet_server, screenshot, scrolled_to, wait_for_paint, wait_for_text
from tests.pad_checks import phone_page
from tests.records_for_tests import record

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [(360, 740), (412, 915)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("send")
    older = fx.royal_ur().model_copy(update={"id": "older", "created": "2026-11-20T19:00:00Z",
                                             "finished": "2026-11-20T20:00:00Z"})
    live = parse_record({**record("pass-the-pandas", ["John", "Susan", "Bill", "Allison"],
                                  settings={"variant": "panda-monium", "target": 30},
                                  rounds=[{"out": [{"player": "john", "points": 13}]}]),
                         "id": "live", "created": "2026-11-24T21:00:00Z"})
    with Store.open(data) as store:
        # The ten-player game (long names, ten rounds) and Pandoria finished the same evening.
        for r in (older, fx.ten_players(), fx.pandoria(), live):
            store.save(r, None)
    with flet_server("main.py", args=["--data-dir", str(data)], port_arg="--port") as s:
        yield s


def button(page, name):
    return page.get_by_role("button", name=name, exact=True).first


def code_whole_on_screen(page, name: str) -> None:
    box = page.get_by_role("img", name=name).first.bounding_box()
    view = page.viewport_size
    assert box is not None and box["width"] >= 300, box
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= view["width"] \
        and box["y"] + box["height"] <= view["height"], (box, view)


def shots(page, name: str) -> None:
    """The screen as it is, at both sizes, light and dark; back at 360 × 740, light."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            wait_for_paint(page)
            screenshot(page, f"send_{name}_xl_{width}x{height}_{scheme}")
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme="light")
    wait_for_paint(page)


@pytest.mark.timeout(300)  # one walk: three screens photographed at two sizes in two schemes
def test_a_game_and_a_nights_games_are_sent_as_codes_whole_on_a_small_phone(browser, server):
    page = phone_page(browser, server.url, "360x740", color_scheme="light")
    try:
        button(page, "Settings").tap()
        page.get_by_role("radio", name="Extra large").tap()
        page.get_by_text("Saved: text size extra large.", exact=True).first.wait_for()
        button(page, "Back").tap()
        wait_for_text(page, "New game")

        # A finished game: Send to another phone among its actions.
        button(page, "History").tap()
        page.get_by_role("button", name=re.compile(r"^Pandoria, 24 Nov")).first.tap()
        wait_for_text(page, "Winner: A")
        wait_for_paint(page)
        scrolled_to(page, button(page, "Send to another phone"))
        screenshot(page, "send_finished_actions_xl_360x740_light")
        button(page, "Send to another phone").tap()
        page.get_by_role("img", name="QR code of this game").first.wait_for()
        wait_for_text(page, "Pandoria")
        wait_for_text(page, "A and B")
        assert page.get_by_text(re.compile(r"^Code \d+ of \d+$")).count() == 0  # one code
        wait_for_paint(page)
        code_whole_on_screen(page, "QR code of this game")
        shots(page, "one_game")
        code_whole_on_screen(page, "QR code of this game")  # drawn again at 360 after the turns

        # A game in progress: the pad's menu offers it.
        page.goto(server.url + "game/live")
        enable_semantics(page)
        wait_for_text(page, "Pass the Pandas")
        wait_for_paint(page)
        button(page, "More").tap()
        item = page.get_by_role("menuitem", name="Send to another phone")
        item.wait_for()
        screenshot(page, "send_pad_menu_xl_360x740_light")
        item.tap()
        page.get_by_role("img", name="QR code of this game").first.wait_for()
        wait_for_text(page, "John, Susan, Bill and Allison")
        code_whole_on_screen(page, "QR code of this game")
        shots(page, "in_progress")

        # History: Send games chooses the last evening's two; a tap on a row toggles it.
        page.goto(server.url + "history")
        enable_semantics(page)
        wait_for_paint(page)
        button(page, "Send games").tap()
        wait_for_text(page, "Send 2 games")
        wait_for_paint(page)
        screenshot(page, "send_history_choosing_xl_360x740_light")
        page.get_by_role("button", name=re.compile(r"^Royal Game of Ur, 20 Nov")).first.tap()
        wait_for_text(page, "Send 3 games")
        page.get_by_role("button", name=re.compile(r"^Royal Game of Ur, 20 Nov")).first.tap()
        wait_for_text(page, "Send 2 games")
        button(page, "Send 2 games").tap()
        page.get_by_role("img", name="QR code of these games").first.wait_for()
        wait_for_text(page, "2 games")
        caption = page.get_by_text(re.compile(r"^Code \d+ of \d+$")).first
        caption.wait_for()
        n = int(caption.inner_text().split()[-1])
        assert n > 1
        wait_for_text(page, "Code 1 of 2" if n == 2 else f"Code 1 of {n}")  # the loop comes round
        code_whole_on_screen(page, "QR code of these games")
        shots(page, "two_games")

        # The other side: Receive from another phone, the camera not allowed (this page was given
        # no permission): said in words beside the file import, whole at the largest text.
        page.goto(server.url)
        enable_semantics(page)
        scrolled_to(page, button(page, "Receive from another phone")).tap()
        page.get_by_text(re.compile(r"^The camera was not allowed\.")).first.wait_for()
        button(page, "Choose a file to import").wait_for()
        shots(page, "receive_refused")
    finally:
        page.context.close()
