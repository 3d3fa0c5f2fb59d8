"""The Pass the Pandas pad without a browser: the edits a tap makes (scoring.pass_the_pandas) and
what the screen shows of them (views.pads.pass_the_pandas.state), on real records."""
from __future__ import annotations

import pytest

from scoring import Player, parse_record, score
from scoring import pass_the_pandas as ptp
from views.pads.pass_the_pandas import state

NAMES = ("John", "Susan", "Bill", "Allison")


def match(variant="panda-monium", target=30, names=NAMES) -> ptp.Record:
    players = tuple(Player(id=n[0].lower(), name=n) for n in names)
    return ptp.Record(players=players, id="m1", created="2026-11-22T19:04:00Z",
                      settings=ptp.Settings(variant=variant, target=target))


def out(record: ptp.Record, pid: str, **held: int) -> ptp.Record:
    """Tap by tap, as the pad does: '<name> went out', then More / Fewer dice for each player."""
    record = ptp.go_out(record, pid)
    index = ptp.hand_on(record)
    for holder, want in held.items():
        while (now := record.rounds[index].out[-1].held[holder]) != want:
            record = ptp.step_held(record, index, pid, holder, 1 if want > now else -1)
    return record


def totals(record) -> dict[str, int]:
    return {s.id: s.total for s in score(record).players}


# The worked examples of rules.md §5, entered on the pad.
def test_pp1_to_pp3_entered_by_taps():
    r = out(match(), "j", s=4, b=6, a=3)
    assert r.rounds[0].out[0].points == 13                                  # PP-1
    r = out(r, "s", b=5, a=2)
    assert r.rounds[0].out[1].points == 7                                   # PP-2
    r = out(r, "a", b=4)
    assert totals(r) == {"j": 13, "s": 7, "b": 0, "a": 4}                   # PP-3
    assert score(r).problems == []
    assert state.prompt(r) == "Hand over: Bill still held dice and scores 0"


def test_the_counters_start_from_what_is_plausible():
    r = ptp.go_out(match(), "j")
    # First out: one die fewer than the five each started with (some went to Water).
    assert r.rounds[0].out[0].held == {"s": 4, "b": 4, "a": 4}
    assert r.rounds[0].out[0].points == 12
    r = out(match(), "j", s=4, b=6, a=3)
    r = ptp.go_out(r, "s")
    # Later: what each player still in held when the one before went out.
    assert r.rounds[0].out[1].held == {"b": 6, "a": 3} and r.rounds[0].out[1].points == 9
    two = ptp.go_out(match(names=("Ann", "Ben")), "a")
    assert two.rounds[0].out[0].held == {"b": 5}


def test_more_dice_than_can_be_in_play_is_refused_with_the_reason():
    r = out(match(), "j", s=5, b=5, a=5)
    assert r.rounds[0].out[0].points == 15 == ptp.max_points(4)
    with pytest.raises(ValueError, match=r"at most 15 dice can be in play when John goes out "
                                         r"\(4 players × 5 dice, less John's own 5\)"):
        ptp.step_held(r, 0, "j", "b", 1)
    # Taking one off somewhere makes room for it elsewhere (dice passed, not added).
    r = ptp.step_held(ptp.step_held(r, 0, "j", "s", -1), 0, "j", "b", 1)
    assert r.rounds[0].out[0].held == {"s": 4, "b": 6, "a": 5}
    assert state.limit_line(r, state.finishers(r, 0)[0]) == "All 15 dice that can be in play are counted"


def test_a_player_still_in_holds_at_least_one_die():
    r = out(match(), "j", s=1)
    with pytest.raises(ValueError, match="Susan still held dice, so at least 1"):
        ptp.step_held(r, 0, "j", "s", -1)


def test_a_later_finisher_scoring_more_is_warned_in_that_hand():
    r = out(match(), "j", s=2, b=2, a=1)
    r = out(r, "s", b=4, a=3)
    problems = state.hand_problems(score(r), 0)
    assert [(p.level, p.where) for p in problems] == [("warning", "rounds[0].out[1].points")]
    assert problems[0].message == "Susan went out later but scored more (7) than the player before (5)"


def test_the_hand_in_progress_is_in_the_record_and_counts_at_once():
    r = out(match(), "j", s=4, b=6, a=3)
    again = parse_record(r.to_json())          # what the store keeps and a restart reads
    assert again == r and ptp.hand_on(again) == 0
    assert totals(again)["j"] == 13            # main.py score sees the hand being played
    assert state.hand_title(again) == "Hand 1" and state.prompt(again) == "Who went out next?"
    assert ptp.holding(again, 0) == ["s", "b", "a"]


def test_next_hand_waits_until_one_player_holds_dice():
    r = out(match(), "j", s=4, b=6, a=3)
    assert not state.can_go_next(r)
    assert state.next_hint(r) == "Play on until one player holds dice: Susan, Bill and Allison still hold dice."
    with pytest.raises(ValueError, match="hand 1 goes on"):
        ptp.next_hand(r)
    r = out(out(r, "s", b=5, a=2), "a", b=4)
    assert state.can_go_next(r)
    with pytest.raises(ValueError, match="only one player still holds dice"):
        ptp.go_out(r, "b")
    r = ptp.next_hand(r)
    assert ptp.hand_on(r) == 1 and state.hand_title(r) == "Hand 2"
    assert state.prompt(r) == "Who went out first?" and len(r.rounds) == 1


def test_the_match_ends_after_the_hand_in_which_someone_reaches_the_target():
    r = out(match(target=20), "j", s=5, b=5, a=5)
    r = out(out(r, "s", b=5, a=5), "a", b=5)
    r = ptp.next_hand(r)
    r = out(r, "j", s=2, b=2, a=1)             # John 20: reached, but the hand goes on
    assert not ptp.is_over(r)
    assert state.target_note(r, score(r)) == "John reached 20: the match ends after this hand"
    r = out(out(r, "s", b=2, a=2), "b", a=1)
    assert ptp.is_over(r) and not state.can_go_next(r)
    assert state.over_line(r, score(r)) == "John reached 20: the match is over"
    with pytest.raises(ValueError, match="the match is over"):
        ptp.next_hand(r)
    assert state.winners_line(score(r)) == "Winner: John"


def test_shared_places_at_the_end():
    r = out(match(target=10, names=("Ann", "Ben", "Cy")), "a", b=5, c=5)   # Ann 10
    r = out(r, "b", c=10)                                                   # Ben 10
    result = score(r)
    assert ptp.is_over(r) and [s.place for s in result.players] == [1, 1, 3]
    assert state.winners_line(result) == "Shared win: Ann and Ben"
    assert state.over_line(r, result) == "Ann and Ben reached 10: the match is over"


def test_take_back_and_correct_an_earlier_hand():
    r = out(match(), "j", s=4, b=6, a=3)
    r = ptp.take_back(r, 0)                    # the only one out: the hand has not started
    assert r.rounds == () and ptp.hand_on(r) == 0
    r = out(out(out(r, "j", s=4, b=6, a=3), "s", b=5, a=2), "a", b=4)
    r = ptp.next_hand(r)
    r = out(r, "b", j=3, s=3, a=3)
    r = ptp.edit_hand(r, 0)                    # Allison went out before Susan, in fact
    assert state.correcting(r) and state.hand_title(r) == "Correcting hand 1"
    r = ptp.take_back(ptp.take_back(r, 0), 0)
    r = out(out(r, "a", s=5, b=3), "s", b=2)
    r = ptp.done_editing(r)
    assert [o.player for o in r.rounds[0].out] == ["j", "a", "s"]
    assert ptp.hand_on(r) == 1 and state.hand_title(r) == "Hand 2"   # back to the hand being played
    assert totals(r) == {"j": 13, "s": 2, "b": 9, "a": 8}


def test_a_correction_that_empties_a_hand_deletes_it():
    r = out(out(out(match(), "j", s=4, b=6, a=3), "s", b=5, a=2), "a", b=4)
    r = out(ptp.next_hand(r), "b", j=3, s=3, a=3)
    r = ptp.take_back(ptp.take_back(ptp.take_back(ptp.edit_hand(r, 0), 0), 0), 0)
    assert len(r.rounds) == 2 and r.rounds[0].out == ()
    r = ptp.done_editing(r)
    assert len(r.rounds) == 1 and r.rounds[0].out[0].player == "b"


def test_a_record_from_elsewhere_opens_where_play_goes_on():
    data = {"format": "pandapad/game", "version": 1, "game": "pass-the-pandas",
            "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Ben"}, {"id": "c", "name": "Cy"}],
            "settings": {"variant": "panda-monium", "target": 30},
            "rounds": [{"out": [{"player": "a", "points": 9}, {"player": "b", "points": 4}]},
                       {"out": [{"player": "c", "points": 8}]}]}
    r = parse_record(data)
    assert ptp.hand_on(r) == 1                 # the second hand is still being played
    r = parse_record({**data, "rounds": data["rounds"][:1]})
    assert ptp.hand_on(r) == 1                 # the first is over: a new one
    # Counting dice for a player out without counts is refused, not guessed.
    with pytest.raises(ValueError):
        ptp.step_held(r, 0, "a", "c", 1)


def test_basic_counts_hands_won_and_later_places_are_optional():
    r = ptp.go_out(match("basic"), "s")
    assert r.rounds[0].out == (ptp.Out(player="s"),)
    assert state.prompt(r) == "Susan won the hand. Later places, if you play on:"
    assert state.can_go_next(r)
    r = ptp.go_out(r, "j")                     # the table played on for second place
    r = ptp.next_hand(r)
    r = ptp.next_hand(ptp.go_out(r, "s"))
    r = ptp.go_out(r, "b")
    result = score(r)
    assert totals(r) == {"j": 0, "s": 2, "b": 1, "a": 0} and result.winners == ["s"]
    rows = state.race(r, result)
    assert [x.label for x in rows][:2] == ["John: 0 hands won", "Susan: 2 hands won, leader"]
    table = state.hands_table(r, result)
    assert table[0].cells["s"] == ("1st", "1") and table[0].cells["j"] == ("2nd", "0")
    assert state.hand_label(r, table[2]) == "Hand 3: Bill won"


def test_race_rows_against_the_target():
    r = out(match(), "j", s=4, b=6, a=3)
    rows = state.race(r, score(r))
    assert rows[0].label == "John: 13 of 30, leader" and rows[0].share == pytest.approx(13 / 30)
    assert rows[1].label == "Susan: 0 of 30" and rows[1].share == 0
    table = state.hands_table(r, score(r))
    assert table[0].cells["j"] == ("13", "13") and table[0].cells["s"] == ("…", "0")
    assert state.hand_label(r, table[0]) == "Hand 1: John 13, Susan still in, Bill still in, Allison still in"


@pytest.mark.parametrize("n,line", [
    (0, "Seat 2 to 5 players to see how many dice each starts with."),
    (2, "2 players: 6 dice each (12 of the 20 dice; the rest stay in the box)"),
    (4, "4 players: 5 dice each (all 20 dice)"),
    (5, "5 players: 4 dice each (all 20 dice)"),
])
def test_the_new_game_screen_shows_the_starting_dice(n, line):
    assert state.setup_line(n) == line
