"""Step actions as one line of text, and back (the inverse of each action's ``str``).

    parse_action("p1 move p1#3 c4") == Move("p1", "p1#3", "c4")

The dashboard, the API and the game log all use this form, so a person can type what
the table did ("p2 place p1#0 b3") and read a log without a manual. Parsing checks the
shape only (words, numbers, faces); whether the action is legal is the engine's call.
"""

from __future__ import annotations

from table.errors import NotationError

from . import actions as A
from .board import PLAYERS

_FACE_WORDS = {"miss": "miss", "m": "miss", "blade": "blade", "b": "blade"}


def parse_face(word: str) -> A.Face:
    w = word.lower()
    if w in _FACE_WORDS:
        return _FACE_WORDS[w]
    if w in ("1", "2", "3"):
        return int(w)
    raise NotationError(f"{word!r} is not an attack die face (1, 2, 3, miss, blade)")


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise NotationError(f"{what} must be a whole number, not {word!r}") from None


def _n(words: list[str], n: int, form: str) -> None:
    if len(words) != n:
        raise NotationError(f"expected '{form}', got {' '.join(words)!r}")


def parse_action(text: str) -> A.Action:
    """One step action from its text form; ``NotationError`` if it is not one."""
    if not isinstance(text, str):
        raise NotationError(f"an action is a line of text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty action")
    if words[0] == "initiative":
        _n(words, 3, "initiative <p1 die> <p2 die>")
        return A.Initiative(_int(words[1], "a die"), _int(words[2], "a die"))
    player = words[0]
    if player not in PLAYERS:
        raise NotationError(f"an action starts with the player (p1 or p2), not {player!r}")
    if len(words) < 2:
        raise NotationError(f"{player} what? e.g. '{player} end'")
    verb, rest = words[1], words[2:]
    if verb == "spawn":
        _n(words, 4, f"{player} spawn <mini> <cell>")
        return A.Spawn(player, rest[0], rest[1])
    if verb == "move":
        _n(words, 4, f"{player} move <mini> <cell>")
        return A.Move(player, rest[0], rest[1])
    if verb == "attack":
        if len(rest) < 2:
            raise NotationError(f"expected '{player} attack <cell> <mini> [<mini>...]'")
        return A.Attack(player, rest[0], tuple(rest[1:]))
    if verb == "roll":
        if not rest:
            raise NotationError(f"expected '{player} roll <face> [<face>...]'")
        return A.Roll(player, tuple(parse_face(w) for w in rest))
    if verb == "wail":
        _n(words, 4, f"{player} wail <die> <die>")
        return A.WailRoll(player, (_int(rest[0], "a die"), _int(rest[1], "a die")))
    if verb == "aim":
        _n(words, 4, f"{player} aim <attacker> <target>")
        return A.Aim(player, rest[0], rest[1])
    if verb == "reroll":
        if not rest:
            raise NotationError(f"expected '{player} reroll <face> [<face>...]' or "
                                f"'{player} reroll none'")
        if rest == ["none"]:
            return A.Reroll(player, ())
        return A.Reroll(player, tuple(parse_face(w) for w in rest))
    if verb in ("blade", "activate"):
        form = f"{player} {verb} <mini> <ability> [on <target>] [to <cell>] [x <n>]"
        if len(rest) < 2:
            raise NotationError(f"expected '{form}'")
        words = rest[1:]
        extra: dict[str, str] = {}
        for key in ("x", "to", "on"):  # from the end: ability names may hold spaces
            if key in words:
                i = words.index(key)
                if i + 2 != len(words) or key in extra:
                    raise NotationError(f"expected '{form}', got {text!r}")
                extra[key] = words[i + 1]
                words = words[:i]
        if not words:
            raise NotationError(f"expected '{form}', got {text!r}")
        kind = A.AssignBlade if verb == "blade" else A.Activate
        x = _int(extra["x"], "X") if "x" in extra else None
        return kind(player, rest[0], " ".join(words), extra.get("on"), extra.get("to"), x)
    if verb == "damage":
        _n(words, 4, f"{player} damage <mini> <amount>")
        return A.AssignDamage(player, rest[0], _int(rest[1], "damage"))
    if verb == "outcome":
        _n(words, 4, f"{player} outcome <mini> disrupt|destroy")
        return A.ChooseOutcome(player, rest[0], rest[1])
    if verb == "decline-deathblow":
        _n(words, 2, f"{player} decline-deathblow")
        return A.DeclineDeathblow(player)
    if verb == "place":
        _n(words, 4, f"{player} place <mini> <cell>")
        return A.Place(player, rest[0], rest[1])
    if verb == "end":
        _n(words, 2, f"{player} end")
        return A.EndPhase(player)
    raise NotationError(f"unknown action {verb!r}: spawn, activate, move, attack, roll, reroll, "
                        "aim, wail, blade, damage, outcome, decline-deathblow, place or end")
