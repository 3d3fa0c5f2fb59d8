"""Upgrades of old record versions: pure steps, each from version v to v + 1."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from .common import VERSION, RecordError
from .json_text import shown_as

Step = Callable[[dict[str, Any]], dict[str, Any]]

# UPGRADES[v] turns a record of version v into one of version v + 1. Version 1 is the first
# format, so there is nothing to upgrade yet; version 2 adds its step here.
UPGRADES: dict[int, Step] = {}


def upgrade(data: dict[str, Any], steps: Mapping[int, Step] | None = None,
            newest: int = VERSION) -> dict[str, Any]:
    """The record brought to the newest version; a newer record than this app is refused."""
    steps = UPGRADES if steps is None else steps
    version = data.get("version", newest)
    if type(version) is not int:
        raise RecordError("version", f"the version must be a whole number, not {shown_as(version)}")
    if version > newest:
        raise RecordError("version", f"this record is version {version}, but this app reads "
                                     f"records up to version {newest}; update Pandapad")
    while version < newest:
        if version not in steps:
            raise RecordError("version", f"no upgrade is known from record version {version} "
                                         f"to version {newest}")
        data = steps[version](dict(data))
        version += 1
        data["version"] = version
    return data
