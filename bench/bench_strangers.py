"""A phone at the table tapping while a stranger floods the laptop's port (#31).

Runs `main.py --lan` with a token, a phone (Chromium, touch) on a mid-game Panda Royale pad,
and tests/strangers.py's Flood from another address (sockets with no token and with wrong
ones, 16 MB frames and 15 MB registrations behind them, pages opened with wrong tokens).
Taps alternate green 7 in and out, as bench_tap.py's do: quiet taps, then taps for
--seconds of flood, then quiet taps again. Prints the taps' p50/p95 with and without the
flood, what the flood got, and the server's memory: before, its peak, and settled after.
Goal: every tap seen, no "Not connected", flood p95 within 2x of quiet.

Run: .venv/bin/python bench/bench_strangers.py [--seconds 30] [--taps 60]
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root

from bench.bench_tap import seed_game  # noqa: E402
from bench.tap_latency import measure_tap_timings, percentile  # noqa: E402
from tests.browser_harness import PHONE, chromium, flet_server, open_app_page, wait_for_text  # noqa: E402
from tests.strangers import Flood, memory_mb  # noqa: E402

TOKEN = "bench-strangers-0123456789abcdef"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="how long the stranger floods")
    parser.add_argument("--taps", type=int, default=60, help="quiet taps before and again after the flood")
    args = parser.parse_args(argv)

    data_dir = Path(tempfile.mkdtemp(prefix="pandapad-bench-strangers-"))
    game_id, total = seed_game(data_dir)
    with flet_server("main.py", args=["--data-dir", str(data_dir), "--lan", "--token", TOKEN],
                     port_arg="--port") as server, chromium() as browser:
        page = open_app_page(browser, f"{server.url}game/{game_id}?token={TOKEN}", **PHONE)
        wait_for_text(page, f"Hand total {total}")
        page.get_by_role("button", name="Green pad", exact=True).tap()
        green7 = page.get_by_role("button", name="Green 7", exact=True)
        remove7 = page.get_by_role("button", name="Remove Green 7", exact=True)
        banner = page.get_by_text(re.compile("Not connected"))
        done = {"taps": 0, "banner": 0}

        def taps(n: int) -> list[float]:
            start = done["taps"]
            done["taps"] += n
            out = [t.dom_ms for t in measure_tap_timings(
                page, lambda i: (green7 if (start + i) % 2 == 0 else remove7).tap(),
                lambda i: f"Hand total {total + 7 if (start + i) % 2 == 0 else total}", n=n)]
            done["banner"] += banner.count()
            return out

        taps(6)  # warm-up
        quiet = taps(args.taps)
        before, peak_before = memory_mb(server.pid)
        flooded: list[float] = []
        with Flood(server.url) as flood:
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                flooded += taps(10)
        _, peak = memory_mb(server.pid)
        quiet += taps(args.taps)
        time.sleep(10)
        settled, _ = memory_mb(server.pid)

    def line(name: str, ms: list[float]) -> str:
        return (f"{name:<22} n={len(ms):>3}  p50 {statistics.median(ms):6.1f} ms  "
                f"p95 {percentile(ms, 95):6.1f} ms  max {max(ms):6.1f} ms")

    print(line("taps, quiet", quiet))
    print(line(f"taps, {args.seconds:.0f} s of flood", flooded))
    ratio = percentile(flooded, 95) / percentile(quiet, 95)
    print(f"flood p95 / quiet p95   {ratio:.2f} (goal <= 2.0); 'Not connected' seen after {done['banner']} taps")
    print(f"the flood's attempts    {sum(flood.outcomes.values())} in {args.seconds:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(flood.outcomes.items())))
    print(f"server memory (RSS)     before {before:.0f} MB (peak so far {peak_before:.0f} MB), peak by the "
          f"flood's end {peak:.0f} MB, settled {settled:.0f} MB 10 s after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
