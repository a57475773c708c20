"""What the table is told to do next: one prompt per decision point of Dreamblade.

A prompt names who acts, says it in one line a person reads from across the table, and
lists the legal options of the current step (the text form of each action), plus what
the table box must roll and what the "ready" button would do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.dreamblade import actions as A
from table.dreamblade import stats
from table.dreamblade.combat import placement_cells, targets
from table.dreamblade.engine import legal_actions
from table.dreamblade.state import Phase, State, Step

MAX_OPTIONS = 80


@dataclass(frozen=True)
class DiceNeed:
    """What the box should roll next for ``player`` (``kind``: init or attack)."""

    player: str
    kind: str
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "n": self.n}


@dataclass(frozen=True)
class Prompt:
    step: str
    player: str | None
    text: str
    options: tuple[str, ...] = ()
    dice: tuple[DiceNeed, ...] = ()
    proposal: str | None = None  # what "ready" does now
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "player": self.player, "text": self.text,
                "options": list(self.options), "dice": [d.to_dict() for d in self.dice],
                "proposal": self.proposal, **self.detail}


def _cells(names: list[str]) -> str:
    return " ".join(sorted(set(names))) or "none"


def proposal(state: State) -> A.Action | None:
    """The action the ready button takes: end the phase, or a sensible combat choice
    (damage where it finishes an enemy, destroy over disrupt, the first blade option)."""
    s = state
    if s.pending and s.combat is None:
        return next(iter(legal_actions(s)), None)  # the first way to resolve the trigger
    if s.phase in (Phase.SPAWN, Phase.ACTION) and s.combat is None and s.active:
        return A.EndPhase(s.active)
    c = s.combat
    if c is None:
        return None
    legal = legal_actions(s)
    if c.step is Step.DAMAGE:
        game = s.game

        def key(a: A.AssignDamage) -> tuple[int, int]:
            g = game.by_ref[a.target]
            left = stats.life(s, g) - s.damage[g]
            return (0 if a.amount >= left else 1, -a.amount)

        damage = [a for a in legal if isinstance(a, A.AssignDamage)]
        return min(damage, key=key) if damage else None
    if c.step is Step.OUTCOME:
        return next((a for a in legal if isinstance(a, A.ChooseOutcome)
                     and a.outcome == "destroy"), None)
    if c.step is Step.BLADES:
        return next(iter(legal), None)
    if c.step is Step.REROLL:
        return A.Reroll(c.attack.player, ())  # keep the dice
    if c.step is Step.AIM:
        return next(iter(legal), None)
    if c.step is Step.DEATHBLOW:
        return None  # rolling or declining a deathblow is the player's own call
    return None


def dice_needed(state: State, init_dice: Mapping[str, int]) -> tuple[DiceNeed, ...]:
    s = state
    if s.phase is Phase.INITIATIVE:
        return tuple(DiceNeed(p, "init", 1) for p in ("p1", "p2") if p not in init_dice)
    c = s.combat
    if c is not None and c.step in (Step.ROLL, Step.DEATHBLOW):
        return (DiceNeed(c.attack.player, "attack", c.attack.dice - len(c.attack.roll)),)
    if c is not None and c.step is Step.WAIL:
        return (DiceNeed(c.attack.player, "init", 2),)  # two six-sided dice
    return ()


def build(state: State, init_dice: Mapping[str, int]) -> Prompt:
    s = state
    dice = dice_needed(s, init_dice)
    prop = proposal(s)
    prop_text = str(prop) if prop else None
    if s.phase is Phase.GAME_OVER:
        return Prompt("game_over", s.winner, f"{s.winner} wins the game!")
    if s.phase is Phase.INITIATIVE:
        have = ", ".join(f"{p} rolled {v}" for p, v in sorted(init_dice.items()))
        waiting = " and ".join(d.player for d in dice)
        text = f"turn {s.turn}: roll initiative ({waiting} to roll"
        text += f"; {have})" if have else ")"
        return Prompt("initiative", None, text, dice=dice, detail={"rolled": dict(init_dice)})
    legal = legal_actions(s)
    options = tuple(str(a) for a in legal[:MAX_OPTIONS])
    names = s.game.board.cell_names
    c = s.combat
    if c is None and s.pending:
        g, name = s.pending[0]
        p = s.game.minis[g].player
        text = f"{p}: {s.game.ref(g)}'s {name} triggered: choose (before anything else)"
        return Prompt("trigger", p, text, options, proposal=prop_text,
                      detail={"mini": s.game.ref(g), "ability": name})
    if c is None:
        p = s.active
        assert p is not None
        if s.phase is Phase.SPAWN:
            spawns = [a for a in legal if isinstance(a, A.Spawn)]
            points = s.spawn_points[0 if p == "p1" else 1]
            if not spawns:
                text = f"{p}: spawn phase, {points} points, nothing can be spawned: press ready"
            else:
                text = (f"{p}: spawn phase, {points} points, legal cells "
                        f"{_cells([a.cell for a in spawns])}")
            return Prompt("spawn", p, text, options, proposal=prop_text,
                          detail={"points": points})
        moves = [a for a in legal if isinstance(a, A.Move)]
        attacks = [a for a in legal if isinstance(a, A.Attack)]
        parts = []
        if moves:
            parts.append("shift (move creatures)" if s.mode is None else "move creatures")
        if attacks:
            parts.append(f"strike in {_cells([a.cell for a in attacks])}")
        what = " or ".join(parts) if parts else "nothing to do"
        text = f"{p}: action phase {s.action_index}: {what}; press ready when done"
        return Prompt("action", p, text, options, proposal=prop_text,
                      detail={"mode": s.mode.value if s.mode else None,
                              "index": s.action_index})
    p = c.attack.player
    cell = names[c.cell]
    ref = s.game.ref
    detail: dict[str, Any] = {"cell": cell, "attackers": [ref(g) for g in c.attack.attackers]}
    if c.step is Step.ROLL:
        n = c.attack.dice - len(c.attack.roll)
        count = f"{n} attack {'die' if n == 1 else 'dice'}"
        if c.attack.source and c.attack.target is not None:
            who = ref(c.attack.attackers[0])
            text = (f"{p}: roll {count} for {who}'s {c.attack.source} on "
                    f"{ref(c.attack.target)}")
        else:
            text = f"{p}: roll {count} for the fight in {cell}"
    elif c.step is Step.AIM:
        who = ref(c.attack.attackers[0])
        text = f"{p}: {who}'s {c.attack.source}: pick its target"
    elif c.step is Step.WAIL:
        who = ref(c.attack.attackers[0])
        text = (f"{p}: {who}'s Wail: roll two six-sided dice; every creature whose spawn "
                "cost is their total is banished")
    elif c.step is Step.DEATHBLOW:
        n = c.attack.dice
        text = f"{p}: deathblow in {cell}: roll {n} attack dice, or decline"
    elif c.step is Step.REROLL:
        rolled = " ".join(A.face_str(f) for f in c.attack.roll)
        text = (f"{p}: Fortunate in {cell}: pick up to {c.attack.rerolls} of {rolled} to "
                "roll again, or keep them")
        detail["rolled"] = [A.face_str(f) for f in c.attack.roll]
        detail["rerolls"] = c.attack.rerolls
    elif c.step is Step.BLADES:
        text = f"{p}: {c.attack.blades_left} blade(s) to assign in {cell}"
    elif c.step is Step.DAMAGE:
        enemies = [ref(g) for g in targets(s)]
        text = f"{p}: assign {c.attack.damage_left} damage in {cell} to {' '.join(enemies)}"
        detail["damage_left"] = c.attack.damage_left
        detail["targets"] = [{"mini": ref(g), "damage": s.damage[g],
                              "defense": stats.defense(s, g), "life": stats.life(s, g)}
                             for g in targets(s)]
    elif c.step is Step.OUTCOME:
        who = " ".join(ref(g) for g in c.pending_outcome)
        text = f"{p}: {who} can be disrupted or destroyed: choose"
    else:  # PLACE
        t = next(ref(g) for g, placer in c.to_place if placer == p)
        cells = [names[x] for x in placement_cells(s, p)]
        text = f"{p}: put disrupted {t} in an empty cell ({_cells(cells)})"
        detail["mini"] = t
    return Prompt(c.step.value, p, text, options, dice, prop_text, detail)
