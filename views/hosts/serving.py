"""What a phone downloads to join the table: Flet's web client (the Flutter engine, the app's
compiled Dart, fonts, icons), compressed once and cached by the phone's browser (#21).

- prepare(): a copy of Flet's web client in a cache folder, each file also as .br and .gz
  (brotli at its best quality, made once per Flet version by servestatic's Compressor: about
  a minute on two cores, at `make setup` or at the first start), with a content hash per file.
- install(): Flet's FastAPI app (flet_web.fastapi.app) serves that copy through servestatic,
  which picks .br or .gz by Accept-Encoding, answers If-None-Match with 304 and sends Range.
  Caching: the engine and the app's compiled Dart are loaded from a URL that carries the
  client's version (/_v/<key>/...), so they are kept for a year without asking again
  ("immutable"); every other file keeps its plain URL (the page, the fonts' manifest, fonts,
  icons: Flet names them) and is revalidated on each opening ("no-cache" + a strong ETag),
  so a new Flet version is never mixed with an old cached copy.
Nothing here touches the websocket: the app, the games, names and history stay behind the
table's token exactly as before; these files are the same for every Flet app.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from servestatic.asgi import ServeStaticASGI

log = logging.getLogger(__name__)

# Where the prepared copies live (one folder per client version); PANDAPAD_CACHE_DIR overrides.
CACHE_ENV = "PANDAPAD_CACHE_DIR"
VERSIONED = "/_v/"  # URL prefix of the copies served under their version key
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Not served from the copy: Pyodide is for apps run in the browser (Pandapad runs on the
# laptop), debug symbols and source maps no phone asks for, and the three files Flet rewrites
# per server (its patched copies win).
SKIPPED_DIRS = ("pyodide/",)
SKIPPED_SUFFIXES = (".symbols", ".map")
PATCHED_BY_FLET = ("index.html", "manifest.json", "assets/FontManifest.json")
DONE = "etags.json"  # written last: a copy without it is unfinished
# Flet's client loads Rive's runtime (animations the app does not draw) with a <script> from this
# CDN as it starts, whatever --no-cdn says: a phone online would fetch and run a CDN's code at every
# start. Both copies (the table's, here, and the phone build, web/build.py) point it at an about:
# address, which a browser refuses to fetch: the script fails at once, as it did offline, and
# nothing leaves the phone (a path of the site would reach hosts that answer unknown paths with
# the app's page, which would then run as a script).
RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
# As long as the CDN's address: the compiled WebAssembly (main.dart.wasm) holds it with its length.
RIVE_NOWHERE = "about:rive-not-included".ljust(len(RIVE_CDN) - 1, "-") + "/"
NAMING_RIVE = ("main.dart.js", "main.dart.wasm")  # the compiled client, both builds


def without_rive_cdn(name: str, data: bytes) -> bytes:
    """A file of Flet's client as Pandapad serves it: Rive's CDN replaced (NAMING_RIVE), else as it is."""
    if name not in NAMING_RIVE:
        return data
    if data.count(RIVE_CDN.encode()) != 1:
        raise RuntimeError(f"Rive's CDN address was not found once in Flet's {name}: see views/hosts/serving.py")
    return data.replace(RIVE_CDN.encode(), RIVE_NOWHERE.encode())


def cache_root() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pandapad"


def client_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def served(web: Path) -> list[str]:
    """Paths (relative, with /) of the client's files a phone may ask for."""
    names = []
    for path in web.rglob("*"):
        rel = path.relative_to(web).as_posix()
        if not path.is_file() or rel.startswith(SKIPPED_DIRS) or rel.endswith(SKIPPED_SUFFIXES):
            continue
        if rel in PATCHED_BY_FLET:
            continue
        names.append(rel)
    return sorted(names)


def client_key(web: Path, names: list[str]) -> str:
    """Changes whenever the client does (a new Flet version), from the version and the files'
    names and sizes: cheap enough for every start, and the same for every venv of one Flet
    version (with file times in it, each new venv made the copy again, a minute each, and
    removed the other's)."""
    from flet_web.version import version

    digest = hashlib.sha256(f"{version}\0{RIVE_NOWHERE}".encode())  # a copy made before that change is made again
    for rel in names:
        digest.update(f"{rel}\0{(web / rel).stat().st_size}\n".encode())
    return f"{version}-{digest.hexdigest()[:12]}"


def prepare(root: Path | None = None, say=print) -> Path:
    """The prepared copy of Flet's web client for this version, made now if missing."""
    web = client_dir()
    names = served(web)
    key = client_key(web, names)
    root = Path(root) if root is not None else cache_root()
    target = root / f"flet-web-{key}"
    if (target / DONE).is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    # One process prepares, the others (a second server, parallel tests) wait for it.
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / DONE).is_file():
            return target
        say(f"pandapad: compressing the phones' copy of the app once for this Flet version "
            f"(about a minute) into {target}", flush=True)
        work = root / f".work-{key}-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        try:
            etags = _compress_copy(web, names, work)
            (work / DONE).write_text(json.dumps(etags, indent=0, sort_keys=True))
            shutil.rmtree(target, ignore_errors=True)
            os.replace(work, target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        for old in root.glob("flet-web-*"):  # copies for Flet versions no longer installed
            if old != target:
                shutil.rmtree(old, ignore_errors=True)
    return target


def _compress_copy(web: Path, names: list[str], work: Path) -> dict[str, str]:
    from servestatic.compress import Compressor

    compressor = Compressor(use_gzip=True, use_brotli=True, use_zstd=False, quiet=True)
    etags = {}
    for rel in names:
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        if rel in NAMING_RIVE:
            (work / rel).write_bytes(without_rive_cdn(rel, (web / rel).read_bytes()))
        else:
            shutil.copy2(web / rel, work / rel)
        etags[rel] = '"' + hashlib.sha256((work / rel).read_bytes()).hexdigest()[:32] + '"'
    todo = [work / rel for rel in names if compressor.should_compress(rel)]
    # Largest first, so that the two cores finish together (brotli releases the GIL).
    todo.sort(key=lambda p: p.stat().st_size, reverse=True)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(compressor.compress, todo))
    return etags


def install(prepared: Path, assets_dir: Path | None) -> None:
    """From now on every Flet FastAPI app this process builds serves its client from
    `prepared` (compressed, cached as the module docstring says). Files in `assets_dir`
    still win over the client's, as in Flet."""
    import flet_web.fastapi as flet_fastapi
    import flet_web.fastapi.flet_static_files as flet_static_files
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware

    if getattr(flet_fastapi.app, "pandapad_client", None):
        return
    key = prepared.name.removeprefix("flet-web-")
    etags = json.loads((prepared / DONE).read_text())
    fallbacks = fallback_fonts(prepared.parent)
    shadowed = {p.relative_to(assets_dir).as_posix() for p in assets_dir.rglob("*") if p.is_file()} \
        if assets_dir and assets_dir.is_dir() else set()
    serve_one_thread()  # outside Flet's own middleware, which isolates every page (COOP/COEP)
    stock_app = flet_fastapi.app

    def app(*args, **kwargs):
        fastapi_app = stock_app(*args, **kwargs)
        # Inside Flet's middleware, outside its routes: the websocket passes through.
        fastapi_app.user_middleware.extend([
            Middleware(ClientFiles, prepared=prepared, key=key, etags=etags, shadowed=shadowed, fallbacks=fallbacks),
            Middleware(Revalidated),
            Middleware(GZipMiddleware, minimum_size=500),  # the patched index.html and manifests
        ])
        return fastapi_app

    app.pandapad_client = True
    flet_fastapi.app = app
    stock_patch = flet_static_files.patch_index_html

    def patch_index_html(*args, **kwargs):
        stock_patch(*args, **kwargs)
        versioned_index(kwargs.get("index_path") or args[0], key)

    flet_static_files.patch_index_html = patch_index_html


def fallback_fonts(root: Path) -> Path | None:
    """A folder of the fonts Flutter fetches for the characters Roboto lacks (views/words/fonts.py),
    where it asks for them: made once per client and package version, beside the prepared
    copy (one process makes it, the others wait). None, and a warning, without the packages
    (npm ci in web/)."""
    from views.words import fonts

    if not fonts.installed():
        log.warning("no fallback fonts (web/node_modules/@fontsource: `make setup` installs them); "
                    "phones will draw boxes for Japanese, Chinese, Korean, Arabic, Hebrew and emoji")
        return None
    folder = root / "fonts"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            fonts.write(folder, log=log.warning)
        except Exception:  # a client whose table moved, a package file unreadable
            log.exception("making the fallback fonts")
    return folder if (folder / fonts.PREFIX).is_dir() else None


def versioned_index(index_path: str, key: str) -> None:
    """Point the page's engine and compiled-Dart URLs at the versioned copy. Flet writes
    both as lines of its config script; if a later Flet writes them otherwise, the page keeps
    the plain URLs (revalidated, still compressed) and a warning says so."""
    text = Path(index_path).read_text(encoding="utf-8")
    prefix = f"{VERSIONED}{key}/"
    new, n = re.subn(r'flet\.entrypointBaseUrl="/"', f'flet.entrypointBaseUrl="{prefix}"', text)
    new, m = re.subn(r'flet\.canvasKitBaseUrl="/canvaskit/"', f'flet.canvasKitBaseUrl="{prefix}canvaskit/"', new)
    if n != 1 or m != 1:
        log.warning("index.html: Flet's config lines not found; the client is served unversioned")
        return
    Path(index_path).write_text(new, encoding="utf-8")


class ClientFiles(ServeStaticASGI):
    """servestatic over the prepared copy: at / (revalidated) and at /_v/<key>/ (kept)."""

    def __init__(self, app, *, prepared: Path, key: str, etags: dict[str, str], shadowed: set[str],
                 fallbacks: Path | None = None):
        self.etags = etags
        self.versioned = f"{VERSIONED}{key}/"
        # Font types as Flet's own static files give them (servestatic's table lacks these).
        super().__init__(app, root=prepared, prefix="/", max_age=None, allow_all_origins=True,
                         mimetypes={".otf": "font/otf", ".ttf": "font/ttf", ".woff2": "font/woff2"})
        self.add_files(prepared, prefix=self.versioned)
        if fallbacks is not None:  # each asked for by a phone that draws its characters only
            self.add_files(fallbacks, prefix="/")
        for rel in shadowed:
            self.files.pop("/" + rel, None)
        self.files.pop("/" + DONE, None)
        self.files.pop(self.versioned + DONE, None)

    def add_cache_headers(self, headers, path, url):
        rel = url.removeprefix(self.versioned) if url.startswith(self.versioned) else url.lstrip("/")
        if rel in self.etags:
            headers["ETag"] = self.etags[rel]
        headers["Cache-Control"] = IMMUTABLE if url.startswith(self.versioned) else REVALIDATE


def serve_one_thread() -> None:
    """Every Flet FastAPI app this process builds serves pages that are not cross-origin
    isolated (OneThread) and nothing else changed: the bare counter as a phone on the table's
    Wi-Fi runs it (bench/counter_app.py --one-thread), the floor the app is measured against."""
    import flet_web.fastapi as flet_fastapi
    from starlette.middleware import Middleware

    stock_app = flet_fastapi.app

    def app(*args, **kwargs):
        fastapi_app = stock_app(*args, **kwargs)
        fastapi_app.user_middleware.insert(0, Middleware(OneThread))
        return fastapi_app

    flet_fastapi.app = app


class OneThread:
    """Pages that are not cross-origin isolated, so that every browser runs Flutter's renderer
    on one thread, as the table's phones do (a LAN address is no secure context). Flet isolates
    its pages (COOP/COEP), and Chromium then picks the threaded skwasm, whose text layout on
    the page's thread races its raster worker over a shared glyph cache: the heap is corrupted
    and the page spins at 100 % for good (flutter/flutter#190039, fixed after the Flutter in
    Flet 1.0.5). Seen here three times while names were typed: a page stuck in paragraph_layout
    (tests/README.md)."""

    ISOLATION = ("cross-origin-opener-policy", "cross-origin-embedder-policy")

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_shared(message):
            if message["type"] == "http.response.start":
                message["headers"] = [(k, v) for k, v in message["headers"]
                                      if k.decode("latin-1").lower() not in self.ISOLATION]
            await send(message)

        await self.app(scope, receive, send_shared)


class Revalidated:
    """What Flet itself serves (the patched page, the app's assets) says 'no-cache': without a
    Cache-Control a browser may keep it for days on a guess from its Last-Modified."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        from starlette.datastructures import MutableHeaders

        async def send_revalidated(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "cache-control" not in headers:
                    headers["Cache-Control"] = REVALIDATE
            await send(message)

        await self.app(scope, receive, send_revalidated)


if __name__ == "__main__":  # `make setup`: prepare once, so the first start is quick
    with contextlib.suppress(KeyboardInterrupt):
        prepared = prepare()
        fallback_fonts(prepared.parent)
        print(prepared)
