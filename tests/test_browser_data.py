"""Your data and Settings in headless Chromium (issue #13): the app's exports are the files of
`main.py export`; every setting is applied and survives a restart of the server."""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from storage import Store, samples
from tests.browser_harness import REPO_ROOT, flet_server, open_app_page, screenshot, scrolled_to, type_names, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def app(data_dir: Path):
    return flet_server("main.py", args=["--data-dir", str(data_dir)], port_arg="--port")


def run_main(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args], text=True, capture_output=True,
                          cwd=REPO_ROOT, timeout=60)


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def test_the_app_exports_the_files_of_main_py_export(browser, tmp_path):
    data = tmp_path / "data"
    with Store.open(data) as store:
        for record in samples.history(11, 6):
            store.save(record, None)
    downloads = {}
    with app(data) as server:
        page = open_app_page(browser, server.url, accept_downloads=True)
        button(page, "Your data").tap()
        wait_for_text(page, "Export every game")
        for fmt, label in (("json", "Export JSON"), ("csv", "Export CSV")):
            with page.expect_download() as download:
                button(page, label).tap()
            assert download.value.suggested_filename.endswith(f".{fmt}")
            downloads[fmt] = Path(download.value.path()).read_text(encoding="utf-8")
            page.get_by_text(re.compile(rf"^Exported \d+ games as {fmt.upper()}\.$")).wait_for()
        screenshot(page, "data_export_412x915")
        page.context.close()
    # The server is gone: the command line reads the same store.
    cli_json = run_main("export", "--data-dir", str(data))
    cli_csv = run_main("export", "--format", "csv", "--data-dir", str(data))
    assert cli_json.returncode == cli_csv.returncode == 0
    app_export, cli_export = json.loads(downloads["json"]), json.loads(cli_json.stdout)
    assert app_export["format"] == cli_export["format"] == "pandapad/export"
    assert app_export["games"] == cli_export["games"] and len(app_export["games"]) > 0
    assert downloads["csv"] == cli_csv.stdout
    assert list(csv.reader(io.StringIO(downloads["csv"])))[0][:3] == ["game_id", "game", "created"]


def background_is_dark(page) -> bool:
    shot = page.screenshot(clip={"x": 400, "y": 900, "width": 4, "height": 4})
    from PIL import Image  # noqa: WPS433 (only this test reads pixels)
    pixel = Image.open(io.BytesIO(shot)).convert("RGB").getpixel((1, 1))
    return sum(pixel) / 3 < 100


def becomes_dark(page, seconds: float = 5) -> bool:
    """The stored dark theme shows within `seconds` of the home's texts (Flet's light start-up
    spinner can cover the home for a moment first)."""
    deadline = time.monotonic() + seconds
    while not background_is_dark(page):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)
    return True


def test_each_setting_is_applied_and_survives_a_restart(browser, tmp_path):
    data = tmp_path / "data"
    with app(data) as server:
        page = open_app_page(browser, server.url)
        wait_for_text(page, "New game")
        normal = page.get_by_text("New game", exact=True).bounding_box()["height"]
        button(page, "Settings").tap()
        wait_for_text(page, "Theme")

        def saved(words: str) -> None:  # each change is saved before the next tap
            page.get_by_text(f"Saved: {words}.", exact=True).first.wait_for()

        page.get_by_role("radio", name="Dark").tap()
        saved("theme dark")
        page.get_by_role("radio", name="Extra large").tap()
        saved("text size extra large")
        # The switches and defaults are further down the screen.
        scrolled_to(page, page.get_by_role("switch", name="Keep the screen awake")).tap()
        saved("keep the screen awake off")
        scrolled_to(page, page.get_by_role("switch", name="Vibrate on taps")).tap()
        saved("vibrate on taps off")
        scrolled_to(page, button(page, "More zero bonus")).tap()
        saved("zero bonus 11")
        scrolled_to(page, page.get_by_role("checkbox", name="Target 50")).tap()
        saved("target 50")
        scrolled_to(page, page.get_by_role("button", name=re.compile(r"^Dot map"))).tap()
        for _ in range(2):
            button(page, "Fewer dots on square 9").tap()
        button(page, "Save the dot map").tap()
        saved("the dot map")
        wait_for_text(page, "Your board's dot map")
        page.context.close()

    with app(data) as server:  # a restart: everything read back from the store
        page = open_app_page(browser, server.url)
        wait_for_text(page, "New game")
        screenshot(page, "home_dark_extra_large_412x915")  # waits for the spinner and the paint, too
        assert becomes_dark(page)
        assert page.get_by_text("New game", exact=True).bounding_box()["height"] > normal * 1.2
        button(page, "Settings").tap()
        wait_for_text(page, "Theme")
        expect(page.get_by_role("radio", name="Dark")).to_be_checked()
        expect(page.get_by_role("radio", name="Extra large")).to_be_checked()
        expect(page.get_by_role("switch", name="Keep the screen awake")).not_to_be_checked()
        expect(page.get_by_role("switch", name="Vibrate on taps")).not_to_be_checked()
        wait_for_text(page, "11")   # the zero bonus
        wait_for_text(page, "50")   # the target
        expect(page.get_by_role("checkbox", name="Target 50")).to_be_checked()
        expect(page.get_by_role("checkbox", name="Target 30")).not_to_be_checked()
        screenshot(page, "settings_dark_extra_large_412x915")
        button(page, "Back").tap()
        # A new Ur match takes the dot map from Settings.
        scrolled_to(page, page.get_by_role("button", name=re.compile(r"^Royal Game of Ur"))).tap()
        type_names(page, ("Ann", "Ben"), "2")
        button(page, "Start the game").tap()
        button(page, "Square 9, 3 dots, no loser counters").wait_for()
        screenshot(page, "ur_extra_large_dark_412x915")
        page.context.close()


# --------------------------------------------------------------------------- import, one server

LIMIT = 200_000  # bytes: a small import limit for this server, to try the refusal


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("import")
    with Store.open(data) as store:
        for record in samples.history(5, 3):
            store.save(record, None)
    with flet_server("main.py", args=["--data-dir", str(data)], port_arg="--port",
                     env={"PANDAPAD_IMPORT_LIMIT": str(LIMIT)}) as s:
        yield s


def export_now(page) -> dict:
    with page.expect_download() as download:
        button(page, "Export JSON").tap()
    page.get_by_text(re.compile(r"^Exported \d+ games? as JSON\.$")).wait_for()
    return json.loads(Path(download.value.path()).read_text(encoding="utf-8"))


def choose(page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        button(page, "Choose a file to import").tap()
    chooser.value.set_files(str(path))


def open_data(browser, server):
    page = open_app_page(browser, server.url, accept_downloads=True)
    button(page, "Your data").tap()
    wait_for_text(page, "Import games")
    return page


def export_file(tmp_path: Path, games: list, name: str = "games.json") -> Path:
    from storage.transfer import export_envelope
    path = tmp_path / name
    path.write_text(json.dumps(export_envelope(games)), encoding="utf-8")
    return path


def test_an_import_shows_what_it_would_do_and_writes_only_when_confirmed(browser, server, tmp_path):
    page = open_data(browser, server)
    try:
        before = export_now(page)
        stored = before["games"]
        changed = dict(stored[0], notes="the table's own note")
        new = [g.to_json() for g in samples.history(23, 2)]
        path = export_file(tmp_path, [stored[1], changed] + new)
        choose(page, path)
        wait_for_text(page, "games.json holds 4 games: 2 new, 1 updated, 1 unchanged.")
        screenshot(page, "data_import_preview_412x915")
        assert export_now(page)["games"] == stored          # the preview wrote nothing
        button(page, "Import 3 games").tap()
        wait_for_text(page, "Imported from games.json: 2 new, 1 updated, 1 unchanged.")
        after = {g["id"]: g for g in export_now(page)["games"]}
        assert len(after) == len(stored) + 2
        assert after[changed["id"]]["notes"] == "the table's own note"
    finally:
        page.context.close()


def test_the_preview_says_which_game_comes_in_as_new_and_which_breaks_its_rules(browser, server, tmp_path):
    """#22: another game under a stored id is imported as a new game, a finished game that
    breaks its rules with its problem: both said on the phone before the tap that imports."""
    for width, height in ((360, 740), (412, 915)):
        page = open_data(browser, server)
        page.set_viewport_size({"width": width, "height": height})
        try:
            stored = export_now(page)["games"]
            other = {"id": stored[0]["id"], "game": "royal-ur", "finished": "2026-11-20T20:00:00Z",
                     "players": [{"id": "x", "name": "Xu"}, {"id": "y", "name": "Yo"}],
                     "rounds": [{"winner": "x", "loser": {"unentered": 7}}]}
            broken = {"id": f"broken-{width}", "game": "panda-royale", "finished": "2026-11-21T20:00:00Z",
                      "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}],
                      "rounds": [{"hands": {"a": {"yellow": [99]}, "b": {"yellow": [3]}}}]}
            choose(page, export_file(tmp_path, [other, broken], name="odd.json"))
            page.get_by_text(re.compile(r"is not the stored game")).first.wait_for()
            said = page.get_by_text(re.compile(r"is not the stored game")).inner_text()
            assert "it comes in as a new game" in said and "it is royal-ur, the stored game is panda-royale" in said
            rule = page.get_by_text(re.compile(r"is finished but breaks its rules")).inner_text()
            assert f"game broken-{width}" in rule and "99" in rule
            scrolled_to(page, button(page, "Cancel"))
            screenshot(page, f"data_import_warnings_{width}x{height}")
            assert export_now(page)["games"] == stored  # the preview wrote nothing
        finally:
            page.context.close()


@pytest.mark.parametrize("content,reason", [
    (b"\x00\x01garbage\xff", "not UTF-8 text"),
    (b'{"format": "pandapad/export", "version": 1, "games": [', "not valid JSON"),
    (b'{"format": "pandapad/export", "version": 1, "games": [{"game": "chess"}]}', 'unknown game "chess"'),
    (json.dumps({"format": "pandapad/export", "version": 9, "games": []}).encode(),
     "this export file is version 9, but this app reads export files up to version 1"),
    (json.dumps({"format": "pandapad/game", "version": 7, "game": "royal-ur",
                 "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}).encode(), "version 7"),
    (b'{"game": "royal-ur", "game": "pandoria"}', 'the key "game" is given twice'),
    # issue #22: what used to be a traceback in the server log and a spinner on the phone
    (b'{"game": "nokosu-dice", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, '
     b'{"id": "c", "name": "C"}], "settings": {"zero_bonus": ' + b"9" * 4000 + b"}}", "4,000 digits"),
    (b'{"id": "\\udfff", "game": "royal-ur", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}',
     "half of a character pair"),
    (json.dumps({"game": "royal-ur", "created": "9999-12-31T23:59:59-14:00",
                 "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}).encode(), "UTC"),
    (json.dumps({"format": "pandapad/game", "game": "royal-ur", "notes": "x" * (LIMIT + 10),
                 "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}).encode(), "at most"),
])
def test_a_refused_import_says_why_and_changes_nothing(browser, server, tmp_path, content, reason):
    page = open_data(browser, server)
    try:
        before = export_now(page)
        path = tmp_path / "bad.json"
        path.write_bytes(content)
        choose(page, path)
        said = page.get_by_text(re.compile(r"^Refused"))
        said.wait_for()
        assert reason in said.inner_text() and "bad.json" in said.inner_text()
        assert page.get_by_role("button", name=re.compile(r"^Import \d+ game")).count() == 0
        after = export_now(page)
        assert after["games"] == before["games"]
    finally:
        page.context.close()


def test_a_repair_at_start_is_told_once_in_plain_words(browser, tmp_path):
    data = tmp_path / "data"
    with Store.open(data) as store:
        for record in samples.history(31, 4):
            store.save(record, None)
    Store.open(data).close()  # the open takes a backup holding the history
    history = sorted(data.glob("history-*.json"))[0]
    history.write_bytes(history.read_bytes()[:40])  # cut short: a phone switched off mid-save
    with app(data) as server:
        page = open_app_page(browser, server.url)
        try:
            wait_for_text(page, "Pandapad repaired its files")
            assert page.get_by_text(re.compile(r"^• .*history-0001")).count() >= 1
            screenshot(page, "repaired_at_start_412x915")
            button(page, "OK").tap()
            page.get_by_role("button", name=re.compile(r": .* won\b")).first.wait_for()  # the games are there
        finally:
            page.context.close()
        again = open_app_page(browser, server.url)  # told once, not on every phone
        try:
            wait_for_text(again, "New game")
            again.wait_for_timeout(500)
            assert again.get_by_text("Pandapad repaired its files").count() == 0
            button(again, "Your data").tap()
            wait_for_text(again, "Repaired at start")
        finally:
            again.context.close()


def test_a_backup_is_restored_after_a_preview_and_the_restore_can_be_undone(browser, tmp_path):
    data = tmp_path / "data"
    first, later = list(samples.history(41, 5)), list(samples.history(42, 3))
    with Store.open(data) as store:
        for record in first:
            store.save(record, None)
    with Store.open(data) as store:        # this open's backup holds the first 5
        for record in later:
            store.save(record, None)
    with app(data) as server:              # and this one's holds all 8
        page = open_app_page(browser, server.url, accept_downloads=True)
        try:
            button(page, "Your data").tap()
            wait_for_text(page, "Export every game")
            page.mouse.wheel(0, 1500)  # the backups are at the foot of the screen
            page.get_by_text("5 games", exact=True).wait_for()
            page.get_by_text("8 games", exact=True).wait_for()
            page.get_by_role("button", name="Restore", exact=True).last.tap()   # the older one: 5 games
            wait_for_text(page, "Restore this backup?")
            screenshot(page, "data_restore_preview_412x915")
            button(page, "Restore 5 games").tap()
            page.get_by_text(re.compile(r"^Restored the copy of .*: 5 games\. .* kept as the newest backup\.$")).wait_for()
            assert {g["id"] for g in export_now(page)["games"]} == {r.id for r in first}
            # The way back: the newest backup is the store as it was before the restore.
            page.get_by_role("button", name="Restore", exact=True).first.tap()
            button(page, "Restore 8 games").tap()
            page.get_by_text(re.compile(r"^Restored the copy of .*: 8 games\.")).wait_for()
            assert {g["id"] for g in export_now(page)["games"]} == {r.id for r in first + later}
        finally:
            page.context.close()
