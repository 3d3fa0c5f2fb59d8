"""The phone by itself (#30): build/web/ (make web) served by a plain static server on
127.0.0.1, in a phone's browser (touch, a phone's size), with no server of ours behind it and
every request to another host refused. The whole app runs in the page (Pyodide), the store in
the browser's IndexedDB. One build per run (make test builds it first), one static server and
one Chromium for this module.
"""
from __future__ import annotations

import functools
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser_harness import (CHROMIUM, CHROMIUM_ARGS, NOT_A_LANGUAGE, PHONE, REPO_ROOT, enable_semantics,
                                   keep_evidence_on_close, screenshot, scrolled_to, semantics_texts,
                                   wait_for_text)
from tests import ns_site
from tests.fake_camera import ALLOWED, camera_args, write_y4m
from tests.pad_checks import main_py_score
from tests.test_browser_panda_royale import (GAME, PLAYERS, button, enter_hand, label, play_round, start_game,
                                             tap_die)
from views.words import fonts

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SITE = REPO_ROOT / "build" / "web"
# Pyodide starting on a loaded 2-core machine: seconds, not the harness's usual one or two.
START = 120_000
# A first visit to the app's first screen, which the app signals by taking its opening screen
# away: 6-9 s on this 2-core machine (bench/bench_web_cold.py, one browser), more than 10 s on a
# slower one (#44); four times the slowest seen, for a second worker's browser beside it.
FIRST_VISIT = 60_000
ONLY_HERE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


@pytest.fixture(scope="module")
def site():
    """build/web/, made by make test before pytest starts; made here when pytest runs alone."""
    if not (SITE / "sw.js").exists():
        subprocess.run([sys.executable, str(REPO_ROOT / "web" / "build.py"), "--no-compress"], check=True,
                       cwd=REPO_ROOT)
    return SITE


class Quiet(ns_site.Quiet):
    """Files as they are, nothing kept by the browser's HTTP cache: what a phone has offline,
    it has from the app's own offline copy (the service worker). `slow`: file name -> seconds its
    answer takes (a slow connection)."""
    slow: dict[str, float] = {}

    def do_GET(self):
        time.sleep(self.slow.get(self.path.split("?")[0].rsplit("/", 1)[-1], 0))
        super().do_GET()


@contextmanager
def static_server(root: Path, heard: list[str] | None = None, slow: dict[str, float] | None = None):
    """Python's plain static file server: no code of ours, no compression, nothing but files.
    heard: the paths asked for, in order. slow: file name -> seconds its answer takes."""
    class Heard(Quiet):
        def log_request(self, *args):
            if heard is not None:
                heard.append(self.path)

    Heard.slow = slow or {}
    server = ns_site.Server(("127.0.0.1", 0), functools.partial(Heard, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def served(site, tmp_path_factory):
    """A copy of the site, so a test can put a newer build in its place."""
    root = tmp_path_factory.mktemp("site") / "web"
    shutil.copytree(site, root)
    with static_server(root) as server:
        server.root = root
        yield server


@pytest.fixture(scope="module")
def phone_browser(browser, camera_film):
    """Chromium that can reach 127.0.0.1 only: every other host name fails to resolve. Launched
    by the run's own Playwright (conftest's browser): a second Playwright in one process refuses.
    Its camera films what the run's does (tests/fake_camera.py)."""
    phone = browser.browser_type.launch(executable_path=CHROMIUM,
                                        args=[*CHROMIUM_ARGS, ONLY_HERE, *camera_args(camera_film)])
    try:
        yield phone
    finally:
        phone.close()


def url_of(server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/"


def origin_of(server) -> str:
    return url_of(server).rstrip("/")


class Phone:
    """One phone: a browser profile (its IndexedDB, its service worker) and the pages opened in it."""

    def __init__(self, browser, size=(412, 915), **kwargs):
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **PHONE, **kwargs)
        self.context.set_default_timeout(30_000)
        keep_evidence_on_close(self.context)  # a failing test's report says what the phone showed
        self.elsewhere: list[str] = []
        self.context.on("request", self._seen)

    def _seen(self, request) -> None:
        if not request.url.startswith(("http://127.0.0.1:", "data:", "blob:", "about:")):  # about: never leaves
            self.elsewhere.append(request.url)

    def open(self, url: str):
        page = self.context.new_page()
        page.goto(url, timeout=START)
        enable_semantics(page, timeout=START)
        return page

    def close(self) -> None:
        self.context.close()

    def asked_elsewhere(self) -> list[str]:
        # Flet's client asks a CDN for Rive's script unless make web points it nowhere (web/build.py no_cdn_rive).
        return self.elsewhere


def home(page) -> None:
    page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for(timeout=START)


def opened(page) -> None:
    """The app's first screen is up: it takes its opening screen away (web/opening.html)."""
    page.wait_for_selector("#pandapad-opening", state="detached", timeout=FIRST_VISIT)


@contextmanager
def restarted(browser, profile: Path, offline: bool = False, quota: tuple[str, int] | None = None,
              locale: str = "en-US"):
    """The phone's browser process started afresh on its profile (its offline copy, its stored
    games, its snapshot of Python kept), as a phone that killed the browser comes back: its page
    and what Python's worker says. quota: (origin, bytes) the site may keep, set before it opens
    (a phone whose storage is full: Chromium's IndexedDB reads the quota when a site first opens
    it, and keeps that answer for 30 s)."""
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, ONLY_HERE], headless=True,
        viewport={"width": 412, "height": 915}, offline=offline, accept_downloads=True, locale=locale, **PHONE)
    context.set_default_timeout(30_000)
    keep_evidence_on_close(context)
    said: list[str] = []
    page = context.pages[0] if context.pages else context.new_page()
    if quota is not None:
        context.new_cdp_session(page).send("Storage.overrideQuotaForOrigin",
                                           {"origin": quota[0], "quotaSize": quota[1]})
    page.on("worker", lambda worker: worker.on("console", lambda m: said.append(m.text)))
    try:
        yield page, said
    finally:
        context.close()


SNAPSHOTS = "caches.open('pandapad-python')"


def kept_snapshot_bytes(page, build: str) -> int:
    """The size of the snapshot of Python this phone keeps for `build` (web/python-worker.js), 0 if none."""
    return page.evaluate("""b => caches.open('pandapad-python')
        .then(c => c.match(new URL('python-snapshot/' + b, document.baseURI).href))
        .then(r => r ? r.arrayBuffer().then(a => a.byteLength) : 0)""", build)


def until(page, script: str, arg=None, timeout: float = START) -> None:
    """Until `script` (which may answer with a promise) answers true, asked every 250 ms:
    page.wait_for_function takes a promise for a true answer."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(script, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"not so after {timeout / 1000:.0f} s: {script}")
        page.wait_for_timeout(250)


def snapshot_kept(page, build: str) -> None:
    """Python's snapshot of this build is kept (a second worker makes it once the app is up)."""
    until(page, "b => caches.open('pandapad-python').then(c => c.match(new URL('python-snapshot/' + b, "
                "document.baseURI).href)).then(r => !!r)", build)


def snapshot_builds(page) -> list[str]:
    return page.evaluate(f"{SNAPSHOTS}.then(c => c.keys()).then(ks => ks.map(k => k.url.split('/').pop()))")


def engine_kept(page) -> list[str]:
    """The names of Flutter's engine files the offline copy keeps, once it says it is whole."""
    offline_copy_ready(page)
    return page.evaluate("""caches.keys().then(names => Promise.all(names.filter(n => n.startsWith('pandapad-engine-'))
        .map(n => caches.open(n).then(c => c.keys())))).then(lists => lists.flat().map(r => r.url.split('/').pop()))""")


def offline_copy_ready(page) -> None:
    """The offline copy is whole, as the page itself says (web/page.js): the worker controls the page
    (the site is precached) and has kept the Flutter engine this phone runs. The engine is kept only
    after the worker takes the page (#44), so a worker in control is not yet an offline copy: a
    reload offline in between stayed on a blank page (a fresh-clone CI run, on a slower machine)."""
    until(page, "() => navigator.serviceWorker.controller !== null && window.pandapadOffline === true")


def totals_shown(page) -> dict[str, int]:
    """The score strip's totals, read as a player reads them ("Ann: 3, entering now")."""
    shown = {}
    for name in PLAYERS:
        text = page.get_by_role("button", name=re.compile(rf"^{name}: ")).first.inner_text()
        shown[name] = int(re.match(rf"{name}: ([−-]?\d+)", text).group(1).replace("\u2212", "-"))
    return shown


def export_games(page) -> list[dict]:
    """Back to the home, Your data → Export JSON, as a phone downloads it."""
    if button(page, "Your data").count() == 0:
        button(page, "Back").tap()
    button(page, "Your data").tap()
    with page.expect_download() as download:
        scrolled_to(page, button(page, "Export JSON")).tap()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    button(page, "Back").tap()
    home(page)
    return data["games"]


# --------------------------------------------------------------------------- the tests

def test_the_home_shows_the_five_games_and_nothing_is_asked_of_another_host(phone_browser, served):
    for size in ((412, 915), (360, 740)):
        phone = Phone(phone_browser, size)
        try:
            page = phone.open(url_of(served))
            home(page)
            for game in ("Panda Royale", "Royal Game of Ur", "Nokosu Dice", "Pandoria", "Pass the Pandas"):
                assert page.get_by_role("button", name=re.compile(rf"^{game}")).count() == 1, game
            # A phone by itself has no table: nothing to invite to.
            assert button(page, "Invite players").count() == 0
            screenshot(page, f"web_home_{size[0]}x{size[1]}")
            if size == (412, 915):
                # The whole app kept (#44): said once, and of Flutter's engines only the one this
                # phone runs (WasmGC: the WebAssembly build and skwasm), not the other.
                # (In the semantics tree: the screen reader's announcement of it is a second text.)
                page.locator("flt-semantics-host").get_by_text(re.compile(r"^Ready to use offline")).wait_for(
                    timeout=START)
                kept = engine_kept(page)
                assert {"main.dart.wasm", "skwasm.wasm"} <= set(kept), kept
                assert not {"main.dart.js", "canvaskit.wasm"} & set(kept), kept
            assert phone.asked_elsewhere() == []
        finally:
            phone.close()


# What the page hears from Python's worker: for each message, how many of Flet's messages it
# carries (web/python-worker.js sends those of one step of Python's together, #69).
WORKER_HEARD = """(() => {
    const Plain = window.Worker;
    window.__workerHeard = [];
    window.Worker = function (...args) {
        const worker = new Plain(...args);
        worker.addEventListener("message", (event) => {
            const data = event.data;
            const flet = data && Array.isArray(data.pandapadBatch) ? data.pandapadBatch.length
                : data instanceof Uint8Array ? 1 : 0;
            if (flet) window.__workerHeard.push(flet);
        });
        return worker;
    };
    window.Worker.prototype = Plain.prototype;
})()"""


def test_a_round_of_panda_royale_scores_as_main_py_score_and_survives_reload_and_close(phone_browser, served):
    phone = Phone(phone_browser, accept_downloads=True)
    phone.context.add_init_script(WORKER_HEARD)
    try:
        page = phone.open(url_of(served))
        home(page)
        start_game(page)
        play_round(page, 1, GAME[0])
        enter_hand(page, 2, {"yellow": [1]})
        # Reload mid-round: the pad as stored, at the hand it was on. (The offline copy answers
        # the pad's own address; a static host answers it with 404.html, the same page.)
        offline_copy_ready(page)
        page.reload(timeout=START)
        enable_semantics(page, timeout=START)
        page.get_by_text(re.compile(r"^1 of 2 dice\b")).wait_for(timeout=START)
        assert page.get_by_role("button", name="Remove Yellow 1").count() == 1
        # Close the page right after a tap is shown: a new page on the same phone has it.
        heard = page.evaluate("window.__workerHeard.length")
        tap_die(page, "purple", 2)
        page.get_by_text(re.compile(r"^2 of 2 dice\b")).wait_for()
        # What the tap changed on the pad (the die, the count, the totals: a dozen of Flet's
        # messages) came to the page in a message for each step of Python's, the tap's and the
        # save's, so Flutter draws each step's changes in one frame (#69; before, one message per
        # control, and a frame could show the first control alone).
        told = page.evaluate("window.__workerHeard")[heard:]
        assert len(told) <= 2 and sum(told) > 2 * len(told), told
        page.close()
        # The app opened again at its own address (the home screen's icon) opens on the pad it
        # was left on (#44), as stored.
        page = phone.open(url_of(served))
        page.get_by_role("button", name=re.compile(r"^Ann: ")).first.tap(timeout=START)  # her hand, as stored
        assert "/game/" in page.url
        page.get_by_text(re.compile(r"^2 of 2 dice\b")).wait_for(timeout=START)
        screenshot(page, "web_panda_royale_after_close")
        shown = totals_shown(page)
        games = export_games(page)
        assert phone.asked_elsewhere() == []
    finally:
        phone.close()
    record = max(games, key=lambda g: g["created"])
    ids = {p["name"]: p["id"] for p in record["players"]}
    # Every tap is stored, the one made just before the page closed too.
    assert record["rounds"][1]["hands"][ids["Ann"]]["yellow"] == [1]
    assert record["rounds"][1]["hands"][ids["Ann"]]["purple"] == [2]
    result = main_py_score(record)
    names = {p["id"]: p["name"] for p in record["players"]}
    assert shown == {names[p["id"]]: p["total"] for p in result["players"]}


# Flutter's loader asks WebAssembly.validate about these bytes (a WasmGC type) to choose between
# its WebAssembly build (skwasm) and its JavaScript one (CanvasKit); a phone without WasmGC says no.
WITHOUT_WASM_GC = """(() => {
    const validate = WebAssembly.validate;
    const probe = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 95, 1, 120, 0].join();
    WebAssembly.validate = (bytes, ...rest) =>
        new Uint8Array(bytes.buffer || bytes).join() === probe ? false : validate(bytes, ...rest);
})()"""


def test_a_phone_without_webassembly_gc_runs_the_javascript_build(phone_browser, served):
    """Older phones (no WasmGC) get main.dart.js and CanvasKit from the same site, offline too."""
    phone = Phone(phone_browser, (360, 740))
    phone.context.add_init_script(WITHOUT_WASM_GC)
    asked: list[str] = []
    # What the page loads; the service worker's precache fetches both builds for the offline copy.
    phone.context.on("request", lambda r: r.service_worker or asked.append(r.url.rsplit("/", 1)[-1]))
    try:
        page = phone.open(url_of(served))
        home(page)
        assert "main.dart.js" in asked and "canvaskit.wasm" in asked
        assert "main.dart.wasm" not in asked and "skwasm.wasm" not in asked
        start_game(page)
        tap_die(page, "yellow", 3)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        wait_for_text(page, "Hand total 3")
        screenshot(page, "web_javascript_build_360x740")
        assert phone.asked_elsewhere() == []
        kept = engine_kept(page)  # the offline copy: this engine only (#44)
        assert {"main.dart.js", "canvaskit.wasm"} <= set(kept), kept
        assert not {"main.dart.wasm", "skwasm.wasm"} & set(kept), kept
    finally:
        phone.close()


def test_each_other_pad_starts_and_takes_its_first_entry(phone_browser, served):
    from tests.test_browser_nokosu_dice import declare, start_game as start_nokosu
    from tests.test_browser_pandoria import seat
    from tests.test_browser_pass_the_pandas import start as start_pandas
    from tests.test_browser_royal_ur import start_match

    phone = Phone(phone_browser, (360, 740))
    try:
        page = phone.open(url_of(served))
        home(page)
        start_match(page)
        button(page, "Ann won").tap()
        button(page, "More not entered").tap()  # where Ben's counters stood
        wait_for_text(page, "1 of 7 counters placed: 6 to go")
        screenshot(page, "web_royal_ur_first_entry_360x740")
        button(page, "Back").tap()
        home(page)

        start_nokosu(page, ["Ann", "Ben", "Cat"])
        declare(page, "Ann", 2)
        screenshot(page, "web_nokosu_dice_first_entry_360x740")
        button(page, "Back").tap()
        home(page)

        seat(page, ["Ann", "Ben"])
        button(page, "Family").tap()
        scrolled_to(page, button(page, "Start the game")).tap()
        button(page, "+1 for Ann").tap()
        wait_for_text(page, "1 entry")
        wait_for_text(page, "Ann's crown track: 1")
        screenshot(page, "web_pandoria_first_entry_360x740")
        button(page, "Back").tap()
        home(page)

        start_pandas(page, ["Ann", "Ben"])
        button(page, "Ann went out").tap()
        page.get_by_text(re.compile(r"^Ann scores \d+")).first.wait_for()
        screenshot(page, "web_pass_the_pandas_first_entry_360x740")
        assert phone.asked_elsewhere() == []
    finally:
        phone.close()


def test_offline_after_the_first_visit_the_app_opens_keeps_a_tap_and_receives_a_game(phone_browser, served,
                                                                                        camera_film):
    phone = Phone(phone_browser, **ALLOWED)
    try:
        page = phone.open(url_of(served))
        home(page)
        offline_copy_ready(page)
        phone.context.set_offline(True)
        page.reload(timeout=START)
        enable_semantics(page, timeout=START)
        home(page)
        start_game(page, ["Ann", "Ben"])
        tap_die(page, "yellow", 5)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        page.reload(timeout=START)
        enable_semantics(page, timeout=START)
        page.get_by_role("button", name=re.compile(r"^Ann: 5\b")).wait_for(timeout=START)
        screenshot(page, "web_offline_after_reload")
        # Another phone's game, read by the camera with no network (#53): the decoder comes from
        # the offline copy, and the game arrives as that phone stored it.
        from storage.handoff import frames_of
        from tests import finished_examples as fx
        from tests.test_browser_handoff import png_of
        sent = fx.pandoria()
        write_y4m(camera_film, [png_of(frame) for frame in frames_of([sent.model_dump(mode="json")],
                                                                      "2026-11-28T06:00:00Z")])
        button(page, "Back").tap()
        scrolled_to(page, button(page, "Receive from another phone")).tap()
        wait_for_text(page, "The codes hold 1 game: 1 new, 0 updated, 0 unchanged.", timeout=START)
        button(page, "Import 1 game").tap()
        wait_for_text(page, "Imported from the other phone: 1 new, 0 updated, 0 unchanged.")
        assert [g for g in export_games(page) if g["id"] == sent.id] == [sent.model_dump(mode="json")]
    finally:
        phone.close()


def laptop(*args: str, data_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args, "--data-dir", str(data_dir)],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)


# The games a laptop hands the phone: the issue's count (#46: the count said 0 after 1,000).
LAPTOP_GAMES = 1000


def test_a_thousand_games_move_from_a_laptop_to_the_phone_and_back_in_a_backup_file(phone_browser, served, tmp_path):
    """A laptop's export imported on the phone (Your data says the new count at once), a backup
    file saved from a finished game back into the laptop's store with every game; on a browser
    whose language tag is "C" (English), where a second tab takes over once the first is closed."""
    from storage import samples
    from tests.finished_examples import ALL
    # The laptop: a finished game of each kind, and more Panda Royale evenings, then exported.
    desk = tmp_path / "laptop"
    records = [make().model_dump(mode="json") for make in ALL.values()]
    records += [r.model_dump(mode="json") for r in samples.history(46, LAPTOP_GAMES - len(records))]
    many = tmp_path / "records.json"
    many.write_text(json.dumps({"format": "pandapad/export", "version": 1, "games": records}))
    assert laptop("import", str(many), data_dir=desk).returncode == 0
    from_laptop = tmp_path / "from-laptop.json"
    assert laptop("export", "--out", str(from_laptop), data_dir=desk).returncode == 0
    laptop_ids = {g["id"] for g in json.loads(from_laptop.read_text())["games"]}
    assert len(laptop_ids) == LAPTOP_GAMES

    phone = Phone(phone_browser, accept_downloads=True)
    phone.context.add_init_script(NOT_A_LANGUAGE)
    try:
        page = phone.open(url_of(served))
        home(page)  # in English
        start_game(page, ["Ann", "Ben"])  # a game of the phone's own
        tap_die(page, "yellow", 4)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        button(page, "Back").tap()
        button(page, "Your data").tap()
        with page.expect_file_chooser() as chooser:
            scrolled_to(page, button(page, "Choose a file to import")).tap()
        chooser.value.set_files(str(from_laptop))
        scrolled_to(page, button(page, f"Import {LAPTOP_GAMES} games")).tap(timeout=START)
        said_on_screen(page, re.compile(r"^Imported from from-laptop\.json"), timeout=START)
        # The count on the screen that imported, at once (it said 0 until the screen was left).
        said_on_screen(page, re.compile(rf"^{LAPTOP_GAMES + 1} games kept on this phone"))
        screenshot(page, "web_import_from_laptop")
        # A finished game offers a backup file: the browser's storage is their only copy.
        button(page, "Back").tap()
        button(page, "History").tap()
        page.get_by_role("button", name=re.compile(r"\bwon · ")).first.tap()  # a finished game
        said_on_screen(page, f"{LAPTOP_GAMES} finished games are kept only on this phone.", timeout=START)
        said_on_screen(page, "No backup file made yet.")
        screenshot(page, "web_backup_offered")
        with page.expect_download() as download:
            scrolled_to(page, button(page, "Save a backup file")).tap()
        backup = tmp_path / "backup.json"
        download.value.save_as(backup)
        said_on_screen(page, re.compile(rf"^Backup file saved: pandapad-.+\.json, {LAPTOP_GAMES + 1} games\.$"))
        # A second tab waits, and takes over without a reload once the first is closed.
        second = phone.open(url_of(served))
        said_on_screen(second, "Pandapad is open in another tab", timeout=FIRST_VISIT)
        page.close()
        # ... on the screen the first was left on (#44).
        said_on_screen(second, "Rematch", timeout=START)
        button(second, "Back").tap()
        home(second)
        button(second, "Your data").tap()
        said_on_screen(second, re.compile(r"^Last backup file: "), timeout=START)
    finally:
        phone.close()
    phone_ids = {g["id"] for g in json.loads(backup.read_text(encoding="utf-8"))["games"]}
    assert laptop_ids < phone_ids and len(phone_ids) == len(laptop_ids) + 1

    # The phone's backup file into the laptop's store: every game, ids as they are, none twice.
    done = laptop("import", str(backup), data_dir=desk)
    assert done.returncode == 0, done.stderr
    again = tmp_path / "again.json"
    assert laptop("export", "--out", str(again), data_dir=desk).returncode == 0
    assert sorted(g["id"] for g in json.loads(again.read_text())["games"]) == sorted(phone_ids)


def build_of_page(page) -> str:
    return page.locator('meta[name="pandapad-build-id"]').get_attribute("content")


def build_of_worker(page) -> str:
    """The build of the service worker that serves this page, as it answers (web/sw-src.js)."""
    return page.evaluate("""() => new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller.postMessage({type: "BUILD"}, [channel.port2]);
    })""")


NEW_TAGLINE = "Score pad, newer build!"  # as long as "Score pad for the table", which it replaces


def newer_build(root: Path) -> None:
    """What a new `make web` leaves: the app archive with a changed screen, the page marked, and
    a service worker whose precache names the new files."""
    archive = root / "app.tar.gz"
    with tarfile.open(archive) as tar:
        members = [(m, tar.extractfile(m).read() if m.isfile() else None) for m in tar.getmembers()]
    with tarfile.open(archive, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        for member, data in members:
            if member.name.lstrip("/") == "views/screens/home.pyc":  # bytecode: a string of the same length
                data = data.replace(b"Score pad for the table", NEW_TAGLINE.encode())
                member.size = len(data)
            tar.addfile(member, io.BytesIO(data) if data is not None else None)
    index = root / "index.html"
    index.write_text(index.read_text().replace("<head>", '<head>\n  <meta name="pandapad-build" content="new">', 1))
    subprocess.run(["node", str(REPO_ROOT / "web" / "sw.mjs"), str(root)], check=True, cwd=REPO_ROOT / "web",
                   capture_output=True)


def named_build(root: Path) -> str:
    """The build's name web/sw.mjs writes into the page of the site at `root`."""
    subprocess.run(["node", str(REPO_ROOT / "web" / "sw.mjs"), str(root)], check=True, cwd=REPO_ROOT / "web",
                   capture_output=True)
    return re.search(r'name="pandapad-build-id" content="([0-9a-f]+)"', (root / "index.html").read_text()).group(1)


def test_a_build_that_changes_only_its_page_has_a_new_name(site, tmp_path):
    """Flutter's renderer, the page's scripts and their order are chosen in the page: a build that
    changes only that is another build, or a phone would show a picture of the pad (#68) or keep
    an engine of the old one as this one's. Naming the same files again gives the same name."""
    root = tmp_path / "web"
    written = {"index.html", "404.html", "sw.js"}  # what sw.mjs rewrites in place: copies, not links
    shutil.copytree(site, root, copy_function=lambda src, dst: (shutil.copy2 if Path(src).name in written
                                                                else os.link)(src, dst))
    as_built = build_of_site(site)
    assert named_build(root) == as_built
    index = root / "index.html"
    index.write_text(index.read_text().replace('flet.webRenderer="auto"', 'flet.webRenderer="canvaskit"', 1))
    assert 'flet.webRenderer="canvaskit"' in index.read_text()
    assert named_build(root) != as_built


def build_of_site(site: Path) -> str:
    return re.search(r'name="pandapad-build-id" content="([0-9a-f]+)"', (site / "index.html").read_text()).group(1)


@contextmanager
def newer_build_served(server):
    """The module's site replaced by a newer build (newer_build) at the same address, as a new
    `make web` deployed; the site as it was put back after, for the module's other tests."""
    root = server.root
    kept = {name: (root / name).read_bytes() for name in ("app.tar.gz", "index.html", "404.html", "sw.js")}
    try:
        newer_build(root)
        yield
    finally:
        for name, data in kept.items():
            (root / name).write_bytes(data)


def test_a_new_build_replaces_the_old_one_whole_after_the_next_visit(phone_browser, served, returning_phone, tmp_path):
    """A phone that has been here before (its offline copy and its snapshot of Python kept) opens
    the app after a new build is deployed, and again after that."""
    profile = returning(returning_phone, tmp_path)
    old_build = build_of_site(served.root)
    with newer_build_served(served), restarted(phone_browser, profile) as (page, said):
        # The next visit: the old build still, whole, while the new one is fetched behind it.
        assert reopened(page, served) == old_build
        wait_for_text(page, "Score pad for the table")
        assert page.locator("meta[name=pandapad-build]").count() == 0
        assert page.get_by_text(NEW_TAGLINE).count() == 0
        assert build_of_worker(page) == old_build
        snapshot_kept(page, old_build)
        page.wait_for_function("window.pandapadWorker && (window.pandapadWorker.waiting !== null)",
                               polling=100, timeout=START)
        context = page.context
        page.close()
        # The visit after (the app closed and opened again): the new build, page and app alike.
        page = context.new_page()
        page.goto(url_of(served), timeout=START)
        enable_semantics(page, timeout=START)
        page.wait_for_selector("meta[name=pandapad-build]", state="attached", timeout=START)
        opened(page)
        wait_for_text(page, NEW_TAGLINE)
        assert build_of_worker(page) == build_of_page(page)
        # Python's snapshot of the old build is gone, one of the new build kept (#44).
        new_build = build_of_page(page)
        assert new_build != old_build
        snapshot_kept(page, new_build)
        assert snapshot_builds(page) == [new_build]


def test_the_phone_by_itself_reads_its_own_language_and_only_a_japanese_phone_fetches_the_japanese_font(
        phone_browser, served):
    """#33 in the phone build: the phone's language from the browser. #45: the fonts for what
    Roboto lacks (views/words/fonts.py) are fetched by the phone that draws such characters, in its own
    letterforms (Japanese, not Chinese, on a Japanese phone), and never by a German one."""
    from views.words import lang

    for locale, code in (("de-DE", "de"), ("ja-JP", "ja")):
        phone = Phone(phone_browser, locale=locale)
        fonts: list[str] = []
        # The page's own requests: the offline copy's worker keeps other scripts' fonts too, once
        # the copy is whole (#55).
        phone.context.on("request", lambda r: fonts.append(r.url)
                         if "/assets/fonts/noto" in r.url and r.service_worker is None else None)
        try:
            page = phone.open(url_of(served))
            lang.set_language(code)
            try:
                tile = lang._("{game}, {players}", game="Panda Royale",
                              players=lang._("{low}–{high} players", low=2, high=10))
            finally:
                lang.set_language("en")
            page.get_by_role("button", name=tile).wait_for(timeout=START)
            page.wait_for_timeout(500)  # a font asked for with the first screen has been asked by now
            if code == "ja":
                assert fonts and all("/notosansjp/" in u for u in fonts), fonts
                # A Japanese phone's offline copy holds every Japanese slice, before it says it is whole.
                offline_copy_ready(page)
                assert kept_fonts(page, "notosansjp") == served_fonts(served, "notosansjp")
            else:
                assert fonts == [], fonts
            assert phone.asked_elsewhere() == []
        finally:
            phone.close()


def served_fonts(server, family: str) -> set[str]:
    """The files of a fallback font family the site serves (views/words/fonts.py), as the phone names them."""
    folder = server.root / "assets" / "fonts" / family
    return {url_of(server) + p.relative_to(server.root).as_posix() for p in folder.rglob("*.woff2")}


def kept_fonts(page, family: str) -> set[str]:
    """The files of `family` the phone's offline copy keeps (web/sw-src.js's font cache)."""
    return set(page.evaluate("""f => caches.open('pandapad-fonts').then(c => c.keys())
        .then(ks => ks.map(k => k.url).filter(u => u.includes('/assets/fonts/' + f + '/')))""", family))


def test_names_typed_offline_in_scripts_the_phone_never_drew_are_drawn(phone_browser, served):
    """#55: an English phone took the offline copy, then the table had no signal, and 髙橋 and 김민준
    were boxes: their fonts were fetched at first use only. The copy keeps the scripts a table types
    names in, in the background once it is whole; every font the pad then asks for is answered.
    #68: of the CJK families, the slices of the characters names are mostly written with only
    (views/words/fonts.py everyday_slices), 髙橋's variant 髙 among them."""
    phone = Phone(phone_browser, (360, 740), locale="en-US")
    asked: dict[str, int | None] = {}
    names = ["髙橋", "김민준", "王小明", "محمد"]

    def answered(response) -> None:
        if "/assets/fonts/noto" in response.url and response.request.service_worker is None:
            asked[response.url] = response.status
    try:
        page = phone.open(url_of(served))
        home(page)
        offline_copy_ready(page)
        until(page, "() => window.pandapadFonts === true")
        everyday = {family: {url_of(served) + f for f in files} for family, files in
                    fonts.everyday_slices(served.root).items()}
        for family in ("notosansjp", "notosanskr", "notosanssc"):
            assert everyday[family] < served_fonts(served, family), family
            assert kept_fonts(page, family) == everyday[family], family
        assert kept_fonts(page, "notosansarabic") == served_fonts(served, "notosansarabic")
        assert kept_fonts(page, "notocoloremoji") == set()  # 10 MB: kept at first use only
        phone.context.set_offline(True)
        page.reload(timeout=START)
        enable_semantics(page, timeout=START)
        home(page)
        page.on("response", answered)
        page.on("requestfailed", lambda r: "/assets/fonts/" in r.url and asked.setdefault(r.url, None))
        start_game(page, names)
        # Read with the joiners that keep a name whole on its line (views/words/lang.py name()), which the
        # accessible name's whitespace folding makes spaces.
        for name in names:
            whole = r"[\s\ufeff]?".join(map(re.escape, name))
            page.get_by_role("button", name=re.compile(rf"^{whole}: ")).first.wait_for()
        page.wait_for_timeout(500)  # a font asked for with this screen has been asked by now
        screenshot(page, "web_names_typed_offline_360x740")
    finally:
        phone.close()
    assert asked, "the pad asked for no font: the names were drawn with none of the served ones"
    assert set(asked.values()) == {200}, asked


def import_from_the_pad(page, path: Path) -> None:
    """From a pad: back to the home, Your data, and the file chosen to import (its preview next)."""
    button(page, "Back").tap()
    home(page)
    button(page, "Your data").tap()
    with page.expect_file_chooser() as chooser:
        scrolled_to(page, button(page, "Choose a file to import")).tap()
    chooser.value.set_files(str(path))


def first_start(page, server) -> str:
    """A phone's first visit, until its offline copy and its snapshot of Python are kept: the build."""
    page.goto(url_of(server), timeout=START)
    enable_semantics(page, timeout=START)
    opened(page)
    build = build_of_page(page)
    offline_copy_ready(page)
    snapshot_kept(page, build)
    return build


@pytest.fixture(scope="module")
def returning_phone(phone_browser, served, tmp_path_factory) -> Path:
    """A phone's profile the day after its first visit to `served` (first_start: the offline copy
    and the snapshot of Python kept), made once for the module. A test that needs a phone that
    has been here before opens a copy of it (returning()): every later opening of the app is one
    of those, and a first visit costs the 2-core machine 15-20 s of one core, each time."""
    profile = tmp_path_factory.mktemp("returning") / "profile"
    with restarted(phone_browser, profile) as (page, said):
        first_start(page, served)
    return profile


def returning(template: Path, tmp_path: Path) -> Path:
    """A copy of the profile `template` (the browser on it closed) for this test's phone alone."""
    profile = tmp_path / "profile"
    shutil.copytree(template, profile, symlinks=True)
    return profile


def reopened(page, server) -> str:
    """The app opened at its own address on a phone that has been here before: its home; the build."""
    page.goto(url_of(server), timeout=START)
    enable_semantics(page, timeout=START)
    home(page)
    return build_of_page(page)


# The frames Flutter draws, counted before and after Python says its first screen is sent
# (web/early.js holds them until then; Flutter's first, a warm-up, is drawn without asking).
FRAMES_COUNTED = """(() => {
    const counted = window.__framesCounted = {before: 0, after: 0};
    let ready = false;
    addEventListener("pandapad-step", (event) => { if (event.detail === "ready") ready = true; });
    const ask = window.requestAnimationFrame;
    window.requestAnimationFrame = function (callback) {
        return ask.call(window, (at) => { counted[ready ? "after" : "before"]++; callback(at); });
    };
})()"""


def test_a_cold_opening_restores_python_and_opens_on_the_pad_it_was_left_on(phone_browser, served, tmp_path):
    """#44: the browser killed and started again, no network: Python comes back from the snapshot
    the first start kept, and the app's own address opens on the game's pad, as stored. #52: the
    snapshot holds pydantic's compiled core and the app's modules: a file the reader refuses is
    still refused in words naming its field, and a phone whose language changed meanwhile is
    answered in the new one. The snapshot's worker reads Python's engine from the offline copy,
    on a connection slow to send the service worker too: the code the browser optimizes for it
    is kept with the copy every later opening reads (web/early.js)."""
    profile = tmp_path / "profile"
    from tests.finished_examples import ALL
    bad = next(iter(ALL.values()))().model_dump(mode="json")
    bad["created"] = "not a day"
    refused = tmp_path / "a-bad-day.json"
    refused.write_text(json.dumps(bad))
    with static_server(served.root, slow={"sw.js": 6}) as slow, restarted(phone_browser, profile) as (page, said):
        first_start(page, slow)
        # A first visit restores the snapshot sent with the site (#52); the phone then keeps its own.
        assert any(line.startswith("Pandapad: Python restored from the site's snapshot") for line in said), said
        assert not any(line.startswith("Pandapad: Python started") for line in said), said
        start_game(page)
        tap_die(page, "yellow", 3)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        kept = [line for line in said if line.startswith("Pandapad: Python kept")]
        assert kept and kept[0].endswith("its engine read from the offline copy)"), said
        address = url_of(slow)
    with restarted(phone_browser, profile, offline=True) as (page, said):
        page.context.add_init_script(FRAMES_COUNTED)
        page.goto(address, timeout=START)
        enable_semantics(page, timeout=START)
        opened(page)
        assert "/game/" in page.url
        # Nothing drawn under the opening screen while Python starts: Flet's boot spinner took a
        # phone's thread and a core from Python's start, unseen (#52).
        frames = page.evaluate("window.__framesCounted")
        assert frames["before"] == 0 and frames["after"] > 0, frames
        page.get_by_role("button", name=re.compile(r"^Ann: 3\b")).first.tap()  # her hand, as stored
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        wait_for_text(page, "Hand total 3")
        assert any(line.startswith("Pandapad: Python restored from its snapshot") for line in said), said
        assert not any(line.startswith("Pandapad: Python started") for line in said), said
        screenshot(page, "web_cold_opening_on_the_pad")
        # The home is one tap away, and then the app's address opens on the home again.
        # pydantic's core, restored with its memory: a record it refuses is refused in words.
        import_from_the_pad(page, refused)
        said_on_screen(page, re.compile(r"^Refused, nothing was changed: .*created: .*not an ISO 8601 time"),
                       timeout=START)
        button(page, "Back").tap()
        home(page)
        # A second game: the next opening backs up the new one and finds the first unchanged since
        # its backup, which a laptop hard-links and Pyodide (no os.link) must copy: the app stopped
        # there, on every phone with a game left alone while another was played.
        start_game(page, ["Dee", "Eve"])
        tap_die(page, "yellow", 2)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        button(page, "Back").tap()
        home(page)
    with restarted(phone_browser, profile, offline=True) as (page, said):
        page.goto(address, timeout=START)
        enable_semantics(page, timeout=START)
        home(page)
        assert page.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).count() == 2
    # The phone's language changed while the app was closed: the same snapshot speaks German.
    with restarted(phone_browser, profile, offline=True, locale="de-DE") as (page, said):
        page.goto(address, timeout=START)
        enable_semantics(page, timeout=START)
        button(page, "Deine Daten").wait_for(timeout=START)
        assert page.get_by_role("button", name=re.compile(r"^Panda Royale fortsetzen, ")).count() == 2
        assert any(line.startswith("Pandapad: Python restored from its snapshot") for line in said), said
        assert not any(line.startswith("Pandapad: Python started") for line in said), said


# The kept snapshot rewritten: its bytes by `bytes` (the bytes -> new bytes), what it says of its
# libraries by `libs` (web/python-worker.js LIBS_HEADER, parsed -> new).
SPOIL = """async ([b, bytes, libs]) => {
    const cache = await caches.open('pandapad-python');
    const key = new URL('python-snapshot/' + b, document.baseURI).href;
    const kept = await cache.match(key);
    const header = JSON.parse(kept.headers.get('x-pandapad-libs'));
    const body = new Uint8Array(await kept.arrayBuffer());
    await cache.put(key, new Response(eval(bytes)(body), {headers: {
        'content-type': 'application/octet-stream', 'x-pandapad-libs': JSON.stringify(eval(libs)(header))}}));
    return header.placed.length;
}"""


@pytest.mark.parametrize("bytes_, libs", [
    # A disk error, a browser that changed under it: the bytes are not Python's memory.
    pytest.param("b => new Uint8Array(4096)", "h => h", id="not-pythons-memory"),
    # Another build of Pyodide or of a library: the libraries would land elsewhere than the
    # memory restored expects (a crash at the first call into pydantic's core, or worse).
    pytest.param("b => b", "h => ({...h, placed: h.placed.map(p => ({...p, heapEnd: p.heapEnd + 4096}))})",
                 id="libraries-placed-elsewhere"),
])
def test_a_snapshot_that_cannot_be_restored_is_thrown_away_and_python_starts_as_on_a_first_visit(
        phone_browser, served, returning_phone, tmp_path, bytes_, libs):
    profile = returning(returning_phone, tmp_path)
    with restarted(phone_browser, profile) as (page, said):
        build = reopened(page, served)
        assert page.evaluate(SPOIL, [build, bytes_, libs]) >= 2  # pydantic's core and msgpack's
    with restarted(phone_browser, profile, offline=True) as (page, said):
        page.goto(url_of(served), timeout=START)
        enable_semantics(page, timeout=START)
        home(page)
        assert any("could not be restored" in line for line in said), said
        assert any(line.startswith("Pandapad: Python started") for line in said), said
        # ... in the same opening, and the app works: a game started and its first tap shown.
        start_game(page)
        tap_die(page, "yellow", 3)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        # ... and a good one is kept again for the next opening.
        until(page, """b => caches.open('pandapad-python')
            .then(c => c.match(new URL('python-snapshot/' + b, document.baseURI).href))
            .then(r => r ? r.arrayBuffer().then(a => a.byteLength > 1000000) : false)""", build)


def test_a_snapshot_sent_with_the_site_that_the_phone_refuses_is_never_fetched_again(phone_browser, site, tmp_path):
    """#52: the site's snapshot of Python, which this phone cannot restore (its libraries said to lie
    elsewhere than Python puts them: a build gone wrong, an engine that places them otherwise):
    the first visit starts Python in the same opening and the phone keeps a snapshot of its own.
    Had it none (it could not keep one), the next opening starts Python again without fetching
    the site's 16 MB once more."""
    root = tmp_path / "web"
    shutil.copytree(site, root)
    about = json.loads((root / "python-snapshot.json").read_text())
    about["libs"]["placed"][0]["heapEnd"] += 4096
    (root / "python-snapshot.json").write_text(json.dumps(about))
    heard: list[str] = []
    with static_server(root, heard) as server, restarted(phone_browser, tmp_path / "profile") as (page, said):
        build = first_start(page, server)
        assert any("the site's Python could not be restored" in line for line in said), said
        assert any(line.startswith("Pandapad: Python started") for line in said), said
        assert heard.count("/python-snapshot.gz") == 1, heard
        page.evaluate("b => caches.open('pandapad-python').then(c => c.delete(new URL('python-snapshot/' + b, "
                      "document.baseURI).href))", build)
        page.reload(timeout=START)
        enable_semantics(page, timeout=START)
        home(page)
        assert sum(line.startswith("Pandapad: Python started") for line in said) == 2, said
        assert not any(line.startswith("Pandapad: Python restored") for line in said), said
        assert heard.count("/python-snapshot.gz") == 1, heard


# --------------------------------------------------------------------------- the phone's bad days (#46)


# A text on the screen, whole or in part: Flutter gives a node's words as its text or as its
# aria-label, and a Banner's as one label (its title, then what it says now).
SAID = """([text, pattern]) => Array.from(document.querySelectorAll('flt-semantics')).some(n => {
    const words = n.getAttribute('aria-label') || n.textContent || '';
    return pattern ? new RegExp(pattern, 'm').test(words) : words.includes(text);
})"""


def said_on_screen(page, text, timeout: float = 30_000) -> None:
    """Until `text` (a part of a node's words), or a pattern (re.compile: a JavaScript RegExp
    too, ^ at the start of any of the node's lines), is on the screen."""
    from playwright.sync_api import TimeoutError as NotInTime

    pattern = text.pattern if isinstance(text, re.Pattern) else None
    try:
        page.wait_for_function(SAID, arg=[None if pattern else text, pattern], polling=100, timeout=timeout)
    except NotInTime:  # what the screen said instead is the evidence of a failure
        raise AssertionError(f"not said on screen within {timeout / 1000:.0f} s: {pattern or text!r}; the screen "
                             f"said: {' | '.join(semantics_texts(page))}") from None


def resume_panda_royale(page, server) -> None:
    """The app opened afresh at its own address: on the pad it was left on (#44), else the game
    in progress resumed from the home; then Ann's hand (the pad opens on the next to enter)."""
    page.goto(url_of(server), timeout=START)
    enable_semantics(page, timeout=START)
    resume = page.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).first
    ann = page.get_by_role("button", name=re.compile(r"^Ann: ")).first
    resume.or_(ann).wait_for(timeout=FIRST_VISIT)
    if resume.count():
        resume.tap()
    ann.tap(timeout=START)


def test_storage_cleared_mid_game_is_said_at_once_and_a_full_storage_refuses_the_tap_in_words(
        phone_browser, served, returning_phone, tmp_path):
    """Site data cleared under the running app (what "Clear browsing data" and the browser's
    eviction do), on a page the offline copy served, as a phone opens the app every day (#55),
    then a phone whose storage is full: each is said in words, no tap is shown that is not
    stored, the page never loads itself again while the games are only in its memory, and the
    games on the screen can be saved out and kept again."""
    profile, origin = returning(returning_phone, tmp_path), origin_of(served)
    with restarted(phone_browser, profile) as (page, said):
        reopened(page, served)  # the day after the first visit: the offline copy serves the page
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        start_game(page)
        enter_hand(page, 1, {"yellow": [1]})
        page.evaluate("window.pandapadSamePage = true")  # gone if the page loads again
        page.context.new_cdp_session(page).send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        said_on_screen(page, "The browser cleared Pandapad's storage", timeout=2_000)  # over the pad
        screenshot(page, "web_storage_cleared")
        tap_die(page, "purple", 2)
        said_on_screen(page, re.compile(r"^Not saved: the browser's storage was cleared"))
        assert button(page, "Remove Purple 2").count() == 0  # nothing shown that is not stored
        button(page, "Remove Yellow 1").wait_for()  # what was stored before the clear is still shown
        # Closing or reloading the tab now would lose the games: the browser asks first.
        with page.expect_event("dialog") as asked:
            page.close(run_before_unload=True)
        assert asked.value.type == "beforeunload"
        asked.value.dismiss()
        with page.expect_download() as download:
            button(page, "Export").tap()
        saved_out = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["games"]
        assert [g["rounds"][0]["hands"]["p1"]["yellow"] for g in saved_out] == [[1]]
        assert page.evaluate("window.pandapadSamePage") is True
        button(page, "Keep them again").tap()
        said_on_screen(page, "Kept on this phone again: 1 game.")
        tap_die(page, "purple", 2)
        button(page, "Remove Purple 2").wait_for()
        assert page.evaluate("window.pandapadSamePage") is True
        # The offline copy that went with the site's data is made again, for the next opening offline.
        until(page, "() => navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))")
    # The browser's storage full (a quota of one byte, from the start of the browser): the tap is
    # refused in words and not shown; nothing stored before is lost.
    with restarted(phone_browser, profile, quota=(origin, 1)) as (page, said):
        resume_panda_royale(page, served)
        button(page, "Remove Purple 2").wait_for()
        tap_die(page, "blue", 3)
        said_on_screen(page, re.compile(r"^Not saved: this phone's storage is full"))
        screenshot(page, "web_storage_full")
        assert button(page, "Remove Blue 3").count() == 0
        assert button(page, "Remove Purple 2").count() == 1
    with restarted(phone_browser, profile) as (page, said):
        resume_panda_royale(page, served)
        hand = export_games(page)[0]["rounds"][0]["hands"]["p1"]
    assert (hand["yellow"], hand["purple"], hand["blue"]) == ([1], [2], [])


def test_what_the_phone_says_on_its_bad_days_comes_from_the_catalogs(phone_browser, served, tmp_path):
    """The words of #46's states on the phone by itself, in the pseudo-locale (each catalog message
    marked): Your data's counts and storage, a finished game's backup file, the storage cleared
    under the app, a second tab. A word without the marks did not come from the catalogs."""
    from tests.finished_examples import ALL
    from tests.test_browser_languages import speaking, unmarked
    from views.words import lang

    five = tmp_path / "five.json"
    five.write_text(json.dumps({"format": "pandapad/export", "version": 1,
                                "games": [make().model_dump(mode="json") for make in ALL.values()]}))
    names = ["A", "B", "C", "D", "E", "F", "John", "Susan", "Bill", "Allison", "Pandapad", "JSON", "five.json"]
    with speaking(lang.PSEUDO):
        said = {k: lang._(k) for k in ("Your data", "Choose a file to import", "Back", "History", "Save a backup file",
                                       "Export", "Pandapad is open in another tab")}
        said["import"] = lang.n_("Import {n} game", "Import {n} games", 5)
        said["cleared"] = lang._("The browser cleared Pandapad's storage")
        said["Keep them again"] = lang._("Keep them again")
        said["backup offered"] = lang._("A backup file keeps them if the browser's storage is cleared: it imports in "
                                        "Your data, on this phone or any other.")
        said["another tab"] = lang._("Not kept: {reason}", reason=lang._(
            "another tab of Pandapad has used the storage since it was cleared. Export the games here, close this "
            "tab, and import the file in Pandapad."))
    found = {}

    def look(where: str, page) -> None:
        if bad := unmarked(semantics_texts(page), names):
            found[where] = bad

    phone = Phone(phone_browser, locale="en-XA", accept_downloads=True)
    try:
        page = phone.open(url_of(served))
        button(page, said["Your data"]).tap(timeout=FIRST_VISIT)
        with page.expect_file_chooser() as chooser:
            scrolled_to(page, button(page, said["Choose a file to import"])).tap()
        chooser.value.set_files(str(five))
        scrolled_to(page, button(page, said["import"])).tap()
        page.get_by_text("five.json", exact=False).first.wait_for(timeout=START)
        look("Your data after an import", page)
        button(page, said["Back"]).tap()
        button(page, said["History"]).tap()
        page.get_by_role("button", name=re.compile(r", \d+ \w+ \d\d:\d\d")).first.tap()
        # The offer is put in mid-screen once the phone has counted its games, so a scroll may run
        # before it is there. Two suites at once timed out here on "Save a backup file" (120 s);
        # whether this was the cause is not shown: a probe's offer stayed in the tree after a swipe.
        said_on_screen(page, said["backup offered"], timeout=START)
        with page.expect_download() as download:
            scrolled_to(page, button(page, said["Save a backup file"])).tap()
        names.append(download.value.suggested_filename)
        page.get_by_text(download.value.suggested_filename, exact=False).first.wait_for()
        look("a finished game's backup file", page)
        second = phone.open(url_of(served))
        said_on_screen(second, said["Pandapad is open in another tab"], timeout=FIRST_VISIT)
        look("a second tab", second)
        second.close()
        page.context.new_cdp_session(page).send("Storage.clearDataForOrigin",
                                                {"origin": origin_of(served), "storageTypes": "all"})
        said_on_screen(page, said["cleared"])
        look("the storage cleared", page)
        with page.expect_download():
            button(page, said["Export"]).tap()
        look("the storage cleared, the games exported", page)
        # A tab opened now starts on the emptied storage (Chromium keeps the lock of before the clear
        # apart): keeping this tab's games there would be undone by its next save, and is refused.
        third = phone.open(url_of(served))
        button(third, said["Your data"]).wait_for(timeout=FIRST_VISIT)
        button(page, said["Keep them again"]).tap()
        try:
            said_on_screen(page, said["another tab"])
        except AssertionError as exc:  # the third tab's screen is the rest of the evidence
            raise AssertionError(f"{exc}\nthe third tab said: {' | '.join(semantics_texts(third))}") from None
        look("the storage cleared, keeping them again refused", page)
    finally:
        phone.close()
    assert not found, "words not from the catalogs:\n" + "\n".join(f"{s}: {b}" for s, b in found.items())


# --------------------------------------------------------------------------- the pad as it was left (#68)

# Python's start held until the test lets it go (window.__startPython()): a tap is then made on the
# picture while it shows, on any machine's speed. The moments the picture showed and was taken away.
HOLD_PYTHON = """(() => {
    const post = Worker.prototype.postMessage;
    let first = true;
    Worker.prototype.postMessage = function (message, ...rest) {
        if (first && message && message.pyodideUrl && !message.keepPython) {
            first = false;
            window.__startPython = () => post.call(this, message, ...rest);
            return;
        }
        return post.call(this, message, ...rest);
    };
})()"""
MOMENTS = """(() => {
    const moments = window.__moments = {};
    addEventListener("pandapad-picture-shown", () => {
        moments.shown = {frames: {...(window.__framesCounted || {})}};
    });
    addEventListener("pandapad-taps-made", (event) => { moments.taps = event.detail; });
})()"""
PICTURE = "caches.open('pandapad-picture').then(c => c.match(new URL('pandapad-picture', document.baseURI).href))"


def picture_kept(page, route: str, not_as: str | None = None) -> tuple[bytes, str]:
    """The picture of the pad the phone keeps and what it says of itself, once it is of this
    address and of the store as IndexedDB holds it now (a picture of before the last tap may be
    kept while that tap is stored), and says otherwise than not_as (web/picture.js)."""
    until(page, f"([r, n]) => Promise.all([{PICTURE}, window.pandapadStoreStamp()]).then(([k, now]) => {{"
                "  if (!k || k.headers.get('x-pandapad-picture') === n) return false;"
                "  const said = JSON.parse(k.headers.get('x-pandapad-picture'));"
                "  return said.route === r && JSON.stringify(said.stamp) === JSON.stringify(now); })", [route, not_as])
    return (bytes(page.evaluate(f"{PICTURE}.then(k => k.arrayBuffer()).then(b => Array.from(new Uint8Array(b)))")),
            page.evaluate(f"{PICTURE}.then(k => k.headers.get('x-pandapad-picture'))"))


def share_unlike(a: bytes, b: bytes, box: tuple[int, int, int, int] | None = None) -> float:
    """The share of pixels of two PNGs (of the same size; in box: left, top, right, bottom) that a
    person would see differ."""
    from PIL import Image, ImageChops
    one, two = (Image.open(io.BytesIO(png)).convert("RGB") for png in (a, b))
    assert one.size == two.size, (one.size, two.size)
    if box is not None:
        one, two = one.crop(box), two.crop(box)
    off = ImageChops.difference(one, two).convert("L").point(lambda v: 255 if v > 24 else 0)
    return off.histogram()[255] / (one.width * one.height)


def not_shown(page, why: str, said: list[str]) -> None:
    opened(page)
    assert "shown" not in page.evaluate("window.__moments"), "the picture was shown"
    assert f"Pandapad: the picture of the pad is not shown: {why}" in said, said


def test_a_cold_opening_shows_the_pad_as_it_was_left_at_once_and_a_tap_on_it_lands_on_that_player(
        phone_browser, served, returning_phone, tmp_path):
    """#68: the pad's picture, kept once the pad is still, is on the screen before Flutter draws a
    frame, looks as the live pad does, holds a die tapped on it and makes it on Ann's hand once the
    pad is live; it is never shown once the games were written since (an import), the phone's
    language changed, or the site's data was cleared."""
    from tests.finished_examples import ALL
    other = tmp_path / "another-game.json"
    other.write_text(json.dumps(next(iter(ALL.values()))().model_dump(mode="json")))
    profile = returning(returning_phone, tmp_path)
    with restarted(phone_browser, profile) as (page, said):
        reopened(page, served)
        start_game(page)
        tap_die(page, "yellow", 3)
        page.get_by_text(re.compile(r"^1 of 1 die\b")).wait_for()
        route = "/" + page.url.split("/", 3)[3]
        kept, said_of_it = picture_kept(page, route)
        live = page.screenshot()
        five = button(page, label("yellow", 5)).bounding_box()
        address = page.url
    # The picture is the pad as a person saw it.
    assert share_unlike(kept, live) < 0.005
    with restarted(phone_browser, profile, offline=True) as (page, said):
        for script in (FRAMES_COUNTED, MOMENTS, HOLD_PYTHON):
            page.context.add_init_script(script)
        page.on("console", lambda m: said.append(m.text))
        page.goto(address, timeout=START)
        page.wait_for_selector("#pandapad-opening.picture img.picture", state="visible", timeout=START)
        # On the screen before Flutter drew a frame of the app, and as the live pad looked, but for
        # the thin line at its top that says it is opening.
        assert page.evaluate("window.__moments.shown.frames") == {"before": 0, "after": 0}
        on_screen = page.screenshot()
        scale = PHONE["device_scale_factor"]
        assert share_unlike(on_screen, live, (0, 4 * scale, 412 * scale, 915 * scale)) < 0.005
        # A die tapped on the picture: held, and said so.
        page.touchscreen.tap(five["x"] + five["width"] / 2, five["y"] + five["height"] / 2)
        page.get_by_text("Opening… one moment").wait_for(state="visible")
        screenshot(page, "web_picture_holding_a_tap", settle=False)
        page.evaluate("window.__startPython()")
        opened(page)
        enable_semantics(page, timeout=START)
        # Made on Ann's hand, where the finger was.
        page.get_by_role("button", name=re.compile(r"^Ann: 8\b")).first.wait_for(timeout=START)
        wait_for_text(page, "Hand total 8")
        assert page.evaluate("window.__moments.taps") == {"made": 1, "refused": 0}
        _, said_of_it = picture_kept(page, route, not_as=said_of_it)  # the pad with 3 + 5, kept once still
        # An import writes the store: the picture of before it is not taken for the pad after it.
        import_from_the_pad(page, other)
        button(page, "Import 1 game").tap()
        said_on_screen(page, "Imported from another-game.json: 1 new", timeout=START)
    with restarted(phone_browser, profile, offline=True) as (page, said):
        page.context.add_init_script(MOMENTS)
        page.on("console", lambda m: said.append(m.text))
        page.goto(address, timeout=START)
        not_shown(page, "the games were written since", said)
        enable_semantics(page, timeout=START)
        page.get_by_role("button", name=re.compile(r"^Ann: 8\b")).first.wait_for(timeout=START)
        picture_kept(page, route, not_as=said_of_it)  # taken again, as the store is now
    # The phone's language changed while the app was closed.
    with restarted(phone_browser, profile, offline=True, locale="de-DE") as (page, said):
        page.context.add_init_script(MOMENTS)
        page.on("console", lambda m: said.append(m.text))
        page.goto(address, timeout=START)
        not_shown(page, "the phone looks otherwise", said)
        # The site's data cleared: the picture goes with the rest.
        assert page.evaluate("caches.has('pandapad-picture')")
        page.context.new_cdp_session(page).send("Storage.clearDataForOrigin",
                                                {"origin": origin_of(served), "storageTypes": "all"})
        until(page, "() => caches.has('pandapad-picture').then(has => !has)")
