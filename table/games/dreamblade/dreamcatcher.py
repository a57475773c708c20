"""Import of the fan community's "Dreamcatcher" spreadsheet, exported as CSV.

Columns: name, lineage, aspect, spawnCost, aspectCost, power, defense, life, abilities,
flavorText, collectorNumber, set, rarity. Header names are matched without regard to
case, spaces or underscores.

What the columns hold is not documented by the spreadsheet's authors, so the reader is
tolerant and says exactly why it skips a row:

* ``aspect``: one aspect, or several separated by ``/ , & +`` or spaces.
* ``aspectCost``: the number of aspect symbols. With one aspect, all symbols are of it.
  With several aspects it must either equal the number of aspects (one symbol each) or
  be written per aspect, ``"Valor 2, Madness 1"`` / ``"2V1M"``.
* ``power``/``defense``/``life`` empty or ``-`` on every one: a location.
* ``abilities``: separated by ``;`` or new lines, in the project's ability notation;
  the words "Blade", "Multiblade"... or the symbols ♣ before a colon are understood.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from .catalog import Aspect, CatalogError, MiniatureDef

_COLUMNS = ("name", "lineage", "aspect", "spawncost", "aspectcost", "power", "defense",
            "life", "abilities", "flavortext", "collectornumber", "set", "rarity")
_LETTER = {"v": Aspect.VALOR, "m": Aspect.MADNESS, "f": Aspect.FEAR, "p": Aspect.PASSION}


@dataclass(frozen=True)
class Problem:
    row: int  # 1-based line number in the file (the header is row 1)
    name: str
    reason: str


@dataclass
class ImportReport:
    rows: int = 0
    minis: list[MiniatureDef] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _norm(h: str) -> str:
    return re.sub(r"[\s_\-]", "", h or "").lower()


def _aspects(aspect: str, cost: str) -> list[str]:
    names = [a for a in re.split(r"[/,&+\s]+", aspect.strip().lower()) if a]
    if not names:
        raise ValueError("no aspect")
    for n in names:
        if n not in Aspect.__members__.values() and n not in [a.value for a in Aspect]:
            raise ValueError(f"unknown aspect {n!r}")
    cost = cost.strip()
    if re.fullmatch(r"\d+", cost):
        n = int(cost)
        if n < 1:
            raise ValueError(f"aspect cost {cost!r} must be at least 1")
        if len(names) == 1:
            return names * n
        if n == len(names):
            return names
        raise ValueError(f"aspect cost {n} cannot be split between {', '.join(names)}; "
                         "write it per aspect, e.g. 'Valor 2, Madness 1'")
    out: list[str] = []
    per = re.findall(r"([a-zA-Z]+)\s*(\d+)|(\d+)\s*([a-zA-Z]+)", cost)
    if not per:
        raise ValueError(f"aspect cost {cost!r} is not a number or a per-aspect list")
    for w1, n1, n2, w2 in per:
        word, n = (w1, n1) if w1 else (w2, n2)
        word = word.lower()
        aspect = _LETTER.get(word) if len(word) == 1 else (
            Aspect(word) if word in [a.value for a in Aspect] else None)
        if aspect is None:
            raise ValueError(f"unknown aspect {word!r} in aspect cost {cost!r}")
        out += [aspect.value] * int(n)
    return out


def _ability_texts(raw: str) -> list[str]:
    raw = raw.replace("♣", "Blade").replace("✦", "Score").replace("✧", "Comes into play")
    parts = [p.strip() for p in re.split(r"[;\n]+", raw) if p.strip()]
    # Reminder text in parentheses after a dash is not part of the ability.
    return [re.split(r"\s+[—–-]\s+", p)[0].strip() for p in parts]


def _stat(v: str) -> int | None:
    v = v.strip()
    if v in ("", "-", "—", "–"):
        return None
    return int(v)


def import_csv(text: str) -> ImportReport:
    report = ImportReport()
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        report.problems.append(Problem(0, "", f"the file is not readable as CSV: {exc}"))
        return report
    if not rows:
        return report
    header, reader = rows[0], rows[1:]
    cols = {_norm(h): i for i, h in enumerate(header)}
    missing = [c for c in ("name", "aspect", "spawncost", "aspectcost") if c not in cols]
    if missing:
        report.problems.append(Problem(1, "", f"header lacks column(s) {missing}; "
                                              f"expected {', '.join(_COLUMNS)}"))
        return report
    for lineno, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        report.rows += 1

        def col(name: str, row: list[str] = row) -> str:
            i = cols.get(name)
            return row[i] if i is not None and i < len(row) else ""

        name = col("name").strip()
        try:
            if not name:
                raise ValueError("no name")
            stats = [_stat(col(k)) for k in ("power", "defense", "life")]
            is_location = all(s is None for s in stats)
            if not is_location and any(s is None for s in stats):
                raise ValueError("power, defense and life must all be given for a creature "
                                 "(or all empty for a location)")
            data: dict[str, object] = {
                "name": name,
                "type": "location" if is_location else "creature",
                "cost": int(col("spawncost").strip()),
                "aspects": _aspects(col("aspect"), col("aspectcost")),
                "abilities": _ability_texts(col("abilities")),
            }
            if not is_location:
                data.update(power=stats[0], defense=stats[1], life=stats[2])
            if col("lineage").strip():
                data["lineage"] = col("lineage").strip()
            for key, c in (("set", "set"), ("number", "collectornumber"),
                           ("rarity", "rarity")):
                if col(c).strip():
                    data[key] = col(c).strip()
            report.minis.append(MiniatureDef.from_dict(data))
        except (ValueError, CatalogError) as exc:
            reason = str(exc)
            if isinstance(exc, ValueError) and "invalid literal for int()" in reason:
                reason = "a cost or stat is not a whole number: " + reason.split(": ")[-1]
            report.problems.append(Problem(lineno, name, reason))
    return report
