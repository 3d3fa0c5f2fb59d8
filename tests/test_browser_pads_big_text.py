"""Every pad on a small phone with extra-large text (one server for the module): each new-game
screen and each pad part-way through a game, photographed at 360 × 740 in light mode; the next
step (Start the game, the pad's primary action) in view without scrolling there and with the
phone turned on its side (915 × 412)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser_harness import flet_server, resized, screenshot, scrolled_to, type_names, wait_for_text
from tests.pad_checks import phone_page, primary_in_view

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZE = "360x740"


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data_dir: Path = tmp_path_factory.mktemp("big-text-data")
    with flet_server("main.py", args=["--data-dir", str(data_dir)], port_arg="--port") as s:
        yield s


@pytest.fixture(scope="module")
def page(browser, server):
    """One phone, its text set to extra large in Settings as a person would."""
    page = phone_page(browser, server.url, SIZE, color_scheme="light")
    button(page, "Settings").tap()
    page.get_by_role("radio", name="Extra large").tap()
    page.get_by_text("Saved: text size extra large.", exact=True).first.wait_for()
    button(page, "Back").tap()
    wait_for_text(page, "New game")
    yield page
    page.context.close()


def new_game(page, tile: str, names, limits: str, shot: str) -> None:
    scrolled_to(page, page.get_by_role("button", name=re.compile(rf"^{tile}, "))).tap()
    type_names(page, names, limits)
    primary_in_view(page)                      # Start the game, with every seat taken
    screenshot(page, f"{shot}_new_game_xl_{SIZE}")
    button(page, "Start the game").tap()


def mid_game(page, shot: str) -> None:
    """The pad as it is now: photographed, and its next step in view upright and sideways."""
    primary_in_view(page)
    screenshot(page, f"{shot}_xl_{SIZE}")
    resized(page, 915, 412)                    # sideways, the pad laid out again for it
    primary_in_view(page)
    screenshot(page, f"{shot}_xl_915x412")
    resized(page, 360, 740)
    primary_in_view(page)


def home(page) -> None:
    button(page, "Back").tap()
    wait_for_text(page, "New game")


def test_panda_royale(page):
    new_game(page, "Panda Royale", ("Annabelle", "Bartholomew", "Cat"), "2–10", "panda_royale")
    wait_for_text(page, "Round 1 of 10")
    button(page, "Yellow 3").tap()
    page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
    mid_game(page, "panda_royale_hand")
    button(page, "Show the sheet").tap()
    wait_for_text(page, "Total")
    screenshot(page, f"panda_royale_sheet_xl_{SIZE}")
    button(page, "Show the hand").tap()
    home(page)


def test_nokosu_dice_with_five_players(page):
    new_game(page, "Nokosu Dice", ("Hal", "Ida", "Jo", "Kit", "Lu"), "3–5", "nokosu_dice")
    wait_for_text(page, "Round 1 of 5")
    button(page, "Hal declares 2").tap()
    button(page, "Hal's declaration: 2").wait_for()
    mid_game(page, "nokosu_dice_round")
    home(page)


def test_pandoria(page):
    new_game(page, "Pandoria", ("Hilde", "Oskar", "Mia"), "2–4", "pandoria")
    button(page, "+3 for Hilde").tap()
    wait_for_text(page, "Hilde's crown track: 3")
    mid_game(page, "pandoria_log")
    button(page, "Score the game").tap()
    wait_for_text(page, "Final standings")
    button(page, "Set wood for Hilde").tap()
    button(page, "4").wait_for()
    screenshot(page, f"pandoria_number_sheet_xl_{SIZE}")
    button(page, "4").tap()
    wait_for_text(page, "Hilde's wood: 4")
    mid_game(page, "pandoria_end_step")
    home(page)


def test_pass_the_pandas(page):
    new_game(page, "Pass the Pandas", ("Ann", "Ben", "Cy", "Di"), "2–5", "pass_the_pandas")
    wait_for_text(page, "Hand 1")
    button(page, "Ann went out").tap()
    page.get_by_text(re.compile(r"^Ann scores \d+$")).wait_for()
    mid_game(page, "pass_the_pandas_hand")
    home(page)


def test_royal_game_of_ur(page):
    new_game(page, "Royal Game of Ur", ("Ann", "Ben"), "2", "royal_ur")
    wait_for_text(page, "Game 1")
    button(page, "Ann won").tap()
    button(page, "Set home").tap()
    button(page, "3").tap()
    wait_for_text(page, "3 of 7 counters placed: 4 to go")
    mid_game(page, "royal_ur_game")
    home(page)
