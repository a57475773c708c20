"""Warseer ("Legends of Signum 2: Warseer", the hex-grid hero battle game) as a game
system the table can referee, registered as ``warseer`` through the
``tablesight.games`` entry point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from table.errors import SetupRefused
from table.stickers import STICKERS_PER_PLAYER, Stickers
from table.system import CatalogImport, GameSystem

from .battlefield import Battlefield
from .catalog import CATALOG_FORMAT, Catalog, CatalogError, creatures_from_csv, read_dice
from .game import Game, check_warband
from .layout import battlefield_layout
from .referee import WarseerReferee
from .scenario import run

FORCE_FORMAT = "warseer-warband/1"


class Warseer(GameSystem):
    name: ClassVar[str] = "warseer"
    title: ClassVar[str] = "Warseer (Legends of Signum 2)"
    # The rules text in shared/rules (hex-hero-battle-rules.txt) as docs/rules/warseer.md
    # reads it, with tablesight's documented readings where it is silent.
    rules_version: ClassVar[str] = "warseer-los2/engine-1"
    piece_word: ClassVar[str] = "creature"
    force_word: ClassVar[str] = "warband"

    def builtin_catalog(self) -> Catalog:
        return Catalog.builtin()

    def with_document(self, catalog: Catalog, document: object) -> Catalog:
        """``warseer-catalog/1`` files add or replace creatures, cards and feats; a dice
        file (``{"dice": [...]}``, as ``data/dice.json``) replaces the face tables."""
        doc = document
        if isinstance(doc, dict) and "format" not in doc and "dice" in doc:
            return Catalog(catalog.creatures, catalog.cards, catalog.feats,
                           catalog.feat_copies, read_dice(doc))
        if isinstance(doc, dict) and doc.get("format") == CATALOG_FORMAT:
            return catalog.merged(doc)
        raise CatalogError(f"neither a {CATALOG_FORMAT} file nor a dice file")

    def game(self, setup: Any, catalog: Catalog | None = None) -> Game:
        decks = getattr(setup, "decks", None)
        return Game.make(catalog if isinstance(catalog, Catalog) else self.the_catalog(),
                         Battlefield.standard(), setup.forces, decks or None)

    def referee(self, setup: Any, catalog: Any | None = None) -> WarseerReferee:
        game = self.game(setup, catalog)
        stickers = setup.sticker_map()
        if getattr(setup, "stickers", None) is None:
            # The printed numbering, for the warband and the minions summoned later:
            # a player's sticker i is their creature p#i.
            stickers = Stickers({k * STICKERS_PER_PLAYER + i: f"{p}#{i}"
                                 for k, p in enumerate(("p1", "p2"))
                                 for i in range(STICKERS_PER_PLAYER)})
        return WarseerReferee(game, setup.names, stickers)

    def layout(self) -> dict[str, Any]:
        return battlefield_layout()

    def catalog(self) -> list[dict[str, Any]]:
        cat = self.the_catalog()
        return [{"name": c.name, "cost": c.rank, "kind": c.kind}
                for c in sorted(cat.creatures.values(), key=lambda c: (c.kind != "hero",
                                                                       c.rank, c.name))
                if c.kind != "minion"]

    def sample_forces(self) -> dict[str, list[str]]:
        return {"p1": ["Diodor", "Gil-Talas", "Order Squire", "Forest Archer"],
                "p2": ["Kaitlynn", "Dayodor Order Mentor", "Stone Guardian",
                       "Forest Archer"]}

    def run_scenario(self, data: dict[str, Any], catalog: Any | None = None) -> dict[str, Any]:
        return run(data, self.the_catalog())

    def force_from_file(self, data: object) -> list[str]:
        """A ``warseer-warband/1`` file: ``{"format", "hero", "characters": [...]}``."""
        if not isinstance(data, dict) or data.get("format") != FORCE_FORMAT:
            raise SetupRefused(f"a warband file has format {FORCE_FORMAT!r}, a hero and "
                               "characters")
        hero, chars = data.get("hero"), data.get("characters", [])
        if not isinstance(hero, str) or not isinstance(chars, list) \
                or not all(isinstance(c, str) for c in chars) or len(chars) > 30:
            raise SetupRefused("hero: a name; characters: a list of names")
        names = [hero, *chars]
        try:
            check_warband(self.the_catalog(), names, "warband")
        except CatalogError as e:
            raise SetupRefused(str(e)) from None
        return names

    def import_catalog(self, text: str, source: str) -> CatalogImport:
        """Creatures from a spreadsheet (``docs/rules/warseer-catalog.md``): every row
        checked, and nothing kept unless all are good."""
        creatures = creatures_from_csv(text)
        return CatalogImport({"format": CATALOG_FORMAT, "creatures": creatures},
                             (f"read {len(creatures)} creatures",))

    def joining_pieces(self, force: Sequence[str]) -> list[str]:
        # Minions a card summons take the player's next numbers (``engine``: the
        # warband's size plus the minions summoned before), up to the printed 16.
        return ["summoned minion"] * max(0, STICKERS_PER_PLAYER - len(force))


SYSTEM = Warseer()
