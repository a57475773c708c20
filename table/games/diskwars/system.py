"""Diskwars as a game system the table can referee (``diskwars`` in the
``tablesight.games`` entry points)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

from table.errors import ActionRefused, CatalogError
from table.system import CatalogImport, GameSystem

from . import army, catalog, scenario
from .actions import Command
from .errors import SetupError
from .game import make
from .layout import layout, origin
from .referee import DiskwarsReferee
from .spreadsheet import disks_from_csv
from .state import PLAYERS


class Diskwars(GameSystem):
    name: ClassVar[str] = "diskwars"
    title: ClassVar[str] = "Warhammer Diskwars"
    rules_version: ClassVar[str] = "diskwars/1"
    piece_word: ClassVar[str] = "disk"
    force_word: ClassVar[str] = "army"

    def referee(self, setup: Any, catalog_: Any | None = None) -> DiskwarsReferee:
        cat = catalog_ if catalog_ is not None else self.the_catalog()
        armies = {}
        for p in PLAYERS:
            commands = None
            if setup.decks is not None and setup.decks.get(p):
                commands = [self._card_name(cat, c, p) for c in setup.decks[p]]
            armies[p] = army.check(cat, setup.forces[p], commands, who=f"forces.{p}")
        game = make(cat, armies, corner=origin(layout(cat)))
        return DiskwarsReferee(game, setup.names, setup.sticker_map())

    @staticmethod
    def _card_name(cat: catalog.Catalog, text: str, p: str) -> str:
        card = cat.command(text) or cat.commands.get(text)
        if card is None:
            raise SetupError(f"decks.{p}: no command card {text!r}")
        return card.name

    def narrated_game(self, seed: int) -> Iterator[str]:
        """The sample armies, the dice fair, every choice a random legal one (for a
        disk put down or flipped: one of a sample of points)."""
        from table.session import Setup

        setup = Setup.from_dict({"system": self.name, "forces": self.sample_forces(),
                                 "names": {"p1": "Ann", "p2": "Bob"}})
        ref = self.referee(setup)
        words = ref.words
        rng = random.Random(seed)
        yield "tablesight: the Warhammer Diskwars rules engine referees a whole game"
        yield (f"(Ann leads {', '.join(self.sample_forces()['p1'])}; Bob leads "
               f"{', '.join(self.sample_forces()['p2'])}; fair dice; seed {seed})")
        yield "No camera or table box: each choice is a random legal one."
        state = ref.new_state()
        while not ref.is_over(state):
            action = ref.chance(state, rng)
            if action is None:
                action = rng.choice(list(ref.legal_actions(state)))
            try:
                state, events = ref.apply(state, action)
            except ActionRefused:
                continue  # dice the rules refuse (none in this game): rolled again
            if not isinstance(action, Command):  # chosen in secret: said at the reveal
                yield words.action(action)
            for e in events:
                if e.kind == "round":
                    yield ""
                    yield f"ROUND {e.data['round']}"
                    continue
                line = words.event(e.to_dict())
                if line:
                    yield f"  {line}"
        yield ""
        yield f"victory points: Ann {state.scores.get('p1', 0)}, Bob {state.scores.get('p2', 0)}"

    def import_catalog(self, text: str, source: str) -> CatalogImport:
        """Disks from a spreadsheet (``spreadsheet.py``): every row checked, nothing kept
        unless all are good."""
        disks = disks_from_csv(text)
        return CatalogImport({"format": catalog.FORMAT, "disks": disks},
                             (f"read {len(disks)} disks from {source}",))

    def run_scenario(self, data: dict[str, Any], catalog_: Any | None = None
                     ) -> dict[str, Any]:
        return scenario.run(data, self.the_catalog())

    def sample_forces(self) -> dict[str, list[str]]:
        return {"p1": ["Tyrion", "High Elf Spearmen", "High Elf Spearmen", "High Elf Archers",
                       "Silver Helms"],
                "p2": ["Kairos Fateweaver", "Plaguebearers", "Plaguebearers", "Hellcannon"]}

    def builtin_catalog(self) -> catalog.Catalog:
        return catalog.builtin()

    def with_document(self, cat: Any, document: object) -> catalog.Catalog:
        return catalog.with_document(cat, document)

    def catalog(self) -> list[dict[str, Any]]:
        cat = self.the_catalog()
        rows = [{"name": k.name, "cost": k.recruitment if k.hero else k.cost,
                 "kind": f"{'hero, ' if k.hero else ''}{k.size} {k.race}"}
                for k in cat.disks.values()]
        return sorted(rows, key=lambda r: (r["cost"], r["name"]))

    def ruler_bands(self) -> tuple[tuple[str, float], ...]:
        return self.the_catalog().ruler

    def layout(self) -> dict[str, Any]:
        return layout(self.the_catalog())

    def force_from_file(self, data: object) -> list[str]:
        """An army file: ``{"disks": [names in regiment order], "commands": [cards]}``
        or the list of names alone."""
        names = data.get("disks") if isinstance(data, dict) else data
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) \
                or not 0 < len(names) <= 60:
            raise SetupError("an army is a list of 1 to 60 disk names (or {\"disks\": "
                             "[...], \"commands\": [...]})")
        cat = self.the_catalog()
        commands = data.get("commands") if isinstance(data, dict) else None
        if commands is not None and (not isinstance(commands, list) or not all(
                isinstance(c, str) for c in commands) or len(commands) > 30):
            raise SetupError("commands: a list of command card names")
        try:
            army.check(cat, names, [self._card_name(cat, c, "army") for c in commands]
                       if commands is not None else None, who="")
        except CatalogError as e:
            raise SetupError(str(e)) from None
        return names


SYSTEM = Diskwars()
