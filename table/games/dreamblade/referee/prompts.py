"""What the table is told to do next: one prompt per decision point of Dreamblade.

A prompt names who acts, says it in one line a person reads from across the table (in
the players' and miniatures' names), and lists the legal options of the current step:
each as its notation (what a click sends), a sentence (what a person reads) and the
cells and miniatures it involves (what a click on the board selects); plus what the
table box must roll and what the "ready" button would do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.games.dreamblade import actions as A
from table.games.dreamblade import dice, stats
from table.games.dreamblade.combat import placement_cells, targets
from table.games.dreamblade.engine import legal_actions
from table.games.dreamblade.spawning import check_spawn
from table.games.dreamblade.state import Phase, State, Step
from table.system import DiceNeed, Prompt, choice

from .wording import Words, involved

MAX_OPTIONS = 80


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
        return tuple(DiceNeed(p, "init", 1, dice.INITIATIVE, "initiative")
                     for p in ("p1", "p2") if p not in init_dice)
    c = s.combat
    if c is not None and c.step in (Step.ROLL, Step.DEATHBLOW):
        return (DiceNeed(c.attack.player, "attack", c.attack.dice - len(c.attack.roll),
                         dice.ATTACK, "roll"),)
    if c is not None and c.step is Step.WAIL:
        return (DiceNeed(c.attack.player, "init", 2, dice.SIX_SIDED, "initiative",
                         "six-sided dice (Wail)"),)
    return ()


def _damage_panel(state: State, w: Words) -> dict[str, Any] | None:
    """The fight's damage as a card: per enemy, a button per amount saying what it does."""
    s = state
    c = s.combat
    if c is None or c.step is not Step.DAMAGE:
        return None
    ref = s.game.ref
    rows = []
    for g in targets(s):
        dmg, dfn, life = s.damage[g], stats.defense(s, g), stats.life(s, g)
        buttons = []
        for n in range(1, c.attack.damage_left + 1):
            total = dmg + n
            # Short of both, the button says how far: "it holds (1 more disrupts it)".
            more = min(dfn, life) - total
            first = ("disrupt" if dfn <= life else "destroy") + ("s" if more == 1 else "")
            what = ("destroy or disrupt" if total >= life and total >= dfn
                    else "destroys" if total >= life else "disrupts" if total >= dfn
                    else f"it holds ({more} more {first} it)")
            buttons.append({"action": str(A.AssignDamage(c.attack.player, ref(g), n)),
                            "label": f"{n}: {what}", "title": what})
        rows.append({"label": f"{w.piece(ref(g), owner=True)}: damage {dmg}, defense "
                              f"{dfn}, life {life}", "piece": ref(g), "buttons": buttons})
    return {"title": f"Combat in {s.game.board.cell_names[c.cell]}",
            "text": f"{c.attack.damage_left} damage to assign", "rows": rows}


_IN_A_CARD = (A.Roll, A.AssignDamage, A.WailRoll)


def build(state: State, init_dice: Mapping[str, int], words: Words | None = None) -> Prompt:
    """The prompt for ``state``; ``words`` names players and miniatures (the ids stand
    in for names without it)."""
    w = words or Words(state.game, {"p1": "p1", "p2": "p2"})
    quiet = state.phase in (Phase.GAME_OVER, Phase.INITIATIVE)
    legal = [] if quiet else legal_actions(state)
    p = _build(state, init_dice, w, legal)
    choices = []
    for a in legal[:MAX_OPTIONS]:
        cells, minis = involved(a)
        # A spawn's label says what it costs now (aspects, Channel, Respawn), not the
        # printed cost.
        cost = check_spawn(state, a)[2] if isinstance(a, A.Spawn) else None
        choices.append(choice(a, w.action(a, cost), cells, minis, isinstance(a, _IN_A_CARD)))
    label = None
    if p.proposal is not None:
        label = w.action(p.proposal)
        if p.proposal.endswith(" end") and state.phase in (Phase.SPAWN, Phase.ACTION):
            label = f"end {w.player(state.active)}'s {state.phase.value} phase"
    return Prompt(p.step, p.player, p.text, p.options, p.dice, p.proposal, p.detail,
                  tuple(choices), label, _damage_panel(state, w))


def _build(state: State, init_dice: Mapping[str, int], w: Words,
           legal: list[A.Action]) -> Prompt:
    s = state
    who = w.player
    dice = dice_needed(s, init_dice)
    prop = proposal(s)
    prop_text = str(prop) if prop else None
    if s.phase is Phase.GAME_OVER:
        return Prompt("game_over", s.winner, f"{who(s.winner)} wins the game!")
    if s.phase is Phase.INITIATIVE:
        have = ", ".join(f"{who(p)} rolled {v}" for p, v in sorted(init_dice.items()))
        waiting = " and ".join(who(d.player) for d in dice)
        text = f"turn {s.turn}: roll initiative ({waiting} to roll"
        text += f"; {have})" if have else ")"
        return Prompt("initiative", None, text, dice=dice, detail={"rolled": dict(init_dice)})
    options = tuple(str(a) for a in legal[:MAX_OPTIONS])
    names = s.game.board.cell_names
    c = s.combat
    ref = s.game.ref

    def mini(g: int, owner: bool = False) -> str:
        return w.piece(ref(g), owner=owner)

    if c is None and s.pending:
        g, name = s.pending[0]
        p = s.game.minis[g].player
        text = f"{who(p)}: {mini(g)}'s {name} triggered: choose (before anything else)"
        return Prompt("trigger", p, text, options, proposal=prop_text,
                      detail={"mini": ref(g), "ability": name})
    if c is None:
        p = s.active
        assert p is not None
        if s.phase is Phase.SPAWN:
            spawns = [a for a in legal if isinstance(a, A.Spawn)]
            points = s.spawn_points[0 if p == "p1" else 1]
            if not spawns:
                text = (f"{who(p)}: spawn phase, {points} points, nothing can be spawned: "
                        "Ready ends the phase")
            else:
                text = (f"{who(p)}: spawn phase, {points} points, spawn into "
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
        text = (f"{who(p)}: action phase {s.action_index}: {' or '.join(parts)}; Ready when "
                "done" if parts else
                f"{who(p)}: action phase {s.action_index}: nothing to do: Ready ends it")
        return Prompt("action", p, text, options, proposal=prop_text,
                      detail={"mode": s.mode.value if s.mode else None,
                              "index": s.action_index})
    p = c.attack.player
    cell = names[c.cell]
    detail: dict[str, Any] = {"cell": cell, "attackers": [ref(g) for g in c.attack.attackers]}
    if c.step is Step.ROLL:
        n = c.attack.dice - len(c.attack.roll)
        count = f"{n} attack {'die' if n == 1 else 'dice'}"
        if c.attack.source and c.attack.target is not None:
            text = (f"{who(p)}: roll {count} for {mini(c.attack.attackers[0])}'s "
                    f"{c.attack.source} on {mini(c.attack.target, True)}")
        else:
            text = f"{who(p)}: roll {count} for the fight in {cell}"
    elif c.step is Step.AIM:
        text = f"{who(p)}: {mini(c.attack.attackers[0])}'s {c.attack.source}: pick its target"
    elif c.step is Step.WAIL:
        text = (f"{who(p)}: {mini(c.attack.attackers[0])}'s Wail: roll two six-sided dice; "
                "every creature whose spawn cost is their total is banished")
    elif c.step is Step.DEATHBLOW:
        n = c.attack.dice
        where = names[c.attack.cell] if c.attack.cell is not None else cell
        text = (f"{who(p)}: deathblow in {where} ({w.pieces(map(ref, c.attack.attackers))}): "
                f"roll {n} attack dice, or decline")
    elif c.step is Step.REROLL:
        rolled = " ".join(A.face_str(f) for f in c.attack.roll)
        text = (f"{who(p)}: Fortunate in {cell}: pick up to {c.attack.rerolls} of {rolled} "
                "to roll again, or keep them")
        detail["rolled"] = [A.face_str(f) for f in c.attack.roll]
        detail["rerolls"] = c.attack.rerolls
    elif c.step is Step.BLADES:
        text = f"{who(p)}: {c.attack.blades_left} blade(s) to assign in {cell}"
    elif c.step is Step.DAMAGE:
        enemies = w.pieces((ref(g) for g in targets(s)), owner=True)
        text = f"{who(p)}: assign {c.attack.damage_left} damage in {cell} to {enemies}"
        detail["damage_left"] = c.attack.damage_left
        detail["targets"] = [{"mini": ref(g), "damage": s.damage[g],
                              "defense": stats.defense(s, g), "life": stats.life(s, g)}
                             for g in targets(s)]
    elif c.step is Step.OUTCOME:
        them = w.pieces((ref(g) for g in c.pending_outcome), owner=True)
        text = f"{who(p)}: {them} can be disrupted or destroyed: choose"
    else:  # PLACE
        g = next(g for g, placer in c.to_place if placer == p)
        cells = [names[x] for x in placement_cells(s, p)]
        where = f" ({_cells(cells)})" if len(cells) <= 6 else " (tap one on the board)"
        text = f"{who(p)}: put disrupted {mini(g, True)} in an empty cell{where}"
        detail["mini"] = ref(g)
    return Prompt(c.step.value, p, text, options, dice, prop_text, detail)
