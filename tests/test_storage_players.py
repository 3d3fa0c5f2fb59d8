"""Renaming a player across every stored game, and merging two names of one person."""
from __future__ import annotations

from scoring import Player
from scoring import royal_ur as ur
from storage import Store


def match(gid: str, a: str, b: str, finished: bool = True) -> ur.Record:
    record = ur.Record(players=(Player(id="a", name=a), Player(id="b", name=b)), id=gid,
                       created="2026-11-22T19:00:00Z", finished="2026-11-22T20:00:00Z" if finished else None)
    return ur.keep_entry(ur.step(ur.set_winner(record, "a"), "unentered", 7))


def names(store: Store) -> dict[str, list[str]]:
    return {r["id"]: [p[1] for p in r["players"]] for r in store.rows()}


def test_a_rename_reaches_every_game_in_progress_and_finished(tmp_path):
    with Store.open(tmp_path) as store:
        for m in (match("m1", "ann", "Ben"), match("m2", "Cat", "Ann", finished=False), match("m3", "Cat", "Dan")):
            store.save(m, None)
        assert store.rename_player("ANN", "Annabel") == (2, 0)
        assert names(store) == {"m1": ["Annabel", "Ben"], "m2": ["Cat", "Annabel"], "m3": ["Cat", "Dan"]}
        assert store.load("m1").can_undo  # a rename is an edit like any other
    with Store.open(tmp_path) as store:
        assert names(store)["m2"] == ["Cat", "Annabel"]


def test_a_merge_leaves_a_game_where_both_names_sat_at_the_table(tmp_path):
    with Store.open(tmp_path) as store:
        for m in (match("m1", "Kate", "Ben"), match("m2", "Kate", "Katherine"), match("m3", "Katherine", "Dan")):
            store.save(m, None)
        assert store.rename_player("Kate", "Katherine") == (1, 1)
        assert names(store) == {"m1": ["Katherine", "Ben"], "m2": ["Kate", "Katherine"],
                                "m3": ["Katherine", "Dan"]}


def test_the_app_renames_around_a_game_being_played(tmp_path):
    """#24: the app's rename or merge leaves a game in progress as it is: its pads would not know."""
    import random

    from storage import samples
    rng = random.Random(3)
    with Store.open(tmp_path) as store:
        done = samples.history(9, 2)
        for r in done:
            store.save(r, None)
        name = done[0].players[0].name
        live = samples.new_game(rng, "live", "2026-11-24T19:00:00Z", players=3)
        live = live.model_copy(update={"players": (live.players[0].model_copy(update={"name": name}),
                                                   *live.players[1:])})
        playing = store.save(live, None)
        renamed, kept = store.rename_player(name, "Quentin Q", keep_in_progress=True)
        assert kept >= 1 and renamed >= 1
        assert store.load("live") == playing                      # same record, same revision
        assert any(p[1] == "Quentin Q" for r in store.rows() if r["finished"] for p in r["players"])
        store.rename_player(name, "Quentin Q")                    # the command line's: every game
        assert store.load("live").record.players[0].name == "Quentin Q"
