"""What the table side's helpers (the prompts, the drawing, the scripted players) read of
the referee they serve. ``WarseerReferee`` is one; the helpers name this protocol rather
than the referee, so the referee imports them and they do not import it back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from table.stickers import Stickers
from table.system import DiceNeed

from ..actions import Action
from ..game import Game
from ..state import State
from .reconcile import Camera
from .wording import Words


class Context(Protocol):
    game: Game
    words: Words
    stickers: Stickers
    camera: Camera

    def pending(self, state: State) -> list[str]:
        """Faces of the roll under way that are already in."""
        ...

    def points(self, state: State, player: str) -> int: ...
    def dice_needed(self, state: State) -> tuple[DiceNeed, ...]: ...
    def legal_actions(self, state: State) -> Sequence[Action]: ...
