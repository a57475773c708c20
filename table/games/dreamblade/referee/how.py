"""How to play each step of a Dreamblade turn, for a newcomer at the table: what the
step is for and what to do, in a few sentences (the dashboard opens it under the
prompt)."""

HOW_TO_PLAY = {
    "initiative": (
        "Each player rolls one die. The higher roll goes first this turn, and the two "
        "dice together are the spawn points each player gets. A 1 on either die (after "
        "the first turn, where a 1 is rolled again) means nobody spawns this turn."),
    "spawn": (
        "Spend spawn points to bring miniatures from your reserves into play. Creatures "
        "enter through your portal or your spawn row; a miniature costs its printed cost "
        "plus one for each aspect symbol your miniatures in play do not match. Points "
        "left over are lost: press Ready when you are done."),
    "action": (
        "In each action phase you either shift or strike, never both. Shift: move any "
        "of your creatures that are not fighting one cell up, down, left or right. "
        "Strike: pick a cell where your creatures share the cell with enemies and fight "
        "there. Press Ready when you are done."),
    "trigger": (
        "One of your miniatures' abilities has just triggered. Choose what it does "
        "before anything else happens."),
    "roll": (
        "Roll the attack dice: one die for each point of power of the attacking "
        "creatures. Hits become damage; blade faces trigger abilities."),
    "reroll": (
        "Fortunate lets you pick up some of the dice you rolled and roll them again. "
        "Choose the dice to roll again, or keep the roll."),
    "aim": "A special attack needs a target: pick the enemy it is aimed at.",
    "wail": (
        "Wail: roll two six-sided dice. Every creature whose spawn cost equals the "
        "total is banished."),
    "blades": (
        "Blade faces on the attack dice trigger abilities. Give each blade to an "
        "ability that can use it."),
    "damage": (
        "Share the damage out among the enemies in the cell. Damage equal to a "
        "creature's defense disrupts it (it moves away); damage equal to its life "
        "destroys it. Damage clears at the end of the phase."),
    "outcome": (
        "Your damage reached both this creature's defense and its life: choose whether "
        "to disrupt it (it leaves the cell) or destroy it (it goes to the graveyard)."),
    "deathblow": (
        "Destroyed creatures with Deathblow may strike back once: roll their attack "
        "dice, or decline."),
    "place": (
        "A disrupted creature leaves the fight: put it in any empty cell the board "
        "marks (never its owner's portal)."),
    "game_over": (
        "The game is over: the first player to win six turns wins. Staff start the "
        "next game from the Setup tab; this game's record stays in History."),
}
