"""The ring a sticker is read from: where it is sampled (angles and radii, shares of
the base's estimated radius), where the sticker ends (``edges``), and where each colour
class shows round it (``colour_wedges``, ``colour_arc``, ``colour_in_view``). Shared by
both decoders (``votes.py``, ``ring_fit.py`` through ``identify.py``)."""

from __future__ import annotations

import numpy as np

from .. import tags

ANGLES = 60  # samples around the ring (6 per wedge)
# Radii sampled, as fractions of the estimated radius: wide enough to find the sticker's
# true edge (where the owner colour stops), fine enough to read the wedges inside it.
RADII = tuple(np.round(np.arange(0.5, 1.251, 0.05), 3))
RADII_SHARES = np.array(RADII, np.float32)  # the same, as an array
# The owner is judged by the colour in this band (shares of the sticker's edge): the
# outermost wedges, less often hidden by the figure, clear of the blurred edge.
OWNER_BAND = (0.78, 0.93)
# The sticker's middle, printed white (inside ``tags.INNER``, clear of its blur): where a
# figure stands. A player's colour there is the figure's paint.
CENTRE_RADII, CENTRE_ANGLES = (0.1, 0.2, 0.3), 12
# Where a ring's colour stops inside this share of its radius, what stopped is a figure
# painted in a strong colour over a washed-out sticker, not the sticker's edge (on
# rendered frames with no figures the edge was never under 0.825): the sticker's edge is
# then taken to be where it typically is (the median there). Taking the figure's outline
# for the edge put the owner's band on the figure: an orange head over a pale blue
# sticker made it orange's (on the tuning renders, wrong owners 11 -> 7 at MJPEG 75+).
EDGE_LEAST, EDGE_TYPICAL = 0.8, 0.975
# Nor does a sticker reach past its base's outline (the disc's radius is 0.9 of it):
# colour further out is a neighbour's sticker touching this base (an orange sticker
# beside a blue one set the blue one's owner band on the orange, seen once sampling
# moved to the bases' tops) or a figure's paint beyond it.
EDGE_MOST = 1.1
# The part of the sticker whose symbols say how a pattern is turned: from inside its
# coded annulus (``tags.INNER``, 0.45) to clear of its blurred edge (shares of the edge).
CODED_BAND = (0.5, 0.95)


def radii_within(lo: float | np.ndarray, hi: float | np.ndarray,
                 edge: np.ndarray) -> np.ndarray:
    """(rings, radii): which sampled radii lie from ``lo`` to ``hi`` shares of each
    ring's sticker edge (``edges``: rings, 1); ``lo`` and ``hi`` are numbers, or one
    per ring (rings, 1)."""
    return (lo * edge <= RADII_SHARES) & (hi * edge >= RADII_SHARES)


def colour_wedges(dense: np.ndarray, band: np.ndarray, cls: int) -> np.ndarray:
    """Which of the ring's ``tags.SECTORS`` wedges (runs of samples from angle 0) show
    colour class ``cls`` in 30 % or more of their samples in ``band`` (a mask over the
    radii)."""
    samples = dense[band]
    if not samples.size:
        return np.zeros(tags.SECTORS, bool)
    return (samples == cls).mean(axis=0).reshape(tags.SECTORS, -1).mean(axis=1) > 0.3


def colour_in_view(dense: np.ndarray, band: np.ndarray, cls: int,
                    seen: np.ndarray | None, believed: float) -> bool:
    """Whether colour class ``cls`` shows (``colour_wedges``) in a wedge the view
    believes (``seen``, ``view_weights``: ``believed`` or more), away from where a
    figure is expected to stand. Where the view expects a figure to lean little (no
    angle believed under half), every wedge is believed."""
    if seen is None or seen.min() >= 0.5:
        return bool(colour_wedges(dense, band, cls).any())
    trusted = seen.reshape(tags.SECTORS, -1).mean(axis=1) >= believed
    return bool((colour_wedges(dense, band, cls) & trusted).any())


def colour_arc(dense: np.ndarray, band: np.ndarray, cls: int) -> int:
    """How many of the ring's ``tags.SECTORS`` wedges the shortest arc holding every
    wedge that shows colour class ``cls`` (``colour_wedges``) spans: 0 when none
    does."""
    on = np.flatnonzero(colour_wedges(dense, band, cls))
    if not len(on):
        return 0
    gaps = np.diff(np.concatenate([on, [on[0] + tags.SECTORS]]))
    return int(tags.SECTORS - gaps.max() + 1)


def edges(dense: np.ndarray) -> np.ndarray:
    """Each ring's sticker edge (rings, 1), as a share of its estimated radius: the
    sticker ends where its colour stops; beyond is the base's dark rim."""
    colored = (dense > 0).mean(axis=2)  # (rings, radii)
    cmax = colored.max(axis=1)
    strong = colored >= 0.5 * cmax[:, None]
    last = len(RADII) - 1 - np.argmax(strong[:, ::-1], axis=1)
    edge = np.where(cmax > 0, RADII_SHARES[last] + 0.025, float(RADII[-1]))
    edge = np.where(edge < EDGE_LEAST, EDGE_TYPICAL, np.minimum(edge, EDGE_MOST))
    return edge[:, None]


def colour_angles(votes: np.ndarray, pattern: int) -> np.ndarray:
    """Which of the ring's ``ANGLES`` samples fall in ``pattern``'s colour wedges, the
    pattern turned to fit the ring's ink and accents best (``votes``: angles, symbols,
    the samples of each symbol; the colour column is not used). Ink and accents print
    the same on every player's stickers, so the turn does not depend on whose colour,
    or whose figure's paint, lies on the ring."""
    ink_accents = np.array(votes, np.float32)
    ink_accents[:, tags.COLOUR] = 0.0
    rows = tags.templates(ANGLES)[pattern * ANGLES:(pattern + 1) * ANGLES]
    turn = int(np.argmax(rows @ ink_accents.reshape(-1)))
    return rows[turn].reshape(ANGLES, tags.SYMBOLS)[:, tags.COLOUR] > 0
