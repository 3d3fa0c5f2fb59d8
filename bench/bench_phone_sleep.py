"""A guest's phone that sleeps at a table of phones (#69): what each phone says when a guest's
screen locks for a while, and how the guest comes back.

The phones as tests/test_browser_phone_table.py makes them (each the phone build in its own Debian
Chromium in a network namespace of its own, paired only through their cameras). The host starts a
Panda Royale game of Ann (the host) and Ben (the guest) and invites the guest's phone. Then, for
each --sleep: every process of the guest's browser is stopped (SIGSTOP), as a phone's system
suspends a browser whose screen is locked or that was put in the background (iOS suspends it
whole; Android freezes a background tab), and continued (SIGCONT) after that many seconds. Printed,
on the wall clock from the moment it stopped:
- when the host's pad said the guest's link dropped (its connection "disconnected"), and when the
  host's page closed the link ("failed": WebRTC's consent checks gave up);
- after it woke: whether the link came back by itself, or when the guest said so;
- Join a table (the home's): from the tap on it to the guest following the host's game again, with the one code
  the host's camera read (the invitation the host kept for the guest's return), and a tap of the
  guest's shown on the host's pad.

With --guest firefox the guest's phone is Firefox ESR (driven as tests/test_browser_mixed_table.py
drives it: WebDriver BiDi, its camera a canvas stream of the host's screenshot), and every process
of it is stopped; the host stays Chromium.

Run: flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_phone_sleep.py [--sleep 60 300]
     [--guest chromium|firefox] [--site DIR]   (as root: namespaces; make build/web/.built first)
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_web_cold import build_of  # noqa: E402
from bench.slow_phone import budget, private_site  # noqa: E402
from tests.browser_harness import enable_semantics, wait_for_paint  # noqa: E402
from tests.phone_net import wifi  # noqa: E402
from tests.test_browser_panda_royale import button, label, start_game  # noqa: E402
from tests import fake_camera  # noqa: E402
from tests.test_browser_engines import Firefox  # noqa: E402
from tests.test_browser_mixed_table import CAMERA, TAP  # noqa: E402
from tests.test_browser_phone_table import SAYS, Seat, browser_pids, hand_of, pair  # noqa: E402
from tests.test_web_phone import SITE, totals_shown  # noqa: E402

START = 120_000
LINKS = "Object.keys(window.__pandapadLinks || {})"


def signal_all(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def says(seat: Seat, text: str) -> bool:
    return seat.page.evaluate(SAYS, text)


class FirefoxSeat:
    """A guest's phone of Firefox ESR, with the few steps of a Seat the bench takes."""

    def __init__(self, phone, firefox: Firefox):
        self.phone, self.firefox = phone, firefox

    def says(self, text: str) -> bool:
        return bool(self.firefox.evaluate(f"({SAYS})({json.dumps(text)})", timeout=20))

    def shows(self, text: str, timeout: float = 30) -> None:
        end = time.time() + timeout
        while not self.says(text):
            if time.time() > end:
                raise SystemExit(f"the Firefox guest did not say {text!r} within {timeout:.0f} s")
            time.sleep(0.1)

    def tap(self, name: str) -> None:
        self.firefox.evaluate(f"({TAP})({json.dumps('^' + re.escape(name) + '$')}, 30000)", timeout=40)

    def film(self, seat: Seat) -> None:
        """Its camera (a canvas stream) now films what the other phone shows."""
        wait_for_paint(seat.page)
        shot = base64.b64encode(seat.page.screenshot()).decode()
        self.firefox.evaluate(f"__pandapadFilm('data:image/png;base64,{shot}')")


def says_of(seat, text: str) -> bool:
    return seat.says(text) if isinstance(seat, FirefoxSeat) else says(seat, text)


def asleep(host: Seat, guest, seconds: float) -> dict:
    """The guest's browser stopped for `seconds`, then continued: what each phone said, when."""
    seen: dict[str, float] = {}
    links_before = set(host.page.evaluate(LINKS))
    pids = guest.phone.pids("firefox") if isinstance(guest, FirefoxSeat) else browser_pids(guest)
    began = time.time()
    signal_all(pids, signal.SIGSTOP)
    try:
        while time.time() - began < seconds:
            now = time.time() - began
            if "host: dropped said" not in seen and says(host, "the link to phone 1 dropped"):
                seen["host: dropped said"] = now
            if "host: link closed" not in seen and len(links_before - set(host.page.evaluate(LINKS))) > 0:
                seen["host: link closed"] = now
            time.sleep(0.25)
    finally:
        signal_all(pids, signal.SIGCONT)
    woke = time.time()
    seen["woke"] = woke - began
    while time.time() - woke < 90:
        now = time.time() - began
        if says_of(guest, "the host's phone then reads one code"):
            seen["guest: drop said"] = now
            break
        if says(host, "1 other phone at this table") and not says(host, "dropped"):
            seen["back by itself"] = now
            break
        time.sleep(0.25)
    return seen


def join_again(host: Seat, guest: Seat) -> float:
    """Join a table on the guest's home, Invite a phone on the host, its camera reads the guest's one
    code: seconds from the tap on Join a table to the guest following the game again."""
    button(guest.page, "Back").tap()
    tapped = time.time()
    guest.page.get_by_role("button", name="Join a table").tap()
    guest.shows("Joining again: the host reads this code")
    host.page.get_by_role("button", name="More").tap()
    host.page.get_by_role("menuitem", name="Invite a phone").tap()
    host.shows("Step 1: the guest reads this code")  # the guest's answer is read from there, as any
    host.film_of(guest)
    host.page.get_by_role("button", name="Read the guest's code").tap()
    host.shows("Phone 1 is at the table.")
    guest.page.wait_for_function(SAYS, arg="Following the host's phone", timeout=30_000)
    took = time.time() - tapped
    host.page.get_by_role("button", name="Back to the game").tap()
    return took


def join_again_firefox(host: Seat, guest: FirefoxSeat, film: Path) -> float:
    """join_again with a Firefox guest: its one code filmed from its screen by the host's camera."""
    guest.tap("Back")
    tapped = time.time()
    guest.tap("Join a table")
    guest.shows("Joining again: the host reads this code")
    host.page.get_by_role("button", name="More").tap()
    host.page.get_by_role("menuitem", name="Invite a phone").tap()
    host.shows("Step 1: the guest reads this code")
    time.sleep(1)  # the code is painted a frame after the words (as tests/test_browser_engines.read_codes waits)
    fake_camera.write_y4m(film, [guest.firefox.shot()])
    host.page.get_by_role("button", name="Read the guest's code").tap()
    host.shows("Phone 1 is at the table.")
    guest.shows("Following the host's phone")
    took = time.time() - tapped
    host.page.get_by_role("button", name="Back to the game").tap()
    return took


def run_firefox(host: Seat, guest: FirefoxSeat, film: Path, sleeps: list[float], rows: list) -> None:
    """run() with a Firefox guest: paired through the screens, Ann's hand the guest's taps."""
    start_game(host.page)
    host.page.get_by_role("button", name="More").tap()
    host.page.get_by_role("menuitem", name="Invite a phone").tap()
    host.shows("Step 1: the guest reads this code")
    guest.film(host)
    guest.tap("Join a table")
    guest.shows("Step 2: the host reads this code")
    time.sleep(1)
    fake_camera.write_y4m(film, [guest.firefox.shot()])
    host.page.get_by_role("button", name="Read the guest's code").tap()
    host.shows("Phone 1 is at the table.")
    guest.shows("Following the host's phone")
    host.page.get_by_role("button", name="Back to the game").tap()
    for seconds in sleeps:
        host.page.wait_for_function(f"{LINKS}.length >= 2", timeout=30_000)
        seen = asleep(host, guest, seconds)
        back = join_again_firefox(host, guest, film) if "guest: drop said" in seen else None
        before = totals_shown(host.page)
        guest.tap(label("yellow", 3))  # in the hand the guest's pad shows (it moves on after each)
        deadline = time.time() + 30
        while totals_shown(host.page) == before:
            if time.time() > deadline:
                raise SystemExit("the guest's tap did not reach the host's pad within 30 s")
            time.sleep(0.1)
        rows.append((seconds, seen, back))
        print(f"  asleep {seconds:.0f} s: {seen}; back by one code in {back} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sleep", type=float, nargs="+", default=[60, 300], help="seconds asleep, one run each")
    parser.add_argument("--site", type=Path, default=SITE)
    parser.add_argument("--budget", type=float, default=1800, help="seconds before the run gives up")
    parser.add_argument("--guest", choices=["chromium", "firefox"], default="chromium", help="the guest's engine")
    args = parser.parse_args()
    budget(args.budget, "bench_phone_sleep")
    site = private_site(args.site)
    rows = []
    if args.guest == "firefox":
        with sync_playwright() as pw, wifi(2) as net:
            host_phone, guest_phone = net.phones
            film = host_phone.start(pw.chromium, site)
            host = Seat(host_phone, film, host_phone.open())
            host.page.set_default_timeout(30_000)
            firefox = Firefox(guest_phone, camera=guest_phone.serve(site))
            guest = FirefoxSeat(guest_phone, firefox)
            try:
                firefox.preload(CAMERA)
                firefox.open(guest_phone.url)
                enable_semantics(host.page, timeout=START)
                host.page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for(timeout=START)
                firefox.evaluate("new Promise(r => (function on() { const p = document.querySelector("
                                 "'flt-semantics-placeholder'); if (p) { p.click(); r(true); } "
                                 "else setTimeout(on, 100); })())", timeout=START / 1000)
                guest.shows("Join a table", START / 1000)
                run_firefox(host, guest, film, args.sleep, rows)
            except BaseException:
                host.page.screenshot(path=str(ROOT / "artifacts" / "bench_phone_sleep_failed_host.png"))
                (ROOT / "artifacts" / "bench_phone_sleep_failed_guest.png").write_bytes(firefox.shot())
                raise
            finally:
                firefox.close()
        report(args, site, rows, "host Chromium, guest Firefox ESR, each in a network namespace; "
               "the guest's browser stopped whole (SIGSTOP)")
        return
    with sync_playwright() as pw, wifi(2) as net:
        seats = []
        for phone in net.phones:
            film = phone.start(pw.chromium, site)
            page = phone.open()
            page.set_default_timeout(30_000)
            lines = []
            page.on("console", lambda m, lines=lines: lines.append(f"{time.time():.2f} {m.text}"))
            page.lines = lines
            seats.append(Seat(phone, film, page))
        for seat in seats:
            enable_semantics(seat.page, timeout=START)
            seat.page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for(timeout=START)
        host, guest = seats
        try:
            run(host, guest, args.sleep, rows)
        except Exception:
            for name, seat in (("host", host), ("guest", guest)):
                seat.page.screenshot(path=str(ROOT / "artifacts" / f"bench_phone_sleep_failed_{name}.png"))
                (ROOT / "artifacts" / f"bench_phone_sleep_failed_{name}.log").write_text("\n".join(seat.page.lines))
            raise
    report(args, site, rows, "host and guest each their own Chromium in a network namespace; the guest's "
           "browser stopped whole (SIGSTOP)")


def report(args, site: Path, rows: list, phones: str) -> None:
    print(f"A guest's phone that sleeps (#69): {phones}; build {build_of(site)} (a copy of {args.site})")
    for seconds, seen, back in rows:
        said = ", ".join(f"{what} {at:.1f} s" for what, at in seen.items())
        print(f"  asleep {seconds:.0f} s: {said}")
        if back is not None:
            print(f"    Join a table -> following the game again, one code read by the host: {back:.1f} s; "
                  f"then a tap of the guest's shown on the host")
        else:
            print("    then a tap of the guest's shown on the host")


def run(host: Seat, guest: Seat, sleeps: list[float], rows: list) -> None:
    start_game(host.page)  # Ann (the host's), Ben (the guest's), Cat
    pair(host, guest, 1)
    for seconds in sleeps:
        # The invitation kept for the guest's return: the host's page holds a second link.
        host.page.wait_for_function(f"{LINKS}.length >= 2", timeout=30_000)
        hand_of(guest, "Ben")
        seen = asleep(host, guest, seconds)
        back = join_again(host, guest) if "guest: drop said" in seen else None
        hand_of(guest, "Ben")
        before = totals_shown(host.page)["Ben"]
        button(guest.page, label("yellow", 3)).tap()
        deadline = time.time() + 30
        while totals_shown(host.page)["Ben"] == before:
            if time.time() > deadline:
                raise SystemExit("the guest's tap did not reach the host's pad within 30 s")
            time.sleep(0.1)
        rows.append((seconds, seen, back))


if __name__ == "__main__":
    main()
