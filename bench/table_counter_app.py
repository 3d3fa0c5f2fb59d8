"""The smallest table a Flet app can make: the floor under the table of phones' tap figures (#69).

One shared score strip ("Ann: 0  Ben: 0 ...") and, on each page, one button for that page's own
player (the K-th page opened plays the K-th name; the first is the host's). A tap flips its player's
total between 0 and 5, and every page at the table redraws its strip (Flet's pubsub): one frame per
tap on every phone, as the table of phones draws, with none of Pandapad's pad, no Pyodide and no
WebRTC (the Python runs on this server at full speed). bench/bench_table_floor.py drives it.

Usage: python bench/table_counter_app.py --port 8550 --names Ann,Ben,Cat,Dan
(served as a phone on the table's Wi-Fi gets a page: not cross-origin isolated, the renderer on one
thread, views/hosts/serving.OneThread).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

import flet as ft

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # repo root


def table(names: list[str]):
    totals = dict.fromkeys(names, 0)
    lock = threading.Lock()
    seated: list[str] = []

    def main(page: ft.Page) -> None:
        page.title = "Table floor"
        with lock:  # seats in the order the pages open (the stock Flet server drew nothing at /seat/1 or /?seat=1 here)
            mine = names[len(seated) % len(names)]
            seated.append(mine)
        strip = {name: ft.Text(f"{name}: {totals[name]}", size=20) for name in names}

        def show(name: str) -> None:
            strip[name].value = f"{name}: {totals[name]}"
            strip[name].update()

        def tap(e: ft.Event) -> None:
            with lock:
                totals[mine] = 0 if totals[mine] else 5
            page.pubsub.send_all(mine)

        page.pubsub.subscribe(show)
        # A key as the pads draw their dice (views/pads/pad/parts.py): no ink ripple (theme.KEY_INK),
        # so the floor is not raised by frames the pads no longer draw.
        key = ft.Container(
            ft.Semantics(label=f"Tap for {mine}", button=True, exclude_semantics=True,
                         content=ft.Text(f"Tap for {mine}", size=20, weight=ft.FontWeight.BOLD)),
            height=64, border_radius=ft.BorderRadius.all(12), alignment=ft.Alignment.CENTER,
            bgcolor=ft.Colors.PRIMARY_CONTAINER, ink=False, on_click=tap)
        page.add(ft.Row(list(strip.values()), wrap=True), key)

    return main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--names", default="Ann,Ben,Cat,Dan", help="the table's players, the host's first")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")  # headless: serve, never open a window
    from views.hosts.serving import serve_one_thread

    serve_one_thread()
    ft.run(table(args.names.split(",")), view=ft.AppView.WEB_BROWSER, host=args.host, port=args.port,
           no_cdn=True, route_url_strategy=ft.RouteUrlStrategy.PATH)
