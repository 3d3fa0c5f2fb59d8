"""The Pass the Pandas pad in headless Chromium against the real server and store.

A 4-player Panda-monium match to 30 and a basic match are entered by tapping only and must end
with the totals and winners of `main.py score` on the exported records (exported from a copy of
the live store: the server keeps the store locked). Then: more dice than can be in play is
refused, and a later finisher scoring more is warned. Screenshots at 412 × 915, light and dark.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_harness import (REPO_ROOT, flet_server, screenshot, scrolled_to, start_the_game,
                                    type_names, wait_for_text)
from tests.pad_checks import PHONES, phone_page, primary_in_view, taps_on
from views.pads.pass_the_pandas.state import setup_line

# Walked with its animations as most phones play them (the rest of the suite asks for less motion).
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.motion]

# Panda-monium, 4 players with 5 dice each: per hand, who went out in order and the dice each
# player still in held at that moment (the points are their sum).
MATCH = [
    [("Ann", {"Ben": 4, "Cy": 3, "Di": 2}), ("Ben", {"Cy": 2, "Di": 2}), ("Di", {"Cy": 1})],
    [("Cy", {"Ann": 4, "Ben": 5, "Di": 4}), ("Di", {"Ann": 3, "Ben": 5}), ("Ann", {"Ben": 4})],
    [("Ben", {"Ann": 5, "Cy": 5, "Di": 5}), ("Ann", {"Cy": 4, "Di": 4}), ("Cy", {"Di": 3})],
    [("Ann", {"Ben": 4, "Cy": 3, "Di": 3}), ("Ben", {"Cy": 3, "Di": 2}), ("Cy", {"Di": 2})],
]
MATCH_TOTALS = {"Ann": 31, "Ben": 24, "Cy": 18, "Di": 9}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("ptp-data")
    with flet_server("main.py", args=["--data-dir", str(data_dir)], port_arg="--port") as s:
        s.data_dir = data_dir
        yield s


MATCH_TAPS = 40   # the Panda-monium match below (34): who went out, the dice held (two taps a count), Next hand


@pytest.fixture
def page(browser, server):
    """A phone on the module's server (conftest's page is a desktop's)."""
    page = phone_page(browser, server.url)
    yield page
    page.context.close()


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def run_main(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args], input=stdin, text=True,
                          capture_output=True, cwd=REPO_ROOT, timeout=60)


def exported(server, game_id: str, tmp_path: Path) -> dict:
    """The game as `main.py export` writes it, from a copy of the store the server holds."""
    copy = tmp_path / "store-copy"
    shutil.copytree(server.data_dir, copy)
    out = run_main("export", "--data-dir", str(copy))
    assert out.returncode == 0, out.stderr
    return next(g for g in json.loads(out.stdout)["games"] if g["id"] == game_id)


def scored(record: dict) -> dict:
    out = run_main("score", "-", stdin=json.dumps(record))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def shot(page, name: str) -> None:
    page.mouse.move(0, 0)  # no hover tooltip left over the pad
    screenshot(page, name)


def start(page, names, basic: bool = False, target: int | None = None, picture: str | None = None) -> str:
    """Seat the players, choose on the new-game screen, start; returns the game's id."""
    scrolled_to(page, page.get_by_role("button", name="Pass the Pandas, 2–5 players", exact=True)).tap()
    wait_for_text(page, setup_line(0))
    type_names(page, names, "2–5")
    wait_for_text(page, setup_line(len(names)))  # the starting dice for this many players
    # A new game starts with the variant the table played last: choose it every time.
    variant = page.get_by_role("checkbox", name="Basic" if basic else "Panda-monium")
    variant.tap()
    expect(variant).to_be_checked()  # a screen reader hears which variant is chosen
    if basic:
        expect(button(page, "More target")).to_have_count(0)  # no target in the basic game
    if target is not None:
        chosen = page.get_by_role("checkbox", name=f"Target {target}")
        chosen.tap()
        expect(chosen).to_be_checked()
    if picture:
        shot(page, picture)
    start_the_game(page, "Hand 1")
    return page.url.rstrip("/").split("/")[-1]


def held(page, name: str) -> int:
    return int(page.get_by_text(re.compile(rf"^{name} held \d+$")).inner_text().split()[-1])


def went_out(page, name: str, counts: dict[str, int]) -> None:
    """'<name> went out', then the dice each player still in held, by More / Fewer."""
    button(page, f"{name} went out").tap()
    page.get_by_text(re.compile(rf"^{name} scores \d+$")).wait_for()
    for holder, want in counts.items():
        now = held(page, holder)
        if abs(want - now) > 1:          # the number sheet: its button, then the number
            button(page, f"Set dice for {holder}").tap()
            button(page, str(want)).tap()
            wait_for_text(page, f"{holder} held {want}")
        elif want != now:
            button(page, f"{'More' if want > now else 'Fewer'} dice for {holder}").tap()
            wait_for_text(page, f"{holder} held {want}")
    wait_for_text(page, f"{name} scores {sum(counts.values())}")
    primary_in_view(page)


def race(page, names) -> dict[str, int]:
    """The totals as the race panel says them: 'Ann: 31 of 30, reached the target, leader'."""
    out = {}
    for n in names:
        label = page.get_by_text(re.compile(rf"^{n}: \d+ (of|hands? won)")).inner_text()
        out[n] = int(label.split(": ")[1].split()[0])
    return out


def final_standings(page, names) -> tuple[str, dict[str, int]]:
    wait_for_text(page, "This match is finished.")
    winner = page.get_by_text(re.compile(r"^(Winner|Shared win): ")).inner_text()
    rows = {n: int(page.get_by_text(re.compile(rf"^\d+\. {n}: ")).inner_text().split(": ")[1]) for n in names}
    return winner, rows


@pytest.mark.parametrize("size", list(PHONES))
def test_a_panda_monium_match_to_30_by_tapping_ends_as_main_py_score(browser, server, tmp_path, size):
    names = list(MATCH_TOTALS)
    page = phone_page(browser, server.url, size)
    game_id = start(page, names, target=30, picture=f"ptp_new_game_{size}")
    wait_for_text(page, "Race to 30")
    shown = []
    for n, hand in enumerate(MATCH, start=1):
        wait_for_text(page, f"Hand {n}")
        for k, (who, counts) in enumerate(hand):
            if n == 2 and k == 1:
                continue  # entered on the other phone
            went_out(page, who, counts)
            if n == 2 and k == 0:
                # Another phone (dark mode) opens the game mid-hand: the same counts, and it
                # carries on from there.
                other = phone_page(browser, page.url, size, color_scheme="dark")
                try:
                    wait_for_text(other, "Cy scores 13")
                    assert [held(other, p) for p in ("Ann", "Ben", "Di")] == [4, 5, 4]
                    went_out(other, *hand[1])
                    shot(other, f"ptp_hand_entry_dark_{size}")
                finally:
                    other.context.close()
                wait_for_text(page, "Di scores 8")  # this phone followed
            if n == 4 and k == 0:
                wait_for_text(page, "Ann reached 30: the match ends after this hand")
                expect(button(page, "Next hand")).to_be_disabled()
                shot(page, f"ptp_hand_entry_{size}")
        wait_for_text(page, f"Hand over: {[p for p in names if p not in [w for w, _ in hand]][0]} "
                            "still held dice and scores 0")
        shown.append(race(page, names))
        if n < len(MATCH):
            button(page, "Next hand").tap()
            primary_in_view(page)
    wait_for_text(page, "Ann reached 30: the match is over")
    expect(button(page, "Next hand")).to_have_count(0)
    assert shown[-1] == MATCH_TOTALS
    shot(page, f"ptp_match_over_{size}")
    button(page, "Finish the match").tap()
    winner, standings = final_standings(page, names)
    shot(page, f"ptp_match_finished_{size}")
    taps = taps_on(page)
    page.context.close()
    print(f"\nPass the Pandas, a Panda-monium match of four hands at {size} (one hand's second out "
          f"tapped on another phone): {taps} taps (limit {MATCH_TAPS})")
    assert taps <= MATCH_TAPS

    record = exported(server, game_id, tmp_path)
    assert record["finished"]
    ids = {p["id"]: p["name"] for p in record["players"]}
    assert [[ids[o["player"]] for o in h["out"]] for h in record["rounds"]] == [[w for w, _ in h] for h in MATCH]
    result = scored(record)
    assert result["problems"] == []
    assert standings == {ids[p["id"]]: p["total"] for p in result["players"]} == MATCH_TOTALS
    running, per_hand = {n: 0 for n in names}, []
    for row in result["rounds"]:
        running = {ids[pid]: running[ids[pid]] + v for pid, v in row.items()}
        per_hand.append(running)
    assert per_hand == shown  # every hand's totals as the race showed them
    assert winner == "Winner: " + " and ".join(ids[w] for w in result["winners"]) == "Winner: Ann"


def test_a_basic_match_by_tapping_with_a_correction_ends_as_main_py_score(page, server, tmp_path):
    names = ["Eve", "Fay", "Gil"]
    game_id = start(page, names, basic=True)
    wait_for_text(page, "Hands won")
    expect(page.get_by_text("More dice for Eve")).to_have_count(0)  # no dice counted in the basic game
    button(page, "Fay went out").tap()
    wait_for_text(page, "Fay won the hand. Later places, if you play on:")
    button(page, "Next hand").tap()
    wait_for_text(page, "Hand 2")
    button(page, "Eve went out").tap()
    wait_for_text(page, "Eve won the hand. Later places, if you play on:")
    button(page, "Gil went out").tap()    # the table played on for second place
    wait_for_text(page, "Eve won the hand; Fay came last")
    button(page, "Next hand").tap()
    button(page, "Fay went out").tap()
    wait_for_text(page, "Fay won the hand. Later places, if you play on:")
    button(page, "Next hand").tap()
    button(page, "Gil went out").tap()
    wait_for_text(page, "Gil won the hand. Later places, if you play on:")
    assert race(page, names) == {"Eve": 1, "Fay": 2, "Gil": 1}
    # Hand 3 was Eve's in fact: correct it from the hands table.
    button(page, "Edit hand 3").tap()
    wait_for_text(page, "Correcting hand 3")
    button(page, "Take back Fay").tap()
    wait_for_text(page, "Who went out first?")
    button(page, "Eve went out").tap()
    wait_for_text(page, "Eve won the hand. Later places, if you play on:")
    button(page, "Done with hand 3").tap()
    wait_for_text(page, "Hand 4")
    wait_for_text(page, "Gil won the hand. Later places, if you play on:")
    shown = race(page, names)
    assert shown == {"Eve": 2, "Fay": 1, "Gil": 1}
    page.get_by_text("Eve: 2 hands won, leader").wait_for()
    shot(page, "ptp_basic_412x915")
    button(page, "Finish the match").tap()
    winner, standings = final_standings(page, names)

    record = exported(server, game_id, tmp_path)
    assert record["settings"]["variant"] == "basic" and record["finished"]
    ids = {p["id"]: p["name"] for p in record["players"]}
    assert [[ids[o["player"]] for o in h["out"]] for h in record["rounds"]] == [
        ["Fay"], ["Eve", "Gil"], ["Eve"], ["Gil"]]
    result = scored(record)
    assert result["problems"] == []
    assert standings == shown == {ids[p["id"]]: p["total"] for p in result["players"]}
    assert winner == "Winner: Eve" == "Winner: " + " and ".join(ids[w] for w in result["winners"])


def test_more_dice_than_can_be_in_play_are_refused_and_a_later_finisher_scoring_more_is_warned(browser, page):
    start(page, ["Hal", "Ivy", "Jo", "Kit"])
    button(page, "Hal went out").tap()
    wait_for_text(page, "Hal scores 12")                 # 4 each to start from: 5 less one to Water
    for k in (5, 6, 7):
        button(page, "More dice for Ivy").tap()
        wait_for_text(page, f"Ivy held {k}")
    wait_for_text(page, "All 15 dice that can be in play are counted")
    button(page, "More dice for Jo").tap()
    page.get_by_text("Not saved: at most 15 dice can be in play when Hal goes out "
                     "(4 players × 5 dice, less Hal's own 5)").last.wait_for()
    wait_for_text(page, "Hal scores 15")
    assert held(page, "Jo") == 4
    for k in range(6, 0, -1):
        button(page, "Fewer dice for Ivy").tap()
        wait_for_text(page, f"Ivy held {k}")
    expect(button(page, "Fewer dice for Ivy")).to_be_disabled()  # a player still in holds a die
    for k in (3, 2, 1):
        button(page, "Fewer dice for Jo").tap()
        wait_for_text(page, f"Jo held {k}")
    wait_for_text(page, "Hal scores 6")
    went_out(page, "Ivy", {"Jo": 3, "Kit": 4})          # 7 after Hal's 6: possible only by a mistake
    wait_for_text(page, "Ivy went out later but scored more (7) than the player before (6)")
    expect(button(page, "Warnings")).to_be_visible()
    shot(page, "ptp_warning_412x915")
    # Undo takes back the last tap: Jo's count picked on the number sheet, and with it the warning.
    button(page, "Undo").tap()
    wait_for_text(page, "Jo held 1")
    wait_for_text(page, "Ivy scores 5")
    expect(page.get_by_text("Ivy went out later but scored more (7) than the player before (6)")).to_have_count(0)
    expect(button(page, "Warnings")).to_be_hidden()
    # A phone on its side: the race and the hand being entered side by side, in view at once.
    wide = phone_page(browser, page.url, width=915, height=412)
    try:
        wait_for_text(wide, "Ivy scores 5")
        for text in ("Race to 30", "Hand 1", "Hal: 6 of 30, leader", "Ivy scores 5"):
            box = wide.get_by_text(text, exact=True).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 412, text
        shot(wide, "ptp_hand_entry_915x412")
    finally:
        wide.context.close()
