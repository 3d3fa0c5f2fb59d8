"""`python main.py import / export / list` as a person runs them, in real processes."""
from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import Player
from storage import Store, samples

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True,
                          text=True, input=stdin, timeout=120)


def write_export(path: Path, games) -> Path:
    path.write_text(json.dumps({"format": "pandapad/export", "version": 1,
                                "exported": "2026-11-22T21:00:00Z", "games": games}))
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def history(tmp_path):
    return [g.to_json() for g in samples.history(41, 8)]


def test_import_then_reimport_reports_new_updated_unchanged_and_lists_once(tmp_path, history):
    data = tmp_path / "data"
    file = write_export(tmp_path / "games.json", history)
    first = run("import", str(file), "--data-dir", str(data))
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == f"{file}: imported 8 games: 8 new, 0 updated, 0 unchanged"
    history[2]["notes"] = "rematch"
    write_export(file, history)
    again = run("import", str(file), "--data-dir", str(data))
    assert again.stdout.strip() == f"{file}: imported 8 games: 0 new, 1 updated, 7 unchanged"
    listed = run("list", "--data-dir", str(data))
    assert listed.returncode == 0 and listed.stderr == ""
    lines = listed.stdout.splitlines()
    assert len(lines) == 8
    ids = [line.split("\t")[0] for line in lines]
    assert ids == [f"g41-{i:05d}" for i in reversed(range(8))]  # newest first
    assert lines[0].split("\t")[1:4] == ["panda-royale", history[7]["created"], history[7]["finished"]]


def test_a_single_record_and_standard_input_can_be_imported(tmp_path, history):
    data = tmp_path / "data"
    (tmp_path / "one.json").write_text(json.dumps(history[0]))
    assert run("import", str(tmp_path / "one.json"), "--data-dir", str(data)).returncode == 0
    piped = run("import", "-", "--data-dir", str(data), stdin=json.dumps(history[1]))
    assert piped.returncode == 0 and "1 new" in piped.stdout
    assert len(run("list", "--data-dir", str(data)).stdout.splitlines()) == 2


def test_an_export_saved_with_a_byte_order_mark_imports(tmp_path, history):
    file = tmp_path / "bom.json"
    file.write_bytes(b"\xef\xbb\xbf" + json.dumps(history[0]).encode())
    done = run("import", str(file), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 0 and "1 new" in done.stdout, done.stderr


def test_one_bad_record_imports_nothing_and_says_which_and_why_on_one_line(tmp_path, history):
    data = tmp_path / "data"
    write_export(tmp_path / "good.json", history[:3])
    assert run("import", str(tmp_path / "good.json"), "--data-dir", str(data)).returncode == 0
    before = snapshot(data)
    history[5]["players"] = history[5]["players"][:1]
    bad = write_export(tmp_path / "bad.json", history)
    result = run("import", str(bad), "--data-dir", str(data))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"{bad}: games[5].players: game g41-00005: "
                             f"Panda Royale is played by 2–10 players, not 1\n")
    assert snapshot(data) == before  # the store untouched: not even opened


@pytest.mark.parametrize("content, expected", [
    ('{"format": "pandapad/export", "games": [', "line 1 column 41: not valid JSON"),
    ("", "line 1 column 1: not valid JSON"),
    ('{"game": "chess", "players": []}', 'game: unknown game "chess"'),
    ('[1, 2]', "record: a game record is a JSON object, not an array"),
])
def test_unreadable_input_is_one_line_and_exit_2(tmp_path, content, expected):
    (tmp_path / "in.json").write_text(content)
    result = run("import", str(tmp_path / "in.json"), "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{tmp_path / 'in.json'}: ") and expected in result.stderr
    assert not (tmp_path / "data").exists()


def export_text_with(inside_games: str) -> str:
    """An export as `export` writes it (read game by game) with something before its games."""
    games = [g.to_json() for g in samples.history(43, 2)]
    head = '{"format": "pandapad/export", "version": 1, "exported": "2026-11-22T21:00:00Z", "games": [\n'
    return head + inside_games + ",\n" + ",\n".join(json.dumps(g) for g in games) + "\n]}\n"


@pytest.mark.parametrize("content, expected", [
    ("[" * 100_000 + "]" * 100_000, "line 1 column 101: cannot be read: nested more than 100 levels deep"),
    ('{"game": ' + "9" * 5000 + "}", "line 1 column 10: cannot be read: a whole number of 5,000 digits"),
    (export_text_with('{"id": "g", "players": ' + "9" * 5000 + "}"),
     "line 2 column 24: cannot be read: a whole number of 5,000 digits (more than 4,300 are not read)"),
    (export_text_with("[" * 100_000 + "]" * 100_000), "line 2 column 101: cannot be read: nested more"),
    ('{"format": "pandapad/export", "version": 1, "exported": ' + "[" * 5000 + "]" * 5000 + ', "games": []}',
     "line 1 column 156: cannot be read: nested more than 100 levels deep"),  # the object is one
])
def test_json_python_cannot_read_is_one_line_and_exit_2(tmp_path, content, expected):
    (tmp_path / "in.json").write_text(content)
    result = run("import", str(tmp_path / "in.json"), "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{tmp_path / 'in.json'}: {expected}")
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "data").exists()


def test_a_missing_file_is_one_line_and_exit_2(tmp_path):
    result = run("import", str(tmp_path / "nope.json"), "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 2
    assert result.stderr == f"{tmp_path / 'nope.json'}: cannot read: No such file or directory\n"


def test_a_record_newer_than_the_app_is_refused_naming_both_versions(tmp_path, history):
    (tmp_path / "new.json").write_text(json.dumps({**history[0], "version": 2}))
    result = run("import", str(tmp_path / "new.json"), "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert ": version: game g41-00000: this record is version 2, but this app reads records up to version 1" in result.stderr


def test_export_json_to_stdout_and_to_a_file(tmp_path, history):
    data = tmp_path / "data"
    write_export(tmp_path / "in.json", history)
    run("import", str(tmp_path / "in.json"), "--data-dir", str(data))
    out = run("export", "--data-dir", str(data))
    assert out.returncode == 0
    export = json.loads(out.stdout)
    assert export["format"] == "pandapad/export" and export["version"] == 1
    assert {g["id"] for g in export["games"]} == {g["id"] for g in history}
    to_file = run("export", "--format", "json", "--out", str(tmp_path / "out.json"), "--data-dir", str(data))
    assert to_file.returncode == 0 and to_file.stdout == ""
    assert json.loads((tmp_path / "out.json").read_text())["games"] == export["games"]
    # and what export writes, import reads back into an empty store
    back = run("import", str(tmp_path / "out.json"), "--data-dir", str(tmp_path / "copy"))
    assert "8 new" in back.stdout


def test_export_csv_guards_formulas_and_keeps_numbers_numbers(tmp_path):
    data = tmp_path / "data"
    game = samples.finished_game(random.Random(9), "g1", samples.START, players=3)
    players = tuple(Player(id=p.id, name=n) for p, n in zip(game.players, ["=SUM(A1)", "Ann", "-1"]))
    with Store.open(data) as store:
        store.save(game.model_copy(update={"players": players}), None)
    result = run("export", "--format", "csv", "--out", str(tmp_path / "g.csv"), "--data-dir", str(data))
    assert result.returncode == 0
    text = (tmp_path / "g.csv").read_text()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["game_id", "game", "created", "finished", "seat", "player", "total", "place", "winner"]
    assert [r[5] for r in rows[1:]] == ["'=SUM(A1)", "Ann", "'-1"]
    assert ",'=SUM(A1)," in text and '"' not in text  # nothing quoted: numbers stay numbers
    assert [r[4] for r in rows[1:]] == ["1", "2", "3"]


def test_list_of_an_empty_store(tmp_path):
    Store.open(tmp_path / "data").close()
    result = run("list", "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr == f"no games stored in {tmp_path / 'data'}\n"


def test_list_and_export_of_a_folder_that_does_not_exist_show_nothing_and_make_nothing(tmp_path):
    data = tmp_path / "typo"
    note = f"no games stored in {data} (no such folder)\n"
    listed = run("list", "--data-dir", str(data))
    assert (listed.returncode, listed.stdout, listed.stderr) == (0, "", note)
    exported = run("export", "--data-dir", str(data))
    assert exported.returncode == 0 and exported.stderr == note
    assert json.loads(exported.stdout)["games"] == []
    as_csv = run("export", "--format", "csv", "--data-dir", str(data))
    assert as_csv.returncode == 0 and as_csv.stdout.splitlines() == [
        "game_id,game,created,finished,seat,player,total,place,winner"]
    to_file = run("export", "--out", str(tmp_path / "out.json"), "--data-dir", str(data))
    assert to_file.returncode == 0 and to_file.stderr == note + f"exported 0 games to {tmp_path / 'out.json'}\n"
    assert json.loads((tmp_path / "out.json").read_text())["games"] == []
    assert not data.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_store_in_use_by_another_process_is_one_line_and_exit_2(tmp_path, history):
    data = tmp_path / "data"
    write_export(tmp_path / "in.json", history)
    with Store.open(data):
        for args in (["import", str(tmp_path / "in.json")], ["export"], ["list"]):
            result = run(*args, "--data-dir", str(data))
            assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
            assert "in use by another Pandapad process" in result.stderr


def test_the_data_directory_comes_from_flet_app_storage_data(tmp_path, history):
    import os
    write_export(tmp_path / "in.json", history[:2])
    env = {**os.environ, "FLET_APP_STORAGE_DATA": str(tmp_path / "flet")}
    result = subprocess.run([sys.executable, "main.py", "import", str(tmp_path / "in.json")],
                            cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0 and (tmp_path / "flet" / "history-0001.json").exists()


def test_export_into_a_pipe_closed_early_ends_at_once_without_a_traceback(tmp_path):
    data = tmp_path / "data"
    games = [g.to_json() for g in samples.history(42, 100)]  # ~300 KB: more than a pipe holds
    assert run("import", str(write_export(tmp_path / "in.json", games)), "--data-dir", str(data)).returncode == 0
    proc = subprocess.Popen([sys.executable, "main.py", "export", "--data-dir", str(data)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.read(10) == b'{"format":'
        proc.stdout.close()  # as `export | head -c 10` does
        proc.wait(timeout=20)  # it used to hang for ever, holding the store
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.returncode == 1 and err == ""  # incomplete output: status 1, quietly
    listed = run("list", "--data-dir", str(data))  # and the store is free again
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 100


def test_an_older_copy_of_a_finished_game_is_kept_out_and_counted_as_kept(tmp_path, history):
    data = tmp_path / "data"
    g1 = history[0]
    file = write_export(tmp_path / "g1.json", [g1])
    assert "1 new" in run("import", str(file), "--data-dir", str(data)).stdout
    before = run("export", "--data-dir", str(data)).stdout
    older = {**g1, "finished": None, "rounds": []}  # as it was when it started, on another phone
    file = write_export(tmp_path / "older.json", [older, history[1]])
    result = run("import", str(file), "--data-dir", str(data))
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == (f"{file}: imported 2 games: 1 new, 0 updated, 0 unchanged, "
                             f"1 kept (the stored game is newer or more complete)\n")
    listed = run("list", "--data-dir", str(data)).stdout
    assert f"{g1['id']}\tpanda-royale\t{g1['created']}\t{g1['finished']}\t" in listed
    after = json.loads(run("export", "--data-dir", str(data)).stdout)["games"]
    assert [g for g in after if g["id"] == g1["id"]] == [g for g in json.loads(before)["games"]]


def test_list_keeps_one_line_per_game_whatever_the_names_hold(tmp_path):
    data = tmp_path / "data"
    game = samples.finished_game(random.Random(10), "g\t1", samples.START, players=3)
    names = ["Ann\nBen", "Tab\tby", "Ré\u2028mi\x1b"]
    players = tuple(Player(id=p.id, name=n) for p, n in zip(game.players, names))
    game = game.model_copy(update={"players": players})
    live = samples.new_game(random.Random(11), "line\nbreak", "2026-11-22T19:00:00Z", players=2)
    with Store.open(data) as store:
        store.save(game, None)
        store.save(live, None)
        winners = store.recent()[0].winners
    result = run("list", "--data-dir", str(data))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all(len(line.split("\t")) == 5 for line in lines)
    assert lines[0].split("\t")[0] == "line\\nbreak" and lines[1].split("\t")[0] == "g\\t1"
    escaped = {"Ann\nBen": "Ann\\nBen", "Tab\tby": "Tab\\tby", "Ré\u2028mi\x1b": "Ré\\u2028mi\\x1b"}
    assert lines[1].split("\t")[4] == ", ".join(escaped[w] for w in winners)
    with Store.open(data) as store:  # only the listing escapes: the names are stored as given
        assert [p.name for p in store.load("g\t1").record.players] == names


@pytest.mark.parametrize("command", [["import", "IN"], ["export"], ["export", "--format", "csv"], ["list"]])
def test_a_data_dir_that_is_a_file_is_one_line_and_exit_2(tmp_path, history, command):
    write_export(tmp_path / "in.json", history[:1])
    file = tmp_path / "notes.txt"
    file.write_text("not a store\n")
    args = [str(tmp_path / "in.json") if a == "IN" else a for a in command]
    result = run(*args, "--data-dir", str(file))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"{file} is a file, not a folder\n"
    result = run(*args, "--data-dir", str(file / "games"))
    if command[0] == "import":  # a store would be made there: say why it cannot be
        assert result.returncode == 2
        assert result.stderr == f"{file / 'games'} cannot be made: {file} is a file, not a folder\n"
    assert file.read_text() == "not a store\n" and sorted(p.name for p in tmp_path.iterdir()) == ["in.json", "notes.txt"]
