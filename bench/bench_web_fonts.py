"""What a phone's first visit moves, by the phone's language (#45): the phone build served as a
static host serves it (web/preview.py, precompressed), a fresh profile per language, until the
page says its offline copy is whole (window.pandapadOffline) and the home has been drawn; the
bytes in all and those of the fallback fonts (assets/fonts/noto*, views/words/fonts.py), which only a
phone that draws characters Roboto lacks should fetch.
Goals: an English or German phone fetches no fallback font; a Japanese phone moves no more than
`--before` says (the figure of the build before #45, measured by this script on that build).
Then (#55) what the offline copy's worker keeps in the background once the copy is whole (the
fonts of the scripts a table types names in, window.pandapadFonts), and what the phone keeps in
all once the snapshot of Python is kept too (navigator.storage.estimate()).

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
# The family a phone's offline copy keeps whole for its own language (web/sw-src.js OWN_SCRIPT).
OWN_SCRIPT = {"ja": "notosansjp", "ko": "notosanskr", "zh": "notosanssc"}


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
            # The worker keeps the other scripts' fonts once the copy is whole (#55), beside this
            # wait: those are counted apart, as the background's (a font the page asked for, or
            # of the phone's own script, is the first visit's).
            drawn = set(page.evaluate("""performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)
                .filter(p => p.startsWith('/assets/fonts/noto'))"""))
            own = OWN_SCRIPT.get(locale.split("-")[0])

            def first_visit(path: str) -> bool:
                return not path.startswith("/assets/fonts/noto") or path in drawn or path.split("/")[3] == own
            total = sum(n for p, n in link.by_path.items() if first_visit(p)) / 1e6
            fonts = {p: n for p, n in link.by_path.items() if p.startswith("/assets/fonts/noto") and first_visit(p)}
            families = sorted({p.split("/")[3] for p in fonts})
            figures[locale] = total
            print(f"{locale}: first visit {total:.2f} MB, of which fallback fonts "
                  f"{sum(fonts.values()) / 1e6:.2f} MB in {len(fonts)} files ({', '.join(families) or 'none'})")
            page.wait_for_function("window.pandapadFonts === true", timeout=180_000)
            later = {p: n for p, n in link.by_path.items() if p.startswith("/assets/fonts/noto") and not first_visit(p)}
            background = sum(later.values()) / 1e6
            deadline = time.monotonic() + 180  # the snapshot of Python, kept by a second worker
            while not page.evaluate("caches.open('pandapad-python').then(c => c.keys()).then(k => k.length > 0)"):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{locale}: no snapshot of Python kept in 180 s")
                time.sleep(0.5)
            kept = page.evaluate("navigator.storage.estimate().then(e => e.usage)") / 1e6
            print(f"{locale}: then in the background {background:.2f} MB of fonts "
                  f"({len(later)} files); the phone keeps {kept:.1f} MB in all")
            ctx.close()
    site.down()
    if args.before is not None:
        print(f"Japanese phone: {figures['ja-JP']:.2f} MB against {args.before:.2f} MB before "
              f"(goal: no more): {'met' if figures['ja-JP'] <= args.before else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
