"""A phone's first minute with the app (#69, #70): a first visit on a mid-range phone, a game
started at once, and the taps of that first minute, tap -> the new total shown.

On a first visit the page keeps a snapshot of Python for the next opening: a second Python start
(web/early.js keepPython, "the keeper"), 9 s of a core here. The keeper waits for the phone to be
still (no touch, nothing new drawn by Python for STILL_MS); a build from before that (--site)
started it 3 s after the first screen, under the first taps. This bench measures what a person
meets either way: one phone's browser (412 x 915, scale 2, touch), the site served on loopback,
the page and Python's worker held to --share of a core from before the page opens
(bench/slow_phone.py's cgroup), a Panda Royale game of three typed in, then a yellow 5 tapped
into Ann's hand and out again for --seconds, each tap timed by bench/tap_latency.py (the tap's
input event in the page to "Hand total N" in the semantics tree). It prints the taps' median and
p95, and when the keeper started and ended (its console lines), if it did.

Run: make web, then
     flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_first_minute.py [--share 0.25]
       [--seconds 60] [--site DIR]   (as root: the cgroup; --site another build, e.g. an older main's)
"""
from __future__ import annotations

import argparse
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "web"))

from bench.slow_phone import PERIOD_US, HalfCore, budget, loop_ms, phone_profile, private_site  # noqa: E402
from bench.tap_latency import measure_tap_timings, percentile  # noqa: E402
from tests.browser_harness import enable_semantics  # noqa: E402

TAP_TIMEOUT_MS = 30_000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "web")
    parser.add_argument("--share", type=float, default=0.25, help="the share of a core the page and worker run at")
    parser.add_argument("--seconds", type=float, default=60, help="how long the taps go on after the game starts")
    parser.add_argument("--budget", type=float, default=900, help="seconds before the run gives up")
    args = parser.parse_args(argv)

    budget(args.budget, "bench_first_minute")
    from bench.bench_web import Site, home
    from playwright.sync_api import sync_playwright
    from preview import app
    from tests.test_browser_panda_royale import PLAYERS, label, start_game

    site = private_site(args.site)
    work = Path(tempfile.mkdtemp(prefix="pandapad-bench-first-minute-"))
    profile = work / "profile"
    said: list[tuple[float, str]] = []  # (seconds since the visit began, a console line of the page or a worker)
    try:
        host = Site(app(site))
        quota = round(PERIOD_US * args.share)
        with HalfCore(quota_us=quota) as hold, sync_playwright() as pw:
            context, page = phone_profile(pw, profile)
            hold.hold(profile)  # before the page opens: the renderers forked later are held too
            began = time.monotonic()
            note = lambda m: said.append((time.monotonic() - began, m.text))  # noqa: E731
            page.on("console", note)
            page.on("worker", lambda worker: worker.on("console", note))
            try:
                page.goto(host.url)
                enable_semantics(page, timeout=180_000)
                home(page)
                first_screen = time.monotonic() - began
                start_game(page, PLAYERS[:3])
                playing = time.monotonic() - began
                yellow5 = page.get_by_role("button", name=label("yellow", 5), exact=True)
                remove = page.get_by_role("button", name=f"Remove {label('yellow', 5)}", exact=True)
                timings = []
                while time.monotonic() - began < playing + args.seconds:
                    timings += measure_tap_timings(page, lambda i: (yellow5 if i % 2 == 0 else remove).first.tap(),
                                                   lambda i: "Hand total 5" if i % 2 == 0 else "Hand total 0",
                                                   n=2, timeout_ms=TAP_TIMEOUT_MS)
                slowdown = loop_ms(page)
                held = hold.check(profile)
            finally:
                context.close()
        host.down()
    finally:
        signal.alarm(0)
        shutil.rmtree(work, ignore_errors=True)

    shown = [t.dom_ms for t in timings]
    keeper = [(at, text) for at, text in said if "keeper" in text.lower() or "kept for the next opening" in text]
    print(f"A first visit at {args.share} of a core (cgroup v1 cpu.cfs_quota_us {quota} of {PERIOD_US}; held: "
          f"{', '.join(held['in'])}); the JavaScript loop in the page {slowdown:.0f} ms; site {args.site}")
    print(f"  the first screen at {first_screen:.1f} s, the game started (three names typed) at {playing:.1f} s")
    print(f"  a tap -> the new hand total over the next {args.seconds:.0f} s: median {statistics.median(shown):.0f} ms, "
          f"p95 {percentile(shown, 95):.0f} ms, max {max(shown):.0f} ms over {len(shown)} taps")
    for at, text in keeper:
        print(f"  {at:6.1f} s  {text}")
    if not keeper:
        print("  the keeper of Python did not start while the phone was in use")
    return 0


if __name__ == "__main__":
    sys.exit(main())
