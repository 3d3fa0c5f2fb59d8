"""The Royal Game of Ur pad without a browser: the edits a tap makes (scoring.royal_ur) and what
the screen shows of them (views.pads.royal_ur.state), on real records."""
from __future__ import annotations

import pytest

from scoring import Player, parse_record, score
from scoring import royal_ur as ur
from views.pads.royal_ur.state import (GAP, OWN_ROW, board_cells, breakdown, counter_check, end_blocked,
                                  game_number,
                                  match_line, match_table, square_label)


def match() -> ur.Record:
    return ur.Record(players=(Player(id="a", name="Ann"), Player(id="b", name="Ben")), id="m1",
                     created="2026-11-22T19:04:00Z")


def enter(record: ur.Record, winner: str, *, unentered=0, start=0, home=0, squares=()) -> ur.Record:
    """Tap by tap, as the pad does: who won, the counters, then Save game n."""
    record = ur.set_winner(record, winner)
    for place, n in (("unentered", unentered), ("start", start), ("home", home)):
        for _ in range(n):
            record = ur.step(record, place, 1)
    for square in squares:
        record = ur.add_counter(record, square)
    return ur.keep_entry(record)


# The worked examples of rules.md §2, entered on the pad (squares by the default map:
# square 9 has 5 dots, square 4 is a Rosette).
def test_ur1_entered_on_the_pad_all_seven_not_entered_scores_175():
    assert score(enter(match(), "a", unentered=7)).players[0].total == 175


def test_ur2_entered_on_the_pad_scores_61():
    r = enter(match(), "a", unentered=2, start=1, home=3, squares=[4])
    assert score(r).players[0].total == 61


def test_ur3_entered_on_the_pad_two_counters_on_one_five_dot_square_score_10():
    r = enter(match(), "b", home=5, squares=[9, 9])
    assert r.rounds[0].loser.board == (5, 5)
    assert score(r).players[1].total == 10


def test_ur4_entered_on_the_pad_scores_52():
    r = enter(match(), "a", unentered=1, start=2, home=1, squares=[9, 8, 8])
    assert score(r).players[0].total == 52


def test_the_entry_is_saved_with_the_record_and_not_scored():
    r = ur.add_counter(ur.set_winner(match(), "a"), 9)
    again = parse_record(r.to_json())            # what the store keeps and a restart reads
    assert again.entry == ur.Entry(winner="a", squares=(9,))
    assert [s.total for s in score(again).players] == [0, 0]
    assert ur.entry_points(again) == 5


def test_seven_counters_at_most_and_saving_needs_exactly_seven():
    r = ur.step(ur.set_winner(match(), "a"), "unentered", 1)
    for _ in range(5):
        r = ur.add_counter(r, 5)
    assert ur.entry_problem(r) == "1 of the loser's 7 counters still to place"
    with pytest.raises(ValueError, match="still to place"):
        ur.keep_entry(r)
    r = ur.step(r, "start", 1)
    with pytest.raises(ValueError, match="all 7 of the loser's counters are placed"):
        ur.add_counter(r, 5)
    with pytest.raises(ValueError, match="all 7"):
        ur.step(r, "home", 1)
    assert ur.entry_problem(r) is None


def test_a_winner_is_needed_and_all_seven_home_is_refused():
    r = match()
    for _ in range(6):
        r = ur.step(r, "home", 1)
    r = ur.add_counter(r, 2)
    assert ur.entry_problem(r) == "tap who won first"
    with pytest.raises(ValueError, match="all 7 counters home"):
        ur.step(ur.remove_counter(r, 2), "home", 1)


def test_the_rest_are_home_fills_the_count():
    r = ur.add_counter(ur.step(ur.set_winner(match(), "b"), "start", 2), 13)
    r = ur.rest_home(r)
    assert ur.entry_of(r).home == 4
    assert counter_check(ur.entry_of(r)) == ("All 7 counters placed", True)


def test_fewer_below_zero_and_taking_an_absent_counter_are_refused():
    with pytest.raises(ValueError, match="no counter is on S"):
        ur.step(match(), "start", -1)
    with pytest.raises(ValueError, match="no loser counter is on square 3"):
        ur.remove_counter(match(), 3)


def test_editing_the_dot_map_changes_new_games_and_not_old_ones():
    r = enter(match(), "a", home=6, squares=[9])
    board = list(ur.DEFAULT_BOARD)
    board[8] = 2                                   # square 9 shows 2 dots on this board
    r = ur.set_board(r, board)
    r = enter(r, "b", home=6, squares=[9])
    assert [g.loser.board for g in r.rounds] == [(5,), (2,)]
    assert [s.total for s in score(r).players] == [5, 2]


def test_a_rosette_always_scores_one_whatever_the_map_says():
    with pytest.raises(ValueError, match="Rosette"):
        ur.set_board(match(), [2] * 14)
    board = [3] * 14
    for q in ur.ROSETTES:
        board[q - 1] = 1
    r = ur.set_board(match(), board)
    assert ur.square_value(r, 8) == 1 and ur.square_value(r, 9) == 3


def test_correcting_an_earlier_game_replaces_it_in_place():
    r = enter(enter(match(), "a", unentered=7), "b", home=6, squares=[1])
    r = ur.edit_game(r, 0)
    assert game_number(r) == 1
    assert [s.total for s in score(r).players] == [175, 4]   # still scored while being corrected
    r = ur.keep_entry(ur.step(ur.step(r, "unentered", -1), "home", 1))
    assert [s.total for s in score(r).players] == [150, 4]
    assert len(r.rounds) == 2 and r.entry is None


def test_the_drawn_board_has_each_route_square_once_and_s_and_h_beside_the_route_ends():
    cells = board_cells()
    assert len(cells) == 24
    loser = sorted(c.pos for c in cells if c.kind == "square")
    assert loser == list(range(1, 15))
    start = next(c for c in cells if c.kind == "start")
    home = next(c for c in cells if c.kind == "home")
    assert start.row == home.row == 2
    assert abs(start.col - OWN_ROW[1]) == 1 and abs(home.col - OWN_ROW[14]) == 1
    assert (start.col, home.col) == (GAP["start"], GAP["home"])
    assert {c.pos for c in cells if c.rosette and c.kind == "square"} == set(ur.ROSETTES)
    assert {c.pos for c in cells if c.double and c.kind == "square"} == set(ur.DOUBLES)


def test_a_square_is_named_by_position_dots_and_counters():
    r = ur.add_counter(ur.add_counter(match(), 9), 9)
    entry = ur.entry_of(r)
    assert square_label(r, 9, entry) == "Square 9, 5 dots, 2 loser counters"
    assert square_label(r, 8, entry) == "Square 8, Rosette, 1 dot, no loser counters"
    assert square_label(r, 7, entry) == "Square 7, Doubles, 2 dots, no loser counters"


def test_the_breakdown_writes_the_points_out():
    r = ur.add_counter(ur.add_counter(ur.step(ur.step(ur.step(match(), "unentered", 1), "start", 1),
                                              "start", 1), 9), 8)
    assert breakdown(r) == "25 × 1 not entered + 10 × 2 on S + 1 + 5 = 51"  # squares in route order
    assert breakdown(match()) == "0"


def test_the_match_table_runs_totals_and_counts_game_wins():
    r = enter(enter(enter(match(), "a", unentered=1, home=6), "b", start=1, home=6), "a", home=6, squares=[5])
    rows = match_table(r, score(r))
    assert [row.winner for row in rows] == ["Ann", "Ben", "Ann"]
    assert [row.running for row in rows] == [{"a": 25, "b": 0}, {"a": 25, "b": 10}, {"a": 29, "b": 10}]
    assert match_line(r, score(r)) == "Games won: Ann 2, Ben 1"


def test_ending_the_match_says_why_it_cannot_while_a_game_is_half_entered():
    r = match()
    assert end_blocked(r, score(r)) == "Save the first game first."
    r = enter(r, "a", unentered=7)
    assert end_blocked(r, score(r)) == ""
    half = ur.step(ur.set_winner(r, "b"), "home", 2)                # game 2 half entered
    assert end_blocked(half, score(half)) == "Save or cancel the game being entered first."


def test_a_picked_count_is_one_step_of_its_size():
    """The number sheet sets Ur's counters with one edit of the difference (7 not entered at once)."""
    r = ur.step(ur.set_winner(match(), "a"), "unentered", 7)
    assert ur.entry_of(r).unentered == 7 and ur.entry_points(r) == 175
    with pytest.raises(ValueError, match="all 7 of the loser's counters are placed"):
        ur.step(r, "start", 1)
