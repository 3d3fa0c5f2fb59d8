"""views/ in rooms (#70), read from the source (no import, no Flet): at most 14 modules and
packages at its top, and every folder saying what it holds in its __init__.py's docstring. The
import map's checks, for the whole project (no circle, no screen importing a host but the seam,
views/hosts/host.py), are tests/test_house.py's."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_AT_THE_TOP = 14


def at_the_top(root: Path) -> list[str]:
    """The modules and packages at views/'s top (its __init__.py aside; a folder with no Python,
    as locales/ was, is no package)."""
    views = root / "views"
    return sorted([p.stem for p in views.glob("*.py") if p.name != "__init__.py"]
                  + [p.name for p in views.iterdir() if (p / "__init__.py").is_file()])


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


# The house as it is.

def test_views_top_holds_at_most_fourteen_modules_and_packages():
    top = at_the_top(ROOT)
    assert len(top) <= MOST_AT_THE_TOP, top


def test_every_folder_of_views_says_what_it_holds():
    assert unsaid(ROOT) == []


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


def test_a_folder_that_says_nothing_is_named(tmp_path):
    root = write(tmp_path, {"views/__init__.py": '"""Views."""', "views/said/__init__.py": '"""What it holds."""',
                            "views/empty/__init__.py": "from __future__ import annotations\n",
                            "views/none/x.py": "", "views/words/locales/HOW.md": "",
                            "views/words/__init__.py": '"""Words."""'})
    assert unsaid(root) == ["views/empty", "views/none"]
