"""A static file server for one phone's network namespace (tests/phone_net.py).

Run as `python -m tests.ns_site ROOT` inside the namespace (`ip netns exec NS ...`): it serves ROOT
on that namespace's own 127.0.0.1 (a secure context, so the page may ask for the camera and keep a
service worker), on a port the kernel picks there, and prints the port once it listens. Files go
out as they are with `Cache-Control: no-store` (as tests/test_web_phone.py's `Quiet`). It stops
when its stdin closes, so a test run that dies cannot leave it serving in a namespace."""
from __future__ import annotations

import functools
import http.server
import sys
import threading


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Files as they are, nothing kept by the browser's HTTP cache, nothing logged."""

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def main(root: str) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()  # until the harness closes our stdin (or dies)
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main(sys.argv[1])
