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


def saver(data_dir: Path) -> None:
    """Child process: play one 10-player game in the store at data_dir, one save per line of
    standard input, printing how long each save took (its own process, so the memory of the
    other stores and of this benchmark is not walked by its garbage collector)."""
    rng = random.Random(SEED)
    record = samples.new_game(rng, "in-progress", "2026-11-22T19:00:00Z", players=10)
    records = []
    for _ in range(TAPS):  # every die of ten rounds, then corrections: never finished
        after = samples.tap(record, rng)
        record = samples.correct(record, rng) if after.finished else after
        records.append(record)
    with Store.open(data_dir) as store:
        saved = store.save(samples.new_game(random.Random(SEED), "in-progress", "2026-11-22T19:00:00Z",
                                            players=10), None)
        print("ready", flush=True)
        for record in records:
            sys.stdin.readline()
            start = time.perf_counter()
            saved = store.save(record, saved.revision)
            print(time.perf_counter() - start, flush=True)
        assert saved.revision == TAPS + 1
    size = sum(p.stat().st_size for p in (data_dir / "active").iterdir())
    print(f"{size}", flush=True)


def bench_saves(folders: dict[int, Path]) -> dict[int, list[float]]:
    """Seconds per save in each store, the stores taking turns tap by tap so that whatever
    else the machine is doing weighs on all of them alike."""
    children = {n: subprocess.Popen([sys.executable, __file__, "--saver", str(folder)], text=True,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                for n, folder in folders.items()}
    for child in children.values():
        assert child.stdout.readline().strip() == "ready"
    times: dict[int, list[float]] = {n: [] for n in folders}
    for _ in range(TAPS):
        for n, child in children.items():
            child.stdin.write("go\n")
            child.stdin.flush()
            times[n].append(float(child.stdout.readline()))
    for child in children.values():
        size = int(child.stdout.readline())
        child.stdin.close()
        child.wait()
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
        for label, runs in (("first open (copies every file into the first backup)", 1), ("next opens", 5)):
            opens, firsts = [], []
            for _ in range(runs):
                os.sync()
                t = time.perf_counter()
                store = Store.open(tmp / f"store-{HISTORY}")
                opens.append(time.perf_counter() - t)
                t = time.perf_counter()
                store.recent(50)
                firsts.append(time.perf_counter() - t)
                store.close()
            print(f"    {label}: Store.open {statistics.median(opens) * 1000:.0f} ms, then recent(50) "
                  f"{statistics.median(firsts) * 1000:.1f} ms" + (" (medians of 5)" if runs > 1 else ""))
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
        folders = {n: tmp / f"store-{n}" for n in (10, 1_000, HISTORY)}
        for n in (10, 1_000):
            timed_import(exports[n], folders[n])
        os.sync()  # the set-up's writes must not be flushed by the first timed fsync
        times = bench_saves(folders)
        for n, values in times.items():
            p50, p95 = percentile(values, 50) * 1000, percentile(values, 95) * 1000
            last = percentile(values[-100:], 95) * 1000
            print(f"    {n:>6,} finished games stored: p50 {p50:.2f} ms  p95 {p95:.2f} ms  "
                  f"(p95 of the last 100 taps {last:.2f} ms)  max {max(values) * 1000:.1f} ms")
        ratio = percentile(times[HISTORY], 95) / percentile(times[10], 95)
        print(f"    p95 ratio {HISTORY:,} / 10: {ratio:.2f} (goal <= 1.5); goal p95 <= 15 ms")
    print(f"\nbench_store: {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--saver"]:
        saver(Path(sys.argv[2]))
    else:
        sys.exit(main())
