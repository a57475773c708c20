"""Actions as one line of text, the same way in every game.

Every game's actions are frozen value objects whose ``str()`` is their notation: the
log, the API and typed input all use it, and the game's parser reads it back
(``parse(str(a)) == a``). ``spelled`` gives an action class that ``str()`` from one
template, so a game writes each action's form once, where the class is declared::

    @spelled("{player} move {unit} {hex}")
    @dataclass(frozen=True)
    class Move:
        player: str
        unit: str
        hex: Hex

In a template, ``{field}`` is the field's value as ``str()`` writes it; ``{field:,}``
writes a sequence's items joined by what follows the colon (``{faces:,}`` gives
``S,SP,0``, ``{attackers: }`` gives ``p1#0 p1#2``); a part in square brackets is written
only when every field in it is set (not None): ``"{player} play {card}[ {target}]"``.
Reading text back stays each game's own: what a word may be is the game's to check.
A point on the map, which free placement writes into actions, is read by ``point``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from table.errors import NotationError
from table.quoting import quote

T = TypeVar("T")

_FIELD = re.compile(r"\{(\w+)(?::([^}]*))?\}")
_GROUP = re.compile(r"\[([^\[\]]*)\]")

# A compiled template: literal text, or (field, separator or None), or an optional
# group of those with the fields it needs.
_Part = str | tuple[str, str | None]


def _compile(template: str) -> list[_Part | tuple[tuple[str, ...], list[_Part]]]:
    def plain(text: str) -> list[_Part]:
        out: list[_Part] = []
        at = 0
        for m in _FIELD.finditer(text):
            if m.start() > at:
                out.append(text[at:m.start()])
            out.append((m.group(1), m.group(2)))
            at = m.end()
        if at < len(text):
            out.append(text[at:])
        return out

    compiled: list[_Part | tuple[tuple[str, ...], list[_Part]]] = []
    at = 0
    for m in _GROUP.finditer(template):
        compiled += plain(template[at:m.start()])
        inner = plain(m.group(1))
        needs = tuple(p[0] for p in inner if isinstance(p, tuple))
        if not needs:
            raise ValueError(f"an optional part names no field: {template!r}")
        compiled.append((needs, inner))
        at = m.end()
    compiled += plain(template[at:])
    return compiled


def _write(obj: object, parts: Sequence[Any], out: list[str]) -> None:
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p[0], tuple):  # an optional group
            needs, inner = p
            if all(getattr(obj, f) is not None for f in needs):
                _write(obj, inner, out)
        else:
            name, sep = p
            value = getattr(obj, name)
            out.append(str(value) if sep is None else sep.join(map(str, value)))


def spelled(template: str) -> Callable[[type[T]], type[T]]:
    """Class decorator: ``str()`` of an instance is ``template`` filled from its
    fields (see the module's docstring). A field the class does not have is an error
    when the class is made, not when an action is written."""
    parts = _compile(template)

    def decorate(cls: type[T]) -> type[T]:
        names = set(getattr(cls, "__dataclass_fields__", {})) | set(vars(cls))
        unknown = [p[0] for p in _flat(parts) if p[0] not in names]
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r} for {template!r}")

        def __str__(self: object) -> str:
            out: list[str] = []
            _write(self, parts, out)
            return "".join(out)

        cls.__str__ = __str__  # type: ignore[assignment,method-assign]
        cls.notation = template  # type: ignore[attr-defined]
        return cls

    return decorate


def _flat(parts: Sequence[Any]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for p in parts:
        if isinstance(p, str):
            continue
        if isinstance(p[0], tuple):
            out += _flat(p[1])
        else:
            out.append(p)
    return out


MAX_MAP_MM = 5000.0  # no printed map is larger: a bigger number is a typing error


def point(text: str) -> tuple[float, float]:
    """A point on the map as an action writes it, ``"274.0,300.5"`` (map millimetres,
    from 0), to a tenth: a tap on a screen and a camera's fit are no finer, and a point
    written to a tenth reads back as itself. ``NotationError`` naming the text
    otherwise."""
    xs = text.split(",")
    try:
        x, y = (float(v) for v in xs) if len(xs) == 2 else (math.nan, math.nan)
    except ValueError:
        x = y = math.nan
    if not all(math.isfinite(v) and 0 <= v <= MAX_MAP_MM for v in (x, y)):
        raise NotationError(f"a point is x,y in map millimetres (0 to {MAX_MAP_MM:g}), "
                            f"not {quote(text)}")
    return round(x, 1), round(y, 1)
