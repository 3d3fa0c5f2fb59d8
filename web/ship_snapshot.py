"""Python's snapshot made when the site is built and sent with it (#52): a phone's first visit
restores Python as every later opening does, instead of starting it afresh (7.5 s of a first
visit here, 19 s with the page and its worker at half a core).

The snapshot is made as a phone makes its own (web/python-worker.js keepPython): the site served on
127.0.0.1, Debian's Chromium (driven by Playwright) opens it, and a worker of the site's own script
starts Python, imports what the first screen needs and keeps Python's memory in Cache Storage,
where this script reads it. It is written beside the site as
- python-snapshot.gz: the kept bytes (Pyodide's header, then the pages of memory that are not all
  zeros), gzipped here: a static host sends a binary file as it is (GitHub Pages compresses text
  only), and the worker un-gzips it natively;
- python-snapshot.json: the build it was made of (web/sw.mjs's name of the site), whether the
  browser had WebAssembly's stack switching (JSPI: Pyodide sets itself up otherwise without it, and
  WebKit, which has none, places the libraries at other slots of the function table), and where its
  libraries were placed and which pages it keeps (the worker's LIBS_HEADER).
Neither is in the offline copy nor in the build's name: the worker keeps the snapshot itself once it
has restored it, and a site whose files differ from the snapshot's build never restores it.
Without Chromium or Playwright the site is left without one: a first visit then starts Python, and
the phone keeps a snapshot of its own, as before.
"""
from __future__ import annotations

import base64
import functools
import gzip
import http.server
import json
import re
import threading
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
SNAPSHOT, ABOUT = "python-snapshot.gz", "python-snapshot.json"

# In a page of the site: a second worker of the phone's own (keepPython), then the bytes it kept.
MAKE_JS = """async (build) => {
  const worker = new Worker('python-worker.js', { type: 'module' });
  const done = new Promise((resolve, reject) => {
    worker.onerror = (event) => reject(new Error(event.message));
    worker.onmessage = (event) => { if (event.data && event.data.pandapad === 'snapshot-done') resolve(); };
  });
  worker.postMessage({ keepPython: true, build, pyodideUrl: 'pyodide/pyodide.mjs', documentUrl: document.URL,
                       appPackageUrl: 'app.tar.gz' });
  await done;
  worker.terminate();
  const kept = await (await caches.open('pandapad-python')).match(new URL('python-snapshot/' + build, document.baseURI).href);
  if (!kept) return null;
  const bytes = new Uint8Array(await kept.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return { libs: kept.headers.get('x-pandapad-libs'), bytes: btoa(text), stackSwitching: 'Suspending' in WebAssembly };
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def build_of(site: Path) -> str:
    found = re.search(r'name="pandapad-build-id" content="([0-9a-f]+)"', (site / "index.html").read_text())
    if not found:
        raise SystemExit("make web: index.html names no build (web/sw.mjs writes it); see web/ship_snapshot.py")
    return found.group(1)


def make(site: Path, say=print) -> bool:
    """Write the site's snapshot of Python; False (and the site left without one) where no browser runs here."""
    for old in (SNAPSHOT, ABOUT):
        (site / old).unlink(missing_ok=True)
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        say("no snapshot of Python sent with the site: Playwright is not installed (make setup installs it)")
        return False
    if not Path(CHROMIUM).exists():
        say(f"no snapshot of Python sent with the site: {CHROMIUM} is missing (make setup installs it)")
        return False
    build = build_of(site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                               "--disable-component-update", "--no-first-run"])
            try:
                page = browser.new_page()
                lines: list[str] = []
                page.on("worker", lambda worker: worker.on("console", lambda m: lines.append(m.text)))
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/version.json")
                made = page.evaluate(MAKE_JS, build)
            finally:
                browser.close()
    except Error as error:
        raise SystemExit(f"make web: Chromium could not make Python's snapshot ({error.message.splitlines()[0]})")
    finally:
        server.shutdown()
        server.server_close()
    if not made:
        raise SystemExit("make web: the worker kept no snapshot of Python: " + " / ".join(lines[-3:]))
    bytes_ = base64.b64decode(made["bytes"])
    # mtime 0: the same bytes give the same file; level 9 took 10 s for 1 % fewer bytes than 6.
    (site / SNAPSHOT).write_bytes(gzip.compress(bytes_, compresslevel=6, mtime=0))
    (site / ABOUT).write_text(json.dumps({"build": build, "stackSwitching": made["stackSwitching"],
                                          "libs": json.loads(made["libs"])}))
    say(f"Python's snapshot sent with the site: {len(bytes_) / 1e6:.1f} MB, "
        f"{(site / SNAPSHOT).stat().st_size / 1e6:.1f} MB gzipped")
    return True
