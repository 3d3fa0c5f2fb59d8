"""Dice drawn as tappable squares: face buttons, hand chips, empty fast-repeat slots."""
from __future__ import annotations

import flet as ft

from views import theme
from views.words.lang import _
from views.pads.panda_royale.state import Die, colour_letters, colour_name, face_label, signed

FACE = 52   # side of a face button: 7 fit a 412 px phone, and above the 48 px a finger needs
CHIP = 48


def _centre(content: ft.Control, **kwargs) -> ft.Container:
    return ft.Container(content=content, alignment=ft.Alignment.CENTER, ink=theme.KEY_INK,
                        border_radius=ft.BorderRadius.all(8), **kwargs)


def face_button(colour: str, face: int, on_click) -> ft.Container:
    """One face of one colour; announced as '<Colour> <face>' ('Red −3' for a black 3)."""
    bg, fg = theme.die_colours(colour, face)
    border = ft.Border.all(2, "#90A4AE") if colour == "clear" else None
    return _centre(
        ft.Text(signed(face), size=22, weight=ft.FontWeight.BOLD, color=fg,
                semantics_label=face_label(colour, face)),
        width=FACE, height=FACE, bgcolor=bg, border=border, on_click=on_click)


def chip(die: Die, on_click) -> ft.Container:
    """A die of the hand: its letter and face; tapping it takes it out ('Remove Yellow 4')."""
    bg, fg = theme.die_colours(die.colour, die.face)
    border = ft.Border.all(2, "#90A4AE") if die.colour == "clear" else None
    return _chip(die, bg, fg, border, on_click)


def _chip(die: Die, bg: str, fg: str, border, on_click) -> ft.Container:
    return _centre(
        ft.Semantics(
            # TRANSLATORS: a die of the hand read out, tapped to take it out ("Remove Yellow 4").
            label=_("Remove {die}", die=die.label), button=True, exclude_semantics=True,
            content=ft.Column([ft.Text(colour_letters(die.colour), size=11, color=fg, weight=ft.FontWeight.BOLD),
                               ft.Text(die.text, size=18, color=fg, weight=ft.FontWeight.BOLD)],
                              spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
        width=CHIP, height=CHIP, bgcolor=bg, border=border, on_click=on_click)


def slot(colour: str, on_click) -> ft.Container:
    """An empty place for one of last round's dice: tapping it opens that colour's pad."""
    bg = theme.DIE[colour][0]
    return _centre(
        ft.Semantics(
            # TRANSLATORS: an empty place for a die of last round still to enter ("Empty Yellow slot").
            label=_("Empty {colour} slot", colour=colour_name(colour)), button=True, exclude_semantics=True,
            content=ft.Column([ft.Text(colour_letters(colour), size=11, weight=ft.FontWeight.BOLD),
                               ft.Text("?", size=18, weight=ft.FontWeight.BOLD)],
                              spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
        width=CHIP, height=CHIP, border=ft.Border.all(3, bg), on_click=on_click)


def letter_badge(colour: str, size: int = 30) -> ft.Container:
    """The colour's swatch with its letters, so the colour never relies on hue alone."""
    bg, fg = theme.DIE[colour]
    border = ft.Border.all(2, "#90A4AE") if colour == "clear" else None
    letters = colour_letters(colour)
    return ft.Container(
        # Smaller for a language whose letters are more than two: never broken in the swatch.
        content=ft.Text(letters, size=min(13, int((size - 6) / (0.62 * max(1, len(letters))))), color=fg,
                        weight=ft.FontWeight.BOLD, no_wrap=True, semantics_label=colour_name(colour)),
        width=size, height=size, bgcolor=bg, border=border, border_radius=ft.BorderRadius.all(6),
        alignment=ft.Alignment.CENTER)
