"""Diskwars at a live table, through the session: dice from the box read by the
battle die's face table, and the camera's board (disks seen at points) explained by the
deployment or flip it shows, a disk hidden under another not taken for missing."""

from __future__ import annotations

from table.device import DeviceEvent
from table.observation import Observation, ObservedBase
from table.session import Session, Setup

from .test_browser import OPENING

FORCES = {"p1": ["Tyrion", "High Elf Spearmen", "High Elf Spearmen", "High Elf Archers",
                 "Silver Helms"],
          "p2": ["Kairos Fateweaver", "Plaguebearers", "Plaguebearers", "Hellcannon"]}


def new_session() -> Session:
    return Session.new(Setup.from_dict({"system": "diskwars", "forces": FORCES,
                                        "names": {"p1": "Ann", "p2": "Bob"}}))


def board(s: Session, frame: int, where: dict[str, tuple[float, float]]) -> Observation:
    sticker = {ref: sid for sid, ref in s.referee.stickers.ref_of.items()}
    bases = tuple(ObservedBase(ref[:2], sticker[ref], "read", 0.95, x, y, 50.0, error_mm=1.0)
                  for ref, (x, y) in where.items())
    return Observation(float(frame), frame, {"battlefield": bases})


def charging() -> Session:
    """Deployed, round 1: Ann plays Charge, Bob Hold Fast; Ann resolves first."""
    s = new_session()
    for cmd in OPENING:
        s.command(cmd)
    s.command({"do": "action", "action": "p1 command charge"})
    s.command({"do": "action", "action": "p2 command hold-fast"})
    return s


def on_field(s: Session) -> dict[str, tuple[float, float]]:
    return {r: (d.x, d.y) for r, d in s.state.disks.items() if d.place == "field"}


def test_the_initiative_and_battle_dice_come_from_the_box() -> None:
    s = new_session()
    s.device(DeviceEvent("roll", 0.0, "p2", sides=6, numbers=(2,)))
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(6,)))
    assert s.state.phase == "first" and s.state.active == "p1"
    for cmd in OPENING[2:]:
        s.command(cmd)
    s.command({"do": "action", "action": "p1 command charge"})
    s.command({"do": "action", "action": "p2 command hold-fast"})
    s.command({"do": "action", "action": "p1 move p1#3 560.0,240.0"})
    s.command({"do": "action", "action": "p1 hold p1#0"})
    s.command({"do": "action", "action": "p1 done"})  # Charge's empowering not used
    s.command({"do": "action", "action": "p2 shoot p2#3 p1#3"})  # the Hellcannon, 3 dice
    need = s.dice_needed()[0]
    assert need.kind == "battle" and need.n == 3 and need.die.sides == 6
    # The default battle die: hit, hit, critical, miss, scatter, chaos.
    s.device(DeviceEvent("roll", 0.0, "p2", sides=6, numbers=(3, 4, 6)))
    assert any(h.get("action") == "p2 dice critical,miss,chaos" for h in s.history)


def test_the_camera_sees_a_deployment_a_flip_and_a_disk_hidden_under_another() -> None:
    s = new_session()
    for cmd in OPENING[:3]:
        s.command(cmd)
    # Bob deploys by hand: the camera sees his hero in his zone.
    s.observe(board(s, 1, {"p2#0": (300.4, 939.6)}))
    assert s.state.disks["p2#0"].place == "field" and not s.desync
    # A Plaguebearer put down partly over the hero lies on it.
    s.observe(board(s, 2, {"p2#0": (300.0, 940.0), "p2#1": (330.0, 940.0)}))
    assert s.state.disks["p2#1"].level > s.state.disks["p2#0"].level
    for cmd in OPENING[5:]:
        s.command(cmd)
    s.command({"do": "action", "action": "p1 command charge"})
    s.command({"do": "action", "action": "p2 command hold-fast"})
    # Ann flips her Silver Helms twice toward Bob: the camera sees where it stopped.
    seen = on_field(s) | {"p1#4": (680.5, 287.6)}
    s.observe(board(s, 3, seen))
    helms = s.state.disks["p1#4"]
    assert (helms.x, helms.y) == (680.5, 287.6) and helms.activated and not s.desync
    # A flip too far for its movement is no move: the table is told to put it back.
    s.observe(board(s, 4, on_field(s) | {"p1#1": (420.0, 600.0)}))
    assert s.desync and "High Elf Spearmen 1" in str(s.desync)
    s.observe(board(s, 5, on_field(s)))
    assert not s.desync
    # The second Spearmen land exactly on the Archers (typed at the dashboard), hiding
    # them whole: the camera no longer sees the Archers, and that is no desync.
    s.command({"do": "action", "action": "p1 move p1#2 560.0,150.0"})
    hidden = {r: xy for r, xy in on_field(s).items() if r != "p1#3"}
    s.observe(board(s, 6, hidden))
    assert not s.desync


def test_a_disk_landed_on_is_seen_less_closely_and_still_explains_the_flip() -> None:
    s = charging()
    # A Plaguebearer of Bob's stands in the middle (put there by a correction).
    s.command({"do": "correct", "piece": "p2#1", "to": "680.0,380.0"})
    # The Silver Helms flip three times onto its edge; the camera fits the Plaguebearer
    # by the part of its outline that shows: its centre 12 mm off.
    seen = on_field(s) | {"p1#4": (680.0, 330.0), "p2#1": (692.0, 380.0)}
    s.observe(board(s, 1, seen))
    assert not s.desync, s.desync
    helms = s.state.disks["p1#4"]
    assert (helms.x, helms.y) == (680.0, 330.0) and helms.level > s.state.disks["p2#1"].level
    # Tyrion seen further than his three flips reach: no move explains it.
    s.observe(board(s, 2, on_field(s) | {"p1#0": (300.0, 450.0)}))
    assert s.desync and "Tyrion" in str(s.desync)


def test_a_disk_flipped_against_the_edge_and_read_just_beyond_it_is_on_the_edge() -> None:
    """A disk put down against the battlefield's edge is read up to the camera's error
    beyond it: that is the flip to the edge, the disk moved just inside. Further out is
    no flip the rules allow."""
    s = charging()
    spear = s.state.disks["p1#1"]  # 45 mm across, at 420,150 on a battlefield from 76 mm
    assert (spear.x, spear.y) == (420.0, 150.0)
    # Two flips toward the near edge: its centre at most 22.5 mm from it, read at 96.5.
    s.observe(board(s, 1, on_field(s) | {"p1#1": (400.0, 96.5)}))
    assert not s.desync, s.desync
    spear = s.state.disks["p1#1"]
    assert spear.activated and (spear.x, spear.y) == (400.0, 98.5)
    # Another disk read 8 mm beyond the edge: off the battlefield, not explained.
    s.observe(board(s, 2, on_field(s) | {"p1#2": (500.0, 90.5)}))
    assert s.desync and "High Elf Spearmen 2" in str(s.desync)


def test_a_casualty_lies_where_it_was_until_taken_off() -> None:
    """The Hellcannon's shot makes the Archers a casualty: until a hand takes them off,
    the camera still sees them where they lay, and that is no desync. Taken off, they
    are forgotten; put back on the battlefield elsewhere, they are to be taken off."""
    s = charging()
    s.command({"do": "correct", "piece": "p1#3", "to": "640.0,800.0"})
    s.command({"do": "action", "action": "p1 hold p1#3"})
    s.command({"do": "action", "action": "p1 hold p1#0"})
    s.command({"do": "action", "action": "p1 done"})
    before = on_field(s)
    s.command({"do": "action", "action": "p2 shoot p2#3 p1#3"})
    s.command({"do": "action", "action": "p2 dice hit,hit,critical"})
    s.command({"do": "action", "action": "p2 d6 6,6,6"})
    assert s.state.disks["p1#3"].place == "casualty"
    s.observe(board(s, 1, before))  # the Archers still lie there
    assert not s.desync, s.desync
    assert "p1#3" in s.referee.camera.lingering
    gone = {r: xy for r, xy in before.items() if r != "p1#3"}
    s.observe(board(s, 2, gone))
    assert not s.desync and "p1#3" not in s.referee.camera.lingering
    s.observe(board(s, 3, gone | {"p1#3": (640.0, 600.0)}))
    assert s.desync and "take Ann's High Elf Archers off" in str(s.desync)
