"""What the browser tests of the pads check a game against: the app's own Export JSON and
`main.py score` on the record it exports."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.browser_harness import PHONE, REPO_ROOT, open_app_page


def exported(browser, server, names) -> dict:
    """The newest game with these players, from the app's own Export JSON."""
    page = open_app_page(browser, server.url, accept_downloads=True)
    try:
        page.get_by_role("button", name="Your data", exact=True).click()
        with page.expect_download() as download:
            page.get_by_role("button", name="Export JSON", exact=True).click()
        games = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["games"]
    finally:
        page.context.close()
    # The newest of that table: a test run at two phone sizes seats the same names twice.
    return max((g for g in games if [p["name"] for p in g["players"]] == list(names)), key=lambda g: g["created"])


def main_py_score(record: dict) -> dict:
    """What `main.py score` says of a record (its JSON output)."""
    out = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "score", "-"], input=json.dumps(record),
                         text=True, capture_output=True, cwd=REPO_ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# --------------------------------------------------------------------------- a phone in the hand

PHONES = {"360x740": (360, 740), "412x915": (412, 915)}


# Every touch of a finger on the page, counted by the page itself (typing is not a tap).
COUNT_TAPS_JS = """
window.__taps = 0;
document.addEventListener('touchstart', e => { if (e.touches.length === 1) window.__taps++; }, true);
"""

# The actions that take a pad to its next step: one of them must be on screen at every step.
PRIMARY = re.compile(r"^(Start the game|Close the round|Save round \d+|Start round \d+|Back to round \d+|"
                     r"Finish the game|Finish the match|Next: .+|Score the game|Save game \d+|Next hand)$")


def phone_page(browser, url: str, size: str = "412x915", **kwargs):
    """A page as a phone shows it: touch, a phone's scale factor, the given size ('360x740');
    its taps are counted (taps_on)."""
    width, height = (int(n) for n in size.split("x"))
    width, height = kwargs.pop("width", width), kwargs.pop("height", height)   # a phone on its side
    page = open_app_page(browser, url, width=width, height=height, **PHONE, **kwargs)
    page.evaluate(COUNT_TAPS_JS)
    return page


def taps_on(page) -> int:
    """The taps made on this page since phone_page opened it."""
    return page.evaluate("window.__taps || 0")


def primary_in_view(page) -> str:
    """The pad's next step is on screen without scrolling: a primary action (PRIMARY) is drawn,
    and each one drawn lies wholly inside the viewport. Returns the first one's name."""
    found = page.get_by_role("button", name=PRIMARY)
    view = page.viewport_size
    for _ in range(100):   # a tap's redraw may be on its way: the old button leaves, the new one comes
        boxes = []
        for k in range(found.count()):
            try:
                box = found.nth(k).bounding_box(timeout=1_000)
                name = found.nth(k).get_attribute("aria-label", timeout=1_000) or found.nth(k).inner_text()
            except Exception:  # gone between the count and the look
                continue
            if box is not None:
                boxes.append((name, box))
        if boxes:
            break
        page.wait_for_timeout(50)
    assert boxes, "no primary action drawn"
    for name, box in boxes:
        assert 0 <= box["y"] and box["y"] + box["height"] <= view["height"] + 0.5, (name, box, view)
        assert 0 <= box["x"] and box["x"] + box["width"] <= view["width"] + 0.5, (name, box, view)
    return boxes[0][0]


class Taps:
    """Counts the taps a game takes, as a person would (each tap of a finger, scrolls not
    counted), and checks after each that the pad's primary action is on screen."""

    def __init__(self, page, primary=None):
        self.page = page
        self.count = 0
        self.primary = primary   # () -> a locator of the action that must stay in view, or None

    def tap(self, locator) -> None:
        locator.tap()
        self.count += 1

    def in_view(self, locator) -> dict:
        """The control's box, asserted wholly inside the viewport (no scrolling needed)."""
        locator.wait_for()
        box = locator.bounding_box()
        view = self.page.viewport_size
        assert box is not None, "not drawn"
        assert 0 <= box["x"] and box["x"] + box["width"] <= view["width"] + 0.5, (box, view)
        assert 0 <= box["y"] and box["y"] + box["height"] <= view["height"] + 0.5, (box, view)
        return box
