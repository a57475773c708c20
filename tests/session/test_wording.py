"""What people read names players and miniatures, never ids."""

from __future__ import annotations

import re

from table.games.dreamblade.referee.wording import Words, involved
from table.games.dreamblade.state import Phase
from table.session import Session

from .helpers import sample_setup
from .test_session import live, play_game

ID = re.compile(r"\bp[12](#\d+)?\b")


def test_copies_of_a_miniature_are_numbered() -> None:
    s = live({"p1": ["Brute", "Brute", "Scout"], "p2": ["Brute"]}, {"p1#0": "c3"},
             phase=Phase.ACTION, active="p1")
    w = s.words
    assert [w.piece(r) for r in ("p1#0", "p1#1", "p1#2", "p2#0")] == [
        "Brute 1", "Brute 2", "Scout", "Brute"]
    assert w.piece("p2#0", owner=True) == "Player 2's Brute"


def test_every_kind_of_action_reads_as_a_sentence() -> None:
    s = Session.new(sample_setup())
    w = s.words
    first = s.referee.game.minis[0]
    cases = {
        "initiative 5 2": "initiative: Ann 5, Bob 2",
        f"p1 spawn {first.ref} e1": f"Ann: spawn {w.piece(first.ref)} (cost {first.d.cost}) "
                                    "into e1",
        "p1 move p1#1 c4": f"Ann: move {w.piece('p1#1')} to c4",
        "p1 attack c3 p1#0 p1#1": f"Ann: attack in c3 with {w.piece('p1#0')} and "
                                  f"{w.piece('p1#1')}",
        "p2 damage p1#3 2": f"Bob: 2 damage to Ann's {w.piece('p1#3')}",
        "p2 outcome p1#3 destroy": f"Bob: destroy Ann's {w.piece('p1#3')}",
        "p1 place p2#0 b2": f"Ann: put Bob's {w.piece('p2#0')} in b2",
        "p1 end": "Ann: done",
        "p1 roll 1 blade miss": "Ann: rolled 1 blade miss",
        "p2 decline-deathblow": "Bob: no deathblow",
    }
    for notation, words in cases.items():
        assert w.action(notation) == words
    assert w.action("gibberish here") == "gibberish here"  # unreadable: shown as it is


def test_involved_names_the_cells_and_minis_a_click_selects() -> None:
    from table.games.dreamblade.notation import parse_action

    assert involved(parse_action("p1 move p1#1 c4")) == (["c4"], ["p1#1"])
    assert involved(parse_action("p1 attack c3 p1#0 p1#1")) == (["c3"], ["p1#0", "p1#1"])


def test_a_whole_game_speaks_in_names() -> None:
    """Every prompt, option label and history line of a whole game, read as a person
    would: no player or miniature id anywhere."""
    s, _ = play_game(5)
    words = Words(s.referee.game, s.setup.names)
    texts = [h["text"] for h in s.history]
    assert any(t.startswith("Ann: spawn ") for t in texts)
    for t in texts:
        assert not ID.search(t), t
    for op in s.ops:
        assert not ID.search(words.action(op.body["action"]))
    snap = s.snapshot()
    assert not ID.search(snap["prompt"]["text"]), snap["prompt"]["text"]
    assert "wins the game" in snap["prompt"]["text"]


def test_prompts_mid_game_name_people() -> None:
    s = live({"p1": ["Brute", "Brute"], "p2": ["Scout"]},
             {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"}, phase=Phase.ACTION, active="p1")
    p = s.prompt()
    assert not ID.search(p.text)
    assert all(not ID.search(c["label"]) for c in p.choices)
    s.command({"do": "strike", "player": "p1"})
    s.command({"do": "roll", "player": "p1", "faces": [1, 1, "miss", "miss"]})
    p = s.prompt()
    assert p.text == "Player 1: assign 2 damage in c3 to Player 2's Scout"
    assert s.snapshot()["undo_label"] == "Player 1: rolled 1 1 miss miss"


def test_rules_messages_read_with_names_once() -> None:
    w = Session.new(sample_setup()).words
    assert w.humanize("p1#15 (Noble Dragon) costs 13; p1 has 7 spawn points left") == \
        "Ann's Noble Dragon costs 13; Ann has 7 spawn points left"
    assert w.humanize("p1#99 (X) is not here") == "p1#99 (X) is not here"  # no such one


def test_a_spawn_option_says_what_it_costs_now() -> None:
    from table.games.dreamblade.spawning import spawn_cost

    s = Session.new(sample_setup())
    s.command({"do": "initiative", "player": "p1", "die": 5})
    s.command({"do": "initiative", "player": "p2", "die": 2})
    for c in s.prompt().choices:
        if " spawn " in c["action"]:
            g = s.referee.game.gid(c["action"].split()[2])
            assert f"(cost {spawn_cost(s.state, g)})" in c["label"]


def test_the_history_says_what_a_spawn_cost() -> None:
    s = Session.new(sample_setup())
    s.command({"do": "initiative", "player": "p1", "die": 5})
    s.command({"do": "initiative", "player": "p2", "die": 2})
    spawn = next(c for c in s.prompt().choices if " spawn " in c["action"])
    s.command({"do": "action", "action": spawn["action"]})
    assert s.history[-1]["text"] == spawn["label"]  # the cost it had, not the printed one
