"""Damage, elimination and the Hall of Fame: shared by attacks and spells.

Damage is taken by armour before wounds: first the armour tokens of a hero's relics
(only from attacks that are not magic), then the creature's own armour tokens, then
wounds. A creature whose wounds reach its health is eliminated: its miniature leaves the
battlefield and, if it is a hero or a character, its card goes to the History. Each
enemy hero or character the active player eliminates during their own turn takes a
card from the Feats deck face down into their Hall of Fame (a victory point); drawing
the last one makes this turn the game's last.
"""

from __future__ import annotations

from table.system import Event

from .game import Game
from .state import FIELD, GONE, HISTORY, State, Unit

__all__ = ["Event", "deal", "eliminate", "health_left", "victory_points"]


def health_left(game: Game, s: State, u: Unit, magic: bool) -> int:
    """How much damage eliminates ``u`` now (armour that would absorb it counted)."""
    left = game.catalog.creature(u.name).health - u.wounds + u.armour
    if not magic and u.ref.endswith("#0"):
        left += sum(r.armour for r in s.sides[u.player].relics)
    return left


def deal(game: Game, s: State, ref: str, amount: int, magic: bool,
         events: list[Event]) -> None:
    """``amount`` damage to ``ref`` (on the battlefield), through its armour."""
    if amount <= 0 or s.units[ref].place != FIELD:
        return
    u = s.edit(ref)
    taken = {"relics": 0, "armour": 0, "wounds": 0}
    if not magic and ref.endswith("#0"):
        for r in s.sides[u.player].relics:
            k = min(r.armour, amount)
            r.armour -= k
            amount -= k
            taken["relics"] += k
    k = min(u.armour, amount)
    u.armour -= k
    amount -= k
    taken["armour"] = k
    health = game.catalog.creature(u.name).health
    k = min(health - u.wounds, amount)
    u.wounds += k
    taken["wounds"] = k
    events.append(Event("damaged", {"unit": ref, **taken, "wounds_now": u.wounds}))
    if u.wounds >= health:
        eliminate(game, s, ref, events)


def eliminate(game: Game, s: State, ref: str, events: list[Event]) -> None:
    kind = game.catalog.creature(s.units[ref].name).kind
    u = s.put(ref, GONE if kind == "minion" else HISTORY, None)
    side = s.sides[u.player]
    side.history.extend(u.enchantments)
    u.enchantments = ()
    if kind == "hero":
        side.history.extend(r.code for r in side.relics)
        side.relics = []
    events.append(Event("eliminated", {"unit": ref, "name": u.name}))
    if kind != "minion" and u.player != s.active:
        mine = s.sides[s.active]
        mine.destroyed += 1
        if s.feats_left > 0:
            s.feats_left -= 1
            mine.hall += 1
            events.append(Event("hall_of_fame", {"player": s.active, "hall": mine.hall,
                                                 "feats_left": s.feats_left}))
            if s.feats_left == 0:
                s.last_turn = True
                events.append(Event("last_feat", {"player": s.active}))


def victory_points(game: Game, s: State, player: str) -> int:
    side = s.sides[player]
    return side.hall + sum(game.catalog.feat(f).points for f in side.feats_up)
