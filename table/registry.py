"""Which games are installed: game systems are found through the ``tablesight.games``
entry-point group (python-can's plugin style), so a game can ship as a package of its
own. Each entry point names a ``GameSystem`` instance (or a class to instantiate)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from table.quoting import quote
from table.system import GameSystem

GROUP = "tablesight.games"
# The game a scenario or a setup plays when it names none: the scenario contract (v1)
# predates the other games, so a file without "game" is this one.
DEFAULT = "dreamblade"


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
