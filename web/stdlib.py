"""Python's standard library as the phone build ships it (#68): Pyodide's python_stdlib.zip (2.5 MB,
fetched by every first visit and kept by the offline copy) without the modules the app can never
import: the REPL, the debugger, unittest, the mail and web servers...

What is kept is every module of the zip that the app's code or its packages name, anywhere:
- every `import` and `from ... import` of the app and of __pypackages__ (the staged sources),
  inside functions and `try:` too, not only those run at start;
- every string in that code that is the name of a module of the zip ("argparse" in
  views/hosts/warm.py's list, six's moves): a name imported by importlib.import_module;
- the modules the phone's Python runs at start (site's) and those python-worker.js imports;
- Pyodide's own packages (_pyodide, pyodide), the codecs (encodings: looked up by name), importlib
  and sysconfig's data module (read by computed name), whole;
and, in turn, every module those name, inside the zip (the same reading of their sources).
tests/test_web_stdlib.py imports, in the phone's Python under node, every module of the app and
of its packages and every module kept, with the whole zip and with this one: each imports with
this one exactly when it does with the whole.
"""
from __future__ import annotations

import ast
import re
import zipfile
from pathlib import Path

WHOLE = ("_pyodide", "pyodide", "encodings", "importlib", "_sysconfigdata__emscripten_wasm32-emscripten")
AT_START = ("site", "sitecustomize", "usercustomize", "_sitebuiltins", "codecs", "io", "abc", "os", "stat",
            "posixpath", "genericpath", "_collections_abc", "zipimport", "runpy", "warnings", "linecache",
            "traceback")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def module_of(entry: str) -> str | None:
    """A zip entry's module ("email/mime/text.py" -> "email.mime.text"), or None for other files."""
    if not entry.endswith(".py"):
        return None
    name = entry[:-3].replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def named(source: str, module: str, package: bool, strings: bool = True) -> set[str]:
    """Every module a source names: its imports (relative ones resolved), each with its parents,
    a `from x import y` as x.y too (y may be a module), and (`strings`) every string that reads as
    a module name."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    for node in ast.walk(tree):  # a module's `if __name__ == "__main__":` never runs when it is imported
        if isinstance(node, ast.If) and ast.unparse(node.test) in ('__name__ == "__main__"', "__name__ == '__main__'"):
            node.body = []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            if origin:
                found.add(origin)
                found.update(f"{origin}.{alias.name}" for alias in node.names if alias.name != "*")
        elif strings and isinstance(node, ast.Constant) and isinstance(node.value, str) and NAME.match(node.value):
            found.add(node.value)
    return {".".join(name.split(".")[:i]) for name in found for i in range(1, name.count(".") + 2)}


def worker_imports(worker: Path) -> set[str]:
    """The modules python-worker.js's Python lines import."""
    text = worker.read_text()
    found = set()
    for line in re.findall(r"^\s*(?:import|from)\s+[\w., ]+", text, re.MULTILINE):
        words = line.split()
        if words[0] == "import":
            found.update(part.strip() for part in " ".join(words[1:]).split(",") if part.strip())
        else:
            found.add(words[1])
    return found


def needed(stdlib: Path, app: Path, worker: Path) -> set[str]:
    """The zip's modules the app can reach (see above)."""
    with zipfile.ZipFile(stdlib) as z:
        sources = {module_of(e): (e, z.read(e).decode("utf-8", "replace")) for e in z.namelist() if module_of(e)}
    wanted = set(AT_START) | worker_imports(worker)
    wanted |= {m for m in sources if m.split(".")[0] in WHOLE}
    for path in app.rglob("*.py"):
        relative = path.relative_to(app)
        parts = list(relative.with_suffix("").parts)
        if parts[0] == "__pypackages__":
            parts = parts[1:]
        package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if package else parts)
        wanted |= named(path.read_text(encoding="utf-8", errors="replace"), module, package)
    kept, todo = set(), [m for m in wanted if m in sources]
    while todo:
        module = todo.pop()
        if module in kept:
            continue
        kept.add(module)
        entry, source = sources[module]
        todo.extend(m for m in named(source, module, entry.endswith("__init__.py"), strings=False)
                    if m in sources and m not in kept)
    return kept


def trim(stdlib: Path, keep: set[str], out: Path) -> tuple[int, int]:
    """`stdlib` written to `out` with only the modules of `keep` (and the folders that hold them),
    each entry as it was (its compression, its place): the bytes before and after."""
    before = stdlib.stat().st_size
    folders = {"/".join(m.split(".")[:i]) + "/" for m in keep for i in range(1, m.count(".") + 2)}
    with zipfile.ZipFile(stdlib) as z:
        entries = [(info, z.read(info)) for info in z.infolist()
                   if (module_of(info.filename) in keep) or info.filename in folders]
    with zipfile.ZipFile(out, "w") as z:
        for info, data in entries:
            z.writestr(info, data)
    return before, out.stat().st_size
