"""Shared fixtures. The browser machinery itself lives in tests/browser_harness.py."""

from __future__ import annotations

import pytest

from tests import browser_harness


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for the whole run (a boot costs about a second)."""
    with browser_harness.chromium() as b:
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
