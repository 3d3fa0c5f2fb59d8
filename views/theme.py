"""Sizes and colours shared by every screen: large text for a phone lying on the table."""
from __future__ import annotations

import math
import re

import flet as ft

from views.words import lang
from views.words.per_page import PerPage

# Text sizes (logical pixels); the smallest text a player has to read is 16. Settings can make
# every one of them larger; screens read theme.SMALL/BODY/LARGE/HUGE when they are built, and
# each phone has its own size (#24): the names below are worked out for the session whose
# event is running (Flet binds ft.context.page to it), from that phone's choice, else the
# host's setting.
BASE = {"SMALL": 16, "BODY": 18, "LARGE": 22, "HUGE": 34}
TEXT_SIZES = {"normal": 1.0, "large": 1.15, "extra-large": 1.3}
TAP = 48  # the least side of anything a finger taps
# The keys a player taps in quick runs (dice faces, hand chips, board squares, number keys)
# show what the tap did, not an ink ripple: a ripple is 400 ms of frames after every tap, and
# the next tap's answer waits behind them (#34: bench_tap's phone taps 74 -> 53 ms).
KEY_INK = False

_default_size = "normal"                                       # the host's setting
_page_sizes = PerPage()  # page -> its phone's choice


def set_text_size(name: str, page: ft.Page | None = None) -> None:
    """Normal, large or extra large text on every screen built from now on: of one phone's
    session (page), or (no page) the host's default for every session without a choice."""
    global _default_size
    if page is None:
        _default_size = name
    else:
        _page_sizes[page] = name


_only_page: list = []  # the phone by itself: its one page, for work Flet started without one


def only_page(page: ft.Page) -> None:
    """The phone by itself has one page per Python: a task page.run_task starts there runs without
    Flet's current page (Pyodide's event loop keeps no context for it), and spoke English on a
    German phone; this page is then the current one."""
    _only_page[:] = [page]


def current_page() -> ft.Page | None:
    try:
        return ft.context.page
    except RuntimeError:  # outside any session (a test, the command line), or a phone's task
        return _only_page[0] if _only_page else None


# The language of a phone goes with its session as its text size does (views/words/lang.py).
lang.use_sessions(current_page)


def bind(page: ft.Page) -> None:
    """Make `page` the current session of this task (as Flet does for its own events), for a
    handler that Flet runs in another session's context (PubSub)."""
    from flet.controls.context import _context_page
    _context_page.set(page)


def text_size(page: ft.Page | None = None) -> str:
    page = page if page is not None else current_page()
    return _page_sizes.get(page, _default_size) if page is not None else _default_size


def sized(key: str, page: ft.Page | None = None) -> int:
    return round(BASE[key] * TEXT_SIZES.get(text_size(page), 1.0))


def __getattr__(name: str) -> int:
    # Only for the names not defined above: theme.BODY -> this session's body size.
    if name in BASE:
        return sized(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Die colours: (background, text on it). Clear dice are drawn as an outlined white die.
DIE = {
    "yellow": ("#F9D423", "#1A1A1A"),
    "purple": ("#7B3FB0", "#FFFFFF"),
    "blue": ("#1F6FD1", "#FFFFFF"),
    "glitter": ("#1F4FA0", "#FFD54F"),  # blue die, gold numbers
    "red": ("#C62828", "#FFFFFF"),
    "green": ("#2E7D32", "#FFFFFF"),
    "clear": ("#ECEFF1", "#1A1A1A"),
    "pink": ("#EC5FA5", "#1A1A1A"),
}
RED_BLACK = ("#1A1A1A", "#FF8A80")  # a black face of a red die


def themes() -> tuple[ft.Theme, ft.Theme]:
    """Light and dark themes from one seed; the page follows the system's choice.

    Only button labels get a size here; other text sizes are set on each text (a custom text
    theme loses the dark theme's text colours)."""
    def theme() -> ft.Theme:
        # Every script in Flutter's own font and the fallback fonts the site serves (views/words/fonts.py).
        label = ft.ButtonStyle(text_style=ft.TextStyle(size=sized("BODY"), weight=ft.FontWeight.W_600))
        return ft.Theme(color_scheme_seed="#2E7D32",
                        filled_button_theme=ft.FilledButtonTheme(style=label),
                        outlined_button_theme=ft.OutlinedButtonTheme(style=label),
                        text_button_theme=ft.TextButtonTheme(style=label))
    return theme(), theme()


MODES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}


def apply(page: ft.Page, mode: str = "system") -> None:
    page.theme_mode = MODES.get(mode, ft.ThemeMode.SYSTEM)
    page.theme, page.dark_theme = themes()
    # A new theme shows at once. Flutter fades from one theme to the next in 200 ms, and the
    # app's own theme replaces Flet's default at every opening: a dozen frames of the whole
    # home redrawn while a phone opens the app (#34: bench_join, 50 ms of 1.26 s).
    page.theme_animation_style = ft.AnimationStyle.no_animation()


# A note, a hint, an empty list's words: set apart by a muted colour, upright. Never italic: Japanese,
# Chinese and Korean have none, and Flutter slants their glyphs, which reads as broken (#56); so
# would a name typed in those scripts (or Arabic) inside a note, on any phone.
NOTE = ft.Colors.ON_SURFACE_VARIANT


def die_colours(colour: str, face: int = 1) -> tuple[str, str]:
    if colour == "red" and face < 0:
        return RED_BLACK
    return DIE[colour]


def heading(text: str, size: int | None = None) -> ft.Text:
    return ft.Text(text, size=size or sized("LARGE"), weight=ft.FontWeight.BOLD)


def choice(text: str, name: str, chosen: bool, on_click) -> ft.Semantics:
    """One option of a row of choices (20 / 30 / 50): a screen reader hears its name and
    whether it is the one chosen ("Target 30, checked"), not just "30, button"."""
    return ft.Semantics(label=name, button=True, checked=chosen, exclude_semantics=True,
                        content=ft.OutlinedButton(text, height=TAP, on_click=on_click, style=ft.ButtonStyle(
                            bgcolor=ft.Colors.SECONDARY_CONTAINER if chosen else None)))


# A button whose words may take two lines (a long label in German, or in Japanese at the largest
# text): no fixed height, which cut the second line off; the padding keeps it a finger's size.
def wraps(**style) -> ft.ButtonStyle:
    return ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=20, vertical=14), **style)


def mouse_tip(text: str) -> ft.Tooltip:
    """A tooltip for a mouse's hover only, for a control whose face says what it does: on a phone a long
    press showed it over what the person came to read (#55: "Choose whose sheet" over the sheet's
    column heads), and it names the control to a screen reader all the same."""
    return ft.Tooltip(message=text, trigger_mode=ft.TooltipTriggerMode.MANUAL)


def icon_button(icon, label: str, on_click, **kwargs) -> ft.IconButton:
    """An icon button a screen reader (and a test) finds by its name."""
    return ft.IconButton(ft.Icon(icon, semantics_label=label), on_click=on_click, tooltip=label,
                         icon_size=28, style=ft.ButtonStyle(padding=ft.Padding.all(10)), **kwargs)


_WIDE = 0x2E80  # CJK from here on: a character as wide as the size, and a line may break after any
# A piece: one CJK character, or a run of others, and what lang.JOIN (U+FEFF) holds to it (#45).
_PIECE = "(?:[\u2e80-\ufefe\uff00-\U0010ffff]|[^\u2e80-\U0010ffff]+)"
_PIECES = re.compile(f"{_PIECE}(?:\ufeff+{_PIECE})*\ufeff*|\ufeff+")


def text_width(text: str, size: float) -> float:
    """About how wide `text` is drawn at `size`: a letter 0.6 of the size, a kanji or kana a
    whole one (a place column of 32 px broke '1位' in two lines)."""
    # (Symbols such as the pseudo-locale's ⟦ ⟧ are drawn from a wider font than Roboto.)
    return sum(0.0 if c in "\ufeff\u2068\u2069" else size if ord(c) >= _WIDE or 0x2190 <= ord(c) < 0x2B00 else 0.6 * size
               for c in text)


def pieces(word: str) -> list[str]:
    """The parts of a word (no spaces in it) that a line never breaks inside: the word itself,
    or in Japanese each kanji and kana on its own (Flutter breaks a line between any two),
    but for those lang.JOIN holds together (a phrase of the catalog)."""
    return _PIECES.findall(word)


def widest_piece(text: str, size: float = 1.0) -> float:
    """How wide the widest unbreakable part of `text` is at `size`."""
    return max((text_width(p, size) for word in text.split() for p in pieces(word)), default=0.0)


def widest_word(text: str, size: float = 1.0) -> float:
    """How wide the widest word of `text` (between spaces, a Japanese one whole) is at `size`."""
    return max((text_width(word, size) for word in text.split()), default=0.0)


def size_to_fit(text: str, width: float, key: str = "SMALL", least: int = 12) -> int:
    """The size of `key`, or smaller (not under `least`) where a word of `text` would not fit
    in `width` px: a column heading 'Annonce' broke 'Annonc|e' at extra-large text."""
    size = sized(key)
    # Whole words, Japanese too: a heading that shrinks reads better than 'トリッ|ク' on two lines.
    # A tenth to spare for bold letters and accents, which the estimate of 0.6 a letter misses.
    widest = widest_word(text) * 1.1
    # A px to spare: 'トリック' at exactly the column's 76 px still broke before its last kana.
    return size if widest * size <= width - 1 else max(least, int((width - 1) / widest))


def size_for_line(text: str, width: float, key: str = "BODY", least: int = 12) -> int:
    """As size_to_fit, for a label drawn on one line (a radio's): the whole of it must fit."""
    size = sized(key)
    wide = text_width(text, 1.0) * 1.1
    return size if wide * size <= width - 1 else max(least, int((width - 1) / wide))


def lines_of(text: str, width: float, size: float) -> int | None:
    """How many lines of `width` px `text` wraps into at `size`; None when a word is wider
    than a line and would be cut (a Japanese line breaks between any two kanji or kana)."""
    count, used = 1, 0.0
    for word in text.split():
        for k, piece in enumerate(pieces(word)):
            w = text_width(piece, size)
            if w > width + 1e-6:
                return None
            gap = text_width(" ", size) if used and k == 0 else 0.0  # the space before a word
            if used + gap + w <= width + 1e-6:
                used += gap + w
            else:
                count, used = count + 1, w
    return count


def fitting(text: str, width: float, keys=("LARGE", "BODY", "SMALL"), lines: int = 2) -> int:
    """The largest of these sizes at which `text` wraps into at most `lines` lines of `width`
    px (a bold letter taken as 0.6 of the size wide): a title never cut at any text size."""
    for key in keys:
        size = sized(key)
        count = lines_of(text, width, size)
        if count is not None and count <= lines:
            return size
    return sized(keys[-1])


def column_heads(names: list[str], width: float, fixed: float) -> list[ft.Text]:
    """A table's heading of player names, one equal column each beside `fixed` px of others in
    `width` px: each name as large as its column takes it whole (not "Jon…" where a smaller size
    fits, #45), an ellipsis only for a name that does not fit at the least size."""
    column = (width - fixed) / max(1, len(names)) - 14  # a Row's spacing between columns, and a few px
    return [ft.Text(name, size=size_to_fit(name, column, least=11), expand=True, weight=ft.FontWeight.BOLD,
                    text_align=ft.TextAlign.END, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS)
            for name in names]


def titled_bar(title: str, actions: list | None = None) -> ft.AppBar:
    """An app bar with a screen's title whole (views/theme.bar_title) beside the back arrow and
    any action buttons."""
    width = getattr(current_page(), "width", None) or 412
    size, lines, height = bar_title(title, width - 56 - 32 - 48 * len(actions or []))
    return ft.AppBar(title=ft.Text(title, size=size, weight=ft.FontWeight.BOLD, max_lines=lines),
                     actions=actions, toolbar_height=height)


def _has_wide(text: str) -> bool:
    """Whether `text` holds a kanji, kana or hangul (a joiner aside)."""
    return any(ord(c) >= _WIDE and c != "\ufeff" for c in text)


def chip_text(text: str, size: float) -> ft.Text:
    """A chip's label on one line. Where it holds kanji, kana or hangul, as wide as they are
    drawn (one size each): the engine fetches their font after the chip has taken its width from
    boxes, and a chip does not grow again ("全員" showed "全", "ウル王朝のゲーム" "ウル王", #45)."""
    # Material's chip label spaces its letters 0.1 px apart (the joiners too): with no room for it
    # the last kana faded out.
    room = math.ceil(text_width(text, size) + 0.1 * len(text)) + 2
    # Drawn whole (not faded): Flutter's chip fades a label it finds a hair too wide for its box, and the
    # engine found "すべてのゲーム" so in a box 1.8 px wider than its glyphs (#55: its last kana were lighter).
    return ft.Text(text, size=size, no_wrap=True, width=room if _has_wide(text) else None,
                   overflow=ft.TextOverflow.VISIBLE)


def chip_label(text: str, size: float) -> str | ft.Text:
    """As chip_text, but a plain string (one control fewer) where no such width is needed."""
    return chip_text(text, size) if _has_wide(text) else text


def bar_title(text: str, room: float) -> tuple[int, int, int]:
    """(size, lines, toolbar height) of a title in an app bar with `room` px beside the back
    arrow: the largest size that takes it in one or two lines, never a word cut (#45:
    "Königliches Spiel von …" and "新しいゲーム：ウル王朝の…" at the largest text)."""
    # The largest size first, on two lines if need be: screens of one kind keep one size of title.
    for key in ("LARGE", "BODY", "SMALL"):
        size = sized(key)
        count = lines_of(text, room, size)
        if count is not None and count <= 2:
            return size, count, 64 + (count - 1) * round(size * 1.25)
    size = sized("SMALL")
    return size, 3, 64 + 2 * round(size * 1.25)


# Each game's own colour (its box's dominant colour), the colour of text on it, and a glyph for it:
# the home's tiles, the statistics and the result card (here, not in a screen: every screen may use it).
GAME_LOOK = {
    "panda-royale": ("#F9D423", "#1A1A1A", ft.Icons.CASINO),
    "royal-ur": ("#2B4C9B", "#FFFFFF", ft.Icons.FILTER_VINTAGE),
    "nokosu-dice": ("#C62828", "#FFFFFF", ft.Icons.STYLE),
    "pandoria": ("#2E7D32", "#FFFFFF", ft.Icons.CASTLE),
    "pass-the-pandas": ("#EC5FA5", "#1A1A1A", ft.Icons.PETS),
}
