"""A stranger on the Wi-Fi cannot slow the table down (#31): played against `main.py --lan`
with a raw websocket client (tests/strangers.py) from another address than the phones'.
The flood with a phone tapping through it is at the end; its timings are bench/bench_strangers.py's."""
from __future__ import annotations

import asyncio
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import msgpack
import pytest
import websockets
from flet.messaging.protocol import MessageAction

from scoring import Player
from scoring import panda_royale as pr
from storage import Store
from tests.browser_harness import REPO_ROOT, flet_server, open_app_page, wait_for_text
from tests.strangers import MB, Flood, connect, frame, memory_mb, registration, run
from views.hosts.server import CRASHED, WS_MAX_SIZE

pytestmark = pytest.mark.slow

TOKEN = "strangers-token-0123456789abcdef"
NAMES = ["Ann", "Ben", "Cat"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("strangers")
    with Store.open(Path(data)) as store:
        for k in range(3):
            players = tuple(Player(id=f"p{j}", name=name) for j, name in enumerate(NAMES, 1))
            store.save(pr.Record(players=players, id=f"pr-{k}", created=f"2026-11-22T19:0{k}:00Z"), None)
    with flet_server("main.py", args=["--data-dir", str(data), "--lan", "--token", TOKEN], port_arg="--port") as s:
        yield s


def refused(server, token=None, **kwargs) -> int | None:
    """The HTTP status a socket's handshake was refused with, or None if it opened."""
    async def attempt():
        try:
            async with connect(server.url, token, **kwargs):
                return None
        except websockets.InvalidStatus as exc:
            return exc.response.status_code
    return run(attempt())


async def answers(ws, seconds: float) -> list[tuple[int, dict]]:
    """What the server sent within `seconds` (a method call of the app's is answered with
    nothing, as a phone without that service would)."""
    got = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            raw = await asyncio.wait_for(ws.recv(), left)
        except asyncio.TimeoutError:
            break
        action, body = msgpack.unpackb(raw[1:], strict_map_key=False)
        got.append((action, body))
        if action == MessageAction.INVOKE_METHOD.value:
            await ws.send(frame(MessageAction.INVOKE_METHOD, {"control_id": body["control_id"],
                                                              "call_id": body["call_id"], "result": None, "error": None}))
    return got


def test_a_socket_without_the_token_is_refused_before_it_opens(server):
    assert refused(server) == 403
    assert refused(server, "wrong-token-0123456789abcdef") == 403
    # Another site's page in a guest's browser may not ride on the guest's cookie.
    assert refused(server, TOKEN, origin="http://evil.example") == 403
    assert refused(server, TOKEN) is None  # the same socket with the link's cookie opens

    async def registered():
        async with connect(server.url, TOKEN) as ws:
            await ws.send(registration(f"/?token={TOKEN}"))
            return [action for action, _ in await answers(ws, 3)]
    assert MessageAction.REGISTER_CLIENT.value in run(registered())


def test_twenty_fat_registrations_leave_the_memory_where_it_was(server):
    before, _ = memory_mb(server.pid)

    async def twenty():
        fat = registration("/" + "x" * (15 * MB))
        for _ in range(20):
            try:
                async with connect(server.url) as ws:
                    await ws.send(fat)
            except websockets.InvalidStatus:
                pass
    run(twenty())
    after, _ = memory_mb(server.pid)
    assert after - before < 50, f"{before:.0f} MB before, {after:.0f} MB after"


def test_a_15_mb_frame_from_a_phone_with_the_token_is_refused_unread(server):
    """Even a guest's socket cannot send much more than the largest real message: the frame
    is refused by its length, before it is read, let alone decoded (uvicorn's own limit,
    16 MiB, took this one in and Flet decoded it whole)."""
    _, peak_before = memory_mb(server.pid)

    async def fat():
        async with connect(server.url, TOKEN) as ws:
            await ws.send(registration(f"/?token={TOKEN}"))
            try:
                await ws.send(b"\x00" + b"\x80" * (15 * MB))
                await asyncio.wait_for(ws.wait_closed(), 10)
            except websockets.ConnectionClosed:
                pass
            return ws.close_code
    assert run(fat()) == 1009  # "message too big"
    _, peak_after = memory_mb(server.pid)
    assert peak_after - peak_before < 5, f"peak {peak_before:.0f} MB before, {peak_after:.0f} MB after"
    assert WS_MAX_SIZE < 15 * MB


def test_a_frame_of_a_million_empty_maps_is_refused_without_decoding_it_whole(server):
    """Under the size limit, but each of its 1.6 million maps would be an object in the server
    (16 MB of them took 1.16 GB): decoding stops past the few thousand a real frame never needs."""
    bomb = frame(MessageAction.REGISTER_CLIENT, {"session_id": None, "page_name": "",
                                                 "page": {"route": "/", "x": [[{}] * 4000] * 400}})
    assert len(bomb) < WS_MAX_SIZE
    _, peak_before = memory_mb(server.pid)

    async def send_it():
        async with connect(server.url, TOKEN) as ws:
            await ws.send(bomb)
            await asyncio.wait_for(ws.wait_closed(), 10)
            return ws.close_code
    assert run(send_it()) == 1008
    _, peak_after = memory_mb(server.pid)
    assert peak_after - peak_before < 20, f"peak {peak_before:.0f} MB before, {peak_after:.0f} MB after"


@pytest.mark.parametrize("first", [b"\x00\xff\xff", "a text frame", b"\x01\x00\x00\x00\x00data",
                                   frame(MessageAction.CONTROL_EVENT, {"target": 1, "name": "click", "data": None}),
                                   frame(MessageAction.REGISTER_CLIENT, {"page": 5})],
                         ids=["not-msgpack", "text", "data-channel", "event-before-registering", "bad-registration"])
def test_a_malformed_frame_closes_its_socket_within_seconds(server, first):
    async def bad():
        async with connect(server.url, TOKEN) as ws:
            await ws.send(first)
            start = time.monotonic()
            try:
                await asyncio.wait_for(ws.wait_closed(), 10)
            except asyncio.TimeoutError:
                return None
            return time.monotonic() - start
    took = run(bad())
    assert took is not None and took < 5, "the socket was still open 10 s later"


def test_a_guests_malformed_event_is_told_in_words_with_no_traceback(server):
    async def malformed():
        async with connect(server.url, TOKEN) as ws:
            await ws.send(registration(f"/?token={TOKEN}"))
            await answers(ws, 3)
            # The page's route_change with no route: the app's handler fails on it.
            await ws.send(frame(MessageAction.CONTROL_EVENT, {"target": 1, "name": "route_change", "data": None}))
            return await answers(ws, 3)
    got = run(malformed())
    crashed = [body["message"] for action, body in got if action == MessageAction.SESSION_CRASHED.value]
    assert crashed == [CRASHED]
    sent = b"".join(msgpack.packb(body) for _, body in got)
    for leak in (b"Traceback", str(REPO_ROOT).encode(), b".py"):
        assert leak not in sent


def test_sockets_from_one_address_are_capped_and_others_still_come_in(server):
    from views.hosts.gate import Limits

    async def many():
        sockets = [await connect(server.url, TOKEN, address="127.0.0.4") for _ in range(Limits.sockets_per_address)]
        try:
            try:
                async with connect(server.url, TOKEN, address="127.0.0.4"):
                    one_more = None
            except websockets.InvalidStatus as exc:
                one_more = exc.response.status_code
            async with connect(server.url, TOKEN, address="127.0.0.1"):
                other = "opened"
            return one_more, other
        finally:
            for ws in sockets:
                await ws.close()
    assert run(many()) == (403, "opened")


def test_wrong_tokens_from_one_address_are_made_to_wait(server):
    def page(token: str, address: str) -> int:
        host_port = server.url.split("//", 1)[1].rstrip("/")
        # urllib cannot bind a source address; http.client can.
        import http.client
        conn = http.client.HTTPConnection(host_port, timeout=10, source_address=(address, 0))
        try:
            conn.request("GET", f"/?token={token}")
            return conn.getresponse().status
        finally:
            conn.close()

    guesser = "127.0.0.3"
    from views.hosts.gate import Limits
    assert [page(f"guess-{k}-0123456789abcdef", guesser) for k in range(Limits.guesses)] == [403] * Limits.guesses
    assert page("guess-x-0123456789abcdef", guesser) == 429
    assert page(TOKEN, guesser) == 429  # not even checked: a right guess is not told apart
    assert refused(server, TOKEN, address=guesser) == 403
    assert page(TOKEN, "127.0.0.1") == 200  # the phones at the table are not slowed


@pytest.mark.browser
def test_a_guest_taps_through_a_strangers_flood(browser, server):
    page = open_app_page(browser, f"{server.url}game/pr-0?token={TOKEN}")
    try:
        wait_for_text(page, "Round 1 of 10")
        _, peak_before = memory_mb(server.pid)
        with Flood(server.url) as flood:
            for k, die in enumerate((3, 5, 6, 2, 4, 1)):
                page.get_by_role("button", name=f"Yellow {die}", exact=True).tap()
                wait_for_text(page, f"Hand total {sum((3, 5, 6, 2, 4, 1)[:k + 1])}")
                assert page.get_by_text(re.compile("Not connected")).count() == 0
                time.sleep(1.5)  # the flood goes on between taps: about ten seconds in all
        _, peak_after = memory_mb(server.pid)
        print("the flood:", dict(flood.outcomes))
        assert sum(flood.outcomes.values()) > 20, flood.outcomes  # the flood did flood
        assert not flood.outcomes["socket let in"]
        assert peak_after - peak_before < 50, f"peak {peak_before:.0f} MB before, {peak_after:.0f} MB during"
    finally:
        page.context.close()


def test_plain_http_with_a_wrong_token_sees_the_door_not_the_app(server):
    try:
        urllib.request.urlopen(f"{server.url}?token=wrong-0123456789abcdefgh", timeout=10)
        status = 200
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read()
    assert status == 403 and b"This table is private" in body and b"flutter" not in body.lower()
