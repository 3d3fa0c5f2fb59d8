"""views/words/per_page.py: a value per phone's session, found by the page itself, gone with it."""
from __future__ import annotations

import gc
from dataclasses import dataclass, field

import flet as ft

from views.words.per_page import PerPage


@dataclass(eq=True)
class Page:
    """As a Flet Page is: a dataclass whose == reads its fields (here counted)."""
    route: str = "/"
    compared: list = field(default_factory=list)

    def __eq__(self, other):
        self.compared.append(other)
        return isinstance(other, Page) and self.route == other.route

    __hash__ = object.__hash__


def test_each_page_has_its_own_value_though_the_pages_are_equal():
    languages = PerPage()
    a, b = Page(), Page()
    assert a == b
    languages[a] = "de"
    assert languages.get(a) == "de" and languages.get(b, "en") == "en"
    languages[b] = "ja"
    languages[a] = "fr"
    assert (languages.get(a), languages.get(b)) == ("fr", "ja")
    assert languages.setdefault(a, "xx") == "fr" and languages.setdefault(Page(), "it") == "it"


def test_a_page_is_found_without_comparing_it():
    languages = PerPage()
    pages = [Page(f"/{k}") for k in range(50)]
    for page in pages:
        languages[page] = page.route
    for page in pages:
        page.compared.clear()
        assert languages.get(page) == page.route
    assert not any(page.compared for page in pages)


def test_the_value_goes_with_its_page():
    languages = PerPage()
    a, b = Page("/a"), Page("/b")
    languages[a] = "de"
    languages[b] = "ja"
    del a
    gc.collect()
    assert len(languages) == 1 and languages.get(b) == "ja"


def test_a_flet_page_compared_by_its_fields_is_why():
    # The reason PerPage exists: a Flet Page's == is a dataclass's, field by field.
    assert ft.Page.__eq__ is not object.__eq__
