"""The floor under every tap-latency figure: 100 taps on a one-button Flet counter.

Starts bench/counter_app.py (web, 127.0.0.1, no CDN), opens it in headless Debian Chromium
at 412x915, and prints median and p95 of tap -> new count in the DOM (and -> on the canvas).
Run: make bench, or .venv/bin/python bench/bench_counter_floor.py [--taps N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root

from bench.tap_latency import measure_tap_timings, percentile, summary  # noqa: E402
from tests.browser_harness import chromium, flet_server, open_app_page, wait_for_text  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5, help="taps not counted (first glyphs, JIT)")
    args = parser.parse_args(argv)

    with flet_server("bench/counter_app.py", port_arg="--port") as server, chromium() as browser:
        page = open_app_page(browser, server.url)
        wait_for_text(page, "0")
        button = page.get_by_role("button", name="Increment")
        taps = args.warmup + args.taps
        timings = measure_tap_timings(page, lambda i: button.click(), lambda i: str(i + 1), n=taps)
        timings = timings[args.warmup:]
        page.context.close()

    dom = [t.dom_ms for t in timings]
    paint = [t.paint_ms for t in timings if t.paint_ms is not None]
    print(f"counter floor, tap -> text in DOM:    {summary(dom)}")
    if paint:
        print(f"counter floor, tap -> frame on screen: {summary(paint)}")
    print(f"RESULT counter_floor_dom_median_ms={statistics.median(dom):.1f} counter_floor_dom_p95_ms={percentile(dom, 95):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
