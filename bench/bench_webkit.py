"""The phone build opened cold in WebKit (#52): the iPhone's engine, as Debian's WebKitGTK runs it.

WebKitWebDriver's sessions forget the site's storage, so no WebDriver here: MiniBrowser itself is
started on the app's address with a profile of its own (XDG_DATA_HOME and XDG_CACHE_HOME: its
service worker, Cache Storage, IndexedDB and caches kept between launches), and killed as a phone
kills its browser. The page tells this bench how far it has come: a copy of the build whose page
has one script more (BEACON_JS), which sends the worker's steps (web/early.js "pandapad-step"),
the app's "ready" and the offline copy's to the host as they come (timed by the host, from
MiniBrowser's launch). The host stays up (a phone with a network); the service worker answers.
- first visit: to the home, then until Python's snapshot and the offline copy are kept;
- cold openings, three: MiniBrowser started afresh on the profile, to the home; the median, and
  where each went: Python restored (or started), the app's files placed, the first screen.
WebKitGTK draws in software under Xvfb here (no GPU), which Safari on an iPhone never does: the
first screen's part is WebKitGTK's own more than the app's.

Run: apt-get install -y webkit2gtk-driver xvfb  (MiniBrowser comes with it), make web, then
     flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_webkit.py   (about 3 min)
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "web"))

MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
RUNS = 3
BEACON = "/__bench"
# Put into the copy's page before its own scripts: each step to the host as it comes.
BEACON_JS = """<script>(function () {
  function tell(what) { fetch("%s?" + new URLSearchParams({ what: what }), { cache: "no-store" }).catch(function () {}); }
  tell("page");
  addEventListener("pandapad-step", function (e) { tell("step " + e.detail); });
  var channel = new BroadcastChannel("pandapad");
  channel.onmessage = function (e) { if (typeof e.data === "string") tell(e.data); };
  // A first visit only (no offline copy serves the page yet): a cold opening keeps no snapshot,
  // and a poll beside it would be part of what it measures.
  if (navigator.serviceWorker && navigator.serviceWorker.controller) return;
  var asked = setInterval(function () {  // Python's snapshot kept by the worker (web/python-worker.js)
    var build = document.querySelector('meta[name="pandapad-build-id"]').content;  // after this script
    caches.open("pandapad-python").then(function (c) { return c.match(new URL("python-snapshot/" + build, document.baseURI).href); })
      .then(function (r) { if (r) { clearInterval(asked); tell("snapshot kept"); } }, function () {});
  }, 500);
})();</script>""" % BEACON


class Heard:
    """What the page told the host, as it came: (seconds since the launch, what)."""

    def __init__(self):
        self.lines: list[tuple[float, str]] = []
        self.launched = time.perf_counter()
        self.event = threading.Condition()

    def __call__(self, app):
        async def listen(scope, receive, send):
            if scope["type"] == "http" and scope["path"] == BEACON:
                from urllib.parse import parse_qs
                q = parse_qs(scope["query_string"].decode())
                with self.event:
                    self.lines.append((time.perf_counter() - self.launched, q["what"][0]))
                    self.event.notify_all()
                await send({"type": "http.response.start", "status": 204, "headers": []})
                await send({"type": "http.response.body", "body": b""})
                return
            await app(scope, receive, send)
        return listen

    def wait(self, what: str, timeout: float) -> float:
        """Seconds from the launch until the page said `what`."""
        deadline = time.perf_counter() + timeout
        with self.event:
            while True:
                for at, said in self.lines:
                    if said == what:
                        return at
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"the page did not say {what!r} in {timeout:.0f} s; it said "
                                       + ", ".join(s for _, s in self.lines))
                self.event.wait(left)

    def start(self) -> None:
        with self.event:
            self.lines.clear()
            self.launched = time.perf_counter()


def site_copy() -> Path:
    """The build with the beacon in its page (index.html is in no build's name: web/sw.mjs)."""
    from bench.slow_phone import private_site
    site = private_site(ROOT / "build" / "web")
    copy = Path(tempfile.mkdtemp(prefix="pandapad-webkit-site-")) / "web"
    shutil.copytree(site, copy)
    for page in ("index.html", "404.html"):
        html = (copy / page).read_text()
        (copy / page).write_text(html.replace("<head>", "<head>\n" + BEACON_JS, 1))
        for packed in (".gz", ".br"):
            (copy / (page + packed)).unlink(missing_ok=True)
    return copy


def launch(url: str, profile: Path) -> subprocess.Popen:
    env = {**os.environ, "XDG_DATA_HOME": str(profile / "data"), "XDG_CACHE_HOME": str(profile / "cache"),
           "XDG_CONFIG_HOME": str(profile / "config"), "LANG": "en_US.UTF-8"}
    return subprocess.Popen([str(MINIBROWSER), url], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def kill(browser: subprocess.Popen) -> None:
    """As a phone kills its browser: at once, the web processes with it."""
    os.killpg(browser.pid, signal.SIGKILL)
    browser.wait()


def opening(heard: Heard, url: str, profile: Path, first: bool = False) -> dict:
    heard.start()
    browser = launch(url, profile)
    try:
        shown = heard.wait("ready", 300)
        figure = {"s": shown, "steps": {}}
        if first:
            heard.wait("snapshot kept", 300)
            heard.wait("offline-ready", 300)
            time.sleep(3)  # the engine files kept after it (web/page.js)
        for at, said in heard.lines:
            figure["steps"].setdefault(said, at)
        return figure
    finally:
        kill(browser)


def main() -> dict:
    if not MINIBROWSER.exists() or not shutil.which("xvfb-run"):
        print("bench_webkit: needs Debian's webkit2gtk-driver (MiniBrowser) and xvfb: "
              "apt-get install -y webkit2gtk-driver xvfb; nothing measured")
        return {}
    if not os.environ.get("DISPLAY"):  # MiniBrowser is a GTK window: under a virtual display
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", sys.executable, *sys.argv])
    from bench.bench_web import Site
    from preview import app

    site = site_copy()
    heard = Heard()
    host = Site(heard(app(site)))
    profile = Path(tempfile.mkdtemp(prefix="pandapad-webkit-"))
    version = subprocess.run([str(MINIBROWSER), "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}, MiniBrowser on a profile of its own, the page's steps told to the host; "
          f"build of {site.parent}")
    try:
        first = opening(heard, host.url, profile, first=True)
        print(f"first visit: home after {first['s']:.2f} s from the launch")
        print("  " + ", ".join(f"{said} {at:.2f}" for said, at in first["steps"].items()))
        colds = []
        for _ in range(RUNS):
            colds.append(opening(heard, host.url, profile))
        print(f"cold opening, MiniBrowser started afresh, {RUNS} runs: home after median "
              f"{statistics.median(c['s'] for c in colds):.2f} s ({min(c['s'] for c in colds):.2f}"
              f"\u2013{max(c['s'] for c in colds):.2f}) from the launch")
        for c in colds:
            print("  " + ", ".join(f"{said} {at:.2f}" for said, at in c["steps"].items()))
        return {"first_s": first["s"], "cold_s": statistics.median(c["s"] for c in colds)}
    finally:
        host.down()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(site.parent, ignore_errors=True)


if __name__ == "__main__":
    print(json.dumps(main()))
