"""``tablesight demo --game warseer``: the scripted players deploy, summon, move and push
their miniatures on the printed hex battlefield (seen by the synthetic camera through
the real detector), roll every attack die on the simulated table box, and play to the
last feat and the winner."""

from __future__ import annotations

import re

from table.session import GameLog
from tests.demo_log import sources_and_events


def test_the_warseer_demo_plays_to_the_last_feat_and_the_winner(tmp_path, capsys) -> None:
    from tablesight.cli import main

    db = tmp_path / "demo.db"
    rc = main(["demo", "--game", "warseer", "--fast", "--exit-at-end", "--no-web",
               "--quiet", "--db", str(db)])
    out = capsys.readouterr().out
    assert rc == 0, out[-2000:]
    assert "game over" in out and "victory points" in out
    log = GameLog(db)
    game = log.games()[0]
    assert game.game == "warseer" and game.status == "over"
    sources, events = sources_and_events(log, game.id)
    assert sources["deploy"] == {"camera"} and sources["move"] == {"camera"}
    assert sources["summon"] == {"camera"}
    assert sources["roll"] == {"box"}
    assert sources["attack"] == {"dashboard"} and sources["end"] == {"dashboard"}
    assert {"last_feat", "game_over", "damaged", "hall_of_fame"} <= events
    # A summoned minion wears its printed sticker (numbers past the warband's, 4-15 of
    # each player's 16), and the camera read it on the battlefield.
    warband = {p: len(w) for p, w in game.setup["forces"].items()}
    minion_ids = {k * 16 + i for k, p in enumerate(("p1", "p2")) for i in range(warband[p], 16)}
    read = {b["sticker"] for e in log.entries(game.id, ("observation",))
            for bases in e.to_dict()["regions"].values() for b in bases}
    assert read & minion_ids, sorted(read - {None})
    # The record exported and played back: the same game, the same result.
    assert main(["export", "--db", str(db)]) == 0
    record = tmp_path / "game.json"
    record.write_text(capsys.readouterr().out)
    assert main(["replay", str(record)]) == 0
    # (The scripted players' game depends on timing, the camera's and the box's: a draw
    # is a result too. The replay must give the live game's.)
    replayed = re.search(r"replayed \d+ operations: ((?:Ann|Bob) won|no winner); "
                         r"victory points: Ann (\d+), Bob (\d+)", capsys.readouterr().out)
    live = re.search(r"Ann (\d+) victory points, Bob (\d+) victory points", out)
    assert replayed and live, out[-2000:]
    assert replayed.group(2, 3) == live.group(1, 2)
