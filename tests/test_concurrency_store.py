"""Concurrency: 4 threads (as the browser sessions of one server) make 1,000 saves to the
same game and to their own games; no save is lost or corrupted, and a save based on an
older revision is refused (StaleSave), then reloaded and re-applied."""
from __future__ import annotations

import random
import threading

from scoring import parse_record
from storage import StaleSave, Store, samples

THREADS, SAVES = 4, 1000


def test_four_threads_1000_saves_same_and_different_games(tmp_path):
    store = Store.open(tmp_path)
    rng = random.Random(0)
    store.save(samples.new_game(rng, "shared", "2026-11-22T19:00:00Z", players=10), None)
    for t in range(THREADS):
        store.save(samples.new_game(rng, f"own-{t}", "2026-11-22T19:00:00Z", players=10), None)
    done = {"shared": 0, **{f"own-{t}": 0 for t in range(THREADS)}}
    stale, errors = [0], []
    count = threading.Lock()
    start = threading.Barrier(THREADS)

    def session(t: int) -> None:
        rng = random.Random(t)
        start.wait()
        try:
            for i in range(SAVES // THREADS):
                game_id = "shared" if i % 2 == 0 else f"own-{t}"
                while True:  # what the UI does on StaleSave: reload, re-apply the tap, save
                    current = store.load(game_id)
                    try:
                        store.save(samples.tap(current.record, rng), current.revision)
                        break
                    except StaleSave:
                        with count:
                            stale[0] += 1
                with count:
                    done[game_id] += 1
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=session, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sum(done.values()) == SAVES
    assert stale[0] > 0, stale  # the shared game really was contended
    print(f"{stale[0]} stale saves refused and re-applied")

    def check(store: Store) -> None:
        for game_id, saves in done.items():
            saved = store.load(game_id)
            # every successful save is one tap = one more die, none overwritten
            assert saved.revision == 1 + saves and samples.taps(saved.record) == saves, game_id
            parse_record(saved.record.to_json())

    check(store)
    store.close()
    with Store.open(tmp_path) as again:  # and so it is on disk
        assert again.notices == []
        check(again)
        saved = again.load("shared")  # every version is still there to undo through
        for _ in range(done["shared"]):
            before = samples.taps(saved.record)
            saved = again.undo("shared", saved.revision)
            assert samples.taps(saved.record) == before - 1
        assert not saved.can_undo
