"""Statistics (issue #12) without a browser: the facts kept per game, and what they add up to
over many games, on real records scored by `scoring`."""
from __future__ import annotations

import json

from scoring import parse_record, score
from scoring.statistics import facts, game_stats, player_stats
from storage.summary import index_row

TWO = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}]


def row_of(data: dict, created: str = "2026-11-22T19:00:00Z", finished: bool = True) -> dict:
    record = parse_record({"created": created, "finished": created if finished else None, **data})
    return index_row(record, 1)


def royale(hands_by_round, gid="pr"):
    return row_of({"id": gid, "game": "panda-royale", "players": TWO,
                   "rounds": [{"hands": h} for h in hands_by_round]})


def test_panda_royale_best_round_colours_and_red_below_zero():
    rows = [royale([{"a": {"yellow": [4]}, "b": {"yellow": [6]}},
                    {"a": {"yellow": [3], "red": [5, -2]}, "b": {"yellow": [6], "red": [-5, 1], "glitter": [2]}}],
                   "g1"),
            royale([{"a": {"yellow": [2]}, "b": {"yellow": [1]}},
                    {"a": {"yellow": [1], "purple": [8, 1]}, "b": {"yellow": [2], "clear": [4]}}], "g2")]
    stats = game_stats("panda-royale", rows)
    assert stats.games == 2
    extras = dict(stats.extras)
    assert extras["Best single round ever"] == "19 by Ann (round 2)"          # 1 + (8+1)×2
    assert extras["Red went negative"] == "1 of 2 hands with red dice (50 %)"  # Ben's (−5+1)×2
    # Points by colour per player: yellow, purple, blue, red, green, clear, pink.
    assert stats.colours["Ann"] == [10, 18, 0, 6, 0, 0, 0]
    assert stats.colours["Ben"] == [15, 0, 4, -8, 0, 4, 0]
    ann = next(p for p in stats.players if p.name == "Ann")
    assert (ann.games, ann.wins) == (2, 2)                                     # 13–8 and 21–7


def test_ur_match_and_game_wins_and_the_average_margin():
    rows = [row_of({"id": "m1", "game": "royal-ur", "players": TWO, "rounds": [
        {"winner": "a", "loser": {"unentered": 7}},
        {"winner": "b", "loser": {"home": 6, "board": [5], "squares": [9]}}]})]
    extras = dict(game_stats("royal-ur", rows).extras)
    assert extras["Match wins"] == "Ann 1, Ben 0"
    assert extras["Game wins"] in ("Ann 1, Ben 1", "Ben 1, Ann 1")
    assert extras["Average margin of a game"] == "90.0 points"                 # (175 + 5) / 2


def test_nokosu_declarations_made_and_zero_successes():
    three = TWO + [{"id": "c", "name": "Cat"}]
    rows = [row_of({"id": "n1", "game": "nokosu-dice", "players": three, "rounds": [
        {"declared": {"a": 3, "b": 0, "c": 5}, "tricks": {"a": 3, "b": 0, "c": 9}}]})]
    extras = dict(game_stats("nokosu-dice", rows).extras)
    assert extras["Declarations made"] == "2 of 3 (67 %)"
    assert extras["Zero-trick successes"] == "1"


def test_pandoria_share_of_points_from_the_conversion():
    rows = [row_of({"id": "p1", "game": "pandoria", "players": TWO, "final": {
        "a": {"points": 54, "cards": 3, "wood": 6, "gold": 3, "crystal": 0},   # 2 + 1 converted
        "b": {"points": 60, "cards": 0, "wood": 0, "gold": 0, "crystal": 9}}})]  # 3 converted
    result_total = sum(p[2] for p in rows[0]["players"])
    extras = dict(game_stats("pandoria", rows).extras)
    assert extras["Points from the end-game conversion"] == f"6 of {result_total} ({round(600 / result_total)} %)"


def test_pass_the_pandas_hand_wins_and_points_per_hand():
    rows = [row_of({"id": "t1", "game": "pass-the-pandas", "players": TWO, "settings": {"target": 10}, "rounds": [
        {"out": [{"player": "a", "points": 6}, {"player": "b", "points": 0}]},
        {"out": [{"player": "a", "points": 5}]}]})]
    extras = dict(game_stats("pass-the-pandas", rows).extras)
    assert extras["Hand wins"] == "Ann 2"
    assert extras["Average points per hand"] == 5.5


def test_a_players_page_counts_games_wins_and_streaks_in_time_order():
    rows = []
    for k, winner in enumerate("aabaaa"):  # Ann wins all but the third
        rows.append(row_of({"id": f"u{k}", "game": "royal-ur", "players": TWO,
                            "rounds": [{"winner": winner, "loser": {"unentered": 7}}]},
                           created=f"2026-11-{10 + k}T19:00:00Z"))
    rows.append(royale([{"a": {"yellow": [1]}, "b": {"yellow": [6]}}], "lost"))  # a Panda Royale loss, later
    ann = player_stats("ann", rows)
    assert (ann.games, ann.wins) == (7, 5)
    assert ann.by_game["royal-ur"].win_rate == 5 / 6
    assert ann.by_game["royal-ur"].totals == [175, 175, 0, 175, 175, 175]
    assert (ann.current_streak, ann.longest_streak) == (0, 3)


def test_facts_are_kept_as_json_text_in_the_index_row():
    row = royale([{"a": {"yellow": [4]}, "b": {"yellow": [6]}}])
    assert isinstance(row["facts"], str) and json.loads(row["facts"])["best_round"] == ["b", 0, 6]
    record = parse_record({"game": "royal-ur", "players": TWO})
    assert facts(record, score(record)) == {"games": []}
