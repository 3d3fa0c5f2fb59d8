"""The Nokosu Dice pad without a browser: the edits a tap makes (scoring.nokosu_dice) and what
the screen shows of them (views.pads.nokosu_dice.state), on real records."""
from __future__ import annotations

import itertools

import pytest

from scoring import Player, parse_record, score
from scoring import nokosu_dice as nk
from views.pads.nokosu_dice.state import (DECLARE, DONE, TRICKS, Cursor, changed_cell, explain, fitting_tricks,
                                     header, is_over, key_rows, missed_line, next_cursor, resume_cursor,
                                     rounds_table, setup_lines, still_to_enter, tally, zero_note)

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


def game(n: int = 4, **settings) -> nk.Record:
    return nk.Record(players=tuple(Player(id=name[0].lower(), name=name) for name in NAMES[:n]), id="g1",
                     created="2026-11-22T19:04:00Z", settings=nk.Settings(**settings))


def tap_round(record: nk.Record, declared, tricks, close: bool = True) -> nk.Record:
    """As the pad does: each declaration, then each player's tricks, then Close the round."""
    for pid, d in zip(record.player_ids(), declared):
        record = nk.declare(record, pid, d)
    for pid, t in zip(record.player_ids(), tricks):
        record = nk.set_tricks(record, pid, t)
    return nk.close_round(record) if close else record


def words(record: nk.Record, index: int = -1) -> list[str]:
    return [line.words for line in explain(record, record.rounds[index])]


# --- rules.md §3 worked examples entered on the pad, with the bonus in words

def test_nk1_on_the_pad_the_bonus_explained_matches_the_score():
    r = tap_round(game(), [3, 2, 0, 5], [3, 4, 0, 7])
    assert score(r).rounds == [{"a": 23, "b": 4, "c": 30, "d": 7}]
    assert words(r) == ["made 3: 3 + 10 × 2 missed = 23", "missed 2, won 4: 4",
                        "made zero: 0 + 10 × 2 missed + 10 zero bonus = 30", "missed 5, won 7: 7"]
    assert missed_line(r, r.rounds[0]) == "Missed: Ben and Dan. Each who made it adds 10 × 2"


def test_nk2_on_the_pad_everyone_made_it_no_bonus():
    r = tap_round(game(3), [4, 5, 3], [4, 5, 3])
    assert score(r).rounds == [{"a": 4, "b": 5, "c": 3}]
    assert words(r)[0] == "made 4: 4, no bonus (nobody missed)"
    assert missed_line(r, r.rounds[0]) == "Everyone made their declaration: no bonus this round"


def test_nk3_on_the_pad_nobody_made_it():
    r = tap_round(game(), [1, 1, 1, 1], [3, 5, 2, 4])
    assert score(r).rounds == [{"a": 3, "b": 5, "c": 2, "d": 4}]
    assert words(r)[1] == "missed 1, won 5: 5"


def test_the_zero_bonus_setting_is_in_the_words_and_the_points():
    r = tap_round(game(3, zero_bonus=5), [0, 6, 6], [0, 6, 6])
    assert words(r)[0] == "made zero: 0 + 5 zero bonus = 5"
    r = tap_round(game(3, zero_bonus=0), [0, 6, 2], [0, 6, 6])
    assert words(r)[0] == "made zero: 0 + 10 × 1 missed = 10"


def test_the_words_end_on_the_points_the_scoring_module_gives():
    # Every 3-player round with tricks 0–4: the number after "=" is what score() counts.
    r0 = game(3)
    for declared in itertools.product((0, 1, 3), repeat=3):
        if declared.count(0) > 2:
            continue
        for tricks in itertools.product(range(0, 5, 2), repeat=3):
            rnd = nk.Round(declared=dict(zip("abc", declared)), tricks=dict(zip("abc", tricks)))
            points = nk.round_scores(r0, rnd)
            for line in explain(r0, rnd):
                assert line.points == points[line.pid]
                assert line.made == (declared["abc".index(line.pid)] == line.tricks)
                if "=" in line.words:
                    assert line.words.endswith(f"= {points[line.pid]}")
                else:
                    assert line.words.endswith(f": {points[line.pid]}") or "no bonus" in line.words


# --- live checks

def test_a_third_zero_declaration_is_refused_and_said_why():
    r = nk.declare(nk.declare(game(), "a", 0), "c", 0)
    assert zero_note(r, "b") == "No third zero: both zero-trick dice are taken (Ann and Cat)"
    with pytest.raises(ValueError, match=r"both zero-trick dice are taken \(Ann and Cat declared zero\)"):
        nk.declare(r, "b", 0)
    assert zero_note(r, "a") is None              # Ann holds one of them: she may keep it
    assert nk.declare(r, "a", 0) == r
    r = nk.declare(r, "a", 4)                     # Ann gives hers back: Ben may take it
    assert nk.entry_of(nk.declare(r, "b", 0)).declared == {"a": 4, "c": 0, "b": 0}


@pytest.mark.parametrize("value", [-1, 7])
def test_a_declaration_outside_0_to_6_cannot_be_entered(value):
    with pytest.raises(ValueError, match="zero or a die's face 1–6"):
        nk.declare(game(), "a", value)


def test_tricks_stop_at_the_round_total():
    assert nk.entry_of(nk.set_tricks(game(), "a", 14)).tricks == {"a": 14}
    with pytest.raises(ValueError, match="0–14 tricks"):
        nk.set_tricks(game(), "a", 15)
    with pytest.raises(ValueError, match="0–11 tricks"):
        nk.set_tricks(game(5), "a", 12)


def test_the_trick_tally_says_how_far_off_it_is():
    r = tap_round(game(), [3, 2, 0, 5], [3, 4, 0], close=False)
    assert tally(r) == ("Tricks: 7 of 14 entered, 7 to go", False)
    assert fitting_tricks(r, "d") == 7 and fitting_tricks(r, "a") is None
    assert tally(nk.set_tricks(r, "d", 7)) == ("All 14 tricks are in", False)
    assert tally(nk.set_tricks(r, "d", 9)) == ("The tricks add up to 16, not 14: 2 tricks too many", True)
    assert tally(nk.set_tricks(r, "d", 6)) == ("The tricks add up to 13, not 14: 1 trick short", True)
    over = nk.set_tricks(game(), "a", 14)
    assert tally(nk.set_tricks(over, "b", 3)) == ("The tricks add up to 17, not 14: 3 tricks too many", True)


def test_a_round_closes_only_with_every_entry_and_may_close_with_a_trick_warning():
    r = game()
    assert nk.entry_problem(r) == "everyone's declaration and everyone's tricks still to tap"
    r = tap_round(r, [3, 2, 0, 5], [3, 4], close=False)
    assert nk.entry_problem(r) == "Cat and Dan's tricks still to tap"
    with pytest.raises(ValueError, match="still to tap"):
        nk.close_round(r)
    r = nk.close_round(tap_round(r, [3, 2, 0, 5], [3, 4, 0, 5], close=False))  # 12 of 14 tricks
    assert ("warning", "rounds[0].tricks") in [(p.level, p.where) for p in score(r).problems]


# --- the entry in the record

def test_the_entry_is_saved_with_the_record_and_not_scored():
    r = nk.set_tricks(nk.declare(game(), "b", 2), "b", 4)
    again = parse_record(r.to_json())            # what the store keeps and a restart reads
    assert again.entry == nk.Entry(declared={"b": 2}, tricks={"b": 4})
    assert [s.total for s in score(again).players] == [0, 0, 0, 0] and score(again).rounds == []
    assert still_to_enter(again) == ["a", "c", "d"]


def test_an_old_record_without_the_new_fields_scores_as_before():
    data = {"format": "pandapad/game", "version": 1, "game": "nokosu-dice", "settings": {"zero_bonus": 10},
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}],
            "rounds": [{"declared": {"a": 4, "b": 5, "c": 3}, "tricks": {"a": 4, "b": 5, "c": 3}}]}
    assert score(parse_record(data)).rounds == [{"a": 4, "b": 5, "c": 3}]


def test_closing_writes_the_round_in_seat_order_and_clears_the_entry():
    r = game()
    for pid, d in (("d", 5), ("b", 2), ("a", 3), ("c", 0)):
        r = nk.declare(r, pid, d)
    r = tap_round(r, [3, 2, 0, 5], [3, 4, 0, 7])
    assert list(r.rounds[0].declared) == ["a", "b", "c", "d"] and r.entry is None
    assert header(r).title == "Round 2 of 4"


def test_an_earlier_round_is_corrected_and_stays_scored_meanwhile():
    r = tap_round(game(), [3, 2, 0, 5], [3, 5, 0, 6])
    r = tap_round(r, [4, 1, 3, 2], [4, 2, 3, 5])
    r = nk.edit_round(r, 0)
    assert header(r).title == "Correcting round 1"
    assert score(r).rounds[0] == {"a": 23, "b": 5, "c": 30, "d": 6}   # until saved again
    r = nk.set_tricks(nk.set_tricks(r, "b", 4), "d", 7)
    r = nk.close_round(r)
    assert len(r.rounds) == 2 and r.entry is None
    assert score(r).rounds[0] == {"a": 23, "b": 4, "c": 30, "d": 7}
    # Cancelling a correction keeps the round as it was.
    assert nk.clear_entry(nk.edit_round(r, 1)).rounds == r.rounds


def test_no_correction_while_the_next_round_is_being_entered():
    r = nk.declare(tap_round(game(), [3, 2, 0, 5], [3, 4, 0, 7]), "a", 2)
    with pytest.raises(ValueError, match="round 2 is being entered: close or clear it first"):
        nk.edit_round(r, 0)


def test_the_game_has_as_many_rounds_as_players_then_it_is_over():
    r = game(3)
    for _ in range(3):
        assert not is_over(r)
        r = tap_round(r, [4, 5, 3], [4, 5, 3])
    assert is_over(r) and nk.entry_problem(r) == "all 3 rounds are played"
    assert [row.running for row in rounds_table(r, score(r))][-1] == {"a": 12, "b": 15, "c": 9}


# --- who deals, who leads

def test_the_deal_passes_left_and_the_dealers_left_leads():
    r = game()
    assert [(nk.dealer(r, i), nk.leader(r, i)) for i in range(4)] == [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]
    assert header(r).deals == "Ann deals · Ben leads"
    r = nk.set_dealer(r, 2, "a")                  # Ann deals round 3: Cat dealt the first
    assert r.settings.first_dealer == "c"
    assert [nk.dealer(r, i) for i in range(4)] == ["c", "d", "a", "b"]
    assert header(r).deals == "Cat deals · Dan leads"
    assert score(r).rounds == []                   # never scored
    assert parse_record(r.to_json()).settings.first_dealer == "c"


# --- the keypad's cursor

def test_the_keypad_goes_round_the_table_declarations_then_tricks():
    r = game(3)
    c = resume_cursor(r)
    assert c == Cursor(DECLARE, "a")
    seen = []
    for value in (3, 2, 6):
        r = nk.declare(r, c.pid, value)
        c = next_cursor(r, c)
        seen.append(c)
    assert seen == [Cursor(DECLARE, "b"), Cursor(DECLARE, "c"), Cursor(TRICKS, "a")]
    r = nk.set_tricks(r, "a", 3)
    assert next_cursor(r, Cursor(TRICKS, "a")) == Cursor(TRICKS, "b")
    r = nk.set_tricks(nk.set_tricks(r, "b", 2), "c", 7)
    assert next_cursor(r, Cursor(TRICKS, "c")) == Cursor(DONE, "c")
    # A later fix skips to whoever still misses something.
    r2 = nk.declare(nk.set_tricks(game(3), "b", 1), "a", 1)
    assert resume_cursor(r2) == Cursor(DECLARE, "b")
    assert changed_cell(r2, nk.set_tricks(r2, "c", 4)) == Cursor(TRICKS, "c")


# --- the new-game screen's set-up aid

@pytest.mark.parametrize("n,cards,drawn,middle,dice,tricks", [
    (3, "9", "1", "10 + the 2 zero-trick dice", "4", "12"),
    (4, "10", "2", "13 + the 2 zero-trick dice", "5", "14"),
    (5, "8", "1", "16 + the 2 zero-trick dice", "4", "11"),
])
def test_the_set_up_aid_follows_the_rules_table(n, cards, drawn, middle, dice, tricks):
    assert setup_lines(n) == [("Cards each", cards), ("Dice each player draws and rolls", drawn),
                              ("Dice in the middle", middle), ("Dice each after the draft", dice),
                              ("Tricks per round", tricks), ("Rounds", str(n))]
    # The numbers agree with each other: all cards and all dice but one make the tricks, and
    # the draft leaves one die of the middle (the trump).
    assert nk.CARDS[n] + nk.DICE[n] - 1 == nk.TRICKS[n]
    assert n * (nk.DICE[n] - nk.DRAWN[n]) == nk.MIDDLE[n] - 1
    assert setup_lines(2) == []


def test_keypad_rows_are_even_and_never_wider_than_seven():
    assert key_rows(7) == [7]
    assert key_rows(15) == [5, 5, 5]   # 0–14 tricks, 4 players
    assert key_rows(13) == [7, 6]      # 0–12, 3 players
    assert key_rows(12) == [6, 6]      # 0–11, 5 players
