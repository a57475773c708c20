"""Warseer rules scenarios (``docs/contracts/warseer-scenarios.md``): a setup where the
game stands, then actions in their notation, played through the rules engine; one
JSON-ready result. Pure: the caller reads the file.

A file that is not a valid scenario (unknown key, unknown creature, card or hex, text
that is not an action) is a ``ScenarioError``; an action the rules refuse is reported
in ``results`` and leaves the state as it was; a warband or deck the rules do not
allow is a ``setup_error`` in the output, as for every game."""

from __future__ import annotations

from typing import Any

from table.errors import NotationError, ScenarioError
from table.quoting import quote
from table.scenarios import play_steps, section, whole_number

from . import engine
from .actions import parse
from .battlefield import Battlefield, BattlefieldError, standard_document
from .catalog import CATALOG_FORMAT, Catalog, CatalogError, read_dice
from .damage import victory_points
from .errors import SetupError
from .game import Game
from .state import FIELD, MAIN, PLAYERS, Relic, State

MAX_ACTIONS = 10_000
_TOP = {"game", "notes", "catalog", "dice", "battlefield", "setup", "actions"}
_SETUP = {"warbands", "decks", "opening", "turn", "active", "feats_left", "placement",
          "wounds", "armour", "hand", "feat_hand", "hall", "relics", "buildings"}


def _per_player(setup: dict[str, Any], key: str) -> dict[str, Any]:
    v = setup.get(key, {})
    if not isinstance(v, dict) or set(v) - set(PLAYERS):
        raise ScenarioError(f"setup.{key}: an object with p1 and/or p2")
    return v


def load(data: dict[str, Any], base: Catalog | None = None
         ) -> tuple[Game | None, State | None, list[Any], dict[str, str] | None]:
    """(game, state, actions, setup_error); ``base``: the catalog before the scenario's
    own entries (the user's, else the built-in one)."""
    d = section(data, "scenario", _TOP)
    catalog = base or Catalog.builtin()
    try:
        if "dice" in d:
            catalog = Catalog(catalog.creatures, catalog.cards, catalog.feats,
                              catalog.feat_copies, read_dice(d["dice"]))
        if "catalog" in d:
            extra = d["catalog"]
            if not isinstance(extra, dict):
                raise ScenarioError("catalog: an object of creatures, cards and feats")
            catalog = catalog.merged({**extra, "format": CATALOG_FORMAT})
    except CatalogError as e:
        raise ScenarioError(str(e)) from None
    _notes(d.get("notes"))
    battlefield = _battlefield(d.get("battlefield"))
    setup = section(d.get("setup"), "setup", _SETUP)
    wb = setup.get("warbands")
    if not isinstance(wb, dict) or set(wb) != set(PLAYERS) or not all(
            isinstance(v, list) and all(isinstance(n, str) for n in v) for v in wb.values()):
        raise ScenarioError("setup.warbands: creature names for p1 and p2")
    decks = setup.get("decks")
    if decks is not None and (not isinstance(decks, dict) or set(decks) != set(PLAYERS)):
        raise ScenarioError("setup.decks: card names for p1 and p2")
    acts = d.get("actions", [])
    if not isinstance(acts, list) or len(acts) > MAX_ACTIONS:
        raise ScenarioError(f"actions: a list of at most {MAX_ACTIONS} actions")
    actions = []
    for i, a in enumerate(acts):
        a = section(a, f"actions[{i}]", {"do", "action", "expect"})
        if "expect" in a and not isinstance(a["expect"], dict):
            raise ScenarioError(f"actions[{i}].expect: an object (the step's result and "
                                "the state after it, as far as it names them)")
        if a.get("do", "step") != "step":
            raise ScenarioError(f"actions[{i}]: do: step (a Warseer action in its notation)")
        try:
            actions.append(parse(a.get("action")))
        except NotationError as e:
            raise ScenarioError(f"actions[{i}]: {e}") from None
    # A name the catalog does not hold is a mistake in the file, as an unknown hex or card
    # elsewhere in it is (exit 2); a warband or deck the rules refuse is a setup_error.
    for p in PLAYERS:
        for n in wb[p]:
            try:
                catalog.creature(n)
            except CatalogError as e:
                raise ScenarioError(f"setup.warbands.{p}: {e}") from None
        for c in (decks or {}).get(p) or ():
            try:
                catalog.card_by_name(c)
            except CatalogError as e:
                raise ScenarioError(f"setup.decks.{p}: {e}") from None
    try:
        game = Game.make(catalog, battlefield, wb, decks)
    except SetupError as e:
        return None, None, actions, {"error": "invalid_setup", "message": str(e)}
    return game, _position(game, setup), actions, None


def _notes(v: object) -> None:
    """``notes``: text for people (the rule a scenario checks), or a list of texts."""
    texts = v if isinstance(v, list) else [v] if v is not None else []
    if not all(isinstance(x, str) for x in texts) or sum(len(x) for x in texts) > 20_000:
        raise ScenarioError("notes: text, or a list of texts (at most 20,000 characters)")


def _battlefield(v: object) -> Battlefield:
    """The standard battlefield, or the scenario's changes to its terrain:
    ``{"clear": true}`` starts from a map without terrain, ``terrain_kinds`` adds kinds
    (the battlefield file's shape), ``terrain`` sets hexes to a kind or to ``open``."""
    if v is None:
        return Battlefield.standard()
    d = section(v, "battlefield", {"clear", "terrain_kinds", "terrain"})
    doc = standard_document()
    if not isinstance(d.get("clear", False), bool):
        raise ScenarioError("battlefield.clear: true or false")
    terrain = {} if d.get("clear") else dict(doc["terrain"])
    changes = d.get("terrain", {})
    kinds = d.get("terrain_kinds", {})
    if not isinstance(changes, dict) or not isinstance(kinds, dict) or len(changes) > 500:
        raise ScenarioError("battlefield: terrain is hex -> kind, terrain_kinds name -> kind")
    for h, kind in changes.items():
        if kind == "open":
            terrain.pop(h, None)
        else:
            terrain[h] = kind
    try:
        return Battlefield.from_dict({**doc, "terrain": terrain,
                                      "terrain_kinds": {**doc["terrain_kinds"], **kinds}})
    except BattlefieldError as e:
        raise ScenarioError(f"battlefield: {e}") from None


def _position(game: Game, setup: dict[str, Any]) -> State:
    opening = setup.get("opening", False)
    if not isinstance(opening, bool):
        raise ScenarioError("setup.opening: true (the game starts before the opening) or "
                            "false")
    if opening:
        if set(setup) - {"warbands", "decks", "opening"}:
            raise ScenarioError("setup.opening: a game before its opening has only its "
                                "warbands and decks set")
        return engine.new_state(game)
    s = engine.new_state(game, opening=False)
    placement = setup.get("placement")
    if placement is None and "turn" not in setup:
        return s  # the heroes deploy first
    s.phase, s.turn = MAIN, whole_number(setup.get("turn", 1), "setup.turn", 999) or 1
    active = setup.get("active", "p1")
    if active not in PLAYERS:
        raise ScenarioError(f"setup.active: p1 or p2, not {quote(active)}")
    s.active = active
    if "feats_left" in setup:
        s.feats_left = whole_number(setup["feats_left"], "setup.feats_left",
                              len(game.catalog.feats_deck()))
    placement = placement or {}
    if not isinstance(placement, dict):
        raise ScenarioError("setup.placement: creature -> hex")
    for ref, h in placement.items():
        u = s.units.get(ref)
        if u is None:
            raise ScenarioError(f"setup.placement: no creature {quote(ref)} in the warbands")
        try:
            hx = game.battlefield.hex_named(h)
        except BattlefieldError as e:
            raise ScenarioError(f"setup.placement.{ref}: {e}") from None
        if hx in s.occupied() or not game.battlefield.standable(hx):
            raise ScenarioError(f"setup.placement.{ref}: {hx} is taken or impassable")
        s.put(ref, FIELD, hx)
    for key in ("wounds", "armour"):
        vals = setup.get(key, {})
        if not isinstance(vals, dict):
            raise ScenarioError(f"setup.{key}: creature -> count")
        for ref, n in vals.items():
            if ref not in s.units:
                raise ScenarioError(f"setup.{key}: no creature {quote(ref)}")
            setattr(s.edit(ref), key, whole_number(n, f"setup.{key}.{ref}"))
    for key in ("feat_hand", "hall"):
        for p, n in _per_player(setup, key).items():
            setattr(s.sides[p], key, whole_number(n, f"setup.{key}.{p}"))
    for p, cards in _per_player(setup, "relics").items():
        s.sides[p].relics = [_relic(game, c, p) for c in _names(cards, f"setup.relics.{p}")]
    for p, cards in _per_player(setup, "buildings").items():
        s.sides[p].buildings = [_card(game, c, "building", p)
                                for c in _names(cards, f"setup.buildings.{p}")]
    hands = _per_player(setup, "hand")
    for p in PLAYERS:
        _deal(game, s, p, hands.get(p))
    return s


def _deal(game: Game, s: State, p: str, hand: object) -> None:
    """Where ``p``'s battle deck stands: its equipped relics and built buildings came
    out of it, the hand holds ``hand`` cards (a count, or the cards by name, then known
    to the rules) and the rest is the draw pile."""
    side = s.sides[p]
    for code in [r.code for r in side.relics] + side.buildings:
        if code not in side.unseen:
            raise ScenarioError(f"setup: {p}'s battle deck has no {code} left to have "
                                "played (relics and buildings in play come from the deck)")
        side.unseen.remove(code)
    if isinstance(hand, list):
        side.known = [_card(game, c, "", p) for c in _names(hand, f"setup.hand.{p}")]
        for code in side.known:
            if side.known.count(code) > side.unseen.count(code):
                raise ScenarioError(f"setup.hand.{p}: {code} is named more times than "
                                    f"{p}'s deck holds it (relics and buildings in play "
                                    "counted)")
        side.hand = len(side.known)
    elif hand is not None:
        side.hand = whole_number(hand, f"setup.hand.{p}")
    if side.hand > len(side.unseen):
        raise ScenarioError(f"setup.hand.{p}: {side.hand} cards in hand, but {p}'s deck "
                            f"has {len(side.unseen)} left out of play")
    side.draw_pile = len(side.unseen) - side.hand


def _names(v: object, where: str) -> list[str]:
    if not isinstance(v, list) or len(v) > 20 or not all(isinstance(c, str) for c in v):
        raise ScenarioError(f"{where}: a list of card names")
    return v


def _card(game: Game, name: str, typ: str, p: str) -> str:
    try:
        card = game.catalog.card_by_name(name)
    except CatalogError as e:
        raise ScenarioError(f"setup: {p}: {e}") from None
    if typ and card.type != typ:
        raise ScenarioError(f"setup: {p}: {card.name} is a {card.type}, not a {typ}")
    return card.code


def _relic(game: Game, name: str, p: str) -> Relic:
    card = game.catalog.card(_card(game, name, "relic", p))
    return Relic(card.code, card.armour, card.uses)


def run(data: dict[str, Any], base: Catalog | None = None) -> dict[str, Any]:
    game, state, actions, setup_error = load(data, base)
    if setup_error is not None or game is None or state is None:
        return {"setup_error": setup_error}
    state, results = play_steps(engine.apply, state, actions, data.get("actions", []))
    return {"results": results, "state": state.to_dict(),
            "points": {p: victory_points(game, state, p) for p in PLAYERS}}
