"""Names are what they look like (#31): typed at the table, renamed, and read from a file."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scoring import Player
from scoring import royal_ur as ur
from scoring.names import how_it_differs, key, problem, tidy
from scoring.statistics import game_stats, player_stats
from storage import Store
from storage.reader import import_bytes
from tests.browser_harness import REPO_ROOT
from views.screens.history_state import filtered, players
from views.screens.new_game import check_name

ZWSP, RLO, PDI, ZWJ, VS16 = "\u200b", "\u202e", "\u2069", "\u200d", "\ufe0f"
FAMILY = "\U0001F468" + ZWJ + "\U0001F469" + ZWJ + "\U0001F467"
ENGLAND = "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + "\U000E007F"
NOTHING = ("Type a name first.", "A name needs a letter, a digit or a sign that shows.")


@pytest.mark.parametrize("typed", [ZWSP, ZWSP * 3, " \u2028 ", "\r\n", "\u0301\u0301", RLO + PDI,
                                   "\u3164", "\u2800\u2800", VS16, "\U000E0067\U000E007F"])
def test_a_name_that_shows_nothing_is_refused(typed):
    assert problem(typed, []) in NOTHING
    assert check_name(typed, []) in NOTHING


def test_ann_with_a_zero_width_space_is_ann_already_at_the_table():
    assert tidy("Ann" + ZWSP) == "Ann"
    assert problem("Ann" + ZWSP, ["Ann"]) == "Ann is already at the table."
    assert problem("Ann", ["A" + ZWSP + "nn"]) == "Ann is already at the table."


@pytest.mark.parametrize("hidden", ["\u2060", "\ufeff", "\u00ad", "\u034f", VS16, "\u200c", ZWJ])
def test_other_characters_that_show_nothing_after_ann_do_not_make_another_player(hidden):
    # word joiner, byte-order mark, soft hyphen, grapheme joiner, emoji style, non-joiner, joiner
    assert tidy("Ann" + hidden) == "Ann"
    assert problem("Ann" + hidden, ["Ann"]) == "Ann is already at the table."


def test_a_right_to_left_override_cannot_make_evil_read_live():
    assert tidy(RLO + "evil") == "evil"  # seated as it reads: evil
    assert tidy("\u2067" + "evil" + PDI) == "evil"  # an isolate as well
    assert problem(RLO + "live", ["live"]) == "live is already at the table."


@pytest.mark.parametrize("typed", ["Ann\rMarie", "Ann\u2028Marie", "Ann\u2029Marie", "Ann\nMarie", "Ann\r\nMarie",
                                   "Ann\tMarie", "Ann  \u00a0 Marie", " Ann Marie\r"])
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
    assert problem("\U0001F43C", []) is None  # a panda
    for picture in (FAMILY, ENGLAND, "\u2764" + VS16 + ZWJ + "\U0001F525", "\U0001F469\U0001F3FD" + ZWJ + "\U0001F4BB",
                    "1" + VS16 + "\u20e3"):
        assert tidy(picture) == picture
        assert problem(picture, []) is None
        assert how_it_differs(picture) == ()
    assert tidy("Ann" + ZWJ) == "Ann"  # a joiner next to letters only hides a difference
    assert how_it_differs(FAMILY + " Ann" + ZWJ) == ("a zero-width joiner",)
    assert tidy("Ann\U000E0067\U000E007F") == "Ann"  # tag letters only make a flag after a black flag
    assert tidy(ENGLAND + "\U000E0067\U000E007F") == ENGLAND  # and only one flag's worth
    assert tidy("^" + ZWJ + "`") == "^`"  # ASCII accents are no emoji
    assert problem("\u2764" + VS16, ["\u2764"]) == "\u2764\ufe0f is already at the table."  # a heart in emoji style


def test_names_that_differ_only_by_a_space_or_a_letter_stay_two_players():
    assert problem("Ann Marie", ["AnnMarie"]) is None
    assert problem("Anne", ["Ann"]) is None
    assert problem("Zoë", ["Zoe"]) is None


def test_too_long_a_name_is_refused_after_tidying():
    assert problem("x" * 41, []) == "A name has at most 40 characters."
    assert problem("x" * 40 + ZWSP * 5, []) is None


def test_the_new_game_form_seats_the_tidied_name():
    assert check_name("Ann" + ZWSP, ["Ann"]) == "Ann is already at the table."
    from views.screens.new_game import NewGame
    form = NewGame("royal-ur", [], {}, None, on_start=None)
    assert form.seat(" Ben" + ZWSP + "\u2028") is None
    assert form.seat(RLO + "evil") is None
    assert form.seated == ["Ben", "evil"]


def test_the_new_game_forms_known_players_show_as_they_seat_once_per_person():
    from views.screens.new_game import NewGame
    form = NewGame("panda-royale", ["Ann" + ZWSP, "ann", RLO + "evil", ZWSP, "Ben"], {}, None, on_start=None)
    chips = [c.content for c in form.known_row.controls[1:]]
    assert chips == ["Ann", "evil", "Ben"]
    form.on_known("Ann" + ZWSP, None)
    assert form.seated == ["Ann"]
    assert [c.content for c in form.known_row.controls[1:]] == ["evil", "Ben"]


def match(gid: str, a: str, b: str) -> ur.Record:
    record = ur.Record(players=(Player(id="a", name=a), Player(id="b", name=b)), id=gid,
                       created="2026-11-22T19:00:00Z", finished="2026-11-22T20:00:00Z")
    return ur.keep_entry(ur.step(ur.set_winner(record, "a"), "unentered", 7))


def test_a_rename_finds_the_player_under_a_name_with_hidden_characters_and_stores_it_tidy(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(match("m1", "Ann" + ZWSP, "Ben"), None)
        store.save(match("m2", "ann", "Cat"), None)
        store.save(match("m3", "Dora", "Ben" + ZWSP), None)
        assert sorted(store.games_of_player("Ann")) == ["m1", "m2"]
        assert store.rename_player("Ann", "Annabel" + RLO) == (2, 0)
        names = {r["id"]: [p[1] for p in r["players"]] for r in store.rows()}
        assert names == {"m1": ["Annabel", "Ben"], "m2": ["Annabel", "Cat"], "m3": ["Dora", "Ben" + ZWSP]}
        # Ben's names were not renamed: nothing of theirs changed without a tap.


def test_a_rename_to_a_name_that_shows_nothing_is_refused_in_words_and_changes_nothing(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(match("m1", "Ann", "Ben"), None)
        with pytest.raises(ValueError, match="A name needs a letter, a digit or a sign that shows"):
            store.rename_player("Ann", "\u0301" + ZWSP)
        with pytest.raises(ValueError, match="Type a name first"):
            store.rename_player("Ann", RLO + "\u2028")
        assert [p[1] for p in store.rows()[0]["players"]] == ["Ann", "Ben"]


def test_renaming_a_hidden_name_to_itself_tidies_it(tmp_path):
    # What the import's report tells the host to do: open the player, tap Rename.
    with Store.open(tmp_path) as store:
        store.save(match("m1", "Ann" + ZWSP, "Ben"), None)
        assert store.rename_player("Ann" + ZWSP, "Ann" + ZWSP) == (1, 0)
        assert [p[1] for p in store.rows()[0]["players"]] == ["Ann", "Ben"]


def test_the_known_players_statistics_and_history_see_one_person(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(match("m1", "Ann" + ZWSP, "Ben"), None)
        store.save(match("m2", "Ben", "ann"), None)
        assert sorted(map(key, store.known_players())) == ["ann", "ben"]  # Ann once
        rows = store.rows()
    assert player_stats("Ann", rows).by_game["royal-ur"].games == 2
    assert [line.games for line in game_stats("royal-ur", rows).players] == [2, 2]
    assert len(filtered(rows, player="ANN")) == 2
    assert len(filtered(rows, text="ann")) == 2
    assert len(players(rows)) == 2


def export_with(*records: ur.Record) -> bytes:
    return json.dumps({"format": "pandapad/export", "version": 1, "exported": "2026-11-22T21:00:00Z",
                       "games": [r.to_json() for r in records]}).encode()


ODD = [match("m1", "Ann" + ZWSP, RLO + "evil"), match("m2", "Ben\u2028Li", "Cat"), match("m3", ZWSP, "Rene\u0301")]


def test_an_import_keeps_the_names_as_written_and_says_which_would_look_different(tmp_path):
    with Store.open(tmp_path) as store:
        report = store.import_data(json.loads(export_with(*ODD)))
        assert {r["id"]: [p[1] for p in r["players"]] for r in store.rows()} == \
            {"m1": ["Ann" + ZWSP, RLO + "evil"], "m2": ["Ben\u2028Li", "Cat"], "m3": [ZWSP, "Rene\u0301"]}
    told = [line for line in report.warnings() if "would look different" in line]
    assert len(told) == 1
    assert told[0].startswith("5 names would look different from how they are written: ")
    assert '"Ann" has a zero-width space' in told[0]
    assert '"evil" has a right-to-left override' in told[0]
    assert '"Ben Li" has a line break' in told[0]
    assert "a name that shows nothing (a zero-width space)" in told[0]
    assert '"René" has accents stored apart from their letters' in told[0]
    assert "Cat" not in told[0]
    assert told[0].endswith("They come in as written; to tidy one, rename that player in Statistics")
    assert how_it_differs("Ben\r") == ("a line break",)
    assert how_it_differs("Ann\u00a0Marie") == ("a no-break space",)
    assert how_it_differs("Cat") == ()


def test_the_apps_import_preview_names_them_and_stores_nothing(tmp_path):
    # The Data screen's preview: the same reader, a dry run of the import (views/screens/data.py).
    games = import_bytes(export_with(*ODD), "export.json")
    with Store.open(tmp_path) as store:
        report = store.import_incoming(games, True, True)
        assert store.rows() == []
    assert report.new == 3
    assert any('"Ann" has a zero-width space' in line for line in report.warnings())


def test_an_import_of_many_hidden_names_names_ten_and_counts_the_rest(tmp_path):
    many = [match(f"m{i}", f"P{i}" + ZWSP, f"Q{i}") for i in range(12)]
    with Store.open(tmp_path) as store:
        report = store.import_data(json.loads(export_with(*many)))
    told = next(line for line in report.warnings() if "would look different" in line)
    assert told.startswith("12 names would look different")
    assert '"P9" has a zero-width space; and 2 more.' in told
    assert '"P10"' not in told


def test_a_file_of_tidy_names_says_nothing_about_names(tmp_path):
    with Store.open(tmp_path) as store:
        report = store.import_data(json.loads(export_with(match("m1", "Ann", "Zoë"))))
    assert report.warnings() == []


def test_the_command_lines_import_tells_the_names_on_stderr_and_keeps_its_counts_line(tmp_path):
    file = tmp_path / "export.json"
    file.write_bytes(export_with(match("m1", "Ann" + ZWSP, "Ben")))
    out = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "import", str(file), "--data-dir",
                          str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"{file}: imported 1 game: 1 new, 0 updated, 0 unchanged\n"  # the line scripts read
    assert out.stderr.startswith(f'pandapad: {file}: 1 name would look different from how it is written: '
                                 '"Ann" has a zero-width space. It comes in as written')
    listed = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "export", "--data-dir",
                             str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert json.loads(listed.stdout)["games"][0]["players"][0]["name"] == "Ann" + ZWSP
