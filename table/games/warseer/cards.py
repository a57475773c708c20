"""Support cards and feats in the main phase: a card is revealed from the hand (the rules
know only which cards are still unseen, or the named ones), its effect applied (damage,
heal, armour, draw, summons, bonuses and enchantments), relics equipped, buildings used,
one card discarded a turn; feats played face up when their condition holds, one spent a
turn for its effect. ``card_actions`` lists them for ``engine.legal_actions``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .actions import Action, Discard, Play, PlayFeat, SpendFeat, Use, made_once
from .catalog import Card, Effect
from .damage import Event, deal
from .errors import RulesError
from .game import Game
from .hexes import Hex, distance, parse_hex
from .state import FIELD, Relic, State, Unit, other
from .turn import main_phase

MAX_RELICS = 3


def _reveal(s: State, player: str, code: str, a: Action) -> None:
    side = s.sides[player]
    if side.hand <= 0:
        raise RulesError("empty_hand", f"{a}: {player}'s hand is empty")
    if not side.can_hold(code):
        why = ("the hand's cards are known and it is not one of them"
               if code in side.unseen else "every copy in their deck has been played")
        raise RulesError("not_in_hand", f"{a}: {player} cannot hold {code}: {why}")
    side.take(code)


def own_on_field(s: State, player: str, ref: str | None, a: Action) -> Unit:
    u = s.units.get(ref or "")
    if u is None or u.player != player or u.place != FIELD:
        raise RulesError("target", f"{a}: name one of {player}'s creatures on the battlefield")
    return s.edit(u.ref)  # to be changed


def apply_effect(game: Game, s: State, player: str, eff: Effect, target: str | None,
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
            s.add_unit(Unit(ref, player, eff.arg, FIELD, h))
            events.append(Event("summoned", {"unit": ref, "hex": str(h), "minion": eff.arg}))
    else:
        u = own_on_field(s, player, target, a)
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
            u.enchantments = (*u.enchantments, card.code)
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
        area = bf.adjacent[hero.hex]
    return sorted((h for h in area if bf.standable(h) and h not in taken),
                  key=bf.by_place.__getitem__)


def play(game: Game, s: State, a: Play, events: list[Event]) -> None:
    main_phase(s, a)
    card = game.catalog.cards.get(a.card)
    if card is None:
        raise RulesError("no_card", f"{a}: no card {a.card} in the catalog")
    side = s.sides[a.player]
    if card.type == "tactic":
        raise RulesError("tactic", f"{a}: a tactic is played on its trigger "
                         f"({card.trigger}), not in the main phase")
    if card.type == "relic":
        refusal = _no_relic(s, a.player, card)
        if refusal:
            raise RulesError(refusal[0], f"{a}: {refusal[1]}")
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
        apply_effect(game, s, a.player, card.effect, a.target, a, events, card)
        if not card.enchantment:
            side.history.append(card.code)


def _no_relic(s: State, player: str, card: Card) -> tuple[str, str] | None:
    """Why ``player``'s hero cannot equip the relic ``card`` now (code, words), or None:
    a hero on the battlefield, at most three relics, never two alike."""
    side = s.sides[player]
    if s.hero(player).place != FIELD:
        return "no_hero", "a relic is equipped by a hero on the battlefield"
    if len(side.relics) >= MAX_RELICS:
        return "relics", f"a hero carries at most {MAX_RELICS} relics"
    if any(r.code == card.code for r in side.relics):
        return "relics", f"the hero has {card.name} equipped already"
    return None


def use(game: Game, s: State, a: Use, events: list[Event]) -> None:
    main_phase(s, a)
    side = s.sides[a.player]
    if a.building not in side.buildings:
        raise RulesError("no_building", f"{a}: {a.building} is not in {a.player}'s City Zone")
    if a.building in side.buildings_used:
        raise RulesError("used", f"{a}: {a.building} has been used this turn")
    u = own_on_field(s, a.player, a.unit, a)
    if u.building is not None:
        raise RulesError("bonus", f"{a}: {a.unit} has a building's bonus this turn already")
    card = game.catalog.card(a.building)
    assert card.effect is not None
    apply_effect(game, s, a.player, card.effect, a.unit, a, events, card)
    u.building = a.building
    side.buildings_used.append(a.building)
    events.append(Event("building_used", {"building": a.building, "unit": a.unit}))


def discard(game: Game, s: State, a: Discard, events: list[Event]) -> None:
    main_phase(s, a)
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
    return _feat_count(game, s, player, what) >= n


def _feat_count(game: Game, s: State, player: str, what: str) -> int:
    """What a feat's condition counts (``Feat.condition``), for ``player`` now."""
    side = s.sides[player]
    if what == "destroyed":
        return side.destroyed
    if what == "relics":
        return len(side.relics)
    if what == "buildings":
        return len(side.buildings)
    if what == "hall":
        return side.hall
    if what == "zone":
        enemy_zone = game.battlefield.deployment[other(player)]
        return sum(1 for u in s.on_field(player) if u.hex in enemy_zone)
    if what == "minions":
        return sum(1 for u in s.on_field(player)
                   if game.catalog.creature(u.name).kind == "minion")
    hero = s.hero(player)  # unhurt
    return int(hero.place == FIELD and hero.wounds == 0)


def _feat_card(game: Game, s: State, player: str, code: str, a: Action) -> None:
    if code not in game.catalog.feats:
        raise RulesError("no_feat", f"{a}: no feat {code} in the catalog")
    side = s.sides[player]
    if side.feat_hand <= 0:
        raise RulesError("no_feat", f"{a}: {player} holds no feat card")
    if s.feats_revealed.count(code) >= game.catalog.feat_copies[code]:
        raise RulesError("no_feat", f"{a}: every copy of {code} has been played")


def play_feat(game: Game, s: State, a: PlayFeat, events: list[Event]) -> None:
    main_phase(s, a)
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


def spend_feat(game: Game, s: State, a: SpendFeat, events: list[Event]) -> None:
    main_phase(s, a)
    _feat_card(game, s, a.player, a.feat, a)
    side = s.sides[a.player]
    if side.feat_spent:
        raise RulesError("spent", f"{a}: one feat a turn may be discarded for its effect")
    eff = game.catalog.feat(a.feat).discard
    if eff is None:
        raise RulesError("no_effect", f"{a}: {a.feat} has no effect when discarded")
    events.append(Event("feat_spent", {"player": a.player, "feat": a.feat}))
    apply_effect(game, s, a.player, eff, a.target, a, events)
    side.feat_hand -= 1
    side.feat_spent = True
    s.feats_revealed.append(a.feat)


def card_actions(game: Game, s: State, p: str, mine: Sequence[Unit],
                  enemies: Sequence[Unit]) -> list[Action]:
    """The main phase's card actions, in a stable order: cards played (by card, then
    target), discarded, buildings used, feats played face up or spent."""
    side = s.sides[p]
    out: list[Action] = []
    hero = s.hero(p)
    holdable = side.holdable()
    # Actions are values: the same card with the same targets is made once and kept.
    kept = game.battlefield.answers
    aims: dict[tuple[object, ...], tuple[str | None, ...]] = {}  # targets by what decides them
    if holdable:
        cards = game.catalog.cards
        for code in holdable:
            card = cards[code]
            if card.type == "tactic":
                continue  # played on its trigger, never in the main phase
            if card.type == "relic" and _no_relic(s, p, card):
                continue
            out += made_once(kept, Play, (p, code),
                             _aimed(aims, game, s, p, card.effect, card, mine, enemies, hero))
        if not side.discarded:
            out += made_once(kept, Discard, (p,), tuple(holdable))
    if side.buildings:
        unused = set(side.buildings).difference(side.buildings_used)
        if unused:
            free = tuple(u.ref for u in mine if u.building is None)
            for b in sorted(unused):
                out += made_once(kept, Use, (p, b), free)
    if side.feat_hand > 0:
        catalog = game.catalog
        revealed = s.feats_revealed
        counts: dict[str, int] = {}  # what each kind of condition counts, once a listing
        for code in catalog.feats_in_order:
            if revealed and revealed.count(code) >= catalog.feat_copies[code]:
                continue
            feat = catalog.feats[code]
            what, n = feat.condition
            count = counts.get(what)
            if count is None:
                count = counts[what] = _feat_count(game, s, p, what)
            if count >= n:
                out.append(PlayFeat(p, code))
            eff = feat.discard
            if not side.feat_spent and eff is not None:
                out += made_once(kept, SpendFeat, (p, code),
                                 _aimed(aims, game, s, p, eff, None, mine, enemies, hero))
    return out


def _aimed(aims: dict[tuple[object, ...], tuple[str | None, ...]], game: Game, s: State,
           p: str, eff: Effect | None, card: Card | None, mine: Sequence[Unit],
           enemies: Sequence[Unit], hero: Unit) -> tuple[str | None, ...]:
    """``_targets`` as a tuple, kept in ``aims`` by what decides them: most cards in a
    hand aim alike (an enemy within the same range, one of the player's creatures)."""
    if eff is None or eff.verb == "draw" or (card is not None and card.type in
                                             ("relic", "building", "tactic")):
        key: tuple[object, ...] = ()
    elif eff.verb == "damage":
        key = ("damage", card.range if card is not None else 0)
    elif eff.verb == "summon":
        key = ("summon", eff.n, card.place if card is not None else None)
    else:
        key = ("own",)
    found = aims.get(key)
    if found is None:
        found = aims[key] = tuple(_targets(game, s, p, eff, card, mine, enemies, hero))
    return found


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
