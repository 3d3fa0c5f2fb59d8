"""Send to another phone (#53), without a browser: the frames the screen shows are storage.handoff's
for the games given, each a QR code another phone's camera reads at arm's length, the words under
them, the loop's steps, and which games History chooses as tonight's."""
from __future__ import annotations

import asyncio
import io
from datetime import datetime, timezone
from types import SimpleNamespace

import flet as ft
import pytest
import segno
from PIL import Image

from storage.handoff import frames_of
from tests import finished_examples as fx
from tests.loops import run_apart
from views.handover import send
from views.screens.history_state import evening_of, send_label, send_route, sendable, tonights
from views.handover.send import SendScreen, code_png, code_side, code_src, frame_caption, game_line, players_line, what_to_do


class Page:
    """What the screen uses of a page: its size, whether it is a browser, updates and tasks."""
    width, height = 360, 740

    def __init__(self, web: bool = True):
        self.web = web
        self.updates: list[tuple] = []
        self.tasks: list = []

    def update(self, *controls):
        self.updates.append(controls)

    def run_task(self, fn, *args):
        self.tasks.append((fn, args))
        return SimpleNamespace(cancel=lambda: self.tasks.append("cancelled"))


def saved(*records):
    return [SimpleNamespace(record=r) for r in records]


def texts(control) -> list[str]:
    """Every Text's words under a control, in order."""
    out = []
    if isinstance(control, ft.Text):
        out.append(control.value)
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        for c in child if isinstance(child, list) else [child] if child is not None else []:
            if isinstance(c, ft.Control):
                out += texts(c)
    return out


def test_the_frames_shown_are_the_handoffs_for_the_games_given_the_same_each_time_they_are_sent():
    games = [fx.ten_players(), fx.pandoria()]
    screen = SendScreen(Page(), None, saved(*games), lambda route: None)
    # Stamped with the games' last moment: sent again (a screen drawn anew), the same codes.
    assert screen.frames == frames_of([g.model_dump(mode="json") for g in games], fx.FINISHED)
    assert SendScreen(Page(), None, saved(*games), lambda route: None).frames == screen.frames
    assert len(screen.frames) > 1 and len(screen.codes) == 1  # the others made by the loop's task
    run_apart(screen.make_codes())
    assert [c.src for c in screen.codes] == [code_src(f) for f in screen.frames]
    assert screen.stack.controls[-1] is screen.codes[0]  # the first on top, the others under it
    assert screen.view.route == "/send/share-ten,share-pa"


def test_more_games_than_a_camera_reads_in_one_go_are_said_in_words_with_the_file_offered():
    from storage import samples
    night = [r for r in samples.history(3, 200)][:200]
    screen = SendScreen(Page(), None, saved(*night), lambda route: None)
    assert screen.codes == [] and screen.problem.visible
    assert screen.problem.value.startswith("These games need more codes than a camera reads in one go.")


@pytest.mark.parametrize("make", [fx.pandoria, fx.ten_players])
def test_every_code_is_level_m_version_20_at_most_alphanumeric_with_its_quiet_zone(make):
    for text in frames_of([make().model_dump(mode="json")], "2026-11-28T05:00:00Z"):
        code = segno.make(text, error="m", boost_error=False)
        assert code.error == "M" and code.version <= 20 and code.mode == "alphanumeric"
        image = Image.open(io.BytesIO(code_png(text)))
        assert image.size == ((code.symbol_size(scale=1, border=4)[0]) * 8,) * 2  # 4 white modules each side
        rgb = image.convert("RGB")
        assert rgb.getpixel((0, 0)) == (255, 255, 255) and rgb.getpixel((4 * 8, 4 * 8)) == (0x1A, 0x1A, 0x1A)


def test_the_code_is_whole_on_a_small_phone_and_never_larger_than_480():
    assert code_side(360, 740, 100) == 328
    assert code_side(1280, 900, 64) == 480
    assert code_side(915, 412, 64) == 412 - 64 - 32  # a phone on its side: whole below the bar


def test_one_game_says_its_name_day_and_players_and_what_to_do():
    game = fx.pandoria()
    screen = SendScreen(Page(), None, saved(game), lambda route: None)
    said = texts(screen.view.controls[0])
    assert "Pandoria" in said and players_line(game) in said and what_to_do() in said
    assert players_line(game) == "A and B"
    assert not screen.caption.visible  # one code: no "Code 1 of 1"
    assert screen.task is None
    assert game_line(game).startswith("Pandoria, ")


def test_a_loop_steps_through_its_frames_changing_only_the_codes_and_the_caption():
    page = Page()
    screen = SendScreen(page, None, saved(fx.ten_players(), fx.pandoria()), lambda route: None)
    run_apart(screen.make_codes())
    n = len(screen.frames)
    assert screen.caption.visible and screen.caption.value == frame_caption(1, n) == f"Code 1 of {n}"
    assert [c.opacity for c in screen.codes] == [1.0] + [0.0] * (n - 1)
    changed = screen.step()
    assert changed == [screen.codes[1], screen.caption, screen.codes[0]]  # the next shown before the last hides
    assert screen.caption.value == f"Code 2 of {n}" and [c.opacity for c in screen.codes][:2] == [0.0, 1.0]
    for _k in range(n - 1):
        screen.step()
    assert screen.caption.value == f"Code 1 of {n}"  # round again
    said = texts(screen.view.controls[0])
    assert "2 games" in said and players_line(fx.pandoria()) in said
    screen.close()
    assert "cancelled" in page.tasks


def test_the_loop_ends_when_the_screen_closes():
    page = Page()
    screen = SendScreen(page, None, saved(fx.ten_players()), lambda route: None)
    send.TICK, tick = 0.01, send.TICK
    try:
        async def walk():
            task = asyncio.create_task(screen.loop())
            # Until the other codes are made and the loop has ticked twice (its own updates), then leave.
            for _ in range(1000):
                if len(page.updates) >= len(screen.frames) + 1:
                    break
                await asyncio.sleep(0.01)
            screen.close()
            await asyncio.wait_for(task, 1)
        run_apart(walk())
    finally:
        send.TICK = tick
    made, ticks = page.updates[:len(screen.frames) - 1], page.updates[len(screen.frames) - 1:]
    assert made == [(screen.stack,)] * (len(screen.frames) - 1)  # each code made, then the loop
    assert ticks and all(len(u) == 3 for u in ticks)


def test_a_phone_app_asks_for_full_brightness_and_gives_it_back(monkeypatch):
    asked = []

    class Brightness:
        async def set_application_screen_brightness(self, value):
            asked.append(value)

        async def reset_application_screen_brightness(self):
            asked.append("reset")
    monkeypatch.setattr(ft, "ScreenBrightness", Brightness)
    page = Page(web=False)
    screen = SendScreen(page, None, saved(fx.pandoria()), lambda route: None)
    screen.close()
    for fn, args in [t for t in page.tasks if t != "cancelled"]:
        run_apart(fn(*args))
    assert asked == [1.0, "reset"]
    browser = Page(web=True)
    SendScreen(browser, None, saved(fx.pandoria()), lambda route: None).close()
    assert browser.tasks == []  # a browser has no such control: nothing asked, nothing to give back


def local(y, mo, d, h, mi=0) -> str:
    return datetime(y, mo, d, h, mi).astimezone().astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def row(gid, finished):
    return {"id": gid, "game": "pandoria", "created": finished, "finished": finished, "players": (), "winners": ()}


def test_tonights_games_are_the_finished_games_of_the_last_evening_past_midnight_too():
    rows = [row("live", None), row("late", local(2026, 11, 25, 1, 30)), row("c", local(2026, 11, 24, 22)),
            row("b", local(2026, 11, 24, 19)), row("before", local(2026, 11, 23, 23)),
            row("morning", local(2026, 11, 24, 7))]
    assert tonights(rows) == ["late", "c", "b", "morning"]
    assert evening_of(local(2026, 11, 25, 1, 30)) == evening_of(local(2026, 11, 24, 19))
    assert tonights([row("live", None)]) == [] and tonights([]) == []
    assert not sendable(rows[0]) and sendable(rows[1])


def test_the_send_route_and_button_name_the_games():
    assert send_route(["a", "b"]) == "/send/a,b"
    assert send_label(0) == "Send 0 games" and send_label(1) == "Send 1 game" and send_label(3) == "Send 3 games"
