"""The phone build's home-screen icons (#46), made as make web makes them (web/build.py icons())
into a folder of the test's own: no build/web needed, no browser.

A launcher cuts a maskable icon to its own shape (Android: a circle, a rounded square...); only
a centred circle of radius 40 % of the icon's size (the W3C "safe zone") is sure to be seen, and
everything outside it may be. So the icon's ground must reach every corner, and its motif (the
die) must stay inside that circle."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
SAFE_ZONE = 0.40
WHITE = (255, 255, 255)


def load_build():
    spec = importlib.util.spec_from_file_location("pandapad_web_build", ROOT / "web" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """What flet publish leaves for icons() (a manifest naming the icons, without a purpose,
    and an icons folder), then icons() run on it."""
    site = tmp_path_factory.mktemp("web")
    (site / "icons").mkdir()
    (site / "manifest.json").write_text(json.dumps({
        "name": "Pandapad", "short_name": "Pandapad", "start_url": ".", "display": "standalone",
        "background_color": "#FFFFFF", "theme_color": "#2E7D32", "orientation": "portrait",
        "icons": [{"src": f"icons/{name}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
                   **({"purpose": "maskable"} if "maskable" in name else {})}
                  for name in ("icon", "icon-maskable") for size in (192, 512)]}))
    load_build().icons(site)
    return site


def ground() -> tuple[int, int, int]:
    """The colour assets/icon.png draws its die on: its green, at the middle of its top edge."""
    art = Image.open(ROOT / "assets" / "icon.png").convert("RGBA")
    colour = art.getpixel((art.width // 2, art.height // 20))
    assert colour[3] == 255, "the art's ground was looked for where the art is opaque"
    return colour[:3]


def safe_circle(size: int) -> Image.Image:
    circle = Image.new("L", (size, size), 0)
    r = SAFE_ZONE * size
    ImageDraw.Draw(circle).ellipse((size / 2 - r, size / 2 - r, size / 2 + r, size / 2 + r), fill=255)
    return circle


def maskables(site: Path) -> list[tuple[int, Image.Image]]:
    manifest = json.loads((site / "manifest.json").read_text())
    found = [icon for icon in manifest["icons"] if "maskable" in icon.get("purpose", "").split()]
    assert found, f"the manifest names no maskable icon: {manifest['icons']}"
    icons = []
    for icon in found:
        image = Image.open(site / icon["src"])
        assert f"{image.width}x{image.height}" == icon["sizes"], icon
        icons.append((image.width, image.convert("RGBA")))
    return icons


def test_the_manifest_names_a_maskable_icon_and_the_others_any(site):
    icons = json.loads((site / "manifest.json").read_text())["icons"]
    purposes = {icon["src"]: icon.get("purpose", "any") for icon in icons}
    assert purposes == {"icons/icon-192.png": "any", "icons/icon-512.png": "any",
                        "icons/icon-maskable-192.png": "maskable", "icons/icon-maskable-512.png": "maskable"}
    for src in purposes:
        assert (site / src).is_file(), src


def test_the_maskable_icon_is_its_ground_out_to_every_corner(site):
    green = ground()
    assert green != WHITE
    for size, icon in maskables(site):
        # Opaque everywhere: a mask of any shape shows no hole and no ring.
        assert icon.getchannel("A").getextrema() == (255, 255), f"{size}: transparent pixels"
        for corner in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)):
            assert icon.getpixel(corner)[:3] == green, f"{size}: corner {corner} is {icon.getpixel(corner)}"


def test_the_maskable_icons_motif_is_inside_the_safe_zone(site):
    green = ground()
    for size, icon in maskables(site):
        differs = ImageChops.difference(icon.convert("RGB"), Image.new("RGB", (size, size), green))
        differs = differs.convert("L").point(lambda v: 255 if v else 0)
        outside = ImageChops.subtract(differs, safe_circle(size)).getbbox()
        assert outside is None, f"{size}: pixels not the ground outside the safe zone, within {outside}"
        # And the die is there, not shrunk to nothing: it spans most of the safe zone, in white.
        box = differs.getbbox()
        assert box is not None and box[2] - box[0] > 0.45 * size and box[3] - box[1] > 0.45 * size, (size, box)
        assert WHITE in {colour[:3] for _, colour in icon.getcolors(size * size)}, f"{size}: no white die"


def test_the_iphone_icon_has_no_transparent_corners(site):
    """iOS rounds a home-screen icon's corners itself and fills transparent ones with black."""
    icon = Image.open(site / "icons" / "apple-touch-icon-192.png").convert("RGBA")
    assert icon.getchannel("A").getextrema() == (255, 255)
    assert icon.getpixel((0, 0))[:3] == ground()
