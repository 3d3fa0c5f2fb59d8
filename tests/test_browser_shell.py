"""The shell in headless Chromium: home, new game (players, seat order, limits), and navigation
that the browser's back and forward buttons follow."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser_harness import (enable_semantics, field_back, flet_server, open_app_page, screenshot, type_names,
                                   wait_for_text)
from tests.test_browser_panda_royale import tap_die

# Walked with its animations as most phones play them (the rest of the suite asks for less motion).
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.motion]

GAMES = ["Panda Royale", "Royal Game of Ur", "Nokosu Dice", "Pandoria", "Pass the Pandas"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with flet_server("main.py", args=["--data-dir", str(tmp_path_factory.mktemp("shell-data"))],
                     port_arg="--port") as s:
        yield s


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def tile(page, starts: str):
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(starts)}"))


def seat(page, name: str, seated: int) -> int:
    """Seat one more name; 1 when the field came back focused by itself (see type_names)."""
    return type_names(page, [name], "2\u201310", seated=seated - 1)


def start_panda_royale(page, names) -> str:
    """From the new-game screen: seat `names`, start; returns the game's address."""
    type_names(page, names, "2\u201310")
    button(page, "Start the game").tap()
    wait_for_text(page, "Round 1 of 10")
    return page.url


def test_home_lists_the_five_games(page):
    from scoring import GAMES as RULES
    from views.pads.registry import PADS
    ready = [RULES[g].TITLE for g in PADS]
    assert ready[:2] == GAMES[:2]
    wait_for_text(page, "New game")
    # Flutter's renderer on one thread, as on the table's phones (views/hosts/serving.py OneThread).
    assert page.evaluate("crossOriginIsolated") is False
    for game in ready:  # the ones to tap
        tile(page, game).first.wait_for()
    for game in [g for g in GAMES if g not in ready]:  # listed by name, not tappable yet
        entry = page.get_by_text(re.compile(rf"^{game}"))
        entry.first.wait_for()
        assert "coming soon" in entry.first.inner_text()
        assert tile(page, game).count() == 0
    screenshot(page, "home_412x915")


def test_names_typed_straight_after_enter_are_all_seated(page):
    """A quick typist does not wait for the field to be emptied: "Ann⏎Ben⏎Cat⏎" at 60 ms a key
    seats all three (the letters after each Enter used to go nowhere or be wiped)."""
    tile(page, "Pass the Pandas").first.tap()
    wait_for_text(page, "New Pass the Pandas game")
    box = page.get_by_role("textbox", name="Player name")
    field_back(page, box)
    page.keyboard.type("Ann\nBen\nCat\n", delay=60)
    wait_for_text(page, "3 of 2\u20135")
    for name in ("Ann", "Ben", "Cat"):
        wait_for_text(page, name)
    expect(box).to_have_value("")
    button(page, "Back").tap()
    wait_for_text(page, "New game")


def test_a_name_is_seated_as_it_looks(page):
    """#31: a zero-width space does not make a second Ann, a right-to-left override does not
    show evil as live, and a name of only a zero-width space is no name."""
    tile(page, "Pass the Pandas").first.tap()
    wait_for_text(page, "New Pass the Pandas game")
    # Ben last: a value starting with the name just seated is read as typed on after Enter.
    type_names(page, ["Ann", "Ben"], "2\u20135")
    box = page.get_by_role("textbox", name="Player name")
    for typed, said in (("Ann\u200b", "Ann is already at the table."), ("\u200b", "Type a name first.")):
        box.fill(typed)
        box.press("Enter")
        wait_for_text(page, said)
        field_back(page, box)
    box.fill("\u202eevil")
    box.press("Enter")
    wait_for_text(page, "3 of 2\u20135")
    expect(page.get_by_text("evil", exact=True)).to_have_count(1)  # seated as it reads
    button(page, "Back").tap()
    wait_for_text(page, "New game")


def test_new_game_seats_players_in_order_within_the_limits(page):
    tile(page, "Panda Royale").first.tap()
    wait_for_text(page, "New Panda Royale game")
    start = button(page, "Start the game")
    assert start.is_disabled()
    by_itself = seat(page, "Ann", 1)
    assert start.is_disabled()  # 2 to 10 players
    by_itself += seat(page, "Ben", 2)
    assert not start.is_disabled()
    box = page.get_by_role("textbox")
    box.fill("ann")
    box.press("Enter")
    wait_for_text(page, "Ann is already at the table.")  # names are capitalised as typed on a phone
    by_itself += field_back(page, box)  # the field is given back with the name in it, to correct
    expect(box).to_have_value("Ann")  # kept, to correct (capitalised as on a phone)
    by_itself += seat(page, "Cat", 3)
    button(page, "Move Cat up").tap()  # clockwise order: Ann, Cat, Ben
    # The move button is there before and after the tap, so wait for the seats themselves.
    seats = page.get_by_text(re.compile(r"^(Ann|Ben|Cat)$"))
    deadline = time.monotonic() + 10
    while seats.all_inner_texts()[-3:] != ["Ann", "Cat", "Ben"] and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert seats.all_inner_texts()[-3:] == ["Ann", "Cat", "Ben"]
    button(page, "Remove Ben").tap()
    wait_for_text(page, "2 of 2\u201310")
    for k, name in enumerate(["Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"], start=3):
        by_itself += seat(page, name, k)
    assert page.get_by_role("textbox").is_disabled()  # 10 seated: the most Panda Royale takes
    # After each of the first 10 names and the refused one, the app gives the field back. Flutter
    # on the web now and then keeps that focus for itself (type_names: 1 name in 300 in a probe):
    # two such misses are let pass; an app that stopped giving the focus back would miss all 11.
    assert by_itself >= 9, f"the field came back focused by itself after {by_itself} of 11 names"
    screenshot(page, "new_game_ten_players_412x915")
    start.tap()
    wait_for_text(page, "Round 1 of 10")
    cells = page.get_by_role("button", name=re.compile(r"^(Ann|Cat|Dan): "))
    said = cells.evaluate_all("els => els.map(e => e.getAttribute('aria-label') || e.textContent)")
    assert [t.split(":")[0] for t in said][:3] == ["Ann", "Cat", "Dan"]  # the totals strip is in seat order


def test_known_players_are_one_tap_next_time(page):
    # The game started by the test above made Ann and Cat known players.
    tile(page, "Panda Royale").first.tap()
    wait_for_text(page, "Known players:")
    button(page, "Ann").tap()
    wait_for_text(page, "1 of 2\u201310")
    button(page, "Cat").tap()
    wait_for_text(page, "2 of 2\u201310")
    assert button(page, "Ann").count() == 0  # seated names leave the list
    screenshot(page, "new_game_known_players_412x915")


def test_browser_back_and_forward_follow_the_screens(page, server):
    tile(page, "Panda Royale").first.tap()
    wait_for_text(page, "New Panda Royale game")
    page.wait_for_url(re.compile(r"/new/panda-royale$"), wait_until="commit")
    page.go_back()
    wait_for_text(page, "In progress")
    assert page.url.rstrip("/") == server.url.rstrip("/")
    page.go_forward()
    wait_for_text(page, "New Panda Royale game")
    game_url = start_panda_royale(page, ["Lea", "Max"])
    assert "/game/" in game_url
    button(page, "Back").tap()  # the app bar's arrow, as the phone's back gesture
    wait_for_text(page, "In progress")
    tile(page, "Resume Panda Royale").filter(has_text="Lea").first.tap()
    wait_for_text(page, "Round 1 of 10")
    page.wait_for_url(game_url, wait_until="commit")
    page.go_back()
    wait_for_text(page, "In progress")


def test_an_unknown_game_falls_back_to_home(browser, server):
    # A fresh phone (no session yet) following a stale link: the home, not an empty page.
    page = open_app_page(browser, server.url + "game/no-such-game")
    try:
        wait_for_text(page, "That game is not stored here.")
        wait_for_text(page, "New game")
    finally:
        page.context.close()


def test_a_link_straight_to_a_game_has_the_home_under_it(browser, server):
    page = open_app_page(browser, server.url)
    try:
        tile(page, "Panda Royale").first.tap()
        wait_for_text(page, "New Panda Royale game")
        game_url = start_panda_royale(page, ["Uma", "Vic"])
    finally:
        page.context.close()
    # Another phone opens the game's link (a fresh session) and then taps the back arrow.
    page = open_app_page(browser, game_url)
    try:
        wait_for_text(page, "Round 1 of 10")
        button(page, "Back").tap()
        wait_for_text(page, "New game")
        tile(page, "Resume Panda Royale").filter(has_text="Uma").first.wait_for()
    finally:
        page.context.close()


def test_a_reload_that_drops_the_query_draws_the_screen_once(browser, server):
    """A phone opens the table's link (its ?token=… here a ?from=qr) and reloads at the bare
    address, as the guests' and the hosts' phones do: the same session, the same screen. The
    home reaches the phone once, not drawn and then replaced (a second drawing cost the phone a
    second build, and took the controls from under a test's finger: tests/README.md)."""
    page = open_app_page(browser, server.url + "?from=qr")
    try:
        wait_for_text(page, "New game")
        homes = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda data: homes.append(1) if b"New game" in bytes(data) else None))
        page.goto(server.url)
        enable_semantics(page)
        wait_for_text(page, "New game")
        # The reload's route change comes just after the reconnect; a second drawing would
        # have followed well within this.
        page.wait_for_timeout(1500)
        assert len(homes) == 1, f"the home was sent {len(homes)} times"
    finally:
        page.context.close()


def test_a_tap_on_the_home_at_once_after_back_is_not_lost(page):
    """The phone shows the home beneath as soon as the back arrow is tapped, before the app
    hears of it; a tap there at once must still do what it says. It was lost while the app drew
    the home again under the finger (CI: Your data tapped straight after Back did nothing, and
    a probe lost 4 taps in 24 within 60 ms of Back)."""
    wait_for_text(page, "New game")
    spot = button(page, "Your data").bounding_box()
    your_data = (spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    tile(page, "Panda Royale").first.tap()
    wait_for_text(page, "New Panda Royale game")
    start_panda_royale(page, ["Wes", "Xia"])
    for _ in range(4):
        spot = button(page, "Back").bounding_box()
        page.touchscreen.tap(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
        page.touchscreen.tap(*your_data)  # no wait: a person who knows where it is
        button(page, "Export JSON").wait_for(timeout=10_000)
        button(page, "Back").tap()
        tile(page, "Resume Panda Royale").filter(has_text="Wes").first.tap()
        wait_for_text(page, "Round 1 of 10")
    # The home kept for these taps still tells what changed in the game meanwhile.
    tap_die(page, "yellow", 5)
    wait_for_text(page, "Leader: Wes \u00b7 5")
    button(page, "Back").tap()
    tile(page, "Resume Panda Royale").filter(has_text="Wes leads · Wes 5 · Xia 0").first.wait_for()


def test_a_phone_at_the_table_loads_no_script_from_another_host(browser, server):
    """Flet's client adds Rive's script from a CDN as it starts: a phone at the table with the
    internet ran a CDN's code at every opening. The table's copy points it nowhere (about:),
    and nothing the page loads names another host."""
    page = open_app_page(browser, server.url)
    try:
        wait_for_text(page, "New game")
        loaded = page.evaluate("""() => [...document.querySelectorAll('script[src], link[href], iframe[src]')]
                                   .map(e => e.src || e.href)""")
        assert any("main.dart" in url or "flutter" in url for url in loaded)  # the check sees the client's own
        elsewhere = [url for url in loaded if not url.startswith((server.url, "about:", "data:", "blob:"))]
        assert elsewhere == []
    finally:
        page.context.close()


def test_a_new_text_size_shows_on_the_home_at_once(browser, server):
    """#56: after Extra large in Settings, Back showed the home at the old size until a reload (the
    home is kept under other screens). It comes back at the new size, and so does the next screen."""
    page = open_app_page(browser, server.url, width=360, height=740)

    def height(text: str) -> float:
        return page.get_by_text(text, exact=True).first.bounding_box()["height"]

    def text_size(radio: str, said: str) -> None:
        button(page, "Settings").tap()
        page.get_by_role("radio", name=radio).tap()
        page.get_by_text(f"Saved: text size {said}.", exact=True).first.wait_for()
        button(page, "Back").tap()
        wait_for_text(page, "New game")

    try:
        wait_for_text(page, "New game")
        home_before = height("New game")
        tile(page, "Royal Game of Ur").first.tap()
        wait_for_text(page, "New Royal Game of Ur game")
        new_before = height("New Royal Game of Ur game")
        button(page, "Back").tap()
        wait_for_text(page, "New game")
        text_size("Extra large", "extra large")
        screenshot(page, "home_after_extra_large_in_settings_360x740")
        assert height("New game") > home_before * 1.2
        tile(page, "Royal Game of Ur").first.tap()
        wait_for_text(page, "New Royal Game of Ur game")
        assert height("New Royal Game of Ur game") > new_before * 1.2
        button(page, "Back").tap()
        wait_for_text(page, "New game")
    finally:
        text_size("Normal", "normal")  # the host's setting: the module's other phones read it
        page.context.close()
