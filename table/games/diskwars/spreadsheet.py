"""Disks from a spreadsheet (CSV), for ``tablesight catalog import --game diskwars``:
one row a disk, checked as a catalog entry is, the whole file refused (naming the line
and the column) if one row is wrong. The columns (``docs/rules/diskwars-catalog.md``):

    name, race, faction, size, hero, unique, elite, cost, recruitment, command,
    attack, counter, toughness, movement, stamina,
    ranged_dice, ranged_strength, ranged_type, ranged_range, keywords

``hero``, ``unique`` and ``elite`` are yes or no (empty: no); numbers left empty are 0;
``ranged_dice`` empty means no ranged attack; ``keywords`` are separated by ``;``
(``impact 1; resistant physical``)."""

from __future__ import annotations

import csv
import io
from typing import Any

from table.errors import CatalogError
from table.quoting import quote

from .catalog import disk_kind

COLUMNS = ("name", "race", "faction", "size", "hero", "unique", "elite", "cost",
           "recruitment", "command", "attack", "counter", "toughness", "movement",
           "stamina", "ranged_dice", "ranged_strength", "ranged_type", "ranged_range",
           "keywords")
REQUIRED = ("name", "race", "faction", "size", "attack", "counter", "toughness", "movement")
MAX_ROWS = 2000
MAX_BYTES = 1_000_000


def disks_from_csv(text: str) -> list[dict[str, Any]]:
    """The rows as catalog entries (``disks`` of a catalog document)."""
    if len(text) > MAX_BYTES:
        raise CatalogError(f"disk CSV: more than {MAX_BYTES:,} characters")
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = [h.strip() for h in reader.fieldnames or []]
        rows = list(reader)
    except csv.Error as e:
        raise CatalogError(f"disk CSV: not a spreadsheet the project reads ({e})") from None
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise CatalogError(f"disk CSV: missing column(s) {', '.join(missing)} "
                           f"(the columns: {', '.join(COLUMNS)})")
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        raise CatalogError(f"disk CSV: unknown column {quote(unknown[0])}")
    out = []
    for n, raw in enumerate(rows, start=2):
        if n - 1 > MAX_ROWS:
            raise CatalogError(f"disk CSV: more than {MAX_ROWS} rows")
        row = {(k or "").strip(): (v or "").strip() if isinstance(v, str) else ""
               for k, v in raw.items()}
        if not any(row.values()):
            continue  # a blank line
        try:
            entry = _entry(row)
            disk_kind(entry, f"line {n}")
        except CatalogError as e:
            raise CatalogError(f"disk CSV line {n}: {e}") from None
        out.append(entry)
    if not out:
        raise CatalogError("disk CSV: no rows under the header")
    return out


def _number(row: dict[str, str], col: str) -> int:
    v = row.get(col, "") or "0"
    if not v.isdigit() or len(v) > 3:
        raise CatalogError(f"{col}: a whole number, not {quote(v)}")
    return int(v)


def _yes(row: dict[str, str], col: str) -> bool:
    v = row.get(col, "").lower()
    if v not in ("", "yes", "no", "y", "n", "true", "false"):
        raise CatalogError(f"{col}: yes or no, not {quote(v)}")
    return v in ("yes", "y", "true")


def _entry(row: dict[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": row.get("name", ""), "race": row.get("race", ""),
                             "faction": row.get("faction", "").lower(),
                             "size": row.get("size", "").lower()}
    for col in ("hero", "unique", "elite"):
        entry[col] = _yes(row, col)
    for col in ("cost", "recruitment", "command", "attack", "counter", "toughness",
                "movement", "stamina"):
        entry[col] = _number(row, col)
    if row.get("ranged_dice"):
        strength = row.get("ranged_strength", "")
        entry["ranged"] = {"dice": _number(row, "ranged_dice"),
                           "strength": "d6" if strength.lower() == "d6"
                           else _number(row, "ranged_strength"),
                           "type": row.get("ranged_type", "").lower() or "physical",
                           "range": row.get("ranged_range", "").lower()}
    entry["keywords"] = [k.strip() for k in row.get("keywords", "").split(";") if k.strip()]
    return entry
