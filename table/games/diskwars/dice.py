"""Diskwars's dice as face tables (``table.randomness``): the six-sided die, and the
battle die whose faces the catalog lists (``battle_die``)."""

from __future__ import annotations

from table.randomness import Die, Face, numbered

from .catalog import Catalog

D6 = numbered(6)
LABELS = {"hit": "hit", "critical": "critical hit", "miss": "miss", "scatter": "scatter",
          "chaos": "chaos"}


def battle_die(catalog: Catalog) -> Die:
    return Die("battle", "battle die", tuple(Face(f, LABELS[f]) for f in catalog.battle_die))
