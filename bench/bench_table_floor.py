"""The floor under #69's tap goals: the smallest Flet table, four phones' browsers on this machine.

bench/table_counter_app.py (one score strip, one button a page) served as the table's phones get
pages, and four Debian Chromiums as bench_phone_table.py's phones (412 x 915, scale 2, touch, each a
browser of its own on a profile of its own: slow_phone.phone_profile). The host's page only
watches; each guest taps its own button, all the guests in one burst, ROUNDS times, timed exactly
as bench_phone_table.py times them (the finger's pointerdown to the new total in each page's
semantics tree, on the wall clock all pages share). Nothing of Pandapad is in it: no pad, no
Pyodide, no WebRTC, the Python at full speed on the server. So no Flet app at a table can show a
guest's tap on another phone here faster than this; #69's goals (p95 <= 150 ms, <= 300 ms with
the host at a quarter of a core) are read against it.

Run: flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_table_floor.py
       [--guests 3] [--rounds 30] [--share 0.25]
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_phone_table import (NAMES, SHOWN, WATCH_TOTALS, box_centre, print_taps, seen_at,  # noqa: E402
                                    table_arguments)
from bench import cpu_split  # noqa: E402
from bench.slow_phone import PERIOD_US, HalfCore, budget, loop_ms, phone_profile  # noqa: E402
from tests.browser_harness import enable_semantics, flet_server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    table_arguments(parser, "the host's page is")
    args = parser.parse_args()
    if not 1 <= args.guests <= len(NAMES) - 1:
        parser.error(f"--guests from 1 to {len(NAMES) - 1}")
    budget(600, "bench_table_floor")
    names = NAMES[:args.guests + 1]
    quota = round(PERIOD_US * args.share) if args.share else None
    held_to = HalfCore(quota_us=quota) if quota else contextlib.nullcontext()
    with flet_server("bench/table_counter_app.py", args=["--names", ",".join(names)], port_arg="--port") as server, \
            tempfile.TemporaryDirectory() as profiles, sync_playwright() as pw, held_to as hold:
        pages = []
        for k in range(len(names)):
            profile = Path(profiles) / str(k)
            _, page = phone_profile(pw, profile, 60_000)
            if k == 0 and quota:
                hold.hold(profile)
            page.goto(server.url)  # the K-th page opened sits in the K-th seat
            enable_semantics(page)
            page.get_by_role("button", name=f"Tap for {names[k]}").wait_for()
            pages.append(page)
        if quota:
            hold.hold(Path(profiles) / "0")  # the renderer the site opened in
        host, *guests = pages
        loops = (loop_ms(host), loop_ms(guests[0]))
        for page in pages:
            page.evaluate(WATCH_TOTALS, names)
        on_host, on_other = [], []
        cpu_before = cpu_split.snapshot()  # every process's CPU, the four browsers' among them
        began = time.monotonic()
        for k in range(args.rounds):
            total = 5 if k % 2 == 0 else 0
            spots = {n: box_centre(page.get_by_role("button", name=f"Tap for {names[n]}"))
                     for n, page in enumerate(guests, start=1)}
            tapped = {}
            for n, (x, y) in spots.items():
                tapped[n] = time.time() * 1000
                guests[n - 1].touchscreen.tap(x, y)
            for page in pages:
                for name in names[1:]:
                    page.wait_for_function(SHOWN, arg=[name, total], polling=100, timeout=30_000)
            for n, guest in enumerate(guests, start=1):
                touched = guest.evaluate("window.__touched.at(-1)")
                on_host.append(seen_at(host, names[n], total, tapped[n]) - touched)
                other = pages[n % args.guests + 1]
                if other is not guest:
                    on_other.append(seen_at(other, names[n], total, tapped[n]) - touched)
            for page in pages:
                page.evaluate("window.__totals.length = 0")
        took = time.monotonic() - began
        cpu_in_bursts = cpu_split.spent_between(cpu_before, cpu_split.snapshot())
    speed = f"the host's page held to {args.share} of a core" if quota else "every browser at full speed"
    print(f"The smallest Flet table (bench/table_counter_app.py): a host and {args.guests} guests, each its own "
          f"Chromium, 412 x 915 x 2; {speed}")
    print(f"  the JavaScript loop: host {loops[0]:.0f} ms, guest 1 {loops[1]:.0f} ms (x{loops[0] / loops[1]:.1f})")
    print(f"{args.rounds} bursts of {args.guests} taps at once in {took:.0f} s")
    print(f"  CPU in the bursts (bench/cpu_split.py's kinds): {cpu_in_bursts}")
    print_taps(on_host, on_other)


if __name__ == "__main__":
    main()
