"""make web-preview: build/web served on 127.0.0.1 for a person to try, as a static host would:
servestatic sends the precompressed copies (brotli, gzip) the build made, with ETags. A service
worker needs HTTPS or 127.0.0.1/localhost, so open the printed address on this machine (a phone
on the Wi-Fi reaching http://192.168… would get the app, but no offline copy)."""
from __future__ import annotations

import argparse
from pathlib import Path

SITE = Path(__file__).resolve().parent.parent / "build" / "web"


def packed(who: str, site: Path = SITE) -> None:
    """Refuse, saying why, a build without its compressed copies (make test builds it so)."""
    if not (site / "main.dart.js.br").exists():
        raise SystemExit(f"{who}: build/web or its compressed copies are missing; run make web first")


def app(site: Path = SITE):
    from servestatic.asgi import ServeStaticASGI

    async def index(scope, receive, send):
        # An address of the app's own screens (/game/…) is the page itself, as 404.html is on GitHub Pages.
        body = (site / "index.html").read_bytes()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-cache")]})
        await send({"type": "http.response.body", "body": body})

    # max_age 0: every file is checked again at each visit; the service worker keeps the offline copy.
    return ServeStaticASGI(index, root=site, prefix="/", index_file=True, max_age=0)


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8551)
    args = parser.parse_args()
    packed("make web-preview")
    print(f"Pandapad, the phone build: http://127.0.0.1:{args.port}/ (Ctrl+C stops it)", flush=True)
    uvicorn.run(app(), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
