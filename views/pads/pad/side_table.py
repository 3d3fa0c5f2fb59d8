"""A table of players side by side that is wider than the phone (#56): its first column (the round, the
hand) stays while the players' columns scroll sideways, and a fade at the right edge shows that more
columns follow. Each player's column is as wide as its name, so no name is cut ("Дмит…")."""
from __future__ import annotations

import flet as ft

from views import theme

FADE = 28  # px: the fade at the edge; the columns end with as much blank, so the last one is seen clear


def name_width(name: str, size: float, least: float, most: float = 160) -> float:
    """A column as wide as its name drawn bold at `size` (a tenth to spare, as theme.size_to_fit), not under
    `least` (its numbers); a longer name wraps at its spaces."""
    return min(most, max(least, theme.text_width(name, size) * 1.1 + 8))


def side_scrolled(fixed: list[ft.Control], rows: list[ft.Control], heights: list[float],
                  right: list[ft.Control] | None = None, looks: list[dict] | None = None) -> ft.Control:
    """fixed[i], rows[i] (and right[i]) are one row, heights[i] px high (looks[i]: its background and border,
    across its parts): fixed on the left (and right), the rows between scroll sideways under a fade."""
    looks = looks or [{} for _row in heights]

    def column(cells):
        return ft.Column([ft.Container(c, height=h, alignment=ft.Alignment.CENTER_LEFT, **look)
                          for c, h, look in zip(cells, heights, looks)], spacing=0)
    moving = ft.Row([column(rows), ft.Container(width=FADE)], scroll=ft.ScrollMode.AUTO, spacing=0)
    fade = ft.Container(width=FADE, right=0, top=0, bottom=0, ignore_interactions=True,
                        gradient=ft.LinearGradient(begin=ft.Alignment.CENTER_LEFT, end=ft.Alignment.CENTER_RIGHT,
                                                   colors=[ft.Colors.with_opacity(0, ft.Colors.SURFACE),
                                                           ft.Colors.SURFACE]))
    return ft.Row([column(fixed), ft.Stack([moving, fade], expand=True), *([column(right)] if right else [])],
                  spacing=0, vertical_alignment=ft.CrossAxisAlignment.START)
