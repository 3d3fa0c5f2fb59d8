"""Import and export through the store's API: all or nothing, no duplicates, CSV guard."""
from __future__ import annotations

import csv
import io
import json
import random
import threading

import pytest

from scoring import Player, RecordError
from storage import Store, StoreError, samples
from storage.transfer import export_json, guard, write_csv


def export_of(games):
    return {"format": "pandapad/export", "version": 1, "exported": "2026-11-22T21:00:00Z",
            "games": [g.to_json() for g in games]}


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path) as s:
        yield s


def test_import_counts_new_updated_and_unchanged_and_never_stores_twice(store):
    games = samples.history(31, 6)
    assert str(store.import_data(export_of(games[:4]))) == "4 new, 0 updated, 0 unchanged"
    changed = samples.correct(games[1], random.Random(1))
    report = store.import_data(export_of([games[0], changed] + games[2:]))
    assert (report.new, report.updated, report.unchanged) == (2, 1, 3)
    assert len(store.recent(100)) == 6
    saved = store.load(games[1].id)
    assert saved.record == changed and saved.can_undo  # the replaced version is one undo away
    assert store.undo(games[1].id, saved.revision).record == games[1]


def test_a_single_record_can_be_imported(store):
    game = samples.finished_game(random.Random(2), "single", samples.START)
    assert store.import_data(game.to_json()).new == 1
    assert store.import_data(game.to_json()).unchanged == 1
    assert store.load("single").record == game


def test_one_bad_record_means_nothing_is_imported(store):
    games = [g.to_json() for g in samples.history(32, 5)]
    games[3]["rounds"][2]["hands"]["p1"]["yelow"] = [3]
    with pytest.raises(RecordError) as caught:
        store.import_data({"format": "pandapad/export", "version": 1, "games": games})
    assert caught.value.where == "games[3].rounds[2].hands.p1.yelow"
    assert caught.value.message == "game g32-00003: unknown field"
    assert store.recent() == [] and store.in_progress() == []


def test_an_export_file_without_games_or_of_another_shape_is_refused(store):
    with pytest.raises(RecordError) as caught:
        store.import_data({"format": "pandapad/export", "version": 1})
    assert caught.value.where == "games"
    with pytest.raises(RecordError):
        store.import_data([1, 2])


def test_a_record_without_an_id_gets_one_from_its_content_so_reimport_finds_it(store):
    data = samples.finished_game(random.Random(3), "x", samples.START).to_json()
    del data["id"]
    first = store.import_data(data)
    assert first.new == 1 and len(first.new_ids[0]) == 36
    assert store.import_data(data).unchanged == 1
    assert len(store.recent()) == 1


def test_a_record_without_created_is_dated_by_its_finish_or_the_import(store):
    done = samples.finished_game(random.Random(4), "done", samples.START).to_json()
    live = samples.new_game(random.Random(4), "live", "2026-11-22T19:00:00Z").to_json()
    done["created"] = live["created"] = None
    store.import_data({"format": "pandapad/export", "version": 1, "games": [done, live]})
    assert store.load("done").record.created == done["finished"]
    assert store.load("live").record.created.startswith("20")
    assert store.import_data(live).unchanged == 1  # keeps the date it was given


def test_the_same_id_twice_in_a_file_is_refused_unless_identical(store):
    a = samples.finished_game(random.Random(5), "same", samples.START)
    b = samples.correct(a, random.Random(6))
    assert store.import_data(export_of([a, a])).new == 1
    with pytest.raises(RecordError) as caught:
        store.import_data(export_of([a, b]))
    assert caught.value.where == "games[1].id" and "games[0]" in caught.value.message


def test_export_then_import_elsewhere_gives_the_same_games(store, tmp_path):
    games = samples.history(33, 12)
    store.import_data(export_of(games))
    live = samples.new_game(random.Random(7), "live", "2026-11-22T19:00:00Z")
    store.save(samples.tap(live, random.Random(7)), None)
    export = store.export_data()
    assert export["format"] == "pandapad/export" and export["version"] == 1
    assert export["exported"].endswith("Z") and len(export["games"]) == 13
    assert export["games"][0]["id"] == "live"  # in progress first, then the history
    text = export_json(export)
    assert json.loads(text) == export
    with Store.open(tmp_path / "elsewhere") as other:
        assert other.import_data(json.loads(text)).new == 13
        assert other.load("g33-00004").record == games[4]


def test_csv_has_one_row_per_player_per_game_with_the_formula_guard(store):
    game = samples.finished_game(random.Random(8), "g", samples.START, players=5)
    names = ["=SUM(A1)", "+Ann", "-Ben", "@Cleo", "Dora"]
    players = tuple(Player(id=p.id, name=n) for p, n in zip(game.players, names))
    store.save(game.model_copy(update={"players": players}), None)
    out = io.StringIO(newline="")
    assert write_csv(store.rows(), out) == 1
    text = out.getvalue()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["game_id", "game", "created", "finished", "seat", "player", "total", "place", "winner"]
    assert [r[5] for r in rows[1:]] == ["'=SUM(A1)", "'+Ann", "'-Ben", "'@Cleo", "Dora"]
    line = text.splitlines()[1]
    assert line.startswith("g,panda-royale,2021-03-01T18:00:00Z,")
    assert line.endswith(f",1,'=SUM(A1),{rows[1][6]},{rows[1][7]},{rows[1][8]}")  # numbers unquoted
    assert all(r[6].lstrip("-").isdigit() and r[7].isdigit() and r[8] in ("0", "1") for r in rows[1:])


def test_the_guard_covers_every_formula_start_and_leaves_numbers_alone():
    for text in ["=1", "+1", "-1", "@A", "\tx", "\rx"]:
        assert guard(text) == "'" + text
    assert guard("Ann") == "Ann" and guard("") == ""
    out = io.StringIO(newline="")
    write_csv([{"id": "g", "game": "panda-royale", "created": None, "finished": None,
                "players": [["a", "Ann", -12, 1]], "winners": ["Ann"]}], out)
    assert out.getvalue().splitlines()[1] == "g,panda-royale,,,1,Ann,-12,1,"


# --- reading a large export one game at a time -------------------------------------------
from storage.jsonstream import parse_lazily  # noqa: E402
from storage.transfer import read_import  # noqa: E402


@pytest.mark.parametrize("indent", [None, 0, 2, "\t"])
def test_an_export_is_read_game_by_game_whatever_its_layout(indent):
    export = export_of(samples.history(34, 3))
    text = json.dumps(export, indent=indent)
    head, games = parse_lazily(text, "pandapad/export")
    assert head == {"format": "pandapad/export", "version": 1, "exported": export["exported"]}
    assert list(games) == export["games"]
    assert [g.id for g in read_import(text)] == [g["id"] for g in export["games"]]


def test_what_export_writes_is_read_lazily_and_other_layouts_whole():
    export = export_of(samples.history(35, 2))
    assert parse_lazily(export_json(export), "pandapad/export") is not None
    games_first = json.dumps({"games": export["games"], "format": "pandapad/export", "version": 1})
    assert parse_lazily(games_first, "pandapad/export") is None
    assert len(read_import(games_first)) == 2  # still read, by json.loads
    assert parse_lazily(json.dumps(export["games"][0]), "pandapad/export") is None


@pytest.mark.parametrize("tail", ["]} x", "] }}", "]", "], }", '{"a": 1}]}'])
def test_bad_json_after_the_games_is_still_bad_json(tail):
    export = export_of(samples.history(36, 2))
    text = json.dumps(export)[: -2] + tail
    with pytest.raises(json.JSONDecodeError):
        read_import(text)


# --- exporting while the store is in use -----------------------------------------------
def in_thread(fn, *args):
    """Run fn in a thread; (finished within 10 s, its result or exception)."""
    box = {}

    def target():
        try:
            box["result"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["result"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(10)
    return not thread.is_alive(), box.get("result")


def test_a_reader_of_the_records_never_holds_the_store_between_records(tmp_path, monkeypatch):
    monkeypatch.setattr("storage.history.CHUNK_GAMES", 5)
    games = samples.history(37, 12)  # three history files
    with Store.open(tmp_path) as store:
        store.import_data(export_of(games))
        live = samples.new_game(random.Random(7), "live", "2026-11-22T19:00:00Z")
        saved = store.save(live, None)
        records = store.iter_records()
        try:
            assert next(records)["id"] == "live"  # a reader that stopped here (a closed pipe) ...
            done, result = in_thread(store.save, samples.tap(live, random.Random(8)), saved.revision)
            assert done and not isinstance(result, Exception), result  # ... blocks no save
            assert in_thread(store.delete, games[7].id) == (True, None)
            store.save(samples.finished_game(random.Random(9), "later", samples.START), None)
            rest = [r["id"] for r in records]
            # each game of the start once, the deleted one left out, the one saved since not there
            assert rest == [g.id for g in games if g.id != games[7].id]
            records = store.iter_records()
            next(records)
            assert in_thread(store.close) == (True, None)  # the CLI closes the store on a closed pipe
            with pytest.raises(StoreError):
                next(records)
        finally:
            records.close()  # lets a failing run end instead of hanging in the fixture's close


@pytest.mark.parametrize("text, where, what", [
    ("[" * 100_000 + "]" * 100_000, (1, 101), "nested more than 100 levels deep"),
    ('{"a": [1, "9]]]", ' + "9" * 5000 + "]}", (1, 19), "a whole number of 5,000 digits"),
    ('{"a":\n  -' + "9" * 5000 + "}", (2, 3), "a whole number of 5,000 digits"),
])
def test_json_python_will_not_read_is_a_json_error_saying_what_and_where(text, where, what):
    from storage.jsonstream import Unreadable, loads
    for given in (text, text.encode()):
        with pytest.raises(Unreadable) as caught:
            loads(given)
        assert (caught.value.lineno, caught.value.colno) == where and caught.value.msg.startswith(what)
    with pytest.raises(json.JSONDecodeError):  # what import catches
        read_import(text)
    assert loads('{"a": 1.' + "9" * 5000 + "}")["a"] == 2.0  # a long fraction is just a float


# --- an import never takes a stored game back --------------------------------------------
def played(seed: int, taps: int, game_id: str = "g"):
    """A game entered tap by tap, as the pad does: its version after `taps` taps."""
    rng = random.Random(seed)
    record = samples.new_game(rng, game_id, "2026-11-22T19:00:00Z", players=3)
    for _ in range(taps):
        record = samples.tap(record, rng)
    return record


def versions(seed: int, *taps: int):
    return [played(seed, n) for n in taps]


@pytest.mark.parametrize("stored_taps, copy_taps, counted", [
    (30, 12, "kept"),  # an in-progress copy from earlier in the game: fewer rounds
    (30, 29, "kept"),  # one die short in the last hand: same rounds, fewer entries
    (166, 40, "kept"),  # the stored game is finished (10 rounds of 3 players + the finish tap)
    (165, 166, "updated"),  # the finish of a game stored in progress
    (12, 30, "updated"),  # a more complete copy
    (30, 30, "unchanged"),
])
def test_an_import_never_takes_a_stored_game_back(store, stored_taps, copy_taps, counted):
    stored, copy = versions(3, stored_taps, copy_taps)
    assert (stored.finished is not None, copy.finished is not None) == (stored_taps == 166, copy_taps == 166)
    store.import_data(stored.to_json())
    before = store.load("g")
    report = store.import_data(copy.to_json())
    assert {"kept": report.kept, "updated": report.updated, "unchanged": report.unchanged}[counted] == 1
    assert report.total == 1 and report.new == 0
    after = store.load("g")
    if counted == "kept":
        assert (after.record, after.revision, after.can_undo) == (before.record, before.revision, before.can_undo)
        assert str(report) == "0 new, 0 updated, 0 unchanged, 1 kept (the stored game is newer or more complete)"
    else:
        assert after.record == copy


def test_corrections_notes_and_finishes_still_update_and_a_lesser_finish_is_kept(store):
    rng = random.Random(4)
    stored = played(4, 40)
    store.import_data(stored.to_json())
    corrected = samples.correct(stored, rng)  # a die re-entered with another face: same amount
    noted = corrected.model_copy(update={"notes": "rematch on Friday"})
    assert store.import_data(corrected.to_json()).updated == 1
    assert store.import_data(noted.to_json()).updated == 1
    finished_early = played(4, 39).model_copy(update={"finished": "2026-11-22T21:00:00Z"})
    assert store.import_data(finished_early.to_json()).kept == 1  # finished, but with less entered
    assert store.load("g").record == noted
    finished = noted.model_copy(update={"finished": "2026-11-22T21:00:00Z"})
    assert store.import_data(finished.to_json()).updated == 1
    assert store.load("g").record == finished and store.recent()[0].id == "g"


def test_a_file_mixing_new_updated_unchanged_and_kept_games_counts_each(store):
    games = samples.history(38, 3)
    store.import_data(export_of(games[:2]))
    older = games[0].model_copy(update={"finished": None, "rounds": games[0].rounds[:4]})
    fixed = samples.correct(games[1], random.Random(5))
    report = store.import_data(export_of([older, fixed, games[2]]))
    assert str(report) == "1 new, 1 updated, 0 unchanged, 1 kept (the stored game is newer or more complete)"
    assert report.total == 3 and report.new_ids == [games[2].id]
    assert store.load(games[0].id).record == games[0] and store.load(games[1].id).record == fixed
    assert store.in_progress() == []


def test_the_app_imports_around_a_game_being_played(store):
    """#24: a file with a newer copy of a game in progress here leaves that game as it is
    (its pads would not know), counts it, and imports the rest."""
    from storage import transfer
    rng = random.Random(24)
    playing = store.save(samples.new_game(rng, "live", "2026-11-24T19:00:00Z", players=3), None)
    newer = samples.tap(samples.tap(playing.record, rng), rng)
    other = samples.history(31, 1)[0]
    incoming = transfer.prepare(export_of([newer, other]))
    report = store.import_incoming(incoming, keep_in_progress=True)
    assert (report.new, report.updated, report.playing) == (1, 0, 1)
    assert "1 left as they are" in str(report)
    assert store.load("live") == playing
    assert store.import_incoming(incoming).updated == 1  # the command line's import: updated
