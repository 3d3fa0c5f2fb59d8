"""The two hosts the screens run in (shared/docs/architecture.md, "Two hosts, one app"): the
server (`server.py`, its door `gate.py`, `serving.py`, `connection.py`) and the phone by itself
(`standalone.py`, `warm.py`, with web/ for its page and Python worker). `host.py` is the seam:
the one module of this folder a screen may import. main.py picks the host; FLET.md lists what
the hosts patch in Flet."""
