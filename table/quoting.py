"""Quoting what a person, a client or a file sent, in a message about it."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches


def quote(value: object, limit: int = 40) -> str:
    """``repr`` of a value cut to ``limit`` characters: a refusal says what was wrong
    without echoing a large input back."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long for Python to print (over 4,300 digits)
        text = "a number too long to print"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def did_you_mean(value: object, known: Iterable[str]) -> str:
    """" (did you mean 'X'?)" when a known name is close to ``value`` (a typo in a
    force list, a spreadsheet, a scenario), else "": for the end of a refusal."""
    if not isinstance(value, str) or not value.strip():
        return ""
    names = list(known)
    if value in names:
        return ""
    by_fold = {n.casefold(): n for n in names}
    if value.strip().casefold() in by_fold:  # only the case or spaces differ
        return f" (did you mean {quote(by_fold[value.strip().casefold()])}?)"
    close = get_close_matches(value.casefold(), list(by_fold), n=1, cutoff=0.75)
    return f" (did you mean {quote(by_fold[close[0]])}?)" if close else ""
