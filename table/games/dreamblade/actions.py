"""Actions: small immutable value objects with a string form (python-chess's ``Move``).

Two granularities:

* steps, one decision each (``Spawn``, ``Move``, ``Attack``, ``Roll``, ``AssignBlade``,
  ``AssignDamage``, ``ChooseOutcome``, ``DeclineDeathblow``, ``Place``, ``EndPhase``):
  what ``legal_actions`` yields and what a live table feeds in one at a time;
* compounds (``Shift``, ``Combat``): a whole shift or a whole combat at once, as the
  scenario contract writes them. A compound is accepted whole or rejected whole.

Miniatures are named by reference (``p1#0``) and cells by name (``c3``), so an action
means the same thing in a log, on the wire and in a test.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from table.notation import spelled

Face = int | str  # attack die: 1, 2, 3, "miss", "blade"
ATTACK_FACES: tuple[Face, ...] = (1, 2, 3, "miss", "blade")
OUTCOMES = ("disrupt", "destroy")


def face_str(face: Face) -> str:
    return str(face)


@spelled("initiative {p1} {p2}")
@dataclass(frozen=True)
class Initiative:
    p1: int
    p2: int
    player = None


@spelled("{player} spawn {mini} {cell}")
@dataclass(frozen=True)
class Spawn:
    player: str
    mini: str
    cell: str


@spelled("{player} move {mini} {cell}")
@dataclass(frozen=True)
class Move:
    """One creature's move during a shift."""

    player: str
    mini: str
    cell: str


@dataclass(frozen=True)
class Shift:
    """A whole shift: the moves in order, then the action phase ends."""

    player: str
    moves: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        body = " ".join(f"{m}>{c}" for m, c in self.moves)
        return f"{self.player} shift {body}".rstrip()


@spelled("{player} attack {cell} {attackers: }")
@dataclass(frozen=True)
class Attack:
    """Start a combat in ``cell`` with these attackers."""

    player: str
    cell: str
    attackers: tuple[str, ...]


@spelled("{player} roll {faces: }")
@dataclass(frozen=True)
class Roll:
    """Attack dice for the pending attack or deathblow (some or all of them)."""

    player: str
    faces: tuple[Face, ...]


@spelled("{player} blade {mini} {ability}[ on {target}][ to {to}][ x {x}]")
@dataclass(frozen=True)
class AssignBlade:
    """One activation of a blade ability (one blade, or two for double-blade costs)."""

    player: str
    mini: str
    ability: str
    target: str | None = None  # a miniature, for abilities that take one
    to: str | None = None  # a cell, for abilities that move their target
    x: int | None = None  # the chosen X of an ability whose number is X ("Crit X")


@spelled("{player} damage {target} {amount}")
@dataclass(frozen=True)
class AssignDamage:
    player: str
    target: str
    amount: int


@spelled("{player} outcome {target} {outcome}")
@dataclass(frozen=True)
class ChooseOutcome:
    """Damage reached both defense and life: the attacker picks disrupt or destroy."""

    player: str
    target: str
    outcome: str


@spelled("{player} activate {mini} {ability}[ on {target}][ to {to}][ x {x}]")
@dataclass(frozen=True)
class Activate:
    """A spawn-point ability ("Spawn 1: Call Adjacent Ally"), in its player's spawn
    phase; ``target`` and ``to`` as for ``AssignBlade``."""

    player: str
    mini: str
    ability: str
    target: str | None = None
    to: str | None = None
    x: int | None = None


@spelled("{player} aim {mini} {target}")
@dataclass(frozen=True)
class Aim:
    """A special attack's target, when there is more than one to choose from."""

    player: str
    mini: str  # the attacker
    target: str


@spelled("{player} wail {dice: }")
@dataclass(frozen=True)
class WailRoll:
    """The two six-sided dice a Wail rolls."""

    player: str
    dice: tuple[int, int]


@dataclass(frozen=True)
class Reroll:
    """Fortunate: pick up these dice (faces as rolled) to roll them again; none: keep
    the roll as it is."""

    player: str
    faces: tuple[Face, ...] = ()

    def __str__(self) -> str:
        return f"{self.player} reroll {' '.join(map(face_str, self.faces)) or 'none'}"


@spelled("{player} decline-deathblow")
@dataclass(frozen=True)
class DeclineDeathblow:
    player: str


@spelled("{player} place {target} {cell}")
@dataclass(frozen=True)
class Place:
    """Put a disrupted creature in an empty cell."""

    player: str
    target: str
    cell: str


@spelled("{player} end")
@dataclass(frozen=True)
class EndPhase:
    player: str


@dataclass(frozen=True)
class Deathblow:
    """The deathblow part of a compound ``Combat``."""

    roll: tuple[Face, ...]
    damage: tuple[tuple[str, int], ...] = ()
    outcomes: tuple[tuple[str, str], ...] = ()
    placements: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Combat:
    """A whole combat: attack, roll, blades, damage, outcomes, deathblow, placements."""

    player: str
    cell: str
    attackers: tuple[str, ...]
    roll: tuple[Face, ...]
    damage: tuple[tuple[str, int], ...] = ()
    blades: tuple[tuple[str, ...], ...] = ()  # (mini, ability[, target[, to]])
    outcomes: tuple[tuple[str, str], ...] = ()
    placements: tuple[tuple[str, str], ...] = ()
    deathblow: Deathblow | None = None

    def __str__(self) -> str:
        parts = [f"{self.player} combat {self.cell} {','.join(self.attackers)}",
                 "roll " + ",".join(map(face_str, self.roll))]
        if self.blades:
            parts.append("blades " + ",".join(":".join(b).rstrip(":") for b in self.blades))
        if self.damage:
            parts.append("damage " + ",".join(f"{t}:{n}" for t, n in self.damage))
        if self.outcomes:
            parts.append("outcomes " + ",".join(f"{t}:{o}" for t, o in self.outcomes))
        if self.placements:
            parts.append("place " + ",".join(f"{t}:{c}" for t, c in self.placements))
        if self.deathblow:
            parts.append("deathblow " + ",".join(map(face_str, self.deathblow.roll)))
        return " | ".join(parts)


Action = (Initiative | Spawn | Activate | Move | Shift | Attack | Roll | Reroll | Aim
          | WailRoll | AssignBlade
          | AssignDamage | ChooseOutcome | DeclineDeathblow | Place | EndPhase | Combat)


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready form (used by logs and the API)."""
    d = asdict(action)
    d["do"] = type(action).__name__
    return d
