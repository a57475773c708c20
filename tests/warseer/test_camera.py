"""The real detector on Warseer's printed battlefield (its layout from the game system):
bases standing on tinted terrain (forest, hill) and in both deployment zones are found in
their hex, with the right owner and sticker, straight above and tilted; the printed
sheet itself (poppler's rendering of the PDF) is found by the detector."""

from __future__ import annotations

import random

import pytest

from table import registry
from vision.detect import Detector
from vision.layout import Layout
from vision.synth import Conditions, SceneRenderer
from vision.synth.scene import Base, Scene

HEXES = ["c4", "c5", "e4", "g5", "b2", "f1", "h7", "d8", "e6", "a3", "i2", "f5"]


def layout() -> Layout:
    return Layout.from_dict(registry.get("warseer").layout())


def test_the_layout_knows_the_terrain_and_the_deployment_zones() -> None:
    lay = layout()
    by = {r.name: r for r in lay.cells}
    assert len(by) == 72
    assert by["c4"].extra["terrain"] == "forest" and by["e4"].extra["terrain"] == "hill"
    assert by["b2"].extra["tint_of"] == "p1" and by["d8"].extra["tint_of"] == "p2"
    assert "tint_of" not in by["e5"].extra


@pytest.mark.parametrize("cond", [Conditions(), Conditions(tilt_deg=25, noise=3)],
                         ids=["straight", "tilted"])
def test_bases_on_terrain_and_in_the_zones_are_found_in_their_hex(cond: Conditions) -> None:
    lay = layout()
    by = {r.name: r for r in lay.cells}
    rng = random.Random(9)
    bases = []
    for i, name in enumerate(HEXES):
        x, y = by[name].center
        owner = "p1" if i % 2 else "p2"
        tag = (i // 2) if owner == "p1" else 16 + i // 2
        bases.append(Base(x + rng.uniform(-2, 2), y + rng.uniform(-2, 2), owner, tag,
                          rng.choice((25.0, 32.0)), rng.uniform(0, 360), 0.3, f"{owner}#{i}"))
    img = SceneRenderer(lay).render(Scene(lay, bases), cond, size=(1280, 960), seed=3)
    det = Detector(lay).detect(img)
    assert det.fix.found
    assert sorted(b.region for b in det.bases) == sorted(HEXES)
    truth = dict(zip(HEXES, bases, strict=True))
    read = [b for b in det.bases if b.tag == "read"]
    assert all((b.owner, b.sticker) == (truth[b.region].owner, truth[b.region].tag)
               for b in read)
    assert len(read) >= 11
    assert not det.occluded  # tinted terrain is not a hand


def test_an_empty_battlefield_is_empty() -> None:
    lay = layout()
    for cond in (Conditions(), Conditions(tilt_deg=30, noise=4)):
        det = Detector(lay).detect(SceneRenderer(lay).render(Scene(lay, []), cond,
                                                             size=(1280, 960), seed=5))
        assert det.fix.found and det.bases == [] and not det.occluded


def test_the_printed_battlefield_is_found_in_what_poppler_draws_of_its_pdf(tmp_path) -> None:
    """``tablesight print map --game warseer``: the one-sheet PDF, rasterised by poppler
    (a reader the project did not write), is the map the detector expects, terrain and
    zones included: found, nothing on it, nothing hidden; the tiled PDF is A4 pages."""
    import cv2

    from tablesight.cli import main

    from ..vision.test_printing import poppler, rasterise

    assert main(["print", "map", "--game", "warseer", "--out", str(tmp_path),
                 "--dpi", "100"]) == 0
    lay = layout()
    page = rasterise(tmp_path / "warseer-standard-one-sheet.pdf", 100)
    det = Detector(lay).detect(cv2.resize(page, None, fx=0.5, fy=0.5,
                                          interpolation=cv2.INTER_AREA))
    assert det.fix.found and det.fix.reprojection_px < 1.0
    assert det.bases == [] and det.occluded == set()
    info = poppler("pdfinfo", str(tmp_path / "warseer-standard-tiled-a4.pdf"))
    assert "595.28 x 841.89 pts (A4)" in info


def test_printed_stickers_cover_the_minions_a_card_summons(tmp_path, capsys) -> None:
    """``print stickers`` for a Warseer warband prints the warband's stickers and a spare
    one for each minion a card may summon, numbered as the rules number them (the first
    minion p1#4 wears sticker 4 beside a warband of four), so the camera knows a summoned
    minion by its sticker and the prompt can name it."""
    import json

    from table import registry
    from table.session.setup import Setup
    from tablesight.cli import main

    system = registry.get("warseer")
    layout = tmp_path / "hex.layout.json"
    layout.write_text(json.dumps(system.layout()))
    warband = tmp_path / "ann.json"
    warband.write_text(json.dumps({"format": "warseer-warband/1", "hero": "Diodor",
                                   "characters": ["Gil-Talas", "Order Squire",
                                                  "Forest Archer"]}))
    assert main(["print", "stickers", "--warband", str(warband), "--layout", str(layout),
                 "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    printed = json.loads((tmp_path / "out" / "stickers-p1.json").read_text())["stickers"]
    assert [s["name"] for s in printed[:4]] == ["Diodor", "Gil-Talas", "Order Squire",
                                                "Forest Archer"]
    assert len(printed) == 16 and all(s.get("joins_in_play") for s in printed[4:])
    assert not any(s.get("joins_in_play") for s in printed[:4])
    setup = Setup(forces={"p1": ("Diodor", "Gil-Talas", "Order Squire", "Forest Archer"),
                            "p2": ("Kaitlynn",)}, system="warseer")
    known = system.referee(setup).stickers.ref_of
    assert all(known[s["sticker"]] == s["piece"] for s in printed)
