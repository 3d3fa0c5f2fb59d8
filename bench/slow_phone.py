"""A slow phone on this machine (#52): the browser's page and Python's worker held to half a core.

Chromium's Emulation.setCPUThrottlingRate slows only the page's main thread; Pyodide's worker,
where most of the phone build's opening happens, runs at full speed under it. Here the processes
that run the page (its main thread, Flutter's and Pyodide's workers) are held to a share of the
CPU by a cgroup v1 `cpu` group, as root:

    /sys/fs/cgroup/cpu/pandapad-slow-<pid>/  cpu.cfs_quota_us 10000 of cpu.cfs_period_us 20000

What is moved in: the browser's zygotes (`--type=zygote`) and its renderers (`--type=renderer`).
On Linux every renderer is forked by a zygote, and a forked process starts in its parent's
cgroup, so a renderer spawned later (a navigation to another site, a new page) lands in the
group too; `HalfCore.check` says whether each renderer seen is in it. Left outside: the browser
process, the GPU process (it rasters in software here, where a phone has a GPU; it is already
running when the zygotes are moved, so it stays outside), and the utility processes started
with the browser (the network and storage services: Cache Storage and IndexedDB run at full
speed, which a phone's would not).

Not in the group, because not started at all: desktop Chromium's omnibox popups, WebUI pages it
preloads in renderers of their own (tests/browser_harness.py CHROMIUM_ARGS turns them off). Held
with the page, they took 1-3 s of its half core at every opening (the home at half a core 9.2 s
with them, 7.1 s without, one profile, openings alternated); a phone's browser has none.

The group is removed at the end (its processes moved back to the root group first), on an
error, on Ctrl-C and on SIGTERM (`with HalfCore() as slow: ...`).

`LOOP_JS` is a plain JavaScript loop timed in the page: its time in a held page over its time in
a free one is the slowdown a figure was taken at.

`kept_for_next_opening` waits, as a person stays on the app after a first visit, until the phone
is set for its next opening: the benches that open the phone build share it.
"""
from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

CPU = Path("/sys/fs/cgroup/cpu")
QUOTA_US = 10_000
PERIOD_US = 20_000
HELD_TYPES = ("zygote", "renderer")
# A plain loop, timed in the page with its own clock (ms); about 0.15-0.2 s on this machine's core.
LOOP_JS = """() => { const t0 = performance.now(); let x = 0;
    for (let i = 0; i < 20000000; i++) x = (x * 31 + i) | 0;
    return [performance.now() - t0, x]; }"""


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    kind: str  # "browser", or the --type= of a child ("zygote", "renderer", "gpu-process", "utility")
    sub: str   # --utility-sub-type, or "" (a zygote: "no-sandbox" for the one that forks the GPU process)


def _processes() -> dict[int, tuple[int, list[str]]]:
    seen = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            # Chromium's children rewrite their title: the arguments may be one space-joined string.
            args = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
        except OSError:
            continue
        seen[int(name)] = (int(stat.rsplit(")", 1)[1].split()[1]), args)
    return seen


def browser_tree(profile: Path | str) -> list[Proc]:
    """The Chromium started on `profile` (its --user-data-dir) and every process under it."""
    seen = _processes()
    flag = f"--user-data-dir={profile}"
    roots = [pid for pid, (_, args) in seen.items()
             if flag in args and not any(a.startswith("--type=") for a in args)]
    if not roots:
        raise RuntimeError(f"no browser process with {flag}")
    tree, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        args = seen[pid][1]
        kind = next((a.split("=", 1)[1] for a in args if a.startswith("--type=")), "browser")
        sub = next((a.split("=", 1)[1] for a in args if a.startswith("--utility-sub-type=")), "")
        if kind == "zygote" and "--no-zygote-sandbox" in args:
            sub = "no-sandbox"
        tree.append(Proc(pid, seen[pid][0], kind, sub))
        todo += [p for p, (ppid, _) in seen.items() if ppid == pid]
    return sorted(tree, key=lambda p: p.pid)


def cgroup_of(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if "cpu" in controllers.split(","):
                return path
    except OSError:
        pass
    return "?"


class HalfCore:
    """A cgroup v1 cpu group held to QUOTA_US of PERIOD_US; `hold(profile)` moves the browser's
    zygotes and renderers in, `free(profile)` moves them back to the root group."""

    def __init__(self, quota_us: int = QUOTA_US, period_us: int = PERIOD_US, tag: str = ""):
        # `tag` names one of several groups in one run (bench_phone_table.py: a guest's phone each)
        self.path = CPU / f"pandapad-slow-{os.getpid()}{tag}"
        self.quota_us, self.period_us = quota_us, period_us
        self.moved: list[Proc] = []  # every process moved in, once (for the report)
        self._old_term = None

    @property
    def name(self) -> str:
        return "/" + self.path.name

    def __enter__(self) -> "HalfCore":
        if not (CPU / "cgroup.procs").exists():
            raise RuntimeError(f"{CPU} is not a cgroup v1 cpu hierarchy")
        self.path.mkdir(exist_ok=True)
        (self.path / "cpu.cfs_period_us").write_text(str(self.period_us))
        (self.path / "cpu.cfs_quota_us").write_text(str(self.quota_us))

        def term(signum, frame):  # as Ctrl-C: the `finally`s run and the group is removed
            raise KeyboardInterrupt(f"signal {signum}")
        self._old_term = signal.signal(signal.SIGTERM, term)
        return self

    def __exit__(self, *exc) -> None:
        self.remove()
        if self._old_term is not None:
            signal.signal(signal.SIGTERM, self._old_term)

    def members(self) -> list[int]:
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def hold(self, profile: Path | str) -> list[Proc]:
        """Move the browser's zygotes and renderers into the group (every thread of each):
        the processes moved now."""
        now = []
        for proc in browser_tree(profile):
            if proc.kind in HELD_TYPES and cgroup_of(proc.pid) != self.name:
                try:
                    (self.path / "cgroup.procs").write_text(str(proc.pid))
                except OSError:  # gone meanwhile
                    continue
                now.append(proc)
                if proc.pid not in {p.pid for p in self.moved}:
                    self.moved.append(proc)
        return now

    def free(self, profile: Path | str | None = None) -> None:
        """Every process in the group (or only the browser's on `profile`) back to the root group."""
        pids = set(self.members())
        if profile is not None:
            pids &= {p.pid for p in browser_tree(profile)}
        for pid in pids:
            try:
                (CPU / "cgroup.procs").write_text(str(pid))
            except OSError:  # ended meanwhile
                pass

    def check(self, profile: Path | str) -> dict[str, list[str]]:
        """Each process of the browser and its group: {"in": [...], "out": [...]} as "kind pid"."""
        where: dict[str, list[str]] = {"in": [], "out": []}
        for proc in browser_tree(profile):
            label = f"{proc.kind}{'(' + proc.sub + ')' if proc.sub else ''} {proc.pid}"
            where["in" if cgroup_of(proc.pid) == self.name else "out"].append(label)
        return where

    def remove(self) -> None:
        for _ in range(50):
            self.free()
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:  # a process forked into it meanwhile: move it out too
                time.sleep(0.1)
        print(f"slow_phone: could not remove {self.path}")


def phone_profile(pw, profile: Path | str, timeout_ms: float = 120_000):
    """A phone's browser on a profile of its own (a persistent context: its offline copy, games and
    snapshot kept from one launch to the next), as the tests' phones: Debian's Chromium with the
    harness's flags, 412 x 915, touch, scale 2, the frame probe in every page. (context, its page)"""
    from tests.browser_harness import CHROMIUM, CHROMIUM_ARGS, DEFAULT_VIEWPORT, FRAME_PROBE_JS, PHONE

    context = pw.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), headless=True,
        viewport={"width": DEFAULT_VIEWPORT[0], "height": DEFAULT_VIEWPORT[1]}, **PHONE)
    context.set_default_timeout(timeout_ms)
    context.add_init_script(FRAME_PROBE_JS)
    return context, context.pages[0] if context.pages else context.new_page()


def loop_ms(page) -> float:
    """The plain JavaScript loop's milliseconds in `page`."""
    return page.evaluate(LOOP_JS)[0]


def private_site(site: Path) -> Path:
    """A copy of the phone build `site`, with the precompressed copies a static host sends
    (servestatic's compress, as make web adds them: ~45-90 s when missing), kept in
    /tmp/pandapad-bench-sites/<build id>/ for the next run of the same build. The others working
    in this checkout rebuild build/web/ now and then (make test rebuilds it without the
    compressed copies, removing the folder first): a run must not lose its files halfway."""
    import re
    import shutil
    import subprocess
    import sys

    for _ in range(60):
        built = site / ".built"
        stamp = built.stat().st_mtime if built.exists() else None
        try:
            build = re.search(r'name="pandapad-build-id" content="([^"]+)"', (site / "index.html").read_text()).group(1)
        except (OSError, AttributeError):
            build = None
        if stamp is not None and build and (site / "sw.js").exists():
            copy = Path("/tmp/pandapad-bench-sites") / build / "web"
            if (copy / ".bench-copy-whole").exists():
                return copy
            # Made in a folder of this run's own, then renamed into place whole: two benches
            # started at once (one per worktree) copied into one folder and broke each other's.
            making = copy.parent.with_name(f"{build}.{os.getpid()}") / "web"
            try:
                shutil.copytree(site, making)
                whole = built.exists() and built.stat().st_mtime == stamp
            except (OSError, shutil.Error):
                whole = False
            if whole:
                if not (making / "main.dart.js.br").exists():
                    subprocess.run([sys.executable, "-m", "servestatic.compress", "-q", str(making)], check=True)
                (making / ".bench-copy-whole").touch()
                try:
                    making.parent.rename(copy.parent)
                except OSError:  # another run put its whole copy there first: that one is used
                    if not (copy / ".bench-copy-whole").exists():  # a half copy of an older bench's
                        shutil.rmtree(copy.parent, ignore_errors=True)
                        making.parent.rename(copy.parent)
                    shutil.rmtree(making.parent, ignore_errors=True)
                if (copy / ".bench-copy-whole").exists():
                    return copy
            shutil.rmtree(making.parent, ignore_errors=True)
        time.sleep(5)  # a build under way
    raise SystemExit(f"{site} stayed incomplete for 5 minutes; run make web")


def budget(seconds: float, what: str) -> None:
    """End the run with a TimeoutError once it has taken `seconds` (SIGALRM): a bench stops by
    itself, its finally blocks (the cgroup taken away) still run. signal.alarm(0) lifts it."""
    def out_of_time(signum, frame):
        raise TimeoutError(f"{what}: over its budget of {seconds:.0f} s")
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(seconds))


def kept_for_next_opening(page, said, seconds: float) -> str:
    """Until the phone is set for its next opening, as a person stays on the app after opening
    it: the keeper of Python (web/early.js) has kept this phone's snapshot, its optimized code
    handed to the offline copy (KEEPER_GRACE_MS), and ended. A bench that closed the page before
    measured phones that compile Python's code again. `said`: the page's and its workers' console
    lines so far. Returns at once where no keeper runs (Python restored from the phone's own
    snapshot); raises where the keeper never ends, rather than measure a half-made phone. A build
    from before the keeper's grace (--site of an older commit) is set once its snapshot is kept."""
    graced = page.evaluate("""fetch(new URL('early.js', document.baseURI)).then(r => r.text())
        .then(t => t.includes('keeper of Python ended'), () => true)""")
    deadline = time.time() + seconds
    while time.time() < deadline:
        lines = said()
        if any("keeper of Python ended" in t for t in lines):
            return "kept"
        if not graced and any("Python kept for the next opening" in t for t in lines):
            return "kept (a build whose keeper ends with its snapshot)"
        if any("Python restored from its snapshot" in t for t in lines):
            return "no keeper: Python restored from the phone's own snapshot"
        page.wait_for_timeout(250)
    raise RuntimeError(f"the keeper of Python did not end within {seconds:.0f} s; the page said:\n  "
                       + "\n  ".join(said()[-20:]))
