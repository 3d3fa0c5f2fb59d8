"""Where a command's CPU goes (#70): runs it, and prints the CPU seconds of every process that ran
meanwhile, by kind (Chromium's GPU process, renderers, browser and utilities; Firefox; pytest and its
workers; other Python scripts), and the machine's idle share over the run. On 2 cores with both
busy the suite is as fast as its CPU seconds allow: this says whose seconds they are.

Processes are read from /proc every 0.25 s; one that lived less than that is missed, and one
that was running before the command counts only what it used since.

Run: .venv/bin/python bench/cpu_split.py [--top 15] -- COMMAND ...
     e.g. flock /tmp/pandapad-browser.lock .venv/bin/python bench/cpu_split.py -- \
          .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_browser_royal_ur.py
"""
from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def kind_of(pid: str) -> str | None:
    """A process's kind from its command line, None once it is gone."""
    try:
        args = [a.decode(errors="replace") for a in open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0") if a]
        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None
    if not args:
        return None
    if len(args) == 1:  # Chromium's children rewrite their title: one string, spaces between
        args = args[0].split(" ")
    name = os.path.basename(args[0])
    if "chrom" in exe:
        kind = next((a.split("=", 1)[1] for a in args if a.startswith("--type=")), "browser")
        if kind == "utility":
            kind = next((a.split("=", 1)[1] for a in args if a.startswith("--utility-sub-type=")), kind)
        return f"chromium {kind}"
    if "firefox" in name:
        return "firefox"
    if name.startswith("python"):
        line = " ".join(args[1:])
        if "pytest" in line or "execnet" in line or "sys.stdin.readline" in line:
            return "python: pytest and its workers"
        script = next((a for a in args[1:] if not a.startswith("-")), "")
        return f"python: {os.path.relpath(script) if script.startswith('/') else script}"[:70]
    return name


def _used(stat: str) -> float | None:
    """CPU seconds from a /proc stat file (a process's or a thread's): utime + stime, its own."""
    try:
        fields = open(stat).read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def cpu_seconds(pid: str) -> float | None:
    return _used(f"/proc/{pid}/stat")


def snapshot() -> dict[str, tuple[str, float]]:
    """Every process now: pid -> (its kind, its CPU seconds so far)."""
    now = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            kind, used = kind_of(pid), cpu_seconds(pid)
            if kind is not None and used is not None:
                now[pid] = (kind, used)
    return now


def spent_between(before: dict[str, tuple[str, float]], after: dict[str, tuple[str, float]]) -> str:
    """The CPU seconds each kind used from one snapshot to the next, as one line (a process that
    ended between them is missed)."""
    spent: collections.Counter[str] = collections.Counter()
    for pid, (kind, used) in after.items():
        spent[kind] += used - before.get(pid, (kind, 0.0))[1]
    return ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in spent.most_common() if seconds >= 0.05)


def threads_of(pids: list[int]) -> dict[tuple[int, str], float]:
    """Every thread of these processes now: (pid, thread name) -> its CPU seconds so far (threads of
    one name in one process summed: Chromium names its pools alike)."""
    now: collections.Counter[tuple[int, str]] = collections.Counter()
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            except OSError:
                continue
            used = _used(f"/proc/{pid}/task/{tid}/stat")
            if used is not None:
                now[(pid, name)] += used
    return dict(now)


def threads_between(before: dict[tuple[int, str], float], after: dict[tuple[int, str], float],
                    label: dict[int, str]) -> str:
    """The CPU seconds each thread (by its process's label and its name) used between two
    threads_of() readings, as one line, the most first."""
    spent: collections.Counter[str] = collections.Counter()
    for (pid, name), used in after.items():
        spent[f"{label.get(pid, pid)}/{name}"] += used - before.get((pid, name), 0.0)
    return ", ".join(f"{key} {seconds:.2f} s" for key, seconds in spent.most_common() if seconds >= 0.02)


def machine_ticks() -> tuple[int, int]:
    """(all ticks, idle ticks) of the whole machine so far."""
    values = [int(v) for v in open("/proc/stat").readline().split()[1:9]]
    return sum(values), values[3] + values[4]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command to run, after --")

    before = {pid: cpu_seconds(pid) or 0.0 for pid in os.listdir("/proc") if pid.isdigit()}
    last: dict[str, float] = {}
    kinds: dict[str, str] = {}
    me = str(os.getpid())
    total0, idle0 = machine_ticks()
    began = time.monotonic()
    child = subprocess.Popen(command)
    while True:
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or pid == me:
                continue
            if pid not in kinds:
                kind = kind_of(pid)
                if kind is None:
                    continue
                kinds[pid] = kind
            used = cpu_seconds(pid)
            if used is not None:
                last[pid] = used
        if child.poll() is not None:
            break
        time.sleep(0.25)
    wall = time.monotonic() - began
    total1, idle1 = machine_ticks()

    spent: collections.Counter[str] = collections.Counter()
    for pid, used in last.items():
        spent[kinds[pid]] += used - before.get(pid, 0.0)
    print(f"{' '.join(command)}: exit {child.returncode} after {wall:.1f} s; the machine idle "
          f"{100 * (idle1 - idle0) / max(total1 - total0, 1):.0f} % of it ({os.cpu_count()} cores)")
    print(f"CPU seconds by kind ({sum(spent.values()):.1f} s in all):")
    for kind, seconds in spent.most_common(args.top):
        if seconds >= 0.05:
            print(f"  {seconds:8.1f} s  {kind}")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
