"""Quoting what a person, a client or a file sent, in a message about it."""

from __future__ import annotations


def quote(value: object, limit: int = 40) -> str:
    """``repr`` of a value cut to ``limit`` characters: a refusal says what was wrong
    without echoing a large input back."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
