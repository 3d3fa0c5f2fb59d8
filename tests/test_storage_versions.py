"""Record versions: old records are migrated on read and on import by the registry of pure
upgrade steps; a record newer than the app is refused, naming both versions."""
from __future__ import annotations

import json
import random

import pytest

import scoring.versions
from scoring import RecordError
from storage import Store, StoreTooNew, samples
from storage.atomic import sha256
from storage.layout import active_name


def comment_to_notes(data: dict) -> dict:
    """A fabricated step 0 -> 1: version 0 called the notes field `comment`."""
    data = dict(data)
    comment = data.pop("comment", None)
    if comment is not None:
        data["notes"] = comment
    return data


@pytest.fixture
def step_0_to_1(monkeypatch):
    monkeypatch.setitem(scoring.versions.UPGRADES, 0, comment_to_notes)


def as_version_0(record: dict) -> dict:
    old = {k: v for k, v in record.items() if k != "notes"}
    return {**old, "version": 0, "comment": "played at Ann's"}


def test_an_older_record_is_migrated_on_import(tmp_path, step_0_to_1):
    game = samples.finished_game(random.Random(1), "old-one", samples.START)
    with Store.open(tmp_path) as store:
        report = store.import_data({"format": "pandapad/export", "version": 1,
                                    "games": [as_version_0(game.to_json())]})
        assert report.new == 1
        stored = store.load("old-one").record
        assert stored.version == 1 and stored.notes == "played at Ann's"
        assert stored.rounds == game.rounds


def test_an_older_record_without_a_known_step_is_refused(tmp_path):
    game = samples.finished_game(random.Random(1), "old-one", samples.START)
    with Store.open(tmp_path) as store:
        with pytest.raises(RecordError) as caught:
            store.import_data(as_version_0(game.to_json()))
        assert "version 0" in caught.value.message and store.recent() == []


def test_older_records_in_the_store_are_migrated_on_read_with_their_undo_history(tmp_path, step_0_to_1):
    rng = random.Random(2)
    with Store.open(tmp_path) as store:
        record = samples.new_game(rng, "live", "2026-11-22T19:00:00Z", players=2)
        versions = [record]
        saved = store.save(record, None)
        for _ in range(4):
            versions.append(samples.tap(versions[-1], rng))
            saved = store.save(versions[-1], saved.revision)
        store.save(samples.finished_game(rng, "done", samples.START), None)
    # Rewrite both files as an app of record version 0 would have left them.
    active = tmp_path / "active" / active_name("live")
    data = json.loads(active.read_bytes())
    data["game"]["1"]["record"] = as_version_0(data["game"]["1"]["record"])
    active.write_text(json.dumps(data))
    chunk, index = tmp_path / "history-0001.json", tmp_path / "index-0001.json"
    data = json.loads(chunk.read_bytes())
    data["games"]["1"]["record"] = as_version_0(data["games"]["1"]["record"])
    chunk.write_text(json.dumps(data))
    meta = json.loads(index.read_bytes())
    meta["meta"]["1"]["chunk_sha256"] = sha256(chunk.read_bytes())  # an index that matches...
    meta["summaries"]["1"]["version"] = 0  # ...and says the record is old
    index.write_text(json.dumps(meta))

    with Store.open(tmp_path) as store:
        assert store.notices == []
        live = store.load("live")
        assert live.record.version == 1 and live.record.notes == "played at Ann's"
        assert live.record.rounds == versions[-1].rounds
        back = store.undo("live", live.revision)  # earlier versions were migrated too
        assert back.record.version == 1 and back.record.rounds == versions[-2].rounds
        assert back.record.notes == "played at Ann's"
        done = store.load("done").record
        assert done.version == 1 and done.notes == "played at Ann's"
    assert json.loads(chunk.read_bytes())["games"]["1"]["record"]["version"] == 1  # written back
    assert json.loads(index.read_bytes())["summaries"]["1"]["version"] == 1
    with Store.open(tmp_path) as store:  # and now it is simply current
        assert store.load("done").record.notes == "played at Ann's"


def test_a_record_newer_than_the_app_is_refused_on_import_naming_both_versions(tmp_path):
    game = samples.finished_game(random.Random(3), "future", samples.START).to_json()
    with Store.open(tmp_path) as store:
        with pytest.raises(RecordError) as caught:
            store.import_data({**game, "version": 2})
        assert caught.value.where == "version"
        assert "version 2" in caught.value.message and "up to version 1" in caught.value.message
        with pytest.raises(RecordError) as caught:
            store.import_data({"format": "pandapad/export", "version": 2, "games": []})
        assert "version 2" in caught.value.message and "version 1" in caught.value.message
        assert store.recent() == []


def test_a_record_newer_than_the_app_cannot_be_saved(tmp_path):
    game = samples.finished_game(random.Random(3), "future", samples.START)
    with Store.open(tmp_path) as store:
        with pytest.raises(RecordError) as caught:
            store.save(game.model_copy(update={"version": 2}), None)
        assert "version 2" in caught.value.message and "version 1" in caught.value.message


def test_a_store_holding_a_newer_history_file_is_refused(tmp_path):
    with Store.open(tmp_path) as store:
        store.save(samples.finished_game(random.Random(3), "done", samples.START), None)
    chunk = tmp_path / "history-0001.json"
    data = json.loads(chunk.read_bytes())
    data["games"]["1"]["record"]["version"] = 3
    chunk.write_text(json.dumps(data))
    with pytest.raises(StoreTooNew) as caught:
        Store.open(tmp_path)
    assert (caught.value.found, caught.value.newest) == (3, 1)
    assert "version 3" in str(caught.value) and "version 1" in str(caught.value)
    assert json.loads(chunk.read_bytes())["games"]["1"]["record"]["version"] == 3  # untouched
