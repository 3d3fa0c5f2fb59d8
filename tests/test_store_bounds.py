"""Nothing a file can hold breaks the store (issue #22): each class of bad file the issue
found, through `main.py score` and `main.py import` in real processes. The promise is the
same for each: one line naming the file, the place and the problem, exit 2, no traceback,
done in bounded time (the subprocess timeout) and every store file byte for byte as before."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from storage import samples

ROOT = Path(__file__).resolve().parents[1]
TWO = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}]
THREE = TWO + [{"id": "c", "name": "Cy"}]


def run(*args: str, stdin=None, timeout: float = 60) -> subprocess.CompletedProcess:
    """main.py as a person runs it; stdin is text, bytes or an open file."""
    extra = {"input": stdin.encode() if isinstance(stdin, str) else stdin} if not hasattr(stdin, "fileno") \
        else {"stdin": stdin}
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True,
                          timeout=timeout, **extra)


def checksums(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(out: subprocess.CompletedProcess, name: str, *words: str) -> str:
    err = out.stderr.decode("utf-8")
    assert out.returncode == 2, err
    assert "Traceback" not in err and out.stdout == b""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{name}: "), lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def store(tmp_path) -> Path:
    """A store holding two finished games and one in progress."""
    data = tmp_path / "data"
    games = [g.to_json() for g in samples.history(7, 2)]
    games.append({"id": "playing", "game": "nokosu-dice", "players": THREE, "created": "2026-11-22T19:00:00Z",
                  "rounds": [{"declared": {"a": 1, "b": 2, "c": 0}, "tricks": {"a": 1, "b": 2, "c": 0}}]})
    path = tmp_path / "good.json"
    path.write_text(json.dumps({"format": "pandapad/export", "version": 1, "games": games}))
    assert run("import", "--data-dir", str(data), str(path)).returncode == 0
    return data


def ur(gid: str = "g1", **fields) -> dict:
    return {"id": gid, "game": "royal-ur", "players": TWO, **fields}


def export(*games: dict) -> str:
    return json.dumps({"format": "pandapad/export", "version": 1, "games": list(games)})


# Files of each class the issue found, as text, and words the refusal must say.
HUGE = "9" * 4000
CASES = {
    "a die of 4,000 digits": ('{"game": "panda-royale", "players": ' + json.dumps(TWO)
                              + ', "rounds": [{"hands": {"a": {"yellow": [' + HUGE + ']}}}]}',
                              "rounds[0].hands.a.yellow[0]", "4,000 digits"),
    "a bonus of 4,000 digits in a game in progress": (
        '{"id": "n1", "game": "nokosu-dice", "players": ' + json.dumps(THREE)
        + ', "settings": {"zero_bonus": ' + HUGE + '}}', "settings.zero_bonus", "4,000 digits"),
    "points of 4,000 digits in Pass the Pandas": (
        '{"id": "p1", "game": "pass-the-pandas", "players": ' + json.dumps(TWO)
        + ', "rounds": [{"out": [{"player": "a", "points": -' + HUGE + '}]}]}', "rounds[0].out[0].points", "digits"),
    "a half surrogate in an id": ('{"id": "\\udfff", "game": "royal-ur", "players": ' + json.dumps(TWO) + '}',
                                  "id", "\\udfff", "not a character"),
    "a half surrogate in a note": (json.dumps(ur(notes="x")).replace('"x"', '"a\\ud800b"'), "notes", "\\ud800"),
    "a date past 9999 in UTC": (json.dumps(ur(created="9999-12-31T23:59:59-14:00")), "created", "UTC"),
    "a date before year 1 in UTC": (json.dumps(ur(finished="0001-01-01T00:00:00+14:00")), "finished", "UTC"),
    "Infinity": ('{"id": "g", "game": "royal-ur", "players": ' + json.dumps(TWO)
                 + ', "rounds": [{"winner": "a", "loser": {"unentered": Infinity}}]}', "line 1", "Infinity"),
    "1e400": (json.dumps(ur(rounds=[{"winner": "a", "loser": {"unentered": 7}}])).replace("7", "1e400"),
              "line 1", "too large"),
    "5,000 rounds": (json.dumps({"game": "pass-the-pandas", "players": TWO, "rounds": [{"out": []}] * 5_000}),
                       "rounds", "5,000"),
    "60 rounds of Panda Royale": (json.dumps({"game": "panda-royale", "players": TWO,
                                              "rounds": [{"hands": {}}] * 60}), "rounds", "Panda Royale"),
    "30 yellow dice in one hand": (json.dumps({"game": "panda-royale", "players": TWO,
                                               "rounds": [{"hands": {"a": {"yellow": [1] * 30}}}]}),
                                   "rounds[0].hands.a.yellow", "30 yellow dice"),
    "200 players": (json.dumps({"game": "panda-royale", "players": [{"id": f"p{i}", "name": f"P{i}"}
                                                                   for i in range(200)]}), "players", "200"),
    "nesting 40 deep in a note's place": (json.dumps(ur()).replace('"g1"', "[" * 40 + "]" * 40), "id", "nested"),
    "version true": (json.dumps(ur(version=True)), "version", "not true"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_score_refuses_each_class_in_one_line(tmp_path, case):
    text, *words = CASES[case]
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    refused(run("score", str(path)), str(path), *words)
    refused(run("score", "-", stdin=text), "<stdin>", *words)


@pytest.mark.parametrize("case", list(CASES))
def test_import_refuses_each_class_and_changes_no_byte(tmp_path, store, case):
    text, *words = CASES[case]
    before = checksums(store)
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    refused(run("import", "--data-dir", str(store), str(path)), str(path), *words)
    # the same record inside an export bundle: its place is named under games[1]
    inside = '{"format": "pandapad/export", "version": 1, "games": [' + json.dumps(ur("ok")) + ", " + text + "]}"
    path.write_text(inside, encoding="utf-8")
    line = refused(run("import", "--data-dir", str(store), str(path)), str(path))
    assert "games[1]" in line or "line 1" in line, line
    assert checksums(store) == before
    # and the store still lists and exports every game, CSV included
    assert run("list", "--data-dir", str(store)).returncode == 0
    assert run("export", "--data-dir", str(store), "--format", "csv").returncode == 0


def test_a_duplicate_games_key_after_the_games_is_refused_by_import(tmp_path, store):
    before = checksums(store)
    path = tmp_path / "in.json"
    text = export(ur("A"))[:-1] + ', "games": [' + json.dumps(ur("B")) + "]}"
    path.write_text(text)
    refused(run("import", "--data-dir", str(store), str(path)), str(path), 'the key "games" is given twice')
    refused(run("score", str(path)), str(path), 'the key "games" is given twice')
    path.write_text(export(ur("A"))[:-1] + ', "exported": "x", "exported": "y"}')
    refused(run("import", "--data-dir", str(store), str(path)), str(path), '"exported" is given twice')
    assert checksums(store) == before


def test_files_that_are_not_files_are_refused_without_reading(tmp_path, store):
    before = checksums(store)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: reading it would wait for ever
    for command in ("score", "import"):
        args = ["--data-dir", str(store)] if command == "import" else []
        refused(run(command, *args, str(fifo), timeout=20), str(fifo), "is a pipe")
        refused(run(command, *args, "/dev/zero", timeout=20), "/dev/zero", "is a device")
        refused(run(command, *args, str(tmp_path), timeout=20), str(tmp_path), "is a folder")
        refused(run(command, *args, str(tmp_path / "nope.json"), timeout=20), str(tmp_path / "nope.json"),
                "cannot read: No such file")
    assert checksums(store) == before


def test_endless_or_binary_standard_input_is_refused_at_once(store):
    before = checksums(store)
    # random bytes are refused at the first one that is not UTF-8 or is NUL, whichever comes first
    for device, words in (("/dev/urandom", "text"), ("/dev/zero", "a NUL byte")):
        for command in ("score", "import"):
            args = ["--data-dir", str(store)] if command == "import" else []
            with open(device, "rb") as endless:
                refused(run(command, *args, "-", stdin=endless, timeout=20), "<stdin>", words)
    assert checksums(store) == before


def test_a_file_too_large_is_refused_from_its_size(tmp_path, store):
    before = checksums(store)
    path = tmp_path / "big.json"
    with open(path, "wb") as f:  # a sparse 200 MB file: no time spent writing it
        f.truncate(200 * 1024 * 1024)
    refused(run("import", "--data-dir", str(store), str(path), timeout=20), str(path), "is 200 MB", "at most 100 MB")
    refused(run("score", str(path), timeout=20), str(path), "at most 1,024 KB")
    # and a stream that does not say its size: cut at the limit, never read whole
    text = '{"game": "royal-ur", "notes": "' + "x" * (2 * 1024 * 1024) + '"}'
    refused(run("score", "-", stdin=text, timeout=20), "<stdin>", "more than 1,024 KB")
    assert checksums(store) == before


def test_an_empty_data_dir_is_refused_not_taken_for_the_default_store(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "share")}
    env.pop("FLET_APP_STORAGE_DATA", None)
    path = tmp_path / "one.json"
    path.write_text(json.dumps(ur()))
    for args in (["import", "--data-dir", "", str(path)], ["list", "--data-dir", ""], ["--data-dir", " ", "list"]):
        out = subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True,
                             env=env, timeout=60)
        assert out.returncode == 2 and out.stderr.strip() == "pandapad: --data-dir is empty; give the folder of the store"
    assert not home.exists()


def test_messages_are_in_a_players_words(tmp_path):
    cases = [
        (export(ur(version=None)).replace('"version": 1', '"version": null', 1), "version", "not null"),
        (json.dumps(ur(created="yesterday")), "created", "not an ISO 8601 time"),
    ]
    for text, where, words in cases:
        path = tmp_path / "in.json"
        path.write_text(text)
        line = refused(run("import", "--data-dir", str(tmp_path / "d"), str(path)), str(path), words)
        assert f": {where}" in line
        for programmer in ("None", "True", "inf", "value error", "codec", "Errno", "unicode string"):
            assert programmer not in line, line


def listed_ids(data: Path) -> set[str]:
    out = run("list", "--data-dir", str(data))
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    return {line.split("\t")[0] for line in out.stdout.decode().splitlines()}


@pytest.mark.parametrize("cut", [0.6, 0.2])
def test_a_history_file_damaged_after_an_import_loses_no_game_or_names_it(tmp_path, store, cut):
    games = [g.to_json() for g in samples.history(11, 5)]
    path = tmp_path / "more.json"
    path.write_text(export(*games))
    assert run("import", "--data-dir", str(store), str(path)).returncode == 0
    everything = listed_ids(store)
    chunk = store / "history-0001.json"
    raw = chunk.read_bytes()
    chunk.write_bytes(raw[:int(len(raw) * cut)])  # cut short, as a full disk or a bad card leaves it
    out = run("list", "--data-dir", str(store))
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    kept = {line.split("\t")[0] for line in out.stdout.decode().splitlines()}
    notices = out.stderr.decode()
    for gid in everything - kept:
        assert f"could not keep game {gid} " in notices, notices
    assert kept == everything  # the backup taken after the import has them all


def test_reads_do_not_roll_the_backups_out(tmp_path, store):
    taken = sorted(p.name for p in (store / "backups").iterdir())
    assert taken
    for command in (["list"], ["export"], ["export", "--format", "csv"], ["list"], ["list"]):
        assert run(*command, "--data-dir", str(store)).returncode == 0
    assert sorted(p.name for p in (store / "backups").iterdir()) == taken


@pytest.mark.parametrize("edit,words", [
    (lambda t: t.replace('"declared":{"a":1', '"declared":{"a":' + HUGE, 1), "4,000 digits"),
    (lambda t: t.replace('"name":"Cy"', '"name":"C\\udfffy"', 1), "\\udfff"),
    (lambda t: t.replace('"2026-11-22T19:00:00Z"', '"9999-12-31T23:59:59-14:00"', 1), "UTC"),
    (lambda t: t.replace('"tricks":{"a":1', '"tricks":{"a":NaN', 1), "NaN"),
])
def test_a_store_file_edited_by_hand_is_set_aside_and_said_plainly(tmp_path, store, edit, words):
    """A file that still parses but holds what the reader refuses: moved aside, said in one
    notice line, every other game kept; list and both exports work (no traceback)."""
    [path] = (store / "active").iterdir()
    text = path.read_text()
    changed = edit(text)
    assert changed != text
    path.write_text(changed)
    out = run("list", "--data-dir", str(store))
    err = out.stderr.decode()
    assert out.returncode == 0 and "Traceback" not in err
    assert "(game in progress)" in err and words in err and "moved aside as active/" in err
    assert len(out.stdout.decode().splitlines()) == 3  # the two finished games and the game from the backup
    for fmt in ("json", "csv"):
        done = run("export", "--format", fmt, "--data-dir", str(store))
        assert done.returncode == 0 and done.stderr == b""


def test_a_lock_file_the_store_cannot_open_is_said_without_errno(tmp_path, store):
    (store / "store.lock").unlink()
    (store / "store.lock").mkdir()  # root may read anything: a folder in its place stands for a refusal
    out = run("list", "--data-dir", str(store))
    err = out.stderr.decode()
    assert out.returncode == 2 and "Errno" not in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith(f"{store}: cannot use the store: is a directory (store.lock)")


def finished_ur(gid: str, players=TWO, winner="a") -> dict:
    return {"id": gid, "game": "royal-ur", "players": players, "created": "2026-11-20T19:00:00Z",
            "finished": "2026-11-20T20:00:00Z", "rounds": [{"winner": winner, "loser": {"unentered": 7}}]}


def test_another_game_under_a_stored_id_is_imported_as_new_and_said(tmp_path):
    data = tmp_path / "data"
    first = tmp_path / "first.json"
    first.write_text(json.dumps(finished_ur("G")))
    assert run("import", "--data-dir", str(data), str(first)).returncode == 0
    others = [{"id": "x", "name": "Xu"}, {"id": "y", "name": "Yo"}]
    for other, why in ((finished_ur("G", others, "x"), "its players are Xu, Yo, the stored game's are Ann, Ben"),
                       ({**finished_ur("G"), "game": "pass-the-pandas", "rounds": []},
                        "it is pass-the-pandas, the stored game is royal-ur")):
        path = tmp_path / "other.json"
        path.write_text(export(other))
        out = run("import", "--data-dir", str(data), str(path))
        err = out.stderr.decode()
        assert out.returncode == 0 and "Traceback" not in err
        assert out.stdout.decode().strip() == (f"{path}: imported 1 game: 1 new, 0 updated, 0 unchanged, 1 of the "
                                               "new under a new id (another stored game had its id)")
        [line] = err.splitlines()
        assert line.startswith(f"pandapad: {path}: games[0]: game G is not the stored game G ({why}); "
                               "it comes in as a new game, ")
        again = run("import", "--data-dir", str(data), str(path))  # the same file again: found, not doubled
        assert again.stdout.decode().strip().endswith("0 new, 0 updated, 1 unchanged") and again.stderr == b""
    stored = json.loads(run("export", "--data-dir", str(data)).stdout)["games"]
    assert len(stored) == 3
    [kept] = [g for g in stored if g["id"] == "G"]  # the stored game, as it was
    assert kept["game"] == "royal-ur" and [p["name"] for p in kept["players"]] == ["Ann", "Ben"]


def test_a_renamed_player_is_still_the_same_game(tmp_path):
    data = tmp_path / "data"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(finished_ur("G")))
    assert run("import", "--data-dir", str(data), str(path)).returncode == 0
    path.write_text(json.dumps(finished_ur("G", [{"id": "a", "name": "Annie"}, TWO[1]])))
    out = run("import", "--data-dir", str(data), str(path))
    assert out.stdout.decode().strip().endswith("0 new, 1 updated, 0 unchanged") and out.stderr == b""


def test_a_finished_game_that_breaks_its_rules_is_imported_with_a_warning_line(tmp_path):
    data = tmp_path / "data"
    bad = {"id": "PR", "game": "panda-royale", "players": TWO, "created": "2026-11-21T19:00:00Z",
           "finished": "2026-11-21T20:00:00Z", "rounds": [{"hands": {"a": {"yellow": [99]}, "b": {"yellow": [3]}}}]}
    path = tmp_path / "in.json"
    path.write_text(export(finished_ur("fine"), bad))
    out = run("import", "--data-dir", str(data), str(path))
    assert out.returncode == 0
    [line] = out.stderr.decode().splitlines()
    assert line.startswith(f"pandapad: {path}: games[1]: game PR is finished but breaks its rules: "
                           "rounds[0].hands.a.yellow[0]: ") and "99" in line
    assert listed_ids(data) == {"fine", "PR"}
    # the same game in progress is a game still being entered: no warning
    path.write_text(export({**bad, "id": "PR2", "finished": None}))
    assert run("import", "--data-dir", str(data), str(path)).stderr == b""


def test_the_apps_preview_says_the_same_line_and_shows_the_warnings(tmp_path):
    from storage import Store
    from views.screens.data import read_file
    for case in ("a die of 4,000 digits", "a half surrogate in an id", "a date past 9999 in UTC", "Infinity"):
        text, *words = CASES[case]
        games, problem = read_file(text.encode("utf-8"), "phone.json")
        assert games is None and problem.startswith("phone.json: ") and "\n" not in problem
        assert all(word in problem for word in words)
    games, problem = read_file(b"\xff\xfe{}", "phone.json")
    assert problem == "phone.json: byte 0: not UTF-8 text (perhaps not a text file, or saved in another encoding)"
    with Store.open(tmp_path / "data") as store:
        store.import_incoming(read_file(json.dumps(finished_ur("G")).encode(), "a.json")[0])
        others = [{"id": "x", "name": "Xu"}, {"id": "y", "name": "Yo"}]
        games, _ = read_file(export(finished_ur("G", others, "x"),
                                    {**finished_ur("B"), "rounds": [{"winner": "a", "loser": {"unentered": 9}}]}
                                    ).encode(), "b.json")
        report = store.import_incoming(games, dry_run=True, keep_in_progress=True)
        warnings = report.warnings()
        assert len(warnings) == 2 and "it comes in as a new game" in warnings[0] and "breaks its rules" in warnings[1]
        assert {s.id for s in store.recent()} == {"G"}  # a preview writes nothing


@pytest.mark.parametrize("kind", ["pipe", "too large"])
def test_a_store_file_that_is_a_pipe_or_too_large_is_set_aside_unread(tmp_path, store, kind):
    everything = listed_ids(store)
    chunk = store / "history-0001.json"
    chunk.unlink()
    if kind == "pipe":
        os.mkfifo(chunk)  # reading it would wait for ever
    else:
        with open(chunk, "wb") as f:
            f.truncate(300 * 1024 * 1024)  # sparse: nothing written, nothing to read
    out = run("list", "--data-dir", str(store), timeout=30)
    err = out.stderr.decode()
    assert out.returncode == 0 and "Traceback" not in err
    assert ("not a plain file" if kind == "pipe" else "it is 300 MB") in err and "restored it from the backup" in err
    assert {line.split("\t")[0] for line in out.stdout.decode().splitlines()} == everything


def test_an_endless_stream_of_text_is_cut_at_the_limit_in_bounded_memory(store):
    """`yes | main.py import -`: valid text that never ends is read to the 100 MB limit and
    refused, in bounded time (the timeout) and memory (the child's peak, measured by the OS)."""
    import resource
    before = checksums(store)
    endless = subprocess.Popen(["yes", " "], stdout=subprocess.PIPE)
    try:
        out = run("import", "--data-dir", str(store), "-", stdin=endless.stdout, timeout=120)
    finally:
        endless.kill()
        endless.wait()
    refused(out, "<stdin>", "is more than 100 MB", "at most 100 MB")
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KB on Linux
    assert peak_mb < 600, f"{peak_mb:.0f} MB"
    assert checksums(store) == before
