"""Special attacks: an X-power attack against one target, outside the regular attack.

They come from blade abilities (Assault: a local enemy; Warpstrike: an enemy elsewhere),
from a creature entering a cell (Charge: the enterer attacks a local enemy; Ambush: the
cell's ambusher attacks the enterer) and from a failed attack (Strikeback). They wait in
``Combat.specials`` and are made one after the other when the current attack is
settled: the dice are rolled like any attack (blades count as misses), all the damage
goes to the one target, then disruption and destruction as usual. A special attack
whose attacker or target has left the dreamscape by then is not made.

Entering a cell happens outside a strike too (shifting, or an ability moving a
creature): then the special attacks get a combat of their own (``strike`` False), which
does not count as the cell's combat for the phase. When effects happen together, the
active player's come first.
"""

from __future__ import annotations

from .events import Event
from .fates import active_ability
from .state import Attack, Combat, State, Step, Zone


def _alive(s: State, g: int) -> bool:
    return s.zone[g] is Zone.DREAMSCAPE and s.game.minis[g].d.is_creature


def aim_candidates(s: State, attacker: int) -> list[int]:
    """Local enemy creatures of ``attacker``, for specials that aim when they start."""
    return s.creatures_in(s.cell[attacker], 1 - s.game.minis[attacker].pidx)


def queue(s: State, specials: list[tuple[str, int, int, int, str]], cell: int,
          ev: list[Event]) -> None:
    """Add special attacks; outside a combat, start one of their own in ``cell``."""
    if not specials:
        return
    active = s.active
    specials.sort(key=lambda x: x[0] != active)  # the active player's first
    c = s.combat
    if c is not None:
        c.specials = (*c.specials, *specials)
        return
    player = specials[0][0]
    s.combat = Combat(cell=cell, player=active or player, step=Step.ROLL,
                      attack=Attack(player=player, attackers=(), dice=0, special=True),
                      strike=False, specials=tuple(specials))
    ev.append(Event("triggered", {"cell": s.game.board.cell_names[cell],
                                  "attacks": [_describe(s, x) for x in specials]}))
    if not begin_next(s, ev):
        s.combat = None


def _describe(s: State, x: tuple[str, int, int, int, str]) -> str:
    _, g, dice, target, source = x
    on = "" if target < 0 else f" on {s.game.ref(target)}"
    return f"{s.game.ref(g)} {source} {dice}{on}"


def begin_next(s: State, ev: list[Event]) -> bool:
    """Start the next waiting special attack; False when none can be made."""
    c = s.combat
    assert c is not None
    while c.specials:
        (player, g, dice, target, source), c.specials = c.specials[0], c.specials[1:]
        if not _alive(s, g) or (dice <= 0 and source != "Wail"):
            continue
        if source == "Wail":
            c.attack = Attack(player=player, attackers=(g,), dice=0, special=True,
                              source=source)
            c.step = Step.WAIL
            ev.append(Event("wail", {"mini": s.game.ref(g), "player": player}))
            return True
        if target < 0:
            options = aim_candidates(s, g)
            if not options:
                continue
            target = options[0] if len(options) == 1 else -1
        elif not _alive(s, target):
            continue
        c.attack = Attack(player=player, attackers=(g,), dice=dice, special=True,
                          target=None if target < 0 else target, source=source)
        c.step = Step.AIM if target < 0 else Step.ROLL
        ev.append(Event("special_attack", {"mini": s.game.ref(g), "ability": source,
                                           "dice": dice, "player": player,
                                           "target": None if target < 0
                                           else s.game.ref(target)}))
        return True
    return False


def entered(s: State, g: int, ev: list[Event]) -> None:
    """``g`` moved into its cell from another one: Charge and Ambush."""
    if not _alive(s, g):
        return
    me = s.game.minis[g]
    here = s.cell[g]
    enemies = s.creatures_in(here, 1 - me.pidx)
    if not enemies:
        return
    out: list[tuple[str, int, int, int, str]] = []
    charge = active_ability(s, g, "Charge")
    if charge is not None:
        out.append((me.player, g, charge.number or 0, -1, "Charge"))
    for e in enemies:
        ambush = active_ability(s, e, "Ambush")
        if ambush is not None:
            out.append((s.game.minis[e].player, e, ambush.number or 0, g, "Ambush"))
    queue(s, out, here, ev)


def strikeback(s: State, c: Combat) -> list[tuple[str, int, int, int, str]]:
    """After a regular attack that disrupted and destroyed nothing: each defender in
    the cell with Strikeback answers."""
    defender = 1 - s.game.minis[c.attack.attackers[0]].pidx if c.attack.attackers else None
    if defender is None:
        return []
    out = []
    for d in s.creatures_in(c.cell, defender):
        ab = active_ability(s, d, "Strikeback")
        if ab is not None:
            out.append((s.game.minis[d].player, d, ab.number or 0, -1, "Strikeback"))
    return out
