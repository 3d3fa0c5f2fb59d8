"""The score pad's logic without a browser: cursor, chips, slots, pink dice, the round's close."""
from __future__ import annotations

import pytest

from scoring import Player, score
from scoring import panda_royale as pr
from views.pads.panda_royale.state import (Cursor, after_summary, changed_hand, colour_after_tap, dice_count,
                             dice_of, face_label, faces, first_colour, hand_full, hand_problems,
                             holds_pink, leaders, new_die_pending, next_cursor, ranking,
                             repeat_slots, resume_cursor, round_summary, sheet_row)


def game(n: int = 3) -> pr.Record:
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"][:n]
    return pr.Record(players=tuple(Player(id=f"p{k + 1}", name=name) for k, name in enumerate(names)),
                     id="g1", created="2026-11-22T19:04:00Z")


def hand(record: pr.Record, index: int, pid: str, **dice) -> pr.Record:
    return pr.with_hand(record, index, pid, pr.Hand(**{k: tuple(v) if isinstance(v, list) else v
                                                        for k, v in dice.items()}))


def round1(record: pr.Record, yellows=(4, 6, 2)) -> pr.Record:
    for pid, y in zip(record.player_ids(), yellows):
        record = hand(record, 0, pid, yellow=[y])
    return record


# --- names ---------------------------------------------------------------------

def test_face_labels_use_colour_and_signed_face():
    assert face_label("yellow", 4) == "Yellow 4"
    assert face_label("glitter", 2) == "Glitter 2"
    assert face_label("red", 3) == "Red 3"
    assert face_label("red", -3) == "Red \u22123"


@pytest.mark.parametrize("colour,top", [("yellow", 8), ("purple", 12), ("blue", 12), ("glitter", 6),
                                        ("red", 8), ("green", 20), ("clear", 6), ("pink", 12)])
def test_every_pad_has_one_button_per_face(colour, top):
    assert faces(colour) == list(range(1, top + 1))


def test_black_red_pad_has_negative_faces():
    assert faces("red", black=True) == [-f for f in range(1, 9)]


# --- chips and counts ----------------------------------------------------------

def test_chips_in_pad_order_with_pink_last():
    h = pr.Hand(red=(5, -2), yellow=(3,), glitter=(2,), blue=(6,), pink=7)
    assert [(d.colour, d.face) for d in dice_of(h)] == [
        ("yellow", 3), ("blue", 6), ("glitter", 2), ("red", 5), ("red", -2), ("pink", 7)]
    assert [d.label for d in dice_of(h)][3:5] == ["Red 5", "Red \u22122"]


def test_dice_count_against_round():
    r = hand(round1(game()), 1, "p1", yellow=[3])
    c = dice_count(r, 1, "p1")
    assert (c.have, c.expected, c.ok) == (1, 2, False)
    assert c.text == "1 of 2 dice"
    r = hand(r, 1, "p1", yellow=[3], purple=[8])
    assert dice_count(r, 1, "p1").ok


# --- fast repeat -----------------------------------------------------------------

def test_round_one_offers_the_starter_yellow():
    assert repeat_slots(game(), 0, "p1") == ["yellow"]
    assert first_colour(game(), 0, "p1") == "yellow"


def test_slots_are_last_rounds_colours_not_yet_entered():
    r = round1(game())
    r = hand(r, 1, "p1", yellow=[3], purple=[8])
    assert repeat_slots(r, 2, "p1") == ["yellow", "purple"]
    r = hand(r, 2, "p1", purple=[2])
    assert repeat_slots(r, 2, "p1") == ["yellow"]
    assert new_die_pending(r, 2, "p1")
    r = hand(r, 2, "p1", purple=[2], yellow=[1])
    assert repeat_slots(r, 2, "p1") == []
    assert new_die_pending(r, 2, "p1")
    r = hand(r, 2, "p1", purple=[2], yellow=[1], green=[17])
    assert not new_die_pending(r, 2, "p1")


def test_pad_stays_on_a_colour_with_slots_then_jumps_to_the_next_slot():
    r = round1(game())
    r = hand(r, 1, "p1", yellow=[3, 5], purple=[8])
    r3 = hand(r, 2, "p1", yellow=[1])
    assert colour_after_tap(r3, 2, "p1", "yellow") == "yellow"  # one yellow slot left
    r3 = hand(r, 2, "p1", yellow=[1, 2])
    assert colour_after_tap(r3, 2, "p1", "yellow") == "purple"
    r3 = hand(r, 2, "p1", yellow=[1, 2], purple=[4])
    assert colour_after_tap(r3, 2, "p1", "purple") == "purple"  # the new die's colour is the player's


# --- pink dice ---------------------------------------------------------------------

def test_pity_recipient_is_premarked_and_can_be_toggled():
    r = round1(game(), yellows=(4, 6, 2))  # Cat lowest: gets the single pink die
    assert holds_pink(r, 1, "p3") and not holds_pink(r, 1, "p1")
    assert not holds_pink(r, 1, "p3", {(1, "p3"): False})
    assert holds_pink(r, 1, "p1", {(1, "p1"): True})
    assert dice_count(r, 1, "p3").text == "0 of 2 dice + pink to enter"


def test_a_rolled_pink_die_is_held_whatever_the_toggle():
    r = hand(round1(game()), 1, "p1", yellow=[3], pink=5)
    assert holds_pink(r, 1, "p1", {(1, "p1"): False})


def test_hand_full_needs_the_pink_die_when_held():
    r = round1(game())
    r = hand(r, 1, "p3", yellow=[2], clear=[4])
    assert not hand_full(r, 1, "p3")
    r = hand(r, 1, "p3", yellow=[2], clear=[4], pink=9)
    assert hand_full(r, 1, "p3")


# --- where the table is -----------------------------------------------------------

def test_new_game_starts_at_first_seat():
    assert resume_cursor(game()) == Cursor(0, "p1")


def test_resume_finds_the_hand_being_entered():
    r = hand(game(), 0, "p1", yellow=[4])
    assert resume_cursor(r) == Cursor(0, "p2")
    r = hand(round1(game()), 1, "p1", yellow=[4])  # round 2, one die of two
    assert resume_cursor(r) == Cursor(1, "p1")


def test_resume_shows_the_summary_of_a_round_whose_hands_are_all_in():
    assert resume_cursor(round1(game())) == Cursor(0, None)


def test_next_walks_the_seats_then_closes_the_round():
    r = round1(game())
    assert next_cursor(r, Cursor(0, "p1")) == Cursor(0, "p2")
    assert next_cursor(r, Cursor(0, "p3")) == Cursor(0, None)
    assert next_cursor(r, Cursor(0, None)) == Cursor(1, "p1")


def test_next_after_last_seat_goes_back_to_a_missing_hand():
    r = hand(hand(game(), 0, "p1", yellow=[4]), 0, "p3", yellow=[1])
    assert next_cursor(r, Cursor(0, "p3")) == Cursor(0, "p2")


def test_leaving_a_corrected_round_returns_to_the_table():
    r = hand(round1(game()), 1, "p1", yellow=[3], purple=[5])
    assert after_summary(r, 0) == Cursor(1, "p2")


def test_round_ten_summary_is_the_end():
    r = game()
    assert after_summary(r, 9) == Cursor(9, None)


# --- closing a round ---------------------------------------------------------------

def test_round_summary_panda_pity_and_ranking():
    r = round1(game(), yellows=(4, 6, 2))
    s = round_summary(r, score(r), 0)
    assert s.complete and not s.final
    assert s.panda == "p2" and s.panda_choice == [] and s.yellow_tie == []
    assert s.pity == ["p3"]
    assert [(p.place, p.name, p.total) for p in s.ranking] == [(1, "Ben", 6), (2, "Ann", 4), (3, "Cat", 2)]


def test_yellow_tie_asks_for_the_reroll_winner():
    r = round1(game(), yellows=(5, 5, 2))
    s = round_summary(r, score(r), 0)
    assert s.panda is None and s.panda_choice == ["p1", "p2"]
    r = pr.set_panda(r, 0, "p2")
    s = round_summary(r, score(r), 0)
    assert s.panda == "p2" and s.panda_choice == [] and s.yellow_tie == ["p1", "p2"]


def test_pity_order_on_a_tie_starts_right_of_the_token_holder():
    # PD-1 of rules.md: 6 players, 2 pink dice, token on C; B, D, E tie at 12: B and E get them.
    r = game(6)
    totals = {"p1": 30, "p2": 12, "p3": 40, "p4": 12, "p5": 12, "p6": 25}
    yellows = {"p1": 1, "p2": 1, "p3": 8, "p4": 1, "p5": 1, "p6": 1}
    for pid, total in totals.items():
        r = hand(r, 0, pid, yellow=[yellows[pid]], green=[total - yellows[pid]])
    s = round_summary(r, score(r), 0)
    assert s.panda == "p3"
    assert sorted(s.pity) == ["p2", "p5"]


def test_final_round_shows_standings_and_shared_winners():
    r = game(2)
    for i in range(10):
        r = hand(r, i, "p1", yellow=[3])
        r = hand(r, i, "p2", yellow=[3])
    s = round_summary(r, score(r), 9)
    assert s.final and s.panda is None and s.pity == []
    assert s.winners == ["p1", "p2"]
    assert [p.place for p in s.standings] == [1, 1]


def test_ranking_shares_places():
    r = game(3)
    assert [(p.pid, p.place) for p in ranking(r, {"p1": 5, "p2": 9, "p3": 5})] == [
        ("p2", 1), ("p1", 2), ("p3", 2)]


# --- reading a score ------------------------------------------------------------------

def test_sheet_row_and_leaders_and_hand_problems():
    r = round1(game(), yellows=(4, 7, 2))  # Ben's 7 cannot be the starter d6
    result = score(r)
    assert sheet_row(result, 0, "p2") == {"yellow": 7, "purple": 0, "blue": 0, "red": 0, "green": 0,
                                          "clear": 0, "pink": 0, "total": 7}
    assert sheet_row(result, 1, "p2") is None
    assert leaders(result) == ["Ben"]
    assert any("d6" in m for m in hand_problems(result, 0, "p2"))
    assert hand_problems(result, 0, "p1") == []


def test_changed_hand_finds_what_undo_touched():
    a = round1(game())
    b = hand(a, 0, "p2", yellow=[6, 1])
    assert changed_hand(a, b) == (0, "p2")
    assert changed_hand(b, a) == (0, "p2")
    assert changed_hand(a, a) is None
    c = pr.set_panda(a, 0, "p1")
    assert changed_hand(a, c) == (0, None)


def test_dice_count_warning_is_left_to_the_count_while_the_hand_is_entered():
    from views.pads.panda_royale.state import problems_to_flag
    r = hand(round1(game()), 1, "p1", yellow=[3])  # 1 of 2 dice so far
    result = score(r)
    assert any("should be 2 dice" in m for m in hand_problems(result, 1, "p1"))
    assert hand_problems(result, 1, "p1", with_count=False) == []
    assert problems_to_flag(result, Cursor(1, "p1")) == []
    assert len(problems_to_flag(result, Cursor(1, "p2"))) == 1
