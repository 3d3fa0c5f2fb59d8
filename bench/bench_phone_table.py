"""A table of phones with no laptop (#54): how long joining takes, and how long a guest's tap takes
to show on the host's phone and on the other guest's.

Three phones as tests/test_browser_phone_table.py makes them: each the phone build in its own
Debian Chromium at 412 x 915 (scale 2), touch, in a network namespace of its own on one Wi-Fi
with no way out (tests/phone_net.py), paired only through their cameras (tests/fake_camera.py).
The host's phone starts a 3-player Panda Royale game and invites the two guests' phones.

- join: for each guest, from its camera reading the host's code (camera.js doneAt, the page's
  clock) to its pad showing the host's game ("Following the host's phone" in the semantics tree),
  and the part of that from the host's camera reading the guest's answer. The bench's own steps
  between them (a screenshot filmed for the host's camera, the tap on Read the guest's code) are
  in the first figure, as a person's hand is.
- tap: guest 1 (Ben's hand) taps a yellow die on and off, TAPS times; each tap's time from the
  tap to Ben's new total on the host's phone, and on guest 2's, polled at each animation frame;
  the median and p95 of each (goal: p95 <= 300 ms on this machine).

Run: flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_phone_table.py [--taps N]
     (make build/web/.built first if build/web is missing; as root: namespaces)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser_harness import enable_semantics  # noqa: E402
from tests.phone_net import wifi  # noqa: E402
from tests.test_browser_panda_royale import button, label, start_game  # noqa: E402
from tests.test_browser_phone_table import Seat, hand_of, pair  # noqa: E402
from tests.test_web_phone import SITE  # noqa: E402

START = 120_000
SHOWS = """([name, total]) => Array.from(document.querySelectorAll('flt-semantics')).some(
  n => (n.getAttribute('aria-label') || n.textContent || '').startsWith(name + ': ' + total))"""
FOLLOWING = """() => Array.from(document.querySelectorAll('flt-semantics')).some(
  n => (n.textContent || '').includes("Following the host's phone"))"""


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def joined(host: Seat, guest: Seat, n: int) -> tuple[float, float]:
    """Pair one guest (as the test does) and return (first code read -> pad, answer read -> pad), seconds."""
    pair(host, guest, n)
    guest.page.wait_for_function(FOLLOWING, timeout=30_000)
    shown = guest.page.evaluate("performance.now()")
    read = guest.page.evaluate("window.__pandapadCamera.doneAt")
    answer_read = host.page.evaluate("window.__pandapadCamera.doneAt")
    # The host's clock and the guest's differ: the answer read is placed on the guest's clock by
    # the wall time both pages give now.
    host_now, guest_now = host.page.evaluate("[performance.now(), Date.now()]"), \
        guest.page.evaluate("[performance.now(), Date.now()]")
    answer_on_guest = answer_read - host_now[0] + host_now[1] - guest_now[1] + guest_now[0]
    return (shown - read) / 1000, (shown - answer_on_guest) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=100)
    taps = parser.parse_args().taps
    with sync_playwright() as pw, wifi(3) as net:
        seats = []
        for phone in net.phones:
            film = phone.start(pw.chromium, SITE)
            page = phone.open()
            page.set_default_timeout(30_000)
            seats.append(Seat(phone, film, page))
        for seat in seats:
            enable_semantics(seat.page, timeout=START)
            seat.page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for(timeout=START)
        host, one, two = seats
        start_game(host.page)
        joins = [joined(host, guest, n) for n, guest in enumerate((one, two), start=1)]
        host.page.get_by_text("2 other phones at this table").first.wait_for()
        hand_of(one, "Ben")
        on_host, on_other = [], []
        for k in range(taps):
            adding = k % 2 == 0
            target = button(one.page, label("yellow", 5)) if adding else \
                button(one.page, f"Remove {label('yellow', 5)}").first
            total = 5 if adding else 0
            target.wait_for()
            tapped = time.monotonic()
            target.tap(no_wait_after=True)
            host.page.wait_for_function(SHOWS, arg=["Ben", total], polling="raf", timeout=15_000)
            on_host.append(time.monotonic() - tapped)
            two.page.wait_for_function(SHOWS, arg=["Ben", total], polling="raf", timeout=15_000)
            on_other.append(time.monotonic() - tapped)
            one.page.wait_for_function(SHOWS, arg=["Ben", total], polling="raf", timeout=15_000)
    print("A table of phones (#54): 3 phones, each its own Chromium in its own network namespace, 412 x 915")
    for n, (whole, after_answer) in enumerate(joins, start=1):
        print(f"guest {n} joins: its first code read -> its pad {whole:.2f} s "
              f"(the host's reading of its answer -> its pad {after_answer:.2f} s)")
    for name, values in (("tap on guest 1 -> total on the host", on_host),
                         ("tap on guest 1 -> total on guest 2", on_other)):
        ms = [v * 1000 for v in values]
        print(f"{name}: median {statistics.median(ms):.0f} ms, p95 {p95(ms):.0f} ms, "
              f"max {max(ms):.0f} ms over {len(ms)} taps")


if __name__ == "__main__":
    main()
