"""Building positions for rule tests, the way a chess test writes a FEN."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from table.games.dreamblade import (
    Board,
    Catalog,
    Game,
    MiniatureDef,
    Phase,
    RulesError,
    State,
    Zone,
    apply,
    new_state,
)
from table.games.dreamblade.state import Mode

TEST_MINIS = [
    {"name": "Brute", "type": "creature", "cost": 3, "aspects": ["passion"],
     "power": 2, "defense": 3, "life": 5},
    {"name": "Scout", "type": "creature", "cost": 2, "aspects": ["valor"],
     "power": 1, "defense": 2, "life": 3},
    {"name": "Giant", "type": "creature", "cost": 7, "aspects": ["valor"] * 4,
     "power": 4, "defense": 8, "life": 9},
    {"name": "Twin", "type": "creature", "cost": 4, "aspects": ["valor", "madness"],
     "power": 1, "defense": 3, "life": 4},
    {"name": "Tower", "type": "location", "cost": 2, "aspects": ["fear"]},
    {"name": "Guardian", "type": "creature", "cost": 5, "aspects": ["valor"],
     "power": 1, "defense": 6, "life": 6, "abilities": ["Defender"]},
    {"name": "Critter", "type": "creature", "cost": 3, "aspects": ["passion"],
     "power": 2, "defense": 3, "life": 5, "abilities": ["Blade: Crit 3"]},
    {"name": "Mutant", "type": "creature", "cost": 6, "aspects": ["passion"],
     "power": 2, "defense": 4, "life": 8, "abilities": ["Blade: Crit 5", "Blade: Fumble 5"]},
    {"name": "Gambler", "type": "creature", "cost": 4, "aspects": ["madness"],
     "power": 1, "defense": 3, "life": 5, "abilities": ["Double Blade: Crit 4"]},
    {"name": "Zero", "type": "creature", "cost": 1, "aspects": ["fear"],
     "power": 0, "defense": 1, "life": 2, "abilities": ["Multiblade: Crit 1"]},
    {"name": "Idol", "type": "location", "cost": 3, "aspects": ["passion"],
     "abilities": ["Blade: Crit 2"]},
    {"name": "Unique One", "type": "creature", "cost": 2, "aspects": ["fear"],
     "power": 1, "defense": 2, "life": 2, "abilities": ["Unique [Glorious]"]},
    {"name": "Avenger", "type": "creature", "cost": 2, "aspects": ["fear"],
     "power": 1, "defense": 2, "life": 2, "abilities": ["Vengeance 2"]},
]


def _ab(name: str, abilities: list[str], power: int = 2, defense: int = 3, life: int = 5,
        aspects: tuple[str, ...] = ("passion",), kind: str = "creature", cost: int = 3,
        lineage: str | None = None) -> dict:
    d = {"name": name, "type": kind, "cost": cost, "aspects": list(aspects),
         "abilities": abilities, "lineage": lineage}
    if kind == "creature":
        d.update(power=power, defense=defense, life=life)
    return d


# One miniature per ability under test (tests/rules/test_abilities.py): plain 2/3/5
# passion creatures unless the ability needs something else.
ABILITY_MINIS = [
    _ab("Warlord", ["Enrage +2"]),
    _ab("Shieldbearer", ["Bolster +2"]),
    _ab("Healer", ["Invigorate +3"]),
    _ab("Hexer", ["Weaken 1", "Panic 1", "Drain 1"]),
    _ab("Taunter", ["Inciter 1"]),
    _ab("Slayer", ["Fight Valor +2"], power=1),
    _ab("Show-off", ["Enrage Self +3"]),
    _ab("Banner", ["Score: Bolster Valor +1"], kind="location"),
    _ab("Earthshaper", ["Geomancy 1"], power=1, defense=2, life=3),
    _ab("Necromancer", ["Thanatomancy"]),
    _ab("Flanker", ["Blade: Flanking 3"]),
    _ab("Underdog", ["Blade: Heroics 3"]),
    _ab("Wolf", ["Blade: Pack"]),
    _ab("Stubborn", ["Blade: Stalwart"]),
    _ab("Hexblade", ["Blade: Weaken 2"]),
    _ab("Silencer", ["Nullify"]),
    _ab("Valor Silencer", ["Nullify Valor"]),
    _ab("Conqueror", ["Dominate"]),
    _ab("Dynamo", ["Energize 2"]),
    _ab("Channeler", ["Channel 1"]),
    _ab("Valor Channeler", ["Channel Valor 2"]),
    _ab("Urn", ["Vessel 5"], power=1, defense=2, life=2),
    _ab("Troll", ["Regenerate"], power=1, defense=2, life=2),
    _ab("Ghost", ["Fade"]),
    _ab("Detonator", ["Detonate"]),
    _ab("Berserker", ["Bloodthirsty"]),
    _ab("Hermit", ["Loner"]),
    _ab("Avenger Dragon", ["Blade: Payback"]),
    _ab("Mauler", ["Blade: Ferocity"]),
    _ab("Sapper", ["Blade: Demolish"]),
    _ab("Siren", ["Blade: Lure"]),
    _ab("Ghoul", ["Blade: Scare"]),
    _ab("Bouncer", ["Blade: Expel"]),
    _ab("Captain", ["Blade: Advance"]),
    _ab("Skirmisher", ["Blade: Skirmish"]),
    _ab("Blinker", ["Blade: Teleport"]),
    _ab("Trickster", ["Blade: Swap"]),
    _ab("Inquisitor", ["Blade: Purge"]),
    _ab("Gravedigger", ["Blade: Raise"]),
    _ab("Cultist", ["Blade: Appease"]),
    _ab("Bomber", ["Blade: Bomb 2"]),
    _ab("Reinforcement", ["Reinforce Valor"]),
    _ab("Phoenix", ["Respawn 2"], cost=6),
    _ab("Guard", ["Bodyguard"], defense=4, life=6),
    _ab("Crusher", ["Relentless"], power=3),
    _ab("Hellion", ["Hell's Fury"], lineage="Hellbred"),
    _ab("Imp", [], lineage="Hellbred"),
    _ab("Mimic", ["Copy"]),
    _ab("Lucky", ["Fortunate 2"], power=3),
    _ab("Raider", ["Blade: Assault 2"]),
    _ab("Sniper", ["Blade: Warpstrike 2"]),
    _ab("Charger", ["Charge 2"]),
    _ab("Lurker", ["Ambush 2"]),
    _ab("Answerer", ["Strikeback 2"]),
    _ab("Zealot", ["Comes into play: Purge"]),
    _ab("Martyr", ["Comes into play: Appease"], cost=1),
    _ab("Reborn", ["Reincarnate"], power=1, defense=2, life=2),
    _ab("Banshee", ["Blade: Wail"], cost=5),
]


def catalog() -> Catalog:
    cat = Catalog.builtin()
    for m in TEST_MINIS + ABILITY_MINIS:
        cat.add(MiniatureDef.from_dict(m))
    return cat


def position(warbands: Mapping[str, Sequence[str]],
             where: Mapping[str, str] | None = None, *, turn: int = 2,
             phase: Phase = Phase.INITIATIVE, active: str | None = None,
             first: str | None = None, index: int | None = None,
             rolls: tuple[int, int] = (4, 4), spawn_points: int = 0,
             turns_won: tuple[int, int] = (0, 0)) -> State:
    """A position: ``where`` maps refs to a cell or a zone name."""
    game = Game(Board.standard(), catalog(), warbands)
    s = new_state(game)
    s.turn = turn
    s.turns_won = list(turns_won)
    for ref, spot in (where or {}).items():
        g = game.gid(ref)
        if spot in ("reserves", "graveyard", "removed"):
            s.zone[g] = Zone(spot)
        else:
            s.zone[g], s.cell[g] = Zone.DREAMSCAPE, game.board.index(spot)
    s.phase = phase
    if phase is not Phase.INITIATIVE:
        s.active = active
        s.first_player = first or active
        s.rolls = rolls
    if phase is Phase.ACTION:
        s.action_index = index or 1
    if phase is Phase.SPAWN:
        assert active is not None
        s.spawn_points[0 if active == "p1" else 1] = spawn_points
        p = 0 if active == "p1" else 1
        s.spawn_start_cells = frozenset(s.cell[g] for g in game.owned[p]
                                        if s.cell[g] >= 0 and game.creature[g])
    return s


def action_phase(warbands, where, player="p1", first=None, index=1, **kw) -> State:
    return position(warbands, where, phase=Phase.ACTION, active=player,
                    first=first or player, index=index, **kw)


def rejects(state: State, action, code: str) -> RulesError:
    """Assert ``action`` is refused with ``code`` and leaves ``state`` as it was."""
    before = state.key()
    try:
        apply(state, action)
    except RulesError as exc:
        assert exc.code == code, f"expected {code}, got {exc.code}: {exc.message}"
        assert state.key() == before, "a rejected action changed the state"
        return exc
    raise AssertionError(f"{action} was accepted; expected {code}")


def play(state: State, *acts) -> tuple[State, list]:
    events: list = []
    for a in acts:
        state, ev = apply(state, a)
        events += ev
    return state, events


def where(state: State, ref: str) -> str | None:
    g = state.game.gid(ref)
    c = state.cell[g]
    return state.game.board.cell_names[c] if c >= 0 else state.zone[g].value


__all__ = ["Mode", "action_phase", "catalog", "play", "position", "rejects", "where"]
