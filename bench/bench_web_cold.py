"""The phone build opened cold (#44): what a person meets when they come back to the app.

- Cold opening: the browser process started afresh on the same profile (its service worker,
  Cache Storage and compiled code as a phone keeps them), the host gone (no network), a phone's
  412 x 915 at scale 2.625 with touch; to the home's five games, and to the pad of the game
  that was open when the browser was closed. At full CPU and with the page's CPU slowed 4x
  (Chromium's Emulation.setCPUThrottlingRate, as Lighthouse stands for a mid-range phone; it
  slows the page, not Python's worker, so it understates a slow phone). Each opening three
  times, the median printed, with where the time went (the page's and the worker's own lines).
- First visit: the bytes a gzip-only static host sends (GitHub Pages: gzip, no brotli), to the
  home, and with the offline copy on top; the seconds to the home.

With --slow (#52), as a slow phone: the page and Python's worker together held to half a core (--share 0.25: a quarter, a mid-range phone, #68)
(bench/slow_phone.py: the browser's zygotes and renderers moved into a cgroup v1 cpu group with
cpu.cfs_quota_us 10000 of cpu.cfs_period_us 20000 after launch, before the page opens; the GPU
process and the browser outside; the group removed at the end, on an error and on Ctrl-C),
against full speed in the same run, the openings alternating (full, held, full, held ...):
- cold openings, three each: the home with no game left open, a game's address to its pad, the
  app's own address to the pad it was left on; median (min-max), with a plain JavaScript loop's
  slowdown in the page after each (JS xN: its time over its time after a full-speed opening);
- the first visit at half a core, to the home (one run);
- where each opening's time goes: Flutter's start, Pyodide's restore, the imports and the app's
  start, the session and the first frame (the page's and the worker's console lines, and when
  the page hears the worker, MARKS_JS).
It measures a copy of the build (slow_phone.private_site: build/web/ may be rebuilt by others
meanwhile) and gives up after --budget seconds (1800).

Run: make web, then  flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_web_cold.py
     (--site DIR measures another build, e.g. one made from an older commit)
     (--first-visit-only: the first visit's bytes alone, a minute)
     flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_web_cold.py --slow   (about 5 min)
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "web"))

from bench.slow_phone import kept_for_next_opening  # noqa: E402
from tests.browser_harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SIZE = {"width": 412, "height": 915}
PHONE = dict(device_scale_factor=2.625, is_mobile=True, has_touch=True)
HOME = ("button", "Panda Royale, 2–10 players")
RUNS = 3
GOALS = {"home_s": 2.5, "game_s": 3.0, "home_slow_s": 6.0, "first_mb": 10.0, "offline_mb": 12.0, "first_s": 6.0}
# Lines the page and Python's worker print on the way up -> the step they mark (the first seen).
STEPS = (("Flutter app loaded", "Flutter's app loaded"),
         ("Pandapad: Python restored", "Python restored"), ("Pandapad: Python started", "Python started"),
         ("python_module_name:", "Python started"),  # flet-web's own worker (an older build)
         ("Pandapad: the app unpacked", "the app unpacked"), ("Pandapad: the app placed", "the app unpacked"), ("Adding __pypackages__", "the app unpacked"),
         ("Python worker initialized", "the app started"))
# Installed before the page's own scripts in --slow runs: when Python's worker (web/python-worker.js)
# speaks to the page and Flutter to it, on the page's clock (performance.now(), ms from the
# navigation's start). The page hears a worker's message when its thread is free, as early.js does.
MARKS_JS = """(() => {
  const marks = window.__ppMarks = {};
  const mark = name => { if (!(name in marks)) marks[name] = performance.now(); };
  // The pad's picture (web/picture.js, #68) as the page painted it, not as it was put in the page.
  if (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes.includes("element")) {
    new PerformanceObserver(list => list.getEntries().forEach(entry => {
      if (entry.identifier === "pandapad-picture" && !("picture on the screen" in marks))
        marks["picture on the screen"] = entry.renderTime || entry.loadTime;
    })).observe({type: "element", buffered: true});
  }
  addEventListener("pandapad-picture-kept", () => { window.__ppPictureKept = true; });
  const Base = window.Worker;
  if (!Base) return;
  window.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      this.__pp = String(url).includes("python-worker.js") ? 0 : -1;
      if (this.__pp < 0) return;
      this.addEventListener("message", event => {
        const data = event.data;
        if (data && typeof data === "object" && typeof data.pandapad === "string") mark("worker: " + data.pandapad);
        else if (typeof data === "string") mark("worker: " + data);
        else mark("worker: first message to Flutter");
      });
    }
    postMessage(message, ...rest) {
      if (this.__pp >= 0 && ++this.__pp === 2) mark("Flutter: first message to Python");
      return super.postMessage(message, ...rest);
    }
  };
})();"""


class GzipOnly:
    """ASGI middleware: the client is taken to accept gzip only, as GitHub Pages serves (no
    brotli), and every byte sent is counted."""

    def __init__(self, app):
        self.app = app
        self.sent = 0
        self.snapshot = 0  # of which Python's snapshot sent with the site (web/ship_snapshot.py)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = [(k, v) for k, v in scope["headers"] if k != b"accept-encoding"] + [(b"accept-encoding", b"gzip")]

        async def counted(message):
            if message["type"] == "http.response.body":
                self.sent += len(message.get("body", b""))
                if scope["path"].endswith("/python-snapshot.gz"):
                    self.snapshot += len(message.get("body", b""))
            await send(message)

        await self.app({**scope, "headers": headers}, receive, counted)


def host_of(site: Path):
    """The static host on 127.0.0.1 (servestatic with the build's .gz copies, bench_web's Site),
    sending gzip only; taken down for the cold openings: a phone with no network."""
    from bench.bench_web import Site
    from preview import app

    return Site(GzipOnly(app(site)))


class Opening:
    """One browser process on the profile: open the page, time it, note the steps, close."""

    def __init__(self, pw, profile: Path, offline: bool, slowdown: float = 1, hold=None, watch: bool = False):
        """hold: a slow_phone.HalfCore to move the browser's zygotes and renderers into once it
        is launched, before the page is opened (the processes moved: self.moved). watch: the
        page notes when Python's worker and Flutter speak (MARKS_JS; read by marked())."""
        self.context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), headless=True, viewport=SIZE,
            offline=offline, **PHONE)
        self.context.set_default_timeout(180_000)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.profile, self.hold, self.moved, self.marks = profile, hold, [], {}
        if watch:
            self.context.add_init_script(MARKS_JS)
        if hold is not None:
            self.moved = hold.hold(profile)
        self.lines: list[tuple[float, str]] = []
        self.start = time.perf_counter()
        self.page.on("console", self._line)
        self.page.on("worker", lambda worker: worker.on("console", self._line))
        if slowdown != 1:
            cdp = self.context.new_cdp_session(self.page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})

    def _line(self, message) -> None:
        self.lines.append((time.perf_counter() - self.start, message.text))

    def open(self, url: str, wait_for, timeout: float = 180_000) -> float:
        self.context.set_default_timeout(timeout)
        self.start = time.perf_counter()
        self.page.goto(url)
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached")
        self.page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        wait_for(self.page)
        return time.perf_counter() - self.start

    def steps(self) -> dict[str, float]:
        seen: dict[str, float] = {}
        for at, text in self.lines:
            for start, step in STEPS:
                if text.startswith(start) and step not in seen:
                    seen[step] = at
        return dict(sorted(seen.items(), key=lambda kv: kv[1]))

    def marked(self) -> dict[str, float]:
        """MARKS_JS's marks, in seconds on the clock of steps() (from the page.goto), with a
        plain JavaScript loop's milliseconds in the page as "JS loop ms"."""
        before = time.perf_counter()
        now = self.page.evaluate("performance.now()")
        offset = (before + time.perf_counter()) / 2 - self.start - now / 1000  # the page's origin
        marks = {name: offset + at / 1000 for name, at in self.page.evaluate("window.__ppMarks || {}").items()}
        from bench.slow_phone import loop_ms
        marks["JS loop ms"] = loop_ms(self.page)
        return marks

    def close(self) -> None:
        self.context.close()


def on_home(page) -> None:
    page.get_by_role(HOME[0], name=HOME[1]).wait_for()


def on_pad(page) -> None:
    """The Panda Royale pad: Ann's total in its score strip (on entry and when opened again)."""
    page.get_by_role("button", name=re.compile(r"^Ann: ")).first.wait_for()


def first_visit(pw, host, profile: Path) -> dict:
    """A new phone: seconds and MB to the home, then the offline copy and Python's snapshot
    made; the browser closed on the home."""
    opening = Opening(pw, profile, offline=False)
    before, snapshot_before = host.link.sent, host.link.snapshot
    seconds = opening.open(host.url, on_home)
    home_mb = (host.link.sent - before) / 1e6
    page = opening.page
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    while not page.evaluate("navigator.serviceWorker.ready.then(r => r.active && r.active.state === 'activated')"):
        page.wait_for_timeout(250)
    kept_for_next_opening(page, lambda: [t for _, t in opening.lines], 120)
    page.wait_for_timeout(3000)  # the engine files kept too (web/page.js, once the worker is up)
    # The scripts kept in the background (web/sw-src.js) are part of the offline copy: counted whole.
    page.wait_for_function("window.pandapadFonts === true", timeout=180_000)
    total_mb = (host.link.sent - before) / 1e6
    opening.close()
    return {"first_s": seconds, "first_mb": home_mb, "offline_mb": total_mb, "steps": opening.steps(),
            "snapshot_mb": (host.link.snapshot - snapshot_before) / 1e6}


def kept_code(profile: Path) -> dict[str, int]:
    """Bytes of compiled code Chromium keeps beside each WebAssembly file of the offline copy
    (the "side data" of a Cache Storage entry: its simple-cache files <hash>_0 hold the address
    and the body, <hash>_1 the side data). The offline copy of Python's engine with its optimized
    code (about 2.4 MB) opens a profile 0.3-0.6 s sooner than one without (#52)."""
    import struct

    kept: dict[str, int] = {}
    for entry in (profile / "Default" / "Service Worker" / "CacheStorage").rglob("*_0"):
        head = entry.read_bytes()[:4096]
        if len(head) < 24:
            continue
        address = head[24:24 + struct.unpack_from("<I", head, 12)[0]].decode(errors="replace")
        name = address.split("?")[0].rsplit("/", 1)[-1]
        side = entry.with_name(entry.name[:-2] + "_1")
        if name.endswith(".wasm"):
            kept[name] = kept.get(name, 0) + (side.stat().st_size if side.exists() else 0)
    return kept


def say_kept_code(profile: Path) -> str:
    kept = kept_code(profile)
    python = kept.get("pyodide.asm.wasm", 0)
    return (f"Python's optimized code kept with the offline copy: {python / 1e6:.1f} MB" if python
            else "Python's optimized code NOT kept with the offline copy (every opening compiles it)")


def picture_kept(page, timeout: float = 90_000) -> None:
    """Stay on the pad until its picture is kept for the next opening (#68, web/picture.js), as a
    person stays on the app after opening it: every opening writes the store (its open), and a
    picture taken before that write is not shown at the next. A build without pictures: at once."""
    if page.evaluate("!!document.querySelector('script[src=\"picture.js\"]')"):
        page.wait_for_function("window.__ppPictureKept === true", timeout=timeout)  # MARKS_JS's flag


def leave_a_game_open(pw, profile: Path, url: str) -> str:
    """Offline, a Panda Royale game started and left on its pad as the browser closes: its address."""
    from tests.browser_harness import scrolled_to, start_the_game, type_names

    opening = Opening(pw, profile, offline=True, watch=True)
    try:
        opening.open(url, on_home)
        page = opening.page
        scrolled_to(page, page.get_by_role(HOME[0], name=HOME[1])).tap()
        type_names(page, ["Ann", "Ben", "Cat"], "2\u201310")
        start_the_game(page, "Round 1 of 10")
        on_pad(page)
        picture_kept(page)
        return page.url
    except Exception:
        page.screenshot(path=str(ROOT / "artifacts" / "bench_web_cold_failed.png"))
        raise
    finally:
        opening.close()


def failed(opening) -> None:
    """What an opening that failed showed and said: a screenshot and the lines it logged."""
    (ROOT / "artifacts").mkdir(exist_ok=True)
    opening.page.screenshot(path=str(ROOT / "artifacts" / "bench_web_cold_failed.png"))
    print("\n".join(f"  {at:6.2f} {text[:400]}" for at, text in opening.lines))


def cold(pw, profile: Path, url: str, wait_for, slowdown: float, timeout: float = 180_000) -> tuple[float, dict]:
    opening = Opening(pw, profile, offline=True, slowdown=slowdown)
    try:
        seconds = opening.open(url, wait_for, timeout)
        return seconds, opening.steps()
    except Exception:
        failed(opening)
        raise
    finally:
        opening.close()


def kept_on_phone(pw, profile: Path, url: str) -> float:
    """MB the site keeps in the browser (navigator.storage.estimate: Cache Storage and IndexedDB)."""
    opening = Opening(pw, profile, offline=True)
    try:
        opening.open(url, lambda page: None)
        return opening.page.evaluate("navigator.storage.estimate().then(e => e.usage)") / 1e6
    finally:
        opening.close()


def say_steps(steps: dict[str, float], total: float) -> str:
    return ", ".join(f"{step} {at:.2f}" for step, at in steps.items()) + f", shown {total:.2f}"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "web")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--first-visit-only", action="store_true", help="only the first visit's bytes and seconds")
    parser.add_argument("--slow", action="store_true",
                        help="as a slow phone: page and worker at half a core against full speed (#52)")
    parser.add_argument("--budget", type=float, default=1800, help="--slow: seconds before the run gives up")
    parser.add_argument("--share", type=float, default=0.5,
                        help="--slow: the share of a core the page and its worker are held to (0.25: a mid-range "
                             "phone, JavaScript about 4x slower than this machine, #68)")
    args = parser.parse_args(argv)
    if args.slow:
        return slow_main(args)
    from preview import packed
    packed("bench_web_cold", args.site)
    from playwright.sync_api import sync_playwright

    profile = Path(tempfile.mkdtemp(prefix="pandapad-cold-"))
    figures: dict[str, float] = {}
    try:
        with sync_playwright() as pw:
            host = host_of(args.site)
            first = first_visit(pw, host, profile)
            host.down()
            print(f"first visit (gzip only, as GitHub Pages sends): {first['first_mb']:.1f} MB to the home in "
                  f"{first['first_s']:.1f} s, {first['offline_mb']:.1f} MB with the offline copy "
                  f"(goals <= {GOALS['first_mb']} MB, <= {GOALS['offline_mb']} MB, <= {GOALS['first_s']} s)")
            print(f"  of which Python's snapshot sent with the site: {first['snapshot_mb']:.1f} MB (the rest: "
                  f"{first['first_mb'] - first['snapshot_mb']:.1f} MB to the home, "
                  f"{first['offline_mb'] - first['snapshot_mb']:.1f} MB with the offline copy)")
            print(f"  where the first visit's time went (s): {say_steps(first['steps'], first['first_s'])}")
            print(f"  {say_kept_code(profile)}")
            figures.update(first_s=first["first_s"], first_mb=first["first_mb"], offline_mb=first["offline_mb"])
            if args.first_visit_only:
                return figures
            for slowdown, name in ((1, "home"), (4, "home_slow")):
                runs = [cold(pw, profile, host.url, on_home, slowdown) for _ in range(args.runs)]
                figures[f"{name}_s"] = statistics.median(s for s, _ in runs)
                print(f"cold opening to the home, CPU x{slowdown}: median {figures[f'{name}_s']:.2f} s of "
                      f"{', '.join(f'{s:.2f}' for s, _ in runs)} (goal <= {GOALS[f'{name}_s']} s)")
                middle = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
                print(f"  where the median opening's time went (s): {say_steps(middle[1], middle[0])}")
            game_url = leave_a_game_open(pw, profile, host.url)
            runs = [cold(pw, profile, game_url, on_pad, 1) for _ in range(args.runs)]
            figures["game_s"] = statistics.median(s for s, _ in runs)
            print(f"cold opening of the game's own address, to its pad, CPU x1: median {figures['game_s']:.2f} s "
                  f"of {', '.join(f'{s:.2f}' for s, _ in runs)} (goal <= {GOALS['game_s']} s)")
            # The address an installed app opens is its own (start_url), the game left open on its pad.
            try:
                seconds, _ = cold(pw, profile, host.url, on_pad, 1, timeout=30_000)
                print(f"cold opening of the app's address with that game left open: its pad after {seconds:.2f} s")
            except Exception as exc:  # an older build opens on the home
                print(f"cold opening of the app's address with that game left open: no pad ({type(exc).__name__})")
            print(f"kept on the phone: {kept_on_phone(pw, profile, host.url):.0f} MB")
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    met = {k: figures[k] <= GOALS[k] for k in GOALS if k in figures}
    print("goals met: " + ", ".join(f"{k} {'yes' if ok else 'NO'}" for k, ok in met.items()))
    return figures


# --------------------------------------------------------------------------- --slow (#52)

# The cold openings of a slow phone, in the order they are made (the home's needs no game left open).
CASES = (("home", "the home, no game left open", on_home),
         ("game", "a game's address -> its pad", on_pad),
         ("root", "the app's own address -> the pad it was left on", on_pad))
# Moments of an opening, in seconds from the page.goto: (key in steps() or marked(), what it is).
# Console lines are heard by Playwright when they come; "page heard" ones are MARKS_JS's, when the
# page's thread took the worker's message.
MOMENTS = (("picture on the screen", "the pad's picture painted (#68: web/picture.js, element timing)"),
           ("Flutter's app loaded", "Flutter's app loaded (index.html's line)"),
           ("Python restored", "Pyodide restored (worker's line)"),
           ("Python started", "Pyodide started afresh (worker's line)"),
           ("the app unpacked", "the app unpacked (worker's line)"),
           ("worker: initialized", "app imported and started: main.py ran, ft.run (page heard)"),
           ("Flutter: first message to Python", "Flutter asked Python for the session (page sent)"),
           ("worker: first message to Flutter", "Python answered Flutter's hello (page heard)"),
           ("worker: ready", "Python sent the first screen (page heard its step after it)"),
           ("shown", "first frame: what is waited for in the semantics tree"))


def slow_cold(pw, profile: Path, url: str, wait_for, hold, timeout: float = 180_000) -> dict:
    """One opening with the network off, at full speed (hold None) or held: seconds, its moments,
    the JS loop's ms after it, and the processes moved and where each one ended up."""
    opening = Opening(pw, profile, offline=True, hold=hold, watch=True)
    try:
        seconds = opening.open(url, wait_for, timeout)
        figures = measured(opening, seconds)
        if wait_for is on_pad:
            picture_kept(opening.page)
        return figures
    except Exception:
        failed(opening)
        raise
    finally:
        opening.close()


def measured(opening: Opening, seconds: float) -> dict:
    marks = opening.marked()
    loop = marks.pop("JS loop ms")
    where = opening.hold.check(opening.profile) if opening.hold is not None else None
    return {"s": seconds, "at": {**opening.steps(), **marks, "shown": seconds}, "loop": loop,
            "moved": opening.moved, "where": where}


def slow_first_visit(pw, host, hold) -> dict:
    """A new phone at half a core, the network on: seconds to the home (the offline copy and
    Python's snapshot are left to come after: the browser is closed on the home)."""
    profile = Path(tempfile.mkdtemp(prefix="pandapad-cold-slow-"))
    opening = Opening(pw, profile, offline=False, hold=hold, watch=True)
    try:
        before = host.link.sent
        seconds = opening.open(host.url, on_home)
        figure = measured(opening, seconds)
        figure["mb"] = (host.link.sent - before) / 1e6
        # A renderer started after the move (a second page, another site): forked by a held
        # zygote, it must be in the group too.
        opening.context.new_page().goto("data:text/html,a new renderer")
        figure["forked"] = [p for p in hold.check(profile)["in"] if p.startswith("renderer")
                            and int(p.split()[-1]) not in {m.pid for m in opening.moved}]
        figure["forked_out"] = [p for p in hold.check(profile)["out"] if p.startswith("renderer")]
        return figure
    finally:
        opening.close()
        shutil.rmtree(profile, ignore_errors=True)


def build_of(site: Path) -> str:
    found = re.search(r'name="pandapad-build-id" content="([^"]+)"', (site / "index.html").read_text())
    return found.group(1) if found else "?"


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} s ({min(values):.2f}\u2013{max(values):.2f})"


def slow_main(args) -> dict:
    """Full speed and half a core in one run: for each case the openings alternate (full, held,
    full, held, ...), so both see the same machine."""
    import signal

    from bench.slow_phone import PERIOD_US, HalfCore, budget
    from playwright.sync_api import sync_playwright

    budget(args.budget, "--slow")
    began = time.perf_counter()
    from bench.slow_phone import private_site
    site = private_site(args.site)
    print(f"measuring a copy of {args.site} (build {build_of(site)}), made in {time.perf_counter() - began:.0f} s")
    profile = Path(tempfile.mkdtemp(prefix="pandapad-cold-"))
    runs: dict[tuple[str, bool], list[dict]] = {}
    try:
        with HalfCore(quota_us=round(PERIOD_US * args.share)) as hold, sync_playwright() as pw:
            HELD[0] = {0.5: "half a core", 0.25: "a quarter of a core"}.get(args.share, f"{args.share} of a core")
            print(f"cgroup v1 cpu group {hold.path}: cpu.cfs_quota_us {hold.quota_us} of cpu.cfs_period_us {PERIOD_US} "
                  f"({HELD[0]}); the browser's zygotes and renderers moved in after launch, before the page opens")
            host = host_of(site)
            first = first_visit(pw, host, profile)
            print(f"first visit at full speed: home after {first['first_s']:.2f} s, {first['first_mb']:.1f} MB "
                  f"(the offline copy and Python's snapshot then kept: {first['offline_mb']:.1f} MB)")
            print(f"  {say_kept_code(profile)}")
            slow_first = slow_first_visit(pw, host, hold)
            host.down()
            game_url = None
            for key, _, wait_for in CASES:
                if key == "game":
                    game_url = leave_a_game_open(pw, profile, host.url)
                url = game_url if key == "game" else host.url
                for _ in range(args.runs):
                    for held in (False, True):
                        runs.setdefault((key, held), []).append(
                            slow_cold(pw, profile, url, wait_for, hold if held else None))
            report(runs, slow_first, hold)
    finally:
        signal.alarm(0)
        shutil.rmtree(profile, ignore_errors=True)
    print(f"the run took {time.perf_counter() - began:.0f} s")
    return {f"{key}_{'slow' if held else 'full'}_s": statistics.median(r["s"] for r in rs)
            for (key, held), rs in runs.items()} | {"first_slow_s": slow_first["s"]}


HELD = ["half a core"]  # the share the held openings run at, in words (--share)


def report(runs: dict, slow_first: dict, hold) -> None:
    ref = statistics.median(r["loop"] for (_, held), rs in runs.items() if not held for r in rs)

    def js(rs: list[dict]) -> str:
        return f"JS x{statistics.median(r['loop'] for r in rs) / ref:.1f}"

    print(f"\nthe JavaScript loop (bench/slow_phone.py LOOP_JS) after a full-speed opening: median {ref:.0f} ms; "
          f"'JS xN' is its time after an opening over that")
    print(f"\n{'cold opening (no network), ' + str(len(runs[('home', False)])) + ' each: median (min-max)':<52}"
          f"{'full speed':<32}{'page and worker at ' + HELD[0]:<36}")
    for key, name, _ in CASES:
        full, slow = runs[(key, False)], runs[(key, True)]
        print(f"{name:<52}{spread([r['s'] for r in full]) + '  ' + js(full):<32}"
              f"{spread([r['s'] for r in slow]) + '  ' + js(slow):<36}")
    print(f"{'first visit, to the home (network on, 1 run)':<52}{'':<32}"
          f"{slow_first['s']:5.2f} s, {slow_first['mb']:.1f} MB  JS x{slow_first['loop'] / ref:.1f}")
    for key, name, _ in CASES:
        print(f"\nwhere the time goes, {name}: median moment of each, s from the page.goto")
        print(f"  {'':<66}{'full':>7}{'held':>7}{'x':>6}")
        for moment, what in MOMENTS:
            full = [r["at"][moment] for r in runs[(key, False)] if moment in r["at"]]
            slow = [r["at"][moment] for r in runs[(key, True)] if moment in r["at"]]
            if not full and not slow:
                continue
            f = statistics.median(full) if full else float("nan")
            h = statistics.median(slow) if slow else float("nan")
            print(f"  {what:<66}{f:7.2f}{h:7.2f}{h / f if f else float('nan'):6.1f}")
        for held in (False, True):
            print(f"  {HELD[0] if held else 'full speed'} parts: " + parts(runs[(key, held)]))
    print(f"\nwhere the time goes, first visit at {HELD[0]}: " + ", ".join(
        f"{moment} {slow_first['at'][moment]:.2f}" for moment, _ in MOMENTS if moment in slow_first["at"]))
    print("  parts: " + parts([slow_first]))
    held = [r for (_, h), rs in runs.items() if h for r in rs]
    moved = sorted({f"{p.kind}{'(' + p.sub + ')' if p.sub else ''}" for r in held for p in r["moved"]})
    print(f"\nprocesses moved into {hold.path.name} at each held launch: {', '.join(moved)} "
          f"(e.g. {', '.join(f'{p.kind} {p.pid}' for p in held[-1]['moved'])})")
    print(f"  in the group after the last held opening: {', '.join(held[-1]['where']['in'])}")
    print(f"  outside it: {', '.join(held[-1]['where']['out'])}")
    late = [p for r in held for p in r["where"]["in"] if p.startswith("renderer")
            and int(p.split()[-1]) not in {m.pid for m in r["moved"]}]
    print(f"  renderers started after the move during the cold openings, in the group: {len(late)}; "
          f"renderers outside it after a held opening: "
          f"{sum(p.startswith('renderer') for r in held for p in r['where']['out'])}")
    print(f"  a second page opened after the held first visit: its new renderer in the group: "
          f"{', '.join(slow_first['forked']) or 'none seen'}; renderers outside: "
          f"{', '.join(slow_first['forked_out']) or 'none'}")


def parts(rs: list[dict]) -> str:
    """The opening's parts, medians (s): Flutter's start (to its app loaded); Pyodide's restore
    (to Python restored, the worker starting with the page); the imports and the app's start
    (from there to main.py run and ft.run's connection up: the unpacking, the imports, the app's
    own start); the session (from the later of that and Flutter asking, to Python's first
    screen sent); the first frame (from that screen to the semantics tree showing it). Python
    says "ready" after its first screen's message; a build from before that says nothing, and its
    first message (the answer to Flutter's hello) stands in for it."""
    def first_screen(at):
        return at.get("worker: ready", at.get("worker: first message to Flutter"))

    def python(at):
        return at.get("Python restored", at.get("Python started"))

    def imports(at):
        if python(at) is None or "worker: initialized" not in at:
            return None
        return at["worker: initialized"] - python(at)

    def session(at):
        keys = ("worker: initialized", "Flutter: first message to Python")
        if any(k not in at for k in keys) or first_screen(at) is None:
            return None
        return first_screen(at) - max(at[keys[0]], at[keys[1]])

    def frame(at):
        sent = first_screen(at)
        return None if sent is None else at["shown"] - sent

    def median(part) -> str:
        values = [v for v in (part(r["at"]) for r in rs) if v is not None]
        return f"{statistics.median(values):.2f}" if values else "-"

    return (f"Flutter's start {median(lambda at: at.get(FLUTTER))}"
            f" | Pyodide's restore (a first visit: start) {median(python)}"
            f" | imports and app's start {median(imports)} | session {median(session)}"
            f" | first frame {median(frame)}")


FLUTTER = "Flutter's app loaded"

if __name__ == "__main__":
    main()
