"""Warseer's rules engine: ``new_state``, ``apply`` (a new state and what happened, or a
``RulesError`` with nothing changed) and ``legal_actions`` in a stable order. Pure.

The turn (``docs/rules/warseer.md`` says which parts are the rules text's and which
are tablesight's reading where it is silent):

* **The opening**: each player, p1 first, draws seven cards from their shuffled battle
  deck and returns three, shuffling them back: a hand of four.
* **Before turn 1** each player deploys their hero in their deployment zone, p1 first.
* **Turn start**: the active player draws one card from their battle deck and one from
  the shared Feats deck (while any are left). Drawing the last feat makes this turn the
  game's last.
* **Main phase**, in any order: each creature may move once (up to its movement;
  entering difficult terrain costs two) and attack once (``attack.py``); at most one
  character summoned from the War Camp into the deployment zone; any spells, relics and
  buildings played; at most one support card discarded unplayed; feats played face up
  whose condition is met; at most one feat discarded for its effect; buildings' bonuses,
  each building once a turn, each creature at most one a turn.
* **End**: the game ends at the end of the turn in which the last feat was drawn; the
  player with more victory points wins (Hall of Fame cards count one, face-up feats
  their points); equal points is a draw.
"""

from __future__ import annotations

import random

from . import attack as atk
from . import cards
from .actions import (
    Action,
    Advance,
    Counterblow,
    Declare,
    Deploy,
    Discard,
    Draw,
    EndTurn,
    Modify,
    Move,
    Pass,
    Play,
    PlayFeat,
    Push,
    Return,
    Roll,
    SpendFeat,
    Summon,
    Use,
)
from .damage import Event, victory_points
from .errors import RulesError
from .game import START_DRAW, START_RETURN, Game
from .hexes import Hex
from .listing import main_actions

# movement, reachable and moves: asked of the engine by screens and tests too
from .movement import move, movement, moves, reachable  # noqa: F401
from .state import (
    ADVANCE,
    CAMP,
    COUNTER,
    DEPLOY,
    FIELD,
    MAIN,
    OPENING,
    OVER,
    PLAYERS,
    PUSH,
    Side,
    State,
    Unit,
    other,
)
from .turn import main_phase


def new_state(game: Game, opening: bool = True) -> State:
    """A game before its opening (each player draws seven and returns three), or with
    ``opening=False`` just after it: the heroes to deploy, four cards in each hand."""
    units = {f"{p}#{i}": Unit(f"{p}#{i}", p, name)
             for p in PLAYERS for i, name in enumerate(game.warbands[p])}
    hand = 0 if opening else START_DRAW - START_RETURN
    sides = {p: Side(hand=hand, draw_pile=len(game.decks[p]) - hand,
                     unseen=sorted(game.decks[p])) for p in PLAYERS}
    return State(game, units, sides, feats_left=len(game.catalog.feats_deck()),
                 phase=OPENING if opening else DEPLOY)


# -- the opening --------------------------------------------------------------------------
def opening_step(s: State) -> type[Draw] | type[Return] | None:
    """What the active player's opening waits for: the draw of seven (an empty hand),
    the return of three (seven in hand), or nothing outside the opening."""
    if s.phase != OPENING:
        return None
    return Draw if s.sides[s.active].hand < START_DRAW else Return


def after_opening(s: State) -> tuple[State, tuple[Action, ...]]:
    """The state once the opening's remaining steps are taken (as the table takes them,
    the cards unnamed), and those steps; ``s`` and none outside the opening."""
    steps: list[Action] = []
    while (step := opening_step(s)) is not None:
        a = step(s.active)
        s, _ = apply(s, a)
        steps.append(a)
    return s, tuple(steps)


def _opening(s: State, a: Draw | Return, verb: str) -> None:
    if s.phase != OPENING:
        raise RulesError("not_now", f"{a}: the opening is over")
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: {s.active} opens now (p1, then p2)")
    want = opening_step(s)
    if want is not type(a):
        raise RulesError("not_now", f"{a}: {a.player} {verb} first")


def _named(game: Game, cards: tuple[str, ...], n: int, pool: list[str], a: Action,
           where: str) -> list[str]:
    """``cards`` as card codes, exactly ``n`` of them, each one of ``pool``'s (counting
    copies); ``RulesError`` naming the first that is not."""
    if len(cards) != n:
        raise RulesError("cards", f"{a}: name {n} cards, not {len(cards)}")
    left = list(pool)
    for c in cards:
        if c not in game.catalog.cards:
            raise RulesError("no_card", f"{a}: no card {c} in the catalog")
        if c not in left:
            raise RulesError("not_in_hand", f"{a}: {c} is not {where}")
        left.remove(c)
    return list(cards)


def _draw(game: Game, s: State, a: Draw, events: list[Event]) -> None:
    _opening(s, a, "returns three cards")
    side = s.sides[a.player]
    if a.cards is not None:
        side.known = _named(game, a.cards, START_DRAW, side.unseen, a,
                            "among the deck's cards")
    side.hand, side.draw_pile = START_DRAW, side.draw_pile - START_DRAW
    events.append(Event("drew", {"player": a.player, "cards": START_DRAW}))


def _return(game: Game, s: State, a: Return, events: list[Event]) -> None:
    _opening(s, a, "draws seven cards")
    side = s.sides[a.player]
    if a.cards is not None:
        pool = side.known if side.known else side.unseen
        back = _named(game, a.cards, START_RETURN, pool, a,
                      "in the hand" if side.known else "among the deck's cards")
        for c in back:
            if c in side.known:
                side.known.remove(c)
    else:
        side.known = []  # which four stayed is not known
    side.hand, side.draw_pile = START_DRAW - START_RETURN, side.draw_pile + START_RETURN
    events.append(Event("returned", {"player": a.player, "cards": START_RETURN,
                                     "hand": side.hand}))
    if a.player == "p1":
        s.active = "p2"
    else:
        s.active, s.phase = "p1", DEPLOY


# -- turns ------------------------------------------------------------------------------------
def _turn_start(game: Game, s: State, events: list[Event]) -> None:
    side = s.sides[s.active]
    if side.draw_pile > 0:
        side.draw_pile -= 1
        side.hand += 1
    if s.feats_left > 0:
        s.feats_left -= 1
        side.feat_hand += 1
        if s.feats_left == 0:
            s.last_turn = True
            events.append(Event("last_feat", {"player": s.active}))
    events.append(Event("turn", {"turn": s.turn, "player": s.active, "hand": side.hand,
                                 "feats_left": s.feats_left}))


def _end_turn(game: Game, s: State, a: EndTurn, events: list[Event]) -> None:
    main_phase(s, a)
    if s.last_turn:
        vp = {p: victory_points(game, s, p) for p in PLAYERS}
        s.winner = "draw" if vp["p1"] == vp["p2"] else max(PLAYERS, key=lambda p: vp[p])
        s.phase = OVER
        events.append(Event("game_over", {"winner": s.winner, "points": vp}))
        return
    for r, u in s.units.items():
        if u.moved or u.attacked or u.building or u.bonus_attack or u.bonus_move:
            u = s.edit(r)
            u.moved = u.attacked = False
            u.building, u.bonus_attack, u.bonus_move = None, 0, 0
    side = s.sides[s.active]
    side.summoned = side.discarded = side.feat_spent = False
    side.destroyed = 0
    side.buildings_used = []
    s.active = other(s.active)
    s.turn += 1
    _turn_start(game, s, events)


def _deploy(game: Game, s: State, a: Deploy, events: list[Event]) -> None:
    if s.phase != DEPLOY:
        raise RulesError("not_now", f"{a}: " + ("each player draws seven cards and "
                         "returns three first" if s.phase == OPENING
                         else "the heroes are deployed already"))
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: {s.active} deploys now")
    if a.unit != f"{a.player}#0":
        raise RulesError("not_hero", f"{a}: {a.player} deploys their hero, {a.player}#0")
    _check_place(game, s, a.player, a.hex, a)
    s.put(a.unit, FIELD, a.hex)
    events.append(Event("deployed", {"unit": a.unit, "hex": str(a.hex)}))
    if a.player == "p1":
        s.active = "p2"
    else:
        s.active, s.phase, s.turn = "p1", MAIN, 1
        _turn_start(game, s, events)


def _check_place(game: Game, s: State, player: str, h: Hex, a: Action) -> None:
    if h not in game.battlefield.deployment[player]:
        raise RulesError("zone", f"{a}: {h} is not in {player}'s deployment zone")
    if not game.battlefield.standable(h):
        raise RulesError("terrain", f"{a}: no creature can stand in {h}")
    if h in s.occupied():
        raise RulesError("occupied", f"{a}: {h} is taken by {s.occupied()[h]}")


def _summon(game: Game, s: State, a: Summon, events: list[Event]) -> None:
    main_phase(s, a)
    u = s.units.get(a.unit)
    if u is None or u.player != a.player or u.place != CAMP:
        raise RulesError("not_in_camp", f"{a}: {a.unit} is not in {a.player}'s War Camp")
    if s.sides[a.player].summoned:
        raise RulesError("summoned", f"{a}: one character a turn comes from the War Camp")
    _check_place(game, s, a.player, a.hex, a)
    s.put(a.unit, FIELD, a.hex)
    s.sides[a.player].summoned = True
    events.append(Event("summoned", {"unit": a.unit, "hex": str(a.hex)}))


# -- apply and legal actions -------------------------------------------------------------------
_DISPATCH = {Draw: _draw, Return: _return, Deploy: _deploy, Summon: _summon,
             Move: move, Declare: atk.declare, Roll: atk.roll, Modify: atk.modify,
             Pass: atk.pass_, Push: atk.push, Advance: atk.advance,
             Counterblow: atk.counterblow, Play: cards.play, Use: cards.use,
             Discard: cards.discard, PlayFeat: cards.play_feat, SpendFeat: cards.spend_feat,
             EndTurn: _end_turn}


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened; ``RulesError`` and no change otherwise."""
    game = s.game
    if s.phase == OVER:
        raise RulesError("over", f"{a}: the game is over")
    fn = _DISPATCH.get(type(a))
    if fn is None:
        raise RulesError("unknown", f"{a!r} is not a Warseer action")
    new = s.clone()
    events: list[Event] = []
    fn(game, new, a, events)  # type: ignore[operator]
    return new, events


def chance(s: State, rng: random.Random) -> Roll | None:
    """The roll a fair set of dice makes when the state waits for one; else None."""
    return atk.chance(s.game, s, rng)


def legal_actions(s: State) -> list[Action]:
    """Every action a player may take now, in a stable order; empty while dice are
    awaited (see ``chance``) and once the game is over."""
    game = s.game
    if s.phase == OVER:
        return []
    step = opening_step(s)
    if step is not None:  # the cards stay secret: the unnamed form is the table's
        return [step(s.active)]
    if s.phase == DEPLOY:
        p = s.active
        bf, taken = game.battlefield, s.occupied()
        return [Deploy(p, f"{p}#0", h) for h in bf.zones_in_order[p]
                if bf.standable(h) and h not in taken]
    at = s.attack
    if at is not None:
        if at.step == atk.MODIFY:
            return [*atk.modifications(game, s), Pass(at.to_act)]
        if at.step == PUSH:
            return [Push(at.to_act, at.defender, h) for h in atk.push_options(game, s)]
        if at.step == ADVANCE:
            return [Advance(at.to_act, True), Advance(at.to_act, False)]
        if at.step == COUNTER:
            return [Counterblow(at.to_act), Pass(at.to_act)]
        return []  # dice
    return main_actions(game, s)
