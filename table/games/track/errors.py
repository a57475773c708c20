"""What Track refuses: an action the rules do not allow now (``RulesError``, with a code
as every game's refusals carry), and a force it cannot play (``SetupError``)."""

from __future__ import annotations

from table import errors


class RulesError(errors.RulesError):
    """An action Track's rules refuse now; the message names it and what is legal."""


class SetupError(errors.SetupRefused):
    """A force Track cannot be played with; the message names the field."""
