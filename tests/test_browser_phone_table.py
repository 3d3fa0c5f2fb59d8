"""A table of phones with no laptop (#54), as three phones meet it: each a Chromium of its own with
the phone build, in a network namespace of its own on one Wi-Fi with no way out
(tests/phone_net.py), paired only through their cameras (tests/fake_camera.py: each phone's
camera films a screenshot of the other phone's code). The host's phone starts a Panda Royale
game, invites two guests' phones, then all three tap into one round at once."""
from __future__ import annotations

import json
import os
import re
import signal
import time

import pytest

from tests import fake_camera
from tests.browser_harness import enable_semantics, screenshot, wait_for_paint
from tests.pad_checks import main_py_score
from tests.phone_net import wifi
from tests.test_browser_panda_royale import button, label, start_game
from tests.test_web_phone import SITE, export_games, site, totals_shown  # noqa: F401 - site: the build, made if missing

pytestmark = pytest.mark.browser

START = 120_000
TAPS = 30  # each phone's taps in the burst


class Seat:
    """One phone at the table: its namespace, camera film and page."""

    def __init__(self, phone, film, page):
        self.phone, self.film, self.page = phone, film, page

    def shows(self, text, timeout: float = 30_000) -> None:
        self.page.get_by_text(text).first.wait_for(timeout=timeout)

    def film_of(self, other: "Seat") -> None:
        """This phone's camera now films what the other phone shows (read when a capture starts)."""
        wait_for_paint(other.page)
        fake_camera.write_y4m(self.film, [other.page.screenshot()])


def invite(host: Seat) -> None:
    """Invite a phone, from the host's pad: its invitation on show."""
    host.page.get_by_role("button", name="More").tap()
    host.page.get_by_role("menuitem", name="Invite a phone").tap()
    host.shows("Step 1: the guest reads this code")


def reads(host: Seat, guest: Seat, n: int) -> None:
    """The host's camera reads the code the guest shows: phone n is at the table, the guest follows
    the host's game, and the host is back on its pad."""
    host.film_of(guest)
    host.page.get_by_role("button", name="Read the guest's code").tap()
    host.shows(f"Phone {n} is at the table.")
    guest.page.wait_for_url(re.compile(r"/table/"))
    guest.shows("Following the host's phone")
    host.page.get_by_role("button", name="Back to the game").tap()


def pair(host: Seat, guest: Seat, n: int) -> None:
    """Invite a phone on the host, Join a table on the guest: two codes, each read by the other's camera."""
    invite(host)
    guest.film_of(host)
    guest.page.get_by_role("button", name="Join a table").tap()
    guest.shows("Step 2: the host reads this code")
    reads(host, guest, n)


@pytest.fixture(scope="module")
def table(browser, site):  # noqa: F811
    with wifi(3) as net:
        seats = []
        for phone in net.phones:
            # The first guest's browser keeps its storage on disk, as a phone's does when the
            # system kills it (test_a_guest_whose_browser_is_killed_…).
            film = phone.start(browser.browser_type, SITE, kept=phone is net.phones[1])
            page = phone.open(accept_downloads=True)
            page.set_default_timeout(30_000)
            seats.append(Seat(phone, film, page))
        for seat in seats:
            enable_semantics(seat.page, timeout=START)
            seat.page.get_by_role("button", name="Panda Royale, 2–10 players").wait_for(timeout=START)
        host, *guests = seats
        start_game(host.page)
        for n, guest in enumerate(guests, start=1):
            pair(host, guest, n)
        host.shows("2 other phones at this table")
        yield seats


def browser_pids(seat: Seat) -> list[int]:
    """Every process of the phone's browser (its namespace's Chromium)."""
    found = seat.phone.pids("chromium")
    assert found, f"no browser in {seat.phone.ns}"
    return found


def kill_browser(seat: Seat) -> None:
    """The phone's browser killed as the system kills an app (SIGKILL, every process of it): its
    links end with no goodbye."""
    for pid in browser_pids(seat):
        os.kill(pid, signal.SIGKILL)
    seat.phone.browser = seat.phone.kept = None


# Whether `text` is part of what the phone's screen says (its semantics tree).
SAYS = """(text) => Array.from(document.querySelectorAll('flt-semantics')).some(
    n => ((n.getAttribute('aria-label') || '') + ' ' + (n.textContent || '')).includes(text))"""


def said(seat: Seat, text: str, timeout: float = 60_000) -> None:
    """Until `text` is part of what the phone's screen says."""
    seat.page.wait_for_function(SAYS, arg=text, polling=100, timeout=timeout)


def hand_of(seat: Seat, name: str) -> None:
    seat.page.get_by_role("button", name=re.compile(rf"^{name}: ")).first.tap()
    seat.page.get_by_text(name, exact=True).first.wait_for()


# Three phone builds started from nothing (three Pythons and Flutters on 2 cores, 65 s here alone),
# two pairings, then 90 taps: more than the default budget beside another module of the suite.
@pytest.mark.timeout(480)
def test_three_phones_tap_into_one_round_at_once_and_every_tap_lands_in_the_hosts_store(table, artifacts_dir):
    host, one, two = table
    players = {host: "Ann", one: "Ben", two: "Cat"}
    for seat, name in players.items():
        hand_of(seat, name)
    # Each phone's hand starts with one die; then 30 taps each, by turns across the phones (each
    # tap on a die the last tap of that phone left there: a tap lost or undone by another phone's
    # save leaves the next one nothing to tap, and the test stops there).
    face = {seat: 1 for seat in players}
    for seat in players:
        button(seat.page, label("yellow", 1)).tap()
    for k in range(TAPS):
        for seat in players:
            if k % 2 == 0:
                button(seat.page, f"Remove {label('yellow', face[seat])}").first.tap()
            else:
                # A yellow d6's faces (round 1); each phone ends on its own face.
                face[seat] = (k + 2 * list(players).index(seat)) % 6 + 1
                button(seat.page, label("yellow", face[seat])).tap()
    expected = {players[seat]: face[seat] for seat in players}
    # Every phone comes to the same totals (the bench times it: bench/bench_phone_table.py).
    for seat in players:
        deadline = time.monotonic() + 10
        while totals_shown(seat.page) != expected and time.monotonic() < deadline:
            seat.page.wait_for_timeout(100)
        assert totals_shown(seat.page) == expected, players[seat]
    for seat in players:
        screenshot(seat.page, f"phone_table_after_the_burst_{players[seat]}")
    # What the host's phone stores is what every phone shows, and what main.py score says.
    games = export_games(host.page)
    record = max(games, key=lambda g: g["created"])
    ids = {p["name"]: p["id"] for p in record["players"]}
    hands = record["rounds"][0]["hands"]
    assert {name: hands[ids[name]]["yellow"] for name in expected} == {n: [f] for n, f in expected.items()}
    result = main_py_score(record)
    names = {p["id"]: p["name"] for p in result["players"]}
    assert {names[p["id"]]: p["total"] for p in result["players"]} == expected


LINKS = "() => Object.keys(window.__pandapadLinks).length"


def test_a_guest_whose_phone_sleeps_past_its_link_comes_back_by_one_code_under_its_number(table):
    """#69: a locked screen stops the phone's browser (SIGSTOP: iOS suspends it whole); the host's
    page gives up on the link (WebRTC's consent checks, then 5 s more: about 20 s here); the guest, woken, says so, and
    joins again by the one code the host's camera reads (the invitation the host kept for it)."""
    host, one, two = table
    if host.page.get_by_role("button", name=re.compile(r"^Ann: ")).count() == 0:  # the export left it on the home
        host.page.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).first.tap()
    links = host.page.evaluate(LINKS)
    asleep = browser_pids(two)
    for pid in asleep:
        os.kill(pid, signal.SIGSTOP)
    try:
        said(host, "the link to phone 2 dropped")
        # The host's page closed it.
        host.page.wait_for_function(f"() => ({LINKS})() < {links}", polling=100, timeout=60_000)
        # The game goes on meanwhile: Ann's die changes on the host's phone.
        hand_of(host, "Ann")
        button(host.page, f"Remove {label('yellow', totals_shown(host.page)['Ann'])}").first.tap()
        button(host.page, label("yellow", 6)).tap()
        host.page.get_by_role("button", name=re.compile(r"^Ann: 6\b")).first.wait_for()
    finally:
        for pid in asleep:
            os.kill(pid, signal.SIGCONT)
    said(two, "To go on, tap Join a table on the home: the host's phone then reads one code from this phone.")
    button(two.page, "Back").tap()
    keep = two.page.get_by_role("button", name="Keep this game")
    keep.wait_for()  # the drop's note, still on the home
    two.page.get_by_role("button", name="Join a table").tap()
    two.shows("Joining again: the host reads this code")
    keep.wait_for(state="detached")  # closed: it hid the code's lower half at 360 x 740
    screenshot(two.page, "phone_table_guest_joining_again")
    invite(host)  # the one code the guest shows is read from there, as any guest's answer
    reads(host, two, 2)  # its own number, not a new phone's
    assert totals_shown(two.page) == totals_shown(host.page)
    said(host, "2 other phones at this table")
    assert host.page.get_by_text(re.compile("dropped")).count() == 0
    # Its taps are saved again: Cat's die, tapped on phone 2, shows on the host's.
    hand_of(two, "Cat")
    cat = totals_shown(two.page)["Cat"]
    button(two.page, f"Remove {label('yellow', cat)}").first.tap()
    button(two.page, label("yellow", 2)).tap()
    host.page.get_by_role("button", name=re.compile(r"^Cat: 2\b")).first.wait_for()


# What the phone build keeps for good beside the games (views/hosts/standalone.py NOTES), as the
# browser's IndexedDB holds it: what a browser killed now starts again with.
NOTES_KEPT = """() => new Promise((resolve) => {
  const open = indexedDB.open("/data");
  open.onerror = () => resolve(null);
  open.onsuccess = () => {
    const db = open.result;
    try {
      const get = db.transaction("FILE_DATA").objectStore("FILE_DATA").get("/data/notes.json");
      get.onsuccess = () => { db.close(); resolve(get.result ? new TextDecoder().decode(get.result.contents) : null); };
      get.onerror = () => { db.close(); resolve(null); };
    } catch (e) { db.close(); resolve(null); }
  };
})"""


def spare_kept(seat: Seat) -> str | None:
    notes = seat.page.evaluate(NOTES_KEPT)
    return json.loads(notes).get("pandapad.table.spare") if notes else None


def kept_after(seat: Seat, used: str | None, timeout: float = 30) -> None:
    """Until the phone has kept an invitation other than `used` in IndexedDB (page.wait_for_function
    takes the Promise an async check returns for a true answer, so it is asked from here)."""
    deadline = time.monotonic() + timeout
    while spare_kept(seat) in (None, used):
        assert time.monotonic() < deadline, "the host's next invitation for this phone was never kept"
        seat.page.wait_for_timeout(100)


def start_again(seat: Seat, browser) -> None:
    """The phone's browser started again on what it kept on the phone, on Join a table."""
    seat.phone.launch(browser.browser_type, fake_camera.camera_args(seat.film), kept=True)
    seat.page = seat.phone.open()
    seat.page.set_default_timeout(30_000)
    enable_semantics(seat.page, timeout=START)
    seat.page.get_by_role("button", name="Join a table").tap(timeout=START)


def test_a_guest_whose_browser_is_killed_joins_again_by_one_code_under_its_number_with_the_current_record(
        table, browser):
    host, one, two = table
    if host.page.get_by_role("button", name=re.compile(r"^Ann: ")).count() == 0:  # the export left it on the home
        host.page.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).first.tap()
    kill_browser(one)
    # The host's phone hears the guest stop answering, and says so on its pad.
    said(host, "the link to phone 1 dropped")
    # The game goes on without it: Ann's die changes on the host's phone.
    hand_of(host, "Ann")
    button(host.page, f"Remove {label('yellow', totals_shown(host.page)['Ann'])}").first.tap()
    button(host.page, label("yellow", 5)).tap()
    host.page.get_by_role("button", name=re.compile(r"^Ann: 5\b")).first.wait_for()
    shown = totals_shown(host.page)
    # Its browser started again with what it kept on the phone (its id, and the invitation the
    # host sent for its return): Join a table shows its answer at once, and the host reads that
    # one code; the phone is back under its own number.
    start_again(one, browser)
    one.shows("Joining again: the host reads this code")
    used = spare_kept(one)
    invite(host)
    reads(host, one, 1)
    assert totals_shown(one.page) == shown
    said(host, "2 other phones at this table")
    assert host.page.get_by_text(re.compile("dropped")).count() == 0
    screenshot(host.page, "phone_table_host_after_a_guest_joined_again")
    # Killed again the moment the host's next invitation for it is kept: it still joins by one code
    # (in the browser's local storage, where it was kept before, it reached the disk up to a
    # minute later, and the phone came back on Step 2: two codes).
    kept_after(one, used)
    kill_browser(one)
    said(host, "the link to phone 1 dropped")
    start_again(one, browser)
    one.shows("Joining again: the host reads this code")
    invite(host)
    reads(host, one, 1)
    said(host, "2 other phones at this table")


def test_when_the_hosts_browser_is_killed_each_guest_says_so_and_keeps_its_last_copy(table):
    host, one, two = table
    last = totals_shown(host.page)
    kill_browser(host)
    for guest in (one, two):
        said(guest, "Not linked to the host's phone: nothing entered here is saved")
        assert totals_shown(guest.page) == last
    screenshot(two.page, "phone_table_guest_after_the_host_left")
    # Guest two keeps the game as last seen; it is then in its own store, in progress.
    two.page.get_by_role("button", name="Keep this game").tap()
    said(two, "Kept on this phone")
    # Guest one taps on: nothing is saved, and it is said.
    hand_of(one, "Ben")
    button(one.page, f"Remove {label('yellow', last['Ben'])}").first.tap()
    said(one, "Not saved: the link to the host's phone is down")
    two.page.goto(two.phone.url)
    enable_semantics(two.page, timeout=START)
    two.page.get_by_role("button", name=re.compile(r"^Resume Panda Royale")).first.tap(timeout=START)
    two.page.get_by_role("button", name=re.compile(r"^Ann: ")).first.wait_for()
    assert totals_shown(two.page) == last
