"""The rules core: ``new_state``, ``apply`` and ``legal_actions``. Pure: dice come in as
actions (``Initiative``, ``Dice``, ``D6``); the referee says what each roll means.

A game: both players roll a d6 for the initiative (adding their unspent recruitment
points; a tie is rolled again) and the winner says who is first; the last player, then
the first, deploys. Five rounds follow. In a round, both players choose a command card
in secret; the cards are revealed together and resolved one player at a time, by
strategy (bold before steady before devious before bold, slow last, the first player
first on a tie): the battle ability if wanted, then as many activations as the card
gives, each a disk not yet activated and not pinned that moves, shoots, casts, holds or
comes from the reserve. Cards are chosen again until every disk on the battlefield is
pinned or activated, or no one holds a card; then the melee, then the end of the round
(tokens but wounds removed, command cards back in hand). A player with no disk on the
battlefield loses at once; after the fifth round the score decides (``scoring.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from table.system import Event

from . import combat, moves, scoring
from .actions import (
    D6,
    Action,
    Cast,
    Command,
    Deploy,
    Deployed,
    Dice,
    Done,
    Empower,
    First,
    Hold,
    Initiative,
    Move,
    Reinforce,
    Shoot,
    Strike,
)
from .errors import RulesError
from .game import Game
from .stack import diameter, is_pinned, land, pinned_by, pinned_refs
from .state import (
    CHOOSE,
    DEPLOY,
    FIELD,
    FIRST,
    INITIATIVE,
    MELEE,
    OVER,
    PLAYERS,
    RESOLVE,
    ROUNDS,
    Disk,
    Shot,
    Side,
    State,
    other,
)

# Which strategy resolves before which (slow: after all).
BEATS = {"bold": "steady", "steady": "devious", "devious": "bold"}


def new_state(game: Game) -> State:
    disks = {}
    sides = {}
    for p in PLAYERS:
        army = game.armies[p]
        for i, name in enumerate(army.disks):
            disks[f"{p}#{i}"] = Disk(f"{p}#{i}", p, name)
        sides[p] = Side(hand=list(army.commands), unspent=army.unspent)
    return State(game, disks, sides)


def _refuse(code: str, a: Action, why: str) -> RulesError:
    return RulesError(code, f"{a}: {why}")


def _disk(s: State, a: Action, ref: str, owner: str | None = None) -> Disk:
    d = s.disks.get(ref)
    if d is None:
        raise _refuse("no_disk", a, f"there is no disk {ref}")
    if owner is not None and d.player != owner:
        raise _refuse("not_yours", a, f"{ref} is not {owner}'s")
    return d


# -- the opening ------------------------------------------------------------------------
def _initiative(s: State, a: Initiative, ev: list[Event]) -> None:
    if s.phase != INITIATIVE:
        raise _refuse("phase", a, "the initiative has been rolled")
    side = s.sides[a.player]
    if side.initiative is not None:
        raise _refuse("rolled", a, f"{a.player} has rolled for the initiative already")
    side.initiative = a.number
    ev.append(Event("initiative_roll", {"player": a.player, "roll": a.number,
                                        "total": a.number + side.unspent}))
    rolls = {p: s.sides[p].initiative for p in PLAYERS}
    if any(r is None for r in rolls.values()):
        return
    totals = {p: (rolls[p] or 0) + s.sides[p].unspent for p in PLAYERS}
    for p in PLAYERS:
        s.sides[p].initiative = None
    if totals["p1"] == totals["p2"]:
        ev.append(Event("initiative_tie", {"total": totals["p1"]}))
        return
    s.active = max(PLAYERS, key=lambda p: totals[p])
    s.phase = FIRST
    ev.append(Event("initiative_won", {"player": s.active, "totals": totals}))


def _first(s: State, a: First, ev: list[Event]) -> None:
    if s.phase != FIRST or a.player != s.active:
        raise _refuse("phase", a, f"the first player is chosen by the initiative's "
                      f"winner after the roll ({s.active} now)" if s.phase == FIRST
                      else "the first player is not being chosen now")
    s.first = a.who
    s.phase, s.active = DEPLOY, other(a.who)  # the last player deploys first
    ev.append(Event("first_player", {"player": a.who}))


def _deploying(s: State, a: Action) -> None:
    if s.phase == DEPLOY and a.player == s.active:
        return
    why = (f"{s.active} is deploying now" if s.phase == DEPLOY
           else "the disks are deployed after the initiative" if s.phase in (INITIATIVE, FIRST)
           else "deployment is over")
    raise _refuse("phase", a, why)


def _deploy(s: State, a: Deploy, ev: list[Event]) -> None:
    _deploying(s, a)
    d = _disk(s, a, a.disk, a.player)
    why = moves.placing_refusal(s, d, a.x, a.y)
    if why:
        raise _refuse("placement", a, why)
    land(s, d, a.x, a.y)
    ev.append(Event("deployed", {"disk": d.ref, "at": [a.x, a.y]}))


def _deployed(s: State, a: Deployed, ev: list[Event]) -> None:
    _deploying(s, a)
    heroes = [d.ref for d in s.in_reserve(a.player)
              if s.game.catalog.disk(d.name).hero]
    if heroes:
        raise _refuse("heroes", a, f"every hero is deployed: {', '.join(heroes)} "
                      "is still in the reserve")
    s.sides[a.player].deployed = True
    ev.append(Event("deployment_done", {"player": a.player}))
    if a.player != s.first:
        s.active = s.first
    else:
        _start_round(s, ev)


# -- rounds -------------------------------------------------------------------------------
def _start_round(s: State, ev: list[Event]) -> None:
    s.round += 1
    ev.append(Event("round", {"round": s.round}))
    if combat.eliminated(s, ev):
        return
    _choose_again(s, ev)


def _choose_again(s: State, ev: list[Event]) -> None:
    s.revealed = {}
    s.order = ()
    if not any(s.sides[p].hand for p in PLAYERS) or _all_spent(s):
        _to_melee(s, ev)
        return
    s.phase = CHOOSE
    s.active = next(p for p in (s.first, other(s.first)) if s.sides[p].hand)


def _all_spent(s: State) -> bool:
    """Every disk on the battlefield is activated or pinned."""
    pinned = pinned_refs(s)
    return all(d.activated or d.ref in pinned for d in s.on_field())


def _command(s: State, a: Command, ev: list[Event]) -> None:
    if s.phase != CHOOSE:
        raise _refuse("phase", a, "command cards are not being chosen now")
    side = s.sides[a.player]
    if side.chosen is not None:
        raise _refuse("chosen", a, f"{a.player} has chosen a card already")
    card = s.game.catalog.command(a.card)
    if card is None or card.name not in side.hand:
        held = ", ".join(s.game.catalog.commands[c].code for c in side.hand) or "none"
        raise _refuse("card", a, f"{a.player} holds no {a.card} (in hand: {held})")
    side.chosen = card.name
    ev.append(Event("command_chosen", {"player": a.player}))
    waiting = [p for p in PLAYERS if s.sides[p].hand and s.sides[p].chosen is None]
    if waiting:
        s.active = waiting[0]
        return
    # Both have chosen: revealed together, then resolved in strategy order.
    for p in PLAYERS:
        sd = s.sides[p]
        if sd.chosen is not None:
            s.revealed[p] = sd.chosen
            sd.hand.remove(sd.chosen)
            sd.chosen = None
    s.order = resolution_order(s)
    ev.append(Event("commands_revealed", {"cards": dict(s.revealed),
                                          "order": list(s.order)}))
    _begin_card(s, 0, ev)


def resolution_order(s: State) -> tuple[str, ...]:
    players = [p for p in (s.first, other(s.first)) if p in s.revealed]
    if len(players) < 2:
        return tuple(players)
    first, second = players
    cat = s.game.catalog.commands
    a, b = cat[s.revealed[first]].strategy, cat[s.revealed[second]].strategy
    if a == "slow" and b != "slow":
        return (second, first)
    if b == "slow" or a == b or BEATS[a] == b:
        return (first, second)
    return (second, first)


def _begin_card(s: State, i: int, ev: list[Event]) -> None:
    if i >= len(s.order):
        for p, name in s.revealed.items():
            s.sides[p].discard.append(name)
        _choose_again(s, ev)
        return
    p = s.order[i]
    card = s.game.catalog.commands[s.revealed[p]]
    s.phase, s.active = RESOLVE, p
    s.activations, s.empower = card.activations, card.empower
    ev.append(Event("resolving", {"player": p, "card": card.name,
                                  "activations": card.activations}))
    _maybe_finish(s, ev)


def _can_activate(s: State, p: str) -> bool:
    if s.activations <= 0:
        return False
    if s.in_reserve(p):
        return True
    pinned = pinned_refs(s)
    return any(not d.activated and d.ref not in pinned for d in s.on_field(p))


def _maybe_finish(s: State, ev: list[Event]) -> None:
    """The card's player has nothing left to do with it: the next card."""
    p = s.active
    if s.phase != RESOLVE or s.shot is not None or s.danger is not None:
        return
    can_empower = s.empower > 0 and any(not d.empowered for d in s.on_field(p))
    if not _can_activate(s, p) and not can_empower:
        _begin_card(s, s.order.index(p) + 1, ev)


def _done(s: State, a: Done, ev: list[Event]) -> None:
    _resolving(s, a)
    ev.append(Event("card_done", {"player": a.player, "unused": s.activations}))
    s.activations = s.empower = 0
    _begin_card(s, s.order.index(a.player) + 1, ev)


def _resolving(s: State, a: Action) -> None:
    if s.phase != RESOLVE or a.player != s.active:
        raise _refuse("phase", a, f"{s.active} is resolving a command card now"
                      if s.phase == RESOLVE else "no command card is being resolved")
    if s.shot is not None or s.danger is not None:
        raise _refuse("dice", a, "the dice are awaited first")


def _activating(s: State, a: Action, ref: str, from_reserve: bool = False) -> Disk:
    _resolving(s, a)
    if s.activations <= 0:
        raise _refuse("activations", a, "the command card has no activation left")
    d = _disk(s, a, ref, a.player)
    if from_reserve:
        return d
    if d.place != FIELD:
        raise _refuse("not_on_field", a, f"{ref} ({d.name}) is not on the battlefield")
    if d.activated:
        raise _refuse("activated", a, f"{ref} ({d.name}) has been activated this round")
    if is_pinned(s, d):
        raise _refuse("pinned", a, f"{ref} ({d.name}) is pinned")
    return d


def _spend(s: State, d: Disk) -> None:
    d.activated = True
    s.activations -= 1


def _move(s: State, a: Move, ev: list[Event]) -> None:
    d = _activating(s, a, a.disk)
    why = moves.move_refusal(s, d, a.x, a.y)
    if why:
        raise _refuse("move", a, why)
    before = (d.x, d.y)
    land(s, d, a.x, a.y)
    moves.flipped(d, before, diameter(s, d))
    _spend(s, d)
    pinned = pinned_by(s, d)
    ev.append(Event("moved", {"disk": d.ref, "from": list(before), "to": [a.x, a.y],
                              "pins": [b.ref for b in pinned]}))
    impact = s.game.catalog.disk(d.name).number("impact")
    if impact:
        for b in pinned:
            combat.deal(s, b, impact, "physical", ev, impact=True)
        if combat.eliminated(s, ev):
            return
    _after_landing(s, d, ev)


def _after_landing(s: State, d: Disk, ev: list[Event]) -> None:
    k = s.game.catalog.disk(d.name)
    if moves.dangerous(s, d) and not k.has("strider") and d.place == FIELD:
        s.danger = d.ref
        ev.append(Event("dangerous", {"disk": d.ref}))
        return
    _maybe_finish(s, ev)


def _reinforce(s: State, a: Reinforce, ev: list[Event]) -> None:
    d = _activating(s, a, a.disk, from_reserve=True)
    why = moves.placing_refusal(s, d, a.x, a.y)
    if why:
        raise _refuse("placement", a, why)
    land(s, d, a.x, a.y)
    _spend(s, d)
    ev.append(Event("reinforced", {"disk": d.ref, "at": [a.x, a.y]}))
    _after_landing(s, d, ev)


def _hold(s: State, a: Hold, ev: list[Event]) -> None:
    d = _activating(s, a, a.disk)
    _spend(s, d)
    ev.append(Event("held", {"disk": d.ref}))
    _maybe_finish(s, ev)


def _shoot(s: State, a: Shoot, ev: list[Event]) -> None:
    d = _activating(s, a, a.disk)
    t = s.disks.get(a.target)
    why = combat.shot_refusal(s, d, t)
    if why or t is None:
        raise _refuse("target", a, why or "no such target")
    k = s.game.catalog.disk(d.name)
    assert k.ranged is not None
    _spend(s, d)
    s.shot = Shot(a.player, d.ref, t.ref, combat.range_band(s, d, t),
                  combat.dice_at(s, d, t), strength_d6=k.ranged.strength is None)
    ev.append(Event("shoots", {"disk": d.ref, "target": t.ref, "band": s.shot.band,
                               "dice": s.shot.dice}))


def _cast(s: State, a: Cast, ev: list[Event]) -> None:
    d = _activating(s, a, a.disk)
    t = s.disks.get(a.target)
    why = combat.cast_refusal(s, d, t)
    if why or t is None:
        raise _refuse("target", a, why or "no such target")
    _spend(s, d)
    ev.append(Event("casts", {"disk": d.ref, "target": t.ref}))
    combat.deal(s, t, s.game.catalog.disk(d.name).number("magic"), "arcane", ev)
    if not combat.eliminated(s, ev):
        _maybe_finish(s, ev)


def _empower(s: State, a: Empower, ev: list[Event]) -> None:
    _resolving(s, a)
    if s.empower <= 0:
        raise _refuse("empower", a, "the command card has no empowering left to give")
    d = _disk(s, a, a.disk, a.player)
    if d.place != FIELD or d.empowered:
        raise _refuse("empower", a, f"{d.ref} is not on the battlefield" if d.place != FIELD
                      else f"{d.ref} is empowered already")
    d.empowered = True
    s.empower -= 1
    ev.append(Event("empowered", {"disk": d.ref}))
    _maybe_finish(s, ev)


# -- dice --------------------------------------------------------------------------------
def _dice(s: State, a: Dice, ev: list[Event]) -> None:
    sh = s.shot
    if sh is None or sh.step not in ("dice", "scatter"):
        raise _refuse("no_roll", a, "no battle dice are awaited")
    if a.player != sh.player or len(a.faces) != sh.dice:
        raise _refuse("dice", a, f"{sh.player} rolls {sh.dice} battle dice")
    target = sh.target if sh.step == "dice" else sh.scatter_target
    assert target is not None
    hits = tuple((target, f) for f in a.faces if f in ("hit", "critical")
                 and (f == "critical" or sh.band != "siege"))
    ev.append(Event("battle_dice", {"disk": sh.attacker, "against": target,
                                    "faces": list(a.faces)}))
    sh.hits += hits
    scatters = a.faces.count("scatter") if sh.step == "dice" else 0
    if scatters:
        near = combat.scatter_target(s, s.disks[sh.attacker], s.disks[sh.target])
        if near is not None:
            sh.step, sh.dice, sh.scatter_target = "scatter", scatters, near.ref
            ev.append(Event("scatter", {"disk": near.ref, "dice": scatters}))
            return
    if sh.strength_d6 and sh.hits:
        sh.step, sh.dice = "strength", len(sh.hits)
        return
    _land_hits(s, [None] * len(sh.hits), ev)


def _d6(s: State, a: D6, ev: list[Event]) -> None:
    sh = s.shot
    if sh is not None and sh.step == "strength":
        if a.player != sh.player or len(a.numbers) != sh.dice:
            raise _refuse("dice", a, f"{sh.player} rolls {sh.dice} d6 for the damage")
        _land_hits(s, list(a.numbers), ev)
        return
    if s.danger is not None:
        d = s.disks[s.danger]
        if a.player != d.player or len(a.numbers) != 1:
            raise _refuse("dice", a, f"{d.player} rolls one d6 for dangerous terrain")
        types = moves.dangerous(s, d)
        s.danger = None
        ev.append(Event("danger_roll", {"disk": d.ref, "roll": a.numbers[0]}))
        for dtype in types[:1]:
            combat.deal(s, d, a.numbers[0], dtype, ev)
        if not combat.eliminated(s, ev):
            _maybe_finish(s, ev)
        return
    raise _refuse("no_roll", a, "no d6 is awaited")


def _land_hits(s: State, strengths: list[int | None], ev: list[Event]) -> None:
    sh = s.shot
    assert sh is not None
    k = s.game.catalog.disk(s.disks[sh.attacker].name)
    assert k.ranged is not None
    s.shot = None
    for (ref, face), n in zip(sh.hits, strengths, strict=True):
        t = s.disks[ref]
        if t.place != FIELD:
            continue
        combat.deal(s, t, n if n is not None else k.ranged.strength or 0, k.ranged.type, ev)
        if face == "critical" and t.place == FIELD and not t.activated:
            t.activated = True
            ev.append(Event("activation_token", {"disk": t.ref}))
    if not combat.eliminated(s, ev):
        _maybe_finish(s, ev)


# -- the melee and the end of a round ----------------------------------------------------------
def _to_melee(s: State, ev: list[Event]) -> None:
    s.phase, s.order, s.activations, s.empower = MELEE, (), 0, 0
    ev.append(Event("melee", {"engagements": [[x.ref, y.ref]
                                              for x, y in combat.engagements(s)]}))
    _melee_next(s, ev)


def _melee_next(s: State, ev: list[Event]) -> None:
    waiting = combat.choosers(s)
    if waiting:
        s.active = waiting[0].player
        return
    combat.melee(s, ev)
    if combat.eliminated(s, ev):
        return
    _end_round(s, ev)


def _strike(s: State, a: Strike, ev: list[Event]) -> None:
    if s.phase != MELEE:
        raise _refuse("phase", a, "the melee is not being fought now")
    waiting = combat.choosers(s)
    d = _disk(s, a, a.disk, a.player)
    if not waiting or waiting[0] is not d:
        nxt = f"{waiting[0].ref} is to choose now" if waiting else "no choice is awaited"
        raise _refuse("strike", a, nxt)
    options = combat.melee_options(s, d)
    if a.target not in [o.ref for o in options]:
        raise _refuse("strike", a, f"{d.ref} fights {', '.join(o.ref for o in options)}")
    s.strikes[d.ref] = a.target
    ev.append(Event("strike_chosen", {"disk": d.ref, "target": a.target}))
    _melee_next(s, ev)


def _end_round(s: State, ev: list[Event]) -> None:
    for d in s.disks.values():
        d.activated = d.empowered = False
        d.damage = 0
    for p in PLAYERS:
        sd = s.sides[p]
        sd.hand += sd.discard
        sd.discard = []
        sd.hand.sort(key=lambda c: list(s.game.catalog.commands).index(c))
    ev.append(Event("round_end", {"round": s.round}))
    if s.round >= ROUNDS:
        scoring.finish(s, ev)
        return
    _start_round(s, ev)


_DISPATCH: Mapping[type, Callable[[State, object, list[Event]], None]] = {
    Initiative: _initiative, First: _first, Deploy: _deploy, Deployed: _deployed,
    Command: _command, Move: _move, Shoot: _shoot, Cast: _cast, Hold: _hold,
    Reinforce: _reinforce, Empower: _empower, Done: _done, Dice: _dice, D6: _d6,
    Strike: _strike}  # type: ignore[dict-item]


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened; ``RulesError`` and no change otherwise."""
    if s.phase == OVER:
        raise _refuse("over", a, "the game is over")
    fn = _DISPATCH.get(type(a))
    if fn is None:
        raise RulesError("unknown", f"{a!r} is not a Diskwars action")
    if a.player not in PLAYERS:
        raise _refuse("player", a, "the players are p1 and p2")
    new = s.clone()
    ev: list[Event] = []
    fn(new, a, ev)
    return new, ev


# -- what may be done now (a sample where disks go anywhere) -------------------------------------
def awaiting_dice(s: State) -> bool:
    return s.phase == INITIATIVE or s.shot is not None or s.danger is not None


def legal_actions(s: State) -> list[Action]:
    """What a player may do now, in a stable order: every choice, and for a disk put
    down or flipped a few of the points it may go to (``moves.spots``; a person may
    choose any other). Empty while dice are awaited and once the game is over."""
    if s.phase == OVER or awaiting_dice(s):
        return []
    if s.phase == FIRST:
        return [First(s.active, "p1"), First(s.active, "p2")]
    if s.phase == DEPLOY:
        p = s.active
        out: list[Action] = []
        for d in sorted(s.in_reserve(p), key=lambda d: d.ref):
            out += [Deploy(p, d.ref, x, y) for x, y in moves.zone_spots(s, d)]
        if not any(s.game.catalog.disk(d.name).hero for d in s.in_reserve(p)):
            out.append(Deployed(p))
        return out
    if s.phase == CHOOSE:
        return [Command(p, s.game.catalog.commands[c].code) for p in PLAYERS
                for c in s.sides[p].hand if s.sides[p].chosen is None]
    if s.phase == MELEE:
        waiting = combat.choosers(s)
        if not waiting:
            return []
        d = waiting[0]
        return [Strike(d.player, d.ref, o.ref) for o in combat.melee_options(s, d)]
    p = s.active
    out = []
    if s.activations > 0:
        pinned = pinned_refs(s)
        mine = sorted((d for d in s.on_field(p) if not d.activated and d.ref not in pinned),
                      key=lambda d: d.ref)
        for d in mine:
            out += [Move(p, d.ref, x, y) for x, y in moves.spots(s, d)]
            k = s.game.catalog.disk(d.name)
            for t in sorted(s.on_field(), key=lambda t: t.ref):
                if t.player != p and k.ranged is not None \
                        and combat.shot_refusal(s, d, t) is None:
                    out.append(Shoot(p, d.ref, t.ref))
                if t.player != p and k.number("magic") \
                        and combat.cast_refusal(s, d, t) is None:
                    out.append(Cast(p, d.ref, t.ref))
            out.append(Hold(p, d.ref))
        for d in sorted(s.in_reserve(p), key=lambda d: d.ref):
            out += [Reinforce(p, d.ref, x, y) for x, y in moves.zone_spots(s, d)]
    if s.empower > 0:
        out += [Empower(p, d.ref) for d in sorted(s.on_field(p), key=lambda d: d.ref)
                if not d.empowered]
    out.append(Done(p))
    return out
