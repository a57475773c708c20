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


def user_catalog_files() -> Iterator[Path]:
    folder = user_catalog_dir()
    if folder.is_dir():
        yield from sorted(folder.glob("*.json"))


def game_catalog_dir(game: str) -> Path:
    """A game's own user files (cards, dice) beside the default game's catalog files."""
    return user_catalog_dir() / game


def game_catalog_files(game: str) -> Iterator[Path]:
    folder = game_catalog_dir(game)
    if folder.is_dir():
        yield from sorted(folder.glob("*.json"))
