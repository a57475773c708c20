"""Which games are installed: game systems are found through the ``tablesight.games``
entry-point group (python-can's plugin style), so a game can ship as a package of its
own. Each entry point names a ``GameSystem`` instance (or a class to instantiate)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from table.quoting import quote
from table.system import GameSystem

GROUP = "tablesight.games"


class UnknownGame(ValueError):
    """No installed game by that name; the message lists the installed ones."""


@cache
def systems() -> dict[str, GameSystem]:
    """Installed games by name, in name order. A broken plugin is left out, not fatal:
    the games that load still play."""
    found: dict[str, GameSystem] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        try:
            obj = ep.load()
            system = obj() if isinstance(obj, type) else obj
        except Exception:  # a third-party package's import error must not stop the table
            continue
        if isinstance(system, GameSystem) and system.name == ep.name:
            found[ep.name] = system
    return dict(sorted(found.items()))


def get(name: object) -> GameSystem:
    games = systems()
    if not isinstance(name, str) or name not in games:
        raise UnknownGame(f"no game {quote(name)} is installed; installed: "
                          + ", ".join(games))
    return games[name]


def default() -> str:
    """The game a scenario, a setup or a command plays when it names none: the installed
    game that says files naming no game are its own (``GameSystem.files_without_a_name``:
    the first game's files predate the key), else the first installed game by name."""
    games = systems()
    if not games:
        raise UnknownGame("no game is installed")
    return next((n for n, g in games.items() if g.files_without_a_name), next(iter(games)))
