"""The history screen in headless Chromium on an imported set of games: the count, the filters
by game and player, the search, and opening a game."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from storage import Store, samples
from tests.browser_harness import flet_server, screenshot, wait_for_text
from views.screens.history_state import filtered, header

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def others() -> list:
    """A finished game of each of the other four kinds, as players would have entered them."""
    from scoring import parse_record
    from tests.records_for_tests import record
    done = {"created": "2027-01-0{}T19:00:00Z", "finished": "2027-01-0{}T21:00:00Z"}
    games = [
        record("royal-ur", ["Ann", "Ben"], rounds=[{"winner": "ann", "loser": {"unentered": 7}},
                                                   {"winner": "ben", "loser": {"home": 6, "board": [5]}}]),
        record("nokosu-dice", ["Ann", "Ben", "Cat"], rounds=[
            {"declared": {"ann": 3, "ben": 0, "cat": 5}, "tricks": {"ann": 3, "ben": 0, "cat": 9}}]),
        record("pandoria", ["Ann", "Ben"], final={"ann": {"points": 54, "wood": 6}, "ben": {"points": 50, "gold": 9}}),
        record("pass-the-pandas", ["Ann", "Ben"], settings={"target": 10},
               rounds=[{"out": [{"player": "ann", "points": 11}]}]),
    ]
    return [parse_record({**g, "id": f"other-{k}", "created": done["created"].format(k + 1),
                          "finished": done["finished"].format(k + 1)}) for k, g in enumerate(games)]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    data = tmp_path_factory.mktemp("history")
    records = list(samples.history(5, 120)) + others()
    with Store.open(data) as store:
        for record in records:
            store.save(record, None)
        rows = store.rows()
    return data, rows


@pytest.fixture(scope="module")
def server(stored):
    with flet_server("main.py", args=["--data-dir", str(stored[0])], port_arg="--port") as s:
        yield s


def count_shown(page) -> int:
    text = page.get_by_text(re.compile(r"^\d+ games?$")).inner_text()
    return int(text.split()[0])


def test_history_counts_filters_and_opens_games(page, stored):
    _, rows = stored
    page.get_by_role("button", name="History", exact=True).tap()
    wait_for_text(page, f"{len(rows)} games")
    screenshot(page, "history_412x915")
    # Filter by a game: its title's chip.
    game = rows[0]["game"]
    from views.screens.home import title_of
    page.get_by_role("checkbox", name=title_of(game), exact=True).tap()
    wait_for_text(page, header(len(filtered(rows, game=game))))
    page.get_by_role("checkbox", name="All games", exact=True).tap()
    wait_for_text(page, header(len(rows)))
    # Filter by the most frequent player.
    from views.screens.history_state import players
    name = players(rows)[0]
    page.get_by_role("checkbox", name=name, exact=True).tap()
    expected = len(filtered(rows, player=name))
    page.get_by_text(re.compile(rf"^{expected} games?$")).wait_for()
    page.get_by_role("checkbox", name="Everyone", exact=True).tap()
    wait_for_text(page, f"{len(rows)} games")
    # Search by part of a name.
    part = name[:3]
    page.get_by_role("textbox").tap()
    page.get_by_role("textbox").press_sequentially(part, delay=50)
    page.get_by_text(re.compile(rf"^{len(filtered(rows, text=part))} games?$")).wait_for()
    # Open the first game shown.
    first = filtered(rows, text=part)[0]
    page.get_by_role("button", name=re.compile(r", \d+ \w+ \d\d:\d\d")).first.tap()
    page.wait_for_url(re.compile(rf"/game/{first['id']}$"), wait_until="commit")


def test_back_and_forward_follow_history_though_it_is_drawn_before_the_address_moves(page, stored):
    # History is drawn first and the address follows (#12); the route changes that come
    # back from the browser's own back and forward must still each show their screen.
    _, rows = stored
    page.get_by_role("button", name="History", exact=True).tap()
    wait_for_text(page, f"{len(rows)} games")
    page.wait_for_url(re.compile(r"/history$"), wait_until="commit")
    page.get_by_role("button", name=re.compile(r", \d+ \w+ \d\d:\d\d")).first.tap()
    page.wait_for_url(re.compile(rf"/game/{rows[0]['id']}$"), wait_until="commit")
    page.go_back()
    page.wait_for_url(re.compile(r"/history$"), wait_until="commit")
    wait_for_text(page, f"{len(rows)} games")
    page.go_back()
    wait_for_text(page, "New game")
    expect(page.get_by_text(f"{len(rows)} games", exact=True)).to_have_count(0)
    page.go_forward()
    wait_for_text(page, f"{len(rows)} games")
    page.get_by_role("button", name="History", exact=True).wait_for(state="detached")


def test_history_draws_rows_as_the_list_is_scrolled(page, stored):
    from views.screens.history_state import FIRST, result_line
    _, rows = stored
    page.get_by_role("button", name="History", exact=True).tap()
    wait_for_text(page, f"{len(rows)} games")
    assert len(rows) > FIRST + 100  # several pages to go through
    oldest = page.get_by_role("button", name=re.compile(re.escape(result_line(rows[-1]))))
    assert oldest.count() == 0  # not drawn on the first screen
    page.mouse.move(206, 700)
    for _ in range(40):  # a thumb flicking down the list
        if oldest.count():
            break
        page.mouse.wheel(0, 3000)
        page.wait_for_timeout(250)
    oldest.first.wait_for()


def test_a_finished_game_reads_back_with_its_chart_and_can_be_deleted_undone_and_rematched(page, stored):
    _, rows = stored
    done = next(r for r in rows if r["finished"] and r["game"] == "panda-royale")
    page.goto(page.url.rstrip("/") + f"/game/{done['id']}")
    from tests.browser_harness import enable_semantics
    enable_semantics(page)
    winners = list(done["winners"])
    wait_for_text(page, ("Winner: " if len(winners) == 1 else "Shared win: ") + " and ".join(winners))
    for _pid, name, total, place in done["players"]:
        page.get_by_text(f"{place}. {name}: {total}", exact=True).wait_for()
    chart = page.get_by_text(re.compile(r"^Running totals round by round\. "))
    said = chart.inner_text()
    for _pid, name, total, _place in done["players"]:  # each line ends on the player's total
        assert re.search(rf"{re.escape(name)}: [^;]*\b{total}(;|$)", said), name
    screenshot(page, "finished_game_chart_412x915")
    # Delete, then Undo: the game is back.
    page.get_by_role("button", name="Delete", exact=True).tap()
    wait_for_text(page, "New game")
    page.get_by_role("button", name="Undo", exact=True).tap()
    page.wait_for_url(re.compile(rf"/game/{done['id']}$"), wait_until="commit")
    chart.wait_for()
    # Rematch: the same game with the same players in the same seats, nothing entered.
    page.get_by_role("button", name="Rematch", exact=True).tap()
    page.wait_for_url(re.compile(r"/game/(?!" + done["id"] + r")[\w-]+$"), wait_until="commit")
    cells = page.get_by_role("button", name=re.compile(r"^[^:]+: 0\b"))
    cells.first.wait_for()
    said = cells.evaluate_all("els => els.map(e => e.getAttribute('aria-label') || e.textContent)")
    assert [t.split(":")[0] for t in said] == [p[1] for p in done["players"]]


@pytest.mark.parametrize("game,label", [
    ("panda-royale", "Red went negative"),
    ("royal-ur", "Game wins"),
    ("nokosu-dice", "Declarations made"),
    ("pandoria", "Points from the end-game conversion"),
    ("pass-the-pandas", "Average points per hand"),
])
def test_the_statistics_of_each_game_with_its_chart(page, stored, game, label):
    from scoring.statistics import game_stats
    _, rows = stored
    stats = game_stats(game, rows)
    page.get_by_role("button", name="Statistics", exact=True).tap()
    from views.screens.home import title_of
    page.get_by_role("checkbox", name=title_of(game), exact=True).tap()
    wait_for_text(page, f"{stats.games} {'game' if stats.games == 1 else 'games'} played")
    chart = page.get_by_text(re.compile(r"^Wins per player: "))
    expected = "; ".join(f"{p.name} {p.wins}" for p in stats.players[:8])
    assert chart.inner_text() == f"Wins per player: {expected}"
    # What fits the game, as scoring.statistics (tested on its own) computes it.
    page.get_by_text(label, exact=True).wait_for()
    value = dict(stats.extras)[label]  # a number is written in the phone's own form (5.5, 5,5)
    from views.words import lang
    page.get_by_text(lang.decimal(value) if isinstance(value, float) else value, exact=True).first.wait_for()
    if game == "panda-royale":
        page.get_by_text(re.compile(r"^Points by colour: ")).wait_for()
        screenshot(page, "statistics_panda_royale_412x915")


def test_a_players_page(page, stored):
    from scoring.statistics import player_stats
    _, rows = stored
    stats = player_stats("Ann", rows)
    page.goto(page.url.rstrip("/") + "/player/Ann")
    from tests.browser_harness import enable_semantics
    enable_semantics(page)
    wait_for_text(page, f"{stats.games} games · {stats.wins} wins · {round(100 * stats.wins / stats.games)} %")
    wait_for_text(page, f"Winning streak: {stats.current_streak} now, {stats.longest_streak} at the longest")
    ur = stats.by_game["royal-ur"]
    wait_for_text(page, f"{ur.games} played · {ur.wins} won ({round(100 * ur.win_rate)} %)")
    screenshot(page, "player_page_412x915")


def test_rename_and_merge_a_player_across_games(page, stored):
    from views.screens.history_state import filtered
    _, rows = stored
    cat_games = len(filtered(rows, player="Cat"))
    ann_games = len(filtered(rows, player="Ann"))
    both = sum(1 for r in rows if {"cat", "ann"} <= {p[1].casefold() for p in r["players"]})
    page.goto(page.url.rstrip("/") + "/player/Cat")
    from tests.browser_harness import enable_semantics
    enable_semantics(page)
    page.get_by_role("button", name="Rename", exact=True).tap()
    wait_for_text(page, f"All {cat_games} {'game' if cat_games == 1 else 'games'} of Cat will say the new name.")
    box = page.get_by_role("textbox")
    box.fill("Catalina")
    page.get_by_role("button", name="Rename", exact=True).last.tap()
    page.get_by_text(re.compile(rf"^{cat_games} games? now say Catalina")).first.wait_for()
    page.wait_for_url(re.compile(r"/player/Catalina$"), wait_until="commit")
    # The history follows: the name is gone, the new one is there as often.
    page.get_by_role("button", name="Merge with…", exact=True).tap()
    page.get_by_role("button", name="Ann", exact=True).tap()
    moving = cat_games - both
    wait_for_text(page, "Merge Catalina into Ann?")
    screenshot(page, "player_merge_preview_412x915")
    page.get_by_role("button", name=f"Merge {moving} {'game' if moving == 1 else 'games'}", exact=True).tap()
    page.wait_for_url(re.compile(r"/player/Ann$"), wait_until="commit")
    after = ann_games + moving
    page.get_by_text(re.compile(rf"^{after} games · ")).wait_for()
