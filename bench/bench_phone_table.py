"""A table of phones with no laptop (#54, #69): how long joining takes, and how long a guest's tap
takes to show on the host's phone and on another guest's, with the guests tapping at once.

The phones as tests/test_browser_phone_table.py makes them: each the phone build in its own
Debian Chromium at 412 x 915 (scale 2), touch, in a network namespace of its own on one Wi-Fi
with no way out (tests/phone_net.py), paired only through their cameras (tests/fake_camera.py).
The host's phone starts a Panda Royale game of one player per phone and invites the guests' phones.

- join: for each guest, from its camera reading the host's code (camera.js doneAt, the page's
  clock) to its pad showing the host's game ("Following the host's phone" in the semantics tree),
  and the part of that from the host's camera reading the guest's answer. The bench's own steps
  between them (a screenshot filmed for the host's camera, the tap on Read the guest's code) are
  in the first figure, as a person's hand is.
- tap: each guest (on its own player's hand) taps a yellow die on and off, ROUNDS times, all the
  guests in one burst each time (one touch right after the other, each at its button's centre,
  found before the burst: a burst's first touch to its last is printed), then the bench waits
  until every phone shows every new total. Each tap's time is from the finger's touch (the guest
  page's pointerdown, on the wall clock the pages share; until 2026-12-02 it was from the
  driver's call to a locator's tap(), which first waited 70-85 ms for its button to stand still)
  to its player's new total
  on the host's phone, and on the next guest's (guest 1's tap on guest 2, ..., the last
  guest's on guest 1). Each page notes the time a total changes in its semantics tree (a
  MutationObserver, on the wall clock every page and the bench share), so a slow page does not
  wait for the bench's polling. Median and p95 of each (#69's goals, 3 guests: p95 <= 150 ms with
  the host at full speed, <= 300 ms with the host at a quarter of a core).
- --share 0.25: the host's page and its Python worker (the browser's zygotes and renderers) held
  to a quarter of a core as a mid-range phone (bench/slow_phone.py's cgroup, as bench_web_cold.py
  --share), moved in before its page opens; the guests stay at full speed. The JavaScript loop of
  slow_phone.LOOP_JS on the host against a guest says the slowdown the figures were taken at.
- --guests-share 0.25: each guest's page and worker held too, each in a group of its own (every
  phone an ordinary phone; the four then need one core of this machine's two, not all of both).
- Also printed, for where the time goes: the animation frames each page drew in the bursts (its
  requestAnimationFrame callbacks: Flutter asks one per frame), and the host's browser's CPU in
  the bursts thread by thread (the page's main thread "chromium", Python's "DedicatedWorker",
  the raster and GC pool "ThreadPoolForeg", the GPU process's own).
- Four phones on this machine's two cores: at full speed the guests' browsers and the four GPU
  processes (SwiftShader, software) take the cores from the host in each burst. With one guest
  the host's figures are the app's own path; with three, the burst's CPU across the table.
- Every phone is timed as one that opened the app before: the bench waits for each phone's first
  visit to keep its Python for the next opening (slow_phone.kept_for_next_opening) before the game.

Run: flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_phone_table.py
       [--guests 3] [--rounds 30] [--share 0.25] [--guests-share 0.25] [--site DIR] [--trace FILE]
       [--host-canvaskit]
     (--trace: where the host's page spends the bursts, by thread and function, bench/trace_top.py)
     (make build/web/.built first if build/web is missing; as root: namespaces and the cgroup.
     It measures a copy of the build, slow_phone.private_site; --site another build, e.g. main's)
"""
from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench import trace_top  # noqa: E402
from bench.bench_web_cold import build_of  # noqa: E402
from bench import cpu_split  # noqa: E402
from bench.slow_phone import (PERIOD_US, HalfCore, browser_tree, budget, kept_for_next_opening,  # noqa: E402
                              loop_ms, private_site)
from tests.browser_harness import enable_semantics  # noqa: E402
from tests.phone_net import ip, wifi  # noqa: E402
from tests.test_browser_panda_royale import button, label, start_game  # noqa: E402
from tests.test_browser_phone_table import Seat, hand_of, pair  # noqa: E402
from tests.test_web_phone import SITE, WITHOUT_WASM_GC  # noqa: E402

START = 120_000
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]  # the host's player first, then one per guest
FOLLOWING = """() => Array.from(document.querySelectorAll('flt-semantics')).some(
  n => (n.textContent || '').includes("Following the host's phone"))"""
# Notes [name, total, Date.now()] each time a player's total in the score strip changes ("Ben: 5, ...").
WATCH_TOTALS = """(names) => {
  const read = new RegExp('^(' + names.join('|') + '): ([\\u2212-]?\\\\d+)');
  window.__totals = []; const last = {};
  const look = () => {
    const now = Date.now(), seen = {};
    for (const n of document.querySelectorAll('flt-semantics')) {
      const m = read.exec(n.getAttribute('aria-label') || n.textContent || '');
      if (m && !(m[1] in seen)) seen[m[1]] = Number(m[2].replace('\\u2212', '-'));
    }
    for (const [name, total] of Object.entries(seen))
      if (last[name] !== total) { last[name] = total; window.__totals.push([name, total, now]); }
  };
  // The finger's touch, as the page's input event has it (on the same wall clock): the driver's
  // own steps before it (finding the button, waiting for it to stand still) are no person's.
  window.__touched = [];
  // The page's animation frames (Flutter asks one for each frame it draws).
  window.__frames = 0; const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (f) => raf((t) => { window.__frames++; return f(t); });
  window.addEventListener('pointerdown', (e) => window.__touched.push(performance.timeOrigin + e.timeStamp), true);
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                     characterData: true});
  look();
}"""
SHOWN = """([name, total]) => window.__totals.some(([n, t]) => n === name && t === total)"""


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


def profile_of(phone) -> str:
    """The profile folder (--user-data-dir) of the Chromium Playwright launched in the phone's namespace."""
    for pid in ip("netns", "pids", phone.ns).stdout.split():
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        flags = [a.decode() for a in args if a.startswith(b"--user-data-dir=")]
        if flags and not any(a.startswith(b"--type=") for a in args):
            return flags[0].split("=", 1)[1]
    raise RuntimeError(f"no browser in {phone.ns}")


def box_centre(target) -> tuple[float, float]:
    box = target.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def seen_at(page, name: str, total: int, after_ms: float) -> float | None:
    """When `page` first showed `name`'s total as `total` at or after `after_ms` (wall clock, ms)."""
    for n, t, at in page.evaluate("window.__totals"):
        if n == name and t == total and at >= after_ms:
            return at
    return None


def table_arguments(parser: argparse.ArgumentParser, held: str) -> None:
    """--guests, --rounds and --share, as this bench and bench_table_floor.py take them."""
    parser.add_argument("--guests", type=int, default=3, help="guests' phones tapping at once (1-6)")
    parser.add_argument("--rounds", type=int, default=30, help="bursts: each guest taps once in each")
    parser.add_argument("--share", type=float, default=None,
                        help=f"the share of a core {held} held to (0.25: a mid-range phone)")


def print_taps(on_host: list[float], on_other: list[float]) -> None:
    """Median, p95 and max of a guest's tap -> its new total, on the host and on the next guest."""
    for what, values in (("a guest's tap -> its new total on the host", on_host),
                         ("a guest's tap -> its new total on the next guest", on_other)):
        if values:
            print(f"{what}: median {statistics.median(values):.0f} ms, p95 {p95(values):.0f} ms, "
                  f"max {max(values):.0f} ms over {len(values)} taps")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    table_arguments(parser, "the host's page and worker are")
    parser.add_argument("--site", type=Path, default=SITE)
    parser.add_argument("--trace", type=Path, default=None,
                        help="a Chromium trace of the host's page during the bursts, written here and summed "
                             "by thread and function (bench/trace_top.py)")
    parser.add_argument("--host-canvaskit", action="store_true",
                        help="the host's phone runs the JavaScript build with CanvasKit (a phone without "
                             "WebAssembly GC) instead of the WebAssembly one with skwasm")
    parser.add_argument("--guests-share", type=float, default=None,
                        help="each guest's page and worker held to this share of a core, in a group of "
                             "its own (0.25: every guest an ordinary phone with a core of its own)")
    parser.add_argument("--budget", type=float, default=1500, help="seconds before the run gives up")
    args = parser.parse_args()
    if not 1 <= args.guests <= len(NAMES) - 1:
        parser.error(f"--guests from 1 to {len(NAMES) - 1}")
    budget(args.budget, "bench_phone_table")
    site = private_site(args.site)
    names = NAMES[:args.guests + 1]
    quota = round(PERIOD_US * args.share) if args.share else None
    held_to = HalfCore(quota_us=quota) if quota else contextlib.nullcontext()
    guest_quota = round(PERIOD_US * args.guests_share) if args.guests_share else None
    with sync_playwright() as pw, wifi(args.guests + 1) as net, held_to as hold, contextlib.ExitStack() as stack:
        seats, said = [], []
        for k, phone in enumerate(net.phones):
            film = phone.start(pw.chromium, site)
            if k == 0 and quota:  # before its page opens: the renderers forked later are held too
                hold.hold(profile_of(phone))
            if k > 0 and guest_quota:
                stack.enter_context(HalfCore(quota_us=guest_quota, tag=f"-guest{k}")).hold(profile_of(phone))
            if k == 0 and args.host_canvaskit:  # as a phone without WebAssembly GC opens the site
                context = phone.new_context()
                context.add_init_script(WITHOUT_WASM_GC)
                page = context.new_page()
                page.goto(phone.url)
            else:
                page = phone.open()
            page.set_default_timeout(30_000)
            lines: list[str] = []
            page.on("console", lambda message, lines=lines: lines.append(message.text))
            seats.append(Seat(phone, film, page))
            said.append(lines)
        for seat in seats:
            enable_semantics(seat.page, timeout=START)
            seat.page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for(timeout=START)
        # As phones that opened the app before: the first visit's keeper of Python (a second Python
        # started and kept for the next opening, web/early.js) took the held host's quarter core for
        # a minute, under the first taps.
        for seat, lines in zip(seats, said):
            kept_for_next_opening(seat.page, lambda lines=lines: lines, 400)
        host, *guests = seats
        start_game(host.page, names)
        joins = [joined(host, guest, n) for n, guest in enumerate(guests, start=1)]
        others = f"{args.guests} other phone{'s' if args.guests > 1 else ''} at this table"
        host.page.get_by_text(others).first.wait_for()
        players = dict(zip(guests, names[1:]))
        for guest, name in players.items():
            hand_of(guest, name)
        held = hold.check(profile_of(net.phones[0])) if quota else None
        loops = (loop_ms(host.page), loop_ms(guests[0].page))
        for seat in seats:
            seat.page.evaluate(WATCH_TOTALS, names)
        on_host, on_other = [], []
        by_turn: dict[int, list[float]] = {}  # on the host, by the tap's place in its burst
        spreads = []  # each burst's first touch to its last
        cpu_before = cpu_split.snapshot()  # every process's CPU, the four browsers' among them
        # The host's own processes thread by thread: whose share of its (held) core the bursts took.
        host_tree = {p.pid: p.kind + (f"({p.sub})" if p.sub else "")
                     for p in browser_tree(profile_of(net.phones[0]))}
        host_before = cpu_split.threads_of(list(host_tree))
        began = time.monotonic()
        if args.trace:  # the host's browser, Playwright's own tracing (profile_tap.py's, with V8's sampler)
            net.phones[0].browser.start_tracing(page=host.page, path=str(args.trace),
                                                categories=trace_top.CATEGORIES)
        for k in range(args.rounds):
            adding = k % 2 == 0
            total = 5 if adding else 0
            targets = {guest: button(guest.page, label("yellow", 5)) if adding else
                       button(guest.page, f"Remove {label('yellow', 5)}").first for guest in guests}
            for target in targets.values():
                target.wait_for()
            # Where each finger lands, found first: the burst is then only the touches, a few ms
            # apart (a locator's tap() first waits for its button to stand still, 70-85 ms each).
            spots = {guest: box_centre(target) for guest, target in targets.items()}
            tapped = {}
            for guest, (x, y) in spots.items():  # the burst: one touch right after the other
                tapped[guest] = time.time() * 1000
                guest.page.touchscreen.tap(x, y)
            for seat in seats:
                for name in players.values():
                    seat.page.wait_for_function(SHOWN, arg=[name, total], polling=100, timeout=30_000)
            touched = {guest: guest.page.evaluate("window.__touched.at(-1)") for guest in guests}
            spreads.append(max(touched.values()) - min(touched.values()))
            for n, guest in enumerate(guests):
                other = guests[(n + 1) % len(guests)] if len(guests) > 1 else None
                name = players[guest]
                on_host.append(seen_at(host.page, name, total, tapped[guest]) - touched[guest])
                by_turn.setdefault(n, []).append(on_host[-1])
                if other is not None:
                    on_other.append(seen_at(other.page, name, total, tapped[guest]) - touched[guest])
            for seat in seats:  # the next burst's marks only
                seat.page.evaluate("window.__totals.length = 0")
        burst_time = time.monotonic() - began
        frames = [seat.page.evaluate("window.__frames") for seat in seats]
        cpu_in_bursts = cpu_split.spent_between(cpu_before, cpu_split.snapshot())
        host_threads = cpu_split.threads_between(host_before, cpu_split.threads_of(list(host_tree)), host_tree)
        if args.trace:
            net.phones[0].browser.stop_tracing()
            print(trace_top.report(trace_top.events_of(json.loads(args.trace.read_text()))), file=sys.stderr)
    speed = (f"the host's page and worker held to {args.share} of a core (cgroup v1 cpu.cfs_quota_us {quota} "
             f"of {PERIOD_US})" if quota else "the host at full speed")
    speed += (f"; each guest's held to {args.guests_share} of a core, a group each" if guest_quota
              else "; the guests at full speed")
    print(f"A table of phones (#54, #69): the host and {args.guests} guests, each its own Chromium in its own "
          f"network namespace, 412 x 915; build {build_of(site)} (a copy of {args.site}); {speed}")
    if held is not None:
        print(f"  held: {', '.join(held['in'])}; left out: {', '.join(held['out'])}")
    print(f"  the JavaScript loop (slow_phone.LOOP_JS): host {loops[0]:.0f} ms, guest 1 {loops[1]:.0f} ms "
          f"(x{loops[0] / loops[1]:.1f})")
    for n, (whole, after_answer) in enumerate(joins, start=1):
        print(f"guest {n} joins: its first code read -> its pad {whole:.2f} s "
              f"(the host's reading of its answer -> its pad {after_answer:.2f} s)")
    print(f"{args.rounds} bursts of {args.guests} taps at once in {burst_time:.0f} s "
          f"(a burst's first touch to its last: median {statistics.median(spreads):.0f} ms)")
    print(f"  CPU in the bursts (bench/cpu_split.py's kinds): {cpu_in_bursts}")
    print(f"  animation frames in the bursts: host {frames[0]}, guests {', '.join(map(str, frames[1:]))}")
    print(f"  the host's browser in the bursts, by thread: {host_threads}")
    print_taps(on_host, on_other)
    if len(by_turn) > 1:  # the later taps of a burst wait for the earlier ones, and are answered "stale" first
        print("  on the host, by the tap's place in its burst: " + "; ".join(
            f"{n + 1}. median {statistics.median(v):.0f} ms, p95 {p95(v):.0f} ms" for n, v in sorted(by_turn.items())))


if __name__ == "__main__":
    main()
