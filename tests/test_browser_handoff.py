"""A game handed from one phone to another by QR code (#53), with two phones in headless Chromium
(touch, 412 × 915), each on its own server and store: phone A shows the code, its screenshots are
played to phone B as its camera (tests/fake_camera.py), B imports, and the game B stores is byte
for byte the game A stored, and `main.py score` says the same of both.

Cases: a finished game of each of the five games (three players; two for Ur, its most), a night of
five from History, a ten-player game of ten rounds with 40-character names (a loop of codes) with
one code missed the first time round, a game in progress that goes on on B, a code changed by one
character, another sending's code and another app's code shown to the reader, the camera refused,
and a browser with no camera."""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scoring import parse_record
from storage import Store
from storage.handoff import frame_header
from tests import finished_examples as fx
from tests.browser_harness import (REPO_ROOT, another_chromium, flet_server, open_app_page, screenshot, scrolled_to,
                                   table_server, wait_for_paint, wait_for_text)
from tests.fake_camera import ALLOWED, write_y4m
from tests.pad_checks import phone_page
from tests.test_browser_panda_royale import tap_die
from tests.records_for_tests import record
from views.words.titles import title_of

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EVENING = "2026-11-27T{}:00Z"
# One finished game of each of the five, the names as a table writes them (accents, CJK, emoji).
FIVE = {
    "panda-royale": record("panda-royale", ["Zoë", "Łukasz", "美咲"], rounds=[{"hands": {
        "zoë": {"yellow": [5], "green": [20, 5]}, "łukasz": {"yellow": [2], "green": [10]},
        "美咲": {"yellow": [8], "green": [20, 12]}}}]),
    "royal-ur": record("royal-ur", ["Zoë", "Łukasz"], rounds=[
        {"winner": "zoë", "loser": {"unentered": 2, "start": 1, "home": 3, "board": [1]}},
        {"winner": "łukasz", "loser": {"unentered": 1, "start": 2, "home": 1, "board": [5, 1, 1]}}]),
    "nokosu-dice": record("nokosu-dice", ["Zoë", "Łukasz", "美咲"], rounds=[
        {"declared": {"zoë": 3, "łukasz": 0, "美咲": 5}, "tricks": {"zoë": 3, "łukasz": 0, "美咲": 9}}]),
    "pandoria": record("pandoria", ["Zoë", "Łukasz", "美咲"], final={
        "zoë": {"points": 54, "wood": 6}, "łukasz": {"points": 50, "gold": 9}, "美咲": {"points": 47, "crystal": 2}}),
    "pass-the-pandas": record("pass-the-pandas", ["Zoë", "Łukasz", "美咲 🐼"], settings={"target": 10},
                              rounds=[{"out": [{"player": "zoë", "points": 11}]}]),
}
LIVE = parse_record({**record("panda-royale", ["Ann", "Ben", "Cat"], rounds=[{"hands": {
    "ann": {"yellow": [5], "green": [20, 5]}, "ben": {"yellow": [2], "green": [10]},
    "cat": {"yellow": [8], "green": [20, 12]}}}]), "id": "live", "created": "2026-11-27T23:10:00Z"})


def five() -> list:
    return [parse_record({**data, "id": f"night-{k}", "created": EVENING.format(f"{19 + k}:00"),
                          "finished": EVENING.format(f"{19 + k}:50")}) for k, data in enumerate(FIVE.values())]


@pytest.fixture(scope="module")
def phones(tmp_path_factory):
    """Phone A's server and store (the games to send) and phone B's (empty)."""
    a, b = tmp_path_factory.mktemp("phone-a"), tmp_path_factory.mktemp("phone-b")
    ten = fx.ten_players().model_copy(update={"created": "2026-11-20T19:00:00Z", "finished": "2026-11-20T22:00:00Z"})
    with Store.open(a) as store:
        for game in [*five(), ten, LIVE]:
            store.save(game, None)
    with flet_server("main.py", args=["--data-dir", str(a)], port_arg="--port") as server_a, \
            flet_server("main.py", args=["--data-dir", str(b)], port_arg="--port") as server_b:
        yield {"a": (server_a, a), "b": (server_b, b)}


def exported(data: Path, tmp: Path) -> dict[str, dict]:
    """Every game as `main.py export` writes it, from a copy of a store its server holds locked."""
    copy = tmp / f"copy-{time.monotonic_ns()}"
    shutil.copytree(data, copy, ignore=shutil.ignore_patterns("*.lock"))
    out = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "export", "--data-dir", str(copy)],
                         capture_output=True, text=True, timeout=60, encoding="utf-8")
    assert out.returncode == 0, out.stderr
    return {g["id"]: g for g in json.loads(out.stdout)["games"]}


def scored(game: dict, tmp: Path) -> str:
    path = tmp / f"{game['id']}-{time.monotonic_ns()}.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "score", str(path)],
                         capture_output=True, text=True, timeout=60, encoding="utf-8")
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def same_on_both(ids, phones, tmp: Path) -> None:
    """B stores each game byte for byte as A does, and `main.py score` says the same of both."""
    on_a, on_b = exported(phones["a"][1], tmp), exported(phones["b"][1], tmp)
    for game_id in ids:
        assert game_id in on_b, f"{game_id} did not arrive: {sorted(on_b)}"
        assert json.dumps(on_b[game_id], ensure_ascii=False) == json.dumps(on_a[game_id], ensure_ascii=False)
        assert scored(on_b[game_id], tmp) == scored(on_a[game_id], tmp)


def code_pictures(page, timeout: float = 60) -> list[bytes]:
    """What phone A's screen shows: a picture of each of its codes, in order. Each screenshot is
    read as a camera would (ZXing): a loop's codes, four a second, are kept as they come round,
    whatever the machine's speed, until every code k of n has been seen."""
    import zxingcpp
    from PIL import Image

    card = page.get_by_role("img", name=re.compile(r"^QR code of th")).first
    card.wait_for()
    seen: dict[int, bytes] = {}
    n = None
    end = time.monotonic() + timeout
    while n is None or len(seen) < n:
        assert time.monotonic() < end, f"saw codes {sorted(seen)} of {n}"
        shot = page.screenshot(clip=card.bounding_box())
        for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(shot))):
            header = frame_header(found.text)
            if header is not None:
                _version, k, n, _checksum = header
                seen.setdefault(k, shot)
    return [seen[k] for k in sorted(seen)]


def png_of(text: str) -> bytes:
    """A QR code as another app would show it (segno, as the app draws its own)."""
    import segno
    out = io.BytesIO()
    segno.make(text, error="m", boost_error=False).save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def receive(page, film: Path, shots: list[bytes], frames_each: int = 3) -> None:
    """B films `shots` and opens Receive from another phone from its home: the camera opens
    (assets/camera.js counts its openings in window.__pandapadCamera)."""
    write_y4m(film, shots, frames_each)
    before = page.evaluate("window.__pandapadCamera.opened")
    page.get_by_role("button", name="Receive from another phone", exact=True).tap()
    page.wait_for_function(f"window.__pandapadCamera.opened > {before}", polling=100)


def address_after_pick(page) -> None:
    """The order a busy phone may take: Flutter moves the browser's address to the next screen
    after a frame, so the Receive screen's pick (a file input's click) can come first. Here the
    next address is held back until that click is made, where the click did not come first."""
    page.evaluate("""() => {
        const push = history.pushState, click = HTMLInputElement.prototype.click;
        let held = null;
        history.pushState = (...args) => { held = args; };
        HTMLInputElement.prototype.click = function () {
            const out = click.call(this);
            history.pushState = push;
            HTMLInputElement.prototype.click = click;
            if (held) push.apply(history, held);
            // Held back, or not yet pushed at all: a loaded machine's pick may come first by itself
            // (a fresh-clone run: nothing held, the address pushed after the click).
            window.__pandapadPickFirst = held !== null || location.pathname !== "/receive";
            return out;
        };
    }""")


def camera(page) -> dict:
    """What the last reading came to: the frames in the order heard, what it said, its end."""
    return page.evaluate("(({stream, ...told}) => told)(window.__pandapadCamera)")


def camera_off(page) -> bool:
    """The last reading's camera has let go: every track of its stream ended."""
    return page.evaluate("window.__pandapadCamera.stream.getTracks().every(t => t.readyState === 'ended')")


def home(page) -> None:
    """Back to the home: every screen is drawn over the home (views/app.py), one tap away."""
    left = page.url
    page.get_by_role("button", name="Back").first.tap()
    page.wait_for_url(lambda url: url != left)
    page.get_by_role("button", name="Receive from another phone", exact=True).wait_for()


def test_a_night_of_five_from_history_arrives_as_stored_and_each_game_again_is_unchanged(browser, phones, camera_film,
                                                                                          tmp_path):
    a = phone_page(browser, phones["a"][0].url)
    b = phone_page(browser, phones["b"][0].url, **ALLOWED)
    try:
        # A: History, Send games: the last evening's five are chosen.
        a.get_by_role("button", name="History", exact=True).tap()
        a.get_by_role("button", name="Send games").tap()
        a.get_by_role("button", name="Send 5 games").tap()
        wait_for_text(a, "5 games")
        shots = code_pictures(a)
        receive(b, camera_film, shots)
        wait_for_text(b, "The codes hold 5 games: 5 new, 0 updated, 0 unchanged.")
        screenshot(b, "receive_preview_412x915")
        b.get_by_role("button", name="Import 5 games").tap()
        wait_for_text(b, "Imported from the other phone: 5 new, 0 updated, 0 unchanged.")
        same_on_both([g.id for g in five()], phones, tmp_path)
        # Each game on its own, from its finished screen: its code holds the game B now has.
        home(b)
        home(a)
        for game in five():
            # A: the game's tile among the last results, then Send to another phone.
            scrolled_to(a, a.get_by_text(re.compile(rf"^{re.escape(title_of(game.game))}, \d+\sNov")).first).tap()
            a.get_by_role("button", name="Send to another phone").tap()
            shots = code_pictures(a)
            assert len(shots) == 1, f"{game.game}: a game of three is one code"
            receive(b, camera_film, shots)
            wait_for_text(b, "The codes hold 1 game: 0 new, 0 updated, 1 unchanged. Nothing to import: "
                             "every game is stored already.")
            home(b)
            home(a)
    finally:
        a.context.close()
        b.context.close()


def test_a_loop_of_codes_arrives_though_one_was_missed_the_first_time_round(browser, phones, camera_film, tmp_path):
    a = phone_page(browser, f"{phones['a'][0].url}send/share-ten")
    b = phone_page(browser, phones["b"][0].url, **ALLOWED)
    try:
        wait_for_text(a, "Code 1 of 2")
        shots = code_pictures(a)
        assert len(shots) == 2, "ten players, ten rounds, 40-character names: a loop of two codes"
        # The camera catches the first code and misses the second; the loop comes round again.
        receive(b, camera_film, [shots[0]] * 4 + shots, frames_each=3)
        wait_for_text(b, "The codes hold 1 game: 1 new, 0 updated, 0 unchanged.")
        assert sorted(camera(b)["heard"]) == [1, 2] and camera(b)["outcome"] == "frames"
        b.get_by_role("button", name="Import 1 game").tap()
        wait_for_text(b, "Imported from the other phone: 1 new, 0 updated, 0 unchanged.")
        same_on_both(["share-ten"], phones, tmp_path)
    finally:
        a.context.close()
        b.context.close()


def test_a_game_in_progress_goes_on_on_the_other_phone_from_where_it_was(browser, phones, camera_film, tmp_path):
    a = phone_page(browser, phones["a"][0].url, **ALLOWED)
    b = phone_page(browser, phones["b"][0].url, **ALLOWED)
    try:
        a.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).first.tap()
        wait_for_text(a, "Round 1 is in")
        wait_for_text(a, "Leader: Cat \u00b7 40")
        a.get_by_role("button", name="More").tap()
        a.get_by_role("menuitem", name="Send to another phone").tap()
        shots = code_pictures(a)
        receive(b, camera_film, shots)
        wait_for_text(b, "The codes hold 1 game: 1 new, 0 updated, 0 unchanged.")
        b.get_by_role("button", name="Import 1 game").tap()
        b.get_by_role("button", name="Go on with the game").tap()
        # B's pad is where A's was, and takes the next entry there.
        wait_for_text(b, "Round 1 is in")
        wait_for_text(b, "Leader: Cat \u00b7 40")
        same_on_both(["live"], phones, tmp_path)
        b.get_by_role("button", name="Start round 2").tap()
        b.get_by_text(re.compile(r"^Round 2")).first.wait_for()
        tap_die(b, "yellow", 4)
        b.get_by_text(re.compile(r"^1 of \d+ dice?\b")).first.wait_for()
        # Handed back to A, the laptop's table: its game in progress stays as it is (phones of the
        # table may be on it), and the preview says so instead of "stored already".
        b.get_by_role("button", name="More").tap()
        b.get_by_role("menuitem", name="Send to another phone").tap()
        shots = code_pictures(b)
        home(a)
        receive(a, camera_film, shots)
        wait_for_text(a, "The codes hold 1 game: 0 new, 0 updated, 0 unchanged, 1 left as it is (being played "
                         "here now). Nothing to import: a game in progress here stays as it is while phones may "
                         "be playing it.")
    finally:
        a.context.close()
        b.context.close()


def test_a_changed_code_is_refused_and_other_codes_are_not_mixed_in(browser, phones, camera_film, tmp_path):
    from storage.handoff import frames_of
    b = phone_page(browser, phones["b"][0].url, **ALLOWED)
    try:
        # Another app's code (a link): the reader says so and goes on reading; Cancel closes it.
        receive(b, camera_film, [png_of("https://example.org/menu")], frames_each=12)
        b.wait_for_function("window.__pandapadCamera.notes.includes('foreign')", polling=100)
        assert "not a Pandapad code" in b.inner_text("#pandapad-camera-note")
        screenshot(b, "receive_camera_412x915", settle=False)
        b.tap("#pandapad-camera button")
        wait_for_text(b, "The camera is closed. Tap Read the codes to start again.")
        assert b.evaluate("document.querySelector('#pandapad-camera')") is None
        assert camera_off(b)
        # The back gesture while the camera reads: the home, the camera off.
        wait_for_paint(b)
        b.get_by_role("button", name="Read the codes").tap()
        b.wait_for_function("window.__pandapadCamera.opened === 2 && window.__pandapadCamera.notes.includes('foreign')",
                            polling=100)
        b.go_back()
        b.get_by_role("button", name="Receive from another phone", exact=True).wait_for()
        assert b.evaluate("document.querySelector('#pandapad-camera')") is None
        assert camera_off(b) and camera(b)["outcome"] == "cancel"
        # A busy phone, where the pick's click comes before the address says /receive: the camera
        # opens all the same (the back gesture above left an ask behind).
        address_after_pick(b)
        # One character changed in a code of a game: refused in words, nothing written.
        game = parse_record({**FIVE["pandoria"], "id": "changed", "created": "2026-11-28T19:00:00Z",
                             "finished": "2026-11-28T20:00:00Z"})
        [frame] = frames_of([game.model_dump(mode="json")], "2026-11-28T20:01:00Z")
        k = len(frame) - 5
        changed = frame[:k] + ("A" if frame[k] != "A" else "B") + frame[k + 1:]
        receive(b, camera_film, [png_of(changed)])
        assert b.evaluate("window.__pandapadPickFirst")  # the pick came before the address
        b.get_by_text(re.compile(r"^Refused, nothing was changed: (code 1 of 1: not Base45|the codes do not "
                                 r"match their checksum: one was misread or changed)")).first.wait_for()
        assert b.get_by_role("button", name=re.compile(r"^Import")).count() == 0
        assert game.id not in exported(phones["b"][1], tmp_path)
        home(b)
        # A code of another sending shown between the two of a loop: said, never mixed in.
        loop = frames_of([fx.ten_players().model_copy(update={"id": "loop-ten"}).model_dump(mode="json")],
                         "2026-11-28T20:02:00Z")
        other = frames_of([g.model_dump(mode="json") for g in five()[:2]], "2026-11-28T20:03:00Z")
        assert len(loop) == 2 and len(other) == 1
        receive(b, camera_film, [png_of(loop[0]), png_of(other[0]), png_of(loop[1])], frames_each=12)
        # The loop's one game, new to B (the other sending held two games B has).
        wait_for_text(b, "The codes hold 1 game: 1 new, 0 updated, 0 unchanged.")
        assert "other" in camera(b)["notes"] and sorted(camera(b)["heard"]) == [1, 2]
    finally:
        b.context.close()


def test_a_refused_camera_and_a_browser_with_none_are_said_with_the_file_import_offered(browser, phones, tmp_path):
    b = phone_page(browser, phones["b"][0].url)  # the person said no when the browser asked
    try:
        b.get_by_role("button", name="Receive from another phone", exact=True).tap()
        b.get_by_text(re.compile(r"^The camera was not allowed\.")).first.wait_for()
        b.get_by_role("button", name="Choose a file to import").wait_for()
        screenshot(b, "receive_refused_412x915")
    finally:
        b.context.close()
    with another_chromium(browser) as desktop:  # no camera at all, as most desktops
        page = open_app_page(desktop, phones["b"][0].url, has_touch=False, is_mobile=False, device_scale_factor=1)
        try:
            page.get_by_role("button", name="Receive from another phone", exact=True).click()
            page.get_by_text(re.compile(r"^No camera can be used here\.")).first.wait_for()
            page.get_by_role("button", name="Choose a file to import").click()
            page.get_by_role("button", name="Export JSON").wait_for()  # Your data, where the file import is
        finally:
            page.context.close()
    # The host's phone at a table (--lan): the table's plain http:// address on the Wi-Fi gets no
    # camera from any browser; said so, with the file import instead.
    with table_server(tmp_path / "table", "guests-of-the-table") as table:
        wifi = re.search(r"served to the table at http://([^/]+)/", table.log_tail(100_000)).group(1)
        page = phone_page(browser, f"http://{wifi}/?token={table.host_token}", **ALLOWED)
        try:
            page.get_by_role("button", name="Receive from another phone", exact=True).tap()
            page.get_by_text(re.compile(r"^This browser gives the camera only to a secure")).first.wait_for()
            page.get_by_role("button", name="Choose a file to import").wait_for()
        finally:
            page.context.close()
