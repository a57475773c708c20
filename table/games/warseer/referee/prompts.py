"""What the table is asked at each decision point of Warseer, as the seam's ``Prompt``:
a sentence read across the table, the legal options with labels and the hexes and
creatures each involves, the dice wanted, and what "ready" does. The attack sequence
has a card of its own (``panel``): the roll as it stands, the damage so far, and each
modification the player to act may use, or pass."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from table.system import Prompt, choice

from .. import actions as A
from .. import attack as atk
from .. import engine
from ..state import ADVANCE, COUNTER, DEPLOY, FIELD, MODIFY, OPENING, OVER, PUSH, State
from .context import Context

MAX_OPTIONS = 400  # a main phase with a full hand has ~200; a screen lists them by hex
# The main phase's choices as a screen lists them: what decides the game first (attacks,
# feats to score), then cards, then the many hex-by-hex ones (a tap on a hex filters
# those). The engine's own order stays as it is.
MAIN_ORDER = (A.Declare, A.PlayFeat, A.Play, A.Use, A.SpendFeat, A.Summon, A.Move, A.Discard)


def _involves(a: Any) -> tuple[list[str], list[str]]:
    """(hexes, creatures) an action involves, for a screen to light them up."""
    hexes = [str(a.hex)] if hasattr(a, "hex") else []
    units = [x for x in (getattr(a, "unit", None), getattr(a, "attacker", None),
                         getattr(a, "defender", None)) if x]
    target = getattr(a, "target", None)
    if target:  # a creature, or the hexes a card names (several for a multiple summon)
        if "#" in target:
            units.append(target)
        else:
            hexes += target.split(",")
    return hexes, units


def _choices(ref: Context, actions: list[Any], card: bool = False) -> tuple[dict, ...]:
    out = []
    for a in actions[:MAX_OPTIONS]:
        hexes, units = _involves(a)
        out.append(choice(a, ref.words.action(a), hexes, units, card))
    return tuple(out)


def _roll_text(ref: Context, state: State) -> str:
    at = state.attack
    assert at is not None
    faces = [ref.words.face(f) for f in at.faces] + [ref.words.face(f) for f in at.extra]
    sym = atk.symbols(ref.game, at)
    shown = ", ".join(f"{n} {k}" for k, n in sym.items() if n)
    return f"roll: {' / '.join(faces) or '—'}; shows {shown or 'nothing'}"


def prompt_for(ref: Context, state: State) -> Prompt:
    p = _prompt(ref, state)
    # Creatures the rules put or moved on the battlefield at the dashboard (a card's
    # summon, a push's hex picked there) that the table does not show there yet (as
    # the state has them: an undo may have taken the action back).
    awaited = sorted((u, h) for u, h in ref.camera.awaited.items()
                     if u in state.units and state.units[u].place == FIELD
                     and state.units[u].hex == h)
    if p.step in ("main", "modify", "push", "advance") and awaited:
        put = "; ".join(f"put {_with_sticker(ref, u)} on {h}" for u, h in awaited)
        p = replace(p, text=f"First {put}. {p.text}")
    return p


def _with_sticker(ref: Context, unit: str) -> str:
    """A creature's name, and for a summoned minion the printed sticker the camera knows
    it by (the spare stickers after the warband's: a player picks one from the sheet)."""
    name = ref.words.piece(unit)
    if int(unit.split("#")[1]) < len(ref.game.warbands[unit[:2]]):
        return name
    sticker = ref.stickers.sticker_of(unit)
    return name if sticker is None else f"{name} (sticker {sticker})"


def _prompt(ref: Context, state: State) -> Prompt:
    w = ref.words
    legal = engine.legal_actions(state)
    if state.phase == OVER:
        pts = {p: ref.points(state, p) for p in ("p1", "p2")}
        who = "a draw" if state.winner == "draw" else f"{w.player(state.winner)} wins"
        return Prompt("game_over", None, f"The game is over: {who}, "
                      f"{pts['p1']} to {pts['p2']} victory points")
    if state.phase == OPENING:
        p = state.active
        if isinstance(legal[0], A.Draw):
            text = (f"{w.player(p)}: shuffle your battle deck and draw seven cards "
                    "(keep them secret)")
            label = "seven cards drawn"
        else:
            text = (f"{w.player(p)}: put three of your seven cards back into your battle "
                    "deck and shuffle it: four stay in your hand")
            label = "four cards in hand"
        # One step, no choice: the screen's Ready button ("Ready: seven cards drawn").
        return Prompt("opening", p, text, tuple(map(str, legal)),
                      proposal=str(legal[0]), proposal_label=label)
    if state.phase == DEPLOY:
        p = state.active
        rows = sorted({h.row + 1 for h in ref.game.battlefield.deployment[p]})
        return Prompt("deploy", p, f"{w.player(p)}: put your hero {w.piece(p + '#0')} on a "
                      f"hex of your deployment zone (rows {rows[0]}-{rows[-1]})",
                      tuple(map(str, legal)), choices=_choices(ref, legal))
    at = state.attack
    if at is not None:
        return _attack_prompt(ref, state, legal)
    p = state.active
    last = " This is the last turn." if state.last_turn else ""
    shown = sorted(legal, key=lambda a: MAIN_ORDER.index(type(a))
                   if type(a) in MAIN_ORDER else len(MAIN_ORDER))  # stable: by kind
    # Short, to read across the room: what the hand holds is in the score beside it.
    return Prompt("main", p, f"{w.player(p)}'s turn {state.turn}: move, attack, summon, play "
                  f"cards; end the turn when done.{last}",
                  tuple(map(str, legal)), choices=_choices(ref, shown),
                  proposal=str(A.EndTurn(p)), proposal_label="End the turn")


def _attack_prompt(ref: Context, state: State, legal: list[Any]) -> Prompt:
    w = ref.words
    at = state.attack
    assert at is not None
    title = f"{w.piece(at.attacker)} attacks {w.piece(at.defender, owner=True)}" + (
        " (counterblow)" if at.counter else "") + (" — magic" if at.magic else "")
    dice = ref.dice_needed(state)
    if dice:
        d = dice[0]
        assert d.die is not None
        pending = len(ref.pending(state))
        more = " (the rest of the roll)" if pending else ""
        return Prompt("roll", d.player, f"{title}: {w.player(d.player)} rolls {d.n} "
                      f"{d.die.label_for(d.n)}{more}", dice=dice,
                      detail={"attack": at.to_dict()})
    who = w.player(at.to_act)
    detail = {"attack": at.to_dict()}
    if at.step == MODIFY:
        mods = [a for a in legal if isinstance(a, A.Modify)]
        text = f"{title}: {who} modifies the dice or passes"  # the card shows the roll
        buttons = [{"action": str(a), "label": w.action(a)} for a in mods]
        buttons.append({"action": str(A.Pass(at.to_act)), "label": f"{who}: pass"})
        panel = {"title": title, "text": _roll_text(ref, state),
                 "rows": [{"label": f"{who} to act", "buttons": buttons}]}
        return Prompt("modify", at.to_act, text, tuple(map(str, legal)),
                      choices=_choices(ref, legal, card=True), panel=panel,
                      proposal=str(A.Pass(at.to_act)), proposal_label="Pass",
                      detail=detail)
    if at.step == PUSH:
        return Prompt("push", at.to_act, f"{title}: {who} pushes {w.piece(at.defender)} "
                      f"({at.damage} damage so far) to a free hex beside it: move the "
                      "miniature, or pick the hex", tuple(map(str, legal)),
                      choices=_choices(ref, [a for a in legal if isinstance(a, A.Push)]),
                      detail=detail)
    if at.step == ADVANCE:
        return Prompt("advance", at.to_act, f"{title}: {who} may advance "
                      f"{w.piece(at.attacker)} into {at.origin}, or stay",
                      tuple(map(str, legal)), choices=_choices(ref, legal),
                      detail=detail)
    if at.step == COUNTER:
        return Prompt("counterblow", at.to_act, f"{w.piece(at.defender)} may strike back at "
                      f"{w.piece(at.attacker)}: {who}, counterblow or pass",
                      tuple(map(str, legal)), choices=_choices(ref, legal), detail=detail)
    return Prompt(at.step, at.to_act, title, tuple(map(str, legal)),
                  choices=_choices(ref, legal), detail=detail)

