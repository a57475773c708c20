"""The luck deck: the example of a hidden hand and a deck flipped through the box. Six
luck cards (+1, +1, +2, +2, +3, +3). A player who rolls a 1 and holds no luck card may,
in place of a move, draw one: the deck's draw (a chance, as a die roll is) puts a card in
that player's hand, which the other player does not see. After a roll, a player holding
a card may play it: the roll goes up by its value (a pawn still stops on the last space)
and the card goes to the discard pile, shuffled back when fewer than two are left to
draw."""

from __future__ import annotations

from table.randomness import Card, Deck

CARDS = (Card("L1a", "+1"), Card("L1b", "+1"), Card("L2a", "+2"), Card("L2b", "+2"),
         Card("L3a", "+3"), Card("L3b", "+3"))


def new_deck() -> Deck:
    return Deck.new("luck", CARDS)


def value(code: str) -> int:
    """What a card adds to a roll: its code's digit."""
    return int(code[1])


def ready(deck: Deck) -> Deck | None:
    """The deck as a draw finds it: its discards shuffled back when fewer than two cards
    are left to draw from (a draw of the last card would be no chance); None when even
    then there are fewer than two (never with two players: at most two cards are out)."""
    if deck.left >= 2:
        return deck
    again = deck.reshuffle()
    return again if again.left >= 2 else None
