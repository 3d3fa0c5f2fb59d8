"""A static file server for one phone's network namespace (tests/phone_net.py).

Run as `python -m tests.ns_site ROOT` inside the namespace (`ip netns exec NS ...`): it serves ROOT
on that namespace's own 127.0.0.1 (a secure context, so the page may ask for the camera and keep a
service worker), on a port the kernel picks there, and prints the port once it listens. Files go
out as they are with `Cache-Control: no-store` (tests/test_web_phone.py's `Quiet` is this one,
slowed at will). It stops when its stdin closes, so a test run that dies cannot leave it serving
in a namespace."""
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


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that dropped a request it no longer wanted (a page reloaded, a worker's fetch
        given up mid-file) is nothing to print: here no one reads this server's stderr, and a
        pipe full of such tracebacks would stop it. Anything else is printed, as socketserver does."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main(root: str) -> None:
    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()  # until the harness closes our stdin (or dies)
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main(sys.argv[1])
