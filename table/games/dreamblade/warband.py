"""Warband files: a named list of miniatures, validated by the warband rules.

    {"format": "tablesight-dreamblade-warband/1", "name": "My band",
     "miniatures": ["Iron Thug", {"name": "Twilight Scout", "count": 2}]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from .catalog import Catalog, CatalogError
from .game import check_warband

WARBAND_FORMAT = "tablesight-dreamblade-warband/1"


@dataclass(frozen=True)
class Warband:
    name: str
    names: tuple[str, ...]

    def total_cost(self, catalog: Catalog) -> int:
        return sum(catalog[n].cost for n in self.names)


def load_warband(data: object, catalog: Catalog) -> Warband:
    """Read and validate a warband document (raises CatalogError or SetupError)."""
    if isinstance(data, list):
        data = {"name": "unnamed", "miniatures": data}
    if not isinstance(data, dict) or not isinstance(data.get("miniatures"), list):
        raise CatalogError("a warband is an object with a 'miniatures' list")
    fmt = data.get("format", WARBAND_FORMAT)
    if fmt != WARBAND_FORMAT:
        raise CatalogError(f"warband format must be {WARBAND_FORMAT!r}, got {fmt!r}")
    names: list[str] = []
    for item in data["miniatures"]:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            count = item.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise CatalogError(f"{item['name']!r}: count must be a whole number >= 1")
            names.extend([item["name"]] * count)
        else:
            raise CatalogError(f"warband entry {item!r} is neither a name nor "
                               "{'name': ..., 'count': n}")
    name = str(data.get("name", "unnamed"))
    check_warband(names, catalog, f"warband {name!r}")
    return Warband(name, tuple(names))


def sample_warband(catalog: Catalog | None = None) -> Warband:
    """The rulebook's sample warband (built in)."""
    text = resources.files("table.games.dreamblade").joinpath(
        "data/warbands/rulebook-sample.json").read_text(encoding="utf-8")
    return load_warband(json.loads(text), catalog or Catalog.builtin())
