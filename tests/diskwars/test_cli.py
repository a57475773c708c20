"""Diskwars from the command line, as a user runs it (a real subprocess each time)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.test_cli import run
from tests.vision.test_printing import poppler


def test_rules_demo_plays_five_rounds_in_names() -> None:
    r = run("rules", "demo", "--game", "diskwars", "--seed", "3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "ROUND 1" in lines and ("ROUND 5" in lines or "wins" in r.stdout)
    assert lines[-1].startswith("victory points: Ann ")
    assert not re.search(r"\bp[12](#\d+)?\b", r.stdout), "an id where people read names"


def test_an_army_file_is_checked_by_the_rules_of_army_building(tmp_path: Path) -> None:
    good = tmp_path / "elves.json"
    good.write_text(json.dumps({"disks": ["Tyrion", "High Elf Spearmen", "Silver Helms",
                                          "High Elf Archers"],
                                "commands": ["Forward", "Charge", "Hold Fast",
                                             "Discipline"]}))
    r = run("force", "check", "--game", "diskwars", str(good))
    assert r.returncode == 0 and "valid army: 4 disks" in r.stdout, r.stdout + r.stderr
    bad = tmp_path / "mixed.json"
    bad.write_text(json.dumps(["Tyrion", "Kairos Fateweaver"]))
    r = run("force", "check", "--game", "diskwars", str(bad))
    assert r.returncode == 1 and "invalid army" in r.stderr, r.stderr
    assert "Order and Destruction" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_the_battlefield_prints(tmp_path: Path) -> None:
    r = run("print", "map", "--game", "diskwars", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    layout = json.loads((tmp_path / "diskwars.layout.json").read_text())
    assert layout["bases"]["piles"] is True
    assert [g["name"] for g in layout["regions"]] == ["battlefield"]


def test_the_range_ruler_marks_the_catalogs_bands(tmp_path: Path) -> None:
    r = run("print", "ruler", "--game", "diskwars", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert 'short to 3", medium to 6", long to 9"' in r.stdout
    text = poppler("pdftotext", str(tmp_path / "ruler-diskwars-9in-a4.pdf"), "-")
    assert [w for w in text.split() if w in ("SHORT", "MEDIUM", "LONG")] == \
        ["SHORT", "MEDIUM", "LONG"]
    r = run("print", "ruler", "--game", "dreamblade", "--out", str(tmp_path))
    assert r.returncode == 2 and "no range bands" in r.stderr


def test_vision_detect_reports_the_disks_on_the_battlefield(tmp_path: Path) -> None:
    """Disks of three sizes anywhere on the printed battlefield, in a synthetic frame:
    `vision detect --json` lists them under the free area they stand in."""
    import cv2
    import numpy as np

    from table.games.diskwars import catalog
    from table.games.diskwars import layout as battlefield
    from vision.layout import Layout
    from vision.synth import SceneRenderer
    from vision.synth.scene import Base, Conditions, Scene

    doc = battlefield.layout(catalog.builtin())
    (tmp_path / "layout.json").write_text(json.dumps(doc))
    x0, y0 = battlefield.origin(doc)
    rng = np.random.default_rng(3)
    sizes = [45.0, 64.0, 89.0, 45.0, 64.0, 45.0]
    bases = [Base(x0 + 90 + 150 * i, y0 + 150 + 500 * (i % 2), "p1" if i < 3 else "p2", i,
                  d, float(rng.uniform(0, 360)), 0.0) for i, d in enumerate(sizes)]
    layout = Layout.from_dict(doc)
    frame = SceneRenderer(layout).render(Scene(layout, bases, []), Conditions(tilt_deg=10.0),
                                         (1920, 1080), seed=4)
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    r = run("vision", "detect", str(tmp_path / "frame.png"), "--layout",
            str(tmp_path / "layout.json"), "--json")
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout)["areas"]["battlefield"]
    assert len(seen) == len(bases) and all(s["tag"] == "read" for s in seen)
    for b in bases:
        near = min(seen, key=lambda s: (s["center_mm"][0] - b.x) ** 2
                   + (s["center_mm"][1] - b.y) ** 2)
        assert abs(near["center_mm"][0] - b.x) < 3 and abs(near["center_mm"][1] - b.y) < 3
        assert abs(near["diameter_mm"] - b.diameter) < 8
