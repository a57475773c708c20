"""How a miniature leaves the dreamscape. The four ways differ in who scores and who
gets bonus spawn points, so they are kept apart:

============  ==========  ====================  =====================================
fate          goes to     conquest point        +2 bonus spawn points for the owner
============  ==========  ====================  =====================================
destroyed     graveyard   the destroying enemy  yes (also when its own side destroyed it);
                                                Vessel X: X instead of 2
sacrificed    graveyard   nobody                no
banished      reserves    nobody                no
removed       removed     nobody                no
============  ==========  ====================  =====================================

A creature with an active Regenerate is banished instead of destroyed.
"""

from __future__ import annotations

from .abilities import Ability
from .auras import condition_met
from .events import Event
from .state import State, Zone

BONUS_PER_DESTROYED = 2


def _leave(s: State, g: int, zone: Zone) -> None:
    s.zone[g], s.cell[g], s.damage[g] = zone, -1, 0


def destroy(s: State, g: int, by: str | None, ev: list[Event] | None = None,
            reason: str | None = None) -> None:
    """Destroyed by ``by`` (a player, or None for no one in particular)."""
    m = s.game.minis[g]
    if regenerates(s, g):
        # Banished instead: no conquest point for the opponent, no bonus points.
        banish(s, g, ev)
        return
    vessel = active_ability(s, g, "Vessel")  # judged while still in the dreamscape
    reincarnate = active_ability(s, g, "Reincarnate") is not None
    _leave(s, g, Zone.GRAVEYARD)
    if reincarnate and any(o != g and s.zone[o] is Zone.GRAVEYARD
                           and s.game.minis[o].d.is_creature for o in s.game.owned[m.pidx]):
        s.pending = (*s.pending, (g, "Reincarnate"))  # its player picks which creature
    if by is not None and by != m.player:
        s.kills[0 if by == "p1" else 1] += 1
    s.bonus_points[m.pidx] += BONUS_PER_DESTROYED if vessel is None else vessel.number or 0
    if ev is not None:
        data = {"mini": m.ref, "by": by}
        if reason:
            data["reason"] = reason
        ev.append(Event("destroyed", data))


def active_ability(s: State, g: int, name: str) -> Ability | None:
    """``g``'s ability ``name`` if it is in the dreamscape and the ability works now."""
    if s.zone[g] is not Zone.DREAMSCAPE:
        return None
    ab = s.game.minis[g].d.ability(name)
    return ab if ab is not None and ab.activation.blade is None \
        and condition_met(s, g, ab) else None


def regenerates(s: State, g: int) -> bool:
    return active_ability(s, g, "Regenerate") is not None


def sacrifice(s: State, g: int, ev: list[Event] | None = None) -> None:
    _leave(s, g, Zone.GRAVEYARD)
    if ev is not None:
        ev.append(Event("sacrificed", {"mini": s.game.ref(g)}))


def banish(s: State, g: int, ev: list[Event] | None = None) -> None:
    _leave(s, g, Zone.RESERVES)
    if ev is not None:
        ev.append(Event("banished", {"mini": s.game.ref(g)}))


def remove(s: State, g: int, ev: list[Event] | None = None) -> None:
    _leave(s, g, Zone.REMOVED)
    if ev is not None:
        ev.append(Event("removed", {"mini": s.game.ref(g)}))
