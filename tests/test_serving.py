"""What a phone downloads to join the table (#21), over plain HTTP against a real table server
(--lan with a token): Flet's big files come compressed when the browser asks and identical once
unpacked, the engine is kept for a year under a versioned URL, everything else revalidates
with a 304, and none of it needs the token or shows anything of the store."""
from __future__ import annotations

import gzip
import re
import urllib.error
import urllib.request
from pathlib import Path

import brotli
import pytest

from storage import Store
from tests.browser_harness import flet_server
from views.hosts import gate, serving

pytestmark = pytest.mark.slow  # starts a Flet server (run it under the browser lock)

TOKEN = "serving-token-0123456789abcdef"
SECRET = "Zebedee Quartermaine"
WEB = serving.client_dir()
# The files that made a first visit 14.5 MB: the compiled app (JS or WebAssembly, whichever
# the browser takes), the engines, and the icon font.
BIG = ["main.dart.js", "main.dart.wasm", "canvaskit/canvaskit.wasm", "canvaskit/chromium/canvaskit.wasm",
       "canvaskit/skwasm.wasm", "assets/fonts/MaterialIcons-Regular.otf"]
UNPACK = {"br": brotli.decompress, "gzip": gzip.decompress}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("serving")
    from scoring import Player
    from scoring import panda_royale as pr
    with Store.open(data) as store:
        store.save(pr.Record(players=(Player(id="z", name=SECRET), Player(id="y", name="Yan")),
                             id="secret-game", created="2026-11-22T18:00:00Z"), None)
    with flet_server("main.py", args=["--data-dir", str(data), "--lan", "--token", TOKEN], port_arg="--port") as s:
        yield s


def get(server, path: str, **headers) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(server.url + path.lstrip("/"), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as exc:  # 304 and 404 come here
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def versioned_base(server) -> str:
    """Where the page loads the compiled app and the engine from (index.html's config)."""
    _, _, page = get(server, "/?token=" + TOKEN)
    found = re.search(r'flet\.entrypointBaseUrl="([^"]+)"', page.decode())
    assert found, "index.html names no entrypointBaseUrl"
    return found.group(1)


@pytest.mark.parametrize("encoding", ["br", "gzip"])
@pytest.mark.parametrize("name", BIG)
def test_a_big_file_comes_compressed_when_asked_and_identical_once_unpacked(server, name, encoding):
    original = serving.without_rive_cdn(name, (WEB / name).read_bytes())
    status, headers, body = get(server, name, **{"Accept-Encoding": f"{encoding}, identity"})
    assert status == 200
    assert headers.get("content-encoding") == encoding
    assert "accept-encoding" in headers.get("vary", "").lower()  # a shared cache keeps one per encoding
    assert len(body) < 0.45 * len(original)  # measured: 22-31 % of the original
    assert UNPACK[encoding](body) == original


@pytest.mark.parametrize("name", serving.NAMING_RIVE)
def test_the_compiled_client_asks_no_cdn_for_rives_script_and_is_otherwise_flets_own(server, name):
    """Flet's client adds a <script> from jsDelivr for Rive as it starts: a phone at the table
    with the internet would fetch and run a CDN's code at every opening. The table's copy names
    an about: address instead (a browser fetches nothing), the rest byte for byte Flet's."""
    status, _, body = get(server, name)
    flets = (WEB / name).read_bytes()
    assert status == 200 and serving.RIVE_CDN.encode() in flets
    assert b"cdn.jsdelivr.net" not in body and serving.RIVE_NOWHERE.encode() in body
    assert len(body) == len(flets) and body.replace(serving.RIVE_NOWHERE.encode(), serving.RIVE_CDN.encode()) == flets


def test_a_browser_that_asks_for_both_gets_brotli_and_one_that_asks_for_none_the_file(server):
    original = serving.without_rive_cdn("main.dart.wasm", (WEB / "main.dart.wasm").read_bytes())
    _, headers, body = get(server, "main.dart.wasm", **{"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert headers.get("content-encoding") == "br" and brotli.decompress(body) == original
    _, headers, body = get(server, "main.dart.wasm")
    assert "content-encoding" not in headers and body == original


def test_the_engine_and_compiled_app_are_kept_a_year_under_a_url_that_names_the_flet_version(server):
    from flet_web.version import version

    base = versioned_base(server)
    assert base.startswith("/_v/") and version in base
    for name in ("main.dart.wasm", "main.dart.mjs", "main.dart.js", "canvaskit/skwasm.wasm",
                 "canvaskit/skwasm.js", "canvaskit/chromium/canvaskit.wasm"):
        status, headers, body = get(server, base + name, **{"Accept-Encoding": "br"})
        assert status == 200, name
        cache = headers.get("cache-control", "")
        assert "max-age=31536000" in cache and "immutable" in cache and "public" in cache, (name, cache)
        assert brotli.decompress(body) == serving.without_rive_cdn(name, (WEB / name).read_bytes())
    # Not the isolation headers Flet puts on every file: on them Chromium runs the threaded
    # skwasm, whose page could freeze for good (views/hosts/serving.py OneThread).
    assert "cross-origin-embedder-policy" not in headers
    assert "cross-origin-opener-policy" not in headers


@pytest.mark.parametrize("path", ["/", "/?token=" + TOKEN, "flutter_bootstrap.js", "assets/FontManifest.json",
                                  "assets/fonts/MaterialIcons-Regular.otf", "main.dart.wasm", "favicon.png"])
def test_a_file_at_a_plain_url_is_revalidated_and_a_phone_that_has_it_gets_a_304(server, path):
    kept = {"Cookie": f"{gate.COOKIE}={TOKEN}"}  # the page ("/") is a phone's that was let in
    status, headers, body = get(server, path, **{"Accept-Encoding": "br, gzip"}, **kept)
    assert status == 200 and body
    assert headers.get("cache-control") == "no-cache", headers  # may be kept, but asked about each time
    etag = headers.get("etag")
    assert etag
    status, headers, body = get(server, path, **{"If-None-Match": etag, "Accept-Encoding": "br, gzip"}, **kept)
    assert status == 304 and body == b""


def test_a_changed_file_is_not_answered_with_a_304(server):
    status, _, _ = get(server, "flutter_bootstrap.js", **{"If-None-Match": '"an-older-version"'})
    assert status == 200


def test_the_page_is_compressed_and_the_same_for_every_phone_let_in_with_nothing_of_the_store(server):
    status, headers, packed = get(server, "/?token=" + TOKEN, **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("content-encoding") == "gzip"
    page = gzip.decompress(packed)
    kept = {"Cookie": f"{gate.COOKIE}={TOKEN}"}  # a phone coming back with the cookie the link gave
    for path, headers in (("/game/secret-game?token=" + TOKEN, {}), ("/", kept), ("/game/secret-game", kept)):
        assert get(server, path, **headers)[2] == page, path  # the games come over the websocket
    assert SECRET.encode() not in page and TOKEN.encode() not in page


def test_the_prepared_copy_and_its_bookkeeping_are_not_served(server):
    assert get(server, serving.DONE)[0] == 404
    assert get(server, versioned_base(server) + serving.DONE)[0] == 404
