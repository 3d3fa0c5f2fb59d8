"""The app's settings, kept with the store (settings.json beside the games), so they survive
a restart and move with the data folder. A damaged or unknown-valued file gives the defaults
for what it cannot say, never an error: a setting is never worth a lost start."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .atomic import dump_bytes, write_atomic

FILE = "settings.json"


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    theme: Literal["system", "light", "dark"] = "system"
    keep_awake: bool = True
    text_size: Literal["normal", "large", "extra-large"] = "normal"
    haptics: bool = True
    ur_board: tuple[int, ...] | None = None        # the owner's Ur dot map (14 squares), None: default
    nokosu_zero_bonus: int = Field(default=10, ge=0, le=100)
    pass_the_pandas_target: int = Field(default=30, ge=5, le=200)
    guests_see_history: bool = False  # table mode: read-only History and Statistics for guests
    # When the last JSON export (a backup file) was made, ISO UTC: a phone by itself offers one
    # after a game finished since then (#46). None: never.
    backup_file_made: str | None = None


def load(root: Path) -> Settings:
    try:
        data = json.loads((Path(root) / FILE).read_bytes())
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    good = {}
    for key, value in data.items():  # keep every value that is valid on its own
        try:
            Settings.model_validate({key: value})
        except ValidationError:
            continue
        good[key] = value
    return Settings.model_validate(good)


def save(root: Path, settings: Settings) -> None:
    write_atomic(Path(root) / FILE, dump_bytes(settings.model_dump(mode="json")))
