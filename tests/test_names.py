"""Names are what they look like (#31): typed at the table, renamed, and read from a file."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scoring import Player
from scoring import royal_ur as ur
from scoring.names import how_it_differs, key, problem, tidy
from storage import Store
from tests.browser_harness import REPO_ROOT
from views.new_game import check_name

ZWSP, RLO, PDI, ZWJ = "\u200b", "\u202e", "\u2069", "\u200d"


@pytest.mark.parametrize("typed", [ZWSP, ZWSP * 3, " \u2028 ", "\r\n", "\u0301\u0301", RLO + PDI])
def test_a_name_that_shows_nothing_is_refused(typed):
    assert problem(typed, []) in ("Type a name first.", "A name needs a letter, a digit or a sign that shows.")


def test_ann_with_a_zero_width_space_is_ann_already_at_the_table():
    assert tidy("Ann" + ZWSP) == "Ann"
    assert problem("Ann" + ZWSP, ["Ann"]) == "Ann is already at the table."
    assert problem("Ann", ["A" + ZWSP + "nn"]) == "Ann is already at the table."


def test_a_right_to_left_override_cannot_make_evil_read_live():
    assert tidy(RLO + "evil") == "evil"  # seated as it reads: evil
    assert problem(RLO + "live", ["live"]) == "live is already at the table."


@pytest.mark.parametrize("typed", ["Ann\rMarie", "Ann\u2028Marie", "Ann\nMarie", "Ann\tMarie", "Ann  \u00a0 Marie"])
def test_a_line_break_inside_a_name_becomes_one_space(typed):
    assert tidy(typed) == "Ann Marie"


def test_the_same_letters_in_another_unicode_form_are_the_same_player():
    decomposed, composed = "Rene\u0301", "Ren\u00e9"
    assert tidy(decomposed) == composed
    assert problem(decomposed, [composed]) == f"{composed} is already at the table."


def test_case_aside_two_names_are_one_player():
    assert key("ANN") == key("ann") == key(" Ann ")
    assert problem("ANN", ["ann"]) == "ANN is already at the table."
    assert key("Straße") == key("STRASSE")  # case-folding, not just lower()


def test_emoji_names_are_names_and_a_family_stays_one_picture():
    family = "\U0001F468" + ZWJ + "\U0001F469" + ZWJ + "\U0001F467"
    assert problem("\U0001F43C", []) is None  # a panda
    assert tidy(family) == family
    assert tidy("Ann" + ZWJ) == "Ann"  # a joiner next to letters only hides a difference
    assert how_it_differs(family) == ()
    assert how_it_differs(family + " Ann" + ZWJ) == ("a zero-width joiner",)


def test_too_long_a_name_is_refused_after_tidying():
    assert problem("x" * 41, []) == "A name has at most 40 characters."
    assert problem("x" * 40 + ZWSP * 5, []) is None


def test_the_new_game_form_seats_the_tidied_name():
    assert check_name("Ann" + ZWSP, ["Ann"]) == "Ann is already at the table."
    from views.new_game import NewGame
    form = NewGame("royal-ur", [], {}, None, on_start=None)
    assert form.seat(" Ben" + ZWSP + "\u2028") is None
    assert form.seated == ["Ben"]


def match(gid: str, a: str, b: str) -> ur.Record:
    record = ur.Record(players=(Player(id="a", name=a), Player(id="b", name=b)), id=gid,
                       created="2026-11-22T19:00:00Z", finished="2026-11-22T20:00:00Z")
    return ur.keep_entry(ur.step(ur.set_winner(record, "a"), "unentered", 7))


def test_a_rename_finds_the_player_under_a_name_with_hidden_characters_and_stores_it_tidy(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(match("m1", "Ann" + ZWSP, "Ben"), None)
        store.save(match("m2", "ann", "Cat"), None)
        assert sorted(store.games_of_player("Ann")) == ["m1", "m2"]
        assert store.rename_player("Ann", "Annabel" + RLO) == (2, 0)
        assert {r["id"]: r["players"][0][1] for r in store.rows()} == {"m1": "Annabel", "m2": "Annabel"}


def export_with(*records: ur.Record) -> str:
    return json.dumps({"format": "pandapad/export", "version": 1, "exported": "2026-11-22T21:00:00Z",
                       "games": [r.to_json() for r in records]})


def test_an_import_keeps_the_names_as_written_and_says_which_would_look_different(tmp_path):
    games = [match("m1", "Ann" + ZWSP, RLO + "evil"), match("m2", "Ben\u2028Li", "Cat")]
    with Store.open(tmp_path) as store:
        report = store.import_data(json.loads(export_with(*games)))
        assert {r["id"]: [p[1] for p in r["players"]] for r in store.rows()} == \
            {"m1": ["Ann" + ZWSP, RLO + "evil"], "m2": ["Ben\u2028Li", "Cat"]}  # nothing changed unasked
    told = [line for line in report.warnings() if "would look different" in line]
    assert len(told) == 1
    assert '"Ann" has a zero-width space' in told[0]
    assert '"evil" has a right-to-left override' in told[0]
    assert '"Ben Li" has a line separator' in told[0]
    assert how_it_differs("Ben\r") == ("a carriage return",)
    assert how_it_differs("Cat") == ()


def test_the_command_lines_import_tells_the_names_on_stderr_and_keeps_its_counts_line(tmp_path):
    file = tmp_path / "export.json"
    file.write_text(export_with(match("m1", "Ann" + ZWSP, "Ben")))
    out = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "import", str(file), "--data-dir",
                          str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("export.json: imported 1 game: 1 new, 0 updated, 0 unchanged")
    assert '1 name would look different from how it is written: "Ann" has a zero-width space' in out.stderr
