"""The attack sequence, step by step, as the rules order it:

1. **Declare**: a creature that has not attacked this turn names an enemy within its
   range (in hexes) and in its line of sight (``hexes.line_of_sight``: difficult terrain
   and other creatures block).
2. **Roll** the attack box's dice (the state waits for them: the table box or a person).
3. **Modification round**: the attacker's player first; each player in turn uses any
   number of modifications (a Warlord nearby adds a sword; a defender in cover removes
   one; tactics from the hand with the trigger ``modify``, the same tactic name at most
   once in a round; a hero's own relic, as often as it has uses left) and then passes.
   Two passes in a row end the round. A reroll waits for the new die.
4. **Critical**: one or more dragons apply the attacker's critical effect once (add a
   symbol, push, one additional die, advance); each dragon is also one damage.
5. **Additional dice** (from the critical effect) are rolled and counted; nothing
   modifies them.
6. **Damage**: each sword and each dragon is one damage. One or more push symbols push
   the defender one hex, to a free hex beside it of the attacker's choosing; a defender
   that cannot move takes one more damage, and one pushed into difficult terrain too.
   A push is skipped when the damage already eliminates the defender.
7. **Reductions** (the ability Tough), then armour and wounds (``damage.deal``).
8. **After the attack**: Advance (the attacker may step into the hex the defender stood
   in when the attack was declared, if it is free), then Counterblow (a defender with it
   that survived a non-magic attack may attack back if the attacker is in its range and
   sight; a counterblow is not answered by another).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping

from .actions import Action, Advance, Counterblow, Declare, Modify, Pass, Push, Roll
from .catalog import SYMBOLS, Card, Effect
from .damage import Event, deal, health_left
from .errors import RulesError
from .game import Game
from .hexes import Hex, distance, line_of_sight
from .state import (
    ADVANCE,
    COUNTER,
    DICE_STEPS,
    EXTRA,
    FIELD,
    MODIFY,
    PUSH,
    REROLL,
    ROLL,
    Attack,
    State,
    Unit,
    other,
)
from .turn import main_phase


def blockers(game: Game, s: State, *free: Hex | None,
             taken: Mapping[Hex, str] | None = None) -> frozenset[Hex]:
    """Hexes that block sight: sight-blocking terrain and every creature but ``free``.
    ``taken``: ``s.occupied()``, when the caller has it already."""
    out = game.battlefield.sight_blockers().union(s.occupied() if taken is None else taken)
    return out.difference(free) if free else out


def targets(game: Game, attacker: Unit, enemies: Iterable[Unit], blocked: int) -> list[Unit]:
    """The ``enemies`` ``attacker`` may attack now, ``blocked``: the hexes blocking
    sight as the battlefield's bits (``can_target`` says why not, for one; this is the
    same test without the words, for listing legal actions)."""
    a = attacker.hex
    if a is None:
        return []
    reach = game.catalog.creature(attacker.name).range
    sees = game.battlefield.bits.sees
    aq, ar = a
    out = []
    for e in enemies:
        h = e.hex
        if h is None:
            continue
        dq, dr = h[0] - aq, h[1] - ar
        far = max(abs(dq), abs(dr), abs(dq + dr))  # ``distance``, inline: asked often
        if far <= reach and (far <= 1 or sees(a, h, blocked)):
            out.append(e)
    return out


def can_target(game: Game, s: State, attacker: Unit, defender: Unit,
               blocking: frozenset[Hex] | None = None) -> str | None:
    """Why ``attacker`` cannot attack ``defender`` now, or None."""
    a, d = attacker.hex, defender.hex
    if a is None or d is None:
        return "not on the battlefield"
    reach = game.catalog.creature(attacker.name).range
    far = distance(a, d)
    if far > reach:
        return f"out of range ({far} hexes; its range is {reach})"
    blocking = blockers(game, s) if blocking is None else blocking
    if not line_of_sight(a, d, blocking):  # (its own ends never block)
        return "not in its line of sight"
    return None


def _attack_bonus(game: Game, u: Unit) -> int:
    ench = sum(1 for c in u.enchantments if (e := game.catalog.card(c).effect)
               and e.verb == "attack")
    return ench + u.bonus_attack


def start(game: Game, s: State, attacker: str, defender: str, counter: bool) -> Attack:
    au, du = s.units[attacker], s.units[defender]
    c = game.catalog.creature(au.name)
    assert du.hex is not None
    bonus = _attack_bonus(game, au)
    return Attack(attacker, defender, c.attack.magic, c.attack.colours(), du.hex,
                  counter=counter, to_act=au.player,
                  added={"sword": bonus} if bonus else {})


def declare(game: Game, s: State, a: Declare, events: list[Event]) -> None:
    main_phase(s, a)  # the active player's main phase, no attack under way
    au, du = s.units.get(a.attacker), s.units.get(a.defender)
    if au is None or au.player != a.player or au.place != FIELD:
        raise RulesError("no_attacker", f"{a}: {a.attacker} is not one of {a.player}'s "
                         "creatures on the battlefield")
    if du is None or du.player == a.player or du.place != FIELD:
        raise RulesError("no_target", f"{a}: {a.defender} is not an enemy creature on "
                         "the battlefield")
    if au.attacked:
        raise RulesError("attacked", f"{a}: {a.attacker} has attacked this turn already")
    why = can_target(game, s, au, du)
    if why:
        raise RulesError("target", f"{a}: {a.defender} is {why}")
    s.edit(au.ref).attacked = True
    s.attack = start(game, s, a.attacker, a.defender, counter=False)
    events.append(Event("declared", {"attacker": a.attacker, "defender": a.defender,
                                     "magic": s.attack.magic}))


# -- dice --------------------------------------------------------------------------------
def dice_wanted(s: State) -> tuple[str, tuple[str, ...]] | None:
    """(who rolls, the dice's colours) while the attack waits for dice."""
    at = s.attack
    if at is None or at.step not in DICE_STEPS:
        return None
    if at.step == ROLL:
        return s.units[at.attacker].player, at.colours
    if at.step == REROLL:
        assert at.reroll is not None
        return at.to_act, (at.colours[at.reroll],)
    return s.units[at.attacker].player, (at.extra_colour,)


def roll(game: Game, s: State, a: Roll, events: list[Event]) -> None:
    wanted = dice_wanted(s)
    if wanted is None:
        raise RulesError("no_roll", f"{a}: no dice are awaited now")
    who, colours = wanted
    if a.player != who:
        raise RulesError("not_yours", f"{a}: {who} rolls these dice")
    if len(a.faces) != len(colours):
        raise RulesError("dice_count", f"{a}: {len(colours)} "
                         f"{'die' if len(colours) == 1 else 'dice'} ({', '.join(colours)}), "
                         f"not {len(a.faces)}")
    for f, c in zip(a.faces, colours, strict=True):
        die = game.catalog.dice[c]
        if f not in {x.code for x in die.faces}:
            raise RulesError("face", f"{a}: {f} is not a face of the {die.label} ("
                             + ", ".join(x.code for x in die.distinct()) + ")")
    at = s.attack
    assert at is not None
    events.append(Event("rolled", {"player": a.player, "faces": list(a.faces),
                                   "step": at.step}))
    if at.step == ROLL:
        at.faces = list(a.faces)
        at.step, at.to_act, at.passes = MODIFY, s.units[at.attacker].player, 0
    elif at.step == REROLL:
        assert at.reroll is not None
        at.faces[at.reroll] = a.faces[0]
        at.step, at.reroll = MODIFY, None
    else:
        at.extra.append(a.faces[0])
        _resolve(game, s, events)


def chance(game: Game, s: State, rng: random.Random) -> Roll | None:
    wanted = dice_wanted(s)
    if wanted is None:
        return None
    who, colours = wanted
    return Roll(who, tuple(game.catalog.dice[c].face(rng.randint(1, game.catalog.dice[c].sides))
                           .code for c in colours))


def symbols(game: Game, at: Attack) -> Counter[str]:
    """The symbols the attack shows now: its dice, additional dice and modifications."""
    out: Counter[str] = Counter()
    for faces, colours in ((at.faces, at.colours), (at.extra, (at.extra_colour,) * 9)):
        for f, c in zip(faces, colours, strict=False):
            out.update(next(x for x in game.catalog.dice[c].faces if x.code == f).symbols)
    for k, v in at.added.items():
        out[k] += v
    return Counter({k: max(0, out[k]) for k in SYMBOLS})


def _awaiting(s: State, a: Action, steps: tuple[str, ...], nothing: str) -> Attack:
    """The attack, when it waits for one of ``steps`` from ``a``'s player; otherwise a
    ``RulesError`` saying ``nothing`` is awaited, or whose decision it is."""
    at = s.attack
    if at is None or at.step not in steps:
        raise RulesError("not_now", f"{a}: {nothing}")
    if a.player != at.to_act:
        raise RulesError("not_yours", f"{a}: {at.to_act} decides now")
    return at


# -- the modification round ------------------------------------------------------------------
def _source_effect(game: Game, s: State, player: str, source: str) -> tuple[Effect, Card | None]:
    """The effect ``player`` may use from ``source`` now; ``RulesError`` saying why not."""
    at = s.attack
    assert at is not None
    att, dfd = s.units[at.attacker], s.units[at.defender]
    # Warlord, cover and a tactic's name serve once an attack (a tactic: the same name
    # never twice on one trigger, whoever plays it); a relic with uses is limited only
    # by the uses its owner has left.
    if source in at.used:
        raise RulesError("used", f"{source} has been used in this attack already")
    if source == "warlord":
        if player != att.player or att.hex is None or not any(
                game.catalog.creature(u.name).has("warlord") and u.hex is not None
                and distance(u.hex, att.hex) <= 1 for u in s.on_field(player)):
            raise RulesError("no_warlord", "no Warlord of yours stands within 1 hex of the "
                             "attacker")
        return Effect("add", 1, "sword"), None
    if source == "cover":
        if player != dfd.player or dfd.hex is None or not game.battlefield.cover(dfd.hex):
            raise RulesError("no_cover", "cover is the defender's, standing in cover terrain")
        return Effect("remove", 1, "sword"), None
    kind, code = source.split(":")
    card = game.catalog.cards.get(code)
    if card is None:
        raise RulesError("no_card", f"no card {code} in the catalog")
    if kind == "tactic":
        side = s.sides[player]
        if card.type != "tactic" or card.trigger != "modify":
            raise RulesError("not_tactic", f"{card.name} is not a tactic for this moment")
        if side.hand <= 0 or not side.can_hold(code):
            raise RulesError("not_in_hand", f"{player} cannot hold {card.name} (every copy "
                             "has been played, or the hand is empty)")
    else:
        relic = next((r for r in s.sides[player].relics if r.code == code), None)
        if relic is None or relic.uses <= 0 or card.effect is None:
            raise RulesError("no_relic", f"{player}'s hero has no {card.name} with a use left")
        if f"{player}#0" not in (at.attacker, at.defender):
            raise RulesError("no_relic", f"{card.name} serves its hero's own attacks and "
                             "defence")
    assert card.effect is not None
    return card.effect, card


def modifications(game: Game, s: State) -> list[Modify]:
    """What the player to act may use now, in a stable order."""
    at = s.attack
    if at is None or at.step != MODIFY:
        return []
    p = at.to_act
    side = s.sides[p]
    sources = ["warlord", "cover"]
    sources += [f"tactic:{c}" for c in side.holdable()
                if game.catalog.cards[c].type == "tactic"]
    sources += [f"relic:{r.code}" for r in side.relics]
    out: list[Modify] = []
    for src in sources:
        try:
            eff, _ = _source_effect(game, s, p, src)
        except RulesError:
            continue
        if eff.verb == "reroll":
            out += [Modify(p, src, i + 1) for i in range(len(at.faces))]
        elif eff.verb != "remove" or symbols(game, at)[eff.arg] > 0:
            out.append(Modify(p, src))
    return out


def modify(game: Game, s: State, a: Modify, events: list[Event]) -> None:
    at = _awaiting(s, a, (MODIFY,), "no modification round is under way")
    eff, card = _source_effect(game, s, a.player, a.source)
    if eff.verb == "reroll":
        if a.die is None or not 1 <= a.die <= len(at.faces):
            raise RulesError("die", f"{a}: say which die to reroll, 1 to {len(at.faces)}")
        at.reroll, at.step = a.die - 1, REROLL
    elif a.die is not None:
        raise RulesError("die", f"{a}: only a reroll names a die")
    elif eff.verb == "add":
        at.added[eff.arg] = at.added.get(eff.arg, 0) + 1
    else:
        if symbols(game, at)[eff.arg] <= 0:
            raise RulesError("nothing", f"{a}: the roll shows no {eff.arg} to remove")
        at.added[eff.arg] = at.added.get(eff.arg, 0) - 1
    if not a.source.startswith("relic:"):
        at.used.append(a.source)
    at.passes = 0
    side = s.sides[a.player]
    if card is not None and card.type == "tactic":
        side.take(card.code)
        side.history.append(card.code)
    elif card is not None:
        relic = next(r for r in side.relics if r.code == card.code)
        relic.uses -= 1
        if relic.uses == 0 and relic.armour == 0:
            side.relics.remove(relic)
            side.history.append(relic.code)
    events.append(Event("modified", {"player": a.player, "source": a.source,
                                     "effect": str(eff), "die": a.die}))


def pass_(game: Game, s: State, a: Pass, events: list[Event]) -> None:
    at = _awaiting(s, a, (MODIFY, COUNTER), "there is nothing to pass on now")
    if at.step == COUNTER:
        events.append(Event("no_counterblow", {"player": a.player}))
        s.attack = None
        return
    at.passes += 1
    events.append(Event("passed", {"player": a.player}))
    if at.passes >= 2:
        _critical(game, s, events)
    else:
        at.to_act = other(at.to_act)


# -- after the round: critical, additional dice, damage, push -------------------------------
def _critical(game: Game, s: State, events: list[Event]) -> None:
    at = s.attack
    assert at is not None
    crit = game.catalog.creature(s.units[at.attacker].name).attack.critical
    if crit is not None and symbols(game, at)["dragon"] > 0:
        events.append(Event("critical", {"effect": str(crit)}))
        if crit.verb == "add":
            at.added[crit.arg] = at.added.get(crit.arg, 0) + 1
        elif crit.verb == "push":
            at.pushed = True
        elif crit.verb == "advance":
            at.advance = True
        elif crit.verb == "die":
            at.step, at.extra_colour = EXTRA, crit.arg
            return
    _resolve(game, s, events)


def _resolve(game: Game, s: State, events: list[Event]) -> None:
    at = s.attack
    assert at is not None
    sym = symbols(game, at)
    at.damage = sym["sword"] + sym["dragon"]
    du = s.units[at.defender]
    if (sym["push"] > 0 or at.pushed) and _after_reductions(game, s, at.damage) \
            < health_left(game, s, du, at.magic):
        at.pushed = True
        if push_options(game, s):
            at.step, at.to_act = PUSH, s.units[at.attacker].player
            return
        at.damage += 1
        events.append(Event("cannot_be_pushed", {"unit": at.defender}))
    _finish(game, s, events)


def push_options(game: Game, s: State) -> list[Hex]:
    at = s.attack
    assert at is not None
    du = s.units[at.defender]
    assert du.hex is not None
    taken = s.occupied()
    return sorted((h for h in game.battlefield.adjacent[du.hex] if game.battlefield.standable(h)
                   and h not in taken), key=game.battlefield.by_place.__getitem__)


def push(game: Game, s: State, a: Push, events: list[Event]) -> None:
    at = _awaiting(s, a, (PUSH,), "no push is waiting")
    if a.unit != at.defender:
        raise RulesError("not_yours", f"{a}: {at.to_act} pushes {at.defender}")
    if a.hex not in push_options(game, s):
        raise RulesError("push_hex", f"{a}: {a.hex} is not a free hex beside {a.unit} ("
                         + ", ".join(map(str, push_options(game, s))) + ")")
    s.put(a.unit, FIELD, a.hex)
    events.append(Event("pushed", {"unit": a.unit, "to": str(a.hex)}))
    if game.battlefield.difficult(a.hex):
        at.damage += 1
        events.append(Event("pushed_into_terrain", {"unit": a.unit, "hex": str(a.hex)}))
    _finish(game, s, events)


def _after_reductions(game: Game, s: State, damage: int) -> int:
    at = s.attack
    assert at is not None
    tough = game.catalog.creature(s.units[at.defender].name).ability_n("tough")
    return max(0, damage - tough)


def _finish(game: Game, s: State, events: list[Event]) -> None:
    at = s.attack
    assert at is not None
    dealt = _after_reductions(game, s, at.damage)
    if dealt < at.damage:
        events.append(Event("reduced", {"unit": at.defender, "by": at.damage - dealt}))
    deal(game, s, at.defender, dealt, at.magic, events)
    events.append(Event("attack_done", {"attacker": at.attacker, "defender": at.defender,
                                        "damage": dealt}))
    _after(game, s, events)


def _after(game: Game, s: State, events: list[Event]) -> None:
    at = s.attack
    assert at is not None
    au = s.units[at.attacker]
    if at.advance and au.place == FIELD and at.origin not in s.occupied():
        at.step, at.to_act = ADVANCE, au.player
        return
    _counter_or_end(game, s)


def _counter_or_end(game: Game, s: State) -> None:
    at = s.attack
    assert at is not None
    au, du = s.units[at.attacker], s.units[at.defender]
    if not at.counter and not at.magic and du.place == FIELD and au.place == FIELD \
            and game.catalog.creature(du.name).has("counterblow") \
            and can_target(game, s, du, au) is None:
        at.step, at.to_act = COUNTER, du.player
        return
    s.attack = None


def advance(game: Game, s: State, a: Advance, events: list[Event]) -> None:
    at = _awaiting(s, a, (ADVANCE,), "no advance is offered")
    if a.take:
        s.put(at.attacker, FIELD, at.origin)
        events.append(Event("advanced", {"unit": at.attacker, "to": str(at.origin)}))
    else:
        events.append(Event("stayed", {"unit": at.attacker,
                                       "at": str(s.units[at.attacker].hex)}))
    _counter_or_end(game, s)


def counterblow(game: Game, s: State, a: Counterblow, events: list[Event]) -> None:
    at = _awaiting(s, a, (COUNTER,), "no counterblow is possible now")
    s.attack = start(game, s, at.defender, at.attacker, counter=True)
    events.append(Event("counterblow", {"attacker": at.defender, "defender": at.attacker}))
