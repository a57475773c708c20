"""Rules scenarios (``docs/contracts/rules-scenario.md``): a setup and a list of actions
in, one JSON-ready result out. Pure: the caller reads the file.

Two kinds of failure are kept apart, as the contract asks:

* ``ScenarioError``: the file is not a valid scenario (unknown key, unknown miniature
  name, unknown cell, malformed action). The CLI exits with status 2.
* a rejected action: reported in ``results`` and the state is left as it was.
"""

from __future__ import annotations

from typing import Any

from table.errors import ScenarioError
from table.quoting import quote

from . import actions as A
from .board import PLAYERS, Board
from .catalog import Catalog, CatalogError
from .engine import apply, new_state
from .errors import Code, RulesError, SetupError
from .game import REF_RE, Game
from .notation import NotationError, parse_action
from .state import State, Zone
from .validity import Status, describe, status

PLACEMENT_ZONES = {"reserves": Zone.RESERVES, "graveyard": Zone.GRAVEYARD,
                   "removed": Zone.REMOVED}


MAX_ACTIONS = 10_000  # a whole game is ~350 actions; more is a mistake or an attack


def _keys(obj: object, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise ScenarioError(f"{where}: expected an object, got {type(obj).__name__}")
    unknown = set(obj) - required - optional
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {sorted(unknown)}")
    missing = required - set(obj)
    if missing:
        raise ScenarioError(f"{where}: missing key(s) {sorted(missing)}")
    return obj


def _int(v: object, where: str, minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ScenarioError(f"{where}: expected a whole number >= {minimum}, got {quote(v)}")
    return v


class _Reader:
    """Turns the JSON of actions into action objects, checking names as it goes."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def cell(self, v: object, where: str) -> str:
        if not self.board.has_cell(v):
            raise ScenarioError(f"{where}: unknown cell {quote(v)}")
        return str(v)

    def mini(self, v: object, where: str) -> str:
        if not isinstance(v, str) or not REF_RE.match(v):
            raise ScenarioError(f"{where}: {quote(v)} is not a miniature reference like 'p1#0'")
        return v

    def blade(self, b: list, where: str) -> tuple[str, ...]:
        """[mini, ability] or [mini, ability, {"target": mini, "to": cell, "x": n}]: as a
        tuple (mini, ability[, target or "", to or "", x or ""])."""
        out = [self.mini(b[0], where), b[1]]
        if len(b) == 3:
            extra = _keys(b[2], where, set(), {"target", "to", "x"})
            target, to, x = extra.get("target"), extra.get("to"), extra.get("x")
            out.append(self.mini(target, f"{where}.target") if target is not None else "")
            out.append(self.cell(to, f"{where}.to") if to is not None else "")
            out.append(str(_int(x, f"{where}.x")) if x is not None else "")
        return tuple(out)

    def player(self, v: object, where: str) -> str:
        if v not in PLAYERS:
            raise ScenarioError(f"{where}: player must be 'p1' or 'p2', got {quote(v)}")
        return str(v)

    def faces(self, v: object, where: str) -> tuple[A.Face, ...]:
        if not isinstance(v, list):
            raise ScenarioError(f"{where}: roll must be a list of die faces")
        # Impossible faces (7, "crit") are the engine's bad_die_face, not a file error.
        for f in v:
            if not isinstance(f, int | str) or isinstance(f, bool):
                raise ScenarioError(f"{where}: a die face is a number or a word, got {quote(f)}")
        return tuple(v)

    def mapping(self, v: object, where: str, value: str) -> tuple[tuple[str, Any], ...]:
        if v is None:
            return ()
        if not isinstance(v, dict):
            raise ScenarioError(f"{where}: expected an object")
        out = []
        for k, x in v.items():
            ref = self.mini(k, where)
            if value == "cell":
                out.append((ref, self.cell(x, f"{where}.{k}")))
            elif value == "int":
                if isinstance(x, bool) or not isinstance(x, int):
                    raise ScenarioError(f"{where}.{k}: damage must be a whole number")
                out.append((ref, x))
            else:
                if x not in A.OUTCOMES:
                    raise ScenarioError(f"{where}.{k}: outcome must be 'disrupt' or 'destroy'")
                out.append((ref, x))
        return tuple(out)

    def action(self, raw: object, i: int) -> A.Action:
        where = f"actions[{i}]"
        if not isinstance(raw, dict) or "do" not in raw:
            raise ScenarioError(f"{where}: an action is an object with a 'do' key")
        do = raw["do"]
        if do == "initiative":
            d = _keys(raw, where, {"do", "rolls"}, {"player"})
            rolls = _keys(d["rolls"], f"{where}.rolls", {"p1", "p2"}, set())
            for p in PLAYERS:
                if isinstance(rolls[p], bool) or not isinstance(rolls[p], int):
                    raise ScenarioError(f"{where}.rolls.{p}: a die roll is a whole number")
            return A.Initiative(rolls["p1"], rolls["p2"])
        if do == "spawn":
            d = _keys(raw, where, {"do", "player", "mini", "cell"}, set())
            return A.Spawn(self.player(d["player"], where), self.mini(d["mini"], where),
                           self.cell(d["cell"], where))
        if do == "shift":
            d = _keys(raw, where, {"do", "player", "moves"}, set())
            moves = d["moves"]
            if not isinstance(moves, list) or not all(
                    isinstance(m, list) and len(m) == 2 for m in moves):
                raise ScenarioError(f"{where}.moves: a list of [mini, cell] pairs")
            return A.Shift(self.player(d["player"], where),
                           tuple((self.mini(m, where), self.cell(c, where)) for m, c in moves))
        if do == "combat":
            d = _keys(raw, where, {"do", "player", "cell", "attackers", "roll"},
                      {"damage", "blades", "outcomes", "placements", "deathblow"})
            attackers = d["attackers"]
            if not isinstance(attackers, list):
                raise ScenarioError(f"{where}.attackers: a list of miniatures")
            blades = d.get("blades", [])
            if not isinstance(blades, list) or not all(
                    isinstance(b, list) and len(b) in (2, 3) and isinstance(b[1], str)
                    and (len(b) == 2 or isinstance(b[2], dict)) for b in blades):
                raise ScenarioError(f"{where}.blades: a list of [mini, ability] or "
                                    "[mini, ability, {\"target\": mini, \"to\": cell, "
                                    "\"x\": n}]")
            deathblow = None
            if d.get("deathblow") is not None:
                db = _keys(d["deathblow"], f"{where}.deathblow", {"roll"},
                           {"damage", "outcomes", "placements"})
                deathblow = A.Deathblow(
                    self.faces(db["roll"], f"{where}.deathblow.roll"),
                    self.mapping(db.get("damage"), f"{where}.deathblow.damage", "int"),
                    self.mapping(db.get("outcomes"), f"{where}.deathblow.outcomes", "outcome"),
                    self.mapping(db.get("placements"), f"{where}.deathblow.placements", "cell"))
            return A.Combat(
                player=self.player(d["player"], where),
                cell=self.cell(d["cell"], where),
                attackers=tuple(self.mini(m, f"{where}.attackers") for m in attackers),
                roll=self.faces(d["roll"], f"{where}.roll"),
                damage=self.mapping(d.get("damage"), f"{where}.damage", "int"),
                blades=tuple(self.blade(b, f"{where}.blades") for b in blades),
                outcomes=self.mapping(d.get("outcomes"), f"{where}.outcomes", "outcome"),
                placements=self.mapping(d.get("placements"), f"{where}.placements", "cell"),
                deathblow=deathblow)
        if do == "step":
            # Any single step in its text form: the choices abilities add (targets,
            # rerolls, aims, spawn abilities, triggered choices) without a JSON shape each.
            d = _keys(raw, where, {"do", "action"}, set())
            try:
                return parse_action(d["action"])
            except NotationError as e:
                raise ScenarioError(f"{where}.action: {e}") from None
        if do == "end_phase":
            d = _keys(raw, where, {"do", "player"}, set())
            return A.EndPhase(self.player(d["player"], where))
        raise ScenarioError(f"{where}: unknown action {quote(do)}")


def load(data: object, catalog: Catalog | None = None,
         board: Board | None = None) -> tuple[Game | None, State | None, list[A.Action],
                                              dict[str, Any] | None]:
    """Read a scenario. Returns (game, state, actions, setup_error)."""
    # "notes": free text for people (a regression file names its rulebook passage there).
    doc = _keys(data, "scenario", {"setup"}, {"game", "miniatures", "actions", "map", "notes"})
    if doc.get("game", "dreamblade") != "dreamblade":
        raise ScenarioError(f"game: only 'dreamblade' is supported, got {quote(doc['game'])}")
    board = board or Board.standard()
    cat = (catalog or Catalog.builtin()).copy()
    try:
        if "miniatures" in doc:
            cat.extend_from_dicts(doc["miniatures"])
    except CatalogError as exc:
        raise ScenarioError(f"miniatures: {exc}") from None
    setup = _keys(doc["setup"], "setup", {"warbands"},
                  {"turn", "turns_won", "bonus_points", "placement"})
    warbands = _keys(setup["warbands"], "setup.warbands", set(), set(PLAYERS))
    for p, names in warbands.items():
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ScenarioError(f"setup.warbands.{p}: a list of miniature names")
        for n in names:
            if n not in cat:
                raise ScenarioError(f"setup.warbands.{p}: unknown miniature name {quote(n)}")
    reader = _Reader(board)
    raw_actions = doc.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScenarioError("actions: a list of actions")
    if len(raw_actions) > MAX_ACTIONS:
        raise ScenarioError(f"actions: {len(raw_actions)} actions; a scenario holds at most "
                            f"{MAX_ACTIONS}")
    acts = [reader.action(a, i) for i, a in enumerate(raw_actions)]
    try:
        game = Game(board, cat, warbands)
    except SetupError as exc:
        return None, None, acts, {"error": exc.code.value, "message": exc.message}
    state = new_state(game)
    state.turn = _int(setup.get("turn", 1), "setup.turn", 1)
    for key, target in (("turns_won", state.turns_won), ("bonus_points", state.bonus_points)):
        vals = _keys(setup.get(key, {}), f"setup.{key}", set(), set(PLAYERS))
        for p, v in vals.items():
            target[PLAYERS.index(p)] = _int(v, f"setup.{key}.{p}")
    placement = _keys(setup.get("placement", {}), "setup.placement", set(), set(PLAYERS))
    for p, where in placement.items():
        if not isinstance(where, dict):
            raise ScenarioError(f"setup.placement.{p}: an object of index -> cell or zone")
        for idx, spot in where.items():
            ref = f"{p}#{idx}"
            if ref not in game.by_ref:
                raise ScenarioError(f"setup.placement.{p}: no miniature {ref} in the warband")
            g = game.by_ref[ref]
            if isinstance(spot, str) and spot in PLACEMENT_ZONES:  # a list is not hashable
                state.zone[g] = PLACEMENT_ZONES[spot]
            else:
                c = board.index(reader.cell(spot, f"setup.placement.{p}.{idx}"))
                state.zone[g], state.cell[g] = Zone.DREAMSCAPE, c
    problems = status(state)
    if problems != Status.VALID:
        return game, None, acts, {"error": Code.INVALID_SETUP.value,
                                  "message": "the starting position is not valid: "
                                             + describe(problems)}
    if max(state.turns_won) >= 6:
        return game, None, acts, {"error": Code.INVALID_SETUP.value,
                                  "message": "a player has already won six turns"}
    return game, state, acts, None


def run(data: object, catalog: Catalog | None = None) -> dict[str, Any]:
    """Play a scenario; the contract's output object."""
    _game, state, acts, setup_error = load(data, catalog)
    if setup_error is not None or state is None:
        return {"setup_error": setup_error}
    results: list[dict[str, Any]] = []
    for action in acts:
        try:
            state, events = apply(state, action)
        except RulesError as exc:
            results.append({"ok": False, "error": exc.code.value, "message": exc.message})
        else:
            results.append({"ok": True, "events": [e.to_dict() for e in events]})
    return {
        "results": results,
        "state": state.to_dict(),
        "conquest": [c.to_dict() for c in state.conquest],
    }

