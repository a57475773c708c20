"""Property tests: random legal playouts, random wrong input."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.games.dreamblade import (
    Board,
    Catalog,
    Game,
    RulesError,
    apply,
    is_valid,
    legal_actions,
    new_state,
    status,
)
from table.games.dreamblade import (
    actions as A,
)
from table.games.dreamblade.playout import play_random_game, table_policy
from table.games.dreamblade.turns import conquest_points
from table.games.dreamblade.warband import sample_warband

from .helpers import catalog


def sample_game() -> Game:
    cat = Catalog.builtin()
    wb = sample_warband(cat)
    return Game(Board.standard(), cat, {"p1": wb.names, "p2": wb.names})


def mixed_game(rng: random.Random) -> Game:
    cat = catalog()
    names = sorted(m.name for m in cat)
    return Game(Board.standard(), cat,
                {p: [n for n in rng.sample(names, 8) for _ in range(2)] for p in ("p1", "p2")})


SLOW = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_random_playouts_stay_valid_and_every_listed_action_is_accepted(seed, mixed):
    rng = random.Random(seed)
    game = mixed_game(rng) if mixed else sample_game()
    board = game.board
    checked = 0

    def check(before, action, after):
        nonlocal checked
        assert is_valid(after), f"{action} led to {status(after)!r}"
        pts = conquest_points(after)
        assert pts[0] - after.kills[0] <= board.max_conquest_points("p1")
        assert pts[1] - after.kills[1] <= board.max_conquest_points("p2")
        if rng.random() < 0.15:  # every listed action is accepted (sampled states)
            acts = legal_actions(before)
            assert acts == legal_actions(before.copy())  # stable order
            for a in acts:
                apply(before, a)
            checked += 1

    p = play_random_game(new_state(game), rng, on_step=check)
    assert p.final.is_over() or p.capped
    for c in p.final.conquest:
        assert c.points[0] >= 0 and c.points[1] >= 0


def random_action(rng: random.Random, game: Game) -> A.Action:
    """Anything at all, mostly wrong: unknown minis and cells, wrong players, bad dice."""
    refs = [m.ref for m in game.minis] + ["p1#99", "p3#0", "x"]
    cells = [*list(game.board.cell_names), "f6", ""]
    players = ["p1", "p2"]
    mini, cell, player = rng.choice(refs), rng.choice(cells), rng.choice(players)
    faces = tuple(rng.choice([1, 2, 3, "miss", "blade", 0, 4, "crit"])
                  for _ in range(rng.randint(0, 6)))
    return rng.choice([
        A.Initiative(rng.randint(0, 7), rng.randint(0, 7)),
        A.Spawn(player, mini, cell),
        A.Move(player, mini, cell),
        A.Shift(player, ((mini, cell), (rng.choice(refs), rng.choice(cells)))),
        A.Attack(player, cell, (mini,)),
        A.Roll(player, faces),
        A.AssignBlade(player, mini, rng.choice(["Crit", "Fumble", "Advance", "Nope"])),
        A.AssignDamage(player, mini, rng.randint(-1, 8)),
        A.ChooseOutcome(player, mini, rng.choice(["disrupt", "destroy", "eat"])),
        A.DeclineDeathblow(player),
        A.Place(player, mini, cell),
        A.EndPhase(player),
        A.Combat(player, cell, (mini,), faces, damage=((rng.choice(refs), rng.randint(0, 9)),),
                 placements=((mini, cell),)),
    ])


@SLOW
@given(st.integers(0, 2**32 - 1))
def test_rejected_actions_never_change_the_state(seed):
    rng = random.Random(seed)
    game = sample_game()
    tried = 0

    def fuzz(before, action, after):
        nonlocal tried
        for _ in range(3):
            wrong = random_action(rng, game)
            key = before.key()
            try:
                new, _ = apply(before, wrong)
            except RulesError as exc:
                assert exc.code and exc.message
            else:
                assert is_valid(new), f"{wrong} accepted into {status(new)!r}"
            assert before.key() == key, f"{wrong} changed the state it was given"
            tried += 1

    play_random_game(new_state(game), rng, on_step=fuzz, max_turns=8)
    assert tried > 0


GOLDEN = Path(__file__).parent.parent / "data" / "playthroughs" / "sample-warband-seed-2026.json"


def test_golden_playthrough():
    """A whole seeded game, action by action: any change in the rules shows up here.
    Regenerate on purpose with TABLESIGHT_REGEN_GOLDEN=1."""
    p = play_random_game(new_state(sample_game()), random.Random(2026), policy=table_policy)
    record = {"actions": [str(a) for a in p.actions],
              "conquest": [c.to_dict() for c in p.final.conquest],
              "final": p.final.to_dict()}
    if os.environ.get("TABLESIGHT_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(record, indent=1) + "\n")
    golden = json.loads(GOLDEN.read_text())
    for i, (want, got) in enumerate(zip(golden["actions"], record["actions"], strict=False)):
        assert want == got, f"playthrough differs at action {i}: {want!r} != {got!r}"
    assert golden == record
