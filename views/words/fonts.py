"""Every script a phone shows, drawn with fonts from the site itself (#33, #45), paid for only
by a phone that draws it.

Flutter's web engine draws what its own font (Roboto) lacks with Google's Noto fonts: for the
characters of a text that no loaded font has, it picks from a table compiled into the client
(name, file, the code points each covers) and fetches the font from the page's
fontFallbackBaseUrl, which Flet's no-CDN page sets to "assets/fonts/" under Google's file name.
The CJK families and the colour emoji are cut into slices of a few hundred characters there,
so a phone fetches only the slices of what it draws.

Pandapad serves that table's fonts for the scripts a table types and reads: Japanese, Chinese
(simplified, traditional, Hong Kong), Korean, Arabic, Hebrew, Greek and Cyrillic beyond Roboto,
symbols, emoji, and the CJK punctuation a frame may hold alone. Their files come from npm's @fontsource packages (web/package.json), weight
400. Files are matched by what they hold, not by name: each table entry gets the package's file
whose characters include all of the entry's (the CJK and emoji slices: a copy), else the few
files that cover them merged into one (the single-file families, split by script in the
packages). The table is read from the installed client, so a Flet whose Flutter names other
files gets them where it asks. No font is cut to a list of characters known at build time.

Used where the phones' files are prepared (views/hosts/serving.py, `make setup`) and by the
phone build (web/build.py); needs fontTools there, never in a phone.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ROOT / "web" / "node_modules" / "@fontsource"
LOCK = ROOT / "web" / "package-lock.json"
PREFIX = "assets/fonts/"  # where Flet's no-CDN page tells Flutter to look, under the site's root
# The engine's families Pandapad serves -> their npm package.
SOURCES = {
    "Noto Sans JP": "noto-sans-jp", "Noto Sans SC": "noto-sans-sc", "Noto Sans TC": "noto-sans-tc",
    "Noto Sans HK": "noto-sans-hk", "Noto Sans KR": "noto-sans-kr", "Noto Color Emoji": "noto-color-emoji",
    "Noto Sans Arabic": "noto-sans-arabic", "Noto Sans Hebrew": "noto-sans-hebrew", "Noto Sans": "noto-sans",
    "Noto Sans Symbols": "noto-sans-symbols", "Noto Sans Symbols 2": "noto-sans-symbols-2",
    # What the engine picks for a lone full-width "（", "：" or "。" (its table lists these two
    # among the fonts that have them, and takes the first when no CJK text is beside it).
    "Noto Sans Mongolian": "noto-sans-mongolian", "Noto Sans New Tai Lue": "noto-sans-new-tai-lue",
}
# Where a family's package lacks characters the engine expects of it, they are taken from another
# Noto family's package of the same design: the packages cut those two to their scripts, without
# the CJK punctuation Google's files hold.
BORROWED = {"Noto Sans Mongolian": "Noto Sans SC", "Noto Sans New Tai Lue": "Noto Sans SC"}
# Tables a merge of these cannot join, and none Flutter uses for horizontal text.
DROPPED = ["BASE", "STAT", "vhea", "vmtx"]
STAMP = ".fallback-fonts"  # beside the folder: which client and packages its files were made for


class TableNotFound(RuntimeError):
    """Flet's client no longer holds the fallback table where this module reads it."""


@dataclass(frozen=True)
class EngineFont:
    name: str                      # "Noto Sans JP 118"
    url: str                       # "notosansjp/v53/….118.woff2", under fontFallbackBaseUrl
    code_points: frozenset[int]    # the characters the engine expects the file to have

    @property
    def family(self) -> str | None:
        """The served family this font belongs to ("Noto Sans JP 118" -> "Noto Sans JP")."""
        if self.name in SOURCES:
            return self.name
        base, _, number = self.name.rpartition(" ")
        return base if number.isdigit() and base in SOURCES else None


def client_script() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir()) / "main.dart.js"


def _digits(text: str):
    """The engine's packing: decimal digits are a prefix, a letter ends the number."""
    prefix = 0
    for ch in text:
        if ch.isdigit():
            prefix = prefix * 10 + int(ch)
            continue
        yield prefix, ch
        prefix = 0


@lru_cache(maxsize=4)
def engine_fonts(script: Path | None = None) -> tuple[EngineFont, ...]:
    """The fallback table of Flet's client (Flutter's font_fallbacks: a list of fonts, sets of
    them, and the code point ranges each set covers, packed into strings)."""
    text = (script or client_script()).read_text(encoding="utf-8", errors="replace")
    fonts = re.findall(r'\("(Noto [^"]+)","([a-z0-9]+/v\d+/[A-Za-z0-9_.-]+\.woff2)"\)', text)
    packed_sets = re.findall(r'\("(,[0-9a-z,]{10000,})"', text)
    packed_ranges = re.findall(r'\("([0-9A-Za-z]{10000,})"', text)
    if not fonts or len(packed_sets) != 1 or len(packed_ranges) != 1:
        raise TableNotFound(f"{len(fonts)} fonts, {len(packed_sets)} font sets, {len(packed_ranges)} range tables "
                            f"in {script or client_script()}")
    sets = []
    for part in packed_sets[0].split(","):
        members, previous = [], -1
        for prefix, ch in _digits(part):
            previous += prefix * 26 + (ord(ch) - ord("a")) + 1
            members.append(previous)
        sets.append(members)
    covered: list[list[tuple[int, int]]] = [[] for _ in fonts]
    start, size = 0, 1
    for prefix, ch in _digits(packed_ranges[0]):
        if ch.islower():  # a range's size, for the set that follows
            size = prefix * 26 + (ord(ch) - ord("a")) + 2
            continue
        for member in sets[prefix * 26 + (ord(ch) - ord("A"))]:
            covered[member].append((start, start + size - 1))
        start, size = start + size, 1
    if start != 0x110000:
        raise TableNotFound(f"the ranges end at {start:#x}, not after the last code point")
    return tuple(EngineFont(name, url, frozenset(c for a, b in covered[i] for c in range(a, b + 1)))
                 for i, (name, url) in enumerate(fonts))


def package_files(family: str) -> list[Path]:
    """The package's files of weight 400, upright (one per slice or script)."""
    folder = PACKAGES / SOURCES[family] / "files"
    return sorted(folder.glob("*-400-normal.woff2")) if folder.is_dir() else []


def installed() -> bool:
    return all(package_files(family) for family in SOURCES)


def _cmap(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(path, lazy=True).getBestCmap())


@dataclass
class Plan:
    files: dict[str, list[Path]]          # "assets/fonts/<url>" -> its source file(s), merged if more
    code_points: dict[str, frozenset[int]]  # "assets/fonts/<url>" -> the characters the engine expects
    missing: dict[str, frozenset[int]]    # the characters of an entry no file of its package has
    unserved: list[str]                   # the engine's families with no package here


def plan(fonts: tuple[EngineFont, ...] | None = None) -> Plan:
    fonts = fonts if fonts is not None else engine_fonts()
    cmaps = {family: {path: _cmap(path) for path in package_files(family)} for family in SOURCES}
    files, code_points, missing, unserved = {}, {}, {}, set()
    for font in fonts:
        family = font.family
        if family is None or not cmaps.get(family):
            unserved.add(font.name.rstrip("0123456789 ") or font.name)
            continue
        sources = cmaps[family]
        if family in BORROWED:
            sources = {**sources, **cmaps[BORROWED[family]]}
        whole = [path for path, cmap in cmaps[family].items() if font.code_points <= cmap]
        if whole:  # the smallest file that has every character
            chosen = [min(whole, key=lambda p: p.stat().st_size)]
        else:  # the fewest files that have them, greedily
            chosen, left = [], set(font.code_points)
            while left:
                path = max(sources, key=lambda p: len(sources[p] & left))
                if not sources[path] & left:
                    break
                chosen.append(path)
                left -= sources[path]
            if left:
                missing[font.url] = frozenset(left)
        files[PREFIX + font.url] = sorted(chosen)
        code_points[PREFIX + font.url] = font.code_points
    return Plan(files, code_points, missing, sorted(unserved))


def merged(paths: list[Path], code_points: frozenset[int]) -> bytes:
    """One woff2 font of the glyphs of `code_points` in `paths` (files of one family, cut by
    script or slice): each cut to those characters first, so a slice stays a slice."""
    from fontTools import subset
    from fontTools.merge import Merger, Options
    from fontTools.ttLib import TTFont

    parts = []
    for path in paths:
        font = TTFont(path)
        font.flavor = None
        cut = subset.Subsetter(subset.Options(layout_features=["*"], drop_tables=DROPPED, name_IDs=["*"],
                                              notdef_outline=True))
        cut.populate(unicodes=code_points)
        cut.subset(font)
        out = io.BytesIO()
        font.save(out)
        out.seek(0)
        parts.append(out)
    font = Merger(Options(drop_tables=DROPPED)).merge(parts)
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def source_key() -> str:
    """What the files depend on: the client's table and the packages' versions."""
    script = client_script()
    digest = hashlib.sha256(script.read_bytes())
    lock = json.loads(LOCK.read_text(encoding="utf-8"))["packages"] if LOCK.is_file() else {}
    for family in sorted(SOURCES):
        digest.update(f"{family}={lock.get('node_modules/@fontsource/' + SOURCES[family], {}).get('version')}".encode())
    return digest.hexdigest()


def write(folder: Path, log=print) -> Plan | None:
    """The served fonts under `folder` (PREFIX/…, as the phones ask for them), made again only
    when the client or the packages changed. None when the packages are not installed."""
    stamp = folder.parent / f"{folder.name}{STAMP}"
    if not installed():
        return None
    key = source_key()
    if stamp.is_file() and stamp.read_text() == key and (folder / PREFIX).is_dir():
        return None
    made = plan()
    for rel, paths in made.files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        if len(paths) == 1:  # servestatic serves files, not symbolic links: a hard link, else a copy
            try:
                os.link(paths[0], target)
            except OSError:
                shutil.copy2(paths[0], target)
        else:
            target.write_bytes(merged(paths, made.code_points[rel]))
    for url, left in made.missing.items():
        log(f"fonts: {url} lacks {len(left)} of the characters Flutter expects of it, e.g. "
            + " ".join(f"U+{c:04X}" for c in sorted(left)[:6]))
    stamp.write_text(key)
    return made


def served_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in (folder / PREFIX).rglob("*.woff2"))


# The offline copy keeps the scripts a table types names in, in the background (#55), but of the
# CJK families, whose slices are 7 MB between them, only the slices holding the characters names
# are mostly written with (#68): the everyday ones of each script's national standard (Japanese:
# the kana and JIS X 0208's first level, 2,965 kanji; Korean: KS X 1001's 2,350 syllables;
# simplified Chinese: GB 2312's first level, 3,755 hanzi), the fewest bytes that hold 90 % of
# them (Google's slices group characters by how often they are used, so the rarer tenth of these
# is what is left to first use), and the variant forms family names keep (髙橋, 山﨑, 渡邊...).
# A phone's own script is still kept whole (web/sw-src.js).
EVERYDAY_SHARE = 0.9
NAME_VARIANTS = "髙﨑邊邉齋齊濵嶋澤廣櫻國實"


def _decoded(encoding: str, rows: range) -> set[int]:
    """The characters of a two-byte EUC encoding's rows (each row's 94 cells)."""
    found = set()
    for high in rows:
        for low in range(0xA1, 0xFF):
            try:
                found.add(ord(bytes([high, low]).decode(encoding)))
            except UnicodeDecodeError:
                pass
    return found


def everyday(family: str) -> frozenset[int]:
    """The everyday characters of a CJK family's script (its standard's first level), or none."""
    if family == "Noto Sans JP":  # kana, and JIS X 0208 rows 16-47 (the first level's kanji)
        kana = {*range(0x3041, 0x3097), *range(0x30A1, 0x30FF), 0x3005}
        return frozenset(kana | _decoded("euc_jp", range(0xB0, 0xD0)))
    if family == "Noto Sans KR":  # KS X 1001 rows 16-40: its 2,350 Hangul syllables
        return frozenset(_decoded("euc_kr", range(0xB0, 0xC9)))
    if family == "Noto Sans SC":  # GB 2312 rows 16-55: its first level
        return frozenset(_decoded("gb2312", range(0xB0, 0xD8)))
    return frozenset()


def everyday_slices(site: Path, fonts: tuple[EngineFont, ...] | None = None) -> dict[str, list[str]]:
    """Family folder ("notosansjp") -> the files under `site` (its served fonts) that the offline
    copy keeps in the background: each CJK family's slices of everyday characters and of the
    name variants, chosen by the engine's own table (the slice it fetches for a character)."""
    fonts = fonts if fonts is not None else engine_fonts()
    chosen: dict[str, list[str]] = {}
    for family in ("Noto Sans JP", "Noto Sans KR", "Noto Sans SC"):
        wanted = everyday(family)
        slices = {PREFIX + f.url: f.code_points for f in fonts
                  if f.family == family and (site / PREFIX / f.url).is_file()}
        if not slices:
            continue
        size = {rel: (site / rel).stat().st_size for rel in slices}
        left, kept = set(wanted), set()
        while len(left) > (1 - EVERYDAY_SHARE) * len(wanted):  # most new characters per byte first
            best = max(sorted(set(slices) - kept), key=lambda rel: len(slices[rel] & left) / size[rel])
            if not slices[best] & left:
                break
            kept.add(best)
            left -= slices[best]
        kept |= {rel for rel, points in slices.items() if points & set(map(ord, NAME_VARIANTS))}
        chosen[next(iter(slices)).split("/")[2]] = sorted(kept)
    return chosen

