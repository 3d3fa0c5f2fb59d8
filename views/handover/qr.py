"""Every QR code a screen shows: Send to another phone (#53), a table of phones' invitation and
answer (#54), Invite players and the BG Stats link. No Flet.

A screen hands a code to `ft.Image` as base64 text (`code_src`), never as PNG bytes (#69). Flet's
client keeps an Image's bytes as a view into the whole message they came in (its msgpack), and
Flutter's web engine, in a browser it gives no ImageDecoder (Firefox, Safari: every iPhone),
decodes the view's whole buffer: the message, which no browser takes for a picture
(`EncodingError`), and the card stayed blank. Base64 text is decoded by the client into bytes of
their own. Chromium decodes both."""
from __future__ import annotations

import base64
import io

DARK, LIGHT = "#1A1A1A", "#FFFFFF"  # in dark mode too: a camera reads dark modules on white


def code_png(text: str, *, error: str = "m", scale: int = 8, border: int = 4, boost_error: bool = False) -> bytes:
    """The code as a PNG, `scale` pixels a module, `border` modules of white around it."""
    import segno  # at first use, as before: most screens show no code
    out = io.BytesIO()
    segno.make(text, error=error, boost_error=boost_error).save(out, kind="png", scale=scale, border=border,
                                                                dark=DARK, light=LIGHT)
    return out.getvalue()


def code_src(text: str, **how) -> str:
    """What an `ft.Image` is given to show the code (`how`: code_png's options): its PNG as base64
    text, which every browser's engine paints (above)."""
    return base64.b64encode(code_png(text, **how)).decode("ascii")
