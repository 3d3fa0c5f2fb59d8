"""Smallest Flet app with one button and one number: the floor for tap latency.

Serves the web client on 127.0.0.1 without any CDN, so it works offline and in
headless Chromium. Usage: python bench/counter_app.py --port 8550 [--one-thread]

Flet's stock server isolates its pages (COOP/COEP), and on 127.0.0.1, a secure context,
Chromium then draws Flutter's frames on a worker thread. A phone on the table's Wi-Fi opens
an http:// LAN address, no secure context, where no page can be isolated: the same counter
draws every frame on the page's own thread there. --one-thread serves it that way
(views/hosts/serving.OneThread, as Pandapad is served), so the floor is the one a phone has.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import flet as ft


def main(page: ft.Page) -> None:
    page.title = "Counter"
    count = ft.Text("0", size=48, key="count")

    def increment(e: ft.Event) -> None:
        count.value = str(int(count.value) + 1)

    page.add(
        ft.Column(
            [
                ft.Text("Count"),
                count,
                ft.Button("Increment", on_click=increment),
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--one-thread", action="store_true",
                        help="serve pages as a phone on a LAN address gets them (module docstring)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    # Headless: always serve the web client, never try to open a window.
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")
    if args.one_thread:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root
        from views.hosts.serving import serve_one_thread

        serve_one_thread()
    ft.run(
        main,
        view=ft.AppView.WEB_BROWSER,
        host=args.host,
        port=args.port,
        no_cdn=True,
    )
