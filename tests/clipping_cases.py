"""Texts known to be clipped, and texts known to fit, for tests/test_browser_clipping.py's check of
its own detector (a page that clips nothing would let a detector that sees nothing pass). Served as
Pandapad is (views/hosts/serving.py OneThread: Flutter's renderer on the page's thread).

Usage: python tests/clipping_cases.py  (FLET_SERVER_PORT etc. from tests/browser_harness.flet_server)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import flet as ft

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root
from views.words import lang  # noqa: E402

# Each clipped text and what the detector must say of it (the start of one of its reasons).
CLIPPED = {
    "⟦Gäste dürfen den Verlauf sehen⟧": "ellipsized",
    "⟦Würfelspielrunden⟧": "a word broken",
    "⟦Verlauf zeigen und teilen⟧": "cut at its foot",
    "⟦Einstellungen für diesen Tisch speichern⟧": "cut at its right",
    "Jonas": "ellipsized after 1 line(s), its row has room",
    # A chip whose label the engine finds wider than its box fades its end (#55).
    "⟦Alle Spiele⟧": "clipped to its own",
    # A typed name broken where the line breaker allows it, between two hangul (#55: "김민|준").
    "김민준": "a name broken",
}
# Texts that fit, or are cut only where a list scrolls, or are names ellipsized where there is no room.
FITTING = ["⟦Eine lange Zeile, die umbricht, wo Leerzeichen sind⟧", "⟦Passt⟧",
           "Allison", "Sebastián", "Maximilian", "Bartholomew", "Alexandra", "Konstantin",
           *[f"⟦Zeile {k}⟧" for k in range(30)],
           # A chip whose label fits, and a name kept whole (lang.name) that the line breaks before.
           "⟦Passt auch⟧", f"⟦Gewinnerin⟧ {lang.name('王小明')}"]
SIZE = 18


def main(page: ft.Page) -> None:
    page.padding = 10
    page.scroll = ft.ScrollMode.AUTO  # the cases are taller than a 640 px phone: the walk scrolls them through
    one_line = dict(size=SIZE, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)
    page.add(ft.Column(spacing=6, controls=[
        ft.Container(ft.Text("⟦Gäste dürfen den Verlauf sehen⟧", **one_line), width=150),
        ft.Container(ft.Text("⟦Würfelspielrunden⟧", size=SIZE), width=80),
        ft.FilledButton(content=ft.Text("⟦Verlauf zeigen und teilen⟧", size=SIZE), height=48, width=150),
        ft.Row([ft.Text("⟦Einstellungen für diesen Tisch speichern⟧", size=SIZE)]),
        ft.Row([ft.Container(ft.Text("Jonas", **one_line), width=30)]),
        ft.Container(ft.Text(FITTING[0], size=SIZE), width=200),
        ft.Text(FITTING[1], size=SIZE),
        ft.Row(spacing=0, controls=[ft.Container(ft.Text(name, **one_line), expand=1) for name in FITTING[2:8]]),
        ft.ListView([ft.Text(text, size=SIZE) for text in FITTING[8:-2]], height=100),
        ft.Row([ft.Chip(label=ft.Text("⟦Alle Spiele⟧", size=SIZE, no_wrap=True, width=80)),
                ft.Chip(label=ft.Text(FITTING[-2], size=SIZE))], wrap=True),
        ft.Container(ft.Text("김민준", size=SIZE), width=SIZE),
        ft.Container(ft.Text(FITTING[-1], size=SIZE), width=130),
    ]))


if __name__ == "__main__":
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")
    from views.hosts.serving import serve_one_thread

    serve_one_thread()
    ft.run(main, view=ft.AppView.WEB_BROWSER, no_cdn=True)
