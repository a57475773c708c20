"""Anything a browser sends for a Warseer game (the game's dice command, corrections,
typed actions, in any JSON shape) is either applied or refused with a clear message;
a refusal changes nothing."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.errors import CommandRefused
from table.session import Session, Setup

from .test_session import WARBANDS

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 300) | st.floats(allow_nan=True)
    | st.text(max_size=30) | st.sampled_from(["p1", "p2", "p1#1", "p2#0", "d4", "off", "S",
                                              "sword", "z99", "p1 end", "p2 roll S,S"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=12)
commands = st.fixed_dictionaries(
    {"do": st.sampled_from(["dice", "correct", "action", "undo", "choose", "board_ok",
                            "follow_camera", "nonsense"])},
    optional={"player": values, "faces": values, "unit": values, "to": values,
              "action": values, "option": values})


def _session() -> Session:
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS}))
    for a in ("p1 draw", "p1 return", "p2 draw", "p2 return", "p1 deploy p1#0 d2",
              "p2 deploy p2#0 d7", "p1 summon p1#1 f2",
              "p1 move p1#1 f5", "p1 end", "p2 move p2#0 d5", "p2 attack p2#0 p1#1"):
        s.command({"do": "action", "action": a})
    return s


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, min_size=1, max_size=4))
def test_hostile_commands_are_applied_or_refused_cleanly(cmds):
    s = _session()  # mid-attack: dice wanted
    for cmd in cmds:
        before = s.referee.state_dict(s.state)
        ops = len(s.ops)
        try:
            s.command(cmd)
        except CommandRefused as e:
            assert str(e) and len(str(e)) < 400
            assert s.referee.state_dict(s.state) == before and len(s.ops) == ops
        s.snapshot()  # whatever happened, a screen can still draw the game
