"""The command line as a user runs it (a real subprocess each time)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablesight", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env={**os.environ, **(env or {})})


def test_rules_demo_referees_a_whole_game():
    r = run("rules", "demo", "--seed", "3")
    assert r.returncode == 0, r.stderr
    assert "TURN 1" in r.stdout and "GAME OVER: Ann wins" in r.stdout
    assert "victory track" in r.stdout.splitlines()[-1]
    assert not re.search(r"\bp[12](#\d+)?\b", r.stdout), "an id where people read names"


def test_catalog_import_writes_the_user_catalog_and_rules_check_uses_it(tmp_path):
    env = {"TABLESIGHT_HOME": str(tmp_path)}
    r = run("catalog", "import", str(ROOT / "tests/data/dreamcatcher-sample.csv"), env=env)
    assert r.returncode == 0, r.stderr
    assert "5 miniatures imported, 4 rows skipped" in r.stdout
    assert "row 7: Mystery Beast" in r.stdout
    written = tmp_path / "catalog" / "dreamcatcher-sample.json"
    assert json.loads(written.read_text())["miniatures"][0]["name"] == "Iron Thug"
    listing = run("catalog", "list", env=env)
    assert "Twin Oddity" in listing.stdout
    scen = tmp_path / "s.json"
    scen.write_text(json.dumps({"setup": {"warbands": {"p1": ["Twin Oddity"],
                                                       "p2": ["Iron Thug"]}}}))
    r = run("rules", "check", str(scen), env=env)
    assert r.returncode == 0, r.stderr


def test_catalog_import_of_an_unreadable_file(tmp_path):
    r = run("catalog", "import", str(tmp_path / "none.csv"))
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr


def test_warband_check(tmp_path):
    good = ROOT / "table/games/dreamblade/data/warbands/rulebook-sample.json"
    r = run("warband", "check", str(good))
    assert r.returncode == 0 and "16 miniatures" in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "greedy", "miniatures": [
        {"name": "Noble Dragon", "count": 4}]}))
    r = run("warband", "check", str(bad))
    assert r.returncode == 1 and "4 copies of 'Noble Dragon'" in r.stderr


def test_bench_rules_reports_figures():
    r = run("bench", "rules", "--games", "3", "--checks", "200", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == 3 and out["games_per_second"] > 0
    assert out["check_action_p99_us"] >= out["check_action_p50_us"] > 0
    assert out["game"] == "dreamblade" and out["games_capped"] == 0
    assert out["reject_action_p99_us"] >= out["reject_action_p50_us"] > 0
    # the peer in the same minute: python-chess, a test dependency
    assert out["peer"]["engine"].startswith("python-chess ")
    assert out["peer"]["plies_per_second"] > 0 and out["actions_per_second"] > 0
    ratio = out["actions_per_second"] / out["peer"]["plies_per_second"]
    assert abs(out["peer"]["ratio"] - ratio) < 0.01
    r = run("bench", "rules", "--game", "chess")
    assert r.returncode == 2 and "no game 'chess' is installed" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_bench_rules_plays_any_installed_game_through_the_seam(track_installed) -> None:
    from tablesight.bench import bench_rules

    out = bench_rules(games=50, checks=2000, game="track")
    assert out["game"] == "track" and out["games_capped"] == 0
    assert out["median_actions_per_game"] > 4 and out["action_checks_timed"] > 50


def test_catalog_and_warband_commands_reach_any_game_by_name(tmp_path):
    """``--game`` picks the game through the registry; every game answers for itself."""
    env = {"TABLESIGHT_HOME": str(tmp_path)}
    listing = run("catalog", "list", "--game", "warseer", "--json", env=env)
    assert listing.returncode == 0, listing.stderr
    names = [p["name"] for p in json.loads(listing.stdout)["pieces"]]
    assert "Diodor" in names and "Kaitlynn" in names
    band = tmp_path / "band.json"
    band.write_text(json.dumps({"format": "warseer-warband/1", "hero": "Diodor",
                                "characters": ["Forest Archer", "Order Squire"]}))
    r = run("warband", "check", "--game", "warseer", str(band), env=env)
    assert r.returncode == 0 and "valid warband: 3 creatures" in r.stdout, r.stderr
    band.write_text(json.dumps({"format": "warseer-warband/1", "hero": "Nobody"}))
    r = run("warband", "check", "--game", "warseer", str(band), env=env)
    assert r.returncode == 1 and "invalid warband" in r.stderr and "Nobody" in r.stderr
    for args in (("catalog", "list", "--game", "chess"), ("rules", "demo", "--game", "chess"),
                 ("warband", "check", "--game", "chess", str(band))):
        r = run(*args, env=env)
        assert r.returncode == 2 and "no game 'chess' is installed" in r.stderr, args
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = run("rules", "demo", "--game", "warseer", env=env)
    assert r.returncode == 2 and "has no narrated rules demo" in r.stderr


def test_catalog_files_named_on_the_command_line_go_to_the_scenarios_game(tmp_path):
    env = {"TABLESIGHT_HOME": str(tmp_path)}
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"miniatures": [{
        "name": "Plain Brute", "type": "creature", "cost": 3, "aspects": ["passion"],
        "power": 2, "defense": 3, "life": 5, "abilities": []}]}))
    scen = tmp_path / "s.json"
    scen.write_text(json.dumps({"setup": {"warbands": {"p1": ["Plain Brute"],
                                                       "p2": ["Plain Brute"]}}}))
    r = run("rules", "check", str(scen), env=env)
    assert r.returncode == 2 and "Plain Brute" in r.stderr
    r = run("rules", "check", str(scen), "--catalog", str(extra), env=env)
    assert r.returncode == 0, r.stderr
    listing = run("catalog", "list", "--catalog", str(extra), env=env)
    assert "Plain Brute" in listing.stdout
    extra.write_text(json.dumps({"miniatures": [{"name": "Broken"}]}))
    r = run("catalog", "list", "--catalog", str(extra), env=env)
    assert r.returncode == 2 and "extra.json" in r.stderr and "Traceback" not in r.stderr


def test_a_number_past_pythons_limit_is_one_line_for_every_command_reading_json(tmp_path):
    """A JSON integer of thousands of digits is valid JSON that Python will not convert
    (``int`` stops at 4,300 digits): every command reading a file says so in one line."""
    big = tmp_path / "big.json"
    big.write_text('{"game": ' + "9" * 5000 + "}")
    image = tmp_path / "frame.png"  # a real picture: the file read first fails, not it
    cv2.imwrite(str(image), np.full((60, 80, 3), 200, np.uint8))
    home = tmp_path / "home"
    (home / "catalog").mkdir(parents=True)
    (home / "catalog" / "mine.json").write_text("[" + "1" * 5000 + "]")
    cases = [
        (("rules", "check", str(big)), {}),
        (("rules", "check", str(ROOT / "tests/data/scenarios/first-turn.json"),
          "--expect", str(big)), {}),
        (("warband", "check", str(big)), {}),
        (("catalog", "list", "--catalog", str(big)), {}),
        (("replay", str(big)), {}),
        (("vision", "detect", str(image), "--layout", str(big), "--json"), {}),
        (("vision", "detect", str(image), "--config", str(big), "--json"), {}),
        (("games",), {"TABLESIGHT_HOME": str(home)}),
    ]
    for args, env in cases:
        r = run(*args, env={"TABLESIGHT_HOME": str(tmp_path / "empty"), **env})
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2, (args, r.returncode, r.stderr[-500:])
        assert len(lines) == 1 and "Traceback" not in r.stderr, (args, r.stderr[-500:])
        assert "too long" in lines[0] and "set_int_max_str_digits" not in lines[0], lines
