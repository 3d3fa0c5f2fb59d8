"""Nothing in the suite can hang (#32): every test runs under pytest-timeout's budget
(pyproject.toml), and a test that hangs fails with its evidence while the run goes on."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.browser_harness import REPO_ROOT

pytestmark = [pytest.mark.slow, pytest.mark.browser]

BUDGET = 12  # seconds, for the hung tests only: the real budget is the suite's own


def test_a_hung_browser_test_fails_within_its_budget_with_its_evidence_and_the_run_goes_on():
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "pytest", "tests/hang_on_purpose.py", "-o",
                          "python_files=hang_on_purpose.py", "-o", f"timeout={BUDGET}", "-p", "no:cacheprovider",
                          "-p", "no:randomly"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=240)
    took = time.monotonic() - start
    out = run.stdout + run.stderr
    assert run.returncode == 1, out[-3000:]
    assert "2 failed, 1 passed" in out, out[-3000:]
    assert f"Timeout (>{BUDGET}.0s)" in out, out[-3000:]  # said to be a timeout, not some other failure
    assert "page still open" in out and ".png" in out, out[-3000:]  # what the page showed: texts, a screenshot
    assert "the module's Flet server, its log's end" in out, out[-3000:]
    assert "main thread paused" in out and "spinForEver" in out, out[-3000:]  # where the page hung
    assert took < 2 * BUDGET + 90, f"the run took {took:.0f} s"
