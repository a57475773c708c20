"""Diskwars rules scenarios (``docs/contracts/diskwars-scenarios.md``): where the game
stands (the armies, the terrain, each disk's place and tokens, and maybe a command card
being resolved), then actions in their notation, played through the rules engine; one
JSON-ready result. Pure: the caller reads the file.

A file that is not a valid scenario (unknown key, disk, card or terrain, a point off
the battlefield, text that is not an action) is a ``ScenarioError``; an action the rules
refuse is reported in ``results`` and leaves the state as it was; an army the rules do
not allow is a ``setup_error`` in the output, as for every game. In a scenario the
battlefield's first corner is at 0,0: every point is measured from it."""

from __future__ import annotations

import math
from typing import Any

from table.errors import CatalogError, NotationError, ScenarioError
from table.quoting import quote
from table.scenarios import play_steps, section, whole_number

from . import army, engine, scoring
from .actions import parse
from .catalog import FORMAT, Catalog, builtin, with_document
from .errors import SetupError
from .game import Game, make
from .stack import circle, land
from .state import CASUALTY, CHOOSE, FIELD, PLAYERS, RESERVE, RESOLVE, ROUNDS, State

MAX_ACTIONS = 10_000
_TOP = {"game", "notes", "catalog", "setup", "actions"}
_SETUP = {"forces", "commands", "terrain", "round", "first", "placement", "damage",
          "wounds", "activated", "empowered", "hand", "resolving"}


def _mm(v: object, where: str, side: float) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) \
            or not 0 <= v <= side:
        raise ScenarioError(f"{where}: millimetres from 0 to {side:g}, not {quote(v)}")
    return round(float(v), 1)


def _names(v: object, where: str, most: int = 60) -> list[str]:
    if not isinstance(v, list) or len(v) > most or not all(isinstance(n, str) for n in v):
        raise ScenarioError(f"{where}: a list of at most {most} names")
    return v


def _notes(v: object) -> None:
    ok = isinstance(v, str) or (isinstance(v, list) and all(isinstance(t, str) for t in v))
    if v is not None and (not ok or len(str(v)) > 20_000):
        raise ScenarioError("notes: text, or a list of texts")


def _catalog(d: dict[str, Any], base: Catalog | None) -> Catalog:
    cat = base or builtin()
    if "catalog" in d:
        extra = d["catalog"]
        if not isinstance(extra, dict):
            raise ScenarioError("catalog: an object of disks, commands and terrain")
        try:
            cat = with_document(cat, {**extra, "format": FORMAT})
        except CatalogError as e:
            raise ScenarioError(f"catalog: {e}") from None
    return cat


def load(data: dict[str, Any], base: Catalog | None = None
         ) -> tuple[Game | None, State | None, list[Any], dict[str, str] | None]:
    """(game, state, actions, setup_error)."""
    d = section(data, "scenario", _TOP)
    _notes(d.get("notes"))
    cat = _catalog(d, base)
    setup = section(d.get("setup"), "setup", _SETUP)
    forces = setup.get("forces")
    if not isinstance(forces, dict) or set(forces) != set(PLAYERS):
        raise ScenarioError("setup.forces: disk names for p1 and p2")
    commands = setup.get("commands", {})
    if not isinstance(commands, dict) or set(commands) - set(PLAYERS):
        raise ScenarioError("setup.commands: command card names for p1 and/or p2")
    for p in PLAYERS:
        for n in _names(forces[p], f"setup.forces.{p}"):
            if n not in cat.disks:
                raise ScenarioError(f"setup.forces.{p}: no disk named {quote(n)}")
        for c in _names(commands.get(p, []), f"setup.commands.{p}", 20):
            if c not in cat.commands:
                raise ScenarioError(f"setup.commands.{p}: no command card named {quote(c)}")
    terrain = None
    if "terrain" in setup:
        pieces = setup["terrain"]
        if not isinstance(pieces, list) or len(pieces) > 12:
            raise ScenarioError("setup.terrain: a list of at most 12 pieces")
        terrain = []
        for i, t in enumerate(pieces):
            t = section(t, f"setup.terrain[{i}]", {"name", "x", "y"})
            if t.get("name") not in cat.terrain:
                raise ScenarioError(f"setup.terrain[{i}].name: no terrain named "
                                    f"{quote(t.get('name'))}")
            terrain.append((t["name"], _mm(t.get("x"), f"setup.terrain[{i}].x",
                                           cat.battlefield),
                            _mm(t.get("y"), f"setup.terrain[{i}].y", cat.battlefield)))
    try:
        armies = {p: army.check(cat, forces[p], commands.get(p), who=f"forces.{p}")
                  for p in PLAYERS}
        game = make(cat, armies, terrain)
    except SetupError as e:
        return None, None, [], {"error": "invalid_setup", "message": str(e)}
    state = _where(game, setup)
    steps = d.get("actions", [])
    if not isinstance(steps, list) or len(steps) > MAX_ACTIONS:
        raise ScenarioError(f"actions: a list of at most {MAX_ACTIONS} steps")
    actions = []
    for i, step in enumerate(steps):
        step = section(step, f"actions[{i}]", {"do", "action", "expect"})
        if step.get("do") != "step" or not isinstance(step.get("action"), str):
            raise ScenarioError(f"actions[{i}]: {{\"do\": \"step\", \"action\": TEXT}}")
        try:
            actions.append(parse(step["action"]))
        except NotationError as e:
            raise ScenarioError(f"actions[{i}]: {e}") from None
    return game, state, actions, None


def _where(game: Game, setup: dict[str, Any]) -> State:
    """The state the setup describes: a new game (before the initiative) unless it
    places disks; then the round's command cards are chosen next, or the card
    ``resolving`` names is being resolved."""
    s = engine.new_state(game)
    if "placement" not in setup:
        for key in ("round", "first", "damage", "wounds", "activated", "empowered", "hand",
                    "resolving"):
            if key in setup:
                raise ScenarioError(f"setup.{key}: only with setup.placement (a game "
                                    "already under way)")
        return s
    s.round = whole_number(setup.get("round", 1), "setup.round", ROUNDS)
    if s.round < 1:
        raise ScenarioError("setup.round: 1 to 5")
    s.first = setup.get("first", "p1")
    if s.first not in PLAYERS:
        raise ScenarioError("setup.first: p1 or p2")
    placement = setup["placement"]
    if not isinstance(placement, dict) or len(placement) > 200:
        raise ScenarioError("setup.placement: disk -> [x, y], reserve or casualty")
    for ref, at in placement.items():  # in order: a later disk lies on an earlier one
        d = _disk(s, ref, "setup.placement")
        if at in (RESERVE, CASUALTY):
            d.place = str(at)
            continue
        if not isinstance(at, list) or len(at) != 2:
            raise ScenarioError(f"setup.placement.{ref}: [x, y], reserve or casualty")
        x, y = (_mm(v, f"setup.placement.{ref}", game.side) for v in at)
        land(s, d, x, y)
        if not game.holds(circle(s, d)):
            raise ScenarioError(f"setup.placement.{ref}: {x},{y} is not wholly on the "
                                "battlefield")
    for key in ("damage", "wounds"):
        tokens = setup.get(key, {})
        if not isinstance(tokens, dict):
            raise ScenarioError(f"setup.{key}: disk -> a count")
        for ref, n in tokens.items():
            setattr(_disk(s, ref, f"setup.{key}"), key, whole_number(n, f"setup.{key}.{ref}", 30))
    for key in ("activated", "empowered"):
        for ref in _names(setup.get(key, []), f"setup.{key}", 200):
            d = _disk(s, ref, f"setup.{key}")
            if d.place != FIELD:
                raise ScenarioError(f"setup.{key}: {ref} is not on the battlefield")
            setattr(d, key, True)
    hands = setup.get("hand", {})
    if not isinstance(hands, dict) or set(hands) - set(PLAYERS):
        raise ScenarioError("setup.hand: command card names for p1 and/or p2")
    for p, cards in hands.items():
        held = list(s.sides[p].hand)
        for c in _names(cards, f"setup.hand.{p}", 20):
            if c not in held:
                raise ScenarioError(f"setup.hand.{p}: {p} has no {quote(c)} among its "
                                    "command cards")
        s.sides[p].discard = [c for c in held if c not in cards]
        s.sides[p].hand = list(cards)
    s.phase, s.active = CHOOSE, s.first
    if "resolving" in setup:
        r = section(setup["resolving"], "setup.resolving", {"player", "card", "activations"})
        p, card = r.get("player"), r.get("card")
        if p not in PLAYERS or not isinstance(card, str) or card not in s.sides[p].hand:
            raise ScenarioError("setup.resolving: a player and a command card in its hand")
        c = game.catalog.commands[card]
        s.sides[p].hand.remove(card)
        s.phase, s.active, s.order, s.revealed = RESOLVE, p, (p,), {p: card}
        s.activations = whole_number(r.get("activations", c.activations),
                               "setup.resolving.activations", 10)
        s.empower = c.empower
    return s


def _disk(s: State, ref: object, where: str) -> Any:
    d = s.disks.get(ref) if isinstance(ref, str) else None
    if d is None:
        raise ScenarioError(f"{where}: no disk {quote(ref)} (p1#0 is p1's first)")
    return d


def run(data: dict[str, Any], base: Catalog | None = None) -> dict[str, Any]:
    game, state, actions, setup_error = load(data, base)
    if setup_error is not None or game is None or state is None:
        return {"setup_error": setup_error}
    state, results = play_steps(engine.apply, state, actions, data.get("actions", []))
    return {"results": results, "state": state.to_dict(), "points": scoring.points(state)}
