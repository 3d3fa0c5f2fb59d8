"""How long a phone takes to show the truth again once its Wi-Fi is back (issue #26).

    .venv/bin/python bench/bench_reconnect.py [--runs 10] [--outage 10]

A table-mode server (--lan, a token) and an Android phone in headless Chromium reach each other
through the loopback proxy of tests/netproxy.py. Each run: a die is tapped, then the Wi-Fi
goes for --outage seconds, either reset (every connection reset, new ones refused) or stalled
(nothing moves, sockets stay open), then comes back. Measured on the phone's own clock: from
the moment the network is back until the banner "Not connected — taps are not saved" is gone,
which is after the screen was redrawn from the store; then the pad's totals are checked
against the dice tapped. Prints each run, the median and the worst, per kind of outage.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import Player  # noqa: E402
from scoring import panda_royale as pr  # noqa: E402
from storage import Store  # noqa: E402
from tests.browser_harness import chromium, flet_server, open_app_page, wait_for_paint, wait_for_text  # noqa: E402
from tests.netproxy import LinkProxy  # noqa: E402

TOKEN = "bench-reconnect-0123456789ab"
PHONE = dict(is_mobile=True, has_touch=True, device_scale_factor=2.625)
BANNER = "Not connected — taps are not saved"
GOAL = 1.5


def tap_at(page, locator) -> None:
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def one_run(page, link, kind: str, outage: float, expected: int) -> float:
    tap_at(page, page.get_by_role("button", name="Yellow 1", exact=True).first)
    wait_for_text(page, f"Hand total {expected}")
    link.cut() if kind == "reset" else link.hold()
    page.get_by_text(BANNER).wait_for(state="visible", timeout=15_000)
    time.sleep(outage)
    back = page.evaluate("performance.now()")  # the phone's clock, just before the network returns
    link.restore() if kind == "reset" else link.release()
    page.wait_for_function(f"(window.__pandapadLink.backAt || 0) > {back}", timeout=60_000, polling=20)
    took = (page.evaluate("window.__pandapadLink.backAt") - back) / 1000
    shown = page.get_by_text(re.compile(r"^Ann: -?\d+")).first.inner_text()
    assert shown.startswith(f"Ann: {expected}"), f"after the {kind}, the pad shows {shown!r}, stored {expected}"
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--outage", type=float, default=10.0, help="seconds without Wi-Fi in each run")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-reconnect-"))
    with Store.open(data) as store:
        store.save(pr.Record(players=(Player(id="p1", name="Ann"), Player(id="p2", name="Ben")), id="g",
                             created="2026-11-24T19:00:00Z"), None)
    figures: dict[str, list[float]] = {"reset": [], "stall": []}
    with flet_server("main.py", args=["--data-dir", str(data), "--lan", "--token", TOKEN],
                     port_arg="--port") as server, LinkProxy(server.port) as link, chromium() as browser:
        page = open_app_page(browser, f"{link.url}game/g?token={TOKEN}", **PHONE)
        wait_for_text(page, "Round 1 of 10")
        wait_for_paint(page)
        total = 0
        for n in range(args.runs):
            for kind in ("reset", "stall"):
                total += 1
                took = one_run(page, link, kind, args.outage, total)
                figures[kind].append(took)
                print(f"run {n + 1:2d} {kind}: network back -> pad true in {took:.2f} s", flush=True)
    print(f"\n{args.runs} runs, {args.outage:g} s outages, goal <= {GOAL} s")
    for kind, values in figures.items():
        print(f"  {kind}: median {statistics.median(values):.2f} s, worst {max(values):.2f} s, "
              f"best {min(values):.2f} s, within goal {sum(v <= GOAL for v in values)}/{len(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
