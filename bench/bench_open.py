"""Open cost with 10 and 10,000 finished games (issue #12). `python bench/bench_open.py`.

Builds a store of 10 and one of 10,000 finished games, then times whole processes of
`python main.py import ONE_GAME.json --data-dir X` on each, alternating (so that whatever
else the machine does weighs on both alike), RUNS each: medians and the ratio, goal <= 1.2.
The first run on each store (which writes the stat cache) is a warm-up and not counted.
"""
from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage import Store, samples  # noqa: E402

SEED = 2026
SIZES = (10, 10_000)
RUNS = 7
GOAL = 1.2


def build(folder: Path, games: list[dict]) -> None:
    with Store.open(folder) as store:
        store.import_data({"format": "pandapad/export", "version": 1,
                           "exported": "2026-11-22T21:00:00Z", "games": games})


def timed_import(file: Path, data_dir: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one `main.py import` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, str(ROOT / "main.py"), "import", str(file), "--data-dir", str(data_dir)],
                         capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"import failed: {run.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="pandapad-bench-open-") as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        games = [g.to_json() for g in samples.history(SEED, max(SIZES) + 1)]
        one = tmp / "one-game.json"
        one.write_text(json.dumps(games[-1]))
        folders = {}
        for n in SIZES:
            folders[n] = tmp / f"store-{n}"
            build(folders[n], games[:n])
        del games
        print(f"built stores of {', '.join(f'{n:,}' for n in SIZES)} finished games in "
              f"{time.perf_counter() - t:.1f} s")
        for n in SIZES:  # warm-up: the first open after the build writes the stat cache
            timed_import(one, folders[n])
        times: dict[int, list[float]] = {n: [] for n in SIZES}
        cpu: dict[int, list[float]] = {n: [] for n in SIZES}
        for _ in range(RUNS):
            for n in SIZES:
                wall, used = timed_import(one, folders[n])
                times[n].append(wall)
                cpu[n].append(used)
        medians = {n: statistics.median(v) for n, v in times.items()}
        cpu_medians = {n: statistics.median(v) for n, v in cpu.items()}
        for n in SIZES:
            print(f"  main.py import of one game, {n:>6,} games stored: median {medians[n] * 1000:.0f} ms "
                  f"(runs: {', '.join(f'{s * 1000:.0f}' for s in times[n])}); CPU median {cpu_medians[n] * 1000:.0f} ms")
        ratio = medians[SIZES[-1]] / medians[SIZES[0]]
        cpu_ratio = cpu_medians[SIZES[-1]] / cpu_medians[SIZES[0]]
        ok = ratio <= GOAL
        print(f"RESULT open cost {SIZES[-1]:,} / {SIZES[0]:,} games: ratio {ratio:.2f} (goal <= {GOAL}) "
              f"{'PASS' if ok else 'FAIL'}; CPU-time ratio {cpu_ratio:.2f} (less sensitive to a loaded machine)")
        return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
