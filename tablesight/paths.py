"""Where tablesight keeps the user's files (catalog imports, later games)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def data_home() -> Path:
    """``$TABLESIGHT_HOME``, else ``$XDG_DATA_HOME/tablesight``, else ~/.local/share."""
    if os.environ.get("TABLESIGHT_HOME"):
        return Path(os.environ["TABLESIGHT_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablesight"


def user_catalog_dir() -> Path:
    return data_home() / "catalog"


def game_catalog_dir(folder: str) -> Path:
    """A game's own user files (``GameSystem.user_folder``: "" for the catalog folder
    itself)."""
    return user_catalog_dir() / folder


def game_catalog_files(folder: str) -> Iterator[Path]:
    where = game_catalog_dir(folder)
    if where.is_dir():
        yield from sorted(where.glob("*.json"))
