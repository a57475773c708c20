"""Abilities that change stats while they are active: who they reach and by how much.

An aura belongs to a miniature in the dreamscape and reaches others by where they stand:

* Enrage (+power), Bolster (+defense), Invigorate (+life): the holder's allies in its
  cell or an adjacent one. "Self" narrows it to the holder itself; a type word (an
  aspect, a lineage, a miniature's name) to allies of that type.
* Weaken (-power), Panic (-defense), Drain (-life), Inciter (+power): enemies in the
  holder's cell.
* Fight (type): the holder itself, while an enemy of that type shares its cell.
* Geomancy: the holder itself, for each location its player controls in its column.
* Thanatomancy: the holder's power *is* the number of creatures in its player's
  graveyard (then the other modifiers add up as usual).

An ability with activation requirements is an aura only while they are met: "Score"
while the holder stands on one of its player's scoring cells. Blade-activated versions
last to the end of the combat they were activated in (``Combat.activated``). Spawn and
"comes into play" abilities are never auras.

Every function here is pure: stats are computed on demand from the state, never stored,
so minimums always apply to the sum of all modifiers (see ``stats``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .abilities import Ability, parse_ability
from .state import State, Zone

# name -> (who it reaches, (power, defense, life) per point of X)
_ALLY_AURAS = {"Enrage": (1, 0, 0), "Bolster": (0, 1, 0), "Invigorate": (0, 0, 1)}
_ENEMY_AURAS = {"Weaken": (-1, 0, 0), "Panic": (0, -1, 0), "Drain": (0, 0, -1),
                "Inciter": (1, 0, 0)}
_SELF_AURAS = {"Fight", "Geomancy", "Thanatomancy"}
STAT_ABILITIES = frozenset(_ALLY_AURAS) | frozenset(_ENEMY_AURAS) | _SELF_AURAS


def _holders(s: State) -> tuple[int, ...]:
    """Miniatures of this game that have any stat ability (computed once per game)."""
    game = s.game
    cached = getattr(game, "_aura_holders", None)
    if cached is None:
        cached = tuple(m.gid for m in game.minis
                       if any(a.name in STAT_ABILITIES for a in m.d.abilities))
        game._aura_holders = cached  # type: ignore[attr-defined]
    return cached


def is_of_type(s: State, g: int, word: str) -> bool:
    """Does ``word`` (an aspect, a lineage or a name) describe miniature ``g``?"""
    d = s.game.minis[g].d
    w = word.lower()
    return (w in {a.value for a in d.aspect_set} or (d.lineage or "").lower() == w
            or d.name.lower() == w)


def condition_met(s: State, g: int, ab: Ability) -> bool:
    """Are an ability's standing requirements met (blade costs are judged elsewhere)?"""
    act = ab.activation
    if act.spawn_cost is not None or act.comes_into_play:
        return False
    if act.score:
        m = s.game.minis[g]
        if s.cell[g] < 0 or s.cell[g] not in s.game.board.scoring[m.pidx]:
            return False
    return True


def active_stat_abilities(s: State) -> Iterator[tuple[int, Ability]]:
    """(holder, ability) for every stat ability working now."""
    for h in _holders(s):
        if s.zone[h] is not Zone.DREAMSCAPE:
            continue
        for ab in s.game.minis[h].d.abilities:
            if ab.name in STAT_ABILITIES and ab.activation.blade is None \
                    and condition_met(s, h, ab):
                yield h, ab
    c = s.combat
    if c is not None:
        for h, text in c.activated:
            ab = _parsed(text)
            if ab.name in STAT_ABILITIES and s.zone[h] is Zone.DREAMSCAPE:
                yield h, ab


@lru_cache(maxsize=256)
def _parsed(text: str) -> Ability:
    return parse_ability(text)


def _reaches(s: State, h: int, ab: Ability, g: int) -> bool:
    game = s.game
    board = game.board
    mh, mg = game.minis[h], game.minis[g]
    if ab.name in _ALLY_AURAS:
        if ab.modifier and ab.modifier.lower() == "self":
            return g == h
        if g == h or mh.player != mg.player:  # a creature is not its own ally
            return False
        if not (s.cell[g] == s.cell[h] or board.adjacent(s.cell[g], s.cell[h])):
            return False
    elif ab.name in _ENEMY_AURAS and (mh.player == mg.player or s.cell[g] != s.cell[h]):
        return False
    return not ab.modifier or ab.modifier.lower() == "self" or is_of_type(s, g, ab.modifier)


def modifiers(s: State, g: int) -> tuple[int, int, int]:
    """Sum of (power, defense, life) changes acting on creature ``g`` now."""
    if s.zone[g] is not Zone.DREAMSCAPE:
        return 0, 0, 0
    p = d = life = 0
    game = s.game
    for h, ab in active_stat_abilities(s):
        x = ab.number or 0
        if ab.name in _ALLY_AURAS or ab.name in _ENEMY_AURAS:
            if _reaches(s, h, ab, g):
                dp, dd, dl = _ALLY_AURAS.get(ab.name) or _ENEMY_AURAS[ab.name]
                p, d, life = p + dp * x, d + dd * x, life + dl * x
        elif h == g and ab.name == "Fight":
            mine = game.minis[g].pidx
            if any(is_of_type(s, e, ab.modifier or "")
                   for e in s.creatures_in(s.cell[g], 1 - mine)):
                p += x
        elif h == g and ab.name == "Geomancy":
            mine = game.minis[g].pidx
            column = game.board.column(s.cell[g])
            n = sum(1 for o in game.owned[mine] if s.zone[o] is Zone.DREAMSCAPE
                    and not game.minis[o].d.is_creature
                    and game.board.column(s.cell[o]) == column)
            p, d, life = p + x * n, d + x * n, life + x * n
        elif h == g and ab.name == "Thanatomancy":
            mine = game.minis[g].pidx
            dead = sum(1 for o in game.owned[mine] if s.zone[o] is Zone.GRAVEYARD
                       and game.minis[o].d.is_creature)
            p += dead - game.minis[g].d.power
    return p, d, life
