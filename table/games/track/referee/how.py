"""How to play each step of Track, the example game, for a newcomer: a few sentences
the dashboard opens under the prompt."""

HOW_TO_PLAY = {
    "roll": "Roll the die: the number is how far one of your pawns moves.",
    "move": (
        "Move one of your pawns forward by the number rolled, or send a pawn at home "
        "out to graze in the meadow circle. The first player with every pawn home or "
        "grazing wins. A luck card in hand adds its value to a roll."),
    "draw": (
        "You rolled a 1 and hold no luck card: draw one, with the box's roll button or "
        "on your own page. The other player does not see it."),
    "over": "The game is over. Staff start the next one from the Setup tab.",
}
