"""Bad files said plainly (issue #13): a key given twice is refused naming the key and where
it is, by `score` and by `import`, with the store untouched; messages use JSON's words."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import RecordError, parse_record
from scoring.json_text import place_of_duplicate

ROOT = Path(__file__).resolve().parents[1]
TWO = '[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}]'


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True,
                          input=stdin, timeout=60)


@pytest.mark.parametrize("text,line", [
    ('{"game": "panda-royale", "game": "royal-ur", "players": ' + TWO + '}',
     'record: the key "game" is given twice'),
    ('{"game": "royal-ur", "players": ' + TWO + ', "rounds": [{"winner": "a", '
     '"loser": {"unentered": 7, "unentered": 1}}]}',
     'rounds[0].loser: the key "unentered" is given twice'),
    ('{"game": "panda-royale", "players": ' + TWO + ', "rounds": [{"hands": {"a": {"yellow": [4]}, '
     '"a": {"yellow": [6]}}}]}',
     'rounds[0].hands: the key "a" is given twice'),
])
def test_score_refuses_a_key_given_twice_naming_it_and_where(tmp_path, text, line):
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    out = run("score", str(path))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == f"{path}: {line}"


def export_with(games: list[str]) -> str:
    return '{"format": "pandapad/export", "version": 1, "games": [\n' + ",\n".join(games) + "\n]}"


def game(gid: str, extra: str = "") -> str:
    return '{"id": "' + gid + '", "game": "royal-ur", "players": ' + TWO + extra + '}'


@pytest.mark.parametrize("text,where", [
    (export_with([game("g1"), game("g2", ', "id": "g3"')]), 'games[1]: the key "id" is given twice'),
    (export_with([game("g1", ', "rounds": [{"winner": "a", "winner": "b", "loser": {"unentered": 7}}]')]),
     'games[0].rounds[0]: the key "winner" is given twice'),
    ('{"format": "pandapad/export", "version": 1, "version": 2, "games": []}', 'the key "version" is given twice'),
    (game("g1", ', "players": []'), 'the key "players" is given twice'),
])
def test_import_refuses_a_key_given_twice_and_changes_nothing(tmp_path, text, where):
    data = tmp_path / "data"
    assert run("import", "--data-dir", str(data), "-", stdin=export_with([game("kept")])).returncode == 0
    before = run("export", "--data-dir", str(data)).stdout
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    out = run("import", "--data-dir", str(data), str(path))
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: ") and lines[0].endswith(where)
    after = run("export", "--data-dir", str(data)).stdout
    assert json.loads(after)["games"] == json.loads(before)["games"]


@pytest.mark.parametrize("data,words", [
    ([1, 2], "a game record is a JSON object, not an array"),
    (None, "a game record is a JSON object, not null"),
    ("x", "a game record is a JSON object, not a string"),
    ({"game": "royal-ur", "players": None}, "players: should be an array, not null"),
    ({"game": "royal-ur", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
      "rounds": [{"winner": None}]}, "rounds[0].winner: should be a string, not null"),
    ({"game": "royal-ur", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
      "rounds": [{"winner": "a", "loser": {"unentered": True}}]}, "should be a whole number, not true"),
])
def test_messages_say_json_words_not_python_ones(data, words):
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    said = str(caught.value)
    assert said.endswith(words)
    for python in ("NoneType", "list", "dict", "None", "True", "str", "int"):
        assert python not in said.split(": ", 1)[-1].replace("a string", "").replace("whole number", "")


def test_the_place_of_a_duplicate_is_the_first_object_that_repeats():
    found = place_of_duplicate('{"a": [{"b": 1}, {"c": {"d": 1, "d": 2}}], "e": 1}')
    assert (found.where, found.key) == ("a[1].c", "d")
    assert place_of_duplicate('{"a": 1, "b": 2}') is None


# A Pandoria crown step below 1 (#69): no pad makes one, so `score` says it is an error (exit 1)
# and an import flags it in a finished game, as every error by the rules (storage/transfer.py).
STEP = ('{"format": "pandapad/game", "version": 1, "id": "g-step", "game": "pandoria", "created": '
        '"2026-11-22T19:04:00Z", "finished": %s, "players": ' + TWO + ', "log": [{"player": "a", "points": 4}, '
        '{"player": "a", "points": -5}]}')


def test_score_says_a_crown_step_below_one_is_an_error(tmp_path):
    out = run("score", "-", stdin=STEP % "null")
    assert out.returncode == 1
    problems = json.loads(out.stdout)["problems"]
    assert problems == [{"level": "error", "where": "log[1].points",
                         "message": "Ann: a crown-track entry moves the marker at least 1, not -5"}]


def test_an_import_flags_a_finished_game_with_a_crown_step_below_one():
    from storage.reader import import_games
    (finished,) = import_games(STEP % '"2026-11-22T21:00:00Z"', "step.json")
    assert finished.problems == ("log[1].points: Ann: a crown-track entry moves the marker at least 1, not -5",)
    (playing,) = import_games(STEP % "null", "step.json")  # in progress: the pad shows it, Finish is blocked
    assert playing.problems == ()
