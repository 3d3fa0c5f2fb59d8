"""asyncio.run on a thread of its own, for tests of async code: in a whole run Playwright's sync
API keeps an event loop running on the main thread, and asyncio.run refuses to start there."""
from __future__ import annotations

import asyncio
import threading


def run_apart(coro, timeout: float = 120):
    """The coroutine's result, run to the end on a new thread's loop; its exception re-raised."""
    out: dict = {}

    def run():
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised on the caller's thread below
            out["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=timeout)
    if worker.is_alive():
        raise TimeoutError(f"the coroutine did not end within {timeout} s")
    if "error" in out:
        raise out["error"]
    return out.get("value")
