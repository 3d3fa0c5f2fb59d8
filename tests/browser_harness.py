"""Drive a real Flet web app in headless Debian Chromium.

A plain module (not only fixtures) so that tests and benchmarks share it:

    from tests.browser_harness import chromium, flet_server, open_app_page, wait_for_text

    with flet_server("bench/counter_app.py") as server, chromium() as browser:
        page = open_app_page(browser, server.url)
        page.get_by_role("button", name="Increment").click()
        wait_for_text(page, "1")

The server is started with Flet's own environment variables (FLET_SERVER_IP,
FLET_SERVER_PORT, FLET_FORCE_WEB_SERVER, FLET_WEB_NO_CDN), so any script that
calls `ft.run(...)` is served on 127.0.0.1 without a CDN, whether or not it
parses a --port option itself.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # playwright is imported lazily: importing this module must stay cheap
    from playwright.sync_api import Browser, Locator, Page, Playwright

REPO_ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS_DIR = REPO_ROOT / "artifacts"
HOST = "127.0.0.1"

CHROMIUM = "/usr/bin/chromium"


def _no_desktop_ui() -> tuple[str, ...]:
    """Desktop Chromium preloads its omnibox popups at start, WebUI pages in renderers of their
    own: 1-3 s of CPU in the first seconds that a phone's browser never spends, taken from the
    app under test on two cores and, in the slow-phone benches, from the half a core the page is
    held to (every renderer is moved into that group). Turned off with Playwright's own
    --disable-features list kept: Chromium reads only the last --disable-features given, and
    Playwright puts its list before ours. Its list is read from the installed (pinned) driver;
    where it cannot be read, nothing is turned off."""
    import re

    try:
        import playwright

        bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
        listed = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(encoding="utf-8", errors="replace"), re.S)
    except (ImportError, OSError):
        return ()
    if listed is None:
        return ()
    theirs = re.findall(r'^\s*"([A-Za-z0-9]+)",?\s*$', listed.group(1), re.M)
    return ("--disable-features=" + ",".join([*theirs, "WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"]),)

# From shared/docs/flet-notes.md: without swiftshader screenshots can come out blank;
# without the networking flags Chromium keeps dialling out of this closed network.
CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    *_no_desktop_ui(),
)
# A mid-size Android phone in portrait (CSS pixels).
DEFAULT_VIEWPORT = (412, 915)
# A phone's browser: touch, taps, and a phone's pixel density: 2, a 720-pixel-wide phone's at
# 360 px (the cheap Androids many tables have). A Pixel 7's 2.625 draws 72 % more pixels a
# frame, and with the renderer on one thread (views/hosts/serving.py) that was 19 % of the browser
# tests' time (Panda Royale and Pandoria side by side: 281 s at 2.625, 227 s at 2).
PHONE = dict(is_mobile=True, has_touch=True, device_scale_factor=2)
# The suite's phones have asked for less motion (Android's "Remove animations", iOS's "Reduce
# motion"): Flutter then plays every animation, a button's ink and a move between screens, at a
# twentieth of its length. The same screens and taps for less CPU, each frame costing the GPU
# process ~60 ms here (#70: Royal Ur's module alone 119 -> 78 CPU s; the whole suite 2543 -> 2367 s,
# its phone builds' Python starts being no animation).
# tests/conftest.py puts it in PHONE for each module, MOTION for a module marked `motion`, which
# walks the animations as most phones play them; the benches import PHONE as it is here.
LESS_MOTION = {"reduced_motion": "reduce"}
MOTION = {"reduced_motion": "no-preference"}
# A browser whose language tag is not a language (WebKitGTK under a "C" locale says "C"): Flutter's
# first frame threw "Incorrect locale information provided" and the app stayed on its logo (#46).
NOT_A_LANGUAGE = """for (const name of ["language", "languages"]) {
    Object.defineProperty(Navigator.prototype, name, {configurable: true,
                          get: () => name === "language" ? "C" : ["C"]});
}"""


# --------------------------------------------------------------------------- server


_GIVEN: set[int] = set()


def free_port(host: str = HOST) -> int:
    """A TCP port free on every address, below the kernel's range for outgoing sockets.

    A port the OS picks (bind to 0) comes from that range, and a browser's or a stranger's
    socket could take it as its own end before the server binds: a fresh-clone run lost a
    --lan server to "address already in use" on 0.0.0.0 that way. Below the range, nothing but
    a listener can hold it. (`host` is kept for callers; the check binds 0.0.0.0, which
    conflicts with any address.)"""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.Random()
    # Parallel workers (pytest-xdist) each take their own residue of the range: two of them
    # cannot pick the same port between the check here and their servers binding it.
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
    for _ in range(200):
        port = rng.randrange(10000, max(low, 10001))
        port -= (port - worker) % workers
        if port in _GIVEN or port < 10000:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
        _GIVEN.add(port)
        return port
    raise RuntimeError("no free TCP port below the outgoing range")


@dataclass
class FletServer:
    """A Flet web server running as a subprocess in its own process group."""

    proc: subprocess.Popen
    port: int
    url: str
    log_path: Path
    command: list[str] = field(default_factory=list)
    owns_log: bool = False  # a temp log made by start_flet_server: removed by stop()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self, timeout: float = 10) -> None:
        stop_server(self.proc, timeout=timeout)
        if self.owns_log:
            self.log_path.unlink(missing_ok=True)


def _command(target: str | os.PathLike | Sequence[str]) -> list[str]:
    if isinstance(target, (str, os.PathLike)):
        path = Path(target)
        if not path.is_absolute():
            path = REPO_ROOT / path
        return [sys.executable, str(path)]
    return [str(part) for part in target]


def start_flet_server(
    target: str | os.PathLike | Sequence[str],
    *,
    args: Sequence[str] = (),
    port: int | None = None,
    port_arg: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike | None = None,
    timeout: float = 60,
    log_path: str | os.PathLike | None = None,
) -> FletServer:
    """Start a Flet app as a web server on 127.0.0.1 and wait until it answers HTTP.

    target: a script path (run with this interpreter; relative paths are taken from
    the repo root) or a full command list. args: extra arguments. port: default a
    free one. port_arg: e.g. "--port" to also pass the port on the command line
    (Flet reads FLET_SERVER_PORT anyway). env: extra environment variables.
    The server's stdout and stderr go to log_path (default: a temp file, removed by stop();
    server.log_tail() reads it while the server runs).
    """
    port = port or free_port()
    cmd = _command(target) + list(args)
    if port_arg:
        cmd += [port_arg, str(port)]
    full_env = dict(os.environ)
    full_env.update(
        {
            "FLET_FORCE_WEB_SERVER": "true",
            "FLET_WEB_NO_CDN": "1",
            "FLET_SERVER_IP": HOST,
            "FLET_SERVER_PORT": str(port),
            "PYTHONUNBUFFERED": "1",
        }
    )
    # The repo root importable from any script, as in `make`.
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO_ROOT), full_env.get("PYTHONPATH", "")) if p
    )
    if env:
        full_env.update(env)
    owns_log = log_path is None
    if log_path is None:
        fd, name = tempfile.mkstemp(prefix=f"flet-server-{port}-", suffix=".log")
        os.close(fd)
        log_path = name
    log_path = Path(log_path)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=str(cwd or REPO_ROOT),
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: stop_server kills it whole
        )
    server = FletServer(
        proc=proc, port=port, url=f"http://{HOST}:{port}/", log_path=log_path, command=cmd, owns_log=owns_log
    )
    try:
        wait_for_http(server.url, timeout=timeout, proc=proc)
    except BaseException as exc:
        stop_server(proc)
        log = server.log_tail()
        server.stop()
        raise RuntimeError(f"Flet server {cmd} did not come up: {exc}\n--- log ---\n{log}") from exc
    return server


def wait_for_http(url: str, timeout: float = 60, proc: subprocess.Popen | None = None) -> None:
    """Poll url until it answers HTTP (a table's door answers 403 without the token); fail
    early if proc exits."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server process exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status < 400:
                    return
                last = resp.status
        except urllib.error.HTTPError as exc:
            if exc.code < 500:
                return
            last = exc
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            last = exc
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s (last: {last!r})")


def stop_server(server: FletServer | subprocess.Popen | int, timeout: float = 10) -> None:
    """Stop a server and all its children: SIGTERM to its process group, SIGKILL after timeout."""
    if isinstance(server, FletServer):
        server = server.proc
    proc = server if isinstance(server, subprocess.Popen) else None
    pid = proc.pid if proc is not None else int(server)
    try:
        pgid = os.getpgid(pid)
    except ProcessLookupError:
        pgid = None
    if pgid is not None and pgid == pid:  # started with start_new_session: a group of its own
        kill = lambda sig: os.killpg(pgid, sig)  # noqa: E731
    else:
        kill = lambda sig: os.kill(pid, sig)  # noqa: E731
    with contextlib.suppress(ProcessLookupError):
        kill(signal.SIGTERM)
    if proc is not None:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                kill(signal.SIGKILL)
            proc.wait(timeout=timeout)
        # Children left in the group (if the leader died first).
        if pgid == pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
    else:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _alive(pid):
                return
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            kill(signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:  # our own child: reap it, or a zombie would look alive
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@contextlib.contextmanager
def flet_server(target: str | os.PathLike | Sequence[str], **kwargs) -> Iterator[FletServer]:
    """start_flet_server(...) as a context manager that always stops the server."""
    server = start_flet_server(target, **kwargs)
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def table_server(data_dir, token: str) -> Iterator[FletServer]:
    """main.py --lan with the guests' `token`, its host's own token read from what it prints
    (server.host_token): a table with a host and guests."""
    with flet_server("main.py", args=["--data-dir", str(data_dir), "--lan", "--token", token],
                     port_arg="--port") as server:
        printed = ""
        for _attempt in range(50):  # the banner is printed just before the server answers
            printed = server.log_tail(100_000)
            if "On this computer:" in printed:
                break
            time.sleep(0.1)
        server.host_token = re.search(r"On this computer: http://127\.0\.0\.1:\d+/\?token=(\S+)", printed).group(1)
        yield server


# --------------------------------------------------------------------------- browser

# Installed in every page: tells when the canvas shows what the semantics tree says.
# Flutter's threaded skwasm renderer (Flet's choice in a cross-origin isolated page, which the
# app's pages no longer are: views/hosts/serving.py OneThread) rasterises in a worker: the DOM semantics
# tree changes *before* the canvas does (by one raster, ~5 ms warm, 100-600 ms for a first
# glyph or at boot), so "the text is in the DOM" is not yet "a person sees it".
# Each Flutter frame posts one "renderPictures" message to the raster worker (one in flight at
# a time, FIFO) and, when it comes back, hands the bitmap to the page with
# ImageBitmapRenderingContext.transferFromImageBitmap. Both are hooked: frame N is on screen
# once the N-th transfer has happened. A semantics change belongs to the frame submitted in
# the same task (setTimeout(0) marks the task's end) or, when a raster was still in flight,
# to the next one submitted.
FRAME_PROBE_JS = """
(() => {
  // Frames are timed only once a raster worker is seen at work (threaded skwasm); one thread
  // (the app's skwasm, the phone build's CanvasKit) paints in step with semantics.
  const timed = p => p.submitSeq > 0 ? p.hooked : null;
  if (window.__ppProbe) return timed(window.__ppProbe);
  const p = window.__ppProbe = {
    hooked: null, submitSeq: 0, presentedSeq: 0, taskSubmitSeq: null, mutationFrameSeq: 0,
    lastFrame: 0, lastMutation: 0, frameHooks: [], mutationHooks: [],
  };
  const ibrc = window.ImageBitmapRenderingContext && ImageBitmapRenderingContext.prototype;
  if (ibrc && ibrc.transferFromImageBitmap && window.Worker) {
    const transfer = ibrc.transferFromImageBitmap;
    ibrc.transferFromImageBitmap = function (bitmap) {
      const result = transfer.call(this, bitmap);
      const t = performance.now();
      p.presentedSeq = p.submitSeq; p.lastFrame = t;
      for (const h of p.frameHooks.slice()) h(t);
      return result;
    };
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      if (msg && msg.l === "renderPictures") {
        p.submitSeq++;
        p.taskSubmitSeq = p.submitSeq;
        setTimeout(() => { p.taskSubmitSeq = null; }, 0);
      }
      return post.call(this, msg, ...rest);
    };
    p.hooked = "skwasm";
  }
  const inSemantics = n => {
    const el = n.nodeType === 1 ? n : n.parentElement;
    return !!(el && el.closest && el.closest("flt-semantics-host"));
  };
  new MutationObserver(records => {
    if (!records.some(r => inSemantics(r.target))) return;
    const t = performance.now();
    p.lastMutation = t;
    p.mutationFrameSeq = p.taskSubmitSeq !== null ? p.taskSubmitSeq : p.submitSeq + 1;
    for (const h of p.mutationHooks.slice()) h(t);
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  return timed(p);
})()
"""


def install_frame_probe(page: "Page") -> str | None:
    """Install FRAME_PROBE_JS now (idempotent); returns "skwasm" when frames can be timed."""
    return page.evaluate(FRAME_PROBE_JS)


def wait_for_paint(page: "Page", quiet_ms: float = 100, timeout: float = 5_000) -> bool:
    """Wait until the canvas has presented a frame newer than the last semantics change and
    no new frame came for quiet_ms (animations settled). False if it gave up at timeout
    (e.g. an endless animation); the page is left as it is."""
    if install_frame_probe(page) != "skwasm":  # other renderers paint in step with semantics
        page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        return True
    try:
        page.wait_for_function(
            """quiet => { const p = window.__ppProbe;
                return p.presentedSeq >= p.mutationFrameSeq && performance.now() - p.lastFrame >= quiet; }""",
            arg=quiet_ms,
            polling=25,
            timeout=timeout,
        )
        return True
    except Exception:  # playwright's TimeoutError; a screenshot is still worth taking
        return False




def launch_chromium(playwright: "Playwright", extra_args: Sequence[str] = (), **kwargs) -> "Browser":
    """Debian's Chromium through Playwright, headless, with the flags from flet-notes.md (and
    extra_args: a fake camera, tests/fake_camera.py)."""
    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"{CHROMIUM} missing: run `make setup` (apt-get install -y chromium)")
    return playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args], headless=True, **kwargs
    )


@contextlib.contextmanager
def chromium(**kwargs) -> Iterator["Browser"]:
    """Start Playwright and Chromium; close both on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch_chromium(pw, **kwargs)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def another_chromium(browser: "Browser", extra_args: Sequence[str] = ()) -> Iterator["Browser"]:
    """A second Chromium beside `browser`, from the same Playwright (one per process), with the
    flags of every test's and extra_args (not the session's camera: tests/conftest.py)."""
    other = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args], headless=True)
    try:
        yield other
    finally:
        other.close()


def enable_semantics(page: "Page", timeout: float = 60_000) -> None:
    """Turn on Flutter's accessibility tree, which mirrors buttons and texts as DOM nodes.

    Flet paints onto a canvas; only after this do get_by_role / get_by_text work.
    """
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=timeout)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics-host flt-semantics", state="attached", timeout=timeout)


_GPU_FIRST: dict[int, int | None] = {}  # id(browser) -> its GPU process at its first page


def gpu_process(browser: "Browser") -> int | None:
    """The pid of the browser's GPU process (SwiftShader's WebGL runs there): a new one since
    the first page means the old one died, and every page's canvas lost its context with it."""
    try:
        session = browser.new_browser_cdp_session()
        try:
            info = session.send("SystemInfo.getProcessInfo")["processInfo"]
        finally:
            session.detach()
        return next((p["id"] for p in info if p["type"] == "GPU"), None)
    except Exception:  # an older browser or a closing one: no answer is no evidence
        return None


def open_app_page(
    browser: "Browser",
    url: str,
    *,
    width: int = DEFAULT_VIEWPORT[0],
    height: int = DEFAULT_VIEWPORT[1],
    timeout: float = 60_000,
    init_script: str | None = None,
    **context_kwargs,
) -> "Page":
    """A new page (in a new context) at width x height, loaded and with semantics enabled: a
    phone's browser (PHONE: touch, taps) unless context_kwargs say otherwise.

    Close it with page.context.close(). context_kwargs go to browser.new_context
    (e.g. has_touch=False for a desktop browser with a mouse). init_script runs in the page
    before any of its own (to watch what happens before the app starts).
    """
    context = browser.new_context(viewport={"width": width, "height": height}, **{**PHONE, **context_kwargs})
    context.set_default_timeout(timeout)
    keep_evidence_on_close(context)
    context.add_init_script(FRAME_PROBE_JS)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    _count_fonts(page)
    if id(browser) not in _GPU_FIRST:
        _GPU_FIRST[id(browser)] = gpu_process(browser)
    page.goto(url, timeout=timeout)
    enable_semantics(page, timeout=timeout)
    return page


# What the pages showed when a test failed: CI prints only the test's output, and most tests
# close their pages in a `finally` before pytest reports. conftest adds these to the report.
EVIDENCE: list[tuple[str, str]] = []
_SHOTS = itertools.count(1)


def evidence(page: "Page", why: str) -> tuple[str, str]:
    """(title, text) of what `page` shows: its accessibility texts and a screenshot's path."""
    try:
        # Each step bounded: a hung renderer must not turn a failure into a hung run
        # (page.evaluate itself has no timeout; the probe before it does).
        page.wait_for_function("() => true", timeout=5_000)
        ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS_DIR / f"failed-{os.getpid()}-{next(_SHOTS)}.png"
        page.screenshot(path=str(shot), timeout=5_000)
        texts = semantics_texts(page)
        # The phone's own view of its link (assets/connection.js): a tap the veil took while
        # the link looked stalled shows here as `refused`, and is gone from the screen by now.
        link = page.evaluate("""() => { const l = window.__pandapadLink; if (!l) return null;
            const now = performance.now(); return JSON.stringify({down: l.down, refused: l.refused,
            open: l.open, silentMs: Math.round(now - l.lastIn),
            downSinceMs: l.downSince === null ? null : Math.round(now - l.downSince),
            backAtMs: l.backAt === null ? null : Math.round(now - l.backAt)}); }""")
        # The canvas's own frames (FRAME_PROBE_JS): a page whose texts moved on while its canvas
        # did not shows it here (once: the semantics showed a dialog, the canvas Flet's
        # start-up screen, and the dialog's picture never came).
        canvas = page.evaluate("""() => { const p = window.__ppProbe; if (!p) return null;
            return JSON.stringify({frames: p.submitSeq, shown: p.presentedSeq,
                lastShownMs: p.lastFrame ? Math.round(performance.now() - p.lastFrame) : null}); }""")
        browser = page.context.browser
        if browser is not None:
            canvas = f"{canvas}; GPU process {gpu_process(browser)} (at the first page: {_GPU_FIRST.get(id(browser))})"
    except Exception as exc:  # a crashed or closing page: say so, the test's own error stays first
        return why, f"(could not read the page: {exc})\n{where_stuck(page)}"
    return (f"{why}: {page.url} at {page.viewport_size}",
            f"screenshot {shot}\nlink: {link}\ncanvas: {canvas}\ntexts: " + " | ".join(texts))


_DEBUGGERS: dict[int, tuple] = {}  # id(page) -> (its DevTools session, the pauses it heard)


@contextlib.contextmanager
def watched_for_hangs(page: "Page") -> Iterator[None]:
    """The DevTools debugger on `page` while the block runs, so that a hang in it can be
    paused and read (where_stuck). The debugger must be on before the page gets stuck: once its
    main thread spins, Debugger.enable is never answered. Only around typing (both hangs seen
    came while a name was typed or its field tapped): on for a whole page it cost ~8 %."""
    paused: list[dict] = []
    cdp = page.context.new_cdp_session(page)
    cdp.on("Debugger.paused", lambda event: paused.append(event))
    cdp.send("Debugger.enable")
    _DEBUGGERS[id(page)] = (cdp, paused)
    yield  # a block that failed leaves the debugger on: the evidence is read after it
    _DEBUGGERS.pop(id(page), None)
    cdp.detach()


def where_stuck(page: "Page", frames: int = 25) -> str:
    """Where a page that answers nothing is busy: its main thread paused through the DevTools
    protocol (an endless loop in JS or wasm can be paused, as in DevTools), and the stack read.
    Twice in ~800-test runs a renderer sat at 100 % and answered nothing (tests/README.md);
    this is how the next one names its cause."""
    if id(page) not in _DEBUGGERS:
        return "main thread: no debugger was on (watched_for_hangs is, while names are typed)"
    cdp, paused = _DEBUGGERS[id(page)]
    try:
        cdp.send("Debugger.pause")
        for _ in range(40):  # up to ~10 s; waits in Playwright, not in the stuck page
            if paused:
                break
            time.sleep(0.25)
            cdp.send("Browser.getVersion")  # lets the session's events in (sync API)
        if not paused:
            return "main thread: not paused within 10 s (stuck outside JS and wasm, or the renderer is gone)"
        lines = [f"  {f.get('functionName') or '(anonymous)'} {f['url'].rsplit('/', 1)[-1]}:"
                 f"{f['location']['lineNumber'] + 1}:{f['location'].get('columnNumber', 0) + 1}"
                 for f in paused[0]["callFrames"][:frames]]
        cdp.send("Debugger.resume")
        return f"main thread paused ({paused[0].get('reason')}), its stack:\n" + "\n".join(lines)
    except Exception as exc:
        return f"main thread: could not be paused ({exc})"


def keep_evidence_on_close(context) -> None:
    """`context`'s pages, closed in the `finally` of a failing test, leave what they showed in
    EVIDENCE (open_app_page's contexts do; a test that makes its own contexts calls this)."""
    close = context.close

    def close_keeping_evidence(*args, **kwargs):
        if sys.exc_info()[1] is not None:  # closed in a finally (or except) of a failing test
            EVIDENCE.extend(evidence(page, "page closed while the test failed") for page in context.pages)
        return close(*args, **kwargs)

    context.close = close_keeping_evidence


def send_garbage(server: FletServer, token: str | None = None) -> None:
    """Open four sockets to the server's Flet endpoint and send each bytes Flet cannot read,
    as a broken or hostile client on the table's Wi-Fi would (with `token`, one that has the
    table's link, so that its socket is let in). Sent from a thread of its own: in a whole run
    Playwright's sync API owns the main thread's event loop."""
    from views.hosts.gate import COOKIE
    import asyncio

    import websockets

    async def garbage() -> None:
        url = server.url.replace("http://", "ws://") + "ws"
        headers = {"Cookie": f"{COOKIE}={token}"} if token else {}
        for payload in (b"\x00\xff" * 500, "not msgpack at all", b"\x93\x01\x02", b"\xc1" * 10_000):
            try:
                async with websockets.connect(url, open_timeout=10, max_size=None, additional_headers=headers) as ws:
                    await ws.send(payload)
                    await asyncio.sleep(0.2)
            except Exception:  # the server may close such a socket: that is fine
                pass

    sender = threading.Thread(target=asyncio.run, args=(garbage(),))
    sender.start()
    sender.join(timeout=60)


# The fallback fonts each page fetched and received (page -> {"asked": n, "in": n}): counted from
# its first request, as the engine fetches a script's font only once it lays out a text in it.
_FONTS: dict[int, dict[str, int]] = {}


def _count_fonts(page: "Page") -> None:
    fonts = _FONTS[id(page)] = {"asked": 0, "in": 0}
    page.on("request", lambda r: "/assets/fonts/" in r.url and fonts.update(asked=fonts["asked"] + 1))
    for done in ("requestfinished", "requestfailed"):
        page.on(done, lambda r: "/assets/fonts/" in r.url and fonts.update({"in": fonts["in"] + 1}))
    page.on("close", lambda _page: _FONTS.pop(id(page), None))


def wait_for_fonts(page: "Page", timeout: float = 10_000) -> None:
    """Until every font the page asked for is in and the screen is painted again with it. Japanese
    is first laid out without its glyphs and moves when they come: the Panda Royale pad's dice
    went 40 px down 0.5-1.4 s after its words were on screen, and a tap aimed before that hit
    the gap above them (lost, 4 first taps in 70)."""
    fonts = _FONTS[id(page)]
    deadline = time.monotonic() + timeout / 1000
    wait_for_paint(page)  # the frame that lays the words out asks for their fonts
    while fonts["in"] < fonts["asked"]:
        assert time.monotonic() < deadline, f"fonts still loading after {timeout} ms: {fonts}"
        page.wait_for_timeout(50)
    wait_for_paint(page)


def wait_for_text(page: "Page", text: str, timeout: float = 10_000) -> None:
    """Wait until an element whose whole text is `text` is visible in the semantics tree."""
    page.get_by_text(text, exact=True).first.wait_for(state="visible", timeout=timeout)


def swipe(page: "Page", dy: float, touch: bool = False) -> None:
    """Move the screen's content up by dy px: the mouse wheel, in a phone's page too, or with
    touch=True a finger's drag (a touch scroll gesture, held still at the end so it does not
    fling on). The wheel is the default because after a drag the fresh-clone run lost a tap on
    Panda Royale in 2 runs of 2, rounds later, and waiting for a still screen did not cure it."""
    view = page.viewport_size
    if not touch:
        page.mouse.wheel(0, dy)
        return
    # Start the drag where the finger has room to travel and above a pad's bar of buttons at
    # the foot of the screen (a drag that starts on it scrolls nothing).
    dy = max(-view["height"] * 0.45, min(view["height"] * 0.45, dy))
    y = view["height"] * (0.6 if dy > 0 else 0.3)
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.synthesizeScrollGesture", {"x": view["width"] / 2, "y": y, "yDistance": -dy,
                                                    "gestureSourceType": "touch", "speed": 1600})
    finally:
        cdp.detach()
    # Until the screen is still: Flutter takes a tap on a list still gliding as "stop there".
    wait_for_paint(page)


# The share of the screen's height at its foot that scrolled_to keeps a control out of.
FOOT = 0.15

# Two frames of the page, awaited in it: the wheel's event has been handled when mouse.wheel returns
# (Flutter moves the list at once and asks for a frame), and the frame that draws the list where it
# moved, its accessibility tree with it, runs before the second of them.
TWO_FRAMES = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def scrolled_to(page: "Page", locator: "Locator", top: float = 64, tries: int = 12,
                bottom: float = 0) -> "Locator":
    """Scroll the screen under the pointer until the control is wholly in view (below an app
    bar `top` px high), and return it, for a tap that lands where the control is.

    The app is one Flutter canvas: Playwright's own scroll-into-view moves only the
    accessibility tree, Flutter follows a moment later, and a click in that moment lands on
    whatever was there (a "Resume" card instead of a game's tile). A control Flutter has not
    built yet (far below) is not in the tree: the screen is scrolled down until it is.
    `bottom`: the height of a bar that stays at the foot of the screen (a pad's next step).
    """
    view = page.viewport_size
    page.mouse.move(view["width"] / 2, view["height"] / 2)
    # Flutter clips a control's box at the edge of the list, so a control half under the
    # screen's foot looks whole but a few px high; and a snack bar ("Saved: …") covers the
    # foot for seconds. So the foot of the screen does not count as in view: CI's tap on
    # Settings' "Target 50" landed there (a box 7 px high at y 896 of 915) and did nothing.
    foot = max(bottom, view["height"] * FOOT)
    for _ in range(tries):
        box = locator.bounding_box() if locator.count() else None
        if box and top <= box["y"] and box["y"] + box["height"] <= view["height"] - foot:
            return locator
        swipe(page, box["y"] - view["height"] / 2 if box else view["height"] / 2)
        # The frame the wheel asked for first: on a loaded machine it can come later than the half
        # second below, and the screen is then taken to be at its foot (most likely why a tap on a
        # tile far down the home did nothing in a fresh-clone run with three workers).
        page.evaluate(TWO_FRAMES)
        for _ in range(20):  # until the accessibility tree has followed the scroll
            page.wait_for_timeout(25)
            if (locator.bounding_box() if locator.count() else None) != box:
                break
        else:
            return locator  # as far as the screen scrolls
    return locator


def start_the_game(page: "Page", shows: str) -> None:
    """Tap "Start the game" on the new-game screen and wait until the pad, which shows the text
    `shows`, is on screen: in the accessibility tree and painted, animations settled. A tap in
    the pad's first frames was lost once on CI (Ur, "Hal won" never took), never here."""
    page.get_by_role("button", name="Start the game", exact=True).click()
    wait_for_text(page, shows)
    wait_for_paint(page)


# How long type_names waits for the name field to have the focus back before it takes it itself.
FOCUS_BACK_MS = 3_000


def type_names(page: "Page", names: Sequence[str], limits: str, seated: int = 0) -> int:
    """Seat players on the new-game screen by typing each name and Enter, as a person does;
    returns how many times the field came back focused by itself.

    Enter takes the focus off the field; the app clears it and gives the focus back a moment
    after the seat shows. A name typed in that moment is lost (the clear lands on it), so after
    each name this waits for the field to be focused and empty again (unless the table is full).
    `limits` is the count's tail: "2–4" waits for "1 of 2–4", "2 of 2–4", ... counting on from
    the `seated` already there.

    Now and then Flutter on the web does not really give the focus back: for Flutter and for the
    app the field has it, but the browser's focus sits on Flutter's page element, the seated name
    stays in the field's DOM input, and typing (keys or a tap and typing) reaches nobody. Measured
    here: about 1 in 50 first names typed into a new-game screen that had just opened in
    landscape, never seen in a probe that waited 1 s first. The app cannot see it (it is told
    the field is focused). A person then taps beside the field and on it again, which gives it a
    working focus; so does this (take_the_field). test_browser_shell checks that the focus
    comes back by itself as a rule.
    """
    from playwright.sync_api import expect

    box = page.get_by_role("textbox", name="Player name")
    by_itself = 0
    with watched_for_hangs(page):
        for k, name in enumerate(names, start=seated + 1):
            box.fill(name)
            box.press("Enter")
            wait_for_text(page, f"{k} of {limits}")
            if box.is_enabled():
                by_itself += field_back(page, box)
                expect(box).to_have_value("")
    return by_itself


def field_back(page: "Page", box: "Locator") -> bool:
    """Wait for the app to give a text field the focus back (True); if Flutter kept it for
    itself (see type_names), take the field as a person would (False)."""
    from playwright.sync_api import expect

    try:
        expect(box).to_be_focused(timeout=FOCUS_BACK_MS)
        return True
    except AssertionError:
        take_the_field(page, box)
        return False


def take_the_field(page: "Page", box: "Locator") -> None:
    """Tap beside a text field that takes no typing (an empty spot of the app bar: Flutter lets go
    of the field), then tap the field again, as a person would (see type_names)."""
    from playwright.sync_api import expect

    view = page.viewport_size
    page.mouse.click(view["width"] * 0.75, 32)
    page.wait_for_timeout(200)
    box.click()
    expect(box).to_be_focused()


def semantics_texts(page: "Page") -> list[str]:
    """Every text the accessibility tree shows, in document order (for asserts and debugging)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('flt-semantics'))
            .map(n => n.getAttribute('aria-label') ||
                 Array.from(n.childNodes).filter(c => c.nodeType === 3 || c.tagName === 'SPAN')
                      .map(c => c.textContent).join('').trim())
            .filter(t => t)"""
    )


def resized(page: "Page", width: int, height: int) -> None:
    """Turn the phone (or change its window) to width x height and wait until Flutter has laid the
    app out again for it: its accessibility tree's root spans the new size, and that is painted."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        """([w, h]) => { const root = document.querySelector('flt-semantics-host flt-semantics');
            if (!root) return false; const r = root.getBoundingClientRect();
            return Math.abs(r.width - w) < 1 && Math.abs(r.height - h) < 1; }""",
        arg=[width, height], polling=25)
    wait_for_paint(page)


def not_working(page: "Page", timeout: float = 10_000) -> None:
    """Wait until Flet's "Working..." spinner is gone. Just after a start it can still cover
    the home for a moment after the home's texts are in the tree (seen with a stored dark
    theme: the test's shot caught the light spinner, 0.5 s later the home was dark)."""
    from playwright.sync_api import expect

    expect(page.get_by_text("Working...", exact=True)).to_have_count(0, timeout=timeout)


def screenshot(page: "Page", name: str, settle: bool = True) -> Path:
    """Save a PNG of what a person sees to artifacts/<name>.png and return its path.

    settle: first wait_for_paint(), since the canvas lags the semantics tree that
    wait_for_text() watches; without it the shot can show the previous state."""
    if settle:
        not_working(page)
        wait_for_paint(page)
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS_DIR / (name if name.endswith(".png") else f"{name}.png")
    page.screenshot(path=str(path))
    return path
