import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.games.dreamblade import Catalog, CatalogError, MiniatureDef, SetupError, check_warband
from table.games.dreamblade.abilities import AbilityError, BladeCost, parse_ability
from table.games.dreamblade.dreamcatcher import import_csv
from table.games.dreamblade.warband import load_warband, sample_warband


def test_builtin_catalog_has_the_rulebook_miniatures():
    cat = Catalog.builtin()
    thug = cat["Iron Thug"]
    assert (thug.cost, thug.power, thug.defense, thug.life) == (9, 6, 6, 14)
    assert str(thug.abilities[0]) == "Blade: Fumble 2"
    castle = cat["Pearlthorn Castle"]
    assert not castle.is_creature and len(castle.aspects) == 2
    assert castle.abilities[0].activation.spawn_cost == 1
    assert "Loyal Scragglemaw" in cat and "Blind Spikemauler" in cat


def test_sample_warband_is_legal_and_complete():
    wb = sample_warband()
    assert len(wb.names) == 16 and wb.names.count("Twilight Scout") == 2


def test_warband_rules():
    cat = Catalog.builtin()
    with pytest.raises(SetupError) as e:
        check_warband(["Mirrorman"] * 4, cat)
    assert e.value.code == "too_many_copies" and "Mirrorman" in e.value.message
    names = [m.name for m in cat][:6]
    with pytest.raises(SetupError) as e:
        check_warband([n for n in names for _ in range(3)], cat)
    assert e.value.code == "warband_too_large"
    with pytest.raises(CatalogError, match="Nobody"):
        check_warband(["Nobody"], cat)
    wb = load_warband({"name": "x", "miniatures": [{"name": "Mirrorman", "count": 3}]}, cat)
    assert wb.names == ("Mirrorman",) * 3


@pytest.mark.parametrize("text,name,blade,number,modifier", [
    ("Blade: Crit 5", "Crit", BladeCost.BLADE, 5, None),
    ("Multiblade: Lure", "Lure", BladeCost.MULTIBLADE, None, None),
    ("Double Multiblade: Crit 2", "Crit", BladeCost.DOUBLE_MULTI, 2, None),
    ("Fortunate 2", "Fortunate", None, 2, None),
    ("Spawn 1, Score: Advance", "Advance", None, None, None),
    ("Nullify Valor", "Nullify", None, None, "Valor"),
    ("Fight (Hellbred) (+2)", "Fight", None, 2, "Hellbred"),
    ("Unique [Glorious]", "Unique", None, None, "Glorious"),
    ("Bolster +1", "Bolster", None, 1, None),
    ("Blade: Hell's Fury", "Hell's Fury", BladeCost.BLADE, None, None),
    ("Thanatocracy", "Thanatomancy", None, None, None),
    ("Weaken Valor 1", "Weaken", None, 1, "Valor"),
    ("Blade: Teleport Enemies", "Teleport", BladeCost.BLADE, None, "Enemies"),
    ("Inciter Hellbred 2", "Inciter", None, 2, "Hellbred"),
])
def test_ability_notation(text, name, blade, number, modifier):
    a = parse_ability(text)
    assert (a.name, a.activation.blade, a.number, a.modifier) == (name, blade, number, modifier)
    assert parse_ability(str(a)) == a  # the string form reads back


def test_x_is_chosen_on_activation() -> None:
    a = parse_ability("Blade: Crit X")
    assert a.variable and a.number is None and str(a) == "Blade: Crit X"
    assert parse_ability(str(a)) == a
    assert parse_ability("Spawn 1: Warpstrike (X)").variable
    with pytest.raises(AbilityError, match="no activation"):
        parse_ability("Weaken X")  # an aura: nothing activates it, so nothing chooses X
    with pytest.raises(AbilityError, match="takes no number"):
        parse_ability("Blade: Lure X")


@pytest.mark.parametrize("text", ["", "Sparkle 3", "Blade Crit 5", "Crit", "Regenerate 2",
                                  "Triple Blade: Crit 1", "Fight +2", "Unique", "Loner Self"])
def test_bad_ability_text_is_an_error(text):
    with pytest.raises(AbilityError):
        parse_ability(text)


def test_catalog_errors_name_the_miniature():
    with pytest.raises(CatalogError, match=r"'Odd One'.*Sparkle"):
        MiniatureDef.from_dict({"name": "Odd One", "cost": 2, "aspects": ["fear"],
                                "power": 1, "defense": 1, "life": 1,
                                "abilities": ["Sparkle"]})
    with pytest.raises(CatalogError, match=r"'Bad'.*defense"):
        MiniatureDef.from_dict({"name": "Bad", "cost": 2, "aspects": ["fear"],
                                "power": 1, "defense": 0, "life": 1})
    with pytest.raises(CatalogError, match="unknown aspect"):
        MiniatureDef.from_dict({"name": "Bad", "cost": 2, "aspects": ["joy"],
                                "power": 1, "defense": 1, "life": 1})
    with pytest.raises(CatalogError, match="unknown key"):
        MiniatureDef.from_dict({"name": "Bad", "cost": 2, "aspects": ["fear"], "speed": 3,
                                "power": 1, "defense": 1, "life": 1})
    with pytest.raises(CatalogError, match="location has no power"):
        MiniatureDef.from_dict({"name": "Bad", "type": "location", "cost": 2,
                                "aspects": ["fear"], "power": 1})


def test_dreamcatcher_csv_import_reports_what_it_skips(tmp_path):
    from pathlib import Path

    text = (Path(__file__).parent.parent / "data" / "dreamcatcher-sample.csv").read_text()
    report = import_csv(text)
    assert report.rows == 9
    assert [m.name for m in report.minis] == [
        "Iron Thug", "Twilight Scout", "Pearlthorn Castle", "Twin Oddity", "Explicit Split"]
    split = report.minis[-1]
    assert sorted(a.value for a in split.aspects) == ["fear", "valor", "valor"]
    reasons = {p.name: p.reason for p in report.problems}
    assert set(reasons) == {"Broken Row", "Mystery Beast", "Half Stats", "Lopsided"}
    assert "Sparkle" in reasons["Mystery Beast"]
    assert report.minis[1].abilities[0].activation.blade is BladeCost.BLADE
    assert not report.minis[2].is_creature


def test_csv_without_the_needed_columns():
    report = import_csv("title,author\nx,y\n")
    assert not report.minis and "header lacks" in report.problems[0].reason


@given(st.text(max_size=300))
def test_csv_import_never_raises(text):
    report = import_csv(text)
    assert len(report.minis) + len(report.problems) <= report.rows + 1


@given(st.text(max_size=60))
def test_ability_parser_raises_only_ability_errors(text):
    with contextlib.suppress(AbilityError):
        parse_ability(text)
