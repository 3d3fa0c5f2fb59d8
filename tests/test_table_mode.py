"""Table mode without a browser: the access token, the printed link and QR code, and what the
server answers to plain HTTP requests from a phone that has no token."""
from __future__ import annotations

import io
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import segno

from scoring import Player
from scoring import panda_royale as pr
from storage import Store
from tests.browser_harness import REPO_ROOT, free_port, stop_server, wait_for_http
from views.table.table import Access, invite_url, new_token, qr_terminal

SECRET_NAME = "Zebedee Quartermaine"
TOKEN = "table-token-0123456789abcdef"


def test_the_right_token_only():
    access = Access(TOKEN)
    assert access.admits(TOKEN)
    for wrong in (None, "", TOKEN[:-1], TOKEN + "x", TOKEN.upper(), "é" * 28):
        assert not access.admits(wrong)
    assert Access(None).admits(None)  # 127.0.0.1 only: no token asked


def test_a_new_token_has_at_least_128_random_bits():
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    for t in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", t) and len(t) * 6 >= 128


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory):
    data = tmp_path_factory.mktemp("lan")
    record = pr.Record(players=(Player(id="a", name=SECRET_NAME), Player(id="b", name="Ben")),
                       id="secret-game-id-1234", created="2026-11-22T19:04:00Z")
    record = pr.add_die(record, 0, "a", "yellow", 4)
    with Store.open(Path(data)) as store:
        store.save(record, None)
    port = free_port()
    log = data / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, str(REPO_ROOT / "main.py"), "--lan", "--token", TOKEN,
                                 "--port", str(port), "--data-dir", str(data)],
                                cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/", proc=proc)
        # The banner is printed (flushed) before the server starts, so it is whole by now: its last
        # line is waited for all the same, briefly, rather than a fixed half second.
        deadline = time.monotonic() + 10
        while "Ctrl+C stops it." not in log.read_text(encoding="utf-8") and time.monotonic() < deadline:
            time.sleep(0.05)
        yield port, log.read_text(encoding="utf-8")
    finally:
        stop_server(proc)


def test_lan_prints_the_link_with_the_token_and_its_qr_code(lan_server):
    port, printed = lan_server
    link = re.search(r"served to the table at (http://\S+)", printed).group(1)
    host = re.match(r"http://([\d.]+):", link).group(1)
    assert link == invite_url(host, port, TOKEN)
    assert not host.startswith("127.")                 # this machine's address on the network
    assert qr_terminal(link) in printed                  # the QR code is of exactly that link
    # The host link (#24): a token of its own, new at each start, printed only here.
    host_link = re.search(r"Host link \(keep it to yourself; open it on the laptop or a tablet\): (http://\S+)",
                          printed).group(1)
    host_token = host_link.split("?token=")[1]
    assert host_link == invite_url(host, port, host_token)
    assert host_token != TOKEN and len(host_token) * 6 >= 128
    assert f"http://127.0.0.1:{port}/?token={host_token}" in printed
    assert printed.count(host_token) == 2 and printed.count(TOKEN) == 1  # the QR code has the guests' only


def test_the_qr_code_is_a_standard_one_of_the_link():
    link = invite_url("192.168.1.20", 8550, TOKEN)
    drawn = qr_terminal(link)
    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True, border=2)
    assert drawn == out.getvalue() and "█" in drawn


def fetch(url: str, method: str = "GET") -> tuple[int, bytes]:
    request = urllib.request.Request(url, method=method, data=b"x" * 100 if method == "PUT" else None)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.mark.parametrize("path,method", [
    ("/", "GET"), ("/index.html", "GET"), ("/game/secret-game-id-1234", "GET"), ("/big/secret-game-id-1234", "GET"),
    ("/invite", "GET"), ("/ws", "GET"), ("/upload", "PUT"), ("/oauth_callback", "GET"), ("/manifest.json", "GET"),
    ("/favicon.png", "GET"), ("/assets/icon.png", "GET"), ("/export", "GET"), ("/api/games", "GET"),
])
def test_plain_http_gives_away_no_game_and_no_name(lan_server, path, method):
    port, _ = lan_server
    status, body = fetch(f"http://127.0.0.1:{port}{path}", method)
    assert status < 500
    for secret in (SECRET_NAME, "secret-game-id-1234", TOKEN):
        assert secret.encode() not in body, f"{path} shows {secret!r}"
