"""How a miniature leaves the dreamscape. The four ways differ in who scores and who
gets bonus spawn points, so they are kept apart:

============  ==========  ====================  =====================================
fate          goes to     conquest point        +2 bonus spawn points for the owner
============  ==========  ====================  =====================================
destroyed     graveyard   the destroying enemy  yes (also when its own side destroyed it)
sacrificed    graveyard   nobody                no
banished      reserves    nobody                no
removed       removed     nobody                no
============  ==========  ====================  =====================================
"""

from __future__ import annotations

from .events import Event
from .state import State, Zone

BONUS_PER_DESTROYED = 2


def _leave(s: State, g: int, zone: Zone) -> None:
    s.zone[g], s.cell[g], s.damage[g] = zone, -1, 0


def destroy(s: State, g: int, by: str | None, ev: list[Event] | None = None,
            reason: str | None = None) -> None:
    """Destroyed by ``by`` (a player, or None for no one in particular)."""
    m = s.game.minis[g]
    _leave(s, g, Zone.GRAVEYARD)
    if by is not None and by != m.player:
        s.kills[0 if by == "p1" else 1] += 1
    s.bonus_points[m.pidx] += BONUS_PER_DESTROYED
    if ev is not None:
        data = {"mini": m.ref, "by": by}
        if reason:
            data["reason"] = reason
        ev.append(Event("destroyed", data))


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
