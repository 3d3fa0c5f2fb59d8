"""views/ in rooms (#70), read from the source with ast (no import, no Flet): at most 14 modules and
packages at its top, no circle among its modules' imports, every folder saying what it holds in
its __init__.py's docstring, and no screen importing a host but the seam (views/hosts/host.py).

A circle is looked for among the imports a module runs as it is imported: its top level, and
inside an `if` or `try` there (not under `if TYPE_CHECKING:`). An import inside a function runs
when the function is called, after every module is loaded, so it cannot make Python find a module
half made; tests/test_house.py looks for circles with those counted too. The host rule counts
every import, in a function or not: a screen must not reach a host either way."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_AT_THE_TOP = 14
SEAM = "views.hosts.host"


def modules(root: Path) -> dict[str, Path]:
    """Every module and package under root/views, by its dotted name."""
    found = {}
    for path in sorted((root / "views").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def at_the_top(root: Path) -> list[str]:
    """The modules and packages at views/'s top (its __init__.py aside; a folder with no Python,
    as locales/ was, is no package)."""
    views = root / "views"
    return sorted([p.stem for p in views.glob("*.py") if p.name != "__init__.py"]
                  + [p.name for p in views.iterdir() if (p / "__init__.py").is_file()])


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(tree: ast.Module, everywhere: bool):
    """The import statements of a module: at its top level (in an if or try there too), or
    everywhere, functions included."""
    if everywhere:
        yield from (n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))
        return
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            todo += node.body + node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]


def imports(name: str, path: Path, known: dict[str, Path], everywhere: bool = False) -> set[str]:
    """The modules of views/ that `name` imports: `from a.b import c` names a.b.c when c is a
    module, else a.b."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _statements(ast.parse(path.read_text(encoding="utf-8")), everywhere):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(parts + ([base] if base else []))
        for alias in node.names:
            whole = f"{base}.{alias.name}"
            found.add(whole if whole in known else base)
    return {m for m in found if m in known and m != name}


def graph(root: Path, everywhere: bool = False) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known, everywhere) for name, path in known.items()}


def circle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (its modules in order, the first again at the end), or None."""
    state: dict[str, str] = {}
    trail: list[str] = []

    def visit(v):
        state[v] = "open"
        trail.append(v)
        for w in sorted(edges.get(v, ())):
            if state.get(w) == "open":
                return trail[trail.index(w):] + [w]
            if w not in state and (found := visit(w)):
                return found
        state[v] = "done"
        trail.pop()
        return None

    for v in sorted(edges):
        if v not in state and (found := visit(v)):
            return found
    return None


def unsaid(root: Path) -> list[str]:
    """The folders under views/ holding Python whose __init__.py is missing or says nothing."""
    wrong = []
    for folder in sorted(p for p in (root / "views").rglob("*") if p.is_dir() and p.name != "__pycache__"):
        if not any(folder.rglob("*.py")):
            continue  # no Python (locales/: its HOW.md says what it holds)
        init = folder / "__init__.py"
        said = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) if init.is_file() else None
        if not (said or "").strip():
            wrong.append(folder.relative_to(root).as_posix())
    return wrong


def hosts_reached(root: Path) -> set[tuple[str, str]]:
    """(module, host module) for each module of views/ outside views/hosts that imports a host
    module other than the seam, in a function or not."""
    return {(name, target) for name, targets in graph(root, everywhere=True).items()
            if not (name == "views.hosts" or name.startswith("views.hosts.")) for target in targets
            if target.startswith("views.hosts.") and target != SEAM}


# The house as it is.

def test_views_top_holds_at_most_fourteen_modules_and_packages():
    top = at_the_top(ROOT)
    assert len(top) <= MOST_AT_THE_TOP, top


def test_no_circle_among_the_modules_of_views():
    assert circle(graph(ROOT)) is None


def test_every_folder_of_views_says_what_it_holds():
    assert unsaid(ROOT) == []


def test_no_screen_imports_a_host_but_the_seam():
    assert hosts_reached(ROOT) == set()


# Each check finds what it is there to find (a made-up views/ in tmp_path).

def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_a_crowded_top_is_counted(tmp_path):
    files = {"views/__init__.py": "", "views/locales/de.po": "", "views/pads/__init__.py": '"""Pads."""'}
    files |= {f"views/m{i}.py": "" for i in range(MOST_AT_THE_TOP)}
    top = at_the_top(write(tmp_path, files))
    assert "pads" in top and "locales" not in top and "__init__" not in top
    assert len(top) == MOST_AT_THE_TOP + 1


def test_a_circle_is_found_and_a_call_time_import_is_none(tmp_path):
    root = write(tmp_path, {"views/__init__.py": "", "views/a/__init__.py": '"""A."""',
                            "views/a/one.py": "from views.b import two\n",
                            "views/b/__init__.py": '"""B."""',
                            "views/b/two.py": "try:\n    from views.a import one\nexcept ImportError:\n    pass\n",
                            "views/b/three.py": "def f():\n    from views.a import one\n",
                            "views/a/four.py": "from views.b import three\n"})
    assert circle(graph(root)) == ["views.a.one", "views.b.two", "views.a.one"]
    (root / "views/b/two.py").write_text("def later():\n    from views.a import one\n", encoding="utf-8")
    assert circle(graph(root)) is None
    assert circle(graph(root, everywhere=True)) is not None


def test_a_folder_that_says_nothing_is_named(tmp_path):
    root = write(tmp_path, {"views/__init__.py": '"""Views."""', "views/said/__init__.py": '"""What it holds."""',
                            "views/empty/__init__.py": "from __future__ import annotations\n",
                            "views/none/x.py": "", "views/words/locales/HOW.md": "",
                            "views/words/__init__.py": '"""Words."""'})
    assert unsaid(root) == ["views/empty", "views/none"]


def test_a_screen_importing_a_host_is_named(tmp_path):
    root = write(tmp_path, {"views/__init__.py": "", "views/hosts/__init__.py": '"""Hosts."""',
                            "views/hosts/host.py": "", "views/hosts/server.py": "from views.screens import home\n",
                            "views/screens/__init__.py": '"""Screens."""',
                            "views/screens/home.py": "from views.hosts.host import Host\n"
                                                     "def f():\n    from views.hosts import server\n"})
    assert hosts_reached(root) == {("views.screens.home", "views.hosts.server")}
