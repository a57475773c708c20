"""What every ``tablesight`` command shares about its user's input: ``UsageError`` (a
mistake of the person at the command line, printed as one line with exit status 2) and
reading a JSON file they name, bounded and with one clear line for every way it fails."""

from __future__ import annotations

import json
from pathlib import Path

from table import registry
from table.system import GameSystem


class UsageError(Exception):
    """Bad input from the command line user: printed as one line, exit status 2."""


MAX_MESSAGE = 300  # characters of an error line
MAX_INPUT_BYTES = 16 * 1024 * 1024  # the largest real input (a catalog) is ~1 MB


def read_json(path: str) -> object:
    """The JSON document in the file at ``path``; ``UsageError`` saying why otherwise."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_INPUT_BYTES:
            raise UsageError(f"{path}: {size // 1_000_000} MB; an input file holds at most "
                             f"{MAX_INPUT_BYTES // 1_000_000} MB")
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}") from None
    except ValueError:  # a number of thousands of digits, past Python's conversion limit
        raise UsageError(f"{path}: a number too long to be a tablesight value") from None
    except RecursionError:
        raise UsageError(f"{path}: JSON nested too deep to be a tablesight file") from None


def installed_game(name: str | None) -> GameSystem:
    """An installed game by name (the default game when None); ``UsageError`` listing
    the installed ones otherwise."""
    try:
        return registry.get(name or registry.default())
    except registry.UnknownGame as e:
        raise UsageError(str(e)) from None
