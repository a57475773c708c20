"""The state of one Dreamblade match (OpenSpiel's "state"): everything that changes.

A ``State`` is treated as a value: the engine never mutates a state it was given; it
copies it (``copy`` is cheap: flat lists of small ints) and changes the copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .board import PLAYERS
from .game import Game


class Phase(StrEnum):
    INITIATIVE = "initiative"
    SPAWN = "spawn"
    ACTION = "action"
    GAME_OVER = "game_over"


class Zone(StrEnum):
    RESERVES = "reserves"
    DREAMSCAPE = "dreamscape"
    GRAVEYARD = "graveyard"
    REMOVED = "removed"


class Mode(StrEnum):
    """What the active player chose for the current action phase."""

    SHIFT = "shift"
    STRIKE = "strike"


class Step(StrEnum):
    """Where a combat stands."""

    ROLL = "roll"  # waiting for attack dice
    REROLL = "reroll"  # Fortunate: pick dice up to roll again, or keep them
    AIM = "aim"  # a special attack waits for its target
    WAIL = "wail"  # Wail: two six-sided dice to roll
    BLADES = "blades"  # blades rolled that must still be assigned
    DAMAGE = "damage"  # damage to assign to local enemies
    OUTCOME = "outcome"  # damage reached both defense and life: disrupt or destroy?
    DEATHBLOW = "deathblow"  # destroyed defenders may strike back (roll or decline)
    PLACE = "place"  # disrupted creatures to put in empty cells


@dataclass
class Attack:
    """One attack inside a combat: the regular attack or a deathblow."""

    player: str  # who rolls and assigns
    attackers: tuple[int, ...]
    dice: int  # how many attack dice it needs
    special: bool = False  # deathblows (and ability attacks) treat blades as misses
    roll: tuple[int | str, ...] = ()
    blades_left: int = 0
    blades: tuple[tuple[int, str], ...] = ()  # (gid, ability name) per activation
    bonus: int = 0  # from Crit, Fumble...
    rerolls: int = 0  # Fortunate: how many dice may be rolled again (0 once decided)
    target: int | None = None  # a special attack's one target (Assault, Charge...)
    source: str = ""  # what made a special attack ("Assault", "deathblow"...)
    damage_total: int = 0
    damage_left: int = 0
    damaged: tuple[int, ...] = ()  # gids that took damage in this attack
    cell: int | None = None  # where its targets stand, if not the combat's cell (deathblows)

    @property
    def dice_damage(self) -> int:
        return sum(f for f in self.roll if isinstance(f, int))


@dataclass
class Combat:
    """A combat: the attacks made in one cell during a strike, or the simultaneous
    special attacks one event triggered outside a strike (``strike`` False).

    Damage adds up over all its attacks; creatures are disrupted or destroyed once, when
    its attacks are done (``hit`` holds what was damaged and by whom until then)."""

    cell: int
    player: str  # the striking player
    step: Step
    attack: Attack
    hit: tuple[tuple[int, str], ...] = ()  # (gid, damaging player) not yet judged
    no_disrupt: tuple[int, ...] = ()  # damaged by a Relentless attacker's attack
    strike_hit: tuple[int, ...] = ()  # what the strike's regular attack damaged
    # Destroyed second-player creatures' deathblows still to make: (cell, attackers).
    deathblows: tuple[tuple[int, tuple[int, ...]], ...] = ()
    pending_outcome: tuple[int, ...] = ()
    choices: tuple[tuple[int, str], ...] = ()  # (gid, "disrupt" | "destroy") picked so far
    to_place: tuple[tuple[int, str], ...] = ()  # (gid, player who places it)
    to_graveyard: tuple[tuple[int, str], ...] = ()  # destroyed, waiting for deathblows
    # Blade abilities activated in this combat: stat changes last to its end.
    activated: tuple[tuple[int, str], ...] = ()
    strikers: tuple[int, ...] = ()  # the regular attack's attackers
    strike_destroyed: int = 0  # enemies the regular attack destroyed
    ferocity: tuple[int, ...] = ()  # disrupting these destroys them (Ferocity)
    # Special attacks still to make: (player, attacker, dice, target or -1 to aim, source).
    specials: tuple[tuple[str, int, int, int, str], ...] = ()
    strike: bool = True  # False: special attacks triggered outside a strike (Charge...)

    def copy(self) -> Combat:
        c = Combat(**self.__dict__)
        c.attack = Attack(**self.attack.__dict__)
        return c


@dataclass(frozen=True)
class ConquestResult:
    turn: int
    points: tuple[int, int]
    winner: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "points": {"p1": self.points[0], "p2": self.points[1]},
                "winner": self.winner}


@dataclass
class State:
    game: Game
    turn: int = 1
    phase: Phase = Phase.INITIATIVE
    active: str | None = None
    action_index: int | None = None
    first_player: str | None = None
    rolls: tuple[int, int] | None = None  # the initiative dice of this turn
    turns_won: list[int] = field(default_factory=lambda: [0, 0])
    spawn_points: list[int] = field(default_factory=lambda: [0, 0])
    bonus_points: list[int] = field(default_factory=lambda: [0, 0])
    kills: list[int] = field(default_factory=lambda: [0, 0])  # enemy minis destroyed this turn
    winner: str | None = None
    zone: list[Zone] = field(default_factory=list)
    cell: list[int] = field(default_factory=list)  # -1 when not in the dreamscape
    damage: list[int] = field(default_factory=list)
    # Scratch of the current phase.
    spawn_start_cells: frozenset[int] = frozenset()
    spawned_into: dict[int, int] = field(default_factory=dict)
    abilities_used: frozenset[tuple[int, str]] = frozenset()  # spawn abilities this phase
    # Triggered abilities waiting for their player's choice (comes into play,
    # Reincarnate): resolved before anything else is done.
    pending: tuple[tuple[int, str], ...] = ()
    mode: Mode | None = None
    moved: frozenset[int] = frozenset()
    fought: frozenset[int] = frozenset()
    combat: Combat | None = None
    conquest: tuple[ConquestResult, ...] = ()

    @classmethod
    def initial(cls, game: Game) -> State:
        n = len(game.minis)
        return cls(game=game, zone=[Zone.RESERVES] * n, cell=[-1] * n, damage=[0] * n)

    def copy(self) -> State:
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.turns_won = self.turns_won[:]
        s.spawn_points = self.spawn_points[:]
        s.bonus_points = self.bonus_points[:]
        s.kills = self.kills[:]
        s.zone = self.zone[:]
        s.cell = self.cell[:]
        s.damage = self.damage[:]
        s.spawned_into = dict(self.spawned_into)
        if self.combat is not None:
            s.combat = self.combat.copy()
        return s

    clone = copy

    # -- board queries ------------------------------------------------------------
    def in_cell(self, cell: int) -> list[int]:
        """Gids of every miniature in ``cell``."""
        return [g for g, c in enumerate(self.cell) if c == cell]

    def creatures_in(self, cell: int, pidx: int) -> list[int]:
        where, creature = self.cell, self.game.creature
        return [g for g in self.game.owned[pidx] if where[g] == cell and creature[g]]

    def location_in(self, cell: int) -> int | None:
        creature = self.game.creature
        return next((g for g, c in enumerate(self.cell) if c == cell and not creature[g]), None)

    def is_contested(self, cell: int) -> bool:
        return bool(self.creatures_in(cell, 0)) and bool(self.creatures_in(cell, 1))

    def is_engaged(self, gid: int) -> bool:
        """A creature with at least one enemy creature in its cell."""
        c = self.cell[gid]
        if c < 0:
            return False
        where, creature = self.cell, self.game.creature
        return any(where[g] == c and creature[g]
                   for g in self.game.owned[1 - self.game.minis[gid].pidx])

    def controls_in_column(self, pidx: int, column: int) -> bool:
        board = self.game.board
        return any(self.cell[g] >= 0 and board.column(self.cell[g]) == column
                   for g in self.game.owned[pidx])

    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    # -- output ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The scenario contract's ``state`` object (plus ``combat`` mid-combat)."""
        g = self.game
        names = g.board.cell_names
        out: dict[str, Any] = {
            "turn": self.turn,
            "phase": self.phase.value,
            "active": self.active,
            "action_index": self.action_index,
            "first_player": self.first_player,
            "turns_won": dict(zip(PLAYERS, self.turns_won, strict=True)),
            "spawn_points": dict(zip(PLAYERS, self.spawn_points, strict=True)),
            "bonus_points": dict(zip(PLAYERS, self.bonus_points, strict=True)),
            "minis": {
                m.ref: {"zone": self.zone[m.gid].value,
                        "cell": names[self.cell[m.gid]] if self.cell[m.gid] >= 0 else None,
                        "damage": self.damage[m.gid]}
                for m in g.minis
            },
            "winner": self.winner,
        }
        if self.phase is Phase.ACTION:
            out["mode"] = self.mode.value if self.mode else None
        if self.combat is not None:
            c = self.combat
            out["combat"] = {"cell": names[c.cell], "player": c.player, "step": c.step.value,
                             "roller": c.attack.player,
                             "attackers": [g.ref(x) for x in c.attack.attackers],
                             "dice": c.attack.dice, "roll": list(c.attack.roll),
                             "blades_left": c.attack.blades_left,
                             "damage_left": c.attack.damage_left}
        return out

    def key(self) -> tuple:
        """A hashable summary for tests (equal keys: same game position)."""
        return (self.turn, self.phase, self.active, self.action_index, self.first_player,
                tuple(self.turns_won), tuple(self.spawn_points), tuple(self.bonus_points),
                tuple(self.kills), self.winner, tuple(self.zone), tuple(self.cell),
                tuple(self.damage), self.mode, self.moved, self.fought,
                self.spawn_start_cells, tuple(sorted(self.spawned_into.items())),
                tuple(sorted(self.abilities_used)), self.pending,
                None if self.combat is None else repr(self.combat), self.conquest)
