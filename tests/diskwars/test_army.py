"""Army building, each rule of the text with a case that breaks it."""

from __future__ import annotations

import pytest

from table.games.diskwars import army, catalog
from table.games.diskwars.errors import SetupError

CAT = catalog.builtin()


def check(force: list[str], commands: list[str] | None = None) -> army.Army:
    return army.check(CAT, force, commands)


def test_a_legal_army_counts_its_unspent_points_and_command_cards() -> None:
    a = check(["Tyrion", "High Elf Spearmen", "High Elf Spearmen", "High Elf Archers",
               "Silver Helms"])
    assert a.unspent == 12 - 10
    assert len(a.commands) == 4  # Tyrion's command value
    assert a.regiments[0].hero == "Tyrion" and len(a.regiments[0].units) == 4


@pytest.mark.parametrize("force, words", [
    (["High Elf Spearmen", "Tyrion"], "each regiment starts with the hero"),
    (["Empire Captain", "Empire Swordsmen"], "at least one unique hero"),
    (["Tyrion", "Kairos Fateweaver"], "Order and Destruction"),
    (["Tyrion", "Tyrion"], "unique: one copy at most"),
    (["Tyrion", "Empire Swordsmen"], "recruits only his own race"),
    (["Tyrion", "Silver Helms", "High Elf Spearmen", "Silver Helms"],
     "fewer than its 2 medium and large"),
    (["Tyrion", "High Elf Spearmen", "High Elf Spearmen", "High Elf Spearmen",
      "High Elf Spearmen"], "at most 3 of a small disk"),
    (["Tyrion", "Silver Helms"], "0 small disks, fewer than its 1 medium and large"),
    (["Tyrion", "Nobody"], "no disk named"),
])
def test_each_rule_of_army_building(force: list[str], words: str) -> None:
    with pytest.raises(SetupError, match=words):
        check(force)


def test_recruitment_points_are_a_limit() -> None:
    with pytest.raises(SetupError, match="costs 14 recruitment points of the 12"):
        check(["Kairos Fateweaver", "Plaguebearers", "Bloodletters", "Bloodletters",
               "Hellcannon"])


def test_one_elite_per_regiment_and_copy_limits_by_size() -> None:
    doc = {"format": catalog.FORMAT, "disks": [
        {"name": "Big Gun", "race": "empire", "faction": "order", "size": "large",
         "cost": 1, "elite": True, "attack": 1, "counter": 1, "toughness": 3,
         "movement": 1},
        {"name": "Small Gun", "race": "empire", "faction": "order", "size": "small",
         "cost": 1, "elite": True, "attack": 1, "counter": 1, "toughness": 1,
         "movement": 1},
        {"name": "Wagon", "race": "empire", "faction": "order", "size": "large",
         "cost": 1, "attack": 1, "counter": 1, "toughness": 3, "movement": 1}]}
    cat = catalog.with_document(CAT, doc)
    with pytest.raises(SetupError, match="2 elite disks"):
        army.check(cat, ["Tyrion", "Empire Captain", "Small Gun", "Big Gun",
                         "Empire Swordsmen"])
    with pytest.raises(SetupError, match="at most 1 of a large disk"):
        army.check(cat, ["Tyrion", "Empire Captain", "Empire Swordsmen",
                         "Empire Swordsmen", "Wagon", "Wagon"])


def test_command_cards_by_command_value_one_copy_and_faction() -> None:
    force = ["Tyrion", "High Elf Spearmen"]
    assert check(force, ["Forward", "Charge", "Hold Fast", "Discipline"]).commands[-1] \
        == "Discipline"
    with pytest.raises(SetupError, match="allow 4 command cards, not 3"):
        check(force, ["Forward", "Charge", "Hold Fast"])
    with pytest.raises(SetupError, match="twice"):
        check(force, ["Forward", "Forward", "Hold Fast", "Charge"])
    with pytest.raises(SetupError, match="for destruction armies only"):
        check(force, ["Forward", "Charge", "Hold Fast", "Frenzied Rush"])
    with pytest.raises(SetupError, match="no command card"):
        check(force, ["Forward", "Charge", "Hold Fast", "Nope"])


def test_a_catalog_entry_with_a_bad_field_is_named() -> None:
    from table.errors import CatalogError

    bad = {"format": catalog.FORMAT, "disks": [
        {"name": "X", "race": "r", "faction": "order", "size": "huge", "attack": 1,
         "counter": 1, "toughness": 1, "movement": 1}]}
    with pytest.raises(CatalogError, match=r"disk 'X'\.size: one of small, medium, large"):
        catalog.with_document(CAT, bad)
    bad["disks"][0].update(size="small", keywords=["teleport"])
    with pytest.raises(CatalogError, match="unknown keyword 'teleport'"):
        catalog.with_document(CAT, bad)
    with pytest.raises(CatalogError, match="format"):
        catalog.with_document(CAT, {"format": "other"})
    with pytest.raises(CatalogError, match="ruler_mm: short, medium and long each reach"):
        catalog.with_document(CAT, {"format": catalog.FORMAT,
                                    "ruler_mm": {"short": 50, "medium": 40, "long": 90}})
