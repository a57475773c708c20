"""What the table is asked next: roll the die, or move a pawn by it."""

from __future__ import annotations

from table.system import DiceNeed, Prompt, choice, place_within

from ..actions import Advance, Graze
from ..dice import D6
from ..engine import legal_actions
from ..layout import PAWN_MM, WELL
from ..luck import ready
from ..meadow import REACH
from ..state import HOME, State
from .wording import Words


def dice_needed(state: State) -> tuple[DiceNeed, ...]:
    """One six-sided die before each move, typed in with the game's ``die`` command; a
    luck card while one is drawn: a die with a face per card left (the box's roll of it
    picks one), entered by hand on the drawing player's own page only (``card``)."""
    if state.winner:
        return ()
    if state.drawing and state.luck is not None:
        deck = ready(state.luck)
        if deck is None:
            return ()
        return (DiceNeed(state.active, "luck", 1, deck.as_die("luck card"), "card",
                         label="a luck card", private=True),)
    if state.roll is not None:
        return ()
    return (DiceNeed(state.active, "d6", 1, D6, "die"),)


def prompt_for(words: Words, state: State) -> Prompt:
    who = words.player(state.active)
    if state.winner:
        return Prompt("over", None, f"{words.player(state.winner)} wins")
    if state.drawing:
        return Prompt("draw", state.active,
                      f"{who} draws a luck card: the box's roll button, or {who}'s own page",
                      dice=dice_needed(state))
    if state.roll is None:
        return Prompt("roll", state.active, f"{who}: roll the die", dice=dice_needed(state))
    # Grazing is a point anywhere in a circle: drawn as its shape, not listed.
    opts = [a for a in legal_actions(state) if not isinstance(a, Graze)]
    home = [r for r in state.pawns if r[:2] == state.active and state.at(r) == HOME]
    shapes = tuple(place_within(r, f"{words.pawn(r)} may graze here", WELL,
                                REACH - PAWN_MM / 2, f"{state.active} graze {r} {{x}},{{y}}")
                   for r in home)
    text = f"{who}: move a pawn {state.roll}"
    if shapes:
        graze = "put a pawn home out to graze: tap the meadow inside the circle, or set it there"
        text = f"{text}, or {graze}" if opts else f"{who} rolled {state.roll}: {graze}"
    return Prompt("move", state.active, text,
                  options=tuple(str(a) for a in opts),
                  choices=tuple(choice(a, words.action(a),
                                       [a.to] if isinstance(a, Advance) else [],
                                       [a.pawn] if isinstance(a, Advance) else [])
                                for a in opts),
                  shapes=shapes)
