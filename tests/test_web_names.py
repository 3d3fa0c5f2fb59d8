"""The phone build names only files it holds (#55): the opening screen asked for
fonts/pandapad-ja.woff2 after that font had gone from the build, and a static host answered with
index.html. web/build.py now stops on any page or stylesheet that names a file the site lacks;
these tests show it stopping on such a name, in a site of the test's own, and the opening screen's
Japanese, Korean and Chinese words drawn with slices the site serves. No browser."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.test_web_icons import load_build

ROOT = Path(__file__).resolve().parent.parent
BUILT = ROOT / "build" / "web"
# The line the issue found in web/opening.html, as it was.
GONE_FONT = """<style>
  @font-face { font-family: "Pandapad Japanese"; src: url("fonts/pandapad-ja.woff2") format("woff2"); }
</style>"""


@pytest.fixture(scope="module")
def build():
    return load_build()


def site_with(tmp_path: Path, page: str, css: str = "") -> Path:
    site = tmp_path / "web"
    (site / "icons").mkdir(parents=True)
    (site / "icons" / "icon-192.png").write_bytes(b"\x89PNG")
    (site / "flutter_bootstrap.js").write_text("//")
    (site / "index.html").write_text(f"""<!DOCTYPE html><html><head><base href="/">
  <link rel="manifest" href="manifest.json"><script src="flutter_bootstrap.js"></script>
  <link rel="icon" href="https://example.invalid/other-host.png">{page}</head>
  <body><img src="icons/icon-192.png" alt=""><img src="data:image/png;base64,AAAA" alt=""><a href="#top">top</a>
  </body></html>""")
    (site / "manifest.json").write_text("{}")
    if css:
        (site / "styles").mkdir()
        (site / "styles" / "app.css").write_text(css)
    return site


def test_a_page_naming_a_font_the_site_does_not_hold_stops_the_build(build, tmp_path):
    site = site_with(tmp_path, GONE_FONT)
    assert build.unnamed_files(site) == ["index.html: fonts/pandapad-ja.woff2"]
    with pytest.raises(SystemExit, match=re.escape("index.html: fonts/pandapad-ja.woff2")):
        build.named_files_present(site)


def test_a_stylesheet_is_read_from_its_own_folder_and_a_site_holding_every_name_builds(build, tmp_path):
    site = site_with(tmp_path, "", css='body { background: url("../icons/icon-192.png"); } '
                                         'i { background: url(../icons/gone.png) }')
    assert build.unnamed_files(site) == ["styles/app.css: ../icons/gone.png"]
    (site / "icons" / "gone.png").write_bytes(b"\x89PNG")
    assert build.unnamed_files(site) == []
    build.named_files_present(site)  # stops nothing


def test_a_site_under_a_path_reads_its_names_against_that_path(build, tmp_path):
    site = site_with(tmp_path, '<link rel="apple-touch-icon" href="/pandapad/icons/icon-192.png">'
                               '<link rel="preload" href="/pandapad/icons/missing.png">')
    assert build.unnamed_files(site, "/pandapad/") == ["index.html: /pandapad/icons/missing.png"]


@pytest.mark.skipif(not (BUILT / "sw.js").exists(), reason="make test builds build/web first")
def test_the_built_site_names_only_its_own_files_and_draws_the_opening_words_with_served_slices(build):
    base = os.environ.get("PANDAPAD_BASE_URL") or "/"
    assert build.unnamed_files(BUILT, base) == []
    html = (BUILT / "index.html").read_text(encoding="utf-8")
    assert "pandapad-ja.woff2" not in html
    for code, folder in (("ja", "notosansjp"), ("ko", "notosanskr"), ("zh", "notosanssc")):
        faces = re.findall(rf'font-family: "Pandapad {code}"; src: url\("(assets/fonts/{folder}/[^"]+)"\)', html)
        assert faces, code
        assert all((BUILT / face).is_file() for face in faces), code
