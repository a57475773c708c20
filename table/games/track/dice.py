"""Track's die as a face table (``table.randomness``): a plain six-sided die."""

from __future__ import annotations

from table.randomness import numbered

D6 = numbered(6)
