"""tests/phone_net.py proves itself (#54): two phones, each a Chromium in a network namespace of its
own on one virtual Wi-Fi, open a WebRTC data channel with no server (the SDP carried by the test,
as a code would carry it), over their Wi-Fi addresses only, and reach nothing outside it."""
from __future__ import annotations

import http.server
import ipaddress
import os
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.phone_net import SUBNET, grouped, weigh, wifi

pytestmark = [pytest.mark.browser]

# One side of a data channel: the camera asked first, as the app will, then the offer (or, given one,
# the answer), returned once ICE gathering is complete, every candidate in it. The capture permission
# is what matters (shared/docs/phones-together.md): tried here, with it granted (ALLOWED) and this
# call left out the candidates are still gathered; with neither, none is and the test fails.
PEER_JS = """async ({offer}) => {
  const stream = await navigator.mediaDevices.getUserMedia({video: true});
  stream.getTracks().forEach(track => track.stop());
  const pc = new RTCPeerConnection();
  const gathered = new Promise(done => pc.addEventListener("icegatheringstatechange",
    () => pc.iceGatheringState === "complete" && done()));
  const channel = offer
    ? new Promise(got => pc.addEventListener("datachannel", e => got(e.channel), {once: true}))
    : Promise.resolve(pc.createDataChannel("table"));
  let message;
  const opened = channel.then(ch => {
    message = new Promise(got => ch.addEventListener("message", e => got(e.data), {once: true}));
    return ch.readyState === "open" ? ch : new Promise(ok => ch.addEventListener("open", () => ok(ch), {once: true}));
  });
  window.peer = {pc, opened, message: () => opened.then(() => message)};
  if (offer) {
    await pc.setRemoteDescription({type: "offer", sdp: offer});
    await pc.setLocalDescription(await pc.createAnswer());
  } else {
    await pc.setLocalDescription(await pc.createOffer());
  }
  if (pc.iceGatheringState !== "complete") await gathered;
  return pc.localDescription.sdp;
}"""

# A promise of the page's, or a clear failure after `ms` with the ICE state (a deadline, not a wait).
WITHIN_JS = """async ({what, ms}) => Promise.race([eval(what), new Promise((_, no) => setTimeout(
  () => no(new Error(`${what}: nothing within ${ms} ms; ICE ${peer.pc.iceConnectionState}`)), ms))])"""


def candidates(sdp: str) -> list[str]:
    """The address of each candidate line (a=candidate:foundation component transport priority ADDRESS port ...)."""
    return [line.split()[4] for line in sdp.splitlines() if line.startswith("a=candidate:")]


@pytest.fixture(scope="module")
def phones(browser, tmp_path_factory):
    """Two phones on one Wi-Fi, each in its own Chromium (its own camera film) on its own site."""
    root = tmp_path_factory.mktemp("site")
    (root / "index.html").write_text("")
    with wifi(2) as net:
        pages = []
        for phone in net.phones:
            phone.start(browser.browser_type, root)
            pages.append(phone.open())
        yield net, pages


def test_two_phones_open_a_data_channel_over_their_wifi_with_no_server(phones):
    net, (page_a, page_b) = phones
    a, b = net.phones
    offer = page_a.evaluate(PEER_JS, {"offer": None})
    answer = page_b.evaluate(PEER_JS, {"offer": offer})
    # Each phone offers its own Wi-Fi address, as itself (no mDNS .local name hides it), and nothing else.
    for phone, sdp in ((a, offer), (b, answer)):
        assert candidates(sdp) and set(candidates(sdp)) == {phone.address}, \
            f"{phone.ns} gathered {candidates(sdp)}, not its own {phone.address} alone:\n{sdp}"

    began = time.monotonic()
    page_a.evaluate("sdp => peer.pc.setRemoteDescription({type: 'answer', sdp})", answer)
    for page in (page_a, page_b):
        page.evaluate(WITHIN_JS, {"what": "peer.opened", "ms": 5000})
    assert time.monotonic() - began < 5
    page_a.evaluate("peer.opened.then(ch => ch.send('hello from a'))")
    page_b.evaluate("peer.opened.then(ch => ch.send('hello from b'))")
    assert page_b.evaluate(WITHIN_JS, {"what": "peer.message()", "ms": 5000}) == "hello from a"
    assert page_a.evaluate(WITHIN_JS, {"what": "peer.message()", "ms": 5000}) == "hello from b"
    # The pair ICE chose is the Wi-Fi's: both ends in its subnet. Asked of the transport, which
    # names the pair it sends on: the pair's own state reads "in-progress" while one of the
    # checks that keep it alive is out (1 run in 6 here), not "succeeded".
    pair = page_a.evaluate("""async () => {
      const stats = [...(await peer.pc.getStats()).values()];
      const transport = stats.find(s => s.type === "transport");
      const pair = stats.find(s => s.id === transport.selectedCandidatePairId);
      const one = id => stats.find(s => s.id === id).address;
      return [one(pair.localCandidateId), one(pair.remoteCandidateId)];
    }""")
    assert pair == [a.address, b.address]
    assert all(ipaddress.ip_address(x) in SUBNET for x in pair)


class _Quiet(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_phone_reaches_nothing_but_its_wifi(phones):
    net, (page_a, _page_b) = phones
    for phone in net.phones:
        routes = phone.run("ip", "route").stdout
        assert "default" not in routes and routes.strip(), routes
    # A server on this machine's own 127.0.0.1, on a port no phone's site has: it answers here...
    taken = {int(phone.url.rsplit(":", 1)[1].strip("/")) for phone in net.phones}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    while server.server_address[1] in taken:
        server.server_close()
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        outside = f"http://127.0.0.1:{server.server_address[1]}/"
        with urllib.request.urlopen(outside, timeout=5) as response:
            assert response.status == 200
        # ...and not on the phone, whose 127.0.0.1 is its own: its own site answers, that one does not.
        # (no-cors: an answer of any kind would resolve; only a connection that fails rejects.)
        fetch = "url => fetch(url, {mode: 'no-cors', cache: 'no-store'}).then(() => 'reached', e => String(e))"
        assert page_a.evaluate(fetch, net.phones[0].url) == "reached"
        assert page_a.evaluate(fetch, outside) == "TypeError: Failed to fetch"
    finally:
        server.shutdown()
        server.server_close()


def test_a_phone_weighed_gets_that_share_and_back():
    """weigh() sets the CPU weight a test gives a phone's browser (test_browser_mixed_table) on the
    group that Linux shares the cores by, or on the process's own threads where there are none."""
    proc = subprocess.Popen(["sleep", "60"], start_new_session=True)  # a session: a browser's group
    try:
        def weight() -> int:
            if grouped():
                return int(Path(f"/proc/{proc.pid}/autogroup").read_text().split()[-1])
            return os.getpriority(os.PRIO_PROCESS, proc.pid)

        assert weight() == 0
        weigh(proc.pid, -5)
        assert weight() == -5
        weigh(proc.pid, 0)
        assert weight() == 0
    finally:
        proc.kill()
        proc.wait()
