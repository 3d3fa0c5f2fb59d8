# Pandapad: every target sets the machine up first, so `make run` / `make test`
# are the only commands a fresh machine needs.

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
# Rebuilt whenever the dependency list (or this recipe) changes; otherwise setup is a no-op.
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

# The repo root on sys.path for scripts run from subfolders (bench/).
export PYTHONPATH := $(CURDIR)$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: setup run test bench chromium clean-venv web web-preview catalogs

setup: $(STAMP) chromium

# npm's packages of web/package-lock.json: Workbox for the phone build, and the Japanese font's
# slices (@fontsource/noto-sans-jp) that the server and the phone build serve (views/words/fonts.py).
WEB_NODE := web/node_modules/.package-lock.json
$(WEB_NODE): web/package.json web/package-lock.json
	@command -v npm >/dev/null || { echo "make setup: npm is needed (Node 20): install it first"; exit 1; }
	cd web && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The QR decoder the page loads where the browser has no BarcodeDetector (#53, assets/camera.js):
# barcode-detector's one-file build and zxing-wasm's reader, from npm, served by both hosts.
QR_DECODER := assets/qr/.copied
$(QR_DECODER): $(WEB_NODE)
	@mkdir -p assets/qr
	cp web/node_modules/barcode-detector/dist/iife/ponyfill.js assets/qr/barcode-detector.js
	cp web/node_modules/zxing-wasm/dist/reader/zxing_reader.wasm assets/qr/zxing_reader.wasm
	@touch $@

$(STAMP): pyproject.toml Makefile views/hosts/FLET.md $(WEB_NODE) $(QR_DECODER)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Pandapad needs Python >= 3.11, $(PYTHON) is " + sys.version.split()[0])'
	@# The Flet pinned is the one the patches were read against (views/hosts/FLET.md), or setup stops here.
	@$(PYTHON) views/hosts/flet_pin.py
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	@# Install the dependency list of pyproject.toml (and the test extra), not the project itself.
	$(VPY) -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; x = p["optional-dependencies"]; print("\n".join(p["dependencies"] + x["test"] + x["build"]))' > $(VENV)/requirements.txt
	$(VPY) -m pip install --disable-pip-version-check -q -r $(VENV)/requirements.txt
	@# The phones' compressed copy of Flet's web client, made once per Flet version (about a minute).
	$(VPY) -m views.hosts.serving
	@touch $@

# Debian's Chromium for the browser tests (Playwright drives it; never `playwright install`),
# iproute2's `ip` for the phones' own networks (tests/phone_net.py: ip netns, veth, a bridge),
# which slim images (a CI container) leave out, and the engines of phones that are not Chrome
# (#69, tests/test_browser_engines.py): Firefox ESR, and WebKitGTK's WebDriver on a virtual display.
chromium:
	@PKGS=; [ -x $(CHROMIUM) ] || PKGS=chromium; command -v ip >/dev/null 2>&1 || PKGS="$$PKGS iproute2"; \
	[ -x /usr/bin/firefox-esr ] || PKGS="$$PKGS firefox-esr"; \
	[ -x /usr/bin/WebKitWebDriver ] || PKGS="$$PKGS webkit2gtk-driver"; \
	command -v xvfb-run >/dev/null 2>&1 || PKGS="$$PKGS xvfb"; \
	if [ -z "$$PKGS" ]; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
		echo "make setup: no apt-get here; install $$PKGS by hand ($(CHROMIUM), ip, firefox-esr, WebKitWebDriver, xvfb-run) or the browser tests will fail or skip"; \
	else \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		echo "make setup: installing Debian $$PKGS"; \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$PKGS; \
	fi

run: setup
	$(VPY) main.py $(ARGS)

# The phone build (#30): build/web/, a static site that runs the whole app in the phone's
# browser (web/build.py says how). Rebuilt when the app, its assets or the pins change.
WEB_BUILT := build/web/.built
# ... and its precompressed copies for a static server (servestatic's compress, ~45 s here):
# web and web-preview have them, the tests need none.
WEB_PACKED := build/web/.compressed
WEB_SOURCES := $(shell find main.py scoring storage views assets web -type f \
	-not -path 'web/node_modules/*' -not -name '*.pyc' 2>/dev/null)

# Chromium makes the snapshot of Python sent with the site (web/ship_snapshot.py).
web: chromium $(WEB_PACKED)

$(WEB_BUILT): $(STAMP) $(WEB_SOURCES)
	$(VPY) web/build.py --no-compress
	@touch $@

$(WEB_PACKED): $(WEB_BUILT)
	$(VPY) web/build.py --compress-only
	@touch $@

# Serves build/web on 127.0.0.1:8551 as a static host would (compressed, no server code).
web-preview: web
	$(VPY) web/preview.py

# The browser tests of the phone build run against build/web, made once here (without the
# compressed copies, which no test loads).
# Three modules at a time on 2 cores, each whole in one worker (its server and store are module
# fixtures): a worker waiting on a page, a timer or a child leaves a core to another (two workers
# left the machine idle 11 % of the run; tests/README.md has the figures). TEST_WORKERS=0: one process.
# --no-loadscope-reorder: in conftest.py's order, the longest modules first (xdist would hand
# the modules with the most tests out first, the long browser walks of few tests last).
TEST_WORKERS ?= 3
test: setup $(WEB_BUILT)
	$(VPY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Runs bench/bench_*.py one after another; a failing benchmark fails the target.
bench: setup
	@set -e; for f in bench/bench_*.py; do \
		[ -e "$$f" ] || { echo "no bench/bench_*.py found"; exit 1; }; \
		echo "== $$f"; $(VPY) "$$f"; \
	done

clean-venv:
	rm -rf $(VENV)

# The message catalogs (#33, views/words/locales/HOW.md): the messages of the code into pandapad.pot,
# then every language's .po brought up to date with it (new messages empty, changed ones fuzzy:
# tests/test_catalogs.py fails until a translator has seen them).
LOCALES := views/words/locales
catalogs: $(STAMP)
	$(VENV)/bin/pybabel --quiet extract --no-default-keywords -k _ -k n_:1,2 -k p_:1c,2 -k N_ \
		-c TRANSLATORS: --sort-by-file --project Pandapad --copyright-holder Pandapad \
		-o $(LOCALES)/pandapad.pot main.py scoring storage views
	@for code in de es fr it ja ko nl pl pt_BR zh_Hans; do \
		if [ -f $(LOCALES)/$$code/LC_MESSAGES/pandapad.po ]; then \
			$(VENV)/bin/pybabel --quiet update --ignore-obsolete -D pandapad -l $$code -i $(LOCALES)/pandapad.pot -d $(LOCALES); \
		else \
			$(VENV)/bin/pybabel --quiet init -D pandapad -l $$code -i $(LOCALES)/pandapad.pot -d $(LOCALES); \
		fi; \
	done
