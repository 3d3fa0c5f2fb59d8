"""make web: Pandapad as a static site that runs on a phone by itself (build/web/).

Flet's own `flet publish --no-cdn` (flet-cli 1.0.5) makes the site: Flet's web client, Pyodide,
and the app's archive. This script gives it what it would otherwise ask the internet for, and
finishes the site for a phone:
- the Python packages: every wheel pinned by version and hash (web/requirements.txt), downloaded
  from PyPI once (kept in build/phone/wheels) and unpacked into the archive's __pypackages__,
  which Flet's worker puts on sys.path: nothing is installed at start, nothing asked of PyPI;
- Pyodide: the copy flet-web ships, handed to publish as its cache (publish would download it),
  and the python-build manifest publish asks for, written from that copy's own version; its
  standard library without the modules the app never imports (web/stdlib.py);
- the page: a path to Pyodide the browser accepts (publish writes a bare module name), the
  phone's viewport from the first byte, web/page.js (offline copy, persistent storage),
  web/early.js (Python starts with the page, beside Flutter), web/picture.js (the pad as it was
  left, shown at once while the app opens), Flutter's
  self-unregistering service worker left out, the app's icons and colours in the manifest;
- the offline copy: Workbox's generateSW (npm, web/package.json) precaches every file;
- Python's snapshot, made in Chromium once the site is named (web/ship_snapshot.py), so that a
  phone's first visit restores Python instead of starting it;
- precompressed .br/.gz copies beside the files (servestatic's compress), for servers that use them
  (left out with --no-compress: the tests' plain static server sends the files as they are;
  --compress-only adds them to a build made so).

Only PyPI and the npm registry are asked anything, and only on the first build.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import unicodedata
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
OUT = ROOT / "build" / "web"
# Not build/web-…: publish leaves out of the archive every path that starts with its output's.
WORK = ROOT / "build" / "phone"
VENV_BIN = Path(sys.executable).parent

# What the phone runs: the app itself, nothing of the tests, benchmarks or server assets.
APP = ("main.py", "scoring", "storage", "views")
# Pyodide 314 (Python 3.14), as flet-web 1.0.5 ships it.
PLATFORM = ["--platform", "pyemscripten_2026_0_wasm32", "--python-version", "3.14",
            "--implementation", "cp", "--abi", "cp314"]

# BudouX's default parsers (budoux/parser.py) and the model each reads.
BUDOUX_MODELS = {"japanese": "ja.json", "simplified_chinese": "zh-hans.json", "traditional_chinese": "zh-hant.json",
                 "thai": "th.json"}

NAME = "Pandapad"
DESCRIPTION = "Score pad for Panda Royale, the Royal Game of Ur, Nokosu Dice, Pandoria and Pass the Pandas"
THEME_COLOUR = "#2E7D32"  # views/theme.py's seed
BACKGROUND = "#FFFFFF"
ARCHIVE_TIME = 1767225600  # 2026-01-01: every file of the app's archive, so that its bytes depend on its contents only

# Files of Flet's web client and of Pyodide that a phone never asks for here: the multi-threaded
# skwasm (a static host sends no cross-origin isolation, so a page runs skwasm on one thread),
# the experimental renderers, debug symbols, source maps, Pyodide's command-line runner and its
# type declarations.
UNUSED = ("flutter.js.map", "flutter_service_worker.js", "canvaskit/skwasm_heavy.js",
          "canvaskit/skwasm_heavy.wasm", "canvaskit/wimp.js", "canvaskit/wimp.wasm",
          "canvaskit/experimental_webparagraph", "pyodide/python", "pyodide/python.bat",
          "pyodide/python.exe", "pyodide/python_cli_entry.mjs", "pyodide/ffi.d.ts",
          "pyodide/pyodide.d.ts", "pyodide/package.json", "pyodide/pyodide.js")
# Pyodide's package installer and its one dependency (0.2 MB): nothing loads a package at run time
# (every package is in the app's archive, python-worker.js), but the offline copy fetched them.
UNUSED_GLOBS = ("pyodide/micropip-*.whl", "pyodide/packaging-*.whl")
UNUSED_SUFFIXES = (".symbols", ".map")
UNUSED_FONTS = ("packages/flutter_math_fork/", "packages/cupertino_icons/")


def say(text: str) -> None:
    print(f"make web: {text}", flush=True)


def run(cmd: list, **kwargs) -> None:
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def pinned() -> dict[str, str]:
    """web/requirements.txt: name -> sha256."""
    found = {}
    for line in (WEB / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            found[line.split("==")[0]] = line.split("--hash=sha256:")[1].strip()
    return found


def wheels() -> list[Path]:
    """The pinned wheels, downloaded once and checked against their hashes every build."""
    folder = WORK / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    want = pinned()
    have = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*.whl")}
    if sorted(have.values()) != sorted(want.values()):
        say("downloading the pinned wheels for Pyodide from PyPI")
        for stale in folder.glob("*.whl"):
            stale.unlink()
        run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q", "--no-deps",
             "--only-binary=:all:", *PLATFORM, "--require-hashes", "-r", WEB / "requirements.txt",
             "-d", folder])
    return sorted(folder.glob("*.whl"))


def stage(found: list[Path]) -> Path:
    """The folder publish packs: the app, its icons, and the packages unpacked."""
    stage = WORK / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.md", "flet_pin.py")
    for part in APP:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, stage / part, ignore=ignore)
        else:
            shutil.copy2(src, stage / part)
    (stage / "assets").mkdir()
    shutil.copy2(ROOT / "assets" / "favicon.png", stage / "assets" / "favicon.png")
    packages = stage / "__pypackages__"
    for wheel in found:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(packages)
    # Flet's test helpers and pydantic's copy of its version 1 never run in the phone.
    for unused in ("flet/testing", "pydantic/v1"):
        shutil.rmtree(packages / unused, ignore_errors=True)
    # BudouX's models but those views/words/lang.py reads (#45): 210 kB less.
    read = {BUDOUX_MODELS[parser] for parser in re.findall(r"load_default_(\w+)_parser",
                                                            (ROOT / "views" / "words" / "lang.py").read_text())}
    for model in (packages / "budoux" / "models").glob("*.json"):
        if model.name not in read:
            model.unlink()
    # Babel's data of the locales Pandapad speaks (#33), not of its other 1,000: 32 MB less.
    kept = babel_locales()
    for data in (packages / "babel" / "locale-data").glob("*.dat"):
        if data.stem not in kept:
            data.unlink()
    trimmed(stage)
    return stage


# What Babel's locale data holds that Pandapad never writes: names of languages, countries,
# currencies, time zones and units (its numbers, dates and lists need none of them). About 60 %
# of each locale's data; the phone build's test of every language's forms is run on what is left.
UNWRITTEN = ("languages", "territories", "scripts", "variants", "currency_names", "currency_names_plural",
             "currency_symbols", "currency_unit_patterns", "time_zones", "meta_zones", "zone_formats",
             "unit_patterns", "unit_display_names", "compound_unit_patterns", "compact_currency_formats",
             "interval_formats", "date_fields")


def trimmed(stage: Path) -> None:
    """The staged app without what the phone never reads (#45 pays for eleven languages with it):
    a first visit moves this archive."""
    import pickle

    packages = stage / "__pypackages__"
    # flet_charts' Dart sources (for `flet build`), type stubs, wheels' file lists and man pages.
    shutil.rmtree(packages / "flutter", ignore_errors=True)
    for path in [*packages.rglob("*.pyi"), *packages.glob("*.dist-info/RECORD"), *packages.glob("*.data"),
                 *packages.glob("*.dist-info/sboms")]:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    # Nothing in the phone reads a package's description (importlib.metadata is asked only for
    # entry points, by pydantic's plugin loader and segno's to_* converters, and reads
    # entry_points.txt): each METADATA keeps its fields (name, version, licence...) without the
    # README after them (pydantic's changelog alone was 141 kB); pydantic_core's bill of materials
    # (sboms/, 105 kB) goes too. The licences stay. 0.06 MB less of the archive's gzip.
    for metadata in packages.glob("*.dist-info/METADATA"):
        fields = metadata.read_text(encoding="utf-8").split("\n\n", 1)[0]
        metadata.write_text(fields + "\n", encoding="utf-8")
    for data in (packages / "babel" / "locale-data").glob("*.dat"):
        with data.open("rb") as f:
            table = pickle.load(f)
        for key in UNWRITTEN:
            table.pop(key, None)
        with data.open("wb") as f:
            pickle.dump(table, f, protocol=pickle.HIGHEST_PROTOCOL)
    # The catalogs compiled (.mo, fuzzy entries left out, as views/words/lang.py compiles a .po), the
    # pseudo-locale's too: Python reads them as they are, where parsing every .po (Babel's read_po)
    # left its garbage in Python's memory, and so in the snapshot a first visit fetches (0.6 MB
    # less of its gzip; the .mo files are 0.08 MB more of the archive's than the .po were).
    sys.path.insert(0, str(ROOT))
    from views.words import lang

    locales = stage / "views" / "words" / "locales"
    for code in [*(c for c in lang.LANGUAGES if c != "en"), lang.PSEUDO]:
        target = locales / code / "LC_MESSAGES" / f"{lang.DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(lang.compiled(code))
    for source in [*locales.rglob("*.po"), *locales.glob("*.pot")]:
        source.unlink()
    every_form_written(stage)


def every_form_written(stage: Path) -> None:
    """Stop the build if the trimmed locale data or the compiled catalogs (.mo, in place of the
    .po) write any of the app's forms or messages otherwise than the whole ones do, in any of its
    languages (views/words/lang.written_forms)."""
    said = (
        "import json, sys, pathlib, babel.localedata as d\n"
        "if len(sys.argv) > 1: d._dirname = sys.argv[1]\n"
        "from views.words import lang\n"
        "if len(sys.argv) > 2: lang.LOCALES = pathlib.Path(sys.argv[2]); lang.TEMPLATE = lang.LOCALES / 'pandapad.pot'\n"
        "out = {code: [forms, sorted(map(str, lang.translations(code)._catalog.items()))]\n"
        "       for code, forms in lang.read_every_language().items()}\n"
        "print(json.dumps(out))")
    whole = subprocess.run([sys.executable, "-c", said], cwd=ROOT, check=True, capture_output=True, text=True)
    trim = subprocess.run([sys.executable, "-c", said, stage / "__pypackages__" / "babel" / "locale-data",
                           stage / "views" / "words" / "locales"], cwd=ROOT, check=True, capture_output=True, text=True)
    whole, trim = json.loads(whole.stdout), json.loads(trim.stdout)
    for code in whole:
        for kind, a, b in (("forms", whole[code][0], trim[code][0]), ("messages", whole[code][1], trim[code][1])):
            if a != b:
                wrong = next((x, y) for x, y in zip(a, b) if x != y) if len(a) == len(b) else (len(a), len(b))
                raise SystemExit(f"make web: the trimmed data writes {code}'s {kind} otherwise: {wrong}")


def babel_locales() -> set[str]:
    """The locale data files Babel reads to write Pandapad's numbers, dates and lists in each
    of its languages (a locale's parents too: en_GB reads en_001, en and root), found by
    doing that with this venv's Babel, the same version as the phone's (web/requirements.txt)."""
    from babel import localedata

    sys.path.insert(0, str(ROOT))
    from views.words import lang

    lang.read_every_language()
    return set(localedata._cache)  # every locale loaded, parents included


def pyodide_for_publish() -> dict[str, str]:
    """The environment that lets publish work offline: its manifest and its Pyodide cache."""
    import flet_web

    bundled = Path(flet_web.__file__).parent / "web" / "pyodide"
    lock = json.loads((bundled / "pyodide-lock.json").read_text())
    version = json.loads((bundled / "package.json").read_text())["version"]
    python = lock["info"]["python"]
    short = ".".join(python.split(".")[:2])
    cache = WORK / "flet-cache"
    target = cache / "pyodide" / version
    if not (target / "pyodide-lock.json").exists():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(bundled, target)
        # publish takes its cache as that version only when the lock file says so.
        lock["info"]["version"] = version
        (target / "pyodide-lock.json").write_text(json.dumps(lock))
    manifest = WORK / "python-build-manifest.json"
    manifest.write_text(json.dumps({
        "default_python_version": short,
        "pythons": {short: {"full_version": python, "pyodide_version": version, "android_abis": []}}}))
    return {"FLET_PYTHON_BUILD_MANIFEST": str(manifest), "FLET_CACHE_DIR": str(cache)}


def publish(stage: Path) -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    env = {**os.environ, **pyodide_for_publish(), "PYTHONUTF8": "1"}
    # A site under a path of its host (GitHub Pages: /<repository>/) says so: PANDAPAD_BASE_URL.
    base = os.environ.get("PANDAPAD_BASE_URL") or "/"
    run([VENV_BIN / "flet", "publish", "main.py", "--no-cdn", "--distpath", OUT, "--base-url", base, "--app-name", NAME,
         "--app-short-name", NAME, "--app-description", DESCRIPTION, "--pwa-theme-color", THEME_COLOUR,
         "--pwa-background-color", BACKGROUND, "--route-url-strategy", "path", "--web-renderer", "auto"],
        cwd=stage, env=env, stdout=subprocess.DEVNULL)


def finish_page() -> None:
    index = OUT / "index.html"
    html = index.read_text()
    # A bare module name is refused by the browser's import(); a relative path loads.
    html = html.replace('flet.pyodideUrl="pyodide/pyodide.mjs"', 'flet.pyodideUrl="./pyodide/pyodide.mjs"')
    if 'flet.pyodideUrl="./pyodide/pyodide.mjs"' not in html:
        raise SystemExit("make web: publish wrote no local Pyodide path into index.html; see web/build.py")
    # The phone's own width from the first byte (as assets/index.html does for the server).
    html = html.replace('<meta charset="UTF-8">', '<meta charset="UTF-8">\n  <meta name="viewport" content='
                        '"width=device-width, initial-scale=1.0, maximum-scale=1.0, user-scalable=no">\n'
                        f'  <meta name="theme-color" content="{THEME_COLOUR}">', 1)
    html = html.replace('<script src="python.js"></script>', '<script src="languages.js"></script>\n'
                        '  <script src="python.js"></script>\n'
                        '  <script src="early.js"></script>\n  <script src="page.js"></script>\n'
                        '  <script src="picture.js"></script>\n'
                        '  <script src="camera.js" defer></script>\n  <script src="link.js" defer></script>', 1)
    html = re.sub(r'<meta name="apple-mobile-web-app-title" content="[^"]*">',
                  f'<meta name="apple-mobile-web-app-title" content="{NAME}">', html)
    # Flutter's loader is started by web/early.js once the pad's picture is painted (#68).
    if html.count('<script src="flutter_bootstrap.js" async></script>') != 1:
        raise SystemExit("make web: index.html does not load flutter_bootstrap.js as publish wrote it; see web/build.py")
    html = html.replace('<script src="flutter_bootstrap.js" async></script>', "")
    index.write_text(opening_screen(html))
    # python-worker.js is Pandapad's own (restores a snapshot of Python, #44), in place of Flet's.
    for script in ("page.js", "early.js", "picture.js", "python-worker.js", "link.js"):
        shutil.copy2(WEB / script, OUT / script)
    # English where the browser's language tag is not a language: the server's page loads it too.
    shutil.copy2(ROOT / "assets" / "languages.js", OUT / "languages.js")
    # Reading another phone's codes with the camera (#53): the page's script, and the decoder it
    # loads where the browser has no BarcodeDetector (make setup copies it from npm to assets/qr/).
    shutil.copy2(ROOT / "assets" / "camera.js", OUT / "camera.js")
    if not (ROOT / "assets" / "qr" / "barcode-detector.js").is_file():
        raise SystemExit("make web: assets/qr/ has no decoder; run make setup (npm ci in web/)")
    shutil.copytree(ROOT / "assets" / "qr", OUT / "qr")
    # GitHub Pages and most static hosts answer an unknown path with 404.html: the app itself,
    # so that a link to /game/… opens the app on a first visit too.
    shutil.copy2(index, OUT / "404.html")

    # Flutter's loader registers flutter_service_worker.js, a worker that only unregisters
    # itself, at the scope of ours: it would take the offline copy away on the next visit.
    boot = OUT / "flutter_bootstrap.js"
    text = boot.read_text()
    text, n = re.subn(r"\n\s*serviceWorkerSettings: \{[^}]*\},", "", text)
    if n != 1:
        raise SystemExit("make web: Flutter's service worker registration was not found in flutter_bootstrap.js")
    boot.write_text(text)


def opening_screen(html: str) -> str:
    """The page with Pandapad's opening screen (web/opening.html) first in its body, its words
    in each language Pandapad speaks, from the catalogs."""
    sys.path.insert(0, str(ROOT))
    from views.words import lang
    from views.hosts import standalone

    words = {}
    for code in lang.LANGUAGES:
        lang.set_language(code)
        words[code] = {key: lang._(message) for key, message in standalone.OPENING_WORDS.items()}
    lang.set_language("en")
    # The page matches a phone's tag by its primary part: "pt-PT" and "zh-TW" read pt_BR and zh_Hans.
    for primary, code in lang.OF_PRIMARY.items():
        words[primary] = words[code]
    screen = (WEB / "opening.html").read_text().replace("PANDAPAD_OPENING_WORDS", json.dumps(words, ensure_ascii=False))
    screen = screen.replace("/* PANDAPAD_OPENING_FONTS */", opening_fonts(words))
    if "<body>" not in html:
        raise SystemExit("make web: publish wrote no <body> into index.html; see web/build.py")
    return html.replace("<body>", "<body>\n" + screen, 1)


# The served family whose letterforms each language's opening words are drawn in (#55), as the app
# draws them (assets/languages.js tells Flutter's engine the same).
OPENING_FAMILIES = {"ja": "Noto Sans JP", "ko": "Noto Sans KR", "zh": "Noto Sans SC"}


def opening_fonts(words: dict[str, dict[str, str]]) -> str:
    """@font-face rules that draw the opening screen's Japanese, Korean and Chinese words with the
    slices the site serves for Flutter (views/words/fonts.py: assets/fonts/…, kept by the offline copy
    once fetched), each slice named for the characters of those words it holds only: a page
    fetches the few slices its own words need, and no other."""
    from views.words import fonts

    rules = []
    for code, family in OPENING_FAMILIES.items():
        # Not the joiners (views/words/lang.py: format characters, drawn by no font).
        drawn = {ord(c) for text in words[code].values() for c in text
                 if ord(c) > 0x7F and unicodedata.category(c) != "Cf"}
        for font in fonts.engine_fonts():
            held = sorted(drawn & font.code_points) if font.family == family else []
            if held:
                drawn -= set(held)
                ranges = ", ".join(f"U+{c:04X}" for c in held)
                rules.append(f'@font-face {{ font-family: "Pandapad {code}"; src: url("{fonts.PREFIX}{font.url}") '
                             f'format("woff2"); unicode-range: {ranges}; }}')
        if drawn:
            raise SystemExit(f"make web: no served {family} slice holds the opening words' "
                             + " ".join(chr(c) for c in sorted(drawn)) + "; see web/build.py opening_fonts()")
    return "\n    ".join(rules)


# What the site's pages and stylesheets name (src, href, url()): a name of another host, a data
# or blob address, or a fragment names no file of the site.
NAMED = re.compile(r"""(?:\b(?:src|href)\s*=\s*["']([^"']+)["']|\burl\(\s*["']?([^"')]+)["']?\s*\))""")
NOT_A_FILE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.IGNORECASE)


def unnamed_files(site: Path, base: str = "/") -> list[str]:
    """The files the site's pages (.html) and stylesheets (.css) name that the site does not hold,
    as "page: name": a browser asking for one gets index.html back (a static host's 404 page), not
    the file. Names are read against the page's <base href> (the build's base), or the stylesheet's
    own folder."""
    missing = []
    for page in sorted([*site.rglob("*.html"), *site.rglob("*.css")]):
        if "node_modules" in page.parts:
            continue
        text = page.read_text(encoding="utf-8", errors="replace")
        folder = site if page.suffix == ".html" else page.parent
        for match in NAMED.finditer(text):
            name = (match.group(1) or match.group(2)).strip()
            if NOT_A_FILE.match(name) or "{" in name or "+" in name:  # another host, or made by a script
                continue
            path = name.split("#")[0].split("?")[0]
            if path.startswith(base):
                target = site / path[len(base):]
            elif path.startswith("/"):
                target = site / path.lstrip("/")
            else:
                target = folder / path
            if not path or path.endswith("/") or not target.resolve().is_file():
                if not (path.endswith("/") and target.resolve().is_dir()):
                    missing.append(f"{page.relative_to(site)}: {name}")
    return missing


def named_files_present(site: Path = OUT) -> None:
    """Stop the build on a page or stylesheet naming a file the site does not hold (#55: the opening
    screen named a font that went away, and a phone fetched index.html in its place)."""
    base = os.environ.get("PANDAPAD_BASE_URL") or "/"
    missing = unnamed_files(site, base if base.endswith("/") else base + "/")
    if missing:
        raise SystemExit("make web: these pages name files the site does not hold:\n  " + "\n  ".join(missing))


def repack_archive() -> None:
    """The app's archive as the phone best reads it:
    - without the requirements.txt publish always writes (flet==… when there is none): Flet's
      worker would load micropip to check it at every start, and the packages are already in
      __pypackages__;
    - in bytecode, made by the phone's own Python (web/bytecode.mjs): an offline start here spent
      0.6 s of its 1.5 s of Python compiling the app and its packages' sources;
    - the same bytes for the same app (names sorted, times and owners fixed), so that a rebuild
      that changed nothing is not fetched again by every phone."""
    archive = OUT / "app.tar.gz"
    folder = WORK / "archive"
    shutil.rmtree(folder, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    (folder / "requirements.txt").unlink(missing_ok=True)
    run(["node", WEB / "bytecode.mjs", OUT / "pyodide", folder])
    python_libs(folder)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    with open(archive, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as packed, \
            tarfile.open(fileobj=packed, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for path in files:
            info = tar.gettarinfo(path, arcname=path.relative_to(folder).as_posix())
            info.mtime, info.uid, info.gid, info.uname, info.gname = ARCHIVE_TIME, 0, 0, "", ""
            with open(path, "rb") as f:
                tar.addfile(info, f)
    shutil.rmtree(folder)
    app_files(archive)


def lighter_stdlib() -> None:
    """Python's standard library without the modules the app can never import (web/stdlib.py):
    every first visit fetches it (a .zip: a static host sends it as it is) and the offline copy
    keeps it. Made after the bytecode (web/bytecode.mjs runs compileall with the whole one) and
    before the snapshot, which is made with this one."""
    import stdlib  # beside this script, run as one

    zip_path = OUT / "pyodide" / "python_stdlib.zip"
    keep = stdlib.needed(zip_path, WORK / "stage", WEB / "python-worker.js")
    lighter = WORK / "python_stdlib.zip"
    before, after = stdlib.trim(zip_path, keep, lighter)
    zip_path.unlink()
    shutil.move(lighter, zip_path)
    say(f"Python's standard library: {len(keep)} modules kept, {before / 1e6:.2f} MB -> {after / 1e6:.2f} MB")


def app_files(archive: Path) -> None:
    """Where each file of the app lies in the archive's bytes (un-gzipped), in Emscripten's file
    package form: the worker mounts the archive as it is, read-only (Emscripten's WORKERFS), and a
    file is read from the archive when Python first opens it, instead of every file written out
    at every opening (#52: 0.3-1.3 s of a restored opening here)."""
    with tarfile.open(archive) as tar:
        files = [{"filename": "/" + m.name, "start": m.offset_data, "end": m.offset_data + m.size}
                 for m in tar if m.isfile()]
    (OUT / "app-files.json").write_text(json.dumps({"files": files}, separators=(",", ":")))


# Where the worker unpacks the app: Pyodide's home, its working folder (python-worker.js).
PHONE_HOME = "/home/pyodide"
LIBS_MARK = "/* PANDAPAD_PYTHON_LIBS */[]"


def python_libs(folder: Path) -> None:
    """The packages' compiled extensions (pydantic_core's, msgpack's) as files of the site of their
    own, named .wasm (served as application/wasm): the worker compiles them with
    WebAssembly.compileStreaming while Pyodide starts, and the browser keeps the compiled code for
    the next opening, and it loads them into Python before Python starts, at the same places in
    memory every time, so that a snapshot of Python can hold them (#52, python-worker.js). Their
    place in the archive keeps an empty file: Python's import finds the module there, and dlopen
    finds the library already loaded by that path, never reading the file."""
    target = OUT / "python-libs"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    libs = []
    for so in sorted(folder.rglob("*.so")):
        relative = so.relative_to(folder).as_posix()
        name = relative.replace("/", "--")[: -len(".so")] + ".wasm"
        shutil.move(so, target / name)
        so.write_bytes(b"")
        libs.append({"path": f"{PHONE_HOME}/{relative}", "url": f"python-libs/{name}"})
    if not libs:
        raise SystemExit("make web: no compiled extension found in the app's packages; see web/build.py python_libs")
    worker = OUT / "python-worker.js"
    text = worker.read_text()
    if text.count(LIBS_MARK) != 1:
        raise SystemExit(f"make web: {LIBS_MARK} not found once in python-worker.js")
    worker.write_text(text.replace(LIBS_MARK, json.dumps(libs)))


def no_cdn_rive() -> None:
    """Rive's script asked of nowhere, by both builds of Flet's client (JavaScript and
    WebAssembly), as the table's copy does (views/hosts/serving.py RIVE_CDN): it fails to load, as it
    did offline (Flutter waits for it and draws no Rive, which Pandapad has none of)."""
    from views.hosts import serving

    for name in serving.NAMING_RIVE:
        path = OUT / name
        try:
            path.write_bytes(serving.without_rive_cdn(name, path.read_bytes()))
        except RuntimeError as exc:
            raise SystemExit(f"make web: {exc}") from None


def drop_unused() -> None:
    for rel in UNUSED:
        path = OUT / rel
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    for path in list(OUT.rglob("*")):
        if path.is_file() and path.name.endswith(UNUSED_SUFFIXES):
            path.unlink()
    for pattern in UNUSED_GLOBS:
        for path in OUT.glob(pattern):
            path.unlink()


def unused_fonts() -> None:
    """Flutter downloads and parses every font of assets/FontManifest.json as it starts. Flet's
    client lists the KaTeX fonts of its Math control and the Cupertino icons (20 files, 0.9 MB),
    which no screen of Pandapad draws: out of the manifest and out of the site."""
    manifest = OUT / "assets" / "FontManifest.json"
    families = json.loads(manifest.read_text())
    kept = [f for f in families if not any(a["asset"].startswith(UNUSED_FONTS) for a in f["fonts"])]
    if len(kept) == len(families):
        raise SystemExit("make web: the unused fonts were not found in FontManifest.json; see web/build.py")
    manifest.write_text(json.dumps(kept, indent=2))
    for family in families:
        if family not in kept:
            for font in family["fonts"]:
                (OUT / "assets" / font["asset"]).unlink()
    for folder in sorted((OUT / "assets" / "packages").rglob("*"), reverse=True):  # deepest first
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def fallback_fonts() -> None:
    """The fonts Flutter fetches for the characters Roboto lacks (views/words/fonts.py), where it asks
    for them: each fetched by a phone that draws its characters, kept then by the service
    worker (web/sw-src.js) and precached by none, so an English phone's first visit stays as
    it was. Made once beside the server's prepared copy, and linked here."""
    sys.path.insert(0, str(ROOT))
    from views.words import fonts
    from views.hosts import serving

    if not fonts.installed():
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB)
    made = serving.fallback_fonts(serving.cache_root())
    if made is None:
        raise SystemExit("make web: the fallback fonts could not be made; see the log above")
    for source in (made / fonts.PREFIX).rglob("*.woff2"):
        target = OUT / source.relative_to(made)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        try:
            os.link(source, target)
        except OSError:  # another file system
            shutil.copy2(source, target)


# A maskable icon (W3C Web App Manifest): the launcher cuts it to its own shape (a circle, a
# rounded square...), and only its safe zone, a centred circle of radius 40 % of its size, is sure
# to be seen. The motif's farthest pixel is this share of the size from the centre: inside the safe
# zone, with room for the soft edge resampling gives it (3 pixels of the smaller icon).
MOTIF_RADIUS = 0.36


def icons(site: Path = OUT) -> None:
    """The app's own icon on the home screen, in the sizes the manifest names: assets/icon.png as
    drawn (purpose any), and a maskable copy for launchers that cut icons to their own shape."""
    from PIL import Image

    icon = Image.open(ROOT / "assets" / "icon.png").convert("RGBA")
    folder = site / "icons"
    folder.mkdir(parents=True, exist_ok=True)
    sizes = (192, 512)
    for size in sizes:
        icon.resize((size, size), Image.LANCZOS).save(folder / f"icon-{size}.png")
        maskable(icon, size).save(folder / f"icon-maskable-{size}.png")
    # iOS rounds the corners itself and draws transparent ones black: the icon on its own ground.
    flat = Image.alpha_composite(Image.new("RGBA", icon.size, icon_ground(icon)), icon)
    flat.resize((192, 192), Image.LANCZOS).save(folder / "apple-touch-icon-192.png")
    manifest = site / "manifest.json"
    data = json.loads(manifest.read_text())
    data["icons"] = [{"src": f"icons/{name}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
                      "purpose": purpose}
                     for name, purpose in (("icon", "any"), ("icon-maskable", "maskable")) for size in sizes]
    data.update({"id": "./", "start_url": "./", "scope": "./", "display": "standalone",
                 "orientation": "portrait", "categories": ["games", "utilities"]})
    manifest.write_text(json.dumps(data, indent=2) + "\n")


def icon_ground(icon):
    """The colour the icon's motif is drawn on: the commonest colour of the art (its green)."""
    return max(icon.getcolors(icon.width * icon.height))[1]


def maskable(icon, size: int):
    """The icon redrawn for a launcher's mask: its ground over the whole square (no transparent or
    white corners for the mask to show), its motif (what differs from the ground: the die) centred
    and scaled so that its farthest pixel is MOTIF_RADIUS of the size from the centre."""
    from PIL import Image, ImageChops, ImageDraw

    ground = icon_ground(icon)
    flat = Image.alpha_composite(Image.new("RGBA", icon.size, ground), icon)  # the corners filled
    motif = ImageChops.difference(flat.convert("RGB"), Image.new("RGB", icon.size, ground[:3]))
    motif = motif.convert("L").point(lambda v: 255 if v else 0)
    box = motif.getbbox()
    if box is None:
        raise SystemExit("make web: assets/icon.png has no motif on its ground; see web/build.py icons()")
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    def inside(radius: int) -> bool:
        circle = Image.new("L", icon.size, 0)
        ImageDraw.Draw(circle).ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=255)
        return ImageChops.subtract(motif, circle).getbbox() is None

    # The smallest circle about the motif's centre that holds all of it (a die's rounded corners
    # reach less far than its box's).
    low, high = 1, int(((box[2] - box[0]) ** 2 + (box[3] - box[1]) ** 2) ** 0.5 / 2) + 2
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if inside(middle) else (middle + 1, high)
    scale = MOTIF_RADIUS * size / low
    scaled = flat.resize((round(icon.width * scale), round(icon.height * scale)), Image.LANCZOS)
    canvas = Image.new("RGBA", (size, size), ground)
    canvas.paste(scaled, (round(size / 2 - cx * scale), round(size / 2 - cy * scale)))  # opaque; may overhang
    return canvas


def service_worker() -> None:
    if not (WEB / "node_modules" / "workbox-build").is_dir():
        say("installing Workbox from npm (web/package-lock.json)")
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB)
    # The CJK slices kept in the background (views/words/fonts.py everyday_slices), for web/sw-src.js.
    from views.words import fonts

    everyday = WORK / "everyday-fonts.json"
    everyday.write_text(json.dumps(fonts.everyday_slices(OUT)))
    run(["node", WEB / "sw.mjs", OUT, everyday], cwd=WEB)


def compress() -> None:
    run([sys.executable, "-m", "servestatic.compress", "-q", OUT])


def main(argv: list[str] | None = None) -> None:
    # make test builds without the compressed copies (no test loads them; they were 47 s of a
    # fresh clone's run, #32); make web adds them after, with --compress-only.
    args = sys.argv[1:] if argv is None else argv
    if "--compress-only" in args:
        compress()
        return
    compressed = "--no-compress" not in args
    found = wheels()
    say(f"{len(found)} wheels pinned and checked; staging the app")
    publish(stage(found))
    finish_page()
    no_cdn_rive()
    repack_archive()
    lighter_stdlib()
    drop_unused()
    unused_fonts()
    fallback_fonts()
    icons()
    service_worker()
    import ship_snapshot  # beside this script, run as one
    ship_snapshot.make(OUT, say)
    named_files_present()
    if compressed:
        compress()
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz"))
    say(f"{OUT.relative_to(ROOT)} is ready ({size / 1024 / 1024:.1f} MB before compression); "
        "make web-preview serves it on 127.0.0.1")


if __name__ == "__main__":
    main()
