"""Reverse diffs and the journal of versions that undo/redo walk."""
from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from storage import journal, samples
from storage.diffs import apply, check_ops, diff

scalars = st.none() | st.integers(-50, 50) | st.text(max_size=4) | st.booleans()
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=5)
                           | st.dictionaries(st.text(max_size=3), kids, max_size=5), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_applying_the_diff_of_two_values_turns_one_into_the_other(a, b):
    frozen = copy.deepcopy(a)
    ops = diff(a, b)
    check_ops(json.loads(json.dumps(ops)))  # survives a trip through the file
    assert json.dumps(apply(a, ops), sort_keys=True) == json.dumps(b, sort_keys=True)  # key order aside
    assert a == frozen  # the old version is never mutated


def test_a_tap_costs_a_few_dozen_bytes_not_a_record():
    rng = random.Random(4)
    before = samples.finished_game(rng, "g", samples.START, players=10).model_copy(update={"finished": None})
    after = samples.correct(before, rng)
    ops = diff(after.to_json(), before.to_json())
    assert len(json.dumps(ops)) < 120 < len(json.dumps(before.to_json())) / 50
    assert apply(after.to_json(), ops) == before.to_json()


def test_undo_and_redo_walk_every_version_back_and_forth():
    rng = random.Random(5)
    record = samples.new_game(rng, "g", "2026-01-01T18:00:00Z", players=3)
    versions = [record.to_json()]
    doc = journal.new_doc("g", versions[0])
    for _ in range(40):
        record = samples.tap(record, rng)
        versions.append(record.to_json())
        doc = journal.saved(doc, versions[-1])
    for expected in reversed(versions[:-1]):
        doc = journal.undone(doc)
        assert doc["record"] == expected
    assert doc["undo"] == [] and len(doc["redo"]) == 40 and isinstance(doc["redo"][0], str)
    for expected in versions[1:]:
        doc = journal.redone(doc)
        assert doc["record"] == expected
    assert doc["revision"] == 1 + 40 + 80


def test_a_save_after_undo_drops_the_redo_steps():
    doc = journal.new_doc("g", {"a": 1})
    doc = journal.saved(doc, {"a": 2})
    doc = journal.undone(doc)
    assert doc["redo"]
    doc = journal.saved(doc, {"a": 3})
    assert doc["redo"] == [] and journal.undone(doc)["record"] == {"a": 1}


def test_migrating_a_journal_upgrades_every_version():
    doc = journal.new_doc("g", {"version": 0, "n": 1})
    for n in (2, 3):
        doc = journal.saved(doc, {"version": 0, "n": n})
    doc = journal.undone(doc)  # at n=2, one redo step to n=3
    up = journal.migrated(doc, lambda r: {**r, "version": 1, "twice": r["n"] * 2})
    assert up["record"] == {"version": 1, "n": 2, "twice": 4}
    assert journal.undone(up)["record"] == {"version": 1, "n": 1, "twice": 2}
    assert journal.redone(up)["record"] == {"version": 1, "n": 3, "twice": 6}
