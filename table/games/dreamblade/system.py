"""Dreamblade as a game system the table can referee (registered as ``dreamblade``
through the ``tablesight.games`` entry point)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

from table.system import CatalogImport, GameSystem

from .board import Board
from .catalog import Catalog
from .dreamcatcher import import_csv
from .engine import new_state
from .game import Game
from .layout import standard_layout
from .playout import play_random_game, table_policy
from .referee import DreambladeReferee
from .referee.wording import Words, event_line
from .scenario import run
from .warband import load_warband, sample_warband

CATALOG_FORMAT = "tablesight-dreamblade-catalog/1"


class Dreamblade(GameSystem):
    name: ClassVar[str] = "dreamblade"
    title: ClassVar[str] = "Dreamblade"
    # The 2006 rulebook and quick rules as ``docs/rules/dreamblade.md`` reads them, and
    # this engine's revision of that reading.
    rules_version: ClassVar[str] = "dreamblade-2006/engine-2"
    files_without_a_name: ClassVar[bool] = True  # the scenario contract (v1) is its
    piece_word: ClassVar[str] = "miniature"
    force_word: ClassVar[str] = "warband"

    def user_folder(self) -> str:
        return ""  # the catalog folder itself: where Dreamblade's imports have always gone

    def builtin_catalog(self) -> Catalog:
        return Catalog.builtin()

    def with_document(self, catalog: Catalog, document: object) -> Catalog:
        """Catalog files (``{"miniatures": [...]}`` or a bare list, as ``catalog import``
        writes them) add or correct miniatures."""
        catalog.extend_from_dicts(document.get("miniatures") if isinstance(document, dict)
                                  else document)
        return catalog

    def game(self, setup: Any, catalog: Catalog | None = None) -> Game:
        """The static game for a setup; ``SetupError``/``CatalogError`` naming the
        problem (a miniature not in the catalog, a warband over the limits)."""
        return Game(Board.standard(), catalog or self.the_catalog(),
                    {p: list(w) for p, w in setup.forces.items()})

    def referee(self, setup: Any, catalog: Any | None = None) -> DreambladeReferee:
        return DreambladeReferee(self.game(setup, catalog), setup.names, setup.sticker_map())

    def layout(self) -> dict[str, Any]:
        return standard_layout()

    def catalog(self) -> list[dict[str, Any]]:
        return [{"name": m.name, "cost": m.cost, "kind": m.kind.value}
                for m in sorted(self.the_catalog(), key=lambda m: (m.cost, m.name))]

    def run_scenario(self, data: dict[str, Any], catalog: Any | None = None) -> dict[str, Any]:
        return run(data, catalog if isinstance(catalog, Catalog) else self.the_catalog())

    def force_from_file(self, data: object) -> list[str]:
        return list(load_warband(data, self.the_catalog()).names)

    def check_force(self, data: object) -> str:
        cat = self.the_catalog()
        wb = load_warband(data, cat)
        return (f"valid warband {wb.name!r}: {len(wb.names)} miniatures, "
                f"total cost {wb.total_cost(cat)}")

    def import_catalog(self, text: str, source: str) -> CatalogImport:
        """A Dreamcatcher spreadsheet: every row checked, the good ones kept, each bad
        one reported by its line."""
        report = import_csv(text)
        lines = [f"read {report.rows} rows: {len(report.minis)} miniatures imported, "
                 f"{len(report.problems)} rows skipped"]
        lines += [f"  row {p.row}: {p.name or '(no name)'}: {p.reason}"
                  for p in report.problems]
        document = {"format": CATALOG_FORMAT, "source": f"imported from {source}",
                    "miniatures": [m.to_dict() for m in report.minis]} if report.minis else None
        return CatalogImport(document, tuple(lines), bool(report.minis) or not report.rows)

    def describe_catalog(self) -> tuple[dict[str, Any], list[str]]:
        cat = self.the_catalog()
        lines = []
        for m in sorted(cat, key=lambda m: (m.cost, m.name)):
            stats = (f"{m.power} {m.defense}/{m.life}" if m.is_creature else "location")
            aspects = "+".join(a.value for a in m.aspects)
            abil = "; ".join(str(a) for a in m.abilities)
            lines.append(f"{m.cost:>2} {aspects:<16} {m.name:<24} {stats:<9} {abil}")
        return {"miniatures": [m.to_dict() for m in cat]}, lines

    def narrated_game(self, seed: int) -> Iterator[str]:
        """Two copies of the rulebook's sample warband, the dice fair, each side's
        choices made by a simple built-in player."""
        cat = Catalog.builtin()
        wb = sample_warband(cat)
        game = Game(Board.standard(), cat, {"p1": wb.names, "p2": wb.names})
        words = Words(game, {"p1": "Ann", "p2": "Bob"})  # names, never ids, for people
        yield "tablesight demo: the Dreamblade rules engine referees a whole game"
        yield f"(Ann and Bob both play the {wb.name}; simulated dice; seed {seed})"
        yield ("No camera or table box yet: the players' choices come from a simple "
               "built-in player.")
        yield ""
        record = play_random_game(new_state(game), random.Random(seed), policy=table_policy,
                                  keep_events=True, max_turns=60)
        for e in record.events:
            if e.kind == "initiative":
                yield ""
                yield f"TURN {e.data['turn']}"
            text = event_line(e.kind, e.data)
            if text:
                yield words.humanize(text)
        s = record.final
        yield ""
        yield (f"victory track: Ann {s.turns_won[0]}, Bob {s.turns_won[1]}"
               f" after {len(record.actions)} actions")

    def sample_forces(self) -> dict[str, list[str]]:
        names = list(sample_warband().names)  # the rulebook's sample warband, each side
        return {"p1": names, "p2": list(names)}


SYSTEM = Dreamblade()
