"""Each kind of error and warning, and each way a file is not a record at all."""
from __future__ import annotations

import pytest

import scoring
from tests.records_for_tests import levels, record, scored


def pr_game(rounds, names=("A", "B")):
    return record("panda-royale", list(names), rounds=rounds)


def yellow_rounds(n, players="ab"):
    return [{"hands": {p: {"yellow": [1] * (r + 1)} for p in players}} for r in range(n)]


# --- Panda Royale ------------------------------------------------------------------

@pytest.mark.parametrize("colour,face", [("yellow", 9), ("purple", 13), ("blue", 0), ("glitter", 7),
                                          ("green", 21), ("clear", 7), ("red", 9), ("red", 0),
                                          ("red", -9), ("yellow", -1)])
def test_impossible_face_is_an_error(colour, face):
    rounds = yellow_rounds(2)
    rounds[1]["hands"]["b"] = {"yellow": [1], colour: [face]} if colour != "yellow" else {"yellow": [1, face]}
    result = scored(pr_game(rounds))
    assert ("error", f"rounds[1].hands.b.{colour}[{1 if colour == 'yellow' else 0}]") in levels(result)
    assert result.has_errors


def test_pink_face_out_of_range_is_an_error():
    rounds = yellow_rounds(2)
    rounds[1]["hands"]["a"]["pink"] = 13
    assert ("error", "rounds[1].hands.a.pink") in levels(scored(pr_game(rounds)))


def test_eleven_rounds_is_an_error():
    assert ("error", "rounds") in levels(scored(pr_game(yellow_rounds(11))))


def test_a_clean_game_has_no_problems():
    # B always leads on yellow; A is always lowest, so A holds the pink die from round 2 on.
    rounds = [{"hands": {"a": {"yellow": [1] * (r + 1), **({"pink": 1} if r else {})},
                         "b": {"yellow": [6] + [1] * r}}} for r in range(10)]
    result = scored(pr_game(rounds))
    assert result.problems == []
    assert result.detail["pity"] == [["a"]] * 9
    assert result.detail["panda"] == ["b"] * 10


def test_round_one_dice_count_warning():
    rounds = yellow_rounds(1)
    rounds[0]["hands"]["b"] = {"yellow": [4, 2]}
    result = scored(pr_game(rounds))
    assert [(p.level, p.where, p.message) for p in result.problems] == [
        ("warning", "rounds[0].hands.b", "round 1 should be one yellow die; found 2 dice")]
    assert not result.has_errors


@pytest.mark.parametrize("hand,where", [({"purple": [3]}, "rounds[0].hands.b"),
                                        ({"yellow": [7]}, "rounds[0].hands.b.yellow[0]"),
                                        ({"yellow": [3], "pink": 4}, "rounds[0].hands.b.pink")])
def test_round_one_is_one_yellow_d6_without_pink(hand, where):
    rounds = yellow_rounds(1)
    rounds[0]["hands"]["b"] = hand
    assert ("warning", where) in levels(scored(pr_game(rounds)))


def test_later_round_dice_count_warning():
    rounds = yellow_rounds(3)
    rounds[2]["hands"]["a"] = {"yellow": [1], "green": [5]}
    assert ("warning", "rounds[2].hands.a") in levels(scored(pr_game(rounds)))


def test_more_pink_holders_than_pink_dice_warns():
    rounds = yellow_rounds(2)
    for p in "ab":
        rounds[1]["hands"][p]["pink"] = 3
    assert ("warning", "rounds[1]") in levels(scored(pr_game(rounds)))


def test_pink_held_by_someone_pity_did_not_choose_warns():
    rounds = yellow_rounds(2)
    rounds[0]["hands"]["b"] = {"yellow": [2]}  # A is lowest, so A gets the pink die
    rounds[1]["hands"]["b"]["pink"] = 6
    result = scored(pr_game(rounds))
    assert result.detail["pity"][0] == ["a"]
    assert ("warning", "rounds[1].hands.b.pink") in levels(result)


def test_unresolved_yellow_tie_warns_and_leaves_token_open():
    result = scored(pr_game(yellow_rounds(1)))
    assert ("warning", "rounds[0].panda") in levels(result)
    assert result.detail["panda"] == [None]


def test_pity_is_not_guessed_while_the_token_is_unknown():
    # Four tied on yellow and on total, two pink dice: only the token holder decides who gets them.
    tie = {"hands": {p: {"yellow": [3]} for p in "abcd"}}
    result = scored(pr_game([tie, {"hands": {"a": {"yellow": [3, 1], "pink": 2}}}], names="ABCD"))
    assert result.detail["pity"] == [None]
    assert ("warning", "rounds[0].panda") in levels(result)
    assert ("warning", "rounds[1].hands.a.pink") not in levels(result)
    assert scored(pr_game([{**tie, "panda": "c"}], names="ABCD")).detail["pity"] == [["b", "a"]]


def test_recorded_reroll_winner_takes_the_token():
    rounds = yellow_rounds(1)
    rounds[0]["panda"] = "b"
    result = scored(pr_game(rounds))
    assert result.problems == [] and result.detail["panda"] == ["b"]


def test_panda_recorded_for_a_player_without_the_highest_yellow_warns():
    rounds = yellow_rounds(1)
    rounds[0]["hands"]["a"] = {"yellow": [5]}
    rounds[0]["panda"] = "b"
    result = scored(pr_game(rounds))
    assert ("warning", "rounds[0].panda") in levels(result)
    assert result.detail["panda"] == ["a"]  # the highest yellow takes the token, as the rulebook says


def test_round_ten_needs_no_token_and_gives_no_pity():
    result = scored(pr_game(yellow_rounds(10)[:9] + [{"hands": {"a": {"yellow": [1] * 10},
                                                                 "b": {"yellow": [1] * 10}}}],
                            names=("A", "B")))
    assert ("warning", "rounds[9].panda") not in levels(result)
    assert len(result.detail["pity"]) == 9


def test_partial_round_counts_entered_hands_only():
    rounds = yellow_rounds(2)
    del rounds[1]["hands"]["b"]
    result = scored(pr_game(rounds))
    assert result.rounds[1] == {"a": 2}
    assert result.detail["panda"][1] is None and len(result.detail["pity"]) == 1


# --- Royal Game of Ur -------------------------------------------------------------------

def ur_game(loser, **settings):
    return scored(record("royal-ur", ["A", "B"], settings=settings, rounds=[{"winner": "b", "loser": loser}]))


@pytest.mark.parametrize("loser,problem", [
    ({"unentered": 6}, ("error", "rounds[0].loser")),
    ({"home": 7}, ("error", "rounds[0].loser.home")),
    ({"home": 6, "board": [0]}, ("error", "rounds[0].loser.board[0]")),
    ({"home": 5, "board": [5, 5], "squares": [3]}, ("error", "rounds[0].loser.squares")),
    ({"home": 6, "board": [5], "squares": [15]}, ("error", "rounds[0].loser.squares[0]")),
    ({"home": 6, "board": [4], "squares": [8]}, ("warning", "rounds[0].loser.board[0]")),
])
def test_ur_loser_checks(loser, problem):
    assert problem in levels(ur_game(loser))


@pytest.mark.parametrize("board,problem", [
    ([4] * 13, ("error", "settings.board")),
    ([4, 5, 4, 2, 4, 5, 2, 1, 5, 2, 4, 5, 3, 1], ("warning", "settings.board[3]")),
    ([0, 5, 4, 1, 4, 5, 2, 1, 5, 2, 4, 5, 3, 1], ("error", "settings.board[0]")),
])
def test_ur_board_map_checks(board, problem):
    assert problem in levels(ur_game({"unentered": 7}, board=board))


def test_ur_match_total_and_shared_win():
    data = record("royal-ur", ["A", "B"], rounds=[{"winner": "a", "loser": {"unentered": 1, "home": 6}},
                                                  {"winner": "b", "loser": {"start": 2, "home": 4, "board": [5]}}])
    result = scored(data)
    assert result.rounds == [{"a": 25, "b": 0}, {"a": 0, "b": 25}]
    assert result.winners == ["a", "b"] and [s.place for s in result.players] == [1, 1]


# --- Nokosu Dice ---------------------------------------------------------------------------

def nk(declared, tricks, names="ABC", **settings):
    ids = [n.lower() for n in names]
    rnd = {"declared": dict(zip(ids, declared)), "tricks": dict(zip(ids, tricks))}
    return scored(record("nokosu-dice", list(names), settings=settings, rounds=[rnd]))


@pytest.mark.parametrize("declared,tricks,problem", [
    ([7, 2, 3], [7, 2, 3], ("error", "rounds[0].declared.a")),
    ([1, 2, 3], [13, 0, 0], ("error", "rounds[0].tricks.a")),
    ([1, 2, 3], [-1, 10, 3], ("error", "rounds[0].tricks.a")),
    ([0, 0, 0, 3], [0, 0, 0, 14], ("error", "rounds[0].declared")),
    ([1, 2, 3], [1, 2, 3], ("warning", "rounds[0].tricks")),
])
def test_nokosu_checks(declared, tricks, problem):
    names = "ABCD"[:len(declared)]
    assert problem in levels(nk(declared, tricks, names))


def test_nokosu_missing_entry_warns_and_scores_the_rest():
    data = record("nokosu-dice", list("ABC"), rounds=[{"declared": {"a": 4, "b": 5, "c": 3},
                                                      "tricks": {"a": 4, "b": 5}}])
    result = scored(data)
    assert ("warning", "rounds[0].tricks") in levels(result)
    assert result.rounds == [{"a": 4, "b": 5}]


def test_nokosu_tricks_without_declaration_still_score():
    data = record("nokosu-dice", list("ABC"), rounds=[{"declared": {"a": 4, "b": 2},
                                                      "tricks": {"a": 4, "b": 5, "c": 3}}])
    result = scored(data)
    assert result.rounds == [{"a": 14, "b": 5, "c": 3}]  # B missed; C's declaration is unknown
    assert ("warning", "rounds[0].declared") in levels(result)


def test_nokosu_zero_bonus_is_a_setting():
    assert nk([0, 6, 6], [0, 6, 6], zero_bonus=5).rounds == [{"a": 5, "b": 6, "c": 6}]
    assert ("error", "settings.zero_bonus") in levels(nk([0, 6, 6], [0, 6, 6], zero_bonus=-1))


def test_nokosu_more_rounds_than_players_warns():
    rnd = {"declared": {"a": 4, "b": 5, "c": 3}, "tricks": {"a": 4, "b": 5, "c": 3}}
    assert ("warning", "rounds") in levels(scored(record("nokosu-dice", list("ABC"), rounds=[rnd] * 4)))


# --- Pandoria ------------------------------------------------------------------------------

def pa(final_a, **settings):
    return scored(record("pandoria", ["A", "B"], settings=settings, final={"a": final_a, "b": {}}))


@pytest.mark.parametrize("final,settings,problem", [
    ({"wood": -1}, {}, ("error", "final.a.wood")),
    ({"cards": -2}, {}, ("error", "final.a.cards")),
    ({"gold": 11}, {}, ("warning", "final.a.gold")),
    ({"gold": 9}, {"realms": {"a": "Fairies"}}, ("warning", "final.a.gold")),
    ({"wood": 8, "rates": {"wood": ["2:1"]}}, {"mode": "family"}, ("warning", "final.a.rates")),
    ({"captives": 3}, {"realms": {"a": "humans"}}, ("warning", "final.a.captives")),
    ({}, {"realms": {"a": "nymphs", "b": "hanbok"}}, ("warning", "settings.realms")),
])
def test_pandoria_checks(final, settings, problem):
    assert problem in levels(pa(final, **settings))


def test_pandoria_family_mode_has_no_captives():
    result = pa({"cards": 1, "captives": 3}, mode="family")
    assert result.detail["a"]["captives"] == 0 and result.players[0].total == 1
    assert ("warning", "final.a.captives") in levels(result)


def test_pandoria_family_mode_converts_three_for_one_only():
    assert pa({"wood": 8, "rates": {"wood": ["2:1"]}}, mode="family").detail["a"]["wood"] == 2


def test_pandoria_points_from_log_and_leftover_tie_break():
    data = record("pandoria", ["A", "B"], log=[{"player": "a", "points": 10}, {"player": "b", "points": 9},
                                              {"player": "a", "points": 1}],
                  final={"a": {"wood": 2}, "b": {"gold": 3, "wood": 1}})
    result = scored(data)
    assert [s.total for s in result.players] == [11, 10]
    tie = scored(record("pandoria", ["A", "B"], final={"a": {"points": 5, "wood": 2}, "b": {"points": 5, "wood": 1}}))
    assert tie.winners == ["a"] and [s.place for s in tie.players] == [1, 2]
    shared = scored(record("pandoria", ["A", "B"], final={"a": {"points": 5}, "b": {"points": 5}}))
    assert shared.winners == ["a", "b"]


# --- Pass the Pandas ------------------------------------------------------------------------

def ptp(out, names="ABCD", hands=1, **settings):
    return scored(record("pass-the-pandas", list(names), settings=settings, rounds=[{"out": out}] * hands))


@pytest.mark.parametrize("out,problem", [
    ([{"player": "a", "points": 3}, {"player": "a", "points": 2}], ("error", "rounds[0].out[1].player")),
    ([{"player": "a"}], ("error", "rounds[0].out[0].points")),
    ([{"player": "a", "points": 16}], ("error", "rounds[0].out[0].points")),
    ([{"player": "a", "points": -1}], ("error", "rounds[0].out[0].points")),
    ([{"player": "a", "points": 3}, {"player": "b", "points": 5}], ("warning", "rounds[0].out[1].points")),
    ([{"player": "a", "points": 9}, {"player": "b", "points": 5}, {"player": "c", "points": 2},
      {"player": "d", "points": 1}], ("warning", "rounds[0].out[3].points")),
])
def test_pass_the_pandas_checks(out, problem):
    assert problem in levels(ptp(out))


def test_pass_the_pandas_play_after_target_warns():
    result = ptp([{"player": "a", "points": 15}], hands=3, variant="panda-monium", target=30)
    assert ("warning", "rounds[2]") in levels(result) and ("warning", "rounds[1]") not in levels(result)
    assert ("error", "settings.target") in levels(ptp([], target=0))


def test_pass_the_pandas_basic_counts_hands_won():
    result = scored(record("pass-the-pandas", list("ABC"), settings={"variant": "basic"},
                           rounds=[{"out": [{"player": "b"}, {"player": "a"}]}, {"out": [{"player": "b"}]}]))
    assert [s.total for s in result.players] == [0, 2, 0] and result.winners == ["b"]
    assert result.problems == []


# --- not a record at all ----------------------------------------------------------------------

BASE = record("panda-royale", ["A", "B"])


@pytest.mark.parametrize("data,where", [
    ([], ""),
    ({"players": []}, "game"),
    ({**BASE, "game": "chess"}, "game"),
    ({**BASE, "players": [{"id": "a", "name": "A"}]}, "players"),
    ({**BASE, "players": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]}, "players[1].id"),
    ({**BASE, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "   "}]}, "players[1].name"),
    ({**BASE, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "x" * 41}]}, "players[1].name"),
    ({**BASE, "rounds": [{"hands": {"a": {"yellow": ["4"]}}}]}, "rounds[0].hands.a.yellow[0]"),
    ({**BASE, "rounds": [{"hands": {"a": {"yellow": [4.0]}}}]}, "rounds[0].hands.a.yellow[0]"),
    ({**BASE, "rounds": [{"hands": {"a": {"yelow": [4]}}}]}, "rounds[0].hands.a.yelow"),
    ({**BASE, "rounds": [{"hands": {"z": {"yellow": [4]}}}]}, "rounds[0].hands"),
    ({**BASE, "rounds": [{"hands": {}, "panda": "z"}]}, "rounds[0].panda"),
    ({**BASE, "version": 2}, "version"),
    ({**BASE, "version": "1"}, "version"),
    ({**BASE, "format": "other"}, "format"),
    ({**BASE, "finished": ""}, "finished"),
    ({**BASE, "created": "last tuesday"}, "created"),
    (record("royal-ur", ["A", "B"], rounds=[{"winner": "c"}]), "rounds[0].winner"),
    (record("royal-ur", ["A", "B", "C"]), "players"),
    (record("nokosu-dice", ["A", "B", "C"], rounds=[{"declared": {"x": 1}}]), "rounds[0].declared"),
    (record("pandoria", ["A", "B"], final={"q": {}}), "final"),
    (record("pandoria", ["A", "B"], final={"a": {"rates": {"wood": ["4:1"]}}}), "final.a.rates.wood[0]"),
    (record("pass-the-pandas", ["A", "B"], rounds=[{"out": [{"player": "x"}]}]), "rounds[0].out"),
])
def test_not_a_record_names_the_place(data, where):
    with pytest.raises(scoring.RecordError) as err:
        scoring.parse_record(data)
    assert err.value.where == where
    assert err.value.message


def test_newer_version_names_both_versions():
    with pytest.raises(scoring.RecordError) as err:
        scoring.parse_record({**BASE, "version": 7})
    assert "7" in err.value.message and str(scoring.VERSION) in err.value.message


# A crown marker only moves forward (#69): an entry below 1 is no tap of the pad.
@pytest.mark.parametrize("points", [0, -5])
def test_pandoria_crown_step_below_one_is_an_error(points):
    result = scored(record("pandoria", ["A", "B"], log=[{"player": "a", "points": 4},
                                                       {"player": "a", "points": points}]))
    assert [(p.level, p.where, p.message) for p in result.problems] == [
        ("error", "log[1].points", f"A: a crown-track entry moves the marker at least 1, not {points}")]


def test_pandoria_crown_step_of_one_is_no_problem():
    assert scored(record("pandoria", ["A", "B"], log=[{"player": "b", "points": 1}])).problems == []
