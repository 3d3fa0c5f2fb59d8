"""A camera for the browser tests of #53: what one phone shows, played to another as its camera.

Chromium's fake capture device (`--use-fake-device-for-media-stream`) plays a YUV4MPEG2 file
(`--use-file-for-fake-video-capture=FILE.y4m`) in a loop, read when a capture starts: the file
can be written again between two readings (phones-together.md, "Testing it here"). A picture is
a screenshot of the other phone's page, laid on a grey ground as a phone held up to a camera."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

from PIL import Image

# What the camera films (4:3, as a phone's back camera gives by default), and its frame rate.
WIDTH, HEIGHT = 640, 480
FPS = 12


def camera_args(y4m: Path) -> list[str]:
    """Chromium's flags for a camera that plays `y4m`. A page may use it where its context was
    given the permission (ALLOWED), as a person allows it when the browser asks; elsewhere the
    browser refuses it (NotAllowedError), as when the person said no. (Chromium's
    --use-fake-ui-for-media-stream would allow it everywhere, whatever the permissions.)"""
    return ["--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={y4m}"]


ALLOWED = {"permissions": ["camera"]}  # a context whose person allowed the camera


def _filmed(png: bytes) -> Image.Image:
    """The screenshot as the camera sees it: whole, centred, on a mid-grey ground."""
    shot = Image.open(io.BytesIO(png)).convert("RGB")
    shot.thumbnail((WIDTH - 40, HEIGHT - 40))
    ground = Image.new("RGB", (WIDTH, HEIGHT), (128, 128, 128))
    ground.paste(shot, ((WIDTH - shot.width) // 2, (HEIGHT - shot.height) // 2))
    return ground


def _i420(image: Image.Image) -> bytes:
    y, cb, cr = image.convert("YCbCr").split()
    half = (WIDTH // 2, HEIGHT // 2)
    return y.tobytes() + cb.resize(half, Image.BILINEAR).tobytes() + cr.resize(half, Image.BILINEAR).tobytes()


def write_y4m(path: Path, shots: Sequence[bytes], frames_each: int = 3) -> Path:
    """Film `shots` (PNG screenshots) one after another, each held `frames_each` frames (at 12
    frames a second, 3 is a quarter of a second: the pace of the sending phone's loop)."""
    header = f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode()
    # Nothing to film: a grey picture, as a camera pointed at nothing in particular.
    frames = [_i420(_filmed(png)) for png in shots] or [_i420(Image.new("RGB", (WIDTH, HEIGHT), (128, 128, 128)))]
    with open(path, "wb") as out:
        out.write(header)
        for frame in frames:
            for _ in range(frames_each):
                out.write(b"FRAME\n")
                out.write(frame)
    return path
