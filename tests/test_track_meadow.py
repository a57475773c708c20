"""Free placement through the seam, on the example game: a pawn home grazes anywhere in
the meadow wholly within four inches of the well. The point is the action's argument:
typed, tapped on the dashboard or seen by the camera; a placement the camera measures
too close to the limit is put to the players, whose yes plays it and whose no leaves the
board to be put right."""

from __future__ import annotations

import pytest

from table.errors import ActionRefused, CommandRefused, NotationError
from table.games.track.actions import Graze, parse
from table.games.track.layout import WELL
from table.measure import inches
from table.observation import Observation, ObservedBase
from table.session import Session, Setup

from .test_game_seam import roll

WX, WY = WELL
EDGE = inches(4) - 12.5  # a 25 mm pawn's centre this far from the well: its far edge at 4"


@pytest.fixture
def session(track_installed) -> Session:
    """Ann's pawn 0 home on s5, her pawn 1 on s2; she has rolled a 3."""
    s = Session.new(Setup.from_dict({"system": "track", "names": {"p1": "Ann", "p2": "Bob"},
                                     "forces": {"p1": ["Pawn", "Pawn"], "p2": ["Pawn"]}}))
    s.command({"do": "correct", "piece": "p1#0", "to": "s5"})
    s.command({"do": "correct", "piece": "p1#1", "to": "s2"})
    s.device(roll("p1", 3))
    return s


def board(s: Session, frame: int, grazing: tuple[float, float, float] | None = None
          ) -> Observation:
    """The camera's board: every pawn where the rules have it, Ann's pawn 0 in the
    meadow at (x, y) with the fit's error if ``grazing``."""
    regions: dict[str, list[ObservedBase]] = {}
    for ref, at in s.state.placed().items():
        sticker = (0 if ref[:2] == "p1" else 16) + int(ref[3:])
        if ref == "p1#0" and grazing is not None:
            x, y, err = grazing
            regions.setdefault("meadow", []).append(
                ObservedBase("p1", sticker, "read", 0.9, x, y, 25.0, error_mm=err))
        elif at is not None:
            regions.setdefault(at, []).append(ObservedBase("p1" if ref < "p2" else "p2",
                                                           sticker, "read", 0.9, 0.0, 0.0))
    return Observation(float(frame), frame, {k: tuple(v) for k, v in regions.items()})


def test_a_point_reads_back_and_junk_is_refused() -> None:
    a = Graze("p1", "p1#0", 274.0, 300.5)
    assert str(a) == "p1 graze p1#0 274.0,300.5" and parse(str(a)) == a
    assert parse("p1 graze p1#0 274.04,300.46") == Graze("p1", "p1#0", 274.0, 300.5)
    for junk in ("p1 graze p1#0 274", "p1 graze p1#0 nan,3", "p1 graze p1#0 -1,3",
                 "p1 graze p1#0 1e9,3", "p1 graze p1#0 1,2,3", "p1 graze p1#0 x,y"):
        with pytest.raises(NotationError, match="map millimetres"):
            parse(junk)


def test_the_prompt_draws_where_a_pawn_may_graze(session: Session) -> None:
    p = session.prompt()
    assert p.text.startswith("Ann: move a pawn 3, or put a pawn home out to graze")
    (shape,) = p.shapes
    assert shape["kind"] == "within" and shape["piece"] == "p1#0"
    assert shape["centre"] == [round(WX, 1), round(WY, 1)]
    assert shape["radius"] == pytest.approx(EDGE, abs=0.1)  # where the centre may go
    assert shape["action"] == "p1 graze p1#0 {x},{y}"
    assert not any("graze" in o for o in p.options)  # drawn, not listed
    assert session.referee.lists_every_action is False


def test_grazing_is_measured_edge_to_the_well(session: Session) -> None:
    ref, state = session.referee, session.state
    assert ref.check(state, Graze("p1", "p1#0", WX + EDGE, WY)) is None  # just fits
    why = ref.check(state, Graze("p1", "p1#0", WX + EDGE + 0.5, WY))
    assert why is not None and 'not wholly within 4" of the well' in why \
        and 'its far edge is 4.02" away' in why
    assert "only a pawn home grazes" in ref.check(state, Graze("p1", "p1#1", WX, WY))
    assert "is not one of p1's pawns" in ref.check(state, Graze("p1", "p2#0", WX, WY))
    session.command({"do": "action", "action": f"p1 graze p1#0 {WX},{WY}"})
    assert session.state.at("p1#0") == "meadow" and session.state.home("p1") == 1
    piece = next(p for p in session.snapshot()["board"]["pieces"] if p["ref"] == "p1#0")
    assert piece["region"] == "meadow" and piece["at"] == [WX, WY]
    with pytest.raises(ActionRefused):
        ref.apply(session.state, Graze("p2", "p2#0", WX, WY))  # not home, not on a pawn


def test_the_camera_sees_a_pawn_put_out_to_graze(session: Session) -> None:
    out = session.observe(board(session, 1, (WX + 30.0, WY - 20.0, 0.6)))
    assert any(e.kind == "action" for e in out)
    assert session.state.at("p1#0") == "meadow"
    assert session.state.spot("p1#0") == (round(WX + 30.0, 1), round(WY - 20.0, 1))
    assert session.snapshot()["history"][-1]["text"] == \
        "Ann: pawn 0 out to graze in the meadow"


def test_too_close_to_call_is_put_to_the_players(session: Session) -> None:
    # Measured 4.01" with an error of 0.05": the camera cannot tell.
    out = session.observe(board(session, 1, (WX + EDGE + 0.25, WY, 1.2)))
    assert [e.kind for e in out if e.kind in ("confirm", "action")] == ["confirm"]
    snap = session.snapshot()
    assert snap["confirm_question"] == ("is Ann's pawn 0 wholly within 4\" of the well? the camera "
                                        "measures 4.01\" ± 0.05\"")
    # Yes: played where the rules allow it, the nearest such point.
    session.command({"do": "choose", "option": 0})
    assert session.state.at("p1#0") == "meadow"
    x, _ = session.state.spot("p1#0")
    assert x <= WX + EDGE
    assert session.snapshot()["history"][-2]["kind"] == "answered"


def test_a_no_leaves_the_board_to_be_put_right(session: Session) -> None:
    session.observe(board(session, 1, (WX + EDGE + 0.25, WY, 1.2)))
    session.command({"do": "choose", "option": "no"})
    assert session.state.at("p1#0") == "s5" and session.confirm is None
    assert session.desync and "back on s5" in session.desync[0]
    with pytest.raises(CommandRefused, match="no camera reading"):
        session.command({"do": "choose", "option": "no"})


def test_clearly_too_far_is_a_desync(session: Session) -> None:
    session.observe(board(session, 1, (WX + EDGE + 20.0, WY, 0.6)))
    assert session.state.at("p1#0") == "s5" and session.confirm is None
    assert session.desync and 'wholly within 4" of the well' in session.desync[0]
