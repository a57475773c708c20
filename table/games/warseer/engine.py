"""Warseer's rules engine: ``new_state``, ``apply`` (a new state and what happened, or a
``RulesError`` with nothing changed) and ``legal_actions`` in a stable order. Pure.

The turn (``docs/rules/warseer.md`` says which parts are the rules text's and which
are tablesight's reading where it is silent):

* **Before turn 1** each player deploys their hero in their deployment zone, p1 first.
  Each starts with a hand of four (seven drawn, three returned and shuffled in).
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
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from . import attack as atk
from .actions import (
    Action,
    Advance,
    Counterblow,
    Declare,
    Deploy,
    Discard,
    EndTurn,
    Modify,
    Move,
    Pass,
    Play,
    PlayFeat,
    Push,
    Roll,
    SpendFeat,
    Summon,
    Use,
)
from .catalog import Card, Effect
from .damage import Event, deal, victory_points
from .errors import RulesError
from .game import START_DRAW, START_RETURN, Game
from .hexes import Hex, distance, neighbours, parse_hex
from .state import (
    ADVANCE,
    CAMP,
    COUNTER,
    DEPLOY,
    FIELD,
    MAIN,
    OVER,
    PLAYERS,
    PUSH,
    Relic,
    Side,
    State,
    Unit,
    other,
)

MAX_RELICS = 3


def new_state(game: Game) -> State:
    units = {f"{p}#{i}": Unit(f"{p}#{i}", p, name)
             for p in PLAYERS for i, name in enumerate(game.warbands[p])}
    hand = START_DRAW - START_RETURN
    sides = {p: Side(hand=hand, draw_pile=len(game.decks[p]) - hand,
                     unseen=sorted(game.decks[p])) for p in PLAYERS}
    return State(game, units, sides, feats_left=len(game.catalog.feats_deck()))


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
    _main_phase(s, a)
    if s.last_turn:
        vp = {p: victory_points(game, s, p) for p in PLAYERS}
        s.winner = "draw" if vp["p1"] == vp["p2"] else max(PLAYERS, key=lambda p: vp[p])
        s.phase = OVER
        events.append(Event("game_over", {"winner": s.winner, "points": vp}))
        return
    for u in s.units.values():
        u.moved = u.attacked = False
        u.building, u.bonus_attack, u.bonus_move = None, 0, 0
    side = s.sides[s.active]
    side.summoned = side.discarded = side.feat_spent = False
    side.destroyed = 0
    side.buildings_used = []
    s.active = other(s.active)
    s.turn += 1
    _turn_start(game, s, events)


def _main_phase(s: State, a: Action) -> None:
    if s.phase != MAIN:
        why = "the game is over" if s.phase == OVER else "the heroes deploy first"
        raise RulesError("not_now", f"{a}: {why}")
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: it is {s.active}'s turn")
    if s.attack is not None:
        raise RulesError("attack_under_way", f"{a}: finish the attack first "
                         f"({s.attack.step}, {s.attack.to_act} to act)")


def _deploy(game: Game, s: State, a: Deploy, events: list[Event]) -> None:
    if s.phase != DEPLOY:
        raise RulesError("not_now", f"{a}: the heroes are deployed already")
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: {s.active} deploys now")
    if a.unit != f"{a.player}#0":
        raise RulesError("not_hero", f"{a}: {a.player} deploys their hero, {a.player}#0")
    _check_place(game, s, a.player, a.hex, a)
    u = s.units[a.unit]
    u.place, u.hex = FIELD, a.hex
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
    _main_phase(s, a)
    u = s.units.get(a.unit)
    if u is None or u.player != a.player or u.place != CAMP:
        raise RulesError("not_in_camp", f"{a}: {a.unit} is not in {a.player}'s War Camp")
    if s.sides[a.player].summoned:
        raise RulesError("summoned", f"{a}: one character a turn comes from the War Camp")
    _check_place(game, s, a.player, a.hex, a)
    u.place, u.hex = FIELD, a.hex
    s.sides[a.player].summoned = True
    events.append(Event("summoned", {"unit": a.unit, "hex": str(a.hex)}))


# -- movement -------------------------------------------------------------------------------
def movement(game: Game, s: State, u: Unit) -> int:
    """Its card's movement, plus enchantments on it, a building's bonus this turn and,
    for a hero, the movement its relics give while equipped."""
    base = game.catalog.creature(u.name).movement + u.bonus_move
    cards = list(u.enchantments)
    if u.ref == f"{u.player}#0":
        cards += [r.code for r in s.sides[u.player].relics]
    if not cards:
        return base
    return base + sum(e.n for c in cards if (e := game.catalog.card(c).effect)
                      and e.verb == "movement")


def reachable(game: Game, s: State, u: Unit,
              taken: Mapping[Hex, str] | None = None) -> Mapping[Hex, int]:
    """Each free hex ``u`` can move to now, with its cost: one per hex, two to enter
    difficult terrain; others' hexes are passed only by flyers, which pay one a hex.
    ``taken``: ``s.occupied()``, when the caller has it already. Not to be changed."""
    return _reach(game, s, u, taken)[1]


def moves(game: Game, s: State, u: Unit, taken: Mapping[Hex, str]) -> tuple[Move, ...]:
    """``u``'s moves, in reading order of their hexes. Actions are values, so the same
    moves from the same place among the same creatures are made once and kept."""
    reach, _, key = _reach(game, s, u, taken)
    kept = game.battlefield.answers
    mine = ("moves", u.ref, key)
    found = kept.get(mine)
    if found is None:
        found = kept[mine] = tuple(Move(u.player, u.ref, h) for h in reach)
    return found  # type: ignore[no-any-return]


_REACH_KEPT = 50_000  # answers kept per battlefield (a game asks a few thousand)


def _reach(game: Game, s: State, u: Unit, taken: Mapping[Hex, str] | None
           ) -> tuple[tuple[Hex, ...], dict[Hex, int], tuple[Any, ...]]:
    """(the hexes in reading order, their costs, the key the answer is kept under)."""
    # Where a creature can go depends only on its hex, its movement, whether it flies and
    # the creatures within its movement (one further away can be neither passed nor
    # stood on): a game asks the same again and again, so answers are kept with the
    # battlefield, whose terrain they also depend on.
    assert u.hex is not None
    budget = movement(game, s, u)
    flying = game.catalog.creature(u.name).has("flying")
    taken = s.occupied() if taken is None else taken
    start = u.hex
    bf = game.battlefield
    near = bf.disk(start, budget).intersection(taken)
    key = (start, budget, flying, near)
    kept = bf.answers
    hit = kept.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    adjacent, standable, difficult = bf.adjacent, bf.standable_hexes, bf.difficult_hexes
    best = {start: 0}
    # Steps cost one or two: hexes are taken cheapest first from one list per cost.
    by_cost: list[list[Hex]] = [[start]] + [[] for _ in range(budget)]
    for cost, hexes in enumerate(by_cost):
        for h in hexes:
            if best[h] != cost:
                continue  # reached more cheaply since it was listed here
            for n in adjacent[h]:
                if flying:
                    c = cost + 1
                elif n not in standable or n in near:
                    continue
                else:
                    c = cost + 2 if n in difficult else cost + 1
                if c <= budget and c < best.get(n, budget + 1):
                    best[n] = c
                    by_cost[c].append(n)
    del best[start]
    out = {h: c for h, c in best.items() if h not in near and h in standable}
    answer = (tuple(sorted(out, key=bf.by_place.__getitem__)), out, key)
    if len(kept) >= _REACH_KEPT:
        kept.clear()
    kept[key] = answer
    return answer


def _move(game: Game, s: State, a: Move, events: list[Event]) -> None:
    _main_phase(s, a)
    u = s.units.get(a.unit)
    if u is None or u.player != a.player or u.place != FIELD:
        raise RulesError("no_unit", f"{a}: {a.unit} is not {a.player}'s on the battlefield")
    if u.moved:
        raise RulesError("moved", f"{a}: {a.unit} has moved this turn already")
    if not game.battlefield.standable(a.hex):
        raise RulesError("reach", f"{a}: no creature can stand in {a.hex} "
                         f"({game.battlefield.terrain[a.hex].label})")
    if a.hex not in reachable(game, s, u):
        raise RulesError("reach", f"{a}: {a.unit} cannot reach {a.hex} (movement "
                         f"{movement(game, s, u)}; difficult terrain costs 2, creatures bar "
                         "the way)")
    frm = u.hex
    u.hex, u.moved = a.hex, True
    events.append(Event("moved", {"unit": a.unit, "from": str(frm), "to": str(a.hex)}))


# -- cards ----------------------------------------------------------------------------------
def _reveal(s: State, player: str, code: str, a: Action) -> None:
    side = s.sides[player]
    if side.hand <= 0:
        raise RulesError("empty_hand", f"{a}: {player}'s hand is empty")
    if not side.can_hold(code):
        why = ("the hand's cards are known and it is not one of them"
               if code in side.unseen else "every copy in their deck has been played")
        raise RulesError("not_in_hand", f"{a}: {player} cannot hold {code}: {why}")
    side.take(code)


def _own_on_field(s: State, player: str, ref: str | None, a: Action) -> Unit:
    u = s.units.get(ref or "")
    if u is None or u.player != player or u.place != FIELD:
        raise RulesError("target", f"{a}: name one of {player}'s creatures on the battlefield")
    return u


def _apply_effect(game: Game, s: State, player: str, eff: Effect, target: str | None,
                  a: Action, events: list[Event], card: Card | None = None) -> None:
    side = s.sides[player]
    if eff.verb == "draw":
        k = min(eff.n, side.draw_pile)
        side.draw_pile -= k
        side.hand += k
        events.append(Event("drew", {"player": player, "cards": k}))
    elif eff.verb == "damage":
        u = s.units.get(target or "")
        if u is None or u.player == player or u.place != FIELD:
            raise RulesError("target", f"{a}: name an enemy creature on the battlefield")
        if card is not None and card.range:
            hero = s.hero(player)
            if hero.place != FIELD or hero.hex is None or u.hex is None \
                    or distance(hero.hex, u.hex) > card.range:
                raise RulesError("range", f"{a}: {target} must be within {card.range} "
                                 "hexes of your hero")
        deal(game, s, u.ref, eff.n, True, events)
    elif eff.verb == "summon":
        where = summon_hexes(game, s, player, card)
        k = min(eff.n, len(where))
        hexes = _hexes_target(target, a)
        if k == 0 or len(hexes) != k or len(set(hexes)) != k or not set(hexes) <= set(where):
            place = ("a free hex of your deployment zone" if card and card.place == "zone"
                     else "a free hex beside your hero")
            many = f"{k} different hexes, each" if k > 1 else "one hex,"
            raise RulesError("target", f"{a}: name {many} {place}")
        for h in hexes:
            ref = f"{player}#{len(game.warbands[player]) + s.minions[player]}"
            s.minions[player] += 1
            s.units[ref] = Unit(ref, player, eff.arg, FIELD, h)
            events.append(Event("summoned", {"unit": ref, "hex": str(h), "minion": eff.arg}))
    else:
        u = _own_on_field(s, player, target, a)
        if eff.verb == "heal":
            healed = min(eff.n, u.wounds)
            u.wounds -= healed
            events.append(Event("healed", {"unit": u.ref, "by": healed}))
        elif eff.verb == "armour":
            u.armour += eff.n
            events.append(Event("armoured", {"unit": u.ref, "armour": u.armour}))
        elif eff.verb == "movement":
            u.bonus_move += eff.n if card is None or card.type == "building" else 0
        elif eff.verb == "attack":
            u.bonus_attack += 1 if card is None or card.type == "building" else 0
        if card is not None and card.enchantment:
            u.enchantments.append(card.code)
            events.append(Event("enchanted", {"unit": u.ref, "card": card.code}))


def _hexes_target(target: str | None, a: Action) -> list[Hex]:
    try:
        return [parse_hex(h) for h in (target or "").split(",")]
    except ValueError:
        raise RulesError("target", f"{a}: name a hex, or hexes like a3,b3") from None


def summon_hexes(game: Game, s: State, player: str, card: Card | None) -> list[Hex]:
    """Where a card's summoned minions may come now, sorted: free hexes beside the hero
    (the default; none while the hero is off the battlefield) or, for a card whose
    ``place`` is ``zone``, free hexes of the player's deployment zone."""
    bf, taken = game.battlefield, s.occupied()
    if card is not None and card.place == "zone":
        area: Iterable[Hex] = bf.deployment[player]
    else:
        hero = s.hero(player)
        if hero.place != FIELD or hero.hex is None:
            return []
        area = neighbours(hero.hex)
    return sorted((h for h in area if bf.standable(h) and h not in taken),
                  key=lambda h: (h.col, h.row))


def _play(game: Game, s: State, a: Play, events: list[Event]) -> None:
    _main_phase(s, a)
    card = game.catalog.cards.get(a.card)
    if card is None:
        raise RulesError("no_card", f"{a}: no card {a.card} in the catalog")
    side = s.sides[a.player]
    if card.type == "tactic":
        raise RulesError("tactic", f"{a}: a tactic is played on its trigger "
                         f"({card.trigger}), not in the main phase")
    if card.type == "relic":
        hero = s.hero(a.player)
        if hero.place != FIELD:
            raise RulesError("no_hero", f"{a}: a relic is equipped by a hero on the battlefield")
        if len(side.relics) >= MAX_RELICS:
            raise RulesError("relics", f"{a}: a hero carries at most {MAX_RELICS} relics")
        if any(r.code == card.code for r in side.relics):
            raise RulesError("relics", f"{a}: the hero has {card.name} equipped already")
    # ``apply`` works on a copy it drops on a refusal, so a half-played card changes nothing.
    _reveal(s, a.player, card.code, a)
    events.append(Event("played", {"player": a.player, "card": card.code,
                                   "target": a.target}))
    if card.type == "relic":
        side.relics.append(Relic(card.code, card.armour, card.uses))
    elif card.type == "building":
        side.buildings.append(card.code)
    else:
        assert card.effect is not None
        _apply_effect(game, s, a.player, card.effect, a.target, a, events, card)
        if not card.enchantment:
            side.history.append(card.code)


def _use(game: Game, s: State, a: Use, events: list[Event]) -> None:
    _main_phase(s, a)
    side = s.sides[a.player]
    if a.building not in side.buildings:
        raise RulesError("no_building", f"{a}: {a.building} is not in {a.player}'s City Zone")
    if a.building in side.buildings_used:
        raise RulesError("used", f"{a}: {a.building} has been used this turn")
    u = _own_on_field(s, a.player, a.unit, a)
    if u.building is not None:
        raise RulesError("bonus", f"{a}: {a.unit} has a building's bonus this turn already")
    card = game.catalog.card(a.building)
    assert card.effect is not None
    _apply_effect(game, s, a.player, card.effect, a.unit, a, events, card)
    u.building = a.building
    side.buildings_used.append(a.building)
    events.append(Event("building_used", {"building": a.building, "unit": a.unit}))


def _discard(game: Game, s: State, a: Discard, events: list[Event]) -> None:
    _main_phase(s, a)
    side = s.sides[a.player]
    if side.discarded:
        raise RulesError("discarded", f"{a}: one support card a turn may be discarded")
    if a.card not in game.catalog.cards:
        raise RulesError("no_card", f"{a}: no card {a.card} in the catalog")
    _reveal(s, a.player, a.card, a)
    side.history.append(a.card)
    side.discarded = True
    events.append(Event("discarded", {"player": a.player, "card": a.card}))


# -- feats ----------------------------------------------------------------------------------
def feat_met(game: Game, s: State, player: str, code: str) -> bool:
    what, n = game.catalog.feat(code).condition
    side = s.sides[player]
    if what == "destroyed":
        count = side.destroyed
    elif what == "relics":
        count = len(side.relics)
    elif what == "buildings":
        count = len(side.buildings)
    elif what == "hall":
        count = side.hall
    elif what == "zone":
        enemy_zone = game.battlefield.deployment[other(player)]
        count = sum(1 for u in s.on_field(player) if u.hex in enemy_zone)
    elif what == "minions":
        count = sum(1 for u in s.on_field(player)
                    if game.catalog.creature(u.name).kind == "minion")
    else:  # unhurt
        hero = s.hero(player)
        count = int(hero.place == FIELD and hero.wounds == 0)
    return count >= n


def _feat_card(game: Game, s: State, player: str, code: str, a: Action) -> None:
    if code not in game.catalog.feats:
        raise RulesError("no_feat", f"{a}: no feat {code} in the catalog")
    side = s.sides[player]
    if side.feat_hand <= 0:
        raise RulesError("no_feat", f"{a}: {player} holds no feat card")
    if s.feats_revealed.count(code) >= game.catalog.feat_copies[code]:
        raise RulesError("no_feat", f"{a}: every copy of {code} has been played")


def _play_feat(game: Game, s: State, a: PlayFeat, events: list[Event]) -> None:
    _main_phase(s, a)
    _feat_card(game, s, a.player, a.feat, a)
    if not feat_met(game, s, a.player, a.feat):
        what, n = game.catalog.feat(a.feat).condition
        raise RulesError("condition", f"{a}: its condition is not met ({what} {n})")
    side = s.sides[a.player]
    side.feat_hand -= 1
    side.feats_up.append(a.feat)
    s.feats_revealed.append(a.feat)
    events.append(Event("feat", {"player": a.player, "feat": a.feat,
                                 "points": game.catalog.feat(a.feat).points}))


def _spend_feat(game: Game, s: State, a: SpendFeat, events: list[Event]) -> None:
    _main_phase(s, a)
    _feat_card(game, s, a.player, a.feat, a)
    side = s.sides[a.player]
    if side.feat_spent:
        raise RulesError("spent", f"{a}: one feat a turn may be discarded for its effect")
    eff = game.catalog.feat(a.feat).discard
    if eff is None:
        raise RulesError("no_effect", f"{a}: {a.feat} has no effect when discarded")
    events.append(Event("feat_spent", {"player": a.player, "feat": a.feat}))
    _apply_effect(game, s, a.player, eff, a.target, a, events)
    side.feat_hand -= 1
    side.feat_spent = True
    s.feats_revealed.append(a.feat)


# -- apply and legal actions -------------------------------------------------------------------
_DISPATCH = {Deploy: _deploy, Summon: _summon, Move: _move, Declare: atk.declare,
             Roll: atk.roll, Modify: atk.modify, Pass: atk.pass_, Push: atk.push,
             Advance: atk.advance, Counterblow: atk.counterblow, Play: _play, Use: _use,
             Discard: _discard, PlayFeat: _play_feat, SpendFeat: _spend_feat,
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
    bf = game.battlefield
    taken = s.occupied()
    standable = bf.standable_hexes
    if s.phase == DEPLOY:
        p = s.active
        return [Deploy(p, f"{p}#0", h) for h in bf.zones_in_order[p]
                if h in standable and h not in taken]
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
    p = s.active
    side = s.sides[p]
    out: list[Action] = []
    mine = sorted(s.on_field(p), key=lambda u: u.ref)
    enemies = sorted(s.on_field(other(p)), key=lambda u: u.ref)
    if not side.summoned:
        zone = tuple(h for h in bf.zones_in_order[p] if h in standable and h not in taken)
        kept = bf.answers
        for u in sorted(s.units.values(), key=lambda u: u.ref):
            if u.player == p and u.place == CAMP and u.ref != f"{p}#0":
                key = ("summons", u.ref, zone)
                found = kept.get(key)
                if found is None:
                    found = kept[key] = tuple(Summon(p, u.ref, h) for h in zone)
                out += found
    for u in mine:
        if not u.moved:
            out += moves(game, s, u, taken)
    blocking = atk.blockers(game, s)
    for u in mine:
        if not u.attacked:
            out += [Declare(p, u.ref, e.ref) for e in atk.targets(game, u, enemies, blocking)]
    out += _card_actions(game, s, p, mine, enemies)
    out.append(EndTurn(p))
    return out


def _card_actions(game: Game, s: State, p: str, mine: Sequence[Unit],
                  enemies: Sequence[Unit]) -> list[Action]:
    side = s.sides[p]
    out: list[Action] = []
    hero = s.hero(p)
    holdable = side.holdable()
    if holdable:
        cards = game.catalog.cards
        for code in holdable:
            card = cards[code]
            if card.type == "tactic":
                continue  # played on its trigger, never in the main phase
            if card.type == "relic" and (hero.place != FIELD or len(side.relics) >= MAX_RELICS
                                         or any(r.code == code for r in side.relics)):
                continue
            out += [Play(p, code, target)
                    for target in _targets(game, s, p, card.effect, card, mine, enemies, hero)]
        if not side.discarded:
            out += [Discard(p, code) for code in holdable]
    for b in sorted(set(side.buildings) - set(side.buildings_used)):
        out += [Use(p, b, u.ref) for u in mine if u.building is None]
    if side.feat_hand > 0:
        for code in sorted(game.catalog.feats):
            if s.feats_revealed.count(code) >= game.catalog.feat_copies[code]:
                continue
            if feat_met(game, s, p, code):
                out.append(PlayFeat(p, code))
            eff = game.catalog.feats[code].discard
            if not side.feat_spent and eff is not None:
                out += [SpendFeat(p, code, t)
                        for t in _targets(game, s, p, eff, None, mine, enemies, hero)]
    return out


def _targets(game: Game, s: State, p: str, eff: Effect | None, card: Card | None,
             mine: Sequence[Unit], enemies: Sequence[Unit], hero: Unit) -> list[str | None]:
    """Each target an effect may name (None: it names none)."""
    if eff is None or eff.verb == "draw" or (card is not None and card.type in
                                             ("relic", "building", "tactic")):
        return [None]
    if eff.verb == "damage":
        rng = card.range if card is not None else 0
        return [e.ref for e in enemies if not rng or (
            hero.place == FIELD and hero.hex and e.hex and distance(hero.hex, e.hex) <= rng)]
    if eff.verb == "summon":
        where = summon_hexes(game, s, p, card)
        k = min(eff.n, len(where))
        return [",".join(map(str, hs)) for hs in combinations(where, k)] if k else []
    return [u.ref for u in mine]
