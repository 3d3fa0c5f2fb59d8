"""Where a tap's time goes (#34), on the Panda Royale pad and on the bare counter side by side.

For each tap, from the finger's first input event (the page's clock):
- "click sent": Flet's client sends the click on the socket (the page's input handling and
  any frame it waits behind),
- "answer in": the first message of the server's answer arrives (the link and the server),
- "total in DOM": the new total is in the page (Flutter's build, layout and frame),
- "frames": how much of tap -> DOM the page's thread spent drawing frames (a Chromium trace);
- the server's CPU by part (py-spy, sampled while the pad is tapped): the store's save and its
  fsync, Flet's diff of the controls, encoding and sending, the app's own code.
The socket times come from a wrapper of the page's WebSocket, set before the app's scripts run.

Run: flock /tmp/pandapad-browser.lock .venv/bin/python bench/profile_tap.py [--taps 40] [--device phone]
(py-spy, pyproject's `profile` extra: `.venv/bin/pip install py-spy==0.4.3`; without it the
server's part is left out.)
"""
from __future__ import annotations

import argparse
import collections
import json
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root

from bench.bench_tap import DEVICES, seed_game  # noqa: E402
from bench.tap_latency import measure_tap_timings  # noqa: E402
from tests.browser_harness import chromium, flet_server, open_app_page, wait_for_text  # noqa: E402

SOCKET_TIMES = """(() => {
  const Native = window.WebSocket; window.__socketTimes = [];
  const send = Native.prototype.send;
  Native.prototype.send = function (data) { window.__socketTimes.push(["out", performance.now()]); return send.call(this, data); };
  window.WebSocket = function (url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("message", () => window.__socketTimes.push(["in", performance.now()]));
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) window.WebSocket[k] = Native[k];
})();"""

# The server's samples by the frame nearest the leaf that names a part (first rule that matches).
PARTS = [
    ("the store: fsync", "fsync"),
    ("the store: save (pydantic, json, files)", "storage/"),
    ("Flet: diff of the controls", "object_patch.py"),
    ("Flet: encode (msgpack)", "msgpack"),
    ("sending (websocket, socket writes)", "websockets/"),
    ("sending (websocket, socket writes)", "selector_events.py:10"),
    ("Flet: session, messages", "flet/messaging"),
    ("the rules (scoring/)", "scoring/"),
    ("the pad's handler (views/)", "views/"),
    ("Flet: controls", "flet/controls"),
    ("waiting (event loop, thread pool)", "concurrent/futures"),
    ("waiting (event loop, thread pool)", "asyncio/"),
    ("waiting (event loop, thread pool)", "selectors.py"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=40, help="measured taps on each app")
    parser.add_argument("--device", choices=list(DEVICES), default="phone")
    args = parser.parse_args(argv)
    args.taps += args.taps % 2  # the pad's taps come in pairs (add, take out)
    context, how = DEVICES[args.device]
    data_dir = Path(tempfile.mkdtemp(prefix="pandapad-profile-"))
    game_id, base = seed_game(data_dir)
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    with flet_server("bench/counter_app.py", port_arg="--port") as counter_server, \
            flet_server("main.py", args=["--data-dir", str(data_dir)], port_arg="--port") as app_server, \
            chromium() as browser, tempfile.TemporaryDirectory() as work:
        counter = open_app_page(browser, counter_server.url, init_script=SOCKET_TIMES, **context)
        wait_for_text(counter, "0")
        increment = counter.get_by_role("button", name="Increment")
        pad = open_app_page(browser, f"{app_server.url}game/{game_id}", init_script=SOCKET_TIMES, **context)
        wait_for_text(pad, f"Hand total {base}")
        getattr(pad.get_by_role("button", name="Green pad", exact=True), how)()
        green7 = pad.get_by_role("button", name="Green 7", exact=True)
        remove7 = pad.get_by_role("button", name="Remove Green 7", exact=True)
        count = {"n": 0}

        def tap_counter(i: int) -> None:
            getattr(increment, how)()

        def counter_shows(i: int) -> str:
            count["n"] += 1
            return str(count["n"])

        apps = {"counter": (counter, tap_counter, counter_shows),
                # Even taps add a green 7, odd ones take it out: the total flips base+7 / base.
                "Panda Royale pad": (pad, lambda i: getattr(green7 if i % 2 == 0 else remove7, how)(),
                                     lambda i: f"Hand total {base + 7 if i % 2 == 0 else base}")}
        for page, tap, shows in apps.values():
            taps(page, tap, shows, 6)  # warm-up
        sampler = None
        if spy:
            samples = Path(work) / "server.txt"
            sampler = subprocess.Popen([spy, "record", "--pid", str(app_server.pid), "--rate", "1000",
                                        "--format", "raw", "--nonblocking", "--output", str(samples)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.5)  # py-spy attached
        phases = {name: taps(page, tap, shows, args.taps) for name, (page, tap, shows) in apps.items()}
        if sampler is not None:
            sampler.send_signal(signal.SIGINT)
            sampler.wait(30)
        frames = {}
        for name, (page, tap, shows) in apps.items():
            trace = Path(work) / "trace.json"
            browser.start_tracing(page=page, path=str(trace), categories=["devtools.timeline"])
            timings = taps(page, tap, shows, min(args.taps, 20))
            browser.stop_tracing()
            frames[name] = frames_within(json.loads(trace.read_text()), timings)
        for page, _, _ in apps.values():
            page.context.close()
        server = server_parts(samples) if spy and samples.is_file() else None

    print(f"[{args.device}] a tap, from the first input event; medians of {args.taps} taps (frames: 20, traced)")
    print(f"{'':18}{'click sent':>12}{'answer in':>11}{'in DOM':>9}{'frames':>9}")
    for name, rows in phases.items():
        sent, answer, dom = (statistics.median(r[k] for r in rows if r[k] is not None) for k in range(3))
        print(f"{name:18}{sent:9.1f} ms{answer:8.1f} ms{dom:6.1f} ms{frames[name]:6.1f} ms")
        print(f"RESULT profile device={args.device} app={name.replace(' ', '_')} sent_ms={sent:.1f} "
              f"answer_ms={answer:.1f} dom_ms={dom:.1f} frames_ms={frames[name]:.1f}")
    if server is None:
        print("the server's parts: py-spy is not installed (see the module docstring)")
    else:
        total, parts = server
        # One sample a millisecond, while both apps were tapped: per tap of the pad.
        print(f"the server's samples (py-spy, 1 kHz), {total / args.taps:.1f} ms a tap of the pad, by part:")
        for part, n in parts.most_common():
            print(f"  {n / args.taps:5.2f} ms {100 * n / total:5.1f} %  {part}")
    return 0


def taps(page, tap, shows, n: int) -> list[tuple[float | None, float | None, float]]:
    """(click sent, first answer in, total in DOM) of n taps, ms from each tap's first input."""
    rows = []
    for i in range(n):
        page.evaluate("window.__socketTimes = []")
        timing = measure_tap_timings(page, lambda _: tap(i), lambda _: shows(i), n=1)[0]
        t0 = page.evaluate("window.__ppProbe.tap.t0")
        times = page.evaluate("window.__socketTimes")
        sent = next((t for kind, t in times if kind == "out" and t >= t0), None)
        answer = next((t for kind, t in times if kind == "in" and sent is not None and t >= sent), None)
        rows.append((None if sent is None else sent - t0, None if answer is None else answer - t0, timing.dom_ms))
    return rows


def frames_within(trace: dict | list, timings: list) -> float:
    """Median ms the tapped page's thread spent in frames between each tap and its DOM."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    downs = [e for e in events if e.get("name") == "EventDispatch"
             and e.get("args", {}).get("data", {}).get("type") == "pointerdown"]
    thread = collections.Counter((e["pid"], e["tid"]) for e in downs).most_common(1)[0][0]
    starts = sorted(e["ts"] for e in downs if (e["pid"], e["tid"]) == thread)
    frames = [e for e in events if (e["pid"], e["tid"]) == thread and e.get("name") == "FireAnimationFrame"
              and "dur" in e]
    spent = []
    for t0, (_, _, dom) in zip(starts, timings):
        t1 = t0 + dom * 1000
        spent.append(sum(max(0, min(f["ts"] + f["dur"], t1) - max(f["ts"], t0)) for f in frames) / 1000)
    return statistics.median(spent)


def server_parts(samples: Path) -> tuple[int, collections.Counter]:
    total, parts = 0, collections.Counter()
    for line in samples.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        total += int(n)
        for frame in reversed(stack.split(";")):
            part = next((name for name, key in PARTS if key in frame), None)
            if part:
                parts[part] += int(n)
                break
        else:
            parts["other"] += int(n)
    return total, parts


if __name__ == "__main__":
    sys.exit(main())
