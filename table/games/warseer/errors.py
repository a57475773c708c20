"""Errors raised by the Warseer rules: each a ``ValueError`` whose message names the
offending input, built on the core's bases (``table.errors``)."""

from __future__ import annotations

from table import errors


class RulesError(errors.RulesError):
    """An action the Warseer rules refuse; ``code`` is a short reason. State is never
    changed."""


class SetupError(errors.SetupRefused):
    """A warband or deck the rules do not allow; the message names it."""
