"""The history screen in headless Chromium on an imported set of games: the count, the filters
by game and player, the search, and opening a game."""
from __future__ import annotations

import re

import pytest

from storage import Store, samples
from tests.browser_harness import flet_server, open_app_page, screenshot, wait_for_text
from views.history_state import filtered

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    data = tmp_path_factory.mktemp("history")
    records = list(samples.history(5, 120))
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
    page.get_by_role("button", name="History", exact=True).click()
    wait_for_text(page, f"{len(rows)} games")
    screenshot(page, "history_412x915")
    # Filter by a game: its title's chip.
    game = rows[0]["game"]
    from views.home import title_of
    page.get_by_role("checkbox", name=title_of(game), exact=True).click()
    wait_for_text(page, f"{len(filtered(rows, game=game))} games")
    page.get_by_role("checkbox", name="All games", exact=True).click()
    # Filter by the most frequent player.
    from views.history_state import players
    name = players(rows)[0]
    page.get_by_role("checkbox", name=name, exact=True).click()
    expected = len(filtered(rows, player=name))
    page.get_by_text(re.compile(rf"^{expected} games?$")).wait_for()
    page.get_by_role("checkbox", name="Everyone", exact=True).click()
    wait_for_text(page, f"{len(rows)} games")
    # Search by part of a name.
    part = name[:3]
    page.get_by_role("textbox").click()
    page.get_by_role("textbox").press_sequentially(part, delay=50)
    page.get_by_text(re.compile(rf"^{len(filtered(rows, text=part))} games?$")).wait_for()
    # Open the first game shown.
    first = filtered(rows, text=part)[0]
    page.get_by_role("button", name=re.compile(r", \d+ \w+ \d\d:\d\d")).first.click()
    page.wait_for_url(re.compile(rf"/game/{first['id']}$"))


def test_a_finished_game_reads_back_with_its_chart_and_can_be_deleted_undone_and_rematched(page, stored):
    _, rows = stored
    done = next(r for r in rows if r["finished"])
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
    page.get_by_role("button", name="Delete", exact=True).click()
    wait_for_text(page, "New game")
    page.get_by_role("button", name="Undo", exact=True).click()
    page.wait_for_url(re.compile(rf"/game/{done['id']}$"))
    chart.wait_for()
    # Rematch: the same game with the same players in the same seats, nothing entered.
    page.get_by_role("button", name="Rematch", exact=True).click()
    page.wait_for_url(re.compile(r"/game/(?!" + done["id"] + r")[\w-]+$"))
    cells = page.get_by_role("button", name=re.compile(r"^[^:]+: 0\b"))
    cells.first.wait_for()
    said = cells.evaluate_all("els => els.map(e => e.getAttribute('aria-label') || e.textContent)")
    assert [t.split(":")[0] for t in said] == [p[1] for p in done["players"]]
