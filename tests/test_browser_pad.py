"""The Panda Royale score pad in headless Chromium against the real server and store.

A whole 3-player game is entered by tapping only, from the list of hands below (written
without the app), and must end with the totals, pity dice and winners of `main.py score`
on the stored record. Then: undo/redo, a yellow tie, killing and restarting the server.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser_harness import REPO_ROOT, flet_server, open_app_page, screenshot, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ["Ann", "Ben", "Cat"]
NAME = {"yellow": "Yellow", "purple": "Purple", "blue": "Blue", "glitter": "Glitter", "red": "Red",
        "green": "Green", "clear": "Clear", "pink": "Pink"}
ORDER = ("yellow", "purple", "blue", "glitter", "red", "green", "clear")

# The game as the table rolled it: round by round, each player's dice (red negative = black face).
# Everyone re-rolls last round's dice plus one new die; the lowest total of each round holds the
# single pink die (3 players) in the next one.
GAME = [
    # round 1
    {"Ann": {"yellow": [3]}, "Ben": {"yellow": [2]}, "Cat": {"yellow": [4]}},
    # round 2
    {"Ann": {"yellow": [1], "purple": [2]}, "Ben": {"yellow": [2], "red": [6], "pink": 9},
     "Cat": {"yellow": [4], "purple": [1]}},
    # round 3
    {"Ann": {"yellow": [2], "purple": [7], "blue": [7], "pink": 2}, "Ben": {"yellow": [4], "red": [2], "green": [2]},
     "Cat": {"yellow": [2], "purple": [4], "clear": [6]}},
    # round 4
    {"Ann": {"yellow": [5], "purple": [10], "blue": [10], "red": [-7]},
     "Ben": {"yellow": [4, 5], "red": [1], "green": [5], "pink": 7},
     "Cat": {"yellow": [5], "purple": [9], "clear": [1], "red": [5]}},
    # round 5
    {"Ann": {"yellow": [3], "purple": [2], "blue": [10], "red": [-4], "green": [18]},
     "Ben": {"yellow": [2, 7], "red": [1], "green": [16], "glitter": [3], "pink": 8},
     "Cat": {"yellow": [8], "purple": [6], "clear": [3], "red": [4], "blue": [12]}},
    # round 6: Ben and Cat tie on yellow (8); Cat wins the re-roll
    {"Ann": {"yellow": [4], "purple": [2], "blue": [10], "red": [5], "green": [11], "glitter": [6], "pink": 8},
     "Ben": {"yellow": [5, 3], "red": [-2], "green": [14], "glitter": [3], "clear": [2]},
     "Cat": {"yellow": [8], "purple": [7], "clear": [1], "red": [2], "blue": [10], "green": [11]}},
    # round 7
    {"Ann": {"yellow": [6], "purple": [12], "blue": [6], "red": [8], "green": [15], "glitter": [1], "clear": [1]},
     "Ben": {"yellow": [5, 1], "red": [8], "green": [3], "glitter": [6], "clear": [6], "purple": [5], "pink": 11},
     "Cat": {"yellow": [8, 8], "purple": [5], "clear": [6], "red": [7], "blue": [6], "green": [1]}},
    # round 8
    {"Ann": {"yellow": [6], "purple": [3, 12], "blue": [10], "red": [2], "green": [7], "glitter": [3], "clear": [2]},
     "Ben": {"yellow": [4, 2], "red": [-7], "green": [16], "glitter": [2], "clear": [4], "purple": [7], "blue": [9]},
     "Cat": {"yellow": [5, 4], "purple": [3], "clear": [4], "red": [5], "blue": [6], "green": [13], "glitter": [2],
             "pink": 2}},
    # round 9
    {"Ann": {"yellow": [3], "purple": [3, 5], "blue": [4], "red": [-4, -1], "green": [19], "glitter": [2],
             "clear": [3]},
     "Ben": {"yellow": [6, 1], "red": [6, -7], "green": [17], "glitter": [4], "clear": [6], "purple": [9],
             "blue": [7], "pink": 2},
     "Cat": {"yellow": [8, 3], "purple": [11], "clear": [4], "red": [-1, 6], "blue": [4], "green": [15],
             "glitter": [1]}},
    # round 10
    {"Ann": {"yellow": [2], "purple": [1, 2], "blue": [10, 3], "red": [3, 4], "green": [12], "glitter": [5],
             "clear": [1], "pink": 11},
     "Ben": {"yellow": [5, 2], "red": [6, -8], "green": [16, 5], "glitter": [1], "clear": [4], "purple": [8],
             "blue": [8]},
     "Cat": {"yellow": [2, 1], "purple": [12], "clear": [3, 5], "red": [5, -6], "blue": [12], "green": [6],
             "glitter": [2]}},
]
REROLL = {6: "Cat"}  # round -> who won the yellow re-roll


# --------------------------------------------------------------------------- driving the pad

def label(colour: str, face: int) -> str:
    return f"{NAME[colour]} {face}" if face > 0 else f"{NAME[colour]} \u2212{-face}"


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def app(data_dir: Path):
    return flet_server("main.py", args=["--data-dir", str(data_dir)], port_arg="--port")


def start_game(page, names=PLAYERS) -> None:
    page.get_by_role("button", name=re.compile(r"^Panda Royale")).click()
    box = page.get_by_role("textbox")
    for n in names:
        box.fill(n)
        box.press("Enter")
        page.get_by_text(n, exact=True).first.wait_for()
    button(page, "Start the game").click()
    wait_for_text(page, "Round 1 of 10")


def count_is(page, n: int, round_no: int):
    dice = "die" if round_no == 1 else "dice"
    page.get_by_text(re.compile(rf"^{n} of {round_no} {dice}\b")).wait_for()


def tap_die(page, colour: str, face: int) -> None:
    target = button(page, label(colour, face))
    if target.count() == 0:  # another colour's pad, or the other side of the red switch, is open
        button(page, f"{NAME[colour]} pad").click()
        if colour == "red" and face < 0:
            button(page, "Red black (\u2212) faces").click()
        target.wait_for()
    target.click()


def enter_hand(page, round_no: int, hand: dict) -> None:
    n = 0
    for colour in ORDER:
        for face in hand.get(colour, []):
            tap_die(page, colour, face)
            n += 1
            count_is(page, n, round_no)
    pink_pending = page.get_by_text(re.compile(r"pink to enter$"))
    if "pink" in hand:
        if button(page, "Pink pad").count() == 0:  # not pre-marked: the table corrects it
            page.get_by_role("switch", name="Pink die").click()
            button(page, "Pink pad").wait_for()
        tap_die(page, "pink", hand["pink"])
        page.get_by_text(re.compile(r"\+ pink$")).wait_for()
    elif pink_pending.count():
        page.get_by_role("switch", name="Pink die").click()
        page.get_by_text(re.compile(rf"^{n} of {round_no} di\w+$")).wait_for()


def next_hand(page) -> None:
    page.get_by_role("button", name=re.compile(r"^(Next: |Close the round$)")).click()


def pity_shown(page, round_no: int) -> list[str]:
    text = page.get_by_text(re.compile(rf"^Pink dice for round {round_no + 1}: ")).inner_text()
    return [n.strip() for n in text.split(":", 1)[1].split(",")]


def play_round(page, round_no: int, hands: dict, reroll: str | None = None) -> list[str]:
    """Enter every hand of a round and close it; returns the pity recipients shown (names)."""
    for k, name in enumerate(PLAYERS):
        page.get_by_text(name, exact=True).first.wait_for()
        enter_hand(page, round_no, hands[name])
        next_hand(page)
        if k + 1 < len(PLAYERS):
            wait_for_text(page, f"Next: {PLAYERS[k + 2]}" if k + 2 < len(PLAYERS) else "Close the round")
    if round_no == 10:
        wait_for_text(page, "Final standings")
        return []
    wait_for_text(page, f"Round {round_no} is in")
    if reroll:
        button(page, f"{reroll} won the re-roll").click()
        others = " and ".join(tie_with(hands, reroll))
        wait_for_text(page, f"Panda token: {reroll} (re-roll of the yellow tie with {others})")
    pity = pity_shown(page, round_no)
    button(page, f"Start round {round_no + 1}").click()
    wait_for_text(page, f"Round {round_no + 1} of 10")
    return pity


def tie_with(hands: dict, winner: str) -> list[str]:
    yellows = {n: sum(h.get("yellow", [])) for n, h in hands.items()}
    top = max(yellows.values())
    return [n for n in PLAYERS if yellows[n] == top and n != winner]


# --------------------------------------------------------------------------- the store, read back

def run_main(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args], input=stdin, text=True,
                          capture_output=True, cwd=REPO_ROOT, timeout=60)


def stored_games(data_dir: Path) -> list[dict]:
    out = run_main("export", "--data-dir", str(data_dir))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["games"]


def as_record_hand(hand: dict) -> dict:
    return {c: hand[c] for c in (*ORDER, "pink") if c in hand}


# --------------------------------------------------------------------------- tests

def test_ten_rounds_by_tapping_end_as_main_py_score(browser, tmp_path):
    data_dir = tmp_path / "data"
    shown_pity: list[list[str]] = []
    with app(data_dir) as server:
        page = open_app_page(browser, server.url)
        start_game(page)
        for r, hands in enumerate(GAME, start=1):
            shown_pity.append(play_round(page, r, hands, REROLL.get(r)))
            if r == 1:
                screenshot(page, "pad_round2_start_412x915")
            if r == 7:
                enter_hand(page, 8, GAME[7]["Ann"])  # part of round 8 on screen, then take it back out
                screenshot(page, "pad_round8_hand_412x915")
                left = sum(len(GAME[7]["Ann"].get(c, [])) for c in ORDER)
                for colour in reversed(ORDER):
                    for face in reversed(GAME[7]["Ann"].get(colour, [])):
                        button(page, f"Remove {label(colour, face)}").first.click()
                        left -= 1
                        count_is(page, left, 8)
        screenshot(page, "pad_final_standings_412x915")
        winner_text = page.get_by_text(re.compile(r"^(Winner|Shared win): ")).inner_text()
        standings = {}
        for name in PLAYERS:
            row = page.get_by_text(re.compile(rf"^\d+\. {name}: ")).inner_text()
            standings[name] = int(row.split(": ")[1].replace("\u2212", "-"))
        button(page, "Finish the game").click()
        wait_for_text(page, "This game is finished.")
        page.context.close()

    games = stored_games(data_dir)
    assert len(games) == 1
    record = games[0]
    assert record["finished"]
    ids = {p["name"]: p["id"] for p in record["players"]}
    names = {v: k for k, v in ids.items()}
    # What was tapped is what the table rolled.
    assert len(record["rounds"]) == 10
    for r, hands in enumerate(GAME):
        stored = record["rounds"][r]["hands"]
        for name, hand in hands.items():
            got = {c: v for c, v in stored[ids[name]].items() if v not in (None, [])}
            assert got == as_record_hand(hand), f"round {r + 1}, {name}"
    assert record["rounds"][5]["panda"] == ids["Cat"]

    scored = run_main("score", "-", stdin=json.dumps(record))
    assert scored.returncode == 0, scored.stderr
    result = json.loads(scored.stdout)
    assert result["problems"] == []
    assert standings == {names[p["id"]]: p["total"] for p in result["players"]}
    winners = [names[w] for w in result["winners"]]
    assert winner_text == ("Winner: " if len(winners) == 1 else "Shared win: ") + " and ".join(winners)
    assert shown_pity[:9] == [[names[pid] for pid in got] for got in result["detail"]["pity"]]
