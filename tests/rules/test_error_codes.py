"""Every error code of the scenario contract is provoked by at least one test."""

from pathlib import Path

from table.games.dreamblade.errors import Code

CONTRACT = ["wrong_phase", "not_your_phase", "unknown_mini", "not_in_reserves",
            "not_your_mini", "insufficient_spawn_points", "illegal_spawn_cell",
            "spawn_cell_limit", "location_limit", "stacking_limit", "not_adjacent",
            "engaged_cannot_move", "moved_twice", "not_in_dreamscape", "not_engaged",
            "cell_already_fought", "already_struck", "wrong_dice_count", "bad_die_face",
            "invalid_target", "damage_mismatch", "placement_required", "invalid_placement",
            "no_deathblow", "warband_too_large", "too_many_copies", "defender_cannot_enter",
            "unique_controlled", "reroll_required", "game_over"]


def test_the_contract_codes_exist():
    assert {c.value for c in Code} >= set(CONTRACT)


def test_every_contract_code_is_asserted_by_a_test():
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_*.py") if p.name != Path(__file__).name)
    text += "".join(p.read_text() for p in (here.parent / "data" / "scenarios").glob("*.json"))
    missing = [c for c in CONTRACT if f'"{c}"' not in text]
    assert missing == []
