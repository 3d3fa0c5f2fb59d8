"""The hand-over's QR codes painted and read in Firefox ESR and WebKitGTK (#69), the engines of
phones that are not Chrome (Safari on every iPhone is WebKit). Flutter's web engine takes
another path there than in Chromium (CanvasKit, no ImageDecoder): an Image given bytes stayed
an empty card (views/handover/qr.py says why), so a game could not be sent, nor a table hosted or joined.

Each engine is started once, at 360 × 740, on Send to another phone: one game's code, then two
games' loop of codes (the codes after the first are made by the loop's task). Each screenshot is
read as a camera would (ZXing), and the texts read must be the frames views/handover/send.py makes of
those games. Driven with no Playwright (it drives neither Debian's Firefox nor WebKitGTK):
Firefox by WebDriver BiDi (its own --remote-debugging-port), WebKitGTK by WebKitWebDriver
(W3C WebDriver over HTTP) on a virtual display (xvfb-run). `make setup` installs the three
Debian packages; without them the test says which is missing and skips."""
from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from storage import Store
from tests import finished_examples as fx
from tests.browser_harness import ARTIFACTS_DIR, HOST, flet_server, free_port
from tests.phone_net import weigh
from views.handover.send import frames

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB_RUN = "/usr/bin/xvfb-run"
WIDTH, HEIGHT = 360, 740


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A finished Pandoria and the ten-player game (its records need a loop of codes)."""
    data = tmp_path_factory.mktemp("engines")
    with Store.open(data) as store:
        games = {g.id: store.save(g, None) for g in (fx.pandoria(), fx.ten_players())}
    with flet_server("main.py", args=["--data-dir", str(data)], port_arg="--port") as s:
        s.games = games
        yield s


class Firefox:
    """Firefox ESR, headless, driven by WebDriver BiDi over its own websocket. `phone`: a phone
    of tests/phone_net.py whose namespace it runs in (its driver's port reached in there);
    `prefs`: more of the profile's preferences (name -> value); `camera`: a site (origin) whose
    camera the person allowed, for good, as a phone's browser keeps it (the permission is then
    the profile's from the start: BiDi's permissions.setPermission takes no camera); `nice`: its
    CPU weight from its start (tests/phone_net.py weigh)."""

    def __init__(self, phone=None, prefs: dict | None = None, camera: str | None = None, nice: int = 0):
        from websockets.sync.client import connect

        self.profile = tempfile.mkdtemp(prefix="pandapad-firefox-")
        if camera:
            allowed = Path(self.profile, "allowed.txt")
            allowed.write_text(f"origin\tcamera\t1\t{camera.rstrip('/')}\n", encoding="utf-8")
            prefs = {"permissions.manager.defaultsUrl": allowed.as_uri(), **(prefs or {})}
        prefs = {  # a fresh profile that asks nothing and calls nowhere
            "browser.shell.checkDefaultBrowser": False, "datareporting.policy.dataSubmissionEnabled": False,
            "app.update.disabledForTesting": True, "browser.startup.homepage_override.mstone": "ignore",
            **(prefs or {})}
        Path(self.profile, "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items()), encoding="utf-8")
        command = [FIREFOX, "--headless", "--no-remote", "--profile", self.profile, "--remote-debugging-port=0",
                   "about:blank"]
        self.proc = subprocess.Popen(["ip", "netns", "exec", phone.ns, *command] if phone else command,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        if nice:
            weigh(self.proc.pid, nice)  # its session is its group: every process it starts is in it
        said = []
        for line in self.proc.stdout:  # it says where it listens once it is up
            said.append(line)
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if found:
                break
        else:
            raise RuntimeError("Firefox did not start:\n" + "".join(said[-20:]))
        # What it says after that (nothing is read of it) must not fill the pipe and stop it.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.closing = contextlib.ExitStack()
        where = urllib.parse.urlsplit(found.group(1))
        self.ws = self.closing.enter_context(connect(
            # No keepalive pings: a phone's browser stopped on purpose (bench_phone_sleep) answers none.
            found.group(1) + "/session", max_size=None, open_timeout=30, ping_interval=None,
            sock=phone.connect(where.port, where.hostname) if phone else None))
        self.asked = 0
        self.logs: list[str] = []
        self.send("session.new", capabilities={})
        self.send("session.subscribe", events=["log.entryAdded"])
        self.context = self.send("browsingContext.getTree")["contexts"][0]["context"]
        self.send("browsingContext.setViewport", context=self.context, viewport={"width": WIDTH, "height": HEIGHT},
                  devicePixelRatio=1)

    def send(self, method: str, timeout: float = 60, **params):
        self.asked += 1
        self.ws.send(json.dumps({"id": self.asked, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=timeout))
            if message.get("method") == "log.entryAdded":
                self.logs.append(message["params"].get("text") or "")
            elif message.get("id") == self.asked:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]

    def open(self, url: str) -> None:
        self.send("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def preload(self, source: str) -> None:
        """`source` (a function's text) runs in every page before the page's own scripts."""
        self.send("script.addPreloadScript", functionDeclaration=source)

    def evaluate(self, expression: str, timeout: float = 60):
        """The value of `expression` in the page (a promise awaited), as BiDi serializes it."""
        result = self.send("script.evaluate", expression=expression, target={"context": self.context},
                           awaitPromise=True, timeout=timeout)
        if result.get("type") == "exception":
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails'].get('text')}")
        return plain(result["result"])

    def shot(self) -> bytes:
        return base64.b64decode(self.send("browsingContext.captureScreenshot", context=self.context)["data"])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.send("browser.close")
        with contextlib.suppress(Exception):
            self.closing.close()
        stop(self.proc)
        shutil.rmtree(self.profile, ignore_errors=True)


class WebKit:
    """WebKitGTK's MiniBrowser under WebKitWebDriver, on a virtual display. Its window is at
    least 447 px wide (its toolbar), so the app is opened in a 360 × 740 frame at the top left of
    a page of its own, and that part of the window is what is photographed."""

    def __init__(self):
        port = free_port()
        self.out = tempfile.NamedTemporaryFile(prefix="pandapad-webkit-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", WEBKIT_DRIVER, f"--port={port}"],
                                     stdout=self.out, stderr=subprocess.STDOUT, start_new_session=True,
                                     env={**os.environ, "LANG": "C.UTF-8"})
        self.base = f"http://{HOST}:{port}"
        end = time.monotonic() + 30
        while True:
            try:
                self.call("GET", "/status")
                break
            except OSError:
                if time.monotonic() > end or self.proc.poll() is not None:
                    raise RuntimeError("WebKitWebDriver did not start:\n" + self.log()) from None
                time.sleep(0.1)
        session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {
            "binary": MINIBROWSER, "args": ["--automation", "--enable-write-console-messages-to-stdout=true"]}}}})
        self.session = f"/session/{session['sessionId']}"
        self.call("POST", self.session + "/window/rect", {"width": 500, "height": HEIGHT + 120})

    def call(self, method: str, path: str, body=None):
        request = urllib.request.Request(self.base + path, method=method, headers={"Content-Type": "application/json"},
                                         data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())["value"]

    def open(self, url: str) -> None:
        frame = (f'<body style="margin:0"><iframe src="{url}" width="{WIDTH}" height="{HEIGHT}" '
                 'style="border:0;display:block"></iframe></body>')
        self.call("POST", self.session + "/url", {"url": "data:text/html," + urllib.parse.quote(frame)})

    def shot(self) -> bytes:
        """The window's screenshot cut to the frame (at 0, 0): the driver's own screenshot of
        the frame element painted its top 80 px black, where the window's shows the app bar."""
        from PIL import Image

        window = Image.open(io.BytesIO(base64.b64decode(self.call("GET", self.session + "/screenshot"))))
        out = io.BytesIO()
        window.crop((0, 0, WIDTH, HEIGHT)).save(out, "PNG")
        return out.getvalue()

    def log(self) -> str:
        return Path(self.out.name).read_text(encoding="utf-8", errors="replace")[-4000:]

    @property
    def logs(self) -> list[str]:
        return self.log().splitlines()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.call("DELETE", self.session)
        stop(self.proc)  # xvfb-run, its Xvfb and the driver: one group
        self.out.close()
        os.unlink(self.out.name)


def plain(value: dict):
    """A BiDi remote value as Python's: texts, numbers, booleans, null, arrays and objects."""
    kind, inner = value.get("type"), value.get("value")
    if kind in ("array", "set"):
        return [plain(v) for v in inner or []]
    if kind in ("object", "map"):
        return {(k if isinstance(k, str) else plain(k)): plain(v) for k, v in inner or []}
    return None if kind in ("null", "undefined") else inner


def stop(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


ENGINES = {"firefox": (Firefox, [FIREFOX], "firefox-esr"),
           "webkit": (WebKit, [WEBKIT_DRIVER, MINIBROWSER, XVFB_RUN], "webkit2gtk-driver and xvfb")}


def read_codes(browser, expected: int, name: str, timeout: float = 60) -> list[str]:
    """The codes the screen shows, read from screenshots as a camera would, until `expected`
    different codes were seen (a loop's come round four a second). The first screenshot that
    reads is kept in artifacts/. Each code must be whole on the 360 × 740 screen and painted at
    the size the screen gives it (328 px with its white border: 250 px of modules at least)."""
    import zxingcpp
    from PIL import Image

    seen: list[str] = []
    end = time.monotonic() + timeout
    while len(seen) < expected:
        shot = browser.shot()
        image = Image.open(io.BytesIO(shot))
        for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
            p = found.position
            xs = [p.top_left.x, p.top_right.x, p.bottom_left.x, p.bottom_right.x]
            ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
            assert image.size == (WIDTH, HEIGHT) and 0 <= min(xs) and max(xs) < WIDTH and 0 <= min(ys) \
                and max(ys) < HEIGHT, (image.size, xs, ys)
            assert max(xs) - min(xs) >= 250 and max(ys) - min(ys) >= 250, (xs, ys)  # the modules, less the white
            if not seen:
                ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
                (ARTIFACTS_DIR / f"{name}.png").write_bytes(shot)
            if found.text not in seen:
                seen.append(found.text)
        if time.monotonic() > end:
            ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
            (ARTIFACTS_DIR / f"{name}_unread.png").write_bytes(shot)
            raise AssertionError(f"{len(seen)} of {expected} codes read in {timeout} s (artifacts/{name}_unread.png); "
                                 f"the page said: {browser.logs[-15:]}")
        time.sleep(0.1)
    return seen


def missing(engine: str) -> str:
    """Why this engine cannot run here ('' when it can)."""
    _make, needs, packages = ENGINES[engine]
    absent = [path for path in needs if not os.access(path, os.X_OK)]
    return f"{', '.join(absent)} not installed: Debian's {packages} (make setup installs them)" if absent else ""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("engine", [pytest.param(e, marks=pytest.mark.skipif(bool(missing(e)), reason=missing(e)))
                                    for e in ENGINES])
def test_the_handovers_codes_are_painted_and_read_on_a_small_phone(engine, server):
    make = ENGINES[engine][0]
    one = frames([server.games["share-pa"]])
    loop = frames([server.games["share-ten"], server.games["share-pa"]])
    assert len(one) == 1 and len(loop) > 1
    browser = make()
    try:
        browser.open(server.url + "send/share-pa")
        assert read_codes(browser, 1, f"engines_send_one_game_{engine}_{WIDTH}x{HEIGHT}", timeout=30) == one
        browser.open(server.url + "send/share-ten,share-pa")
        read = read_codes(browser, len(loop), f"engines_send_two_games_{engine}_{WIDTH}x{HEIGHT}")
        assert sorted(read) == sorted(loop)
    finally:
        browser.close()
