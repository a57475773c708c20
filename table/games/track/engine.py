"""The rules engine's front door: ``new_state``, ``legal_actions`` and ``apply``. Pure:
the state is a value, ``apply`` returns a new one and never changes its input, and the
die and the luck deck's draws come in as actions (``RollDie``, ``Drew``) so a game
replays from its log. (What a roll or a card means is the referee's ``from_faces``.)"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from table.system import Event

from . import luck, meadow
from .actions import Action, Advance, Draw, Drew, Graze, Luck, Pass, RollDie
from .errors import RulesError
from .state import HOME, MEADOW, PLAYERS, SPACES, State, other


def new_state(pawns: Mapping[str, int]) -> State:
    """A game with ``pawns[p]`` pawns for each player, every one off the track."""
    refs = tuple(f"{p}#{i}" for p in PLAYERS for i in range(pawns[p]))
    return State(refs, (None,) * len(refs), spots=(None,) * len(refs), luck=luck.new_deck())


def legal_actions(s: State) -> list[Action]:
    """The actions the active player may take now, in a stable order: the six rolls
    before the die is cast (or, while a luck card is drawn, each card the deck may
    give), then each pawn's move, then a few grazing spots for each pawn home (any other
    spot the rules allow is as legal: ``meadow``), or a pass; then playing a luck card
    held, and drawing one on a 1."""
    if s.winner:
        return []
    p = s.active
    if s.drawing and s.luck is not None:  # the deck's turn: each card it may give
        deck = luck.ready(s.luck)
        return [Drew(p, code) for code in (deck.draw_pile if deck else ())]
    if s.roll is None:
        return [RollDie(p, d) for d in range(1, 7)]
    out: list[Action] = []
    for ref, at in zip(s.pawns, s.where, strict=True):
        if not ref.startswith(p):
            continue
        if at is None and s.roll == 6:
            out.append(Advance(p, ref, SPACES[0]))
        elif at in SPACES and at != HOME:
            out.append(Advance(p, ref, SPACES[min(5, SPACES.index(at) + s.roll)]))
    for ref, at in zip(s.pawns, s.where, strict=True):
        if ref.startswith(p) and at == HOME:
            out += [Graze(p, ref, x, y) for x, y in meadow.spots(s, ref)]
    out = out or [Pass(p)]
    if s.luck is not None and s.hand(p) is not None:
        out.append(Luck(p))
    if s.luck is not None and s.roll == 1 and s.hand(p) is None and luck.ready(s.luck):
        out.append(Draw(p))
    return out


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened; ``RulesError`` and no change otherwise."""
    if isinstance(a, Graze):
        return _graze(s, a)
    legal = legal_actions(s)
    if a not in legal:
        raise RulesError("not_legal", f"{a} is not allowed now (legal: "
                         + ", ".join(str(x) for x in legal[:6]) + ")")
    if isinstance(a, RollDie):
        return replace(s, roll=a.die), [Event("rolled", {"player": a.player, "die": a.die})]
    if isinstance(a, (Draw, Drew, Luck)):
        return _luck(s, a)
    if isinstance(a, Pass):
        return (replace(s, roll=None, active=other(s.active)),
                [Event("passed", {"player": a.player})])
    where = list(s.where)
    where[s.pawns.index(a.pawn)] = a.to
    new = replace(s, where=tuple(where), roll=None, active=other(s.active))
    return _maybe_won(new, a.player, [Event("advanced", {"pawn": a.pawn, "to": a.to})])


def _luck(s: State, a: Draw | Drew | Luck) -> tuple[State, list[Event]]:
    """A luck card drawn in place of a move, given by the deck, or played."""
    assert s.luck is not None  # listed only with a deck
    i = PLAYERS.index(a.player)
    hands = list(s.hands)
    if isinstance(a, Draw):
        return replace(s, roll=None, drawing=True), [Event("draws", {"player": a.player})]
    if isinstance(a, Drew):
        deck = luck.ready(s.luck)
        assert deck is not None
        hands[i] = a.card
        return (replace(s, luck=deck.take(a.card), hands=(hands[0], hands[1]),
                        drawing=False, active=other(s.active)),
                [Event("drew", {"player": a.player, "card": a.card})])
    code = hands[i]
    assert code is not None and s.roll is not None
    hands[i] = None
    roll = s.roll + luck.value(code)
    return (replace(s, luck=s.luck.to_discard(code), hands=(hands[0], hands[1]), roll=roll),
            [Event("lucky", {"player": a.player, "card": code, "value": luck.value(code),
                             "roll": roll})])


def _graze(s: State, a: Graze) -> tuple[State, list[Event]]:
    if s.winner:
        raise RulesError("over", f"{a}: the game is over")
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: it is {s.active}'s turn")
    why = meadow.refusal(s, a.pawn, a.x, a.y)
    if why:
        raise RulesError("not_legal", f"{a}: {why}")
    i = s.pawns.index(a.pawn)
    where, spots = list(s.where), list(s.spots or (None,) * len(s.pawns))
    where[i], spots[i] = MEADOW, (a.x, a.y)
    new = replace(s, where=tuple(where), spots=tuple(spots), roll=None, active=other(s.active))
    return _maybe_won(new, a.player, [Event("grazed", {"pawn": a.pawn, "x": a.x, "y": a.y})])


def _maybe_won(new: State, player: str, events: list[Event]) -> tuple[State, list[Event]]:
    mine = [w for r, w in zip(new.pawns, new.where, strict=True) if r.startswith(player)]
    if all(w in (HOME, MEADOW) for w in mine):
        new = replace(new, winner=player)
        events.append(Event("game_over", {"winner": player}))
    return new, events
