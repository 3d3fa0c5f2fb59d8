"""Where a page's time goes: a Chromium trace (Playwright's start_tracing with CATEGORIES: V8's
sampling profiler on every thread) summed by thread and by function, self time, and its animation
frames. bench_phone_table.py --trace takes one of the host's page while the guests tap; this reads it.

Run: .venv/bin/python bench/trace_top.py TRACE.json [--top 25]
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

# What the page's tracing asks for: the timeline's events and V8's CPU samples on every thread (the
# page's main thread and its workers: the app's Python runs in one, web/python-worker.js).
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute",
              "disabled-by-default-v8.cpu_profiler"]


def events_of(trace: dict | list) -> list[dict]:
    """A trace's events, as Playwright's start_tracing writes it (an object) or as a bare list."""
    return trace["traceEvents"] if isinstance(trace, dict) else trace


def self_times(events: list[dict]) -> dict[str, dict[str, float]]:
    """thread name -> function ("name (file)") -> self time in ms, from the profiler's samples."""
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    owner: dict[str, str] = {}  # profile id -> its thread
    for e in events:
        if e.get("name") == "Profile":
            owner[e["id"]] = threads.get((e["pid"], e["tid"]), f"thread {e['tid']}")
    nodes: dict[str, dict[int, str]] = defaultdict(dict)
    spent: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for e in events:
        if e.get("name") != "ProfileChunk":
            continue
        data = e["args"]["data"]
        profile = data.get("cpuProfile", {})
        for node in profile.get("nodes", []):
            frame = node["callFrame"]
            where = (frame.get("url") or "").rsplit("/", 1)[-1]
            nodes[e["id"]][node["id"]] = f"{frame.get('functionName') or '(anonymous)'}" + (f" ({where})" if where else "")
        thread = owner.get(e["id"], f"profile {e['id']}")
        for sample, delta in zip(profile.get("samples", []), data.get("timeDeltas", [])):
            spent[thread][nodes[e["id"]].get(sample, "?")] += delta / 1000
    return spent


def frames(events: list[dict]) -> tuple[int, float]:
    """The page's animation frames (Flutter draws in them): how many, and their time in ms."""
    durations = [e.get("dur", 0) / 1000 for e in events if e.get("name") == "FireAnimationFrame" and e.get("ph") == "X"]
    return len(durations), sum(durations)


def report(events: list[dict], top: int = 25) -> str:
    count, ms = frames(events)
    lines = [f"animation frames: {count}, {ms:.0f} ms in all ({ms / max(count, 1):.0f} ms each)"]
    for thread, functions in sorted(self_times(events).items(), key=lambda kv: -sum(kv[1].values())):
        total = sum(functions.values())
        busy = total - functions.get("(idle)", 0)
        lines.append(f"{thread}: {total:.0f} ms sampled, {busy:.0f} ms busy")
        for name, ms in sorted(functions.items(), key=lambda kv: -kv[1])[:top]:
            share = "       " if name == "(idle)" else f"{ms / max(busy, 1) * 100:5.1f} %"
            lines.append(f"  {ms:8.1f} ms  {share}  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(report(events_of(json.loads(args.trace.read_text())), args.top))


if __name__ == "__main__":
    main()
