"""What the browser tests of the pads check a game against: the app's own Export JSON and
`main.py score` on the record it exports."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.browser_harness import REPO_ROOT, open_app_page


def exported(browser, server, names) -> dict:
    """The game with these players, from the app's own Export JSON."""
    page = open_app_page(browser, server.url, accept_downloads=True)
    try:
        page.get_by_role("button", name="Your data", exact=True).click()
        with page.expect_download() as download:
            page.get_by_role("button", name="Export JSON", exact=True).click()
        games = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["games"]
    finally:
        page.context.close()
    return next(g for g in games if [p["name"] for p in g["players"]] == list(names))


def main_py_score(record: dict) -> dict:
    """What `main.py score` says of a record (its JSON output)."""
    out = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "score", "-"], input=json.dumps(record),
                         text=True, capture_output=True, cwd=REPO_ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
