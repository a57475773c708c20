"""Dreamblade's dice as face tables (``table.randomness``): the six-sided die of
initiative rolls and Wails, and the attack die (1, 2 and 3 damage, a blade, and two
miss faces)."""

from __future__ import annotations

from table.randomness import Die, Face, numbered

from . import actions as A

INITIATIVE = numbered(6, "init", "initiative die")
SIX_SIDED = numbered(6, "init", "six-sided die")  # the same die, for a Wail
ATTACK = Die("attack", "attack die", (
    Face("1", "1"), Face("2", "2"), Face("3", "3"),
    Face("M", "miss"), Face("M", "miss"), Face("B", "blade")))

_RULES_FACE: dict[str, A.Face] = {"1": 1, "2": 2, "3": 3, "M": "miss", "B": "blade"}


def attack_face(face: Face) -> A.Face:
    """The rules' face for an attack die's face."""
    return _RULES_FACE[face.code]
