"""Layout choices of the pads' shared parts that need no browser: the title's size, the bar's
reason beside or above its buttons."""
from __future__ import annotations

import flet as ft

from views import theme
from views.pad.parts import action_bar, bar_reason, lay_out_bar


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


def test_the_bar_puts_the_reason_above_the_buttons_upright_and_beside_them_sideways():
    reason, save = bar_reason(), ft.FilledButton("Save game 1")
    bar = action_bar(reason, save)
    assert isinstance(bar.content, ft.Column) and bar.content.controls[0] is reason
    assert lay_out_bar(bar, 915) and isinstance(bar.content, ft.Row)
    assert not lay_out_bar(bar, 915)                          # nothing to redraw
    assert lay_out_bar(bar, 360) and isinstance(bar.content, ft.Column)
    assert save in bar.content.controls[1].controls
