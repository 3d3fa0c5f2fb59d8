"""The phone build's standard library (#68, web/stdlib.py): Pyodide's python_stdlib.zip without the
modules the app never imports. In the phone's own Python (build/web's Pyodide, run by node), every
module of the app's archive (the app and its packages, their compiled extensions put back) and
every module the trimmed zip keeps is imported, once with Pyodide's whole zip and once with the
build's: each must import with the build's exactly as it does with the whole one. The modules
named only inside functions are kept by web/stdlib.py's reading of every import in the sources;
its unit tests here check that reading. Needs build/web (make web) and node; no browser."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "web"
sys.path.insert(0, str(ROOT / "web"))

import stdlib  # noqa: E402  (web/stdlib.py)


def whole_stdlib() -> Path:
    import flet_web

    return Path(flet_web.__file__).parent / "web" / "pyodide" / "python_stdlib.zip"


def test_every_import_is_read_wherever_it_is():
    source = '''
import json, xml.dom.minidom as dom
from email import message
from . import sibling
from ..up import thing
def later():
    import tarfile
    try:
        from zoneinfo import ZoneInfo
    except ImportError:
        pass
names = ("argparse", "not a module")
if __name__ == "__main__":
    import doctest
'''
    found = stdlib.named(source, "pkg.sub.mod", package=False)
    assert {"json", "xml", "xml.dom", "xml.dom.minidom", "email", "email.message", "pkg.sub", "pkg.sub.sibling",
            "pkg.up", "pkg.up.thing", "tarfile", "zoneinfo", "zoneinfo.ZoneInfo", "argparse"} <= found
    assert "doctest" not in found  # run as a script only
    assert "not a module" not in found
    assert "argparse" not in stdlib.named(source, "pkg.sub.mod", package=False, strings=False)


def test_the_phone_build_keeps_a_lighter_standard_library():
    built = SITE / "pyodide" / "python_stdlib.zip"
    if not built.is_file():
        pytest.skip("no build/web: make web")
    kept = {stdlib.module_of(n) for n in zipfile.ZipFile(built).namelist()} - {None}
    whole = {stdlib.module_of(n) for n in zipfile.ZipFile(whole_stdlib()).namelist()} - {None}
    assert kept < whole
    assert {"unittest", "doctest", "pdb", "sqlite3", "wsgiref"}.isdisjoint(kept)
    assert {"encodings.utf_8", "encodings.idna", "json", "asyncio", "zipfile", "tarfile", "pyodide", "_pyodide"} <= kept
    assert built.stat().st_size < whole_stdlib().stat().st_size - 300_000


def unpacked_app(folder: Path) -> list[str]:
    """build/web's app archive unpacked into `folder`, its compiled extensions put back where
    web/build.py python_libs took them from; the modules it holds."""
    with tarfile.open(SITE / "app.tar.gz") as tar:
        tar.extractall(folder, filter="data")
    for lib in (SITE / "python-libs").glob("*.wasm"):
        shutil.copy2(lib, folder / (lib.name[: -len(".wasm")].replace("--", "/") + ".so"))
    modules = []
    for path in sorted(folder.rglob("*.pyc")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[0] == "__pypackages__":
            parts = parts[1:]
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    # main.py starts the app when imported in Pyodide (the phone's entry).
    return [m for m in modules if m != "main"]


def imported(zip_path: Path, app: Path, modules: list[str], tmp_path: Path) -> dict[str, str]:
    listing = tmp_path / "modules.json"
    listing.write_text(json.dumps(modules))
    done = subprocess.run(["node", ROOT / "tests" / "stdlib_imports.mjs", SITE / "pyodide", zip_path, app, listing],
                          check=True, capture_output=True, text=True, timeout=600)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_module_the_app_can_import_imports_with_the_phone_builds_standard_library(tmp_path):
    built = SITE / "pyodide" / "python_stdlib.zip"
    if not (built.is_file() and (SITE / "app.tar.gz").is_file()):
        pytest.skip("no build/web: make web")
    app = tmp_path / "app"
    modules = unpacked_app(app)
    kept = sorted({stdlib.module_of(n) for n in zipfile.ZipFile(built).namelist()} - {None})
    everything = modules + kept
    with_whole = imported(whole_stdlib(), app, everything, tmp_path)
    with_built = imported(built, app, everything, tmp_path)
    differ = {m: (with_whole[m], with_built[m]) for m in everything if with_whole[m] != with_built[m]}
    assert not differ, differ
    # Not a test of nothing: the app's screens, its store, Flet, pydantic and Babel import.
    for module in ("views.screens.home", "views.hosts.standalone", "storage.store", "flet", "pydantic", "babel.numbers",
                   "segno", "tinydb", "msgpack"):
        assert with_built[module] == "", (module, with_built[module])
    assert sum(1 for m in modules if with_built[m] == "") > 0.8 * len(modules)
