"""A game handed over by QR code, read by the camera of the phone by itself (#53): per case the
sizes bench/bench_handoff.py prints (its records: the issue's cases) and the seconds phone B takes,
in the page's own clock (performance.now()):

- tap -> 1st frame: camera.js opening the camera (the tap's file pick reached the page:
  startedAt) to the first frame of the sending read (firstAt): the camera's start and the
  decoder (its first load is the first reading of the run, reported apart);
- 1st frame -> all read: firstAt to the last frame read and handed to Python (doneAt);
- all read -> preview: Python reads the frames and shows the import preview ("The codes hold
  ..." in Flutter's semantics tree, looked for at each animation frame);
- 1st frame -> preview: the figure the issue asks for.

B is the phone build (a private copy of build/web, bench/slow_phone.private_site, served on
127.0.0.1 as bench/bench_web_cold.py does) in Debian's Chromium at 412 x 915, scale 2.625, touch,
the camera allowed; one browser, one page, the app opened once. Its camera (tests/fake_camera.py)
films what phone A shows: each frame's code as views/handover/send.py draws it (code_png), held a quarter
of a second (TICK) at 12 fps, the loop twice over (a missed code comes round). For each reading the
film is written, "Receive from another phone" tapped on the home, the preview waited for, then
Back to the home. Each case three times (median), after a first reading of the first case.

With --slow: each reading made twice in turn, at full speed and with the page and Python's worker
held to half a core (bench/slow_phone.py HalfCore: the browser's zygotes and renderers moved into a
cgroup for the reading and out after it; as root), the two printed side by side (full / half);
the run's first reading is then held.

Run: flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_handoff_camera.py [--slow]
     (make build/web/.built first if build/web is missing)
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "web"))

from bench.bench_handoff import STAMP, cases, sizes  # noqa: E402
from bench.bench_web_cold import PHONE, SIZE, build_of, host_of  # noqa: E402
from storage.handoff import frames_of  # noqa: E402
from tests.browser_harness import CHROMIUM, CHROMIUM_ARGS, enable_semantics, scrolled_to  # noqa: E402
from tests.fake_camera import ALLOWED, FPS, camera_args, write_y4m  # noqa: E402
from views.handover.send import TICK, code_png  # noqa: E402

RUNS = 3
LOOPS = 2  # A's loop filmed twice over
RECEIVE = "Receive from another phone"
# The preview's line in the semantics tree: when the page first has it (its clock), else false.
PREVIEW_JS = """() => {
  for (const node of document.querySelectorAll('flt-semantics')) {
    const text = node.getAttribute('aria-label') || node.textContent || '';
    if (text.startsWith('The codes hold')) return performance.now();
  }
  return false;
}"""
STEPS = ("tap->1st frame", "1st->all read", "all read->preview", "1st frame->preview")


def reading(page, film: Path, shots: list[bytes], games: int) -> dict[str, float]:
    """One reading from the home: its steps in seconds (STEPS), and tap->open (tap to startedAt)."""
    write_y4m(film, shots * LOOPS, frames_each=round(TICK * FPS))
    button = scrolled_to(page, page.get_by_role("button", name=RECEIVE, exact=True))
    before = page.evaluate("window.__pandapadCamera.opened")
    tapped = page.evaluate("performance.now()")
    button.tap()
    shown = page.wait_for_function(PREVIEW_JS, polling="raf", timeout=180_000).json_value()
    told = page.evaluate("(({opened, outcome, startedAt, firstAt, doneAt}) => "
                         "({opened, outcome, startedAt, firstAt, doneAt}))(window.__pandapadCamera)")
    assert told["opened"] == before + 1 and told["outcome"] == "frames", told
    line = page.get_by_text(re.compile(r"^The codes hold ")).first.inner_text()
    assert line.startswith(f"The codes hold {games} game"), line
    page.get_by_role("button", name="Back").first.tap()
    page.get_by_role("button", name=RECEIVE, exact=True).wait_for()
    first, started, done = told["firstAt"], told["startedAt"], told["doneAt"]
    return {"tap->open": (started - tapped) / 1000, "tap->1st frame": (first - started) / 1000,
            "1st->all read": (done - first) / 1000, "all read->preview": (shown - done) / 1000,
            "1st frame->preview": (shown - first) / 1000}


def say(r: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in r.items())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "web")
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--slow", action="store_true", help="also with page and worker at half a core (#52)")
    parser.add_argument("--budget", type=float, default=1800, help="seconds before the run gives up")
    args = parser.parse_args(argv)
    import contextlib
    import signal

    from playwright.sync_api import sync_playwright

    from bench.slow_phone import HalfCore, budget, loop_ms, private_site

    budget(args.budget, "bench_handoff_camera")
    site = private_site(args.site)
    chosen = [(name, records) for name, records, asked in cases() if asked]
    speeds = (False, True) if args.slow else (False,)
    tmp = Path(tempfile.mkdtemp(prefix="pandapad-handoff-camera-"))
    profile, film = tmp / "profile", tmp / "film.y4m"
    write_y4m(film, [])
    results: dict[tuple[str, bool], list[dict]] = {}
    try:
        with (HalfCore() if args.slow else contextlib.nullcontext()) as hold, sync_playwright() as pw:
            host = host_of(site)
            context = pw.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *camera_args(film)], headless=True,
                viewport=SIZE, **ALLOWED, **PHONE)
            context.set_default_timeout(180_000)
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(host.url)
            enable_semantics(page, timeout=180_000)
            page.get_by_role("button", name=RECEIVE, exact=True).wait_for()

            def held(slow: bool, then):
                if slow:
                    hold.hold(profile)
                try:
                    return then()
                finally:
                    if slow:
                        hold.free(profile)

            native = page.evaluate("'BarcodeDetector' in window")
            print(f"phone build {build_of(site)} (a copy of {args.site}); the browser's own BarcodeDetector: "
                  f"{'yes' if native else 'no (the zxing-wasm stand-in, from qr/)'}")
            if args.slow:
                free_ms = loop_ms(page)
                print(f"half a core: a plain JS loop {held(True, lambda: loop_ms(page)) / free_ms:.1f}x "
                      f"its full-speed time ({free_ms:.0f} ms)")
            films = {name: [code_png(t) for t in frames_of(records, STAMP)] for name, records in chosen}
            name, records = chosen[0]
            first = held(args.slow, lambda: reading(page, film, films[name], len(records)))
            print(f"the run's first reading (the decoder's first load{', held' if args.slow else ''}), "
                  f"{name}: {say(first)} s")
            for name, records in chosen:
                for _ in range(args.runs):
                    for slow in speeds:
                        results.setdefault((name, slow), []).append(
                            held(slow, lambda: reading(page, film, films[name], len(records))))
            context.close()
            host.down()
    finally:
        signal.alarm(0)
        shutil.rmtree(tmp, ignore_errors=True)

    width = max(len(name) for name, _ in chosen)
    cell = 12 if args.slow else 8
    head = ("JSON B", "zlib B", "Base45 ch", "frames", "QR ver")
    print(f"\nseconds, median of {args.runs}{' (full speed / half a core)' if args.slow else ''}; "
          f"tap->1st frame is from camera.js's opening")
    print(f"{'case':<{width}}  " + "  ".join(f"{h:>9}" for h in head) + "  "
          + "  ".join(f"{s:>{max(cell, len(s))}}" for s in STEPS))
    for name, records in chosen:
        row = "  ".join(f"{v:>9,}" for v in sizes(records))
        cells = []
        for step in STEPS:
            values = [statistics.median(r[step] for r in results[(name, slow)]) for slow in speeds]
            cells.append(f"{' / '.join(f'{v:.2f}' for v in values):>{max(cell, len(step))}}")
        print(f"{name:<{width}}  {row}  " + "  ".join(cells))
    for slow in speeds:
        taps = [r["tap->open"] for (_, s), rs in results.items() if s == slow for r in rs]
        print(f"tap -> camera open (Playwright's tap to camera.js's startedAt), "
              f"{'half a core' if slow else 'full speed'}: median {statistics.median(taps):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
