"""What a guest's pad can make in one tap (#69), without a table: scoring/guest_edit.py compares a
guest's record with the one its tap started from. Every key of each game's pad, walked through a
game with the rules modules' own edits, is taken; a change no key makes is refused in words."""
from __future__ import annotations

import pytest

from scoring import nokosu_dice as nk
from scoring import panda_royale as pr
from scoring import pandoria as pa
from scoring import pass_the_pandas as pp
from scoring import royal_ur as ur
from scoring.guest_edit import NO_KEY, RENAME, SETTINGS, refusal
from views.games import new_record, now_iso

NAMES = {"royal-ur": ["Ann", "Ben"]}


def walk(game: str, taps, settings=None):
    """Each tap of the pad in turn, each one checked against the record it started from."""
    record = new_record(game, NAMES.get(game, ["Ann", "Ben", "Cat"]), settings)
    for tap in taps:
        after = tap(record)
        assert refusal(record, after) is None, (tap, after)
        record = after
    return record


def test_every_key_of_the_panda_royale_pad_is_taken():
    walk("panda-royale", [
        lambda r: pr.add_die(r, 0, "p1", "yellow", 4), lambda r: pr.add_die(r, 0, "p2", "yellow", 4),
        lambda r: pr.add_die(r, 0, "p3", "yellow", 2), lambda r: pr.set_panda(r, 0, "p2"),
        lambda r: pr.add_die(r, 2, "p1", "red", -5),  # a later round first: the rounds between are added empty
        lambda r: pr.add_die(r, 1, "p1", "glitter", 6), lambda r: pr.add_die(r, 1, "p1", "blue", 3),
        lambda r: pr.add_die(r, 1, "p1", "pink", 12), lambda r: pr.add_die(r, 1, "p1", "pink", 9),
        lambda r: pr.remove_die(r, 1, "p1", "glitter", 0), lambda r: pr.remove_die(r, 1, "p1", "pink"),
        lambda r: pr.remove_die(r, 0, "p3", "yellow"),  # a past round corrected, one die at a time
        lambda r: pr.add_die(r, 0, "p3", "yellow", 3),
        lambda r: r.model_copy(update={"finished": now_iso()}),
    ])


def test_every_key_of_the_royal_ur_pad_is_taken():
    walk("royal-ur", [
        lambda r: ur.set_winner(r, "p1"), lambda r: ur.step(r, "unentered", 2), lambda r: ur.step(r, "start", 1),
        lambda r: ur.add_counter(r, 4), lambda r: ur.add_counter(r, 9), lambda r: ur.remove_counter(r, 9),
        ur.rest_home, ur.keep_entry, lambda r: ur.edit_game(r, 0), lambda r: ur.set_winner(r, "p2"),
        ur.keep_entry, lambda r: ur.set_board(r, (4, 5, 4, 1, 4, 5, 2, 1, 5, 2, 4, 5, 3, 1)),
        lambda r: ur.set_winner(r, "p1"), ur.clear_entry,
    ])


def test_every_key_of_the_nokosu_dice_pad_is_taken():
    taps = [lambda r, p=p, n=n: nk.declare(r, p, n) for p, n in (("p1", 4), ("p2", 0), ("p3", 3))]
    taps += [lambda r, p=p, n=n: nk.set_tricks(r, p, n) for p, n in (("p1", 4), ("p2", 0), ("p3", 8))]
    walk("nokosu-dice", taps + [
        nk.close_round, lambda r: nk.set_dealer(r, 1, "p3"), lambda r: nk.edit_round(r, 0),
        lambda r: nk.set_tricks(r, "p3", 7), lambda r: nk.set_tricks(r, "p1", 5), nk.close_round,
        lambda r: nk.declare(r, "p1", 6), nk.clear_entry,
    ])


def test_every_key_of_the_pandoria_pad_is_taken():
    walk("pandoria", [
        lambda r: pa.add_entry(r, "p1", 4), lambda r: pa.add_entry(r, "p2", 7), lambda r: pa.set_note(r, 0, "city"),
        lambda r: pa.step_entry(r, 1, -6), lambda r: pa.move_entry(r, 0, "p3"), lambda r: pa.delete_entry(r, 0),
        pa.to_end, lambda r: pa.step_part(r, "p1", "points", 3), lambda r: pa.step_part(r, "p1", "wood", 10),
        lambda r: pa.step_part(r, "p2", "cards", 2), lambda r: pa.toggle_rate(r, "p2", "gold", "3:2"),
        lambda r: pa.use_log_points(r, "p1"), pa.to_log,
    ])


@pytest.mark.parametrize("variant", ["panda-monium", "basic"])
def test_every_key_of_the_pass_the_pandas_pad_is_taken(variant):
    taps = [lambda r: pp.go_out(r, "p1"), lambda r: pp.go_out(r, "p2")]
    if variant == "panda-monium":
        taps += [lambda r: pp.step_held(r, 0, "p1", "p3", -2), lambda r: pp.step_held(r, 0, "p1", "p2", 3)]
    walk("pass-the-pandas", taps + [
        lambda r: pp.take_back(r, 0), lambda r: pp.go_out(r, "p3"), pp.next_hand, lambda r: pp.go_out(r, "p2"),
        lambda r: pp.edit_hand(r, 0), lambda r: pp.take_back(r, 0), lambda r: pp.take_back(r, 0),
        pp.done_editing, lambda r: pp.take_back(r, 0),  # the hand being played, its only one out taken back
    ], {"variant": variant})


def test_two_taps_at_once_are_not_one_tap():
    start = walk("pandoria", [lambda r: pa.add_entry(r, "p1", 4)])
    assert refusal(start, pa.add_entry(pa.add_entry(start, "p2", 1), "p3", 1)) == NO_KEY
    both = pa.step_part(pa.to_end(pa.add_entry(start, "p2", 1)), "p1", "cards", 1)
    assert refusal(start, both) == NO_KEY
    dice = walk("panda-royale", [lambda r: pr.add_die(r, 0, "p1", "yellow", 4)])
    assert refusal(dice, pr.add_die(pr.add_die(dice, 0, "p2", "yellow", 1), 0, "p3", "yellow", 2)) == NO_KEY


def yellows(*faces: int):
    """Panda Royale's first round, each player's yellow die tapped in turn (Ann's, Ben's, Cat's)."""
    return walk("panda-royale", [lambda r, p=f"p{k}", y=y: pr.add_die(r, 0, p, "yellow", y)
                                 for k, y in enumerate(faces, start=1)])


def test_the_panda_token_goes_only_to_a_player_of_the_yellow_tie():
    # Ann and Ben tie on 4 with Cat on 2: the pad offers the re-roll's winner among Ann and Ben.
    tie = yellows(4, 4, 2)
    assert refusal(tie, pr.set_panda(tie, 0, "p2")) is None
    assert refusal(tie, pr.set_panda(tie, 0, "p3")) == NO_KEY  # not tied on the highest yellow
    assert refusal(pr.set_panda(tie, 0, "p2"), pr.set_panda(tie, 0, None)) == NO_KEY  # no key takes it back
    alone = yellows(5, 4, 2)
    assert refusal(alone, pr.set_panda(alone, 0, "p1")) == NO_KEY  # no tie: the highest yellow takes it
    half = yellows(4, 4)
    assert refusal(half, pr.set_panda(half, 0, "p1")) == NO_KEY  # Cat has not rolled: no tie known yet


def test_a_resource_past_its_track_is_refused_in_the_pads_words():
    start = walk("pandoria", [lambda r: pa.step_part(r, "p1", "gold", 10)])
    assert refusal(start, pa._with_final(start, "p1", gold=11)) == "the gold track stops at 10"


def test_finish_changes_nothing_else_and_not_past_an_error():
    start = walk("pandoria", [lambda r: pa.add_entry(r, "p1", 4)])
    finished = start.model_copy(update={"finished": now_iso()})
    assert refusal(start, finished) is None
    assert refusal(start, pa.add_entry(finished, "p2", 3)) == NO_KEY
    broken = start.model_copy(update={"log": (pa.LogEntry(player="p1", points=0),)})
    assert refusal(broken, broken.model_copy(update={"finished": now_iso()})) == \
        "Ann: a crown-track entry moves the marker at least 1, not 0"
    assert refusal(finished, pa.add_entry(finished, "p2", 3)) == "Only the host can edit a finished game"


def test_an_error_there_before_does_not_block_the_next_tap():
    # An imported game with a crown step of 0 can still be played on by a guest.
    broken = walk("pandoria", []).model_copy(update={"log": (pa.LogEntry(player="p1", points=0),)})
    assert refusal(broken, pa.add_entry(broken, "p2", 3)) is None
    assert refusal(broken, pa.delete_entry(broken, 0)) is None


def test_the_games_own_fields_are_the_hosts():
    start = walk("nokosu-dice", [])
    renamed = start.model_copy(update={"players": (start.players[0].model_copy(update={"name": "Zed"}),)
                                       + start.players[1:]})
    assert refusal(start, renamed) == RENAME
    seats = start.model_copy(update={"players": start.players[::-1]})
    assert refusal(start, seats) == RENAME
    assert refusal(start, start.model_copy(update={"created": "2020-01-01T00:00:00Z"})) == NO_KEY
    assert refusal(start, start.model_copy(update={"settings": nk.Settings(zero_bonus=0)})) == SETTINGS
    ur_start = walk("royal-ur", [])
    assert refusal(ur_start, ur_start.model_copy(update={"settings": ur.Settings(board=(5,) * 14)})) == SETTINGS
