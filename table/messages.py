"""What a referee and the table say to each other, as plain values: the prompt a screen
shows (``Prompt``, its ``choice``s and ``place_within`` shapes), the chance the table
waits for (``DiceNeed``), what a scripted player does (``Intent``), what an action caused
(``Event``), the names people read (``Wording``) and the verdict on a camera board
(``Reconciliation``). ``table.system`` holds the seam that uses them and re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from table.errors import CommandRefused
from table.quoting import quote
from table.randomness import Die, Face, FaceError, read_faces

PLAYERS = ("p1", "p2")


def check_player(v: object) -> str:
    if v not in PLAYERS:
        raise CommandRefused(f"player: p1 or p2, not {quote(v)}")
    return str(v)


def typed_roll(die: Die, cmd: Mapping[str, Any], most: int, label: str = "") -> tuple[Face, ...]:
    """The faces of a roll a person typed: ``faces`` (codes or labels, as a screen's dice
    card sends them, at most ``most``) or ``die`` (one number from 1 to the die's sides,
    as a script sends it); ``CommandRefused`` naming the field otherwise."""
    if "faces" in cmd:
        try:
            return read_faces(die, cmd["faces"], most)
        except FaceError as e:
            raise CommandRefused(str(e)) from None
    n = cmd.get("die")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= die.sides:
        raise CommandRefused(f"die: {label + ', ' if label else ''}1 to {die.sides}")
    return (die.face(n),)


# -- what the table is told ------------------------------------------------------------
@dataclass(frozen=True)
class DiceNeed:
    """Dice the table must roll next: ``n`` dice of ``kind`` (the name of the game's
    ``Die``) for ``player``. ``command`` is the game's command that takes them typed in
    (``{"do": command, "player": ..., "faces": [codes]}``); a screen offers the die's
    faces to pick from."""

    player: str
    kind: str
    n: int
    die: Die | None = None
    command: str = "roll"
    label: str = ""  # what a person reads ("initiative die"); the die's label without it
    # A draw only ``player`` may see (a card into a hidden hand): the shared screen says
    # who draws but offers no faces; the player enters it on their private page.
    private: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "kind": self.kind, "n": self.n,
                               "command": self.command, "private": self.private}
        if self.private:  # how many sides (cards left) is no secret; which faces are
            out["label"] = self.label or self.kind
            if self.die is not None:
                out["sides"] = self.die.sides
        elif self.die is not None:
            out.update(label=self.label or self.die.label_for(self.n), sides=self.die.sides,
                       faces=[f.to_dict() for f in self.die.distinct()])
        else:
            out["label"] = self.label or self.kind
        return out


def choice(action: Any, label: str, regions: Sequence[str] = (), pieces: Sequence[str] = (),
           card: bool = False) -> dict[str, Any]:
    """One option of a prompt as a screen takes it: the action's notation, what a person
    reads, the map's regions and the pieces it involves (what a tap on the board picks),
    and ``card`` when the step's own card (``Prompt.panel``, the dice card) offers it."""
    out: dict[str, Any] = {"action": str(action), "label": label, "regions": list(regions),
                           "pieces": list(pieces)}
    if card:
        out["card"] = True
    return out


def place_within(piece: str, label: str, centre: tuple[float, float], radius: float,
                 action: str) -> dict[str, Any]:
    """A choice described by its shape, where a list cannot hold it: ``piece`` may go
    anywhere within ``radius`` (map mm) of ``centre`` (a screen draws the circle; the
    rules decide the edge). ``action`` is the notation with ``{x}`` and ``{y}`` where
    the point goes (map mm, one decimal), what a tap on the board sends."""
    if "{x}" not in action or "{y}" not in action:
        raise ValueError(f"a placement's action needs {{x}} and {{y}}: {action!r}")
    return {"kind": "within", "piece": piece, "label": label,
            "centre": [round(centre[0], 1), round(centre[1], 1)],
            "radius": round(radius, 1), "action": action}


@dataclass(frozen=True)
class Prompt:
    """One decision point, as a screen shows it: who acts, a sentence a person reads
    across the table, the legal options (notation, and per option a label and the board
    regions and pieces it involves), the dice needed, and what the ready button does."""

    step: str
    player: str | None
    text: str
    options: tuple[str, ...] = ()
    dice: tuple[DiceNeed, ...] = ()
    proposal: str | None = None  # what "ready" does now
    detail: dict[str, Any] = field(default_factory=dict)
    choices: tuple[dict[str, Any], ...] = ()  # per option, made by ``choice``
    proposal_label: str | None = None
    # A card of its own for the step (a fight's damage to assign): a title, a line and
    # rows of buttons, each an action. Choices shown in a card (or answered by the dice
    # card) carry ``"card": True`` so a screen does not list them twice.
    panel: dict[str, Any] | None = None
    # Choices too many to list (a piece put anywhere in a circle), by their shape
    # (``place_within``): a screen draws each on the board and a tap there sends it.
    shapes: tuple[dict[str, Any], ...] = ()
    # How to play this step, for a newcomer: a few sentences a screen opens on demand
    # (the game's ``Referee.how_to_play`` by step).
    how: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "player": self.player, "text": self.text, "how": self.how,
                "options": list(self.options), "choices": list(self.choices),
                "shapes": list(self.shapes),
                "dice": [d.to_dict() for d in self.dice], "proposal": self.proposal,
                "proposal_label": self.proposal_label, "panel": self.panel, **self.detail}


@dataclass(frozen=True)
class Intent:
    """What a scripted player does next at a physical table (demos, end-to-end tests),
    in physical terms: ``board`` (put pieces where ``moves`` says: a region, or None
    for off the table, at ``points`` where the place is a point; the camera must see
    it), ``roll`` (the box's roll button for ``dice``), ``button`` (a box button;
    ``action`` is what it should do) or ``type`` (``action`` entered on the dashboard).
    ``action`` is what the act amounts to."""

    kind: str
    player: str | None
    action: Any = None
    moves: tuple[tuple[str, str | None], ...] = ()
    button: str | None = None
    dice: DiceNeed | None = None
    # For pieces put at a point (free placement): (piece, x, y) in map mm, in the region
    # ``moves`` names for them.
    points: tuple[tuple[str, float, float], ...] = ()

    def __str__(self) -> str:
        if self.kind == "roll" and self.dice is not None:
            return f"{self.player} rolls {self.dice.n} {self.dice.kind} on the box"
        if self.kind == "button":
            return f"{self.player} presses {self.button} ({self.action})"
        return f"{self.kind}: {self.action}"


class RulesEvent(Protocol):
    """What an action caused, as the rules say it (``kind`` and JSON-ready ``data``)."""

    kind: str
    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Event:
    """A ``RulesEvent`` as a plain value, for games that need nothing more."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


class Wording(Protocol):
    """Everything shown to a person, in players' and pieces' names."""

    def action(self, a: Any) -> str: ...
    def humanize(self, text: str) -> str: ...
    def entry(self, entry: dict[str, Any]) -> dict[str, Any]: ...
    def correction(self, body: dict[str, Any]) -> str: ...
    def event(self, e: Mapping[str, Any]) -> str | None:
        """A rules event as a line of narration (None: not narrated)."""


@dataclass
class Explanation:
    """A sequence of legal actions that turns the rules state into what the camera saw;
    ``state`` is where it leads."""

    actions: tuple[Any, ...]
    state: Any


@dataclass
class Reconciliation:
    """The verdict on one observation."""

    fits: bool  # the confirmed state already fits (nothing happened, or a removal)
    explanations: list[Explanation] = field(default_factory=list)
    gone: tuple[Any, ...] = ()  # pieces that were lingering on the table and are off now
    misread: tuple[str, ...] = ()  # readings the rules overruled, each said why
    # A measured rule too close to call (``table.measure``'s ASK): the question the
    # players answer, yes playing the explanation, no leaving the board to be put right.
    question: str | None = None

    @property
    def explained(self) -> bool:
        return self.fits or bool(self.explanations)
