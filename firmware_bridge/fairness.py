"""Chi-square goodness of fit for dice, without SciPy: the p-value is the regularised
upper incomplete gamma function Q(df/2, x/2), by its series or continued fraction."""

from __future__ import annotations

import math
from collections.abc import Iterable


def _gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Continued fraction (modified Lentz) for Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def chi_square(counts: Iterable[int], probabilities: Iterable[float]) -> tuple[float, float]:
    """(statistic, p-value) of observed counts against expected probabilities."""
    counts = list(counts)
    probabilities = list(probabilities)
    n = sum(counts)
    stat = sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probabilities, strict=True))
    return stat, _gamma_q((len(counts) - 1) / 2, stat / 2)
