"""Tap-to-visible latency of a Flet web app, timed inside the browser.

    from bench.tap_latency import measure_tap_latency
    button = page.get_by_role("button", name="Increment")
    ms = measure_tap_latency(page, lambda i: button.click(), lambda i: str(i + 1), n=100)

For each tap i: arm the probe with the text read_value(i) that must appear, call click(i),
and wait in the browser. Both ends are timestamps on the page's own clock (performance.now):
the start is the tap's first input event (pointerdown, else mousedown/touchstart/keydown/click:
event.timeStamp), the end is the MutationObserver callback in which one more element of
Flutter's semantics tree reads exactly read_value(i) than before the tap (exact text or
aria-label). Playwright's own overhead (actionability checks, round trips) is not counted.

The DOM is updated in the frame that draws the change, but the canvas shows it only when the
raster worker returns that frame (see FRAME_PROBE_JS in tests/browser_harness.py):
measure_tap_timings() also reports that moment as paint_ms. On this machine rasterising is
software GL (swiftshader), so paint_ms says more about this box than about a phone; dom_ms
(what measure_tap_latency returns) is the server round trip plus Flutter's frame.

The page must come from tests.browser_harness.open_app_page (or have had install_frame_probe).
"""

from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root, when run as a script

from tests.browser_harness import install_frame_probe  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

_TAP_PROBE_JS = """
(expected) => {
  const p = window.__ppProbe;
  const host = () => document.querySelector("flt-semantics-host");
  const count = text => {
    const root = host();
    if (!root) return 0;
    let n = 0;
    for (const el of root.querySelectorAll("*")) {
      const label = el.getAttribute("aria-label");
      if (label !== null && label.trim() === text) { n++; continue; }
      let own = "";
      for (const c of el.childNodes) if (c.nodeType === 3) own += c.nodeValue;
      if (own.trim() === text) n++;
    }
    return n;
  };
  if (!p.tapInstalled) {
    p.tapInstalled = true;
    const onInput = e => { const m = p.tap; if (m && m.t0 === null) m.t0 = e.timeStamp; };
    for (const type of ["pointerdown", "mousedown", "touchstart", "keydown", "click"])
      window.addEventListener(type, onInput, true);
    p.mutationHooks.push(t => {
      const m = p.tap;
      if (!m || m.t0 === null || m.tDom !== null) return;
      if (count(m.expected) <= m.baseline) return;
      m.tDom = t; m.frameSeq = p.mutationFrameSeq;
      if (!(p.hooked === "skwasm" && p.submitSeq > 0)) {  // painted on the page's thread: next frame
        requestAnimationFrame(() => requestAnimationFrame(() => {
          m.tPaint = performance.now(); m.resolve();
        }));
      } else if (p.presentedSeq >= m.frameSeq) {
        m.tPaint = t; m.resolve();
      }
    });
    p.frameHooks.push(t => {
      const m = p.tap;
      if (!m || m.tDom === null || m.tPaint !== null || p.presentedSeq < m.frameSeq) return;
      m.tPaint = t; m.resolve();
    });
  }
  const m = {expected, t0: null, tDom: null, tPaint: null, frameSeq: 0, baseline: count(expected)};
  m.done = new Promise(resolve => { m.resolve = resolve; });
  p.tap = m;
  return m.baseline;
}
"""

_WAIT_JS = """
async (timeoutMs) => {
  const m = window.__ppProbe.tap;
  const timer = new Promise(resolve => setTimeout(resolve, timeoutMs));
  await Promise.race([m.done, timer]);
  return {t0: m.t0, tDom: m.tDom, tPaint: m.tPaint};
}
"""


@dataclass(frozen=True)
class TapTiming:
    """One tap, in milliseconds from its first input event."""

    dom_ms: float  # the expected text is in the semantics tree (what tests read)
    paint_ms: float | None  # the frame with it was handed to the screen (None: not seen in time)
    at: float = 0.0  # the first input event, on the page's clock (performance.now, ms)


def measure_tap_timings(
    page: "Page",
    click: Callable[[int], object],
    read_value: Callable[[int], str],
    n: int = 100,
    *,
    timeout_ms: float = 10_000,
) -> list[TapTiming]:
    """Tap n times; click(i) performs tap i, read_value(i) is the text that must then appear.

    The text must be new: one more element has to show it after the tap than before.
    Raises TimeoutError (with the tap index) when it does not appear within timeout_ms.
    """
    if install_frame_probe(page) is None and not page.evaluate("!!window.__ppProbe"):
        raise RuntimeError("frame probe could not be installed")
    timings: list[TapTiming] = []
    for i in range(n):
        expected = str(read_value(i))
        page.evaluate(_TAP_PROBE_JS, expected)
        click(i)
        r = page.evaluate(_WAIT_JS, timeout_ms)
        if r["t0"] is None:
            raise RuntimeError(f"tap {i}: click({i}) produced no input event in the page")
        if r["tDom"] is None:
            raise TimeoutError(f"tap {i}: {expected!r} did not appear within {timeout_ms} ms")
        paint = None if r["tPaint"] is None else r["tPaint"] - r["t0"]
        timings.append(TapTiming(dom_ms=r["tDom"] - r["t0"], paint_ms=paint, at=r["t0"]))
    return timings


def measure_tap_latency(
    page: "Page",
    click: Callable[[int], object],
    read_value: Callable[[int], str],
    n: int = 100,
    *,
    timeout_ms: float = 10_000,
) -> list[float]:
    """Milliseconds from each tap's input event to its expected text being in the DOM."""
    return [t.dom_ms for t in measure_tap_timings(page, click, read_value, n, timeout_ms=timeout_ms)]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def summary(values: list[float]) -> str:
    return (
        f"n={len(values)} median={statistics.median(values):.1f} ms "
        f"p95={percentile(values, 95):.1f} ms min={min(values):.1f} max={max(values):.1f}"
    )
