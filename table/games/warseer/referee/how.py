"""How to play each step of a Warseer turn, for a newcomer at the table: what the step
is for and what to do, in a few sentences (the dashboard opens it under the prompt)."""

HOW_TO_PLAY = {
    "opening": (
        "Each player draws seven cards from their shuffled battle deck, then puts three "
        "of them back and shuffles again: you start with four cards in hand."),
    "deploy": (
        "Put your hero on any free hex of your deployment zone, the rows along your edge "
        "of the map. The other creatures wait in your War Camp."),
    "main": (
        "On your turn, in any order: move each creature once (difficult terrain costs "
        "two), attack once with each creature in range and sight, bring one character "
        "from your War Camp into your zone, and play cards. Press Ready or End to pass "
        "the turn."),
    "roll": (
        "Roll the attack dice shown in the attacker's attack box. Swords are damage, "
        "shields stop it, and a dragon both deals one damage and triggers the attacker's "
        "critical effect."),
    "reroll": "Roll the die again: the new face replaces the old one.",
    "extra": "Roll the extra die an effect gave this attack.",
    "modify": (
        "Before damage is counted, each player may change the roll: a Warlord's "
        "bonus, cover, a tactic card or a relic. Pass when you have nothing more to "
        "add; when both pass, the damage is dealt."),
    "push": (
        "The attack pushes the defender: choose a free hex next to it. A push into "
        "difficult terrain deals one more damage."),
    "advance": (
        "The defender left its hex: the attacker may step into it, or stay where it "
        "is."),
    "counterblow": (
        "The defender has Counterblow: it may strike back at the attacker once, or "
        "pass."),
    "game_over": (
        "The game is over: it ends with the turn in which the last feat is drawn, and "
        "the player with more victory points wins. Staff start the next game from the "
        "Setup tab; this game's record stays in History."),
}
