"""What the table is asked next, and the dice it waits for."""

from __future__ import annotations

from table.system import DiceNeed, Prompt, choice, place_within

from .. import engine
from ..actions import Cast, Deployed, Done, Empower, First, Hold, Shoot, Strike
from ..dice import D6, battle_die
from ..stack import diameter, pinned_refs
from ..state import CHOOSE, DEPLOY, FIRST, INITIATIVE, MELEE, OVER, PLAYERS, State
from .wording import Words


def dice_needed(state: State) -> tuple[DiceNeed, ...]:
    """The initiative's d6 (each player who has not rolled), a ranged attack's battle
    dice, a d6 for each hit of a d6-strength attack, the d6 for dangerous terrain."""
    if state.phase == INITIATIVE:
        return tuple(DiceNeed(p, "d6", 1, D6, "d6", label="initiative die")
                     for p in PLAYERS if state.sides[p].initiative is None)
    sh = state.shot
    if sh is not None:
        if sh.step == "strength":
            return (DiceNeed(sh.player, "d6", sh.dice, D6, "d6", label="damage dice"),)
        return (DiceNeed(sh.player, "battle", sh.dice, battle_die(state.game.catalog),
                         "dice", label="battle dice" if sh.dice > 1 else "battle die"),)
    if state.danger is not None:
        return (DiceNeed(state.disks[state.danger].player, "d6", 1, D6, "d6",
                         label="dangerous terrain die"),)
    return ()


def prompt_for(words: Words, state: State) -> Prompt:
    who = words.player(state.active)
    p = state.active
    if state.phase == OVER:
        w = state.winner
        return Prompt("over", None, "no one wins" if w == "draw" else
                      f"{words.player(str(w))} wins")
    needs = dice_needed(state)
    if state.phase == INITIATIVE:
        names = " and ".join(words.player(d.player) for d in needs)
        return Prompt("initiative", needs[0].player,
                      f"{names}: roll a die for the initiative", dice=needs)
    if state.phase == FIRST:
        opts = [First(p, q) for q in PLAYERS]
        return Prompt("first", p, f"{who} won the initiative: who is the first player?",
                      options=tuple(map(str, opts)),
                      choices=tuple(choice(a, f"{words.player(a.who)} goes first")
                                    for a in opts))
    if needs:
        sh = state.shot
        what = (f"{words.disk(sh.attacker)} shoots at {words.disk(sh.target)}"
                if sh is not None else f"{words.disk(str(state.danger))} is on dangerous "
                "terrain")
        return Prompt("dice", needs[0].player,
                      f"{words.player(needs[0].player)}: roll {needs[0].n} "
                      f"{needs[0].label} ({what})", dice=needs)
    if state.phase == DEPLOY:
        done = Deployed(p)
        legal = engine.legal_actions(state)
        ready = done in legal
        text = (f"{who}: put your disks in your deployment zone (along your edge, to "
                "medium range)" + (", then Deployed" if ready else
                                   ": every hero first"))
        return Prompt("deploy", p, text, options=(str(done),) if ready else (),
                      choices=(choice(done, "Deployed"),) if ready else (),
                      proposal=str(done) if ready else None, proposal_label="Deployed")
    if state.phase == CHOOSE:
        waiting = [q for q in PLAYERS if state.sides[q].hand
                   and state.sides[q].chosen is None]
        names = " and ".join(words.player(q) for q in waiting)
        return Prompt("command", waiting[0] if waiting else p,
                      f"{names}: choose a command card in secret, on your own page")
    if state.phase == MELEE:
        opts = [a for a in engine.legal_actions(state) if isinstance(a, Strike)]
        d = opts[0].disk if opts else ""
        return Prompt("melee", p, f"{who}: whom does {words.short(d)} strike?",
                      options=tuple(map(str, opts)),
                      choices=tuple(choice(a, f"strike {words.disk(a.target)}",
                                           pieces=[a.disk, a.target]) for a in opts))
    card = state.revealed.get(p, "")
    opts = [a for a in engine.legal_actions(state)
            if isinstance(a, Shoot | Cast | Hold | Empower | Done)]
    left = state.activations
    text = (f"{who} resolves {card}: {left} activation{'s' if left != 1 else ''} left"
            if left else f"{who} resolves {card}")
    shapes = []
    if left:
        pinned = pinned_refs(state)
        for d in sorted(state.on_field(p), key=lambda d: d.ref):
            if d.activated or d.ref in pinned:
                continue
            k = state.game.catalog.disk(d.name)
            reach = k.movement * diameter(state, d)
            if reach > 0:
                shapes.append(place_within(d.ref, f"{words.short(d.ref)} may flip to here",
                                           (d.x, d.y), reach,
                                           f"{p} move {d.ref} {{x}},{{y}}"))
    return Prompt("resolve", p, text, options=tuple(map(str, opts)),
                  choices=tuple(choice(a, _label(words, a), pieces=_pieces(a))
                                for a in opts),
                  proposal=str(Done(p)), proposal_label="End the card",
                  shapes=tuple(shapes), detail={"rings": rings(state)})


def rings(state: State) -> dict[str, list[dict[str, object]]]:
    """For each disk on the battlefield, the range ruler's bands measured from its edge
    (a screen draws them round the disk a person picks): where short, medium and long
    range end, as radii from its centre in map mm."""
    ruler = state.game.catalog.ruler
    return {d.ref: [{"label": band, "radius": round(diameter(state, d) / 2 + end, 1)}
                    for band, end in ruler]
            for d in sorted(state.on_field(), key=lambda d: d.ref)}


def _label(words: Words, a: object) -> str:
    if isinstance(a, Shoot):
        return f"{words.short(a.disk)} shoots {words.disk(a.target)}"
    if isinstance(a, Cast):
        return f"{words.short(a.disk)} casts at {words.disk(a.target)}"
    if isinstance(a, Hold):
        return f"{words.short(a.disk)} holds"
    if isinstance(a, Empower):
        return f"empower {words.short(a.disk)}"
    return "end the card"


def _pieces(a: object) -> list[str]:
    if isinstance(a, Shoot | Cast):
        return [a.disk, a.target]
    if isinstance(a, Hold | Empower):
        return [a.disk]
    return []
