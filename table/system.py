"""The game-system seam: what every game implements so that one table (the session, the
log, the dashboard, the camera, the box) can referee it without knowing its rules.

Modelled on OpenSpiel's split, with the table's needs added:

* ``GameSystem``: the static game, registered by name (``table.registry``): its title
  and rules version, its catalog, how a setup is checked, and a ``Referee`` for one game.
* ``Referee``: one game at a live table. The rules core (a state as a value, actions as
  value objects with a string form, ``apply`` that refuses with an ``ActionRefused``)
  and everything the table must be told or asked: the prompt, what randomness is needed
  (``DiceNeed``), what a camera observation means (reconciliation), how a person's
  correction applies, what a screen draws, and the game's own commands and box buttons.
* ``Table``: what a referee may do to the live session it serves (play an action, note an
  entry in the log, warn): the session implements it, so a game never touches the log or the lock.

A game is a package of its own under ``table/games/``, laid out as every other
(``docs/games.md``); nothing outside it names it. The errors a game raises are in
``table.errors``; the values the seam passes are in ``table.messages``; the helpers games
share are ``table.notation`` (an action's text) and ``table.wording`` (the names people
read).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Protocol

from table.errors import ActionRefused, CatalogError, ScenarioError, SetupRefused
from table.messages import (
    PLAYERS,
    DiceNeed,
    Event,
    Explanation,
    Intent,
    Prompt,
    Reconciliation,
    RulesEvent,
    Wording,
    check_player,
    choice,
    place_within,
    typed_roll,
)
from table.observation import Observation
from table.randomness import Face, FaceError
from table.stickers import Stickers

# What games import from the seam (``from table.system import Prompt``), wherever it is.
__all__ = ["PLAYERS", "CatalogImport", "Command", "DiceNeed", "Event", "Explanation",
           "GameSystem", "Intent", "Out", "Prompt", "Reconciliation", "Referee",
           "RulesEvent", "Table", "Wording", "check_player", "choice", "place_within",
           "typed_roll"]

# -- the session, as a referee sees it --------------------------------------------------
Out = list  # the session events a call produces, in order (``SessionEvent``s)


class Table(Protocol):
    """The live session a referee serves."""

    @property
    def state(self) -> Any: ...
    def play(self, action: Any, source: str, out: Out) -> list[Any]: ...
    def note(self, kind: str, body: dict[str, Any], source: str) -> None:
        """Write an entry in the game's log (durable before anyone hears of it)."""

    def warn(self, out: Out, message: str) -> None: ...
    def prompt_changed(self, out: Out) -> None: ...
    def after_change(self, out: Out) -> None: ...


Command = Callable[[Table, dict[str, Any], str, Out], None]


class Referee(ABC):
    """One game of one system at a live table. Stateless about the rules state (the
    session keeps it and passes it in) but it may keep the table's partial inputs (a die
    rolled for a roll-off that needs two) and what it needs across observations."""

    words: Wording
    # Which printed sticker is on which piece (the numbering the camera's readings are
    # taken by): a game whose pieces join during play (summoned minions) numbers them
    # ahead, so a table (or the demo) knows what to stick on a piece that is not out yet.
    stickers: Stickers = Stickers(MappingProxyType({}))
    # What a correction command carries: the first is the game's word for the piece (a
    # screen sends the neutral ``piece``, the session renames it), then ``to`` and any
    # extras; ``correction_places`` says to a person what ``to`` takes.
    correction_fields: ClassVar[tuple[str, ...]] = ()
    correction_places: ClassVar[str] = "where the piece stands"
    button_commands: ClassVar[Mapping[str, str]] = MappingProxyType({})  # box button -> command
    # The game's commands a player's private page may send for that player (a card
    # drawn by hand into a hidden hand); besides, it may play that player's actions.
    seat_commands: ClassVar[tuple[str, ...]] = ()
    # How to play each step (by ``Prompt.step``), for a newcomer at the table: what the
    # step is for and what to do, in a few sentences of the game's own words. The
    # session puts it on the prompt; every step a game prompts has one (the conformance
    # suite checks).
    how_to_play: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # The game's rules core (its ``engine`` module): ``apply``, ``legal_actions`` and,
    # where the game has chance, ``chance`` below call it unless a game overrides them.
    engine: ClassVar[Any] = None

    # -- the rules --------------------------------------------------------------------
    @abstractmethod
    def new_state(self) -> Any:
        """The state a game starts in."""

    def apply(self, state: Any, action: Any) -> tuple[Any, Sequence[RulesEvent]]:
        """The new state and what happened; ``ActionRefused`` with nothing changed."""
        return self._engine().apply(state, action)

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """An action from its string form (``str(action)`` gives it back);
        ``NotationError`` naming the bad part."""

    def state_dict(self, state: Any) -> dict[str, Any]:
        """The state as JSON-ready data (game records, the dashboard)."""
        return state.to_dict()

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """Every action a player may take now, in a stable order (empty while the state
        waits for randomness: see ``chance``, or once the game is over). A game whose
        pieces go anywhere lists a finite sample and says so (``lists_every_action``)."""
        return self._engine().legal_actions(state)

    # Whether ``legal_actions`` lists every legal action (the conformance suite then
    # holds that whatever is not listed is refused). A game whose pieces go anywhere (a
    # disk flipped to any point, a model walking 3.7") cannot list them: it lists a
    # finite sample, what random playouts and benches play, and sets this False; its
    # actions are checked (``check``), not looked up.
    lists_every_action: ClassVar[bool] = True

    def check(self, state: Any, action: Any) -> str | None:
        """None when ``action`` may be played now, else why not, as a person reads it.
        By default the rules are asked by applying it (nothing changes either way)."""
        try:
            self.apply(state, action)
        except ActionRefused as e:
            return str(e)
        return None

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    def chance(self, state: Any, rng: random.Random) -> Any | None:
        """When the state waits for dice or a card (a chance node): the action a fair
        roll or draw from ``rng`` makes; None when a player decides. For random playouts
        (benches, property tests); at the table the box or a person supplies it. By
        default the engine's ``chance``, else the first of ``dice_needed`` rolled with
        ``rng`` and read by ``from_faces``."""
        chance = getattr(self.engine, "chance", None)
        if chance is not None:
            return chance(state, rng)
        for need in self.dice_needed(state):
            if need.die is not None:
                faces = tuple(need.die.face(rng.randint(1, need.die.sides))
                              for _ in range(need.n))
                return self.from_faces(state, need, faces)
        return None

    def from_faces(self, state: Any, need: DiceNeed, faces: tuple[Face, ...]) -> Any | None:
        """The action ``faces`` make, rolled (or drawn) for ``need`` in ``state``: the one
        place a game says what its chance means. Given it, the seam derives the rest from
        ``dice_needed``: random playouts (``chance``), the box's rolls (``device``), and
        the dice typed in by each need's ``command`` (the session's). None: the game
        handles its chance itself."""
        return None

    def _engine(self) -> Any:
        if self.engine is None:
            raise NotImplementedError(f"{type(self).__name__} names no engine: set "
                                      "``engine`` or override the rules methods")
        return self.engine

    # -- what the table must do -------------------------------------------------------
    @abstractmethod
    def prompt(self, state: Any) -> Prompt: ...

    @abstractmethod
    def dice_needed(self, state: Any) -> tuple[DiceNeed, ...]: ...

    # -- hidden information --------------------------------------------------------------
    # ``view`` and ``prompt`` are what every screen shows (the shared one too): a game
    # with secrets keeps them out of both and says what each seat alone may see here.
    def secret(self, state: Any, action: Any) -> tuple[str, str] | None:
        """When ``action`` (about to be played in ``state``) is known to one seat alone
        (a card drawn into a hidden hand): that seat and the action as the others read
        it ("Ann draws a card"). The log keeps the whole action; screens, the event
        stream and a record exported mid-game show the others' words."""
        return None  # a hook: nothing is secret unless a game says so

    def private(self, state: Any, seat: str) -> dict[str, Any] | None:
        """What ``seat`` alone may see and do now, for its private page: ``text`` (a
        line), ``hand`` (cards as ``{"code", "label"}``), ``choices`` (made by
        ``choice``: actions only this seat may see offered) and ``dice`` (a draw this
        seat enters by hand, a ``DiceNeed``'s dict). None: nothing private."""
        return None  # a hook: nothing is private unless a game says so

    def commands(self) -> Mapping[str, Command]:
        """The game's own commands (``{"do": name, ...}``) beside the table's."""
        return {}

    def device(self, table: Table, ev: Any, out: Out) -> None:
        """A die roll or a button press from the table box (already logged). For a game
        that gives ``from_faces``, a roll answers the need it fits (``dice_needed``: whose,
        how many sides, how many dice); a roll that fits none is said and not used."""
        if not self.reads_faces() or getattr(ev, "kind", None) != "roll":
            return
        needs = [d for d in self.dice_needed(table.state) if d.die is not None]
        need = next((d for d in needs if d.player == ev.player and d.die is not None
                     and d.die.sides == ev.sides and len(ev.numbers) == d.n), None)
        if need is None or need.die is None:
            if needs:
                want = needs[0]
                what = want.label or (want.die.label_for(want.n) if want.die else want.kind)
                table.warn(out, f"a roll of {len(ev.numbers)}d{ev.sides} by {ev.player} is "
                           f"not what the table waits for ({what} for {want.player}): "
                           "roll again")
            return
        try:
            action = self.from_faces(table.state, need, tuple(map(need.die.face, ev.numbers)))
            table.play(action, "box", out)
        except (FaceError, ActionRefused) as e:
            table.warn(out, f"roll not used: {e}")
        table.after_change(out)

    def reads_faces(self) -> bool:
        """Whether this game says what its chance means in ``from_faces``."""
        return type(self).from_faces is not Referee.from_faces

    def resume_input(self, state: Any, entry: dict[str, Any]) -> None:
        """A logged entry after the last change of state, on resume: a partial input
        (noted by a command) is taken up again, so a restart loses no die."""
        return None  # a hook: nothing to do unless a game needs it

    def forget_inputs(self) -> None:
        """Drop partial inputs (the state they were for changed: an undo, a correction)."""
        return None  # a hook: nothing to do unless a game needs it

    def played(self, before: Any, after: Any, action: Any, source: str = "") -> None:
        """An action was applied (bookkeeping: pieces that may still stand on the table,
        or not stand there yet). ``source``: who played it (``camera``: the board shows
        it already)."""
        return None  # a hook: nothing to do unless a game needs it

    def announcements(self, events: Sequence[RulesEvent]) -> list[tuple[str, dict[str, Any]]]:
        """Session events the rules' events make (``score``, ``game_over``). A
        ``game_over`` carries ``winner`` (p1, p2 or draw) and, where the game scores,
        ``points`` (each player's): the session logs them as the game's ``result``."""
        return []

    # -- the camera -------------------------------------------------------------------
    @abstractmethod
    def reconcile(self, state: Any, obs: Observation) -> Reconciliation: ...

    def fits(self, state: Any, obs: Observation) -> bool:
        """The rules state already matches what the camera sees."""
        return self.reconcile(state, obs).fits

    @abstractmethod
    def diagnose(self, state: Any, obs: Observation) -> list[str]:
        """What to put back where for the board to match the rules (one line each)."""

    def settle(self, verdict: Reconciliation) -> None:
        """A verdict was acted on: pieces it found gone are forgotten."""
        return None  # a hook: nothing to do unless a game needs it

    def distinct(self, explanations: list[Explanation]) -> list[Explanation]:
        """The explanations that differ for the rules (a person chooses among them)."""
        return explanations

    def adjusted(self, state: Any, obs: Observation) -> Observation:
        """The observation with a person's overrules applied."""
        return obs

    def overrule(self, state: Any, obs: Observation) -> list[str]:
        """A person says the board is right and the camera wrong: doubt its readings
        where they disagree; returns the places (region names) overruled."""
        raise ActionRefused("this game cannot overrule the camera")

    def autoplay(self, state: Any, rng: random.Random) -> Intent | None:
        """What scripted players do next (None: the game is over). A game without
        scripted players cannot be demoed; the table plays it all the same."""
        raise NotImplementedError(f"{type(self).__name__} has no scripted players")

    # -- corrections and views ---------------------------------------------------------
    @abstractmethod
    def correct(self, state: Any, body: dict[str, Any]) -> Any:
        """A person's correction outside the rules (a piece put where it stands); a
        ``ValueError`` naming the field when it cannot apply."""

    def corrected(self, before: Any, after: Any, body: dict[str, Any]) -> None:
        """A correction was applied (bookkeeping, like ``played``)."""
        return None  # a hook: nothing to do unless a game needs it

    @abstractmethod
    def view(self, state: Any) -> dict[str, Any]:
        """What a screen draws: the map, the pieces, the score."""


@dataclass(frozen=True)
class CatalogImport:
    """What a spreadsheet import made of a file: the ``document`` to keep in the user's
    catalog folder (None: nothing worth keeping), the ``report`` to tell the person a
    line each, and whether the import succeeded (``ok``)."""

    document: dict[str, Any] | None
    report: tuple[str, ...]
    ok: bool = True


class GameSystem(ABC):
    """A game the table can referee, found by ``name`` in the registry."""

    name: ClassVar[str]  # registry key, as in setups and logs (lower case, no spaces)
    title: ClassVar[str]  # what people read
    rules_version: ClassVar[str]  # which rules text and engine revision a game record used
    # Files (scenarios, setups, logs) that name no game are this game's: they were
    # written before a second game existed. One installed game at most says so.
    files_without_a_name: ClassVar[bool] = False
    piece_word: ClassVar[str] = "piece"  # what a setup page calls one ("miniature")
    force_word: ClassVar[str] = "force"  # and a player's set of them

    @abstractmethod
    def referee(self, setup: Any, catalog: Any | None = None) -> Referee:
        """A referee for one game with this setup; ``SetupRefused`` naming the problem."""

    @abstractmethod
    def sample_forces(self) -> dict[str, list[str]]:
        """A small legal force per player (demos, tests, a first game)."""

    @abstractmethod
    def layout(self) -> dict[str, Any]:
        """The printed map as a ``tablesight-layout/1`` document (map millimetres): the
        regions the camera reads, the markers it finds the sheet by, base sizes, player
        colours."""

    @abstractmethod
    def catalog(self) -> list[dict[str, Any]]:
        """What a setup can field, for a setup page: each piece's ``name`` and what a
        player choosing needs (``cost``, ``kind``), cheapest first."""

    def user_folder(self) -> str:
        """This game's folder under the user's catalog folder, where its imports are
        written and its user files read ("" for the catalog folder itself)."""
        return self.name

    def import_catalog(self, text: str, source: str) -> CatalogImport:
        """A spreadsheet (CSV ``text``, from the file named ``source``) of the game's
        pieces, as a document ``use_user_catalog`` takes; ``CatalogError`` naming the
        row and the field when the whole file is refused."""
        raise CatalogError(f"{self.title} imports no spreadsheets")

    def describe_catalog(self) -> tuple[dict[str, Any], list[str]]:
        """The catalog as a listing: a JSON document and one line a piece for a person."""
        pieces = self.catalog()
        return ({"pieces": pieces},
                [f"{p.get('cost', ''):>2} {p['name']:<24} {p.get('kind', '')}" for p in pieces])

    def check_force(self, data: object) -> str:
        """A force file checked (``force_from_file``), said in a line ("valid force
        ..."); ``SetupRefused`` naming the problem."""
        names = self.force_from_file(data)
        return f"valid {self.force_word}: {len(names)} {self.piece_word}s"

    def narrated_game(self, seed: int) -> Iterator[str]:
        """A whole game played by the engine alone with fair randomness, narrated a line
        at a time ("TURN n" or "ROUND n" starts each turn or round): ``tablesight rules
        demo``."""
        raise NotImplementedError(f"{self.title} has no narrated rules demo; "
                                  f"tablesight demo --game {self.name} plays it live")

    # -- the user's own data: the built-in catalog with the user's files folded in ------
    _user_catalog: Any = None  # set by use_user_catalog; None: the built-in data

    def builtin_catalog(self) -> Any:
        """The game's own data (what ``the_catalog`` is before any user file); None for
        a game without a catalog."""
        return None

    def with_document(self, catalog: Any, document: object) -> Any:
        """``catalog`` with one of the user's files added (a parsed JSON document);
        ``CatalogError`` saying what is wrong with it."""
        raise CatalogError(f"{self.title} takes no catalog files")

    def the_catalog(self) -> Any:
        """The catalog every game made from now on uses."""
        return self._user_catalog if self._user_catalog is not None else self.builtin_catalog()

    def use_user_catalog(self, documents: Sequence[tuple[str, object]]) -> None:
        """The user's own files for this game (its folder of the user's catalog, then
        ``--catalog`` files), parsed, by file name, each added by ``with_document`` in
        turn (later files add to and correct earlier ones): every game made from now on
        uses them. An empty list goes back to the built-in data. ``CatalogError`` naming
        the file otherwise."""
        catalog = self.builtin_catalog()
        for name, document in documents:
            try:
                catalog = self.with_document(catalog, document)
            except CatalogError as e:
                raise CatalogError(f"{name}: {e}") from None
        self._user_catalog = catalog if documents else None

    def run_scenario(self, data: dict[str, Any], catalog: Any | None = None) -> dict[str, Any]:
        """Play a rules scenario of this game (``docs/contracts/rules-scenario.md``);
        ``ScenarioError`` for a file that is not a valid scenario."""
        raise ScenarioError(f"{self.title} has no rules scenarios")

    def force_from_file(self, data: object) -> list[str]:
        """A player's force from the game's own file format (the file its
        players keep a force in), checked; ``SetupRefused`` naming the problem."""
        raise SetupRefused(f"{self.title} has no force files: name the pieces in a setup")

    def ruler_bands(self) -> Sequence[tuple[str, float]]:
        """The range bands a game measures with (name, where each ends, mm from the
        ruler's start), for ``tablesight print ruler --game``; empty: none."""
        return ()

    def joining_pieces(self, force: Sequence[str]) -> list[str]:
        """What pieces may join a force during play (a summoned minion), one label each,
        numbered after the force's own: ``print stickers`` prints a spare sticker for
        each, so that the camera knows them too."""
        return []

    def describe(self) -> dict[str, Any]:
        """Which game and rules (game records, screens)."""
        return {"name": self.name, "title": self.title, "rules_version": self.rules_version}

    def setup_info(self) -> dict[str, Any]:
        """What a setup page needs to offer the game: its words and a sample force."""
        return {**self.describe(), "piece_word": self.piece_word,
                "force_word": self.force_word, "sample": self.sample_forces()}
