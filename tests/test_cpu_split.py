"""bench/cpu_split.py's thread-by-thread reading (bench_phone_table.py prints the host's browser
so): a thread's CPU between two readings is its own, under its process's label and its name."""
from __future__ import annotations

import subprocess
import sys

from bench import cpu_split

# A second thread spins 0.4 s of CPU, says so and sleeps (a thread that ended is no longer read).
BUSY = """import threading, time
def spin():
    end = time.thread_time() + 0.4
    while time.thread_time() < end:
        pass
    print("spun", flush=True)
    time.sleep(30)
input()
threading.Thread(target=spin, daemon=True).start(); time.sleep(30)"""


def test_a_busy_thread_is_read_with_its_cpu_and_a_sleeping_process_with_none():
    busy = subprocess.Popen([sys.executable, "-c", BUSY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        label = {busy.pid: "busy", idle.pid: "idle"}
        before = cpu_split.threads_of(list(label))
        busy.stdin.write("go\n")
        busy.stdin.flush()
        assert busy.stdout.readline() == "spun\n"
        spent = cpu_split.threads_between(before, cpu_split.threads_of(list(label)), label)
        parts = {key: float(seconds) for key, seconds, _s in (part.rsplit(" ", 2) for part in spent.split(", "))}
        assert [key.split("/")[0] for key in parts] == ["busy"]  # the sleeping one under 0.02 s: left out
        assert 0.35 <= sum(parts.values()) < 1.0
    finally:
        busy.kill()
        idle.kill()
