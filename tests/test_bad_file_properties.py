"""Whatever a file holds, `score` and `import` keep records.md's promise (issue #22):
hypothesis mutates real records and export bundles (numbers made huge or not numbers, text
made half characters, keys given twice, dates past 9999, lists blown up, nesting, cuts) and
runs the commands in this process. Each run either succeeds, or prints one line naming the
file with exit 2 and leaves every store file byte for byte as it was; and after an import
that succeeded, the store still lists and exports in both formats."""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import main
from storage import samples
from views.words import lang

TWO = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}]
THREE = TWO + [{"id": "c", "name": "Cy"}]
RECORDS = [g.to_json() for g in samples.history(5, 2)] + [
    {"id": "n1", "game": "nokosu-dice", "players": THREE, "settings": {"zero_bonus": 10},
     "created": "2026-11-22T19:00:00Z", "finished": None,
     "rounds": [{"declared": {"a": 3, "b": 2, "c": 0}, "tricks": {"a": 3, "b": 4, "c": 0}}]},
    {"id": "p1", "game": "pass-the-pandas", "players": THREE, "settings": {"variant": "panda-monium", "target": 30},
     "rounds": [{"out": [{"player": "a", "points": 13}, {"player": "b", "points": 7}]}]},
    {"id": "u1", "game": "royal-ur", "players": TWO, "finished": "2026-11-22T21:00:00Z",
     "rounds": [{"winner": "a", "loser": {"unentered": 2, "start": 1, "home": 3, "board": [1]}}]},
    {"id": "d1", "game": "pandoria", "players": TWO, "settings": {"mode": "standard"},
     "log": [{"player": "a", "points": 4, "note": "city closed"}],
     "final": {"a": {"points": 54, "cards": 3, "wood": 7}, "b": {"points": 61, "crystal": 9}}},
]
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[\[{]')
NUMBERS = ["9" * 4400, "-" + "9" * 5000, "9" * 16, "NaN", "Infinity", "-Infinity", "1e400", "1.5", "-0", "true", "null",
           '"7"', "[]", "{}"]
TEXTS = ['"\\udfff"', '"a\\ud800"', '"\\ud83d\\ude00"', '"' + "x" * 20_000 + '"', '"9999-12-31T23:59:59-14:00"',
         '"0001-01-01T00:00:00+14:00"', '"a\\nb"', '"\\u0000"', '""', '"=1+1"', '"game"']


@st.composite
def mutated(draw) -> str:
    """The JSON text of a record or a bundle, changed in one to three places."""
    records = draw(st.lists(st.sampled_from(RECORDS), min_size=1, max_size=3))
    bundle = draw(st.booleans())
    text = (json.dumps({"format": "pandapad/export", "version": 1, "games": records}) if bundle
            else json.dumps(records[0]))
    for _ in range(draw(st.integers(1, 3))):
        tokens = list(TOKEN.finditer(text))
        if not tokens:  # cut to nothing already
            break
        token = tokens[draw(st.integers(0, len(tokens) - 1))]
        kind = draw(st.sampled_from(["number", "text", "twice", "blow", "deep", "cut"]))
        at, end = token.start(), token.end()
        if kind == "number":
            new = draw(st.sampled_from(NUMBERS))
        elif kind == "text":
            new = draw(st.sampled_from(TEXTS))
        elif kind == "twice" and token.group() == "{":
            key = draw(st.sampled_from(["game", "games", "id", "players", "rounds", "a", "yellow", "version"]))
            new = '{"' + key + '": 1, "' + key + '": 2' + ("" if text[end:].lstrip().startswith("}") else ", ")
        elif kind == "blow":
            new = "[" + ", ".join([token.group() if token.group() not in "[{" else "1"] * 5000) + "]"
        elif kind == "deep":
            new = "[" * 60 + "1" + "]" * 60
        else:
            new, end = "", len(text)  # the file cut short here
        text = text[:at] + new + text[end:]
    return text


def checksums(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def command(*argv: str) -> tuple[int, str, str]:
    """main.py in this process: (exit status, stdout, stderr); any other exception fails. (It
    leaves views.words.lang speaking to a terminal: tests/conftest.py puts the screen's words back.)"""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main.main(list(argv))
        except SystemExit as stop:
            status = stop.code
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def store():
    folder = Path(tempfile.mkdtemp(prefix="pandapad-props-"))
    data = folder / "data"
    path = folder / "start.json"
    path.write_text(json.dumps({"format": "pandapad/export", "version": 1, "games": RECORDS[:2]}))
    assert command("import", "--data-dir", str(data), str(path))[0] == 0
    yield folder, data
    shutil.rmtree(folder, ignore_errors=True)


def refused_in_one_line(status: int, err: str, name: str) -> None:
    assert status == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{name}: ") and "Traceback" not in err, err


@settings(max_examples=int(os.environ.get("PANDAPAD_PROPERTY_EXAMPLES", 150)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                               HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=mutated())
def test_score_and_import_keep_the_promise_whatever_the_file_holds(store, text):
    folder, data = store
    path = folder / "in.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    status, out, err = command("score", str(path))
    if status == 2:
        refused_in_one_line(status, err, str(path))
    else:
        assert status in (0, 1) and err == "" and json.loads(out)["players"]
    before = checksums(data)
    status, out, err = command("import", "--data-dir", str(data), str(path))
    if status == 2:
        refused_in_one_line(status, err, str(path))
        assert checksums(data) == before
    else:
        assert status == 0 and out.startswith(f"{path}: imported "), err
        assert all(line.startswith(f"pandapad: {path}: ") for line in err.splitlines()), err
    # whatever came in, the store still lists and exports (one bad game must not poison it)
    for argv in (["list"], ["export"], ["export", "--format", "csv"]):
        status, out, err = command(*argv, "--data-dir", str(data))
        assert status == 0 and "Traceback" not in err, (argv, err)
    json.loads(command("export", "--data-dir", str(data))[1])
