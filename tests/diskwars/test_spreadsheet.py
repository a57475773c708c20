"""Disks from a spreadsheet: read as the catalog reads its entries, the whole file
refused naming the line and the column when a row is wrong; imported with the CLI into
the user's catalog, where the next game finds them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import CatalogError
from table.games.diskwars import catalog
from table.games.diskwars.spreadsheet import COLUMNS, disks_from_csv
from tests.test_cli import run

HEADER = ",".join(COLUMNS)
GOOD = (f"{HEADER}\n"
        "Dwarf Thane,dwarfs,order,medium,yes,yes,,,10,3,3,3,5,2,1,,,,,\n"
        "Thunderers,dwarfs,order,small,,,,2,,,1,1,3,1,,2,2,physical,long,\n"
        "Slayers,dwarfs,order,small,no,no,no,3,,,3,1,2,2,,,,,,frenzy; swift physical\n")


def test_rows_become_disks_the_catalog_accepts() -> None:
    disks = disks_from_csv(GOOD)
    assert [d["name"] for d in disks] == ["Dwarf Thane", "Thunderers", "Slayers"]
    cat = catalog.with_document(catalog.builtin(), {"format": catalog.FORMAT, "disks": disks})
    assert cat.disk("Dwarf Thane").hero and cat.disk("Dwarf Thane").command == 3
    assert cat.disk("Thunderers").ranged.range == "long"
    assert cat.disk("Slayers").keywords == {"frenzy": "", "swift": "physical"}


@pytest.mark.parametrize("text, words", [
    ("name,race\nX,y\n", "missing column(s) faction, size"),
    (GOOD.replace("medium", "huge"), "line 2: disk 'Dwarf Thane'.size"),
    (GOOD.replace(",2,2,physical,long,", ",2,2,physical,far,"), "line 3"),
    (GOOD.replace("frenzy;", "teleport;"), "line 4"),
    (GOOD.replace(",yes,yes,", ",maybe,yes,"), "hero: yes or no"),
    (GOOD.replace("Thunderers,dwarfs,order,small,,,,2", "Thunderers,dwarfs,order,small,,,,two"),
     "cost: a whole number"),
    (f"{HEADER},colour\n", "unknown column 'colour'"),
    (f"{HEADER}\n", "no rows"),
])
def test_a_wrong_row_refuses_the_file_naming_it(text: str, words: str) -> None:
    with pytest.raises(CatalogError) as e:
        disks_from_csv(text)
    assert words in str(e.value), str(e.value)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_in_words(text: str) -> None:
    try:
        disks_from_csv(HEADER + "\n" + text)
    except CatalogError as e:
        assert str(e)


def test_the_cli_imports_into_the_users_catalog(tmp_path: Path) -> None:
    sheet = tmp_path / "dwarfs.csv"
    sheet.write_text(GOOD)
    home = tmp_path / "data"
    env = {"XDG_DATA_HOME": str(home)}
    r = run("catalog", "import", "--game", "diskwars", str(sheet), env=env)
    assert r.returncode == 0, r.stderr
    written = list((home / "tablesight" / "catalog" / "diskwars").glob("*.json"))
    assert len(written) == 1
    assert len(json.loads(written[0].read_text())["disks"]) == 3
    r = run("catalog", "list", "--game", "diskwars", env=env)
    assert r.returncode == 0 and "Dwarf Thane" in r.stdout, r.stdout + r.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text(GOOD.replace("medium", "huge"))
    r = run("catalog", "import", "--game", "diskwars", str(bad), env=env)
    assert r.returncode != 0 and "line 2" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
