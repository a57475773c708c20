"""Every error a game or the table raises about its input, in one place (as python-chess
keeps its move errors together). Each is a ``ValueError``: the input was wrong, nothing
changed, and the message names the offending part, quoted and cut short
(``table.quoting.quote``) so that hostile input never floods a screen or a log.
"""

from __future__ import annotations


class ActionRefused(ValueError):
    """The rules refused an action; nothing changed. The message names the input."""


class RulesError(ActionRefused):
    """An action the rules refuse, with a stable machine ``code`` (the scenario
    contracts' error codes) beside the human ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.code)!r}, {self.message!r})"


class NotationError(ValueError):
    """Text that is not an action of this game; the message names the offending part."""


class SetupRefused(ValueError):
    """A setup this game cannot be played with (unknown pieces, an illegal force)."""


class CatalogError(SetupRefused):
    """Catalog data (built in, a user's file, a CSV import) that does not describe a
    piece or card the game can use; the message names the entry and the field."""


class ScenarioError(ValueError):
    """A rules scenario file that is not valid (``table.scenarios``); the message says
    where, quoting the input cut short."""


class CommandRefused(ValueError):
    """A command from a person or the box that was refused; nothing changed. The
    message says why."""
