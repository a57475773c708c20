"""How to play each step of a Diskwars round, for a newcomer at the table: what the
step is for and what to do, in a few sentences (the dashboard opens it under the
prompt)."""

HOW_TO_PLAY = {
    "initiative": (
        "Each player rolls a die and adds their unspent army points. The higher total "
        "wins the initiative and chooses who plays first."),
    "first": "You won the initiative: choose who is the first player.",
    "deploy": (
        "Put your disks flat inside your deployment zone, along your edge of the "
        "battlefield. Heroes go first. Press Deployed when every disk you want is down."),
    "command": (
        "Each player chooses one command card in secret, on their own page or phone. "
        "When everyone has chosen, the cards are shown and resolved in order of their "
        "strategy."),
    "resolve": (
        "Your command card gives activations. For each, pick a disk that has not "
        "acted and is not pinned: flip it end over end to move, shoot, cast its magic "
        "or hold. A disk landing on an enemy pins it. Done ends the card."),
    "dice": (
        "Roll the dice shown: battle dice for a shot, or a die for a disk on dangerous "
        "terrain."),
    "melee": (
        "Disks that pin enemies, or are pinned by them, fight. Choose which enemy this "
        "disk strikes."),
    "over": (
        "The game is over: after five rounds the points decide (a point for each enemy "
        "disk destroyed and for each terrain piece held). Staff start the next game "
        "from the Setup tab."),
}
