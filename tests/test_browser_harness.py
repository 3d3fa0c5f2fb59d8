"""The browser harness drives a real Flet app: start server, enable semantics, tap, read back."""

from __future__ import annotations

import pytest

from tests.browser_harness import flet_server, open_app_page, screenshot, semantics_texts, wait_for_text

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def counter_server():
    with flet_server("bench/counter_app.py", port_arg="--port") as server:
        yield server


def test_counter_increments_three_times(browser, counter_server):
    page = open_app_page(browser, counter_server.url)
    try:
        button = page.get_by_role("button", name="Increment")
        wait_for_text(page, "0")
        for _ in range(3):
            button.click()
        wait_for_text(page, "3")
        shot = screenshot(page, "counter_after_3_taps")
        assert shot.stat().st_size > 0
        assert "3" in semantics_texts(page)
        assert "0" not in semantics_texts(page)
    finally:
        page.context.close()


def test_tap_latency_probe_times_each_tap(browser, counter_server):
    from bench.tap_latency import measure_tap_timings

    page = open_app_page(browser, counter_server.url)
    try:
        wait_for_text(page, "0")
        button = page.get_by_role("button", name="Increment")
        timings = measure_tap_timings(page, lambda i: button.click(), lambda i: str(i + 1), n=5)
        assert len(timings) == 5
        for t in timings:
            assert 0 < t.dom_ms < 5_000
            assert t.paint_ms is not None and t.paint_ms >= t.dom_ms
        wait_for_text(page, "5")
    finally:
        page.context.close()


@pytest.mark.slow
def test_stopping_the_server_frees_its_port():
    import socket

    with flet_server("bench/counter_app.py") as server:
        pid, port = server.pid, server.port
    assert server.proc.poll() is not None, f"server {pid} still running"
    with socket.socket() as s, pytest.raises(ConnectionRefusedError):
        s.connect(("127.0.0.1", port))  # nothing listens there any more
