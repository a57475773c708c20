"""What Diskwars refuses: an action the rules do not allow now (``RulesError``, with a
stable code), and an army it cannot play (``SetupError``)."""

from __future__ import annotations

from table import errors


class RulesError(errors.RulesError):
    """An action the rules refuse now; the message names it and why."""


class SetupError(errors.SetupRefused):
    """An army or setup the game cannot be played with; the message names the entry."""
