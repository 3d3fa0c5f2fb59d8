"""The house a newcomer walks (#47): the import map has no circle, no screen imports a host
(the seam, views/hosts/host.py, aside), and every place that patches Flet is on the list in
views/hosts/FLET.md, whose Flet is the one pinned."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.test_rooms import write
from views.hosts import flet_pin

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "storage", "views")
PATCH_LIST = ROOT / "views" / "hosts" / "FLET.md"
SEAM = "views.hosts.host"


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {"main": root / "main.py"}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """Every project module `path` imports, at its top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in known else base)
    return {m for m in found if m in known and m != name}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(path, name, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_the_import_map_has_no_circle():
    assert circles(graph()) == []


def test_a_circle_is_found_where_there_is_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def hosts_reached(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(module, host module) for each module but main.py and the hosts themselves that imports a
    host module other than the seam (views/hosts/host.py), at its top or in a function."""
    return {(name, target) for name, targets in edges.items()
            if not (name == "main" or name == "views.hosts" or name.startswith("views.hosts.")) for target in targets
            if target.startswith("views.hosts.") and target != SEAM}


def test_no_screen_imports_a_host_but_the_seam():
    """Nor does any other module but main.py: the scoring, the store and every room of views/."""
    assert hosts_reached(graph()) == set()


def test_a_screen_importing_a_host_is_named(tmp_path):
    files = {"views/__init__.py": "", "views/hosts/__init__.py": "", "views/hosts/host.py": "",
             "views/hosts/server.py": "from views.screens import home\n", "views/screens/__init__.py": "",
             "views/screens/home.py": "from views.hosts.host import Host\ndef f():\n    from views.hosts import server\n",
             "main.py": "from views.hosts import server\n"}
    assert hosts_reached(graph(write(tmp_path, files))) == {("views.screens.home", "views.hosts.server")}


def code_files() -> list[Path]:
    roots = [ROOT / "main.py", ROOT / "views", ROOT / "web", ROOT / "assets"]
    files = []
    for root in roots:
        for path in ([root] if root.is_file() else root.rglob("*")):
            if path.suffix in (".py", ".js", ".mjs", ".html") and "node_modules" not in path.parts:
                files.append(path)
    return files


# What marks a reach into Flet's (or Pyodide's, or its Flutter client's) internals.
PATCH_MARKS = re.compile(r"_FletApp__\w+|patch_index_html|flutter_bootstrap|\brive\b|RIVE_|_rive_|\b_LAZY\b|"
                         r"\bjsConnect\b|_sbrk|_loadSnapshot|makeMemorySnapshot|createPyodideModule|on_fatal|"
                         r"HTMLInputElement\.prototype")


def test_every_patch_of_flet_is_on_the_list():
    listed = PATCH_LIST.read_text(encoding="utf-8")
    unlisted = []
    for path in code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        marks = set(PATCH_MARKS.findall(text))
        if not marks:
            continue
        rel = path.relative_to(ROOT).as_posix()
        if rel not in listed and rel not in ("assets/index.html",):  # Flet's own page, served as it is
            unlisted.append(f"{rel} ({', '.join(sorted(marks))})")
        for mangled in (m for m in marks if m.startswith("_FletApp__")):
            if mangled not in listed:
                unlisted.append(f"{rel}: {mangled}")
    assert unlisted == [], "patches of Flet not in views/hosts/FLET.md"


def test_the_pinned_flet_is_the_one_the_patches_were_read_against(tmp_path):
    assert flet_pin.refusal(flet_pin.pinned(), flet_pin.read_against()) is None
    newer = tmp_path / "pyproject.toml"
    newer.write_text((ROOT / "pyproject.toml").read_text().replace('"flet==1.0.5"', '"flet==1.0.6"'))
    said = flet_pin.refusal(flet_pin.pinned(newer), flet_pin.read_against())
    assert said is not None and "views/hosts/FLET.md" in said and "1.0.6" in said


def test_no_text_is_set_in_italic():
    """#56: Japanese, Chinese and Korean have no italic (Flutter slants their glyphs, which reads as
    broken), nor has a typed name in those scripts on any phone: a note is set apart by theme.NOTE."""
    slanted = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "views").rglob("*.py"))
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"italic\s*=\s*True|FontStyle\.ITALIC", line)]
    assert not slanted, slanted
