"""Shared fixtures. The browser machinery itself lives in tests/browser_harness.py."""

from __future__ import annotations

import collections
import os
import sys

import pytest

from tests import browser_harness, fake_camera

# The command line speaks the terminal's language (#33): the suite, and every main.py and
# server it starts, in English whatever this machine's locale (a test asks for another itself).
for _var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(autouse=True)
def words_for_screens():
    """main.main() run in this process (the command line's tests) leaves views.words.lang speaking to a
    terminal (lang.for_terminal: none of the screen's line-break joiners) for the rest of the worker:
    after each test the screen's words are back, so no later test draws words without them."""
    yield
    lang = sys.modules.get("views.words.lang")  # not imported here: a test of main.py score has no Flet
    if lang is not None and not lang._drawn:
        lang._drawn = True
        lang.translations.cache_clear()


@pytest.fixture(scope="module", autouse=True)
def motion(request):
    """The module's phones ask for less motion (browser_harness.LESS_MOTION), unless it is marked
    `motion`: set before any of its fixtures opens a page (autouse fixtures of a scope come first)."""
    still = request.node.get_closest_marker("motion") is None
    browser_harness.PHONE.update(browser_harness.LESS_MOTION if still else browser_harness.MOTION)


@pytest.fixture(scope="session")
def camera_film(tmp_path_factory):
    """What the phones' camera films in this run (#53, tests/fake_camera.py): a test writes the
    other phone's code into it before a reading starts."""
    return fake_camera.write_y4m(tmp_path_factory.mktemp("camera") / "camera.y4m", [])


@pytest.fixture(scope="session")
def browser(camera_film):
    """One headless Debian Chromium for the whole run (a boot costs about a second), whose
    camera plays camera_film."""
    with browser_harness.chromium(extra_args=fake_camera.camera_args(camera_film)) as b:
        yield b


@pytest.fixture(scope="session")
def artifacts_dir():
    browser_harness.ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    return browser_harness.ARTIFACTS_DIR


@pytest.fixture
def page(browser, server):
    """A phone-sized page on the module's own `server` fixture, with the accessibility tree on."""
    page = browser_harness.open_app_page(browser, server.url)
    yield page
    page.context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing browser test's report carries what its pages showed and its server's last log
    lines: a failure seen only on CI can then be read, not guessed."""
    report = yield
    if call.when == "setup":
        browser_harness.EVIDENCE.clear()
    if call.when == "call" and report.failed:
        found = list(browser_harness.EVIDENCE)
        browser = item.funcargs.get("browser")
        for context in (browser.contexts if browser is not None else []):
            found += [browser_harness.evidence(page, "page still open") for page in context.pages]
        server = item.funcargs.get("server")
        if isinstance(server, browser_harness.FletServer):
            found.append(("the module's Flet server, its log's end", server.log_tail(3000)))
        for title, text in found:
            report.sections.append((title, text))
    return report


def pytest_terminal_summary(terminalreporter):
    """The ten slowest modules (setup, call and teardown of their tests, module fixtures
    included): where the suite's 18 minutes (#32) go, printed by every run."""
    spent: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) in ("setup", "call", "teardown"):
                module = report.nodeid.split("::")[0]
                spent[module] = spent.get(module, 0.0) + report.duration
    if spent:
        terminalreporter.write_sep("=", "slowest 10 modules")
        for module, seconds in sorted(spent.items(), key=lambda kv: -kv[1])[:10]:
            terminalreporter.write_line(f"{seconds:8.1f}s {module}")


# The longest modules as the last runs printed them (slowest 10 modules), longest first: the
# order xdist hands them out in (make test: --no-loadscope-reorder; by default it hands out the
# modules with the most tests first, and these walks of few tests came last).
LONGEST = ("tests.test_web_phone", "tests.test_browser_panda_royale", "tests.test_browser_pandoria",
           "tests.test_browser_clipping", "tests.test_browser_phone_table", "tests.test_browser_connection",
           "tests.test_browser_data", "tests.test_browser_handoff", "tests.test_browser_royal_ur",
           "tests.test_browser_languages")


def pytest_collection_modifyitems(session, config, items):
    """The longest modules first, then the other modules with slow tests, the quick ones last,
    those with the most tests first (the order within each module kept): with several workers
    (make test) the quick modules fill the end, instead of one worker finishing a long module
    alone while the other has nothing left to do (test_store_bounds, 51 tests and 44 s, came
    last in file order and ran alone for 40 s)."""
    slow = {item.module.__name__ for item in items if item.get_closest_marker("slow")}
    tests = collections.Counter(item.module.__name__ for item in items)

    def rank(item) -> tuple[int, int]:
        name = item.module.__name__
        if name in LONGEST:
            return 0, LONGEST.index(name)
        return (1, 0) if name in slow else (2, -tests[name])
    items.sort(key=rank)
