"""Every QR code a screen shows reaches Flet's client as base64 text, never as bytes (#69,
views/handover/qr.py): bytes reach Flutter as a view into their whole message, which Firefox and Safari
were given to decode, and the card stayed blank. tests/test_browser_engines.py shows the codes
painted and read in Firefox and WebKitGTK."""
from __future__ import annotations

import ast
import base64
import io
import re
from pathlib import Path

import segno
from PIL import Image

from tests import finished_examples as fx
from tests.test_send import Page, saved
from views.handover import qr
from views.hosts.host import Host
from views.table import phones
from views.pads.pad import share
from views.handover.send import SendScreen, code_png, code_src
from views.table.table import qr_src

VIEWS = Path(__file__).resolve().parent.parent / "views"
FRAME = "PP1:1/1:ABCD:" + "0123456789ABCDEF $%*+-./:" * 8  # the alphanumeric set a frame is written in


def taken_for_base64(src) -> bytes:
    """What Flet 1.0.5's client makes of an Image's src (its compiled `a67` in main.dart.js): a
    text starting with http(s):// or www., or holding a '.', is an address; other text is
    base64, decoded into bytes of their own. Returns those bytes."""
    assert isinstance(src, str), type(src)
    assert not re.match(r"^(https?://|www\.)", src.strip()) and "." not in src, src[:40]
    return base64.b64decode(src, validate=True)


def test_a_code_is_given_as_base64_text_of_its_png():
    png = taken_for_base64(qr.code_src(FRAME))
    assert png == qr.code_png(FRAME) and png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.getpixel((0, 0)) == (255, 255, 255) and image.getpixel((4 * 8, 4 * 8)) == (0x1A, 0x1A, 0x1A)


def test_send_shows_each_frame_as_that_text():
    screen = SendScreen(Page(), None, saved(fx.pandoria()), lambda route: None)
    assert [taken_for_base64(c.src) for c in screen.codes] == [code_png(f) for f in screen.frames]
    assert code_src(screen.frames[0]) == screen.codes[0].src


def test_the_invite_and_the_bg_stats_link_keep_their_codes_in_that_text():
    link = "http://192.168.1.20:8550/?token=" + "x" * 32
    invite = segno.make(link, error="m")
    png = taken_for_base64(qr_src(link, scale=8))
    assert Image.open(io.BytesIO(png)).size == (invite.symbol_size(scale=8, border=3)[0],) * 2
    bg = "https://app.bgstatsapp.com/createPlay.html?data=%7B%22game%22%3A%7B%7D%7D"
    png = taken_for_base64(share.qr_src(bg))
    assert Image.open(io.BytesIO(png)).size == (segno.make(bg, error="l", boost_error=False).symbol_size(
        scale=3, border=3)[0],) * 2


def test_only_views_qr_makes_a_code_picture():
    """One way for every screen: segno's PNG is made in views/handover/qr.py alone (table.py's terminal
    code is text, for the laptop's terminal)."""
    makers = []
    for path in VIEWS.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "save" \
                    and any(k.arg == "kind" for k in node.keywords):
                makers.append(path.relative_to(VIEWS).as_posix())
    assert makers == ["handover/qr.py"], makers


def test_a_table_of_phones_shows_its_invitation_and_answer_in_that_text():
    screen = phones.JoinTableScreen(Page(), Host(), lambda route: None, lambda guest: None)
    screen.say("Show this code to the host's phone", code=FRAME)
    assert screen.code.visible and taken_for_base64(screen.code.src) == code_png(FRAME)
