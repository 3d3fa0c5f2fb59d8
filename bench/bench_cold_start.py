"""Cold start: `python main.py` spawned -> its first interactive screen in Chromium, against
the smallest Flet app (bench/counter_app.py) started the same way, alternating in one run.

Each run starts a fresh server process (a new empty store for main.py), waits for it to
answer HTTP, opens a new page, turns on the accessibility tree and waits for the first
screen's text ("New game" on the home; "0" on the counter). Goal (issue #11): median ratio
<= 1.5.

Run: make bench, or .venv/bin/python bench/bench_cold_start.py [--runs 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root

from tests.browser_harness import chromium, flet_server, open_app_page, wait_for_text  # noqa: E402

GOAL_RATIO = 1.5


def cold_start(browser, target: str, args: list[str], first_text: str) -> float:
    t0 = time.perf_counter()
    with flet_server(target, args=args, port_arg="--port") as server:
        page = open_app_page(browser, server.url)
        wait_for_text(page, first_text, timeout=60_000)
        elapsed = time.perf_counter() - t0
        page.context.close()
    return elapsed * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    app_ms: list[float] = []
    floor_ms: list[float] = []
    with chromium() as browser:
        cold_start(browser, "bench/counter_app.py", [], "0")  # warm the disk cache once for both
        cold_start(browser, "main.py", ["--data-dir", tempfile.mkdtemp()], "New game")
        for _ in range(args.runs):
            floor_ms.append(cold_start(browser, "bench/counter_app.py", [], "0"))
            app_ms.append(cold_start(browser, "main.py", ["--data-dir", tempfile.mkdtemp()], "New game"))
    ratio = statistics.median(app_ms) / statistics.median(floor_ms)
    print(f"minimal Flet app, spawn -> first screen: median {statistics.median(floor_ms):.0f} ms "
          f"(runs: {', '.join(f'{m:.0f}' for m in floor_ms)})")
    print(f"Pandapad main.py, spawn -> home screen:  median {statistics.median(app_ms):.0f} ms "
          f"(runs: {', '.join(f'{m:.0f}' for m in app_ms)})")
    print(f"median ratio: {ratio:.2f} (goal <= {GOAL_RATIO})")
    print(f"RESULT cold_app_median_ms={statistics.median(app_ms):.0f} "
          f"cold_floor_median_ms={statistics.median(floor_ms):.0f} cold_ratio={ratio:.2f}")
    return 0 if ratio <= GOAL_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
