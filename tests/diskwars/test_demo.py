"""``tablesight demo --game diskwars``: the scripted players deploy their disks and flip
them across the printed battlefield, onto one another and within each other's outline
(seen by the synthetic camera through the real detector), choose their command cards in
secret, roll every die on the simulated table box, take their casualties off, and play
the five rounds to the victory points. The record exported plays back to the same end."""

from __future__ import annotations

import re

from table.session import GameLog
from tests.demo_log import sources_and_events


def test_the_diskwars_demo_plays_five_rounds_to_the_victory_points(tmp_path, capsys) -> None:
    from tablesight.cli import main

    db = tmp_path / "demo.db"
    rc = main(["demo", "--game", "diskwars", "--fast", "--exit-at-end", "--no-web",
               "--quiet", "--db", str(db)])
    out = capsys.readouterr().out
    assert rc == 0, out[-2000:]
    assert "game over" in out, out[-2000:]
    log = GameLog(db)
    game = log.games()[0]
    assert game.game == "diskwars" and game.status == "over"
    sources, events = sources_and_events(log, game.id)
    # Every disk put down or flipped was seen by the camera; the dice came from the box.
    assert sources["deploy"] == {"camera"} and sources["move"] == {"camera"}
    assert sources["dice"] == {"box"} and sources["roll"] == {"box"}
    assert sources["command"] == {"dashboard"}
    assert "game_over" in events
    # Disks lay on one another, and the camera told which lay on top.
    layers = {b.get("layer", 0) for e in log.entries(game.id, ("observation",))
              for bases in e.to_dict()["regions"].values() for b in bases}
    assert max(layers) >= 1
    # The table kept up with the game: a board that did not match it (a disk the camera
    # missed, a casualty taken for a misplaced disk) was rare, and always put right.
    desyncs = sum(1 for e in log.entries(game.id) if e.kind == "desync")
    assert desyncs <= 2, out[-2000:]
    result = [e.to_dict() for e in log.entries(game.id, ("result",))]
    assert len(result) == 1
    # The record exported and played back: the same game, the same result.
    assert main(["export", "--db", str(db)]) == 0
    record = tmp_path / "game.json"
    record.write_text(capsys.readouterr().out)
    assert main(["replay", str(record)]) == 0
    replayed = re.search(r"replayed \d+ operations: ((?:Ann|Bob) won|no winner)",
                         capsys.readouterr().out)
    live = re.search(r"game over after \d+ s: ((?:Ann|Bob) won|no winner yet)", out)
    assert replayed and live, out[-2000:]
    assert replayed.group(1).replace("no winner", "no winner yet") == live.group(1)
