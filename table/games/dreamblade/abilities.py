"""Ability notation: the text form of a miniature's abilities in catalog data.

Grammar (case-insensitive, spaces free)::

    ability     := [activation ":"] name [modifier] [number]
    activation  := requirement ("," requirement)*
    requirement := "Blade" | "Multiblade" | "Double Blade" | "Double Multiblade"
                 | "Spawn" N | "Score" | "Comes into play"
    number      := ["+" | "-"] digits | "X"  e.g. "Crit 5", "Bolster +2", "Fumble -1",
                   "Blade: Crit X" (X chosen by the player when the ability is
                   activated: the rulebook's "X: if the ability doesn't define what X
                   equals, you can choose it")
    modifier    := words such as an aspect, a lineage, "Enemies", "Self", or the
                   bracketed name of Unique: "Nullify Valor", "Fight Hellbred +2",
                   "Unique [Glorious]", "Reinforce Valor"

Examples: ``"Blade: Crit 5"``, ``"Fortunate 2"``, ``"Spawn 1, Score: Advance"``,
``"Multiblade: Lure"``, ``"Comes into play: Purge"``.

This module only reads the notation into value objects; what each ability does is the
rules engine's business (see ``docs/rules/abilities.md`` for the state of each one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class BladeCost(StrEnum):
    """How blades activate an ability (the blade symbols on a base)."""

    BLADE = "blade"  # one blade, once per attack
    MULTIBLADE = "multiblade"  # each blade activates it once
    DOUBLE = "double_blade"  # exactly two blades, once per attack
    DOUBLE_MULTI = "double_multiblade"  # each pair of blades activates it once

    @property
    def blades_per_activation(self) -> int:
        return 2 if self in (BladeCost.DOUBLE, BladeCost.DOUBLE_MULTI) else 1

    @property
    def repeatable(self) -> bool:
        return self in (BladeCost.MULTIBLADE, BladeCost.DOUBLE_MULTI)


class AbilityError(ValueError):
    """Ability text that the notation cannot read."""


@dataclass(frozen=True)
class AbilitySpec:
    """What the notation knows about one ability name."""

    name: str
    number: bool = False  # takes a number (X)
    modifier: bool = False  # takes a modifier word (aspect, lineage, Enemies, Self...)


# Every ability named in the rules references, plus the named abilities of miniatures the
# rulebook prints. Kept as one table so a new set of miniatures adds rows, not code.
_SPECS = [
    AbilitySpec("Advance", modifier=True),
    AbilitySpec("Ambush", number=True),
    AbilitySpec("Appease"),
    AbilitySpec("Assault", number=True),
    AbilitySpec("Bloodthirsty"),
    AbilitySpec("Bodyguard"),
    AbilitySpec("Bolster", number=True, modifier=True),
    AbilitySpec("Bomb", number=True),
    AbilitySpec("Channel", number=True, modifier=True),
    AbilitySpec("Charge", number=True),
    AbilitySpec("Copy"),
    AbilitySpec("Crit", number=True),
    AbilitySpec("Defender"),
    AbilitySpec("Demolish"),
    AbilitySpec("Detonate"),
    AbilitySpec("Dissipate"),
    AbilitySpec("Dominate"),
    AbilitySpec("Drain", number=True, modifier=True),
    AbilitySpec("Energize", number=True),
    AbilitySpec("Enrage", number=True, modifier=True),
    AbilitySpec("Expel"),
    AbilitySpec("Fade"),
    AbilitySpec("Ferocity"),
    AbilitySpec("Fight", number=True, modifier=True),
    AbilitySpec("Flanking", number=True),
    AbilitySpec("Fortunate", number=True),
    AbilitySpec("Fumble", number=True),
    AbilitySpec("Geomancy", number=True),
    AbilitySpec("Hell's Fury"),
    AbilitySpec("Heroics", number=True),
    AbilitySpec("Inciter", number=True, modifier=True),
    AbilitySpec("Invigorate", number=True, modifier=True),
    AbilitySpec("Loner"),
    AbilitySpec("Lure"),
    AbilitySpec("Nullify", modifier=True),
    AbilitySpec("Pack"),
    AbilitySpec("Panic", number=True, modifier=True),
    AbilitySpec("Payback"),
    AbilitySpec("Purge"),
    AbilitySpec("Raise"),
    AbilitySpec("Regenerate"),
    AbilitySpec("Reincarnate"),
    AbilitySpec("Reinforce", modifier=True),
    AbilitySpec("Relentless"),
    AbilitySpec("Respawn", number=True),
    AbilitySpec("Scare"),
    AbilitySpec("Skirmish"),
    AbilitySpec("Stalwart"),
    AbilitySpec("Strikeback", number=True),
    AbilitySpec("Swap"),
    AbilitySpec("Teleport", modifier=True),
    AbilitySpec("Thanatomancy"),
    AbilitySpec("Unique", modifier=True),
    AbilitySpec("Vengeance", number=True),
    AbilitySpec("Vessel", number=True),
    AbilitySpec("Wail"),
    AbilitySpec("Warpstrike", number=True),
    AbilitySpec("Weaken", number=True, modifier=True),
    # Named abilities of miniatures printed in the rulebook.
    AbilitySpec("Call Adjacent Ally"),  # Pearlthorn Castle: pull an adjacent ally into its cell
]
# The glossary spells Thanatomancy as "Thanatocracy" and Appease as "Appear"; accept both.
_ALIASES = {"thanatocracy": "Thanatomancy", "appear": "Appease"}
SPECS: dict[str, AbilitySpec] = {s.name.lower(): s for s in _SPECS}
_NAMES_LONGEST_FIRST = sorted(SPECS, key=len, reverse=True)


@dataclass(frozen=True)
class Activation:
    """The requirements before the colon."""

    blade: BladeCost | None = None
    spawn_cost: int | None = None
    score: bool = False
    comes_into_play: bool = False

    @property
    def always_active(self) -> bool:
        return self == Activation()

    def __str__(self) -> str:
        parts = []
        if self.blade:
            parts.append({BladeCost.BLADE: "Blade", BladeCost.MULTIBLADE: "Multiblade",
                          BladeCost.DOUBLE: "Double Blade",
                          BladeCost.DOUBLE_MULTI: "Double Multiblade"}[self.blade])
        if self.spawn_cost is not None:
            parts.append(f"Spawn {self.spawn_cost}")
        if self.score:
            parts.append("Score")
        if self.comes_into_play:
            parts.append("Comes into play")
        return ", ".join(parts)


@dataclass(frozen=True)
class Ability:
    name: str  # canonical name, e.g. "Crit"
    activation: Activation = Activation()
    number: int | None = None
    modifier: str | None = None
    variable: bool = False  # its number is X, chosen on each activation

    @property
    def is_blade(self) -> bool:
        return self.activation.blade is not None

    def __str__(self) -> str:
        body = self.name
        if self.modifier:
            body += f" [{self.modifier}]" if self.name == "Unique" else f" {self.modifier}"
        if self.variable:
            body += " X"
        elif self.number is not None:
            body += f" {self.number:+d}" if self.name in _SIGNED else f" {self.number}"
        act = str(self.activation)
        return f"{act}: {body}" if act else body


_SIGNED = {"Bolster", "Enrage", "Invigorate", "Fight"}
_NUMBER_RE = re.compile(r"^\(?([+-]?\d+)\)?$")
_BLADE_WORDS = {
    "blade": BladeCost.BLADE,
    "multiblade": BladeCost.MULTIBLADE,
    "double blade": BladeCost.DOUBLE,
    "double multiblade": BladeCost.DOUBLE_MULTI,
}


def _parse_activation(text: str) -> Activation:
    blade: BladeCost | None = None
    spawn: int | None = None
    score = cip = False
    for raw in text.split(","):
        part = " ".join(raw.split()).lower()
        if part in _BLADE_WORDS:
            if blade is not None:
                raise AbilityError(f"two blade requirements in {text!r}")
            blade = _BLADE_WORDS[part]
        elif m := re.fullmatch(r"spawn\s*(\d+)", part):
            spawn = int(m.group(1))
        elif part == "score":
            score = True
        elif part == "comes into play":
            cip = True
        else:
            raise AbilityError(f"unknown activation requirement {raw.strip()!r}")
    return Activation(blade, spawn, score, cip)


def parse_ability(text: str) -> Ability:
    """Read one ability in the notation; raises ``AbilityError`` naming the text."""
    if not isinstance(text, str) or not text.strip():
        raise AbilityError(f"empty ability {text!r}")
    head, sep, body = text.partition(":")
    activation = _parse_activation(head) if sep else Activation()
    body = " ".join((body if sep else head).split())
    low = body.lower()
    for alias, canonical in _ALIASES.items():
        if low == alias or low.startswith(alias + " "):
            low = canonical.lower() + low[len(alias):]
            body = canonical + body[len(alias):]
    spec = next((SPECS[n] for n in _NAMES_LONGEST_FIRST
                 if low == n or low.startswith(n + " ") or low.startswith(n + "(")), None)
    if spec is None:
        raise AbilityError(f"unknown ability {body!r}")
    rest = body[len(spec.name):].strip()
    number: int | None = None
    modifier: str | None = None
    words = rest.replace("(", " (").split()
    variable = bool(words) and words[-1].strip("()").upper() == "X"
    if variable:
        if not spec.number:
            raise AbilityError(f"{spec.name} takes no number: {text!r}")
        if activation.blade is None and activation.spawn_cost is None \
                and not activation.comes_into_play:
            raise AbilityError(f"X is chosen when an ability is activated; {spec.name} X has "
                               f"no activation (Blade, Spawn, Comes into play): give its "
                               f"number: {text!r}")
        words = words[:-1]
    elif words and _NUMBER_RE.match(words[-1]):
        if not spec.number:
            raise AbilityError(f"{spec.name} takes no number: {text!r}")
        number = int(_NUMBER_RE.match(words[-1]).group(1))  # type: ignore[union-attr]
        words = words[:-1]
    elif spec.number and not spec.modifier and not variable:
        raise AbilityError(f"{spec.name} needs a number, as in '{spec.name} 2': {text!r}")
    if words:
        if not spec.modifier:
            raise AbilityError(f"{spec.name} takes no modifier: {text!r}")
        modifier = " ".join(words).strip("()[] ")
    if spec.name == "Unique" and not modifier:
        raise AbilityError(f"Unique needs a name, as in 'Unique [Glorious]': {text!r}")
    if spec.name == "Fight" and (not modifier or number is None):
        raise AbilityError(f"Fight needs a type and a number, as in 'Fight Valor +2': {text!r}")
    return Ability(spec.name, activation, number, modifier, variable)


def parse_abilities(items: list[str] | tuple[str, ...]) -> tuple[Ability, ...]:
    return tuple(parse_ability(t) for t in items)
