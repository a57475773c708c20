"""The live session: reconciliation of camera boards, dice and buttons, commands."""

from __future__ import annotations

import random

import pytest

from table.device import DeviceEvent
from table.errors import CommandRefused
from table.games.dreamblade import Phase, apply
from table.games.dreamblade import actions as A
from table.games.dreamblade.playout import ATTACK_DIE
from table.games.dreamblade.referee.autoplay import plan
from table.session import Session, Setup
from tests.rules.helpers import catalog, position

from .helpers import base, sample_setup, seen

RNG = random.Random


def live(warbands: dict[str, list[str]], where: dict[str, str], **kw) -> Session:
    """A session at a given position, the camera having seen that board."""
    s = Session.new(Setup({p: tuple(w) for p, w in warbands.items()}), catalog=catalog())
    s.start_from(position(warbands, where, **kw))
    s.observe(seen(s.state))
    return s


def shift_position() -> Session:
    return live({"p1": ["Brute", "Scout", "Brute", "Brute", "Giant", "Twin"], "p2": ["Brute"]},
                {"p1#0": "c2", "p1#1": "d2", "p1#2": "c3", "p1#3": "c3", "p1#4": "c3",
                 "p1#5": "c3", "p2#0": "a5"},
                phase=Phase.ACTION, active="p1", index=1)


def play_game(seed: int, unread: float = 0.0, no_owner: float = 0.0) -> tuple[Session, dict]:
    """A whole game: scripted players act physically, a perfect (or half-blind) camera
    reports the board, dice come as box events. Returns the session and counters."""
    rng = RNG(seed)
    s = Session.new(sample_setup())
    s.observe(seen(s.state))
    stats = {"board": 0, "confirm": 0, "steps": 0}
    while not s.state.is_over():
        stats["steps"] += 1
        assert stats["steps"] < 5000
        it = plan(s.state, s.referee.init_dice, rng)
        assert it is not None
        before = s.state
        if it.kind == "roll":
            # The box rolls six-sided dice: one a press for initiative (and a Wail),
            # the armed count for attack dice, whose faces the test reads itself.
            assert it.dice is not None
            numbers = tuple(rng.randint(1, 6) for _ in range(1 if it.dice.kind == "init"
                                                              else it.dice.n))
            s.device(DeviceEvent("roll", 0.0, it.player, sides=6, numbers=numbers))
            if it.dice.kind == "attack":
                faces = tuple(ATTACK_DIE[n - 1] for n in numbers)
                assert s.state.key() == apply(before, A.Roll(it.player, faces))[0].key()
            continue
        intended, _ = apply(before, it.action)
        if it.kind == "board":
            stats["board"] += 1
            s.observe(seen(intended, unread=unread, no_owner=no_owner, rng=rng,
                           frame=stats["steps"]))
            if s.confirm:
                stats["confirm"] += 1
                pick = [i for i, e in enumerate(s.confirm) if same_board(e.state, intended)]
                assert len(pick) == 1, (it, s.snapshot()["confirm"])
                s.command({"do": "choose", "option": pick[0]})
            assert s.desync is None, (str(it), s.desync)
            assert same_board(s.state, intended), str(it)
            continue
        if it.kind == "button":
            s.device(DeviceEvent("button", 0.0, it.player, button=it.button))
        else:
            s.command({"do": "action", "action": str(it.action)})
        assert s.state.key() == intended.key(), str(it)
    return s, stats


def same_board(a, b) -> bool:
    """Equal up to which copy of one miniature stands where."""
    def sig(st):
        return sorted((m.player, m.d.name, st.zone[m.gid].value, st.cell[m.gid])
                      for m in st.game.minis)
    return sig(a) == sig(b)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_from_physical_moves_dice_and_buttons(seed: int) -> None:
    s, stats = play_game(seed)
    assert s.state.is_over() and s.state.winner in ("p1", "p2")
    assert stats["confirm"] == 0 and stats["board"] > 20
    # The session's record, replayed by the bare engine, gives the same game.
    state = s.referee.new_state()
    for op in s.record()["operations"]:
        from table.games.dreamblade.notation import parse_action

        state, _ = apply(state, parse_action(op["action"]))
    assert state.key() == s.state.key()
    assert [c.points for c in state.conquest] == [c.points for c in s.state.conquest]


@pytest.mark.parametrize("seed", [4, 5])
def test_unread_stickers_are_settled_by_the_rules(seed: int) -> None:
    s, stats = play_game(seed, unread=0.6, no_owner=0.1)
    assert s.state.is_over()
    # Most unread moves have one legal reading; the rest ask, never guess.
    assert stats["confirm"] < stats["board"] / 3


def test_a_shift_move_seen_by_the_camera_is_played() -> None:
    s = shift_position()
    obs = seen(apply(s.state, A.Move("p1", "p1#0", "b2"))[0])
    events = s.observe(obs)
    assert [e.kind for e in events][:2] == ["board", "action"]
    assert s.state.cell[s.referee.game.gid("p1#0")] == s.referee.game.board.index("b2")
    assert s.history[-1]["source"] == "camera"


def test_two_moves_in_one_observation_are_both_found() -> None:
    s = shift_position()
    mid, _ = apply(s.state, A.Move("p1", "p1#0", "b2"))
    end, _ = apply(mid, A.Move("p1", "p1#1", "d3"))
    s.observe(seen(end, unread=1.0))
    assert s.desync is None and s.state.key() == end.key()


def test_an_illegal_move_is_a_desync_naming_the_rule_and_the_fix() -> None:
    s = shift_position()
    before = s.state.key()
    # A fifth creature into c3 breaks the stacking limit.
    obs = seen(s.state, hide={"p1#0"}, extra={"c3": [base("p1", 0)]})
    events = s.observe(obs)
    assert "desync" in [e.kind for e in events]
    assert s.state.key() == before
    assert len(s.desync) == 1
    assert s.desync[0].startswith("Player 1's Brute 1 cannot go to c3")
    assert "put it back on c2" in s.desync[0]
    assert "Player 1 already has 4 creatures in c3" in s.desync[0]
    # Putting it back clears the desync; nothing was played.
    events = s.observe(seen(s.state))
    assert [e.kind for e in events][-1] == "resync" and s.desync is None
    assert s.state.key() == before


def test_a_move_two_cells_away_is_refused() -> None:
    s = shift_position()
    s.observe(seen(s.state, hide={"p1#1"}, extra={"d4": [base("p1", 1)]}))
    assert s.desync and s.desync[0].startswith("Player 1's Scout cannot go to d4: ")
    assert s.desync[0].endswith("put it back on d2")


def test_an_unexpected_base_is_named() -> None:
    s = shift_position()
    s.observe(seen(s.state, extra={"e5": [base("p2")]}))
    assert s.desync == ["one of Player 2's bases in e5 should not be there; take it off e5"]


def test_a_hand_typed_action_clears_a_desync_when_it_explains_the_board() -> None:
    s = shift_position()
    s.command({"do": "follow_camera", "on": True})
    s.observe(seen(s.state, hide={"p1#1"}, extra={"d4": [base("p1", 1)]}))
    assert s.desync
    # A staff member corrects the board by hand: p1#1 really is in d4 now.
    s.command({"do": "correct", "mini": "p1#1", "to": "d4"})
    assert s.desync is None
    assert [h["kind"] for h in s.history][-2:] == ["correction", "resync"]


def test_an_ambiguous_reading_asks_and_never_guesses() -> None:
    s = live({"p1": ["Brute", "Scout"], "p2": ["Brute"]},
             {"p1#0": "c2", "p1#1": "c2", "p2#0": "a5"}, phase=Phase.ACTION, active="p1")
    # One of the two left c2 for c3, stickers unread: Brute or Scout?
    obs = seen(s.state, hide={"p1#0"}, extra={"c3": [base("p1")]}, unread=1.0)
    events = s.observe(obs)
    assert "confirm" in [e.kind for e in events]
    assert sorted(map(str, (a for e in s.confirm for a in e.actions))) == [
        "p1 move p1#0 c3", "p1 move p1#1 c3"]
    s.command({"do": "choose", "option": 1})
    assert s.state.cell[s.referee.game.gid("p1#1")] == s.referee.game.board.index("c3")
    # The reading chosen is what the board shows: no move is asked for.
    assert not s.referee.awaited and not s.prompt().text.startswith("First")


def test_a_destroyed_creature_may_stay_until_taken_off() -> None:
    s = shift_position()
    s.state.mode = None
    # p1#0 destroyed (by a correction) but still standing on c2: no desync.
    s.command({"do": "correct", "mini": "p1#0", "to": "graveyard"})
    s.observe(seen(s.state, linger={"p1#0": "c2"}))
    assert s.desync is None and s.referee.lingering
    s.observe(seen(s.state))
    assert not s.referee.lingering


def test_initiative_from_the_box_and_a_tie_rolls_again() -> None:
    s = Session.new(sample_setup())
    s.observe(seen(s.state))
    ev = lambda p, f: DeviceEvent("roll", 0.0, p, sides=6, numbers=(f,))  # noqa: E731
    s.device(ev("p1", 4))
    assert s.prompt().text.startswith("turn 1: roll initiative (Bob to roll; Ann rolled 4)")
    out = s.device(ev("p2", 4))
    assert any(e.kind == "warning" and "again" in e.data["message"] for e in out)
    assert s.state.phase is Phase.INITIATIVE and not s.referee.init_dice
    s.device(ev("p1", 5))
    s.device(ev("p2", 3))
    assert s.state.phase is Phase.SPAWN
    assert s.prompt().text.startswith("Ann: spawn phase, ")  # the higher roll goes first


def test_spawn_prompt_lists_points_and_cells() -> None:
    s = Session.new(sample_setup())
    s.command({"do": "initiative", "player": "p1", "die": 2})
    s.command({"do": "initiative", "player": "p2", "die": 5})
    p = s.prompt()
    assert p.player == "p2" and p.step == "spawn"
    assert p.text.startswith("Bob: spawn phase, ") and "spawn into a5" in p.text
    assert p.proposal == "p2 end" and p.proposal_label == "end Bob's spawn phase"
    spawns = [c for c in p.choices if " spawn " in c["action"]]
    assert spawns[0]["label"].startswith("Bob: spawn ") and "(cost " in spawns[0]["label"]
    assert spawns[0]["regions"] == ["a5"] and spawns[0]["pieces"][0].startswith("p2#")


def test_attack_dice_come_from_the_box_and_the_count_is_told() -> None:
    s = live({"p1": ["Brute", "Brute"], "p2": ["Scout"]},
             {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"}, phase=Phase.ACTION, active="p1")
    s.device(DeviceEvent("button", 0.0, "p1", button="strike"))
    need = s.dice_needed()
    assert [(d.player, d.kind, d.n) for d in need] == [("p1", "attack", 4)]
    told = need[0].to_dict()
    assert told["label"] == "attack dice" and told["sides"] == 6 and told["command"] == "roll"
    assert [f["label"] for f in told["faces"]] == ["1", "2", "3", "miss", "blade"]
    assert s.prompt().text == "Player 1: roll 4 attack dice for the fight in c3"
    out = s.device(DeviceEvent("roll", 0.0, "p2", sides=6, numbers=(1, 1, 1, 1)))
    assert any("Player 1's roll" in e.data.get("message", "") for e in out)
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(3, 3, 4, 1)))
    assert s.state.combat is not None and s.state.combat.attack.damage_left == 7


def test_manual_dice_when_the_box_is_unplugged() -> None:
    s = live({"p1": ["Brute"], "p2": ["Scout"]}, {"p1#0": "c3", "p2#0": "c3"},
             phase=Phase.ACTION, active="p1")
    out = s.device(DeviceEvent("lost", 0.0, detail={"reason": "unplugged"}))
    assert out[0].kind == "health" and not out[0].data["ok"]
    assert s.snapshot()["health"]["box"]["ok"] is False
    s.command({"do": "strike", "player": "p1"})
    s.command({"do": "roll", "player": "p1", "faces": [3, "blade"]})
    assert s.state.combat is not None


@pytest.mark.parametrize(("detail", "said"), [
    ({"count": 5, "reason": "the box restarted before they reached the host"},
     "the table box lost 5 presses or rolls: the box restarted"),
    ({"count": 1, "reason": "its queue of unsent presses was full (the host away, or its "
                            "acknowledgements lost)"},
     "the table box lost 1 press or roll: its queue of unsent presses was full"),
    ({"count": None, "reason": "another table box is connected"},
     "the table box may have lost presses (how many cannot be told): another table box"),
])
def test_presses_the_box_lost_are_said_and_logged(tmp_path, detail, said) -> None:
    from table.session import GameLog

    log = GameLog(tmp_path / "games.db")
    s = Session.new(sample_setup(), log)
    out = s.device(DeviceEvent("lost_events", 0.0, detail=detail))
    assert [e.kind for e in out] == ["warning"]
    assert out[0].data["message"].startswith(said), out[0].data["message"]
    assert "enter them by hand" in out[0].data["message"]
    logged = [e.body for e in log.entries(s.game_id, ("device",))]
    assert logged and logged[-1]["kind"] == "lost_events" and logged[-1]["count"] == \
        detail["count"]


@pytest.mark.parametrize(("cmd", "message"), [
    ("not a dict", "JSON object"),
    ({"do": "fly"}, "unknown command"),
    ({"do": "action", "action": "p3 end"}, "player"),
    ({"do": "action", "action": "p1 move"}, "expected"),
    ({"do": "action", "action": 7}, "line of text"),
    ({"do": "action", "action": "p1 move p1#0 z9"}, "refused by the rules"),
    ({"do": "roll", "player": "p1", "faces": "333"}, "faces"),
    ({"do": "roll", "player": "p1", "faces": [7]}, "not an attack die face"),
    ({"do": "initiative", "player": "p1", "die": 9}, "1 to 6"),
    ({"do": "ready", "player": "p2"}, "nothing for p2"),
    ({"do": "choose", "option": 0}, "no camera reading"),
    ({"do": "correct", "mini": "p9#0", "to": "c3"}, "no miniature"),
    ({"do": "correct", "mini": "p1#0", "to": "z3"}, "to:"),
    ({"do": "follow_camera", "on": "yes"}, "true or false"),
])
def test_bad_commands_are_refused_and_change_nothing(cmd, message: str) -> None:
    s = shift_position()
    before, n = s.state.key(), len(s.history)
    with pytest.raises(CommandRefused, match=message):
        s.command(cmd)
    assert s.state.key() == before and len(s.history) == n


def test_undo_from_the_box_restores_the_board_and_asks_to_put_it_back() -> None:
    s = shift_position()
    before = s.state.key()
    moved, _ = apply(s.state, A.Move("p1", "p1#0", "b2"))
    s.observe(seen(moved))
    s.device(DeviceEvent("button", 0.0, "p1", button="undo"))
    assert s.state.key() == before
    assert s.desync and "put it back on c2" in s.desync[0]
    s.observe(seen(s.state))
    assert s.desync is None


def test_a_camera_move_outside_the_rules_never_changes_state() -> None:
    s = live({"p1": ["Brute"], "p2": ["Scout"]}, {"p1#0": "c3", "p2#0": "a5"},
             phase=Phase.SPAWN, active="p1", spawn_points=0)
    before = s.state.key()
    s.observe(seen(s.state, hide={"p1#0"}, extra={"c2": [base("p1", 0)]}))
    assert s.desync and s.state.key() == before


def test_listeners_hear_events_after_they_are_logged() -> None:
    s = shift_position()
    heard = []
    s.subscribe(lambda e: heard.append((e.kind, len(s.history))))
    s.command({"do": "ready", "player": "p1"})
    kinds = [k for k, _ in heard]
    assert kinds[0] == "action" and "prompt" in kinds
    assert heard[0][1] >= 1 and s.history[-1]["action"] == "p1 end"


def test_one_misread_sticker_is_overruled_by_the_rules_with_a_warning() -> None:
    s = shift_position()
    before = s.state.key()
    # p1#1's base in d2 reads as sticker 0 (p1#0's, which stands in c2).
    out = s.observe(seen(s.state, hide={"p1#1"}, extra={"d2": [base("p1", 0)]}))
    assert s.desync is None and s.state.key() == before
    assert [e.data["message"] for e in out if e.kind == "warning"] == [
        "the camera read sticker 0 in d2, which the rules rule out: taken as a misread"]


def test_a_misread_sticker_does_not_hide_who_moved() -> None:
    s = shift_position()
    # p1#1's base in d2 keeps reading as sticker 0 (p1#0 stands in c2), and p1#2 (a
    # Brute) steps from c3 to b3. Setting aside only the one misread sticker, the other
    # stickers still say which of c3's four creatures moved.
    moved, _ = apply(s.state, A.Move("p1", "p1#2", "b3"))
    out = s.observe(seen(moved, hide={"p1#1"}, extra={"d2": [base("p1", 0)]}))
    assert s.desync is None and s.confirm is None
    assert s.state.cell == moved.cell
    assert [e.data["message"] for e in out if e.kind == "warning"] == [
        "the camera read sticker 0 in d2, which the rules rule out: taken as a misread"]


def test_a_ring_read_in_the_other_colour_is_a_misread_once_not_twice() -> None:
    s = shift_position()
    before = s.state.key()
    # A figure painted in p2's blue hides p1#3's sticker: its base reads as a p2 ring.
    out = s.observe(seen(s.state, hide={"p1#3"}, extra={"c3": [base("p2")]}))
    assert s.desync is None and s.state.key() == before
    assert [e.data["message"] for e in out if e.kind == "warning"] == [
        "the camera read a ring in Player 2's colour in c3, which the rules rule out: "
        "taken as a misread"]
    # A button pressed while the misreading stands is judged the same way: no desync.
    s.command({"do": "ready", "player": "p1"})
    assert s.desync is None and s.history[-1]["kind"] != "desync"
    # Two such bases are not one misreading.
    s.observe(seen(s.state, hide={"p1#3", "p1#4"}, extra={"c3": [base("p2"), base("p2")]}))
    assert s.desync and any("Player 2's bases in c3" in line for line in s.desync)


def test_two_contradicting_stickers_are_a_swap_not_a_misread() -> None:
    s = shift_position()
    # p1#1 (d2) and p1#5 (c3) swapped places: diagonal cells, no legal reading.
    s.observe(seen(s.state, hide={"p1#1", "p1#5"},
                   extra={"d2": [base("p1", 5)], "c3": [base("p1", 1)]}))
    assert s.desync and any("Player 1's Twin" in line for line in s.desync)


def test_a_person_overrules_a_stubborn_misreading_until_the_cell_changes() -> None:
    s = shift_position()
    before = s.state.key()
    # The camera keeps seeing p1#1's base in d2 as a p2 base.
    s.observe(seen(s.state, hide={"p1#1"}, extra={"d2": [base("p2", 30)]}))
    assert s.desync
    s.command({"do": "board_ok"})
    assert s.desync is None and list(s.referee.overruled) == ["d2"]
    assert s.referee.overruled["d2"].doubted == {("p2", 30, "read"): 1}
    # The same reading again: still overruled. The board moves on elsewhere.
    moved, _ = apply(s.state, A.Move("p1", "p1#0", "b2"))
    s.observe(seen(moved, hide={"p1#1"}, extra={"d2": [base("p2", 30)]}))
    assert s.desync is None and s.state.key() != before
    # The cell changes (p1#1 really left): the camera is trusted again.
    s.observe(seen(s.state, hide={"p1#1"}))
    assert s.desync and not s.referee.overruled
    with pytest.raises(CommandRefused, match="nothing to overrule"):
        Session.new(sample_setup()).command({"do": "board_ok"})


def test_a_misreading_a_person_overruled_stays_doubted_when_the_cell_changes() -> None:
    s = shift_position()
    # p1#3's base in c3 keeps reading as p2's sticker 30 (a glare spot on its place,
    # say): colour and sticker both wrong, more than the rules set aside on their own.
    wrong = {"c3": [base("p2", 30)]}
    s.observe(seen(s.state, hide={"p1#3"}, extra=wrong))
    assert s.desync and any("in c3 should not be there" in line for line in s.desync)
    s.command({"do": "board_ok"})
    assert s.desync is None
    # p1#2 leaves c3 for b3: the cell changed, but the stuck misreading is still there.
    # Without the doubt this move would desync the table again.
    moved, _ = apply(s.state, A.Move("p1", "p1#2", "b3"))
    s.observe(seen(moved, hide={"p1#3"}, extra=wrong))
    assert s.desync is None and s.state.cell == moved.cell
    # The doubt covers as many bases as were misread, no more: a second p2 base in c3
    # is a real problem.
    s.observe(seen(s.state, hide={"p1#3", "p1#4"},
                   extra={"c3": [base("p2", 30), base("p2", 30)]}))
    assert s.desync and any("in c3 should not be there" in line for line in s.desync)
    # Once the base reads right, the doubt ends and the camera is trusted again.
    s.observe(seen(s.state))
    assert s.desync is None and "c3" not in s.referee.overruled


def test_dashboard_colours_and_sticker_numbers_match_the_printed_ones() -> None:
    from table.games.dreamblade.layout import PLAYER_COLORS
    from table.session.setup import DEFAULT_COLORS
    from vision.printing.sheets import sticker_ids

    assert {p: c.lower() for p, c in DEFAULT_COLORS.items()} == \
        {p: c.lower() for p, c in PLAYER_COLORS.items()}
    setup = sample_setup()
    numbering = setup.sticker_map().ref_of  # the printed numbering, by default
    for p in ("p1", "p2"):
        ids = sticker_ids(p, len(setup.forces[p]))
        assert [numbering[i] for i in ids] == [f"{p}#{k}" for k in range(len(ids))]


def test_a_big_attack_is_rolled_in_parts() -> None:
    s = live({"p1": ["Brute", "Brute"], "p2": ["Scout"]},
             {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"}, phase=Phase.ACTION, active="p1")
    s.command({"do": "strike", "player": "p1"})
    out = s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(1, 4, 1)))
    assert not [e for e in out if e.kind == "warning"]
    assert s.prompt().text == "Player 1: roll 1 attack die for the fight in c3"
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(3,)))
    assert s.state.combat is not None and s.state.combat.attack.damage_left == 5


def test_a_wail_takes_two_presses_of_the_box_roll_button() -> None:
    wb = {"p1": ["Banshee", "Brute"], "p2": ["Brute"]}
    s = live(wb, {"p1#0": "c3", "p1#1": "a1", "p2#0": "c3"}, phase=Phase.ACTION,
             active="p1", first="p2", index=1)
    s.command({"do": "action", "action": "p1 attack c3 p1#0"})
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(6, 4)))
    s.command({"do": "action", "action": "p1 blade p1#0 Wail"})
    assert [(d.player, d.kind, d.n) for d in s.dice_needed()] == [("p1", "init", 2)]
    assert "Wail" in s.prompt().text
    s.device(DeviceEvent("roll", 0.0, "p2", sides=6, numbers=(5,)))  # not p2's
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(1,)))
    assert s.state.combat is not None  # one die so far
    # A host restarted now takes the logged die up again (as Session.resume does).
    from table.games.dreamblade.system import SYSTEM

    fresh = SYSTEM.referee(s.setup, s.referee.game.catalog)
    for entry in ({"kind": "die", "player": "p1", "die": 1, "for": "wail"},
                  {"kind": "die", "player": "p2", "die": 4}):  # not an initiative phase
        fresh.resume_input(s.state, entry)
    assert fresh.wail_dice == [1] and fresh.init_dice == {}
    s.command({"do": "initiative", "player": "p1", "die": 2})  # typed on the dashboard
    assert s.state.combat is None
    g = s.referee.game.gid
    assert s.state.zone[g("p1#1")].value == "reserves"  # a Brute costs 3
    assert s.state.zone[g("p2#0")].value == "reserves"


def test_a_map_not_cleared_for_a_new_game_is_one_line_not_seventeen() -> None:
    old = play_game(3)[0]  # a finished game's bases still stand on the map
    s = Session.new(sample_setup())
    stray = seen(old.state)
    n = sum(len(v) for v in stray.regions.values())
    assert n > 4
    s.observe(stray)
    assert s.desync is not None and len(s.desync) == 1
    assert s.desync[0].startswith(f"{n} bases on the map should not be there; take them off ")


# -- moves the rules make at the dashboard ------------------------------------------------
def castle_position() -> Session:
    """Ann's spawn phase: Pearlthorn Castle in c2 may call her Brute from c3 into c2."""
    return live({"p1": ["Pearlthorn Castle", "Brute", "Brute"], "p2": ["Brute"]},
                {"p1#0": "c2", "p1#1": "c3", "p1#2": "a1", "p2#0": "e5"},
                phase=Phase.SPAWN, active="p1", spawn_points=3)


CALL = "p1 activate p1#0 Call Adjacent Ally on p1#1 to c2"


def test_a_card_moving_a_creature_asks_for_the_move_instead_of_a_desync() -> None:
    """A spawn-point ability chosen at the dashboard moves Ann's Brute from c3 to c2 in
    the rules; the map still shows it in c3. That is no desync: the prompt asks for the
    move first. Once the camera sees it in c2 it is watched like any creature, and taken
    away from there it is a desync again."""
    s = castle_position()
    events = s.command({"do": "action", "action": CALL}, source="dashboard")
    assert s.desync is None and "desync" not in [e.kind for e in events]
    assert s.prompt().text.startswith("First move Player 1's Brute 1 from c3 to c2.")
    piece = next(p for p in s.referee.view(s.state)["board"]["pieces"] if p["ref"] == "p1#1")
    assert piece["region"] == "c2" and "to be moved here" in piece["states"]
    s.observe(seen(s.state, hide={"p1#1"}, linger={"p1#1": "c3"}, frame=1))
    assert s.desync is None  # the board as it was: still waiting
    s.observe(seen(s.state, frame=2))  # moved
    assert s.desync is None and not s.referee.awaited
    assert not s.prompt().text.startswith("First")
    s.observe(seen(s.state, hide={"p1#1"}, linger={"p1#1": "c3"}, frame=3))
    assert s.desync and "Brute 1" in " ".join(s.desync)


def test_an_undone_dashboard_move_is_not_asked_for() -> None:
    s = castle_position()
    s.command({"do": "action", "action": CALL}, source="dashboard")
    s.command({"do": "undo"}, source="dashboard")
    assert not s.prompt().text.startswith("First")
    s.observe(seen(s.state, frame=1))
    assert s.desync is None
    # and a base left in c2 instead of c3 is the desync it always was
    s.observe(seen(s.state, hide={"p1#1"}, linger={"p1#1": "c2"}, frame=2))
    assert s.desync


def test_a_move_the_camera_saw_is_not_awaited() -> None:
    """The same move seen on the map (the player moved the creature, the camera explains
    it) is nothing to ask for."""
    s = shift_position()
    s.observe(seen(s.state, hide={"p1#1"}, linger={"p1#1": "d3"}, frame=1))
    g = s.referee.game.gid("p1#1")
    assert s.state.cell[g] == s.referee.game.board.index("d3") and not s.referee.awaited
    assert s.desync is None and not s.prompt().text.startswith("First")


def test_without_a_camera_nothing_is_awaited() -> None:
    """A table played on the dashboard alone never sees the map: asking for the move
    would be a question nobody can answer."""
    s = Session.new(Setup({"p1": ("Pearlthorn Castle", "Brute", "Brute"), "p2": ("Brute",)}),
                    catalog=catalog())
    s.start_from(position({"p1": ["Pearlthorn Castle", "Brute", "Brute"], "p2": ["Brute"]},
                          {"p1#0": "c2", "p1#1": "c3", "p1#2": "a1", "p2#0": "e5"},
                          phase=Phase.SPAWN, active="p1", spawn_points=3))
    s.command({"do": "action", "action": CALL}, source="dashboard")
    assert not s.referee.awaited and not s.prompt().text.startswith("First")


def test_a_piece_moved_twice_at_the_dashboard_may_stand_on_either_way() -> None:
    """Two dashboard moves of one miniature (a blade's Advance, then another, as in a
    demo game): the players may have followed the first or not yet, so it may stand
    where it was, where the first move put it, or where the second did; the prompt
    names only where it goes."""
    s = shift_position()
    ref, game = s.referee, s.referee.game
    g = game.gid("p1#1")
    first, second = s.state.copy(), s.state.copy()
    first.cell[g] = game.board.index("d3")
    second.cell[g] = game.board.index("d4")
    # (as the session reports each move to the referee; two moves of one creature in
    # a shift are the blades', not a player's)
    ref.played(s.state, first, A.EndPhase("p1"), "dashboard")
    ref.played(first, second, A.EndPhase("p1"), "dashboard")
    s.state = second
    assert s.prompt().text.startswith("First move Player 1's Scout to d4.")
    s.observe(seen(s.state, hide={"p1#1"}, linger={"p1#1": "d3"}, frame=1))  # the first
    assert s.desync is None
    s.observe(seen(s.state, hide={"p1#1"}, linger={"p1#1": "d2"}, frame=2))  # none yet
    assert s.desync is None
    s.observe(seen(s.state, frame=3))
    assert s.desync is None and not ref.awaited
