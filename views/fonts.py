"""Japanese glyphs with no CDN (#33), paid for only by a phone that reads Japanese.

Two parts, both from the npm package @fontsource/noto-sans-jp (web/package.json; its 120
slices of Noto Sans JP are Google Fonts' slices in Google's order, the ones Flutter names):
- Flutter's own fallback: a text with a glyph none of its fonts has makes Flutter fetch the
  Noto slice that has it, from the page's fontFallbackBaseUrl ("assets/fonts/" on Flet's
  no-CDN page), under Google's file name. The Japanese slices are served there.
- Flutter picks between the Chinese and the Japanese slices that both have a kanji by how many
  missing glyphs each covers, and took Chinese for most of the Japanese screens (their glyph
  forms differ: a Japanese reader sees foreign writing). So a phone that reads Japanese draws
  every text in a family of its own, FAMILY, made here from those slices: kana, Latin and every
  character of the Japanese catalog, about 30 KB; an English phone never asks for it.
Used when the phones' files are prepared (views/hosts/serving.py) and by the phone build
(web/build.py); needs fontTools there, never in a phone.
"""
from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

from views import lang

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "web" / "node_modules" / "@fontsource" / "noto-sans-jp" / "files"
SLICES = 120
FAMILY, FAMILY_FILE = lang.FONTS["ja"]  # FAMILY_FILE: under the site's root, as page.fonts names it
# Kana, the CJK marks and full-width forms a Japanese text uses, and printable ASCII and Latin-1.
ALWAYS = [(0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x2027), (0x2212, 0x2212), (0x00D7, 0x00D7),
          (0x3000, 0x30FF), (0xFF01, 0xFF9F), (0x27E6, 0x27E7)]


def installed() -> bool:
    return (PACKAGE / "noto-sans-jp-0-400-normal.woff2").is_file()


def slice_file(n: int) -> Path:
    return PACKAGE / f"noto-sans-jp-{n}-400-normal.woff2"


def fallback_names() -> dict[str, Path]:
    """Where Flutter asks for each Japanese slice (relative to the site's root) -> its file.
    The name comes from Flet's own client, so a Flet whose Flutter names other files still
    gets them where it asks."""
    from flet_web import get_package_web_dir

    client = (Path(get_package_web_dir()) / "main.dart.js").read_text(encoding="utf-8", errors="replace")
    found = re.search(r'"(notosansjp/v\d+/[A-Za-z0-9_-]+\.)0\.woff2"', client)
    if not found or not installed():
        return {}
    return {f"assets/fonts/{found.group(1)}{n}.woff2": slice_file(n) for n in range(SLICES)}


def catalog_text() -> str:
    """Every character the Japanese catalog can show."""
    from babel.messages.pofile import read_po

    with (lang.LOCALES / "ja" / "LC_MESSAGES" / f"{lang.DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale="ja")
    return "".join(s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,)))


def family_font(text: str | None = None) -> bytes:
    """The Japanese family: the slices' glyphs of ALWAYS and the catalog (or of `text` alone),
    merged into one font."""
    from fontTools import subset
    from fontTools.merge import Merger, Options
    from fontTools.ttLib import TTFont

    wanted = ({ord(c) for c in text} if text is not None else
              {c for a, b in ALWAYS for c in range(a, b + 1)} | {ord(c) for c in catalog_text()})
    dropped = ["BASE", "STAT", "vhea", "vmtx"]  # vertical text and tables the merge cannot join
    parts = []
    for n in range(SLICES):
        font = TTFont(slice_file(n))
        if not wanted & set(font.getBestCmap()):
            continue
        cut = subset.Subsetter(subset.Options(layout_features=["*"], drop_tables=dropped, name_IDs=["*"]))
        cut.populate(unicodes=wanted)
        cut.subset(font)
        font.flavor = None
        out = io.BytesIO()
        font.save(out)
        out.seek(0)
        parts.append(out)
    merged = Merger(Options(drop_tables=dropped)).merge(parts)
    merged.flavor = "woff2"
    out = io.BytesIO()
    merged.save(out)
    return out.getvalue()


def names_text() -> str:
    """The glyphs of the languages' own names that Latin fonts lack (日本語)."""
    return "".join(sorted({c for name in lang.LANGUAGES.values() for c in name if ord(c) > 0x2FFF}))


def write_family(folder: Path) -> Path:
    """FAMILY_FILE (and the languages' names font) under `folder`, made again only when the
    Japanese catalog or the names changed."""
    target = folder / FAMILY_FILE
    names = folder / lang.NAMES_FONT[1]
    stamp = folder.parent / f"{folder.name}.japanese-source"  # beside the folder: not served
    source = hashlib.sha256((catalog_text() + "\0" + names_text()).encode()).hexdigest()
    if target.is_file() and names.is_file() and stamp.is_file() and stamp.read_text() == source:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(family_font())
    names.write_bytes(family_font(names_text()))
    stamp.write_text(source)
    return target
