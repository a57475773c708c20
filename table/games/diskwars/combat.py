"""Damage, ranged attacks, magic and the melee.

* **Damage** (``deal``): physical, arcane or true. A disk immune to a type takes none of
  it and a disk resistant to it takes half, rounded up, each time; true damage ignores
  both. Damage at or above the disk's toughness is a wound: a disk with stamina that
  has fewer wound tokens than its stamina takes a wound token and loses its damage;
  otherwise it goes to its casualty pile. An empowered disk has one more attack,
  counter and toughness.
* **Ranged attacks** (``shoot``): a disk with a ranged attack targets another disk
  within its range band and in sight, not one immune to the attack's type. It rolls its
  dice (one fewer, at least one, at a disk on cover terrain). Each scatter is rolled
  again against the disk nearest the target within short range (if any; scatter on the
  second roll is ignored) at the target's range. A hit deals the attack's strength (not
  at siege range); a critical deals it and puts an activation token on a disk that has
  none; miss and chaos do nothing. A strength of d6 rolls a d6 for each hit.
* **The melee** (``melee_options``, ``melee``): every disk pinning an enemy is in an
  engagement with it. A disk deals its melee damage to one enemy of its engagements
  (its attack to an enemy it pins, its counter to one pinning it); a frenzied disk
  attacks every enemy it pins. Engagements are resolved one at a time from the top of
  the piles down; in each, a swift disk deals its damage first (and an enemy it removes
  deals none), a slow one last, the others together. Melee damage is physical.
"""

from __future__ import annotations

import math

from table.system import Event

from .catalog import DiskKind
from .geometry import band, edge_gap, overlaps, sight
from .stack import circle, piles
from .state import CASUALTY, FIELD, OVER, Disk, State, other

RANK = {"short": 0, "medium": 1, "long": 2, "siege": 3}


def kind(s: State, d: Disk) -> DiskKind:
    return s.game.catalog.disk(d.name)


def on_terrain(s: State, d: Disk, keyword: str) -> bool:
    c = circle(s, d)
    return any(t.kind.has(keyword) and overlaps(c, t.circle) for t in s.game.terrain)


def terrain_keyword(s: State, d: Disk, keyword: str) -> list[str]:
    """The arguments of ``keyword`` on every terrain piece ``d`` overlaps."""
    c = circle(s, d)
    return [str(t.kind.keywords[keyword]) for t in s.game.terrain
            if keyword in t.kind.keywords and overlaps(c, t.circle)]


def toughness(s: State, d: Disk) -> int:
    return kind(s, d).toughness + (1 if d.empowered else 0)


def deal(s: State, d: Disk, amount: int, dtype: str, events: list[Event],
         impact: bool = False) -> int:
    """``amount`` damage of ``dtype`` to ``d``; what it took."""
    k = kind(s, d)
    if dtype != "true":
        if k.keywords.get("immune") == dtype or (impact and on_terrain(s, d, "fortified")):
            events.append(Event("unharmed", {"disk": d.ref, "type": dtype}))
            return 0
        if k.keywords.get("resistant") == dtype:
            amount = math.ceil(amount / 2)
    if amount <= 0 or d.place != FIELD:
        return 0
    d.damage += amount
    events.append(Event("damaged", {"disk": d.ref, "damage": amount, "type": dtype}))
    if d.damage >= toughness(s, d):
        if d.wounds < k.stamina:
            d.wounds += 1
            d.damage = 0
            events.append(Event("wounded", {"disk": d.ref, "wounds": d.wounds}))
        else:
            d.place, d.damage = CASUALTY, 0
            d.activated = d.empowered = False
            events.append(Event("casualty", {"disk": d.ref}))
    return amount


def eliminated(s: State, events: list[Event]) -> bool:
    """A player with no disk left on the battlefield is out: the game is over."""
    left = {p: any(d.place == FIELD and d.player == p for d in s.disks.values())
            for p in ("p1", "p2")}
    if all(left.values()):
        return False
    s.phase = OVER
    s.winner = "draw" if not any(left.values()) else ("p1" if left["p1"] else "p2")
    s.shot = None
    events.append(Event("game_over", {"winner": s.winner, "reason": "eliminated"}))
    return True


# -- sight and range ---------------------------------------------------------------------
def in_sight(s: State, a: Disk, b: Disk) -> bool:
    """Line of sight between two disks: terrain that blocks sight blocks it, except a
    piece either disk overlaps; a disk on high ground sees across everything, and is
    seen (sight is between the two)."""
    ca, cb = circle(s, a), circle(s, b)
    if on_terrain(s, a, "high ground") or on_terrain(s, b, "high ground"):
        return True
    walls = [t.circle for t in s.game.terrain if t.kind.has("blocks sight")
             and not overlaps(ca, t.circle) and not overlaps(cb, t.circle)]
    return sight(ca, cb, walls)


def range_band(s: State, a: Disk, b: Disk) -> str:
    return band(edge_gap(circle(s, a), circle(s, b)), s.game.catalog.ruler)


def within(s: State, a: Disk, b: Disk, longest: str) -> bool:
    return RANK[range_band(s, a, b)] <= RANK[longest]


def shot_refusal(s: State, a: Disk, t: Disk | None) -> str | None:
    k = kind(s, a)
    if k.ranged is None:
        return f"{a.ref} ({a.name}) has no ranged attack"
    if t is None or t.place != FIELD:
        return "the target is not on the battlefield"
    if t is a:
        return "a disk cannot make a ranged attack against itself"
    if kind(s, t).keywords.get("immune") == k.ranged.type:
        return f"{t.ref} ({t.name}) is immune to {k.ranged.type} damage"
    if not within(s, a, t, k.ranged.range):
        return (f"{t.ref} is at {range_band(s, a, t)} range, beyond {a.name}'s "
                f"{k.ranged.range} range")
    if not in_sight(s, a, t):
        return f"{a.ref} has no line of sight to {t.ref}"
    return None


def cast_refusal(s: State, a: Disk, t: Disk | None) -> str | None:
    if kind(s, a).number("magic") <= 0:
        return f"{a.ref} ({a.name}) has no magic"
    if t is None or t.place != FIELD or t.player == a.player:
        return "magic targets an enemy disk on the battlefield"
    if kind(s, t).keywords.get("immune") == "arcane":
        return f"{t.ref} ({t.name}) is immune to arcane damage"
    if not within(s, a, t, "medium"):
        return f"{t.ref} is at {range_band(s, a, t)} range; magic reaches medium range"
    if not in_sight(s, a, t):
        return f"{a.ref} has no line of sight to {t.ref}"
    return None


def dice_at(s: State, a: Disk, t: Disk) -> int:
    n = kind(s, a).ranged.dice  # type: ignore[union-attr]
    return max(1, n - 1) if on_terrain(s, t, "cover") else n


def scatter_target(s: State, attacker: Disk, target: Disk) -> Disk | None:
    """The disk nearest the target within short range of it (the attacker and the
    target left out), nearest edge first, then by ref."""
    ct = circle(s, target)
    short = s.game.catalog.band_length("short")
    near = [(edge_gap(ct, circle(s, d)), d.ref, d) for d in s.on_field()
            if d is not target and d is not attacker
            and edge_gap(ct, circle(s, d)) <= short + 1e-6]
    return min(near)[2] if near else None


# -- the melee -------------------------------------------------------------------------
# The melee asks of every disk which it pins and which pin it: ``Piles`` (disk -> the
# disks it pins) is worked out once per question and handed down.
Piles = dict[str, list[str]]


def engagements(s: State, pm: Piles | None = None) -> list[tuple[Disk, Disk]]:
    """(attacker, defender) for every enemy pinned, the top of the piles first."""
    pm = piles(s) if pm is None else pm
    out = [(s.disks[a], s.disks[b]) for a, under in pm.items() for b in under
           if s.disks[b].player != s.disks[a].player]
    return sorted(out, key=lambda e: (-e[0].level, -e[1].level, e[0].ref, e[1].ref))


def _pins_enemies(s: State, d: Disk, pm: Piles) -> list[Disk]:
    return [s.disks[b] for b in pm.get(d.ref, ()) if s.disks[b].player != d.player]


def melee_options(s: State, d: Disk, pm: Piles | None = None) -> list[Disk]:
    """The enemies ``d`` may deal its melee damage to: those it pins, then those
    pinning it."""
    pm = piles(s) if pm is None else pm
    enemies = _pins_enemies(s, d, pm)
    enemies += [s.disks[a] for a in sorted(pm) if d.ref in pm[a]
                and s.disks[a].player != d.player and s.disks[a] not in enemies]
    return enemies


def needs_choice(s: State, d: Disk, pm: Piles | None = None) -> bool:
    pm = piles(s) if pm is None else pm
    if kind(s, d).has("frenzy") and _pins_enemies(s, d, pm):
        return False  # it attacks every enemy it pins
    return len(melee_options(s, d, pm)) > 1 and d.ref not in s.strikes


def choosers(s: State) -> list[Disk]:
    """Disks whose player must say whom they strike: attackers first (the first
    player's, then the other's), then defenders."""
    pm = piles(s)
    out = []
    for attacking in (True, False):
        for p in (s.first, other(s.first)):
            for d in sorted(s.on_field(p), key=lambda d: d.ref):
                if bool(_pins_enemies(s, d, pm)) == attacking and needs_choice(s, d, pm):
                    out.append(d)
    return out


def _tier(s: State, d: Disk) -> int:
    k = kind(s, d)
    swift = k.keywords.get("swift") == "physical" or on_terrain(s, d, "defensive")
    slow = k.keywords.get("slow") == "physical"
    if swift and slow:
        return 1
    return 0 if swift else 2 if slow else 1


def _targets(s: State, d: Disk, pm: Piles) -> set[str]:
    enemies_pinned = [b.ref for b in _pins_enemies(s, d, pm)]
    if kind(s, d).has("frenzy") and enemies_pinned:
        return set(enemies_pinned)
    chosen = s.strikes.get(d.ref)
    if chosen is not None:
        return {chosen}
    opts = melee_options(s, d, pm)
    return {opts[0].ref} if opts else set()


def melee(s: State, events: list[Event]) -> None:
    """Resolve every engagement (the strikes chosen: ``s.strikes``)."""
    pm = piles(s)
    plan = engagements(s, pm)
    targets = {d.ref: _targets(s, d, pm) for pair in plan for d in pair}
    dealt: set[tuple[str, str]] = set()
    for a, b in plan:
        if a.place != FIELD or b.place != FIELD:
            continue
        blows = []
        if b.ref in targets[a.ref] and (a.ref, b.ref) not in dealt:
            blows.append((a, b, kind(s, a).attack + (1 if a.empowered else 0)))
        if a.ref in targets[b.ref] and (b.ref, a.ref) not in dealt:
            blows.append((b, a, kind(s, b).counter + (1 if b.empowered else 0)))
        for tier in (0, 1, 2):
            now = [x for x in blows if _tier(s, x[0]) == tier and x[0].place == FIELD]
            for src, dst, n in now:
                dealt.add((src.ref, dst.ref))
                events.append(Event("strikes", {"disk": src.ref, "target": dst.ref,
                                                "damage": n}))
            for _src, dst, n in now:
                deal(s, dst, n, "physical", events)
    s.strikes = {}

