"""Crash test: a child process saving a game tap by tap is killed with SIGKILL at random
moments, 200 times (two stores, 100 kills each, at the same time); after each kill the store
opens clean and holds the last save that the child reported done (or the one it was making
when it died), undo history included."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from storage import Store, samples
from storage.areas import HISTORY_KEEP
from storage.atomic import TEMP_RE
from tests.forking import FORKING

ROOT = Path(__file__).resolve().parents[1]
KILLS = 200
STORES = 2  # killed at the same time, each by a chain of its own

# The child saving taps, forked for each run from one process per store that imported Python's
# store code once: a run's Python start and imports (0.2 s of a core, half of this test's 200 runs'
# time, #70) are not what is killed. The fork server answers "child PID" when the child is off,
# and "ended CODE" once the child it is asked about has died; the child's lines come down the same
# pipe in between, and "stopped" if it failed (its traceback in the server's errors).
FORK_SERVER = textwrap.dedent("""
    import json, os, random, sys, traceback
    sys.path.insert(0, sys.argv[1])
    from pathlib import Path
    from storage import Store, samples

    def say(*words):  # one write, so never half a line: the child and its server share the pipe
        os.write(1, (" ".join(map(str, words)) + "\\n").encode())

    def child(data, run):
        rng = random.Random(run)
        store = Store.open(data)
        live = store.in_progress()
        if live:
            saved = store.load(live[0].id)
        else:
            saved = store.save(samples.new_game(rng, f"game-{run}", f"2026-01-01T{run % 24:02d}:00:00Z", players=2), None)
        say("saved", saved.record.id, saved.revision, samples.taps(saved.record))
        k = 0
        while True:
            if saved.record.finished:  # the game moved to the history: start the next one
                k += 1
                record = samples.new_game(rng, f"game-{run}-{k}", "2026-01-02T00:00:00Z", players=2)
                saved = store.save(record, None)
            elif saved.can_undo and rng.random() < 0.05:
                saved = store.undo(saved.record.id, saved.revision)
            elif saved.can_redo and rng.random() < 0.5:
                saved = store.redo(saved.record.id, saved.revision)
            else:
                saved = store.save(samples.tap(saved.record, rng), saved.revision)
            say("saved", saved.record.id, saved.revision, samples.taps(saved.record))

    for line in sys.stdin:
        ask = json.loads(line)
        if ask[0] == "start":
            pid = os.fork()
            if pid == 0:
                try:
                    child(Path(ask[1]), ask[2])
                except BaseException:
                    traceback.print_exc()
                    say("stopped")  # the test stops waiting for its lines
                finally:
                    os._exit(1)  # never back into this loop
            say("child", pid)
        else:
            _, status = os.waitpid(ask[1], 0)
            say("ended", os.waitstatus_to_exitcode(status))
""")


class ForkServer:
    """One store's fork server (FORK_SERVER), its errors kept in a file."""

    def __init__(self, script: Path, errors: Path):
        self.errors = errors
        with FORKING, errors.open("w") as err:
            self.proc = subprocess.Popen([sys.executable, str(script), str(ROOT)], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, text=True)

    def ask(self, *words) -> None:
        self.proc.stdin.write(json.dumps(words) + "\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        line = self.proc.stdout.readline()
        assert line, "the fork server died: " + self.errors.read_text()[-2000:]
        return line

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()


def kill_at_random(server: ForkServer, data: Path, run: int, rng: random.Random) -> list[str]:
    """Start a child, SIGKILL it at a random moment; the 'saved' lines it printed."""
    server.ask("start", str(data), run)
    lines, pid = [], None
    while pid is None:  # the child may print before its server says it is off
        line = server.line()
        if line.startswith("child "):
            pid = int(line.split()[1])
        else:
            lines.append(line)
    if rng.random() < 0.15:  # sometimes while it starts: opening, sweeping, backing up (a forked
        time.sleep(rng.uniform(0.0, 0.01))  # child opens its store and loads its game in ~4 ms here)
    elif "stopped\n" not in lines:  # a child that failed at once says so before its server's "child"
        for _ in range(rng.randint(1, 60) - len(lines)):
            lines.append(server.line())
            if lines[-1] == "stopped\n":
                break
        time.sleep(rng.uniform(0.0, 0.003))  # land anywhere inside the next save
    os.kill(pid, signal.SIGKILL)
    server.ask("wait", pid)
    while not (line := server.line()).startswith("ended "):
        lines.append(line)  # what it printed before it died
    assert int(line.split()[1]) == -signal.SIGKILL, server.errors.read_text()[-2000:]
    return [line.split() for line in lines if line.startswith("saved ")]  # whole lines: one write each


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_a_reported_save(tmp_path):
    script = tmp_path / "fork_server.py"
    script.write_text(FORK_SERVER)
    # Two stores killed at the same time, KILLS / 2 kills each: the test waits on its children,
    # so two chains use both cores.
    chains = [(tmp_path / f"data-{c}", range(c, KILLS, STORES), random.Random(2026 + c)) for c in range(STORES)]
    with ThreadPoolExecutor(STORES) as pool:
        reported = list(pool.map(lambda chain: kill_again_and_again(script, *chain), chains))
    assert sum(saves for saves, _ in reported) > KILLS * 10  # the kills really landed among saves
    for (data, _, _), (_, last_reported) in zip(chains, reported):
        every_version_rebuilds(data, last_reported)


def kill_again_and_again(script: Path, data: Path, runs: range, rng: random.Random) -> tuple[int, list[str] | None]:
    """Kill a child saving into `data` once per run; after each kill the store holds the last
    save reported. (How many saves were reported, the last one.)"""
    reported_saves, last_reported = 0, None
    server = ForkServer(script, data.with_name(data.name + ".errors"))
    try:
        for run in runs:
            reported = kill_at_random(server, data, run, rng)
            reported_saves += len(reported)
            last_reported = reported[-1] if reported else last_reported
            with FORKING, Store.open(data) as store:
                assert store.notices == [], (run, store.notices)
                if reported:
                    _, game_id, revision, taps = reported[-1]
                    stored = store.load(game_id)
                    # the last save reported done, or the one under way when the kill came
                    assert stored.revision in (int(revision), int(revision) + 1), (run, reported[-1])
                    if stored.revision == int(revision):
                        assert samples.taps(stored.record) == int(taps)
                leftovers = [p for p in data.rglob(".*") if TEMP_RE.match(p.name)]
                assert leftovers == []
    finally:
        server.close()
    return reported_saves, last_reported


def every_version_rebuilds(data: Path, last_reported: list[str] | None) -> None:
    with Store.open(data) as store:  # every version of the games still rebuilds
        finished = [s.id for s in store.recent(1000)]
        assert len(finished) >= 1  # games finished along the way are in the history
        for summary in store.in_progress():  # the game the last child was playing
            saved = store.load(summary.id)
            taps, started = samples.taps(saved.record), saved.record
            steps = undo_all_the_way(store, saved)
            # each tap saved is one undo step, none lost and none extra, through all the kills,
            # and the first version is the empty game the child started in this store
            assert steps == taps, (summary.id, steps, taps)
            # no taps only when the last child had just started this game when it was killed
            assert taps > 0 or last_reported[1] == summary.id, (summary.id, last_reported)
            first = store.load(summary.id).record
            assert first.rounds == () and first.finished is None and samples.taps(first) == 0
            assert (first.id, first.created, first.players) == (started.id, started.created, started.players)
        for game_id in finished:  # a finished game keeps one step: taking back its finish
            saved = store.load(game_id)
            taps = samples.taps(saved.record)
            assert undo_all_the_way(store, saved) == HISTORY_KEEP == 1
            back = store.load(game_id).record
            assert back.finished is None and samples.taps(back) == taps - 1 and len(back.rounds) == 10


def undo_all_the_way(store: Store, saved) -> int:
    steps = 0
    while saved.can_undo:
        saved = store.undo(saved.record.id, saved.revision)
        steps += 1
    return steps
