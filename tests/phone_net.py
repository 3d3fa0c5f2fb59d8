"""A table of phones on one Wi-Fi with no way out, for the WebRTC tests of #54.

Each phone is a network namespace of its own (`ip netns`), linked by a veth pair to a Linux bridge
in a namespace of the Wi-Fi's own, with an address in 10.77.0.0/24, `lo` up and NO default route:
what the phones say to each other stays between the namespaces this run made, and nothing can
reach (or depend on) this machine's network. Each phone gets its own Chromium, launched by the
run's Playwright through a wrapper script that execs it inside the phone's namespace, and may
serve a folder on its own 127.0.0.1 (a secure context: camera, service worker).

    with wifi(2) as net:
        a, b = net.phones
        for phone in net.phones:
            phone.launch(browser.browser_type, fake_camera.camera_args(film))
            phone.serve(site_root)
        page_a, page_b = a.open(), b.open()   # a phone-sized page on its own site

Needs root and iproute2 (`make setup` installs it). WebRTC there: ask for the camera before
the offer (shared/docs/phones-together.md): without a capture permission Chromium gathers no
candidate on a network with no default route.
"""
from __future__ import annotations

import contextlib
import ipaddress
import itertools
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tests.browser_harness import CHROMIUM, CHROMIUM_ARGS, DEFAULT_VIEWPORT, PHONE, REPO_ROOT
from tests.fake_camera import ALLOWED, camera_args, write_y4m

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, BrowserType, Page

# Every namespace of a run is named PREFIX-<pid>-<k>-...: unique per run, and one whose pid is
# dead is a leftover of a run that died (removed by the next wifi()).
PREFIX = "ppnet"
# The Wi-Fi's addresses: private, and only ever inside the namespaces (phone i is .11 + i).
SUBNET = ipaddress.ip_network("10.77.0.0/24")
FIRST_HOST = 11
_RUNS = itertools.count(1)
_STALE = re.compile(rf"^{PREFIX}-(\d+)-")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`ip ARGS`, its failure raised with the command and what ip said."""
    cmd = ["ip", *args]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"`{' '.join(cmd)}` failed (exit {done.returncode}): {done.stderr.strip()}")
    return done


def _needs() -> None:
    """Namespaces need root and iproute2: said plainly, not skipped (CI runs as root)."""
    missing = []
    if shutil.which("ip") is None:
        missing.append("the `ip` command (iproute2: `make setup`, or apt-get install iproute2)")
    if os.geteuid() != 0:
        missing.append("root (ip netns add needs CAP_SYS_ADMIN)")
    if missing:
        raise RuntimeError("tests/phone_net.py needs " + " and ".join(missing))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale() -> list[str]:
    """Namespaces of earlier runs whose process is gone: their processes ended, then removed.
    (A run killed by SIGKILL never reaches its own cleanup.)"""
    removed = []
    for line in ip("netns", "list").stdout.splitlines():
        name = line.split()[0] if line.strip() else ""
        found = _STALE.match(name)
        if not found or _alive(int(found.group(1))):
            continue
        for pid in ip("netns", "pids", name, check=False).stdout.split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        ip("netns", "del", name, check=False)
        removed.append(name)
    return removed


_CLONE_NEWNET = 0x40000000


def connect_in(ns: str, host: str, port: int, timeout: float = 30) -> socket.socket:
    """A socket connected from inside namespace `ns`. A thread of its own enters the namespace
    (setns acts on the calling thread only) and makes the socket there: the socket stays in that
    namespace when the thread ends, while the rest of this process stays outside."""
    import ctypes
    import threading

    made: list = []

    def enter_and_connect() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            with open(f"/var/run/netns/{ns}", "rb") as handle:
                if libc.setns(handle.fileno(), _CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns into {ns}")
            made.append(socket.create_connection((host, port), timeout=timeout))
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            made.append(exc)

    thread = threading.Thread(target=enter_and_connect, name=f"netns-{ns}")
    thread.start()
    thread.join()
    if isinstance(made[0], BaseException):
        raise made[0]
    made[0].settimeout(None)
    return made[0]


def grouped() -> bool:
    """Whether this kernel shares the cores between sessions first (autogroup)."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:  # built without it
        return False


def weigh(pid: int, nice: int) -> None:
    """Give process `pid`'s scheduling group the CPU weight of `nice` (-20..19, 0 as made). Linux
    shares the cores between sessions first (autogroup: every browser here starts a session, and
    so a group, of its own), so a process's own nice counts only inside its group: the group's is
    what sets its share beside the suite's other browsers. Where groups are off, the process and
    its threads are weighed themselves. Quietly nothing where it is not allowed (no CAP_SYS_NICE)."""
    with contextlib.suppress(OSError):  # gone, or not allowed: the test runs at the usual weight
        if grouped():
            Path(f"/proc/{pid}/autogroup").write_text(str(nice))
            return
        for task in Path(f"/proc/{pid}/task").iterdir():
            os.setpriority(os.PRIO_PROCESS, int(task.name), nice)


@dataclass
class Phone:
    """One phone: its namespace, its address on the Wi-Fi, and (once asked) its Chromium, its
    site on its own 127.0.0.1 and its contexts. All of it goes when the Wi-Fi does."""

    ns: str
    address: str
    index: int
    _wifi: "Wifi" = field(repr=False)
    browser: "Browser | None" = None
    # A phone that keeps its storage across a killed browser (launch(profile=)): its one context.
    kept: "BrowserContext | None" = None
    url: str | None = None
    _server: subprocess.Popen | None = field(default=None, repr=False)

    def run(self, *cmd: str, check: bool = True) -> subprocess.CompletedProcess:
        """A command inside the phone's namespace (e.g. run("ip", "route"))."""
        return ip("netns", "exec", self.ns, *cmd, check=check)

    def pids(self, engine: str = "chromium") -> list[int]:
        """Every process of the phone's browser (`engine`: a word of its command line) in its
        namespace, as a phone's system stops or kills them."""
        found = []
        for pid in ip("netns", "pids", self.ns).stdout.split():
            try:
                if engine.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(int(pid))
            except OSError:
                continue
        return found

    def weigh(self, nice: int, engine: str = "chromium") -> None:
        """Every process of the phone's browser (pids(engine)) at the CPU weight of `nice`
        (module weigh()): a phone is a device of its own, here it shares the cores with the
        suite's other workers."""
        for pid in self.pids(engine):
            weigh(pid, nice)

    def connect(self, port: int, host: str = "127.0.0.1", timeout: float = 30) -> socket.socket:
        """A TCP socket to `host:port` as seen from inside the phone's namespace (its own
        127.0.0.1: a browser's remote-debugging port there), for this process outside it."""
        return connect_in(self.ns, host, port, timeout)

    def launch(self, browser_type: "BrowserType", extra_args: Sequence[str] = (), kept: bool = False) -> None:
        """The phone's Chromium, inside its namespace, from the run's Playwright (a second one in
        a process is refused): every test's flags (browser_harness.CHROMIUM_ARGS) and extra_args
        (its own camera: fake_camera.camera_args). Playwright talks to it over the pipe the
        wrapper's exec keeps. `kept`: a profile on disk, the phone's one context, as a phone's
        browser keeps its storage when the system kills it (the same folder when launched again)."""
        wrapper = self._wifi.tmp / f"chromium-{self.index}"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {self.ns} {CHROMIUM} "$@"\n')
        wrapper.chmod(0o755)
        options = {"executable_path": str(wrapper), "args": [*CHROMIUM_ARGS, *extra_args], "headless": True}
        if kept:
            self.kept = browser_type.launch_persistent_context(str(self._wifi.tmp / f"profile-{self.index}"),
                                                               **options, **self._phone())
        else:
            self.browser = browser_type.launch(**options)
        self._wifi._stack.callback(self._close_browser)

    def start(self, browser_type: "BrowserType", root: str | os.PathLike, kept: bool = False) -> Path:
        """launch() with a camera of its own (filming grey until a test writes the other phone's
        code into its film) and serve(root); returns the film (fake_camera.write_y4m rewrites it)."""
        film = write_y4m(self._wifi.tmp / f"camera-{self.index}.y4m", [])
        self.launch(browser_type, camera_args(film), kept=kept)
        self.serve(root)
        return film

    def _close_browser(self) -> None:
        for which in ("browser", "kept"):
            if getattr(self, which) is not None:
                with contextlib.suppress(Exception):  # already gone with the test's failure
                    getattr(self, which).close()
                setattr(self, which, None)

    def serve(self, root: str | os.PathLike, timeout: float = 10) -> str:
        """Serve `root` on the namespace's own 127.0.0.1 (tests/ns_site.py) and return its URL.
        Only this phone's browser can reach it."""
        proc = subprocess.Popen(
            ["ip", "netns", "exec", self.ns, sys.executable, "-m", "tests.ns_site", str(root)],
            cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        )
        self._server = proc
        self._wifi._stack.callback(self._stop_server, proc)
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        line = proc.stdout.readline().decode().strip() if ready else ""
        if not line.isdigit():
            self._stop_server(proc)
            raise RuntimeError(f"the site in {self.ns} did not start (said {line!r}): "
                               f"{proc.stderr.read().decode(errors='replace')[-2000:]}")
        self.url = f"http://127.0.0.1:{line}/"
        return self.url

    @staticmethod
    def _stop_server(proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # ns_site ends when its stdin closes
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                pipe.close()

    def new_context(self, **kwargs) -> "BrowserContext":
        """A phone's context in this phone's browser: touch, a phone's size, the camera allowed
        (a person said yes: WebRTC needs it here). kwargs override."""
        if self.kept is not None:
            return self.kept  # its options were given at launch
        if self.browser is None:
            raise RuntimeError(f"{self.ns}: launch() its browser first")
        return self.browser.new_context(**self._phone(**kwargs))

    @staticmethod
    def _phone(**kwargs) -> dict:
        return {**PHONE, **ALLOWED, "viewport": {"width": DEFAULT_VIEWPORT[0], "height": DEFAULT_VIEWPORT[1]},
                "accept_downloads": True, **kwargs}

    def open(self, path: str = "", **kwargs) -> "Page":
        """A page of a new context (new_context(**kwargs)) on the phone's own site."""
        if self.url is None:
            raise RuntimeError(f"{self.ns}: serve() a folder first")
        page = self.new_context(**kwargs).new_page()
        page.goto(self.url + path.lstrip("/"))
        return page


@dataclass
class Wifi:
    """The Wi-Fi (a bridge in namespace `hub`) and its phones."""

    hub: str
    phones: list[Phone]
    tmp: Path
    _stack: contextlib.ExitStack = field(repr=False)


@contextlib.contextmanager
def wifi(n: int) -> Iterator[Wifi]:
    """n phones on one Wi-Fi, nothing else reachable; everything removed on exit (also after an
    exception). Leftovers of dead runs are removed first."""
    _needs()
    remove_stale()
    base = f"{PREFIX}-{os.getpid()}-{next(_RUNS)}"
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"{base}-")))
        names: list[str] = []
        # Registered before the browsers and servers, so removed after them (ExitStack is LIFO).
        stack.callback(lambda: [ip("netns", "del", name, check=False) for name in reversed(names)])

        def namespace(name: str) -> str:
            ip("netns", "add", name)
            names.append(name)
            ip("-n", name, "link", "set", "lo", "up")
            return name

        hub = namespace(f"{base}-wifi")
        ip("-n", hub, "link", "add", "wifi", "type", "bridge")
        ip("-n", hub, "link", "set", "wifi", "up")
        net = Wifi(hub=hub, phones=[], tmp=tmp, _stack=stack)
        for i in range(n):
            ns = namespace(f"{base}-p{i + 1}")
            address = str(SUBNET.network_address + FIRST_HOST + i)
            # Both ends made where they live: no interface name ever exists in this machine's
            # own namespace, so two runs cannot clash.
            ip("-n", hub, "link", "add", f"port{i + 1}", "type", "veth", "peer", "name", "wlan0", "netns", ns)
            ip("-n", hub, "link", "set", f"port{i + 1}", "master", "wifi", "up")
            # IPv4 only: a link-local IPv6 address is tentative for a moment after the link comes
            # up, so the candidates a phone gathers would depend on the timing.
            ip("netns", "exec", ns, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1",
               "net.ipv6.conf.default.disable_ipv6=1")
            ip("-n", ns, "addr", "add", f"{address}/{SUBNET.prefixlen}", "dev", "wlan0")
            ip("-n", ns, "link", "set", "wlan0", "up")
            net.phones.append(Phone(ns=ns, address=address, index=i + 1, _wifi=net))
        yield net
