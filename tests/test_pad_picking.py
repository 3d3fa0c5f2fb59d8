"""The number sheet's choices (views/pads/pad/picking.py): every count a pad reads off the table is
set in at most two taps, whatever its size, in the ranges the pads give it."""
from __future__ import annotations

import pytest

from views.pads.pad.picking import WINDOW, choices, columns, page_of, taps


def test_a_short_range_is_offered_whole():
    assert choices(3, 0, 10) == list(range(11))          # Pandoria's wood, gold, crystal
    assert choices(0, 0, 40) == list(range(41))          # hand cards: 0 to 40 on one sheet


def test_a_value_above_the_range_is_still_offered():
    assert choices(12, 0, 10)[-1] == 12                  # an old record's 12 gold stays pickable


def test_a_long_range_offers_a_window_around_the_value_starting_on_a_five():
    values = choices(87, 0, 300)                         # a crown track adjusted from the log's 87
    assert len(values) == WINDOW and 87 in values and values[0] % 5 == 0
    assert values == list(range(values[0], values[0] + WINDOW))
    assert choices(2, 0, 300)[0] == 0 and choices(299, 0, 300)[-1] == 300


def test_pages_move_inside_the_range():
    values = choices(87, 0, 300)
    lower = page_of(values, 0, 300, -1)
    assert lower[0] == max(0, values[0] - WINDOW) and lower[-1] < values[0]
    top = page_of(page_of(values, 0, 300, 5), 0, 300, 5)
    assert top[-1] == 300 and len(top) == WINDOW


@pytest.mark.parametrize("low, high", [(0, 10), (0, 8), (0, 40), (0, 7), (1, 12), (1, 30)])
def test_every_count_of_a_pad_range_takes_at_most_two_taps(low, high):
    for start in range(low, high + 1):
        for target in range(low, high + 1):
            assert taps(start, target, low, high) <= 2, (start, target)


def test_a_crown_track_within_twenty_of_the_log_takes_two_taps():
    for log in (0, 17, 54, 120):
        for target in range(max(0, log - 20), log + 21):
            assert taps(log, target, 0, 300) <= 2, (log, target)


def test_one_step_is_one_tap_of_plus_and_no_change_none():
    assert taps(4, 5, 0, 10) == 1 and taps(4, 3, 0, 10) == 1 and taps(4, 4, 0, 10) == 0


def test_columns_fill_the_width_up_to_ten():
    assert columns(360, 41) == 6 and columns(412, 41) == 7 and columns(915, 41) == 10
    assert columns(412, 4) == 4                          # four choices: four keys, no gaps
