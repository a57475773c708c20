from table.games.dreamblade import Status, Zone, is_valid, status

from .helpers import position

WB = {"p1": ["Brute", "Scout", "Brute", "Scout", "Brute", "Tower", "Tower"],
      "p2": ["Brute", "Tower"]}


def test_a_fresh_game_is_valid():
    assert status(position(WB)) == Status.VALID


def test_five_allies_in_a_cell_but_not_in_the_own_portal():
    s = position(WB, {f"p1#{i}": "c3" for i in range(5)})
    assert status(s) & Status.STACKING
    s = position(WB, {f"p1#{i}": "e1" for i in range(5)})
    assert is_valid(s)
    s = position(WB, {f"p1#{i}": "a5" for i in range(5)})  # the opponent's portal
    assert status(s) & Status.STACKING


def test_two_locations_in_a_cell():
    s = position(WB, {"p1#5": "c3", "p1#6": "c3", "p1#0": "c3"})
    assert status(s) == Status.TWO_LOCATIONS


def test_zone_and_damage_mismatches():
    s = position(WB)
    s.cell[0] = 3  # on the map but in reserves
    assert status(s) & Status.ZONE_MISMATCH
    s = position(WB, {"p1#0": "graveyard"})
    s.damage[0] = 2
    assert status(s) & Status.DAMAGE_OFF_MAP
    s = position(WB, {"p1#0": "c3"})
    s.damage[0] = 5  # a Brute has life 5: it should have been destroyed
    assert status(s) & Status.LETHAL_DAMAGE
    s = position(WB)
    s.zone[0] = Zone.DREAMSCAPE
    assert status(s) & Status.ZONE_MISMATCH


def test_points_and_phase_flags():
    s = position(WB)
    s.spawn_points = [3, 0]
    assert status(s) & Status.SPAWN_POINTS
    s = position(WB, turns_won=(7, 0))
    assert status(s) & Status.TURNS_WON
    s = position(WB)
    s.active = "p1"
    assert status(s) & Status.PHASE
