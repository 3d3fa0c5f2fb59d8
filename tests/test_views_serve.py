"""Starting the app: what `python main.py` says when it cannot do what was asked, and the
split that keeps the pad's logic free of Flet."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.browser_harness import REPO_ROOT, flet_server, send_garbage
from views.hosts import serving
from views.hosts.server import SHUTDOWN_GRACE, serve_the_client_compressed


def run_main(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    full_env.update(env or {})
    return subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=60, env=full_env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args,words", [
    (["--token", "sesame-0123456789abcdef"], "--token goes with --lan"),
    (["--lan", "--token", "short"], "--token: 16 to 128"),
    (["--lan", "--token", "has spaces and more than sixteen"], "--token: 16 to 128"),
    (["--lan", "--desktop"], "leave out --desktop"),
])
def test_table_mode_options_that_cannot_work_are_one_line_and_status_2(tmp_path, args, words):
    out = run_main(*args, "--data-dir", str(tmp_path))
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]
    assert not any(tmp_path.iterdir())  # refused before the store was opened


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is Linux's")
def test_desktop_without_a_display_says_so(tmp_path):
    env = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}
    out = run_main("--desktop", "--data-dir", str(tmp_path), env=env)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "--desktop" in lines[0]


def test_pad_logic_imports_no_flet():
    code = "import sys, views.pads.panda_royale.state, views.pads.royal_ur.state; print('flet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT,
                         env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.slow
def test_ctrl_c_stops_the_table_server_even_after_a_client_sent_garbage(tmp_path):
    """Bytes Flet cannot read, sent before a page registered, used to leave a task of Flet's
    waiting for ever: the server then never stopped on Ctrl+C (still running 30 s later)."""
    args = ["--data-dir", str(tmp_path), "--lan", "--token", "garbage-0123456789abcdef"]
    with flet_server("main.py", args=args, port_arg="--port") as server:
        send_garbage(server, "garbage-0123456789abcdef")  # a socket let in, then garbage
        start = time.monotonic()
        os.killpg(server.pid, signal.SIGINT)  # what Ctrl+C sends
        try:
            server.proc.wait(timeout=SHUTDOWN_GRACE + 20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server still ran {SHUTDOWN_GRACE + 20} s after Ctrl+C")
        assert time.monotonic() - start < SHUTDOWN_GRACE + 20


def test_without_a_usable_cache_folder_the_app_is_served_as_before_and_says_so(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(serving.CACHE_ENV, str(blocker / "cache"))
    serve_the_client_compressed()
    assert "uncompressed" in capsys.readouterr().out
    import flet_web.fastapi
    assert not getattr(flet_web.fastapi.app, "pandapad_client", False)  # Flet's app, untouched


def test_the_index_is_pointed_at_the_versioned_copy_only_where_flet_wrote_its_lines(tmp_path):
    index = tmp_path / "index.html"
    index.write_text('<script>\nflet.canvasKitBaseUrl="/canvaskit/";\nflet.entrypointBaseUrl="/";\n'
                     'flet.assetBase="/";\n</script>')
    serving.versioned_index(str(index), "1.0.5-abc")
    text = index.read_text()
    assert 'flet.entrypointBaseUrl="/_v/1.0.5-abc/"' in text
    assert 'flet.canvasKitBaseUrl="/_v/1.0.5-abc/canvaskit/"' in text
    assert 'flet.assetBase="/"' in text  # the app's own assets keep their URLs
    other = tmp_path / "other.html"
    other.write_text("<script>flet.entrypointBaseUrl = '/';</script>")
    serving.versioned_index(str(other), "1.0.5-abc")
    assert other.read_text() == "<script>flet.entrypointBaseUrl = '/';</script>"  # left alone
