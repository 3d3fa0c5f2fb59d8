"""Layout choices of the pads' shared parts that need no browser: the title's size, the bar's
reason beside or above its buttons."""
from __future__ import annotations

import flet as ft

from views import theme
from views.pads.pad.parts import action_bar, bar_reason, lay_out_bar


def test_a_title_keeps_the_large_size_when_it_fits_and_shrinks_rather_than_being_cut():
    theme.set_text_size("normal")
    assert theme.fitting("Panda Royale", 136) == theme.sized("LARGE")
    theme.set_text_size("extra-large")
    try:
        size = theme.fitting("Royal Game of Ur", 136)        # 360 px, extra-large text
        assert size < theme.sized("LARGE")
        per_line = int(136 // (0.6 * size))
        assert all(len(line) <= per_line for line in ("Royal Game", "of Ur"))
        assert theme.fitting("Royal Game of Ur", 188) == theme.sized("LARGE")   # 412 px
    finally:
        theme.set_text_size("normal")


def test_a_japanese_title_wraps_between_any_two_characters_and_counts_each_as_wide_as_its_size():
    """Japanese has no spaces: a title is not one word too long for a line (it wraps between
    kanji and kana), and each character is as wide as the size, not 0.6 of it as a letter."""
    theme.set_text_size("normal")
    large, body = theme.sized("LARGE"), theme.sized("BODY")
    assert theme.lines_of("パンダロワイヤル", 8 * large, large) == 1
    assert theme.lines_of("パンダロワイヤル", 5 * large, large) == 2
    assert theme.lines_of("パンダロワイヤル", 3 * large, large) == 3
    assert theme.fitting("パンダロワイヤル", 3 * large) < large          # three lines at the large size
    assert theme.lines_of("Kronenleiste", 5 * large, large) is None    # a German word is cut, not wrapped
    assert theme.lines_of("10位", 1.2 * body + body, body) == 1
    assert theme.widest_piece("Panda Royale", body) == theme.text_width("Royale", body)
    assert theme.widest_piece("パンダロワイヤル", body) == body


def test_the_bar_puts_the_reason_above_the_buttons_upright_and_beside_them_sideways():
    reason, save = bar_reason(), ft.FilledButton("Save game 1")
    bar = action_bar(reason, save)
    assert isinstance(bar.content, ft.Column) and bar.content.controls[0] is reason
    assert lay_out_bar(bar, 915) and isinstance(bar.content, ft.Row)
    assert not lay_out_bar(bar, 915)                          # nothing to redraw
    assert lay_out_bar(bar, 360) and isinstance(bar.content, ft.Column)
    assert save in bar.content.controls[1].controls
