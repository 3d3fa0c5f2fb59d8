"""Store benchmarks (issue #3). One command: `python bench/bench_store.py` (a few minutes).

- save of the game in progress (a 10-player game, 1,500 taps: every die of ten rounds then
  corrections, so the last saves carry the largest undo history) with 10, 1,000 and 10,000
  finished games stored: p50 / p95, goal p95 <= 15 ms and 10,000 / 10 ratio <= 1.5;
- the newest 50 games of a 10,000-game history for the history screen: goal <= 150 ms;
- `python main.py import` of a 10,000-game export: goal <= 60 s, and its peak memory.
"""
from __future__ import annotations

import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage import Store, samples  # noqa: E402

HISTORY = 10_000
TAPS = 1_500
SEED = 2026


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def export_file(folder: Path, games: list[dict]) -> Path:
    path = folder / f"export-{len(games)}.json"
    path.write_text(json.dumps({"format": "pandapad/export", "version": 1,
                                "exported": "2026-11-22T21:00:00Z", "games": games}))
    return path


# Run from a small wrapper process: a child forked from this benchmark (which holds 10,000
# generated games) would inherit its memory, and max RSS would count it.
WRAPPER = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
           "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
           "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode); "
           "print(r.stdout.strip()); print(r.stderr.strip())")


def timed_import(file: Path, data_dir: Path) -> tuple[float, int]:
    """Wall seconds and peak resident memory (bytes) of `main.py import` in its own process."""
    run = subprocess.run([sys.executable, "-c", WRAPPER, sys.executable, str(ROOT / "main.py"), "import",
                          str(file), "--data-dir", str(data_dir)], capture_output=True, text=True)
    figures, out, err = (run.stdout.split("\n") + ["", ""])[:3]
    seconds, maxrss, status = figures.split()
    if status != "0":
        raise SystemExit(f"import failed: {err}")
    print(f"    {out}")
    return float(seconds), int(maxrss) * 1024  # Linux reports KiB


def bench_saves(data_dir: Path) -> list[float]:
    """Seconds per save of one game in progress, tap by tap."""
    rng = random.Random(SEED)
    with Store.open(data_dir) as store:
        record = samples.new_game(rng, "in-progress", "2026-11-22T19:00:00Z", players=10)
        saved = store.save(record, None)
        times = []
        for i in range(TAPS):
            after = samples.tap(record, rng)
            record = samples.correct(record, rng) if after.finished else after
            start = time.perf_counter()
            saved = store.save(record, saved.revision)
            times.append(time.perf_counter() - start)
        assert saved.revision == TAPS + 1 and record.finished is None
        size = sum(p.stat().st_size for p in (data_dir / "active").iterdir())
    print(f"    game file after {TAPS:,} taps: {size / 1024:.0f} KiB (record + every earlier version as diffs)")
    return times


def main() -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pandapad-bench-") as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        games = [g.to_json() for g in samples.history(SEED, HISTORY)]
        print(f"generated {HISTORY:,} finished Panda Royale games in {time.perf_counter() - t:.1f} s "
              f"(seed {SEED}, 2-10 players, ten rounds)")
        exports = {n: export_file(tmp, games[:n]) for n in (10, 1_000, HISTORY)}
        del games
        gc.collect()

        print(f"\n== import of a {HISTORY:,}-game export (python main.py import)")
        print(f"    export file: {exports[HISTORY].stat().st_size / 1e6:.1f} MB")
        seconds, peak = timed_import(exports[HISTORY], tmp / f"store-{HISTORY}")
        print(f"    import: {seconds:.1f} s (goal <= 60 s)   peak memory (max RSS of the process): "
              f"{peak / 2**20:.0f} MiB")
        on_disk = sum(p.stat().st_size for p in (tmp / f"store-{HISTORY}").glob("*.json"))
        print(f"    store on disk: {on_disk / 1e6:.1f} MB in "
              f"{len(list((tmp / f'store-{HISTORY}').glob('history-*.json')))} history files")

        print(f"\n== the newest 50 games of {HISTORY:,} for the history screen")
        for label in ("first open (copies every file into the first backup)", "next open"):
            os.sync()
            t = time.perf_counter()
            store = Store.open(tmp / f"store-{HISTORY}")
            opened = time.perf_counter() - t
            t = time.perf_counter()
            first = store.recent(50)
            first_call = time.perf_counter() - t
            store.close()
            print(f"    {label}: Store.open {opened * 1000:.0f} ms, then recent(50) {first_call * 1000:.1f} ms")
        store = Store.open(tmp / f"store-{HISTORY}")
        calls = []
        for _ in range(20):
            t = time.perf_counter()
            newest = store.recent(50)
            calls.append(time.perf_counter() - t)
        store.close()
        assert len(newest) == 50 and newest[0].created >= newest[-1].created
        print(f"    recent(50) on an open store: median {statistics.median(calls) * 1000:.1f} ms, "
              f"max {max(calls) * 1000:.1f} ms (goal <= 150 ms)")
        t = time.perf_counter()
        listed = subprocess.run([sys.executable, str(ROOT / "main.py"), "list", "--data-dir",
                                 str(tmp / f"store-{HISTORY}")], capture_output=True, text=True)
        print(f"    python main.py list ({len(listed.stdout.splitlines()):,} lines, whole process): "
              f"{time.perf_counter() - t:.2f} s")

        print(f"\n== save of the game in progress ({TAPS:,} taps of a 10-player game)")
        results = {}
        for count in (10, 1_000, HISTORY):
            folder = tmp / f"store-{count}"
            if count != HISTORY:
                timed_import(exports[count], folder)
            os.sync()  # the set-up's writes must not be flushed by the first timed fsync
            times = bench_saves(folder)
            p50, p95 = percentile(times, 50) * 1000, percentile(times, 95) * 1000
            last = percentile(times[-100:], 95) * 1000
            results[count] = p95
            print(f"    {count:>6,} finished games stored: p50 {p50:.2f} ms  p95 {p95:.2f} ms  "
                  f"(p95 of the last 100 taps {last:.2f} ms)  max {max(times) * 1000:.1f} ms")
        print(f"    p95 ratio {HISTORY:,} / 10: {results[HISTORY] / results[10]:.2f} (goal <= 1.5); "
              f"goal p95 <= 15 ms")
    print(f"\nbench_store: {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
