"""Every worked example of rules.md, each a test named after it."""
from __future__ import annotations

from scoring import panda_royale as pr
from tests.records_for_tests import record, scored, totals


# --- Panda Royale -------------------------------------------------------------

def test_pr1_purple_doubled():
    assert pr.column_scores(pr.Hand(purple=(8, 1)))["purple"] == 18


def test_pr2_blue_doubled_with_a_glitter_die():
    # 1, 3, 4 with at least one glitter: whichever die is the glitter one, the score is 16.
    for blue, glitter in [((1, 3), (4,)), ((3, 4), (1,)), ((1,), (3, 4)), ((), (1, 3, 4))]:
        assert pr.column_scores(pr.Hand(blue=blue, glitter=glitter))["blue"] == 16


def test_pr3_lone_glitter_die_is_doubled():
    assert pr.column_scores(pr.Hand(glitter=(1,)))["blue"] == 2


def test_pr4_red_sign_times_count():
    assert pr.column_scores(pr.Hand(red=(6, 5, -4, -1)))["red"] == 24


def test_pr5_red_two_dice():
    assert pr.column_scores(pr.Hand(red=(5, -3)))["red"] == 4


def test_pr6_round_ten_row():
    hand = pr.Hand(yellow=(2, 4), purple=(2, 4), glitter=(2,), blue=(3,), red=(5, -3),
                   green=(14,), clear=(4,), pink=12)
    cols = pr.column_scores(hand)
    assert [cols[c] for c in pr.COLOURS] == [6, 12, 10, 4, 14, 4, 12]
    assert pr.hand_total(hand) == 62
    # The same hand as round 10 of a whole game: row `10 · 6 · 12 · 10 · 4 · 14 · 4 · 12 · 62`.
    rounds = [{"hands": {"a": {"yellow": [1] + [1] * r}, "b": {"yellow": [1] + [1] * r}}} for r in range(9)]
    rounds.append({"hands": {"a": hand.model_dump(mode="json"), "b": {"yellow": [1] * 10}}})
    result = scored(record("panda-royale", ["A", "B"], rounds=rounds))
    assert result.rounds[9]["a"] == 62
    assert result.detail["columns"][9]["a"] == {"yellow": 6, "purple": 12, "blue": 10, "red": 4,
                                                "green": 14, "clear": 4, "pink": 12}


def test_pr7_red_negative():
    assert pr.column_scores(pr.Hand(red=(2, -5, -6)))["red"] == -27


def test_pr8_two_glitter_double_once():
    assert pr.column_scores(pr.Hand(glitter=(2, 5), blue=(6,)))["blue"] == 26


def pd1_round(panda=None) -> dict:
    # Totals A 30, B 12, C 40, D 12, E 12, F 25; C rolls the highest yellow and takes the token.
    hands = {"a": {"yellow": [5], "green": [20, 5]}, "b": {"yellow": [2], "green": [10]},
             "c": {"yellow": [8], "green": [20, 12]}, "d": {"yellow": [3], "green": [9]},
             "e": {"yellow": [4], "green": [8]}, "f": {"yellow": [6], "green": [19]}}
    rnd = {"hands": hands}
    if panda:
        rnd["panda"] = panda
    return rnd


def test_pd1_pity_tie_right_of_token_counter_clockwise():
    result = scored(record("panda-royale", list("ABCDEF"), rounds=[pd1_round()]))
    assert totals(result) == {"a": 30, "b": 12, "c": 40, "d": 12, "e": 12, "f": 25}
    assert result.detail["panda"] == ["c"]
    assert result.detail["pity"] == [["b", "e"]]


# --- Royal Game of Ur ------------------------------------------------------------

def ur(loser: dict) -> int:
    result = scored(record("royal-ur", ["A", "B"], rounds=[{"winner": "a", "loser": loser}]))
    assert not result.problems
    return totals(result)["a"]


def test_ur1_all_not_entered():
    assert ur({"unentered": 7}) == 175


def test_ur2_mixed_position():
    assert ur({"unentered": 2, "start": 1, "home": 3, "board": [1], "squares": [8]}) == 61


def test_ur3_two_counters_on_one_square():
    assert ur({"home": 5, "board": [5, 5]}) == 10


def test_ur4_start_board_and_rosette():
    assert ur({"unentered": 1, "start": 2, "home": 1, "board": [5, 1, 1]}) == 52


# --- Nokosu Dice -----------------------------------------------------------------

def nokosu(names, declared, tricks):
    ids = [n.lower() for n in names]
    rnd = {"declared": dict(zip(ids, declared)), "tricks": dict(zip(ids, tricks))}
    return scored(record("nokosu-dice", names, rounds=[rnd]))


def test_nk1_made_declarations_and_zero_bonus():
    result = nokosu("ABCD", [3, 2, 0, 5], [3, 4, 0, 7])
    assert result.rounds == [{"a": 23, "b": 4, "c": 30, "d": 7}]
    assert not result.problems  # 3 + 4 + 0 + 7 = 14 tricks, right for 4 players


def test_nk2_everyone_made_it():
    result = nokosu("ABC", [4, 5, 3], [4, 5, 3])
    assert result.rounds == [{"a": 4, "b": 5, "c": 3}]


def test_nk3_nobody_made_it():
    result = nokosu("ABCD", [1, 1, 1, 1], [3, 5, 2, 4])
    assert result.rounds == [{"a": 3, "b": 5, "c": 2, "d": 4}]


# --- Pandoria ------------------------------------------------------------------------

def pandoria(final: dict, **settings):
    finals = {"a": final, "b": {}}
    return scored(record("pandoria", ["A", "B"], settings=settings, final=finals))


def test_pa1_cards_and_three_for_one():
    result = pandoria({"points": 0, "cards": 3, "wood": 7, "gold": 10, "crystal": 5})
    assert totals(result)["a"] == 9
    assert result.detail["a"] == {"points": 0, "cards": 3, "wood": 2, "gold": 3, "crystal": 1,
                                  "captives": 0, "leftover": 4}


def test_pa2_two_for_one_wood_building():
    d = pandoria({"wood": 7, "rates": {"wood": ["2:1"]}}).detail["a"]
    assert (d["wood"], d["leftover"]) == (3, 1)


def test_pa3_three_for_two_gold_building():
    d = pandoria({"gold": 10, "rates": {"gold": ["3:2"]}}).detail["a"]
    assert (d["gold"], d["leftover"]) == (6, 1)


def test_pa4_best_of_two_gold_buildings():
    d = pandoria({"gold": 10, "rates": {"gold": ["2:1", "3:2"]}}).detail["a"]
    assert (d["gold"], d["leftover"]) == (6, 1)


def test_pa5_equal_points_keep_more_left_over():
    d = pandoria({"wood": 8, "rates": {"wood": ["2:1", "3:2"]}}).detail["a"]
    assert (d["wood"], d["leftover"]) == (4, 2)


def test_pa6_hanbok_captives():
    result = pandoria({"cards": 2, "captives": 4}, realms={"a": "hanbok", "b": "humans"})
    assert totals(result)["a"] == 6
    assert result.detail["a"]["leftover"] == 0


# --- Pass the Pandas ----------------------------------------------------------------

NAMES = ["John", "Susan", "Bill", "Allison"]


def pandas(out):
    return scored(record("pass-the-pandas", NAMES, settings={"variant": "panda-monium", "target": 30},
                         rounds=[{"out": out}]))


def test_pp1_first_out_scores_dice_in_play():
    result = pandas([{"player": "john", "points": 4 + 6 + 3}])
    assert result.rounds == [{"john": 13, "susan": 0, "bill": 0, "allison": 0}]


def test_pp2_second_out_scores_the_same_way():
    result = pandas([{"player": "john", "points": 13}, {"player": "susan", "points": 5 + 2}])
    assert result.rounds[0]["susan"] == 7
    assert not result.problems


def test_pp3_last_holder_scores_zero():
    result = pandas([{"player": "john", "points": 13}, {"player": "susan", "points": 7},
                     {"player": "allison", "points": 4}])
    assert result.rounds == [{"john": 13, "susan": 7, "bill": 0, "allison": 4}]
    assert result.winners == ["john"]
