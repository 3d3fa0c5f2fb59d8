"""make setup's check (#47): the Flet pinned in pyproject.toml is the one views/hosts/FLET.md was
read against; another is refused with a sentence that points there. Standard library only: it
runs before the venv exists."""
from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "views" / "hosts" / "FLET.md"


def pinned(pyproject: Path = ROOT / "pyproject.toml") -> str | None:
    for requirement in tomllib.loads(pyproject.read_text())["project"]["dependencies"]:
        found = re.fullmatch(r"flet==([\w.]+)", requirement.split(";")[0].strip())
        if found:
            return found.group(1)
    return None


def read_against(page: Path = PAGE) -> str | None:
    found = re.search(r"Written against \*\*Flet ([\w.]+)\*\*", page.read_text())
    return found.group(1) if found else None


def refusal(pin: str | None, page_version: str | None) -> str | None:
    if pin is not None and pin == page_version:
        return None
    return (f"make setup: pyproject.toml pins Flet {pin or '(none)'}, but Pandapad's patches of Flet were written "
            f"against Flet {page_version or '(none)'}: read views/hosts/FLET.md against Flet {pin}, mend what it "
            "lists, then change its 'Written against' line")


if __name__ == "__main__":
    said = refusal(pinned(), read_against())
    sys.exit(said)
