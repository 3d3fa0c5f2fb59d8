"""What a phone's first visit moves, by the phone's language (#45): the phone build served as a
static host serves it (web/preview.py, precompressed), a fresh profile per language, until the
page says its offline copy is whole (window.pandapadOffline) and the home has been drawn; the
bytes in all and those of the fallback fonts (assets/fonts/noto*, views/fonts.py), which only a
phone that draws characters Roboto lacks should fetch.
Goals: an English or German phone fetches no fallback font; a Japanese phone moves no more than
`--before` says (the figure of the build before #45, measured by this script on that build).

Run: make web, then  flock /tmp/pandapad-browser.lock .venv/bin/python bench/bench_web_fonts.py
     [--site other/build/web] [--before MB]
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_web import SITE, Link, Site  # noqa: E402
from tests.browser_harness import PHONE, chromium, enable_semantics  # noqa: E402

LOCALES = ["en-US", "de-DE", "ja-JP", "ko-KR", "zh-CN"]


class Counted(Link):
    """The link, not paced (bytes, not seconds, are measured here), counting bytes per path."""

    def __init__(self, app):
        super().__init__(app, mbit=100_000)
        self.by_path: Counter[str] = Counter()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope["path"]

        async def counted(message):
            if message["type"] == "http.response.body":
                self.by_path[path] += len(message.get("body", b""))
                self.sent += len(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, counted)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=SITE)
    parser.add_argument("--before", type=float, default=None, help="a Japanese phone's MB before #45")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "web"))
    from preview import app as site_app, packed
    packed("bench_web_fonts", args.site)
    link = Counted(site_app(args.site))
    site = Site(link)
    figures = {}
    with chromium() as browser:
        for locale in LOCALES:
            link.by_path.clear()
            ctx = browser.new_context(viewport={"width": 412, "height": 915}, locale=locale, **PHONE)
            ctx.set_default_timeout(180_000)
            page = ctx.new_page()
            page.goto(site.url)
            enable_semantics(page, timeout=180_000)
            page.wait_for_function("window.pandapadOffline === true", timeout=180_000)
            time.sleep(2)  # a font asked for with the first screen has been asked by now
            total = sum(link.by_path.values()) / 1e6
            fonts = {p: n for p, n in link.by_path.items() if p.startswith("/assets/fonts/noto")}
            families = sorted({p.split("/")[3] for p in fonts})
            figures[locale] = total
            print(f"{locale}: first visit {total:.2f} MB, of which fallback fonts "
                  f"{sum(fonts.values()) / 1e6:.2f} MB in {len(fonts)} files ({', '.join(families) or 'none'})")
            ctx.close()
    site.down()
    if args.before is not None:
        print(f"Japanese phone: {figures['ja-JP']:.2f} MB against {args.before:.2f} MB before "
              f"(goal: no more): {'met' if figures['ja-JP'] <= args.before else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
