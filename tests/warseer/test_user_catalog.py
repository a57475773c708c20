"""A user's own Warseer creatures (imported from a spreadsheet) and dice (a face table
edited by hand) in their catalog folder: every game made afterwards uses them, the rules
check, the setup page's catalog and the table alike; a broken file is named in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table import registry
from table.games.warseer.catalog import CSV_COLUMNS

CSV = ",".join(CSV_COLUMNS) + "\n" + "\n".join([
    "Ash Queen,hero,3,magic,0,2,1,add dragon,3,7,3,warlord,1:2;2:2;3:1",
    "Cinder Imp,character,1,melee,2,0,0,,1,2,4,flying,",
])


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLESIGHT_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"
    registry.get("warseer").use_user_catalog([])  # the next test sees the built-in data


def test_imported_creatures_and_edited_dice_are_used(home: Path, tmp_path: Path, capsys):
    from tablesight.cli import main

    (tmp_path / "mine.csv").write_text(CSV)
    assert main(["catalog", "import", "--game", "warseer", str(tmp_path / "mine.csv")]) == 0
    written = home / "catalog" / "warseer" / "mine.json"
    assert written.is_file() and "read 2 creatures" in capsys.readouterr().out
    # Bronze dice that always show a sword, edited by the user.
    dice = json.loads((Path(__file__).parents[2] / "table" / "games" / "warseer" / "data"
                       / "dice.json").read_text())
    for d in dice["dice"]:
        if d["name"] == "bronze":
            d["faces"] = [{"code": "S", "label": "sword", "symbols": {"sword": 1}}] * 6
    (home / "catalog" / "warseer" / "dice.json").write_text(json.dumps(dice))
    scenario = {"game": "warseer",
                "setup": {"warbands": {"p1": ["Ash Queen", "Cinder Imp"], "p2": ["Kaitlynn"]},
                          "placement": {"p1#1": "c6", "p2#0": "c7"}},
                "actions": [{"do": "step", "action": "p1 attack p1#1 p2#0"},
                            {"do": "step", "action": "p1 roll 0,S"}]}
    (tmp_path / "s.json").write_text(json.dumps(scenario))
    assert main(["rules", "check", str(tmp_path / "s.json"), "--compact"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"][0]["ok"] and out["results"][1]["error"] == "face"  # no blank now
    names = {c["name"] for c in registry.get("warseer").catalog()}
    assert {"Ash Queen", "Cinder Imp", "Diodor"} <= names


def test_a_broken_user_file_is_one_line_naming_it(home: Path, tmp_path: Path, capsys):
    from tablesight.cli import main

    folder = home / "catalog" / "warseer"
    folder.mkdir(parents=True)
    (folder / "bad.json").write_text(json.dumps({"format": "warseer-catalog/1",
                                                  "creatures": [{"name": "X"}]}))
    assert main(["games"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.json" in err[0] and "kind" in err[0]


def test_a_bad_spreadsheet_row_is_named_and_nothing_written(home: Path, tmp_path: Path,
                                                            capsys):
    from tablesight.cli import main

    (tmp_path / "bad.csv").write_text(",".join(CSV_COLUMNS) + "\n"
                                      "Imp,character,1,melee,two,0,0,,1,2,4,,\n")
    assert main(["catalog", "import", "--game", "warseer", str(tmp_path / "bad.csv")]) == 2
    err = capsys.readouterr().err
    assert "line 2: bronze: a number, not 'two'" in err
    assert not (home / "catalog" / "warseer").exists()
