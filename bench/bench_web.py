"""The phone by itself (#30): build/web/ in a phone's Chromium, against the LAN server in the same run.

- First visit: MB moved and seconds to the home's game tiles at 20 Mbit/s (20 ms latency), a
  fresh profile; then what the offline copy (the service worker's precache) moved on top.
- Opening again with the network off (the host taken down, as for a phone with no network),
  twice: the first time after the install, and a later one; bytes from the network, seconds to
  the home, and when each step of the start was seen (Flutter, Pyodide, the app's Python).
- Tap -> visible total on the Panda Royale pad (Hand total), the phone build and `main.py` served
  on loopback, in alternating blocks.
- A tap's save with 1,000 games stored against 10 (the phone's store on IndexedDB): tap ->
  visible total, which includes the save and its sync to IndexedDB, in alternating blocks.

The site is served as a static host would serve it (servestatic, the build's precompressed
copies, web/preview.py), through a pacing layer that holds every byte to 20 Mbit/s on the server
side: the Python worker's downloads (Pyodide, the app) are not seen by a page's DevTools session,
so bytes are counted and paced where they leave the server.
Goals: first visit <= 15 MB and <= 12 s; again offline 0 bytes and <= 5 s; tap <= 1.5x the
server's; a save with 1,000 games <= 1.3x one with 10.

Run: make web, then  flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_web.py
"""
from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.tap_latency import measure_tap_timings, percentile  # noqa: E402
from tests.browser_harness import (PHONE, chromium, enable_semantics, flet_server, free_port,  # noqa: E402
                                   wait_for_text)

SITE = ROOT / "build" / "web"
MBIT = 20
LATENCY = 0.020
# What the page and Flet's Python worker print on the way up (console lines, in order) -> the step done.
# After the last step the page asks for the app's first screen: the store is opened (0.04 s here)
# and the home built (0.2 s), then Flutter draws it.
BOOT_STEPS = {"Flutter app loaded": "Flutter loaded", "Pandapad: Python restored": "Python restored",
              "Pandapad: Python started": "Pyodide started", "Pandapad: the app unpacked": "the app unpacked", "Pandapad: the app placed": "the app unpacked",
              "Python worker initialized": "the app imported"}
GOALS = {"first_mb": 15, "first_s": 12, "again_bytes": 0, "again_s": 5, "tap_ratio": 1.5, "save_ratio": 1.3}


class Link:
    """ASGI middleware: every byte sent is counted and paced to MBIT, each response after LATENCY."""

    def __init__(self, app, mbit: float):
        self.app = app
        self.rate = mbit * 1_000_000 / 8
        self.sent = 0
        self.free_at = 0.0  # when the shared link is free again (loop time)
        self.lock = asyncio.Lock()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        await asyncio.sleep(LATENCY)

        async def paced(message):
            size = 0
            if message["type"] == "http.response.start":
                size = sum(len(k) + len(v) + 4 for k, v in message.get("headers", [])) + 20
            elif message["type"] == "http.response.body":
                size = len(message.get("body", b""))
            if size:
                async with self.lock:
                    loop = asyncio.get_running_loop()
                    start = max(loop.time(), self.free_at)
                    self.free_at = start + size / self.rate
                    self.sent += size
                    wait = self.free_at - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
            await send(message)

        await self.app(scope, receive, paced)


class Site:
    """The static host on 127.0.0.1, which can be taken off the network and brought back.

    Offline means the host is gone, as for a phone with no network: Chromium's emulated offline
    mode leaves the service worker's own requests (its update check of sw.js) on the network."""

    def __init__(self, link: Link):
        self.link = link
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.up()

    def up(self) -> None:
        import uvicorn
        self.server = uvicorn.Server(uvicorn.Config(self.link, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)

    def down(self) -> None:
        self.server.should_exit = True
        self.thread.join()


def phone(browser):
    context = browser.new_context(viewport={"width": 412, "height": 915}, **PHONE)
    context.set_default_timeout(180_000)
    return context


def home(page) -> None:
    page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for()


def opened(context, url: str) -> tuple[object, float]:
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page, timeout=180_000)
    home(page)
    return page, time.perf_counter() - start


def reopened(context, url: str, which: str, sent) -> tuple[object, float, int]:
    """The app opened in a new page with the host gone: the page, seconds to the home and the
    bytes the network sent meanwhile (`sent()` counts them), with what was asked of the network
    and when each boot step was seen, printed."""
    asked: list[str] = []
    page = context.new_page()
    page.on("response", lambda r: None if r.from_service_worker else asked.append(r.url))
    page.on("requestfailed", lambda r: None if r.url.startswith("about:") else asked.append(r.url))  # never leaves
    steps: dict[str, float] = {}
    page.on("console", lambda m: steps.update(
        {step: time.perf_counter() - start for line, step in BOOT_STEPS.items()
         if m.text.startswith(line) and step not in steps}))
    before = sent()
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page, timeout=180_000)
    home(page)
    seconds, moved = time.perf_counter() - start, sent() - before
    print(f"opening again offline, {which} time (the host gone): {moved} bytes from "
          f"the network, home after {seconds:.1f} s (goals 0 bytes, <= {GOALS['again_s']} s)")
    print(f"  asked of the network, unanswered: {', '.join(sorted(set(asked))) or 'nothing'}")
    print("  where the time went: " + ", ".join(f"{step} {t:.2f} s" for step, t in steps.items())
          + f", the home drawn {seconds:.2f} s")
    return page, seconds, moved


def new_pad(page) -> None:
    """A 3-player Panda Royale from the home, at Ann's first hand (as a table starts one)."""
    from tests.browser_harness import scrolled_to, start_the_game, type_names
    scrolled_to(page, page.get_by_role("button", name="Panda Royale, 2–10 players")).tap()
    type_names(page, ["Ann", "Ben", "Cat"], "2\u201310")
    start_the_game(page, "Round 1 of 10")
    wait_for_text(page, "Hand total 0")


def tapper(page):
    """Tap i: Yellow 3 in (total 3), then out again (total 0)."""
    add = page.get_by_role("button", name="Yellow 3", exact=True)
    remove = page.get_by_role("button", name="Remove Yellow 3", exact=True)
    state = {"n": 0}

    def taps(n: int) -> list[float]:
        start = state["n"]
        state["n"] += n
        return [t.dom_ms for t in measure_tap_timings(
            page, lambda i: (add if (start + i) % 2 == 0 else remove).tap(),
            lambda i: f"Hand total {3 if (start + i) % 2 == 0 else 0}", n=n)]
    return taps


def import_games(page, file: Path, n: int) -> None:
    from tests.browser_harness import scrolled_to
    page.get_by_role("button", name="Your data", exact=True).tap()
    with page.expect_file_chooser() as chooser:
        scrolled_to(page, page.get_by_role("button", name="Choose a file to import", exact=True)).tap()
    chooser.value.set_files(str(file))
    scrolled_to(page, page.get_by_role("button", name=f"Import {n} games", exact=True)).tap()
    page.get_by_text(re.compile(r"^Imported from ")).wait_for(timeout=600_000)
    page.get_by_role("button", name="Back", exact=True).tap()
    home(page)


def history_file(folder: Path, n: int) -> Path:
    from storage import samples
    games = [g.model_dump(mode="json") for g in samples.history(2026, n)]
    path = folder / f"history-{n}.json"
    path.write_text(json.dumps({"format": "pandapad/export", "version": 1, "games": games}))
    return path


def alternate(blocks: dict[str, object], taps: int, block: int, warmup: int) -> dict[str, list[float]]:
    even = warmup + warmup % 2
    for tap in blocks.values():
        tap(even)
    times = {k: [] for k in blocks}
    while min(len(v) for v in times.values()) < taps:
        for key, tap in blocks.items():
            times[key] += tap(block)
    return times


def line(name: str, ms: list[float]) -> str:
    return f"{name:<34} median {statistics.median(ms):6.1f} ms  p95 {percentile(ms, 95):6.1f} ms  (n={len(ms)})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=6)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "web"))
    from preview import app as site_app, packed
    packed("bench_web", SITE)

    link = Link(site_app(SITE), MBIT)
    site = Site(link)
    url = site.url
    figures = {}
    work = Path(tempfile.mkdtemp(prefix="pandapad-bench-web-"))
    with chromium() as browser, flet_server("main.py", args=["--data-dir", str(work / "lan")],
                                            port_arg="--port") as lan:
        # --- first visit, then the offline copy
        ctx = phone(browser)
        before = link.sent
        page, first_s = opened(ctx, url)
        first_mb = (link.sent - before) / 1e6
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=600_000)
        page.wait_for_function("navigator.serviceWorker.ready.then(r => r.active && r.active.state === 'activated')")
        time.sleep(1)
        total_mb = (link.sent - before) / 1e6
        print(f"first visit at {MBIT} Mbit/s: {first_mb:.1f} MB moved, home after {first_s:.1f} s "
              f"(goals <= {GOALS['first_mb']} MB, <= {GOALS['first_s']} s)")
        print(f"  and the offline copy on top, fetched by the service worker after: "
              f"{total_mb - first_mb:.1f} MB ({total_mb:.1f} MB in all)")
        page.close()
        # --- again, with the network off: the host is gone, and the page must not need it. The
        # first opening after the install compiles Flutter's main.dart.js once more (Chromium keeps
        # compiled code of a script from the offline copy from its first run there); later ones
        # start from that compiled code.
        site.down()
        ctx.set_offline(True)
        first_again, again_s, again_bytes = reopened(ctx, url, "first", lambda: link.sent)
        # The goal is held against the first opening, the slower one.
        figures.update(first_mb=first_mb, first_s=first_s, again_bytes=again_bytes, again_s=again_s)
        first_again.close()
        again, _, _ = reopened(ctx, url, "later", lambda: link.sent)

        # --- tap -> total: the phone build against the LAN server
        new_pad(again)
        server_page = browser.new_context(viewport={"width": 412, "height": 915}, **PHONE).new_page()
        server_page.goto(lan.url)
        enable_semantics(server_page)
        home(server_page)
        new_pad(server_page)
        times = alternate({"phone": tapper(again), "server": tapper(server_page)}, args.taps, args.block,
                          args.warmup)
        ratio = statistics.median(times["phone"]) / statistics.median(times["server"])
        print(line("tap -> total, phone build", times["phone"]))
        print(line("tap -> total, LAN server (loopback)", times["server"]))
        print(f"  ratio phone / server: {ratio:.2f} (goal <= {GOALS['tap_ratio']})")
        figures["tap_ratio"] = ratio
        ctx.set_offline(False)
        site.up()

        # --- a save with 1,000 games stored against 10 (two phones, each its own store)
        pads = {}
        for n in (10, 1000):
            c = phone(browser)
            p, _ = opened(c, url)
            import_games(p, history_file(work, n), n)
            new_pad(p)
            pads[n] = tapper(p)
        saves = alternate({"10": pads[10], "1000": pads[1000]}, args.taps, args.block, args.warmup)
        save_ratio = statistics.median(saves["1000"]) / statistics.median(saves["10"])
        print(line("tap (save + sync), 10 games stored", saves["10"]))
        print(line("tap (save + sync), 1,000 stored", saves["1000"]))
        print(f"  ratio 1,000 / 10: {save_ratio:.2f} (goal <= {GOALS['save_ratio']})")
        figures["save_ratio"] = save_ratio
    met = {k: figures[k] <= GOALS[k] for k in GOALS}
    print("goals met: " + ", ".join(f"{k} {'yes' if ok else 'NO'}" for k, ok in met.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
