"""Games.edit, what every pad's tap goes through, on a real store: taps of many phones on one
game at the same moment all land, each on the record the others left."""
from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

from storage import Store, samples
from views.games import Games

PHONES = 10  # the most players at one table (Panda Royale)


def test_ten_phones_tapping_one_game_at_the_same_moment_lose_no_tap(tmp_path):
    store = Store.open(tmp_path)
    rng = random.Random(7)
    saved = store.save(samples.new_game(rng, "table", "2026-11-23T19:00:00Z", players=PHONES), None)
    games = Games(store)

    async def burst():
        # Every phone taps on the record it shows (the same revision), as at a real table.
        start = asyncio.Event()

        async def phone(k: int):
            await start.wait()
            return await games.edit("table", saved, lambda record: samples.tap(record, random.Random(k)))

        tasks = [asyncio.create_task(phone(k)) for k in range(PHONES)]
        start.set()
        return await asyncio.gather(*tasks)

    # On a thread of its own: in a whole run, the browser tests' Playwright keeps an event loop
    # running on this one, and asyncio.run refuses to start beside it.
    with ThreadPoolExecutor(1) as pool:
        results = pool.submit(asyncio.run, burst()).result()
    stored = store.load("table")
    assert stored.revision == saved.revision + PHONES  # each tap saved once, none refused
    assert samples.taps(stored.record) == PHONES  # and none written over another
    assert sorted(r.revision for r in results) == list(range(saved.revision + 1, saved.revision + PHONES + 1))
    store.close()
