"""Not part of the suite (no test_ prefix): test_suite_budget.py runs it in a pytest of its own,
with a short budget, to show that a hung browser test fails with its evidence and the run
goes on. Its first test hangs on a promise in the page that never settles, awaited by
Playwright's evaluate, which has no timeout of its own: the page still answers, and its
screenshot and texts are the evidence. The second hangs as the renderers seen hung did (100 %
busy, answering nothing): the page's main thread spins while a tap waits for it, with the
debugger on as while names are typed, so the evidence names the function it spins in."""
from __future__ import annotations

import pytest

from tests.browser_harness import flet_server, open_app_page, watched_for_hangs


@pytest.fixture(scope="module")
def server():
    with flet_server("bench/counter_app.py", port_arg="--port") as s:
        yield s


def test_a_promise_that_never_settles(browser, server):
    page = open_app_page(browser, server.url)
    page.evaluate("new Promise(() => {})")  # never settles


def test_a_page_that_never_answers(browser, server):
    page = open_app_page(browser, server.url)
    with watched_for_hangs(page):
        page.evaluate("setTimeout(function spinForEver() { for (;;) {} }, 0)")
        page.get_by_role("button", name="Increment").tap()  # waits for a page that never answers


def test_the_next_test_still_runs(browser, server):
    page = open_app_page(browser, server.url)
    try:
        assert page.evaluate("1 + 1") == 2
    finally:
        page.context.close()
