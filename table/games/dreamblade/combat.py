"""Strike: one combat per contested cell, step by step.

    Attack -> ROLL -> BLADES -> DAMAGE -> (special attacks: AIM -> ROLL -> DAMAGE)...
    -> OUTCOME -> (DEATHBLOW -> ROLL -> DAMAGE -> OUTCOME)... -> PLACE -> combat over

Each step waits for one kind of action; steps with nothing to decide are skipped.

Damage adds up over the whole combat: the regular attack, the special attacks its
blades trigger (Assault, Warpstrike), Strikeback. Creatures are disrupted or destroyed
once, when the combat's attacks are done (the rulebook's strike sequence: "during a
strike, creatures don't get disrupted or destroyed until the end of the combat"). The
special attacks one event triggers outside a strike (Charge and Ambush on entering a
cell) are a combat of their own, settled the same way: simultaneous damage adds up.
Destroyed creatures of the second player, in the first player's action phase, make
their deathblows then, whatever attack destroyed them; their damage is judged in turn.
Damage stays on a creature until the end of the phase, so thresholds count all the
damage it has taken this phase.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import actions as A
from . import stats, targeted, triggers
from ._common import LISTED_X, cell, chosen_x, gid, name_of, require_own, require_phase
from .abilities import BladeCost
from .auras import STAT_ABILITIES, condition_met, is_of_type
from .blade_effects import blade_abilities, damage_bonus
from .board import player_index
from .errors import Code, IllegalActionError, InvalidActionError
from .events import Event
from .fates import active_ability, banish, destroy, regenerates, sacrifice
from .state import Attack, Combat, Mode, Phase, State, Step, Zone


# -- starting a combat ---------------------------------------------------------------
def check_attack(s: State, a: A.Attack) -> tuple[int, tuple[int, ...]]:
    require_phase(s, Phase.ACTION, a.player, "strike")
    if s.combat is not None:
        raise IllegalActionError(Code.COMBAT_IN_PROGRESS,
                                 f"the combat in {name_of(s, s.combat.cell)} is not finished")
    if s.mode is Mode.SHIFT:
        raise IllegalActionError(Code.ALREADY_SHIFTED,
                                 f"{a.player} shifted this action phase and cannot also strike")
    c = cell(s, a.cell)
    if c in s.fought:
        raise IllegalActionError(Code.CELL_ALREADY_FOUGHT,
                                 f"{a.cell} already had its combat this action phase")
    if not a.attackers:
        raise IllegalActionError(Code.NO_ATTACKERS, "a combat needs at least one attacker")
    gids: list[int] = []
    for ref in a.attackers:
        g = gid(s, ref)
        require_own(s, g, a.player)
        if g in gids:
            raise InvalidActionError(Code.DUPLICATE_MINI, f"{ref} is listed twice")
        if s.zone[g] is not Zone.DREAMSCAPE:
            raise IllegalActionError(Code.NOT_IN_DREAMSCAPE,
                                     f"{ref} is in the {s.zone[g].value}, not in the dreamscape")
        if not s.game.minis[g].d.is_creature:
            raise IllegalActionError(Code.NOT_A_CREATURE, f"{ref} is a location and cannot attack")
        if s.cell[g] != c:
            raise IllegalActionError(Code.NOT_IN_CELL,
                                     f"{ref} is in {name_of(s, s.cell[g])}, not in {a.cell}")
        gids.append(g)
    if len(gids) > 1:
        loner = next((g for g in gids if s.game.minis[g].d.has("Loner")), None)
        if loner is not None:
            raise IllegalActionError(Code.LONER, f"{s.game.ref(loner)} has Loner: it attacks "
                                     "alone or not at all")
    if not s.is_contested(c):
        raise IllegalActionError(Code.NOT_ENGAGED,
                                 f"no enemy creature in {a.cell}: the attackers are not engaged")
    return c, tuple(gids)


def apply_attack(s: State, a: A.Attack, ev: list[Event]) -> None:
    c, gids = check_attack(s, a)
    s.mode = Mode.STRIKE
    dice = sum(stats.power(s, g) for g in gids)
    s.combat = Combat(cell=c, player=a.player, step=Step.ROLL,
                      attack=Attack(player=a.player, attackers=gids, dice=dice),
                      strikers=gids)
    ev.append(Event("combat", {"cell": a.cell, "attackers": list(a.attackers), "dice": dice}))
    if dice == 0:
        _after_roll(s, ev)


# -- guards for the steps ------------------------------------------------------------
def _combat(s: State, player: str, steps: tuple[Step, ...], what: str) -> Combat:
    if s.phase is Phase.GAME_OVER:
        raise IllegalActionError(Code.GAME_OVER, f"cannot {what}: the game is over")
    c = s.combat
    if c is None:
        raise IllegalActionError(Code.NO_COMBAT, f"cannot {what}: no combat is under way")
    if c.step not in steps:
        raise IllegalActionError(Code.WRONG_STEP,
                                 f"cannot {what}: the combat in {name_of(s, c.cell)} waits for "
                                 f"{c.step.value}")
    if player != c.attack.player:
        raise IllegalActionError(Code.NOT_YOUR_PHASE,
                                 f"cannot {what}: {c.attack.player} decides this step, "
                                 f"not {player}")
    return c


# -- dice ----------------------------------------------------------------------------
def _check_faces(faces: tuple[object, ...]) -> None:
    for f in faces:
        if isinstance(f, bool) or f not in A.ATTACK_FACES:
            raise InvalidActionError(Code.BAD_DIE_FACE,
                                     f"an attack die shows 1, 2, 3, miss or blade, not {f!r}")


def apply_roll(s: State, a: A.Roll, ev: list[Event]) -> None:
    c = _combat(s, a.player, (Step.ROLL, Step.DEATHBLOW), "roll attack dice")
    _check_faces(a.faces)
    att = c.attack
    if len(att.roll) + len(a.faces) > att.dice:
        raise IllegalActionError(Code.WRONG_DICE_COUNT,
                                 f"this attack rolls {att.dice} dice; {len(att.roll)} already "
                                 f"rolled, {len(a.faces)} more given")
    att.roll = (*att.roll, *a.faces)
    c.step = Step.ROLL
    if len(att.roll) == att.dice:
        ev.append(Event("rolled", {"player": a.player, "faces": list(att.roll),
                                   "deathblow": att.player != c.player}))
        if att.rerolls < 0:  # these were the rerolled dice
            att.rerolls = 0
        else:
            # Fortunate X (each attacker's, added up): that many dice may be rolled
            # again, once per attack, special attacks included.
            att.rerolls = sum(ab.number or 0 for g in att.attackers
                              if (ab := active_ability(s, g, "Fortunate")) is not None)
        if att.rerolls > 0:
            c.step = Step.REROLL
            return
        _after_roll(s, ev)


def apply_aim(s: State, a: A.Aim, ev: list[Event]) -> None:
    c = _combat(s, a.player, (Step.AIM,), "aim a special attack")
    g, t = gid(s, a.mini), gid(s, a.target)
    if g not in c.attack.attackers:
        raise IllegalActionError(Code.INVALID_TARGET,
                                 f"{a.mini} is not the one making this special attack")
    if t not in triggers.aim_candidates(s, g):
        raise IllegalActionError(Code.INVALID_TARGET,
                                 f"{a.target} is not an enemy creature in {a.mini}'s cell")
    c.attack.target = t
    c.step = Step.ROLL
    ev.append(Event("aimed", {"mini": a.mini, "target": a.target}))


def apply_wail(s: State, a: A.WailRoll, ev: list[Event]) -> None:
    """Wail: two six-sided dice; every creature in the dreamscape whose spawn cost is
    their total is banished, whoever controls it (the wailer too)."""
    c = _combat(s, a.player, (Step.WAIL,), "roll for a Wail")
    if len(a.dice) != 2 or any(isinstance(d, bool) or d not in range(1, 7) for d in a.dice):
        raise InvalidActionError(Code.BAD_DIE_FACE, f"a Wail rolls two six-sided dice (1-6), "
                                 f"not {a.dice!r}")
    total = a.dice[0] + a.dice[1]
    gone = [g for g in range(len(s.zone)) if s.zone[g] is Zone.DREAMSCAPE
            and s.game.minis[g].d.is_creature and s.game.minis[g].d.cost == total]
    ev.append(Event("wailed", {"player": a.player, "dice": list(a.dice), "total": total,
                               "banished": [s.game.ref(g) for g in gone]}))
    for g in gone:
        banish(s, g, ev)
    c.attack = Attack(player=c.player, attackers=(), dice=0, special=True)
    _finish(s, ev)


def apply_reroll(s: State, a: A.Reroll, ev: list[Event]) -> None:
    c = _combat(s, a.player, (Step.REROLL,), "reroll dice")
    _check_faces(a.faces)
    att = c.attack
    if len(a.faces) > att.rerolls:
        raise IllegalActionError(Code.WRONG_DICE_COUNT,
                                 f"Fortunate lets {a.player} reroll up to {att.rerolls} dice, "
                                 f"not {len(a.faces)}")
    kept = list(att.roll)
    for f in a.faces:
        if f not in kept:
            raise IllegalActionError(Code.BAD_DIE_FACE,
                                     f"no {A.face_str(f)} among the dice rolled "
                                     f"({' '.join(map(A.face_str, att.roll))}) to pick up")
        kept.remove(f)
    ev.append(Event("reroll", {"player": a.player, "faces": [A.face_str(f) for f in a.faces]}))
    if not a.faces:
        att.rerolls = 0
        _after_roll(s, ev)
        return
    att.roll = tuple(kept)
    att.rerolls = -1  # the next full roll is the reroll: no second chance
    c.step = Step.ROLL


def _after_roll(s: State, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    att = c.attack
    # Special attacks (deathblows included) treat blades as misses.
    att.blades_left = 0 if att.special else sum(1 for f in att.roll if f == "blade")
    if att.blades_left and _blade_options(s):
        c.step = Step.BLADES
    else:
        att.blades_left = 0
        _start_damage(s, ev)


# -- blades --------------------------------------------------------------------------
def _blade_sources(s: State) -> list[int]:
    """Attackers, plus the striking player's location in the cell (regular attacks only)."""
    c = s.combat
    assert c is not None
    att = c.attack
    sources = list(att.attackers)
    if not att.special:
        loc = s.location_in(c.cell)
        if loc is not None and s.game.minis[loc].player == att.player:
            sources.append(loc)
    return sources


def _blade_options(s: State) -> list[tuple[int, str, int]]:
    """(gid, ability name, blades it takes) for each blade ability that can take blades now."""
    c = s.combat
    assert c is not None
    att = c.attack
    out = []
    for g in _blade_sources(s):
        if _nullified(s, g):
            continue
        for key, ab in blade_abilities(s, g):
            cost = ab.activation.blade
            assert cost is not None
            need = cost.blades_per_activation
            used = sum(1 for x in att.blades if x == (g, key))
            if att.blades_left >= need and (cost.repeatable or used == 0):
                out.append((g, key, need))
    return out


def _nullified(s: State, g: int) -> bool:
    """Is a creature's every blade ability negated by a Nullify in its cell? (Locations'
    are not; "Nullify Valor" reaches only Valor creatures.)"""
    if not s.game.minis[g].d.is_creature:
        return False
    for h in s.in_cell(s.cell[g]):
        ab = s.game.minis[h].d.ability("Nullify")
        if ab is not None and ab.activation.blade is None and condition_met(s, h, ab) \
                and (not ab.modifier or is_of_type(s, g, ab.modifier)):
            return True
    return False


def apply_assign_blade(s: State, a: A.AssignBlade, ev: list[Event]) -> None:
    c = _combat(s, a.player, (Step.BLADES,), "assign a blade")
    g = gid(s, a.mini)
    option = next((o for o in _blade_options(s) if o[0] == g and o[1] == a.ability), None)
    if option is None:
        raise IllegalActionError(Code.INVALID_BLADE,
                                 f"{a.mini} has no blade ability {a.ability!r} that can take a "
                                 f"blade now ({c.attack.blades_left} blade(s) left)")
    ab = chosen_x(dict(blade_abilities(s, g))[a.ability], a.x, a.mini)
    # Targets are checked before anything changes: a refused choice leaves no trace.
    is_targeted = targeted.handles(ab.name)
    target = dest = None
    if is_targeted:
        target = None if a.target is None else gid(s, a.target)
        dest = None if a.to is None else cell(s, a.to)
        dest = targeted.check(s, g, ab.name, target, dest, ab.modifier)
    elif a.target is not None or a.to is not None:
        raise IllegalActionError(Code.INVALID_TARGET, f"{ab} takes no target")
    att = c.attack
    att.blades_left -= option[2]
    att.blades = (*att.blades, (g, a.ability))
    c.activated = (*c.activated, (g, str(ab)))
    bonus = damage_bonus(s, g, ab, c.cell)
    if is_targeted:
        att.bonus += targeted.resolve(s, g, ab.name, ab.number, target, dest, ev)
        ev.append(Event("blade", {"mini": a.mini, "ability": str(ab), "resolved": True,
                                  "target": a.target, "to": a.to}))
    elif bonus is not None:
        att.bonus += bonus
        ev.append(Event("blade", {"mini": a.mini, "ability": str(ab), "resolved": True,
                                  "damage": bonus}))
    elif ab.name in STAT_ABILITIES:  # works through ``auras`` until the combat ends
        ev.append(Event("blade", {"mini": a.mini, "ability": str(ab), "resolved": True}))
    else:
        # The assignment machinery is complete; this ability's effect is not applied by
        # the engine yet (see docs/rules/abilities.md), and the event says so.
        ev.append(Event("blade", {"mini": a.mini, "ability": str(ab), "resolved": False}))
    if att.blades_left == 0 or not _blade_options(s):
        att.blades_left = 0
        _start_damage(s, ev)


# -- damage --------------------------------------------------------------------------
def targets(s: State) -> list[int]:
    """Local enemy creatures of the attacking side (a special attack: its one target)."""
    c = s.combat
    assert c is not None
    t = c.attack.target
    if t is not None:
        return [t] if s.zone[t] is Zone.DREAMSCAPE else []
    where = c.cell if c.attack.cell is None else c.attack.cell
    return s.creatures_in(where, 1 - player_index(c.attack.player))


def _start_damage(s: State, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    att = c.attack
    # The minimum applies to the total after every modifier (Crit, Fumble...).
    att.damage_total = max(0, att.dice_damage + att.bonus)
    att.damage_left = att.damage_total if targets(s) else 0
    if att.damage_left and att.target is not None:
        # One target, nothing to choose: all the damage goes to it.
        apply_assign_damage(s, A.AssignDamage(att.player, s.game.ref(att.target),
                                              att.damage_left), ev, check=False)
    elif att.damage_left:
        c.step = Step.DAMAGE
    else:
        _attack_done(s, ev)


def _guarding(s: State, t: int) -> int | None:
    """A local Bodyguard ally of ``t`` still short of the damage that would disrupt or
    destroy it: while there is one, ``t`` takes no damage."""
    if active_ability(s, t, "Bodyguard") is not None:
        return None  # damage may always go to a bodyguard
    for o in s.creatures_in(s.cell[t], s.game.minis[t].pidx):
        if o != t and active_ability(s, o, "Bodyguard") is not None \
                and s.damage[o] < min(stats.defense(s, o), stats.life(s, o)):
            return o
    return None


def apply_assign_damage(s: State, a: A.AssignDamage, ev: list[Event],
                        check: bool = True) -> None:
    c = _combat(s, a.player, (Step.DAMAGE,), "assign damage") if check else s.combat
    assert c is not None
    t = gid(s, a.target)
    if t not in targets(s):
        raise IllegalActionError(Code.INVALID_TARGET,
                                 f"{a.target} is not an enemy creature in {name_of(s, c.cell)}")
    guard = _guarding(s, t) if c.attack.target is None else None
    if guard is not None:
        raise IllegalActionError(Code.INVALID_TARGET,
                                 f"{s.game.ref(guard)} has Bodyguard: it must take enough damage "
                                 f"to be disrupted or destroyed before {a.target} takes any")
    att = c.attack
    if isinstance(a.amount, bool) or not isinstance(a.amount, int) or \
            not 1 <= a.amount <= att.damage_left:
        raise IllegalActionError(Code.DAMAGE_MISMATCH,
                                 f"{a.amount!r} damage to {a.target}: {att.damage_left} of "
                                 f"{att.damage_total} damage left to assign")
    s.damage[t] += a.amount
    att.damage_left -= a.amount
    if t not in att.damaged:
        att.damaged = (*att.damaged, t)
    ev.append(Event("damage", {"target": a.target, "amount": a.amount,
                               "total": s.damage[t]}))
    if att.damage_left == 0:
        _attack_done(s, ev)


# -- disrupt or destroy --------------------------------------------------------------
def _reached(s: State, g: int, relentless: bool) -> tuple[bool, bool]:
    """(disrupts, destroys): does ``g``'s damage reach its defense, its life?"""
    d = s.damage[g]
    if d <= 0 or s.zone[g] is not Zone.DREAMSCAPE:
        return False, False
    return d >= stats.defense(s, g) and not relentless, d >= stats.life(s, g)


def _attack_done(s: State, ev: list[Event]) -> None:
    """The current attack has dealt its damage: remember what it hit, then go on."""
    c = s.combat
    assert c is not None
    att = c.attack
    known = {g for g, _ in c.hit}
    c.hit = (*c.hit, *((g, att.player) for g in att.damaged if g not in known))
    # Relentless: enemies damaged by an attack it makes cannot be disrupted.
    if any(active_ability(s, g, "Relentless") is not None for g in att.attackers):
        c.no_disrupt = (*c.no_disrupt, *att.damaged)
    if c.strike and not att.special:  # the strike's regular attack
        c.strike_hit = att.damaged
        # Strikeback answers a regular attack that disrupts and destroys nothing.
        if not any(any(_reached(s, g, g in c.no_disrupt)) for g in att.damaged):
            c.specials = (*c.specials, *triggers.strikeback(s, c))
    _finish(s, ev)


def _finish(s: State, ev: list[Event]) -> None:
    """Whatever comes next once an attack (or a choice) is done: the waiting special
    attacks; then disruption and destruction for all the damage dealt; then deathblows
    (whose damage is judged in turn); then burial, placements and the combat's end."""
    c = s.combat
    assert c is not None
    if triggers.begin_next(s, ev):
        return
    if c.hit:
        if _ask_outcome(s):
            return
        _fates(s, ev)
    if _next_deathblow(s, ev):
        return
    _bury(s, ev)


def _ask_outcome(s: State) -> bool:
    """Damage reaching both defense and life: its dealer picks disrupt or destroy (the
    active player's choices first)."""
    c = s.combat
    assert c is not None
    chosen = {g for g, _ in c.choices}
    waiting = [(g, by) for g, by in c.hit if g not in chosen
               and all(_reached(s, g, g in c.no_disrupt))]
    if not waiting:
        return False
    waiting.sort(key=lambda x: x[1] != s.active)
    chooser = waiting[0][1]
    c.pending_outcome = tuple(g for g, by in waiting if by == chooser)
    c.attack.player = chooser  # who decides this step
    c.step = Step.OUTCOME
    return True


def apply_choose_outcome(s: State, a: A.ChooseOutcome, ev: list[Event]) -> None:
    c = _combat(s, a.player, (Step.OUTCOME,), "choose disrupt or destroy")
    t = gid(s, a.target)
    if t not in c.pending_outcome:
        raise IllegalActionError(Code.INVALID_OUTCOME,
                                 f"{a.target} has no choice to make: its damage does not reach "
                                 "both its defense and its life")
    if a.outcome not in A.OUTCOMES:
        raise InvalidActionError(Code.INVALID_OUTCOME,
                                 f"outcome must be 'disrupt' or 'destroy', not {a.outcome!r}")
    c.choices = (*c.choices, (t, a.outcome))
    c.pending_outcome = tuple(g for g in c.pending_outcome if g != t)
    if not c.pending_outcome:
        _finish(s, ev)


def _fates(s: State, ev: list[Event]) -> None:
    """Disrupt and destroy what the combat's damage reached; queue the deathblows."""
    c = s.combat
    assert c is not None
    choice = dict(c.choices)
    dis: list[tuple[int, str]] = []
    des: list[tuple[int, str]] = []
    for g, by in sorted(c.hit):
        a, b = _reached(s, g, g in c.no_disrupt)
        if a and b:
            (des if choice.get(g, "destroy") == "destroy" else dis).append((g, by))
        elif a:
            # Ferocity: its target is destroyed where it would have been disrupted.
            (des if g in c.ferocity else dis).append((g, by))
        elif b:
            des.append((g, by))
    c.hit, c.choices, c.pending_outcome, c.no_disrupt = (), (), (), ()
    refs = s.game.ref
    for g, by in dis:
        s.damage[g] = 0  # disrupting clears all damage
        c.to_place = (*c.to_place, (g, by))
        ev.append(Event("disrupted", {"mini": refs(g), "by": by}))
    for g, by in des:
        ev.append(Event("destroyed", {"mini": refs(g), "by": by}))
    c.to_graveyard = (*c.to_graveyard, *des)
    if c.strike:  # Bloodthirsty asks this (a regenerating enemy is banished instead)
        c.strike_destroyed += sum(1 for g, _ in des
                                  if g in c.strike_hit and not regenerates(s, g))
    c.strike_hit = ()
    # Deathblows: the second player's creatures destroyed in one of the first player's
    # action phases attack the enemies in their cell before they go, whatever attack
    # destroyed them; those destroyed in one cell attack together. Regenerating ones
    # are banished instead and strike no deathblow; a Loner strikes one only alone.
    if s.phase is not Phase.ACTION or s.active is None or s.active != s.first_player:
        return
    groups: dict[int, list[int]] = {}
    for g, _ in des:
        if s.game.minis[g].player != s.active and not regenerates(s, g):
            groups.setdefault(s.cell[g], []).append(g)
    for cell_, hitters in sorted(groups.items()):
        if len(hitters) > 1:
            hitters = [g for g in hitters if not s.game.minis[g].d.has("Loner")]
        if hitters:
            c.deathblows = (*c.deathblows, (cell_, tuple(hitters)))


def _next_deathblow(s: State, ev: list[Event]) -> bool:
    """Start the next deathblow that has dice and enemies to hit; False when none."""
    c = s.combat
    assert c is not None
    refs = s.game.ref
    while c.deathblows:
        (where, hitters), c.deathblows = c.deathblows[0], c.deathblows[1:]
        defender = s.game.minis[hitters[0]].player
        dice = sum(stats.power(s, g) for g in hitters)
        if dice <= 0 or not s.creatures_in(where, 1 - player_index(defender)):
            continue
        c.attack = Attack(player=defender, attackers=hitters, dice=dice, special=True,
                          source="deathblow", cell=where)
        c.step = Step.DEATHBLOW
        ev.append(Event("deathblow_available", {"player": defender,
                                                "minis": [refs(g) for g in hitters],
                                                "dice": dice}))
        return True
    return False


def apply_decline_deathblow(s: State, a: A.DeclineDeathblow, ev: list[Event]) -> None:
    _combat(s, a.player, (Step.DEATHBLOW,), "decline the deathblow")
    ev.append(Event("deathblow_declined", {"player": a.player}))
    _finish(s, ev)


def _bury(s: State, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    for g, by in c.to_graveyard:
        destroy(s, g, by)
    c.to_graveyard = ()
    _next_placement(s, ev)


# -- placing disrupted creatures -----------------------------------------------------
def placement_cells(s: State, placer: str) -> list[int]:
    """Empty cells (no miniature at all), never the placing player's own portal."""
    occupied = {c for c in s.cell if c >= 0}
    portal = s.game.board.portal(placer)
    return [c for c in range(s.game.board.size) if c not in occupied and c != portal]


def _next_placement(s: State, ev: list[Event]) -> None:
    c = s.combat
    assert c is not None
    while c.to_place:
        g, placer = c.to_place[0]
        if placement_cells(s, placer):
            c.step = Step.PLACE
            c.attack.player = placer  # who decides this step
            return
        # Nowhere to go: a disrupted creature with no empty cell is destroyed.
        destroy(s, g, placer, ev, reason="no empty cell for a disrupted creature")
        c.to_place = c.to_place[1:]
    if triggers.begin_next(s, ev):
        return  # a special attack waits to be made
    if c.strike:
        s.fought = s.fought | {c.cell}
    s.combat = None
    _after_combat(s, c, ev)
    ev.append(Event("combat_end", {"cell": name_of(s, c.cell)}))


def _after_combat(s: State, c: Combat, ev: list[Event]) -> None:
    """Attackers that leave when their combat ends (unless already destroyed): Fade
    (banished), Detonate (sacrificed), Bloodthirsty (sacrificed when the regular attack
    destroyed no enemy)."""
    for g in c.strikers:
        if s.zone[g] is not Zone.DREAMSCAPE:
            continue
        if active_ability(s, g, "Fade") is not None:
            banish(s, g, ev)
        elif active_ability(s, g, "Detonate") is not None or (
                active_ability(s, g, "Bloodthirsty") is not None
                and c.strike_destroyed == 0):
            sacrifice(s, g, ev)


def apply_place(s: State, a: A.Place, ev: list[Event]) -> None:
    c = _combat(s, a.player, (Step.PLACE,), "place a disrupted creature")
    t = gid(s, a.target)
    entry = next((e for e in c.to_place if e[0] == t), None)
    if entry is None or entry[1] != a.player:
        raise IllegalActionError(Code.INVALID_PLACEMENT,
                                 f"{a.target} is not a creature {a.player} disrupted and must "
                                 "place")
    dest = cell(s, a.cell)
    if dest not in placement_cells(s, a.player):
        why = ("is the disrupting player's own portal"
               if dest == s.game.board.portal(a.player) else "is not empty")
        raise IllegalActionError(Code.INVALID_PLACEMENT, f"{a.cell} {why}")
    s.cell[t] = dest
    c.to_place = tuple(e for e in c.to_place if e[0] != t)
    ev.append(Event("placed", {"mini": a.target, "cell": a.cell, "by": a.player}))
    _next_placement(s, ev)


# -- the whole combat at once --------------------------------------------------------
def apply_combat(s: State, a: A.Combat, ev: list[Event]) -> None:
    """A compound combat (scenario form); rejected whole if any part is wrong."""
    apply_attack(s, A.Attack(a.player, a.cell, a.attackers), ev)
    _play_attack(s, a.player, a.roll, a.blades, a.damage, a.outcomes, ev)
    c = s.combat
    if c is not None and c.step is Step.DEATHBLOW:
        defender = c.attack.player
        if a.deathblow is None:
            while s.combat is not None and s.combat.step is Step.DEATHBLOW:
                apply_decline_deathblow(s, A.DeclineDeathblow(defender), ev)
        else:
            _play_attack(s, defender, a.deathblow.roll, (), a.deathblow.damage,
                         a.deathblow.outcomes, ev)
            if s.combat is not None and s.combat.step is Step.DEATHBLOW:
                raise IllegalActionError(Code.WRONG_STEP,
                                         "creatures destroyed in more than one cell strike "
                                         "deathblows: write this combat as steps")
    elif a.deathblow is not None:
        raise IllegalActionError(Code.NO_DEATHBLOW,
                                 "no deathblow here: only the second player's creatures "
                                 "destroyed in the first player's action phases strike back")
    placements = dict(a.placements)
    if a.deathblow is not None:
        placements.update(dict(a.deathblow.placements))
    given = set(placements)
    while s.combat is not None and s.combat.step is Step.PLACE:
        g, placer = s.combat.to_place[0]
        ref = s.game.ref(g)
        if ref not in placements:
            raise IllegalActionError(Code.PLACEMENT_REQUIRED,
                                     f"{ref} was disrupted: say where it goes (an empty cell)")
        given.discard(ref)
        apply_place(s, A.Place(placer, ref, placements[ref]), ev)
    if given:
        raise IllegalActionError(Code.INVALID_PLACEMENT,
                                 f"placement given for {sorted(given)}, which were not disrupted")


def _play_attack(s: State, player: str, roll: tuple, blades: tuple, damage: tuple,
                 outcomes: tuple, ev: list[Event]) -> None:
    c = s.combat
    # Attackers with 0 power (a 0-power creature may attack like any other) roll no
    # dice: such an attack is over as soon as it is declared.
    dice = c.attack.dice if c is not None else 0
    if len(roll) != dice:
        raise IllegalActionError(Code.WRONG_DICE_COUNT,
                                 f"this attack rolls {dice} dice, not {len(roll)}")
    if roll:
        apply_roll(s, A.Roll(player, tuple(roll)), ev)
    if s.combat is not None and s.combat.step is Step.REROLL:
        # The compound form gives the final dice: a Fortunate reroll is already in them.
        apply_reroll(s, A.Reroll(player, ()), ev)
    for mini, ability, *extra in blades:
        if s.combat is None or s.combat.step is not Step.BLADES:
            raise IllegalActionError(Code.INVALID_BLADE,
                                     f"no blade left to assign to {mini} {ability}")
        target = (extra[0] or None) if extra else None
        to = (extra[1] or None) if len(extra) > 1 else None
        x = int(extra[2]) if len(extra) > 2 and extra[2] else None
        apply_assign_blade(s, A.AssignBlade(player, mini, ability, target, to, x), ev)
    if s.combat is not None and s.combat.step is Step.BLADES:
        raise IllegalActionError(Code.BLADES_UNASSIGNED,
                                 f"{s.combat.attack.blades_left} blade(s) must still be assigned "
                                 "to a blade ability that can take them")
    for target, amount in damage:
        if amount == 0:
            continue
        if s.combat is None or s.combat.step is not Step.DAMAGE:
            raise IllegalActionError(Code.DAMAGE_MISMATCH,
                                     f"damage given for {target}, but no damage is left to assign")
        apply_assign_damage(s, A.AssignDamage(player, target, amount), ev)
    if s.combat is not None and s.combat.step is Step.DAMAGE:
        att = s.combat.attack
        raise IllegalActionError(Code.DAMAGE_MISMATCH,
                                 f"the attack deals {att.damage_total} damage; "
                                 f"{att.damage_left} left unassigned")
    wanted = dict(outcomes)
    while s.combat is not None and s.combat.step is Step.OUTCOME:
        t = s.combat.pending_outcome[0]
        ref = s.game.ref(t)
        apply_choose_outcome(s, A.ChooseOutcome(player, ref, wanted.pop(ref, "destroy")), ev)
    if wanted:
        raise IllegalActionError(Code.INVALID_OUTCOME,
                                 f"outcome given for {sorted(wanted)}, whose damage does not "
                                 "reach both defense and life")


# -- legal steps ---------------------------------------------------------------------
def legal_attacks(s: State) -> Iterator[A.Attack]:
    if s.phase is not Phase.ACTION or s.mode is Mode.SHIFT or s.combat is not None:
        return
    player = s.active
    assert player is not None
    p = player_index(player)
    names = s.game.board.cell_names
    where, creature = s.cell, s.game.creature
    # One pass over the miniatures, not two per cell: this runs at every decision.
    mine_in: dict[int, list[int]] = {}
    for g in s.game.owned[p]:
        if where[g] >= 0 and creature[g]:
            mine_in.setdefault(where[g], []).append(g)
    enemy_cells = {where[g] for g in s.game.owned[1 - p] if where[g] >= 0 and creature[g]}
    for c in sorted(mine_in):
        if c in s.fought or c not in enemy_cells:
            continue
        mine = mine_in[c]
        refs = [s.game.ref(g) for g in mine]
        loners = {i for i, g in enumerate(mine) if s.game.minis[g].d.has("Loner")}
        for mask in range(1, 1 << len(refs)):
            if mask & (mask - 1) and any(mask >> i & 1 for i in loners):
                continue  # a Loner attacks alone
            chosen = tuple(r for i, r in enumerate(refs) if mask >> i & 1)
            yield A.Attack(player, names[c], chosen)


def legal_combat_steps(s: State) -> Iterator[A.Action]:
    c = s.combat
    if c is None:
        return
    player = c.attack.player
    ref = s.game.ref
    names = s.game.board.cell_names
    if c.step in (Step.ROLL, Step.DEATHBLOW):
        for f in A.ATTACK_FACES:
            yield A.Roll(player, (f,))
        if c.step is Step.DEATHBLOW:
            yield A.DeclineDeathblow(player)
    elif c.step is Step.WAIL:
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                yield A.WailRoll(player, (d1, d2))
    elif c.step is Step.AIM:
        g = c.attack.attackers[0]
        for t in triggers.aim_candidates(s, g):
            yield A.Aim(player, ref(g), ref(t))
    elif c.step is Step.REROLL:
        yield A.Reroll(player, ())
        yield from (A.Reroll(player, pick) for pick in _pickups(c.attack.roll,
                                                                  c.attack.rerolls))
    elif c.step is Step.BLADES:
        for g, key, _ in _blade_options(s):
            ab = dict(blade_abilities(s, g))[key]  # "Crit from p1#3" is a Crit
            xs = LISTED_X if ab.variable else (None,)
            if targeted.handles(ab.name):
                for t, dest in targeted.option_refs(s, g, ab.name, ab.modifier):
                    for x in xs:
                        yield A.AssignBlade(player, ref(g), key, t, dest, x)
            else:
                for x in xs:
                    yield A.AssignBlade(player, ref(g), key, x=x)
    elif c.step is Step.DAMAGE:
        for t in targets(s):
            if _guarding(s, t) is not None:
                continue
            for n in range(1, c.attack.damage_left + 1):
                yield A.AssignDamage(player, ref(t), n)
    elif c.step is Step.OUTCOME:
        for t in c.pending_outcome:
            for o in A.OUTCOMES:
                yield A.ChooseOutcome(player, ref(t), o)
    elif c.step is Step.PLACE:
        for t, placer in c.to_place:
            if placer == player:
                for dest in placement_cells(s, placer):
                    yield A.Place(player, ref(t), names[dest])


__all__ = ["BladeCost", "apply_attack", "apply_combat", "destroy", "legal_attacks",
           "legal_combat_steps"]


def _pickups(roll: tuple, most: int) -> list[tuple]:
    """Every distinct handful of 1..``most`` dice from ``roll`` (by face), in face order."""
    counts = [(f, sum(1 for x in roll if x == f)) for f in A.ATTACK_FACES]
    out: list[tuple] = []

    def walk(i: int, picked: tuple) -> None:
        if i == len(counts):
            if picked:
                out.append(picked)
            return
        f, n = counts[i]
        for k in range(min(n, most - len(picked)) + 1):
            walk(i + 1, picked + (f,) * k)

    walk(0, ())
    return out
