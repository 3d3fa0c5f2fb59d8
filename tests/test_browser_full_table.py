"""Panda Royale with a full table (issue #14): ten players with 40-character names on one
phone, upright and sideways. Every total in view without scrolling, who is still to enter and
a one-tap jump to that hand, the sheet's one-line player picker, the round summary's next
step on screen."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring import Player
from scoring import panda_royale as pr
from storage import Store
from tests.browser_harness import flet_server, open_app_page, screenshot, wait_for_paint, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["Josephine Wilhelmina Annabelle Fairweath", "Maximilian Alexander von Hohenberg-Stein",
         "Anastasia Konstantinovna Rachmaninovskay", "Bartholomew Fitzgerald Worthington-Smyth",
         "Catherine Elisabeth Montgomery-Whitfield", "Dmitri Konstantinovich Rachmaninovsky Jr",
         "Evangeline Rosalind Featherstonehaugh II", "Fitzwilliam Darcy Pemberley-Derbyshire I",
         "Guinevere Morgana Pendragon-Avalon Smyth", "Hieronymus Bartholomaeus Vanderbilt-Asto"]
COLOURS = ["yellow", "purple", "blue", "red", "green", "clear", "yellow"]


def played(rounds: int, hands_of_last: int) -> pr.Record:
    """A 10-player game: `rounds` complete rounds (pink dice where pity gave them), then
    `hands_of_last` hands of the next round."""
    record = pr.Record(players=tuple(Player(id=f"p{k}", name=n) for k, n in enumerate(NAMES, 1)),
                       id=f"full-table-{rounds}-{hands_of_last}", created="2026-11-22T19:04:00Z")
    for i in range(rounds + 1):
        for k, pid in enumerate(record.player_ids()):
            if i == rounds and k >= hands_of_last:
                break
            for colour in COLOURS[:i + 1]:
                record = pr.add_die(record, i, pid, colour, 1 + (i + 2 * k) % 6)
            if pid in (pr.pity_for(record, i) or []):
                record = pr.add_die(record, i, pid, "pink", 2 + k % 5)
        tied = pr.needs_panda_choice(record, i) if i < len(record.rounds) else []
        if tied:  # the table's re-roll of a yellow tie: the first of them won it
            record = pr.set_panda(record, i, tied[0])
    return record


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("full-table")
    with Store.open(Path(data)) as store:
        store.save(played(6, 4), None)        # round 7, four hands in: the table
        store.save(played(6, 10), None)       # round 7 complete: its summary
    with flet_server("main.py", args=["--data-dir", str(data)], port_arg="--port") as s:
        yield s


def test_the_names_are_forty_characters():
    assert {len(n) for n in NAMES} == {40}


def cell(page, name: str):
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}: "))


def said(locator) -> str:
    """What a screen reader reads for a control: its aria-label, else its text."""
    return locator.get_attribute("aria-label") or locator.inner_text()


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    view = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= view["width"] and box["y"] + box["height"] <= view["height"])


@pytest.mark.parametrize("width,height,scheme", [(412, 915, "light"), (412, 915, "dark"),
                                                 (915, 412, "light"), (915, 412, "dark")])
def test_every_total_in_view_without_scrolling(browser, server, width, height, scheme):
    page = open_app_page(browser, f"{server.url}game/full-table-6-4", width=width, height=height,
                         color_scheme=scheme)
    try:
        wait_for_text(page, "Round 7 of 10")
        result = pr.score(played(6, 4))
        for s in result.players:
            total = str(s.total)
            target = cell(page, s.name)
            target.wait_for()
            assert said(target).startswith(f"{s.name}: {total}")          # the full name, the total
            assert in_view(page, target), f"{s.name}'s total is off screen"
        leader = max(result.players, key=lambda s: s.total)
        assert "leader" in said(cell(page, leader.name))
        screenshot(page, f"full_table_round7_{width}x{height}_{scheme}")
    finally:
        page.context.close()


def test_still_to_enter_and_one_tap_to_that_hand(browser, server):
    page = open_app_page(browser, f"{server.url}game/full-table-6-4")
    try:
        wait_for_text(page, "Round 7 of 10")
        # Four hands are in: the fifth seat is at the pad, seats 6-10 still to enter.
        here = cell(page, NAMES[4])
        assert "entering now" in said(here)
        for name in NAMES[5:]:
            assert "still to enter" in said(cell(page, name))
        for name in NAMES[:4]:
            assert "still to enter" not in said(cell(page, name))
        todo = page.get_by_text(re.compile(r"^Still to enter: "))
        assert NAMES[5] in todo.inner_text()
        # The phone goes round out of seat order: one tap on the ninth player's total.
        cell(page, NAMES[8]).tap()
        page.get_by_role("button", name=re.compile(rf"^{re.escape(NAMES[8])}: .*entering now")).wait_for()
        page.get_by_text(re.compile(r"^0 of 7 dice")).wait_for()
        page.get_by_role("button", name="Yellow 3", exact=True).tap()
        wait_for_text(page, "Hand total 3")
        assert "entering now" in said(cell(page, NAMES[8]))
    finally:
        page.context.close()


def test_the_sheet_sideways_picks_the_player_on_one_line(browser, server):
    page = open_app_page(browser, f"{server.url}game/full-table-6-4", width=915, height=412)
    try:
        wait_for_text(page, "Round 7 of 10")
        page.get_by_text(f"of {NAMES[4]}", exact=True).wait_for()
        nxt = page.get_by_role("button", name="Next player's sheet", exact=True)
        first_row = page.get_by_role("button", name=re.compile(r"^Round 1\b")).first
        # The picker is one line: round 1 of the sheet starts right under it.
        assert first_row.bounding_box()["y"] - nxt.bounding_box()["y"] < 2 * nxt.bounding_box()["height"]
        nxt.tap()
        page.get_by_text(f"of {NAMES[5]}", exact=True).wait_for()
        page.get_by_role("button", name=re.compile(r"Choose whose sheet")).tap()
        item = page.get_by_role("menuitemcheckbox", name=NAMES[1], exact=True)
        item.wait_for()
        # The menu grows open over a few frames; a tap aimed mid-animation can miss the item.
        wait_for_paint(page, quiet_ms=200)
        item.tap()
        page.get_by_text(f"of {NAMES[1]}", exact=True).wait_for()
        screenshot(page, "full_table_sheet_picker_915x412")
    finally:
        page.context.close()


def test_the_round_summary_puts_the_next_step_on_screen(browser, server):
    page = open_app_page(browser, f"{server.url}game/full-table-6-10")
    try:
        wait_for_text(page, "Round 7 is in")
        pink = page.get_by_text(re.compile(r"^Pink dice for round 8: "))
        start = page.get_by_role("button", name="Start round 8", exact=True)
        assert in_view(page, pink) and in_view(page, start)
        screenshot(page, "full_table_round_summary_412x915")
        start.tap()
        wait_for_text(page, "Round 8 of 10")
    finally:
        page.context.close()
