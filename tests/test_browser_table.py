"""Table mode in headless Chromium: one server started with --lan and a token, several phones
(pages) on one game. Without the token a page sees nothing of the store; with it, every phone
enters its own hand at the same time and every entry lands; a phone sending garbage over the
socket does not take the table down; the big screen follows the taps."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import Player
from scoring import panda_royale as pr
from storage import Store
from tests.browser_harness import (PHONE, enable_semantics, flet_server, open_app_page, screenshot,
                                   send_garbage, wait_for_text)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOKEN = "table-token-0123456789abcdef"
NAMES = ["Ann", "Ben", "Cat", "Dan"]
SECRET = "Zebedee Quartermaine"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data = tmp_path_factory.mktemp("table")
    with Store.open(Path(data)) as store:
        # A game of its own for each test that plays one.
        for k, (game_id, n) in enumerate((("table-2", 2), ("table-4", 4), ("table-garbage", 2), ("table-big", 4))):
            players = tuple(Player(id=f"p{j}", name=name) for j, name in enumerate(NAMES[:n], 1))
            store.save(pr.Record(players=players, id=game_id, created=f"2026-11-22T19:0{k}:00Z"), None)
        store.save(pr.Record(players=(Player(id="z", name=SECRET), Player(id="y", name="Yan")),
                             id="secret-game", created="2026-11-22T18:00:00Z"), None)
    return data


@pytest.fixture(scope="module")
def server(data_dir):
    with flet_server("main.py", args=["--data-dir", str(data_dir), "--lan", "--token", TOKEN],
                     port_arg="--port") as s:
        yield s


def phone(browser, server, path: str = "", token: str | None = TOKEN, **kwargs):
    query = f"?token={token}" if token is not None else ""
    return open_app_page(browser, f"{server.url}{path.lstrip('/')}{query}", **kwargs)


@pytest.mark.parametrize("path,token", [("", None), ("", "wrong-token-0123456789abcdef"), ("", TOKEN[:-1]),
                                        ("game/secret-game", None), ("big/secret-game", None), ("invite", None)])
def test_without_the_right_token_a_page_sees_nothing(browser, server, path, token):
    # The table's door answers before the app loads: a page of words, not the app.
    context = browser.new_context(viewport={"width": 412, "height": 915}, **PHONE)
    try:
        page = context.new_page()
        query = f"?token={token}" if token is not None else ""
        response = page.goto(f"{server.url}{path}{query}")
        assert response.status == 403
        expect(page.get_by_role("heading", name="This table is private")).to_be_visible()
        shown = page.content()
        for secret in (SECRET, "Yan", "Ann", "Panda Royale", TOKEN):
            assert secret not in shown
        assert page.get_by_role("button").count() == 0  # nothing to tap: no game, no import
        assert not context.cookies()  # and nothing kept that would let it in later
    finally:
        context.close()


@pytest.mark.parametrize("width,height,scheme", [(412, 915, "light"), (360, 740, "dark")])
def test_the_private_page_reads_well_on_a_phone(browser, server, width, height, scheme):
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme, **PHONE)
    try:
        page = context.new_page()
        page.goto(server.url)
        heading = page.get_by_role("heading", name="This table is private")
        box = heading.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= width  # nothing cut off at the sides
        screenshot(page, f"table_locked_{width}x{height}_{scheme}", settle=False)
    finally:
        context.close()


def test_the_token_is_kept_for_the_session_and_the_phone(browser, server):
    page = phone(browser, server)
    try:
        page.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).first.tap()
        wait_for_text(page, "Round 1 of 10")            # in-app navigation keeps working
        page.wait_for_url(re.compile(r"/game/[\w-]+$"), wait_until="commit")
        page.go_back()
        wait_for_text(page, "New game")
        page.goto(f"{server.url}game/table-2")          # a reload without ?token= (the phone woke up)
        enable_semantics(page)
        wait_for_text(page, "Round 1 of 10")
    finally:
        page.context.close()


@pytest.mark.parametrize("n", [2, 4])
def test_every_phone_enters_its_own_hand_at_once_and_nothing_is_lost(browser, server, n):
    pages = [phone(browser, server, f"game/table-{n}") for _ in range(n)]
    try:
        for k, page in enumerate(pages):  # each player picks their own seat on their own phone
            wait_for_text(page, "Round 1 of 10")
            page.get_by_role("button", name=re.compile(rf"^{NAMES[k]}: ")).tap()
            page.get_by_role("button", name=re.compile(rf"^{NAMES[k]}: .*entering now")).wait_for()
        # Everyone taps their die at the same moment (no waiting between the phones).
        for k, page in enumerate(pages):
            page.get_by_role("button", name=f"Yellow {k + 3}", exact=True).tap(no_wait_after=True)
        for k, page in enumerate(pages):
            wait_for_text(page, f"Hand total {k + 3}")
        # Every phone shows every player's total within moments, without a tap.
        for page in pages:
            for k in range(n):
                page.get_by_role("button", name=re.compile(rf"^{NAMES[k]}: {k + 3}\b")).wait_for(timeout=5_000)
    finally:
        for page in pages:
            page.context.close()
    # The store holds every entry: a phone opening the game now reads it from the store.
    fresh = phone(browser, server, f"game/table-{n}")
    try:
        for k in range(n):
            fresh.get_by_role("button", name=re.compile(rf"^{NAMES[k]}: {k + 3}\b")).wait_for()
    finally:
        fresh.context.close()


def test_garbage_over_the_socket_does_not_take_the_table_down(browser, server):
    page = phone(browser, server, "game/table-garbage")
    try:
        wait_for_text(page, "Round 1 of 10")
        send_garbage(server, TOKEN)
        page.get_by_role("button", name="Yellow 6", exact=True).tap()
        wait_for_text(page, "Hand total 6")          # the open phone still works
        other = phone(browser, server)               # and a new one can still join
        try:
            wait_for_text(other, "New game")
        finally:
            other.context.close()
    finally:
        page.context.close()


def test_the_big_screen_follows_the_phones(browser, server):
    big = phone(browser, server, "big/table-big", width=1280, height=800)
    page = phone(browser, server, "game/table-big")
    try:
        wait_for_text(big, "Round 1 of 10")
        still = big.get_by_text(re.compile(r"^Still to enter: "))
        page.get_by_role("button", name=re.compile(r"^Ann: ")).tap()
        page.get_by_role("button", name="Yellow 8", exact=True).tap()
        wait_for_text(page, "Hand total 8")
        big.get_by_text(re.compile(r"^Still to enter: Ben, Cat and Dan$")).wait_for(timeout=5_000)
        expect(still).to_have_count(1)
        screenshot(big, "table_big_screen_1280x800")
    finally:
        page.context.close()
        big.context.close()
