"""`python main.py score` as another tool calls it: a real process, JSON out, exit 0 / 1 / 2."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.records_for_tests import record

ROOT = Path(__file__).resolve().parent.parent


def run(*args, stdin: str | bytes | None = None):
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), *args], input=data,
                          capture_output=True, cwd=ROOT, timeout=30)
    proc.stdout, proc.stderr = proc.stdout.decode(), proc.stderr.decode()
    return proc


def write(tmp_path, data, name="game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def ur_match():
    return record("royal-ur", ["Ann", "Ben"], rounds=[{"winner": "ann", "loser": {"unentered": 2, "start": 1,
                                                                            "home": 3, "board": [1]}}])


def assert_one_line_no_traceback(proc, *words):
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_valid_record_exit_0_and_contract_output(tmp_path):
    proc = run("score", write(tmp_path, ur_match()))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == {"game": "royal-ur",
                   "players": [{"id": "ann", "name": "Ann", "total": 61, "place": 1},
                               {"id": "ben", "name": "Ben", "total": 0, "place": 2}],
                   "winners": ["ann"], "rounds": [{"ann": 61, "ben": 0}], "problems": [], "detail": {}}


def test_warnings_still_exit_0(tmp_path):
    data = record("panda-royale", ["Ann", "Ben"], rounds=[{"hands": {"ann": {"yellow": [4]},
                                                                     "ben": {"yellow": [6, 1]}}}])
    proc = run("score", write(tmp_path, data))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["problems"][0]["level"] == "warning"


def test_errors_exit_1_with_the_result_printed(tmp_path):
    data = record("panda-royale", ["Ann", "Ben"], rounds=[{"hands": {"ann": {"yellow": [9]},
                                                                     "ben": {"yellow": [6]}}}])
    proc = run("score", write(tmp_path, data))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["players"][0]["total"] == 9
    assert out["problems"][0] == {"level": "error", "where": "rounds[0].hands.ann.yellow[0]",
                                  "message": "Ann: a yellow die shows 9; yellow faces are 1–8"}


def test_standard_input(tmp_path):
    proc = run("score", "-", stdin=json.dumps(ur_match()))
    assert proc.returncode == 0 and json.loads(proc.stdout)["winners"] == ["ann"]


@pytest.mark.parametrize("content,words", [
    ("{not json", ["game.json", "line 1 column 2", "JSON"]),
    ("", ["game.json", "JSON"]),
    ("[1, 2]", ["game.json", "JSON object"]),
    ('{"game": "chess", "players": []}', ["game.json", "game", "chess"]),
    (json.dumps(record("royal-ur", ["A", "B", "C"])), ["game.json", "players", "2"]),
    (json.dumps(record("royal-ur", ["A", "B"], rounds=[{"winner": "zed"}])), ["rounds[0].winner", "zed"]),
    (json.dumps(record("nokosu-dice", ["A", "B", "C"], rounds=[{"tricks": {"a": "three"}}])),
     ["rounds[0].tricks.a", "whole number"]),
])
def test_not_a_record_exit_2_one_line(tmp_path, content, words):
    assert_one_line_no_traceback(run("score", write(tmp_path, content)), *words)


def test_pathological_json_is_one_line(tmp_path):
    assert_one_line_no_traceback(run("score", write(tmp_path, "[" * 100000 + "]" * 100000)), "game.json")
    assert_one_line_no_traceback(run("score", write(tmp_path, '{"game": ' + "9" * 5000 + "}")), "game.json")


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(ur_match()).encode())
    assert run("score", str(path)).returncode == 0


def test_data_dir_before_or_after_the_command():
    import main
    assert main.parser().parse_args(["--data-dir", "X", "list"]).data_dir == "X"
    assert main.parser().parse_args(["list", "--data-dir", "Y"]).data_dir == "Y"
    assert main.parser().parse_args(["score", "f.json"]).data_dir is None


def test_garbage_bytes_and_missing_file(tmp_path):
    path = tmp_path / "junk.bin"
    path.write_bytes(bytes(range(256)) * 4)
    assert_one_line_no_traceback(run("score", str(path)), "junk.bin")
    assert_one_line_no_traceback(run("score", str(tmp_path / "nope.json")), "nope.json")
    assert_one_line_no_traceback(run("score", "-", stdin=b"\xff\xfe garbage"), "<stdin>")


def test_score_does_not_load_flet(tmp_path):
    path = write(tmp_path, ur_match())
    code = ("import sys, io, contextlib; sys.path.insert(0, %r); import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): status = main.main(['score', %r])\n"
            "print(status, sorted(m for m in sys.modules if m.split('.')[0] in ('flet', 'tinydb')))") % (str(ROOT), path)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.stdout.strip() == "0 []", proc.stderr
