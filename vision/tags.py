"""Ring tags: the sticker on top of a base.

A ring tag is a disc the size of the base. Its centre (inside 45 % of the radius) is
white, because the miniature's figure stands there and hides it. The annulus outside is
cut into ``SECTORS`` equal wedges; each wedge is black (bit 1) or the owner's colour
(bit 0). So one sticker says both whose base it is (the colour) and which miniature it
is (the bit pattern), and a plain coloured ring (every wedge coloured) is a base with no
identity.

The sticker can lie at any angle, so ids are *necklaces*: a pattern and all its
rotations are the same id. The codebook keeps patterns that

* are not periodic (a rotation never equals itself),
* have at least three black and three coloured wedges (colour and contrast both visible),
* differ in at least two wedges from every rotation of every other codeword (a single
  misread wedge is detected, never turned into another id).

The codebook is computed, not stored: the same rule always gives the same list.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SECTORS = 10
INNER = 0.45  # fraction of the radius where the coded annulus starts
MAX_IDS = 40


def _rotations(word: int) -> list[int]:
    mask = (1 << SECTORS) - 1
    return [((word << k) | (word >> (SECTORS - k))) & mask for k in range(SECTORS)]


def _distance(a: int, b: int) -> int:
    return (a ^ b).bit_count()


@lru_cache(maxsize=1)
def codebook() -> tuple[int, ...]:
    """Codewords by tag id (canonical form: the smallest rotation)."""
    seen: set[int] = set()
    candidates: list[int] = []
    for w in range(1 << SECTORS):
        rots = _rotations(w)
        canon = min(rots)
        if canon in seen:
            continue
        seen.add(canon)
        ones = canon.bit_count()
        if ones < 3 or SECTORS - ones < 3 or len(set(rots)) < SECTORS:
            continue
        if min(_distance(canon, r) for r in rots[1:]) < 2:
            continue
        candidates.append(canon)
    book: list[int] = []
    for c in candidates:
        if all(min(_distance(r, b) for r in _rotations(c)) >= 2 for b in book):
            book.append(c)
    return tuple(book[:MAX_IDS])


def bits_of(tag_id: int) -> list[int]:
    """The wedge pattern of a tag id, wedge 0 first (1 = black)."""
    word = codebook()[tag_id]
    return [(word >> (SECTORS - 1 - k)) & 1 for k in range(SECTORS)]


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
def templates(samples_per_turn: int) -> tuple[np.ndarray, np.ndarray]:
    """Every codeword at every sample rotation, as +1 (ink) / -1 (colour) rows."""
    per = samples_per_turn // SECTORS
    rows, ids = [], []
    for tag_id in range(len(codebook())):
        base = np.repeat(np.array(bits_of(tag_id), np.float32) * 2 - 1, per)
        for k in range(samples_per_turn):
            rows.append(np.roll(base, k))
            ids.append(tag_id)
    return np.array(rows, np.float32), np.array(ids, np.int16)


def player_ids(player_index: int) -> range:
    """Tag ids printed for a player: p1 0-19, p2 20-39 (index in the warband order)."""
    half = MAX_IDS // 2
    return range(player_index * half, (player_index + 1) * half)


@lru_cache(maxsize=16)
def _allowed_templates(samples_per_turn: int,
                       allowed: range | None) -> tuple[np.ndarray, np.ndarray]:
    table, ids = templates(samples_per_turn)
    if allowed is None:
        return table, ids
    keep = (ids >= allowed.start) & (ids < allowed.stop)
    return np.ascontiguousarray(table[keep]), ids[keep]


def decode_soft(evidence: np.ndarray,
                allowed: range | None = None) -> tuple[int | None, float, float]:
    """Maximum-likelihood id from per-angle evidence (ink weight minus colour weight).

    Returns (id, margin, agreement): ``margin`` is how much better the best id explains
    the evidence than any other id, and ``agreement`` the share of all evidence the best
    explanation fits, both relative to the total evidence.
    """
    total = float(np.abs(evidence).sum())
    if total <= 0:
        return None, 0.0, 0.0
    table, ids = _allowed_templates(len(evidence), allowed)
    scores = table @ evidence
    best = int(np.argmax(scores))
    best_id = int(ids[best])
    others = scores[ids != best_id]
    second = float(others.max()) if len(others) else -total
    margin = (float(scores[best]) - second) / total
    agreement = (float(scores[best]) + total) / (2 * total)
    return best_id, margin, agreement
