"""Every screen a person reaches, walked as a screen reader would: each button and toggle has a
name, and each choice (radio, checkbox, switch) says whether it is on. Flutter on the web puts
its accessibility tree in the page as flt-semantics nodes with ARIA roles: that is what a
screen reader (and TalkBack in Chrome on a phone) reads."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_harness import (PHONE, flet_server, open_app_page, scrolled_to, start_the_game, type_names,
                                   wait_for_paint, wait_for_text)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ACTIONS = ("button", "link", "menuitem", "tab", "slider")
CHOICES = ("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio")

NODES = """() => Array.from(document.querySelectorAll('flt-semantics[role]')).map(n => ({
    role: n.getAttribute('role'),
    name: (n.getAttribute('aria-label') || n.textContent || '').trim(),
    checked: n.getAttribute('aria-checked'),
}))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with flet_server("main.py", args=["--data-dir", str(tmp_path_factory.mktemp("a11y-data"))],
                     port_arg="--port") as s:
        yield s


@pytest.fixture
def page(browser, server):
    page = open_app_page(browser, server.url, width=360, height=740, **PHONE)
    yield page
    page.context.close()


def problems(page, screen: str) -> list[str]:
    """What a screen reader could not tell on this screen, one line each."""
    wait_for_paint(page)
    found = []
    for n in page.evaluate(NODES):
        if n["role"] in ACTIONS + CHOICES and not n["name"]:
            found.append(f"{screen}: a {n['role']} without a name")
        if n["role"] in CHOICES and n["checked"] not in ("true", "false", "mixed"):
            found.append(f"{screen}: the {n['role']} {n['name']!r} does not say whether it is on")
    return found


def test_the_walk_finds_a_nameless_button(page):
    """The check itself: a button stripped of its name is reported (else a walk that found
    nothing would prove nothing)."""
    wait_for_text(page, "New game")
    assert problems(page, "home") == []
    page.evaluate("""() => { const b = document.querySelector('flt-semantics[role=button]');
                             b.removeAttribute('aria-label'); b.textContent = ''; }""")
    assert problems(page, "home") == ["home: a button without a name"]


def tap(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).tap()


def tile(page, title: str):
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(title)}, "))


# (tile, players' count tail, what the pad shows once started)
PADS = [
    ("Panda Royale", "2–10", "Round 1 of 10"),
    ("Royal Game of Ur", "2", "Game 1"),
    ("Nokosu Dice", "3–5", "Round 1 of 3"),
    ("Pandoria", "2–4", "+1 for Ann"),
    ("Pass the Pandas", "2–5", "Hand 1"),
]


def test_every_screen_names_its_buttons_and_says_which_choice_is_on(page):
    found: list[str] = []
    wait_for_text(page, "New game")
    found += problems(page, "home")
    tap(page, "Settings")
    wait_for_text(page, "Theme")
    found += problems(page, "settings")
    expect(page.get_by_role("radio", name="Follow the phone")).to_be_checked()  # the theme's choice is told
    tap(page, "Back")
    for title, players, shows in PADS:
        wait_for_text(page, "New game")
        scrolled_to(page, tile(page, title).first).tap()
        wait_for_text(page, f"New {title} game")
        type_names(page, ("Ann", "Ben", "Cat") if title != "Royal Game of Ur" else ("Ann", "Ben"), players)
        found += problems(page, f"new {title} game")
        if shows.startswith("+1"):
            tap(page, "Start the game")
            page.get_by_role("button", name=shows, exact=True).wait_for()
            wait_for_paint(page)
        else:
            start_the_game(page, shows)
        found += problems(page, title)
        tap(page, "More")  # the ⋮ menu of every pad
        page.get_by_role("menuitem", name="Big screen").wait_for()
        found += problems(page, f"{title}'s ⋮ menu")
        page.keyboard.press("Escape")
        page.get_by_role("menuitem", name="Big screen").wait_for(state="detached")
        tap(page, "Back")
    wait_for_text(page, "New game")
    tap(page, "History")
    wait_for_text(page, f"{len(PADS)} games")
    found += problems(page, "history")
    assert found == []
