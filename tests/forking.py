"""The crash tests kill children from two threads at once, and open the same stores in the test's
own process between kills. A child forked by one thread holds a copy of every descriptor the
process has open until it execs, and a store's lock (flock) goes with its descriptor: a thread
that closed its store and opened it again in that moment found it busy, "in use by another
Pandapad process" (test_crash_import, once in a fresh-clone run). So the process never forks
while it holds a store open: both take FORKING. Popen returns once its child has exec'd."""
from __future__ import annotations

import threading

FORKING = threading.Lock()
