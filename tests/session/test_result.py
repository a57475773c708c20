"""A game's end is logged as its result (who won, the points), for records and the
store's standings; undoing the last action takes the game back into play."""

from __future__ import annotations

import random

import pytest

from table import registry
from table.playout import play_session
from table.session import GameLog, Session, Setup


@pytest.mark.parametrize("game", sorted(registry.systems()))
def test_the_end_of_a_game_is_logged_as_its_result(game, tmp_path):
    log = GameLog(tmp_path / "g.db")
    session = Session.new(Setup.sample(game), log)
    play_session(session, random.Random(4))
    [result] = [e for e in log.entries(session.game_id) if e.kind == "result"]
    assert result.body["winner"] in ("p1", "p2", "draw")
    assert set(result.body["points"]) <= {"p1", "p2"}
    if game in ("warseer", "diskwars"):  # the games that score points
        assert set(result.body["points"]) == {"p1", "p2"}
    assert log.game(session.game_id).status == "over"
    words = session.words
    from table.wording import entry_text

    text = entry_text(words, {"kind": "result", **result.body})["text"]
    assert "wins the game" in text or "draw" in text
    assert "p1" not in text and "p2" not in text


def test_undoing_the_end_takes_the_game_back_into_play(tmp_path):
    log = GameLog(tmp_path / "g.db")
    session = Session.new(Setup.sample(registry.default()), log)
    play_session(session, random.Random(4))
    session.command({"do": "undo"})
    assert log.game(session.game_id).status == "playing"
    assert not session.referee.is_over(session.state)
