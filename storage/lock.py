"""One process at a time: an exclusive lock on store.lock for as long as the store is open.

The kernel drops the lock when the process dies (even by SIGKILL), so a crash never leaves
the store locked.
"""
from __future__ import annotations

import os
from pathlib import Path

from .api import StoreBusy

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt


class ProcessLock:
    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:
                msvcrt.locking(self._fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            holder = self._holder()
            os.close(self._fd)
            self._fd = None
            raise StoreBusy(f"{path.parent} is in use by another Pandapad process{holder}; "
                            f"close it and try again") from None
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"{os.getpid()}\n".encode())

    def _holder(self) -> str:
        try:
            pid = os.pread(self._fd, 32, 0).decode().strip() if hasattr(os, "pread") else ""
        except OSError:
            pid = ""
        return f" (pid {pid})" if pid.isdigit() else ""

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
