"""Ring tags: the sticker on top of a base.

A ring tag is a disc the size of the base. Its centre (inside 45 % of the radius) is
white, because the miniature's figure stands there and hides it. The annulus outside is
cut into ``SECTORS`` equal wedges; each wedge is black (bit 1) or the owner's colour
(bit 0). So one sticker says both whose base it is (the colour) and which miniature it
is (the bit pattern), and a plain coloured ring (every wedge coloured) is a base with no
identity.

The sticker can lie at any angle, so a pattern and all its rotations are the same
pattern (the angle is never needed). A warband holds at most 16 miniatures, so each
player needs 16 patterns, and both players use the same 16: the colour already says
whose base it is, and the detector compares a ring only with its owner's ids.

The 16 are aperiodic patterns that differ in at least two wedges from every rotation of
every other (one misread wedge is never another id). Among such sets, this one was chosen
by measurement: candidate sets were printed into the vision bench's scenes (clean, tilt,
blur, dim, glare, shadow, figures, hands; 1,350 bases at 720p) and this set read the
most bases without a wrong id. It is balanced (five black wedges of ten): sets chosen
for the widest margin on paper (``blurred_margin``) did worse, because they favour
patterns with few black wedges, and coloured wedges fade into "unknown" in dim light
while ink stays ink. ``tests/vision/test_layout_and_tags.py`` checks the properties.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SECTORS = 10
INNER = 0.45  # fraction of the radius where the coded annulus starts
FAMILY = "tablesight-ring10.2"  # the layout's ``tags.family``: this code
IDS_PER_PLAYER = 16  # a Dreamblade warband holds at most 16 miniatures
MAX_IDS = 2 * IDS_PER_PLAYER
# Wedge patterns, wedge 0 as the most significant bit (1 = black), in id order within a
# player: p1's sticker k and p2's sticker 16 + k share pattern k.
CODEWORDS = (93, 103, 107, 109, 115, 117, 121, 127, 151, 155, 157, 167, 171, 173, 179, 181)
SAMPLES = 60  # angular samples the decoder uses (six per wedge)


def _rotations(word: int) -> list[int]:
    mask = (1 << SECTORS) - 1
    return [((word << k) | (word >> (SECTORS - k))) & mask for k in range(SECTORS)]


def _distance(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def _bits(word: int) -> list[int]:
    """A pattern's wedges, wedge 0 first (1 = black)."""
    return [(word >> (SECTORS - 1 - k)) & 1 for k in range(SECTORS)]


def _wave(word: int, blur_samples: float = 0.0, samples: int = SAMPLES) -> np.ndarray:
    """A pattern sampled around the ring as +1 (ink) / -1 (colour), optionally blurred
    (a circular Gaussian of ``blur_samples``)."""
    x = np.repeat(np.array(_bits(word), np.float64) * 2 - 1, samples // SECTORS)
    if blur_samples:
        t = np.minimum(np.arange(samples), samples - np.arange(samples))
        kernel = np.exp(-0.5 * (t / blur_samples) ** 2)
        x = np.real(np.fft.ifft(np.fft.fft(x) * np.fft.fft(kernel / kernel.sum())))
    return x


def blurred_margin(a: int, b: int, blur_samples: float = 2.0) -> float:
    """The soft decoder's margin for pattern ``a``, seen blurred, against pattern ``b``
    at its best rotation (a share of the evidence; 0: they cannot be told apart)."""
    seen = _wave(a, blur_samples)
    ta, tb = _wave(a), _wave(b)
    own = max(float(np.roll(ta, k) @ seen) for k in range(len(seen)))
    other = max(float(np.roll(tb, k) @ seen) for k in range(len(seen)))
    return (own - other) / float(np.abs(seen).sum())


def bits_of(tag_id: int) -> list[int]:
    """The wedge pattern of a tag id, wedge 0 first (1 = black)."""
    if not 0 <= tag_id < MAX_IDS:
        raise ValueError(f"no sticker id {tag_id} (ids are 0-{MAX_IDS - 1})")
    return _bits(CODEWORDS[tag_id % IDS_PER_PLAYER])


def draw_tag(img: np.ndarray, center: tuple[float, float], radius: float,
             tag_id: int | None, color_bgr: tuple[int, int, int], angle_deg: float = 0.0,
             shift: int = 4) -> None:
    """Draw a tag (or, with ``tag_id=None``, a plain coloured ring) into ``img``."""
    f = 1 << shift
    cx, cy = int(round(center[0] * f)), int(round(center[1] * f))
    r = int(round(radius * f))
    cv2.circle(img, (cx, cy), r, color_bgr, -1, cv2.LINE_AA, shift)
    if tag_id is not None:
        step = 360.0 / SECTORS
        for k, bit in enumerate(bits_of(tag_id)):
            if bit:
                a0 = angle_deg + k * step
                cv2.ellipse(img, (cx, cy), (r, r), 0, a0, a0 + step, (20, 20, 20), -1,
                            cv2.LINE_AA, shift)
    cv2.circle(img, (cx, cy), int(round(radius * INNER * f)), (245, 245, 245), -1,
               cv2.LINE_AA, shift)
    cv2.circle(img, (cx, cy), r, (15, 15, 15), max(1, int(radius * 0.06)) * 1,
               cv2.LINE_AA, shift)


@lru_cache(maxsize=4)
def templates(samples_per_turn: int) -> np.ndarray:
    """Every pattern at every sample rotation, as +1 (ink) / -1 (colour) rows; row
    ``k * samples_per_turn + j`` is pattern ``k`` turned by ``j`` samples."""
    rows = []
    for word in CODEWORDS:
        base = _wave(word, 0.0, samples_per_turn).astype(np.float32)
        rows.extend(np.roll(base, k) for k in range(samples_per_turn))
    return np.array(rows, np.float32)


def player_ids(player_index: int) -> range:
    """Tag ids printed for a player: p1 0-15, p2 16-31 (index in the warband order)."""
    return range(player_index * IDS_PER_PLAYER, (player_index + 1) * IDS_PER_PLAYER)


def decode_soft(evidence: np.ndarray,
                allowed: range | None = None) -> tuple[int | None, float, float]:
    """Maximum-likelihood id from per-angle evidence (ink weight minus colour weight).

    Returns (id, margin, agreement): ``margin`` is how much better the best pattern
    explains the evidence than any other pattern, and ``agreement`` the share of all
    evidence the best explanation fits, both relative to the total evidence. The id is
    the pattern's id among ``allowed`` (a player's ids); without it, p1's.
    """
    best, margin, agreement = decode_soft_many(np.asarray(evidence, np.float32)[None])
    if best[0] < 0:
        return None, 0.0, 0.0
    first = allowed.start if allowed is not None else 0
    return first + int(best[0]), float(margin[0]), float(agreement[0])


def decode_soft_many(evidence: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``decode_soft`` for many rings at once (one row of evidence each): the pattern
    index (-1 where there is no evidence), margin and agreement per row."""
    n_rings, n = evidence.shape
    total = np.abs(evidence).sum(axis=1)
    scores = (evidence @ templates(n).T).reshape(n_rings, len(CODEWORDS), n).max(axis=2)
    top2 = np.partition(scores, len(CODEWORDS) - 2, axis=1)[:, -2:]
    best = scores.argmax(axis=1)
    has = total > 0
    safe = np.where(has, total, 1.0)
    margin = np.where(has, (top2[:, 1] - top2[:, 0]) / safe, 0.0)
    agreement = np.where(has, (top2[:, 1] + total) / (2 * safe), 0.0)
    return np.where(has, best, -1), margin, agreement
