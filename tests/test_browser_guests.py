"""Host and guests (#24) in headless Chromium: ONE server started with --lan and a fixed table
token, a host phone with the host link (read from what the server printed) and a guest phone
with the table link, both mobile contexts driven by taps.

The guest plays; its Your data, the host's settings, Delete, Edit, Rename and Merge are not on
its screens and their addresses are refused with "Only the host can …"; a guest's extra large
text leaves the host's as it was; a restore by the host during a game leaves that game's taps."""
from __future__ import annotations

import random
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import Player
from scoring import panda_royale as pr
from storage import Store, samples
from tests.browser_harness import (PHONE, enable_semantics, open_app_page, screenshot, scrolled_to, table_server,
                                   wait_for_text)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOKEN = "guest-token-0123456789abcdef"
SECRET = "Zebedee Quartermaine"   # a player of another evening: not a guest's business


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    data = tmp_path_factory.mktemp("guests")
    old = samples.finished_game(random.Random(3), "old-evening", datetime(2026, 10, 1, 19, tzinfo=timezone.utc),
                                players=2)
    old = old.model_copy(update={"players": (old.players[0].model_copy(update={"name": SECRET}), old.players[1])})
    with Store.open(Path(data)) as store:
        store.save(old, None)
        store.save(pr.Record(players=(Player(id="a", name="Ann"), Player(id="b", name="Ben")), id="tonight",
                             created="2026-11-24T19:00:00Z"), None)
        # Every round entered, not finished yet: the guest finishes it tonight.
        done = samples.finished_game(random.Random(5), "to-finish", datetime(2026, 11, 24, 18, tzinfo=timezone.utc),
                                     players=2)
        store.save(done.model_copy(update={"finished": None}), None)
    return data


@pytest.fixture(scope="module")
def server(data_dir):
    with table_server(data_dir, TOKEN) as s:
        yield s


def open_phone(browser, server, token: str, path: str = "", width: int = 412, height: int = 915):
    page = open_app_page(browser, f"{server.url}{path}?token={token}", width=width, height=height, **PHONE)
    return page


def button(page, name, exact=True):
    return page.get_by_role("button", name=name, exact=exact)


def refused(page, words: str) -> None:
    page.get_by_text(re.compile(rf"^Only the host can {words}")).first.wait_for(timeout=10_000)


def test_the_guest_plays_and_the_host_sees_it_and_a_restore_keeps_the_taps(browser, server):
    host = open_phone(browser, server, server.host_token, "game/tonight")
    guest = open_phone(browser, server, TOKEN, "game/tonight")
    try:
        for page in (host, guest):
            wait_for_text(page, "Round 1 of 10")
        # The guest enters round 1 for both players (one yellow die each).
        for name, face in (("Ann", 3), ("Ben", 5)):
            guest.get_by_role("button", name=re.compile(rf"^{name}: ")).tap()
            button(guest, f"Yellow {face}").tap()
            wait_for_text(guest, f"Hand total {face}")
        for name, face in (("Ann", 3), ("Ben", 5)):  # the host's pad follows without a tap
            host.get_by_role("button", name=re.compile(rf"^{name}: {face}\b")).wait_for(timeout=5_000)
        screenshot(guest, "guests_guest_pad_412x915")
        # The host restores the backup taken when the server started (before these taps).
        desk = open_phone(browser, server, server.host_token, "data")
        try:
            wait_for_text(desk, "Backups")
            scrolled_to(desk, button(desk, "Restore").first).tap()
            button(desk, re.compile(r"^Restore \d+ games?$"), exact=False).tap()
            desk.get_by_text(re.compile(r"^Restored the copy of .*Games in progress stayed as they are")).first.wait_for()
        finally:
            desk.context.close()
        # The pads still show the taps, and a phone opening the game now reads them from the store.
        for name, face in (("Ann", 3), ("Ben", 5)):
            guest.get_by_role("button", name=re.compile(rf"^{name}: {face}\b")).wait_for()
        fresh = open_phone(browser, server, TOKEN, "game/tonight")
        try:
            for name, face in (("Ann", 3), ("Ben", 5)):
                fresh.get_by_role("button", name=re.compile(rf"^{name}: {face}\b")).wait_for()
        finally:
            fresh.context.close()
    finally:
        host.context.close()
        guest.context.close()


def test_the_guest_has_none_of_the_hosts_controls_and_their_addresses_are_refused(browser, server):
    guest = open_phone(browser, server, TOKEN)
    try:
        wait_for_text(guest, "New game")
        expect(button(guest, "Invite players")).to_have_count(1)
        expect(button(guest, "Settings")).to_have_count(1)
        expect(button(guest, "Your data")).to_have_count(0)
        expect(guest.get_by_role("button", name=re.compile(r"^(History|Statistics)$"))).to_have_count(0)
        assert SECRET not in guest.content()
        screenshot(guest, "guests_guest_home_412x915")
        for path, words in (("data", "open Your data"), ("history", "browse the history"),
                            ("stats/panda-royale", "browse the history"),
                            ("player/Ann", "browse the history"), ("game/old-evening", "browse the history")):
            guest.goto(f"{server.url}{path}")  # typed into the address bar (the phone kept its token)
            enable_semantics(guest)
            refused(guest, words)
            wait_for_text(guest, "New game")  # the home instead
            assert SECRET not in guest.content()
        # Settings: this phone's part only.
        guest.goto(f"{server.url}settings")
        enable_semantics(guest)
        wait_for_text(guest, "Text size")
        refused(guest, "change these settings")
        expect(guest.get_by_text("Guests may see the history")).to_have_count(0)
        expect(button(guest, "Dot map")).to_have_count(0)
        screenshot(guest, "guests_guest_settings_412x915")
    finally:
        guest.context.close()


def test_a_game_the_guest_finished_is_theirs_to_see_not_to_edit_or_delete(browser, server):
    guest = open_phone(browser, server, TOKEN, "game/to-finish")
    try:
        wait_for_text(guest, "Round 10 of 10")
        if button(guest, "Close the round").count():  # the pad resumes in the last hand: close the round
            scrolled_to(guest, button(guest, "Close the round")).tap()
        scrolled_to(guest, button(guest, "Finish the game")).tap()
        wait_for_text(guest, "This game is finished.")
        guest.goto(f"{server.url}game/to-finish")
        enable_semantics(guest)
        guest.get_by_text(re.compile(r"^(Winner|Shared win): ")).wait_for()
        expect(button(guest, "Rematch")).to_have_count(1)
        expect(button(guest, "Edit")).to_have_count(0)
        expect(button(guest, "Delete")).to_have_count(0)
        screenshot(guest, "guests_guest_finished_412x915")
    finally:
        guest.context.close()
    host = open_phone(browser, server, server.host_token, "game/to-finish")
    try:  # the host has them
        button(host, "Edit").wait_for()
        expect(button(host, "Delete")).to_have_count(1)
    finally:
        host.context.close()


def heading_height(page) -> float:
    return page.get_by_text("New game", exact=True).first.bounding_box()["height"]


def test_the_guests_text_size_stays_on_the_guests_phone(browser, server):
    host = open_phone(browser, server, server.host_token, width=360, height=740)
    guest = open_phone(browser, server, TOKEN, "settings", width=360, height=740)
    try:
        wait_for_text(host, "New game")
        before = heading_height(host)
        guest.get_by_role("radio", name="Extra large").tap()
        guest.get_by_text(re.compile(r"^Saved: text size extra large")).first.wait_for()
        guest.goto(f"{server.url}")
        enable_semantics(guest)
        wait_for_text(guest, "New game")
        assert heading_height(guest) > before * 1.15  # the guest's own phone: larger
        screenshot(guest, "guests_guest_extra_large_360x740")
        host.goto(f"{server.url}")  # the host's screen, built anew
        enable_semantics(host)
        wait_for_text(host, "New game")
        assert heading_height(host) == pytest.approx(before, abs=0.5)
        screenshot(host, "guests_host_home_360x740")
    finally:
        host.context.close()
        guest.context.close()
