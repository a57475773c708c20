"""Army building: regiments, each led by a hero who recruits disks with his recruitment
points, and the hand of command cards the heroes' command values allow.

A force is written as a list of disk names in regiment order: each hero starts a
regiment and the units after him, up to the next hero, are his recruits
(``["Tyrion", "High Elf Spearmen", "High Elf Archers", ...]``). What the rules require:

* at least one unique hero; no more than one copy of any unique disk;
* never Order and Destruction disks in one army;
* a hero recruits only disks of his own race, for no more than his recruitment points;
* in each regiment, at least as many small disks as medium and large ones together (the
  hero not counted), at most three copies of a small disk, two of a medium and one of a
  large, and at most one elite disk;
* command cards: as many as the heroes' command values together, no title twice, and a
  card kept for one faction only in an army with a hero of that faction.

Recruitment points a hero does not spend count toward the initiative roll."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from table.errors import CatalogError
from table.quoting import quote

from .catalog import Catalog
from .errors import SetupError

_COPIES = {"small": 3, "medium": 2, "large": 1}


@dataclass(frozen=True)
class Regiment:
    hero: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class Army:
    regiments: tuple[Regiment, ...]
    faction: str
    commands: tuple[str, ...]  # the command cards in hand at the start
    unspent: int  # recruitment points the heroes did not spend

    @property
    def disks(self) -> tuple[str, ...]:
        """Every disk, in the order the force named them (its refs number them so)."""
        return tuple(n for r in self.regiments for n in (r.hero, *r.units))

    @property
    def command_value(self) -> int:
        return len(self.commands)


def _at(who: str, text: str) -> str:
    return f"{who}: {text}" if who else text


def regiments(catalog: Catalog, force: Sequence[str], who: str = "the army"
              ) -> tuple[Regiment, ...]:
    out: list[Regiment] = []
    for i, name in enumerate(force):
        try:
            kind = catalog.disk(name)
        except CatalogError as e:
            raise SetupError(f"{who or 'disks'}[{i}]: {e}") from None
        if kind.hero:
            out.append(Regiment(name, ()))
        elif not out:
            raise SetupError(f"{who or 'disks'}[{i}]: {quote(name)} is not a hero: each regiment "
                             "starts with the hero who leads it")
        else:
            out[-1] = Regiment(out[-1].hero, (*out[-1].units, name))
    if not out:
        raise SetupError(_at(who, "no disks"))
    return tuple(out)


def check(catalog: Catalog, force: Sequence[str], commands: Sequence[str] | None = None,
          who: str = "the army") -> Army:
    """The army ``force`` makes, checked; ``SetupError`` naming the rule it breaks.
    ``commands``: the command cards chosen (None: the first the catalog allows)."""
    regs = regiments(catalog, force, who)
    kinds = [catalog.disk(n) for n in force]
    factions = {k.faction for k in kinds}
    if len(factions) > 1:
        raise SetupError(_at(who, "Order and Destruction disks cannot fight in one army"))
    faction = factions.pop()
    if not any(k.hero and k.unique for k in kinds):
        raise SetupError(_at(who, "at least one unique hero leads an army"))
    for name, n in Counter(k.name for k in kinds if k.unique).items():
        if n > 1:
            raise SetupError(_at(who, f"{quote(name)} is unique: one copy at most, not {n}"))
    unspent = 0
    for reg in regs:
        hero = catalog.disk(reg.hero)
        units = [catalog.disk(n) for n in reg.units]
        where = _at(who, f"{reg.hero}'s regiment")
        for u in units:
            if u.race != hero.race:
                raise SetupError(f"{where}: {quote(u.name)} is {u.race}, and a hero "
                                 f"recruits only his own race ({hero.race})")
        spent = sum(u.cost for u in units)
        if spent > hero.recruitment:
            raise SetupError(f"{where} costs {spent} recruitment points of the "
                             f"{hero.recruitment} the hero has")
        unspent += hero.recruitment - spent
        small = sum(1 for u in units if u.size == "small")
        if small < len(units) - small:
            raise SetupError(f"{where}: {small} small disks, fewer than its "
                             f"{len(units) - small} medium and large ones")
        for name, n in Counter(u.name for u in units).items():
            size = catalog.disk(name).size
            if n > _COPIES[size]:
                raise SetupError(f"{where}: {n} copies of {quote(name)}; a regiment takes "
                                 f"at most {_COPIES[size]} of a {size} disk")
        elites = [u.name for u in units if u.elite]
        if len(elites) > 1:
            raise SetupError(f"{where}: {len(elites)} elite disks ({', '.join(elites)}); "
                             "one at most")
    value = sum(catalog.disk(r.hero).command for r in regs)
    allowed = [c.name for c in catalog.commands.values() if c.only in (None, faction)]
    if commands is None:
        hand = tuple(allowed[:value])
    else:
        hand = tuple(commands)
        for i, c in enumerate(hand):
            card = catalog.commands.get(c)
            if card is None:
                raise SetupError(_at(who, f"commands[{i}]: no command card named {quote(c)}"))
            if card.only not in (None, faction):
                raise SetupError(_at(who, f"commands[{i}]: {quote(c)} is for "
                                          f"{card.only} armies only"))
        for c, n in Counter(hand).items():
            if n > 1:
                raise SetupError(_at(who, f"commands: {quote(c)} twice; one copy of a card"))
    if len(hand) != value:
        raise SetupError(_at(who, f"its heroes' command values allow {value} command "
                                 f"cards, not {len(hand)}"))
    return Army(regs, faction, hand, unspent)
