"""Ring tags: the sticker on top of a base.

A ring tag is a disc the size of the base. Its centre (inside 45 % of the radius) is
white, because the miniature's figure stands there and hides it. The annulus outside is
cut into ``SECTORS`` equal wedges, and each wedge shows one of four symbols: the owner's
colour, black ink, or one of two accent colours (a dark green and a dark magenta, far in
hue from each other and from every player's colour, the same for everyone). So one
sticker says both whose base it is (the owner's colour) and which miniature it is (the
pattern of symbols), and a plain coloured ring (every wedge the owner's colour) is a base
with no identity.

The sticker can lie at any angle, so a pattern and all its rotations are the same
pattern (the angle is never needed). A force holds at most 16 stickered pieces, so each
player needs 16 patterns, and both players use the same 16: the colour already says
whose base it is, and the detector compares a ring only with its owner's ids.

Why four symbols: the figure standing on the base hides a run of neighbouring wedges.
With two symbols (ink or colour, the first family), sixteen patterns of ten wedges leave
too little room: with two wedges hidden, 72 of the 160 (pattern, rotation) placements
looked exactly like another pattern. With four, any four neighbouring wedges name one
pattern, and two whole patterns differ in at least four wedges at any rotation. Every
symbol but ink is a colour, so the whole sticker stands out from the printed map as the
detector's foreground (white wedges would not, on pale paper).

Chosen by measurement: candidate sets (with three symbols and with four) and candidate
accent shades were printed into the vision bench's scenes (clean, tilt, blur, dim,
glare, shadow, figures; 7,400 bases at 720p), and these read the most bases with the
fewest wrong ids: four symbols read figure-covered stickers 0.96 against 0.94 with
three, blurred ones 0.998 against 0.990. Dark, fully saturated accents matter under
glare, where a pale green washed out to the paper's colour and the base was lost.
``tests/vision/test_layout_and_tags.py`` checks the properties.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SECTORS = 10
INNER = 0.45  # fraction of the radius where the coded annulus starts
FAMILY = "tablesight-ring10.4"  # the layout's ``tags.family``: this code
IDS_PER_PLAYER = 16  # sticker ids per player (table.stickers numbers them the same)
MAX_IDS = 2 * IDS_PER_PLAYER
# The symbols a wedge shows, and how they print.
COLOUR, INK, ACCENT, ACCENT2 = 0, 1, 2, 3
SYMBOLS = 4
INK_BGR = (20, 20, 20)
ACCENT_BGR = (0, 140, 0)  # dark green: hue 120 degrees, far from orange (28), blue (212)
ACCENT2_BGR = (150, 0, 150)  # dark magenta: hue 300 degrees (88 from orange and blue)
ACCENTS = {ACCENT: ACCENT_BGR, ACCENT2: ACCENT2_BGR}  # symbol -> how it prints
PRINTED = {INK: INK_BGR, **ACCENTS}
# Wedge patterns, wedge 0 first, in id order within a player: p1's sticker k and p2's
# sticker 16 + k share pattern k.
CODEWORDS: tuple[tuple[int, ...], ...] = (
    (0, 0, 2, 3, 1, 1, 2, 2, 0, 1), (0, 1, 3, 0, 2, 0, 3, 1, 3, 3),
    (0, 0, 0, 0, 1, 3, 2, 0, 2, 1), (0, 1, 2, 1, 0, 3, 1, 0, 3, 2),
    (0, 1, 0, 2, 3, 2, 1, 1, 0, 3), (0, 0, 1, 0, 1, 2, 0, 3, 3, 3),
    (0, 0, 0, 2, 1, 1, 1, 3, 2, 2), (0, 0, 3, 0, 2, 1, 2, 1, 2, 3),
    (0, 0, 0, 3, 2, 3, 1, 3, 1, 3), (0, 0, 1, 2, 3, 3, 0, 3, 3, 1),
    (0, 0, 3, 1, 2, 2, 1, 0, 1, 1), (0, 0, 1, 1, 3, 1, 1, 1, 0, 2),
    (0, 1, 1, 2, 0, 2, 2, 0, 2, 3), (0, 0, 2, 0, 2, 0, 1, 3, 1, 2),
    (0, 1, 0, 3, 3, 0, 2, 2, 3, 1), (0, 2, 1, 3, 0, 3, 0, 3, 2, 1),
)
SAMPLES = 60  # angular samples the decoder uses (six per wedge)


def rotations(word: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [word[k:] + word[:k] for k in range(len(word))]


def windows(word: tuple[int, ...], length: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` neighbouring wedges of a pattern (around the ring)."""
    twice = word + word
    return [twice[k:k + length] for k in range(len(word))]


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Wedges in which two runs of equal length differ."""
    return sum(x != y for x, y in zip(a, b, strict=True))


def symbols_of(tag_id: int) -> tuple[int, ...]:
    """The wedge pattern of a tag id, wedge 0 first (``COLOUR``, ``INK``, ``ACCENT``,
    ``ACCENT2``)."""
    if not 0 <= tag_id < MAX_IDS:
        raise ValueError(f"no sticker id {tag_id} (ids are 0-{MAX_IDS - 1})")
    return CODEWORDS[tag_id % IDS_PER_PLAYER]


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
        for k, symbol in enumerate(symbols_of(tag_id)):
            if symbol != COLOUR:
                a0 = angle_deg + k * step
                cv2.ellipse(img, (cx, cy), (r, r), 0, a0, a0 + step,
                            PRINTED[symbol], -1, cv2.LINE_AA, shift)
    cv2.circle(img, (cx, cy), int(round(radius * INNER * f)), (245, 245, 245), -1,
               cv2.LINE_AA, shift)
    cv2.circle(img, (cx, cy), r, (15, 15, 15), max(1, int(radius * 0.06)) * 1,
               cv2.LINE_AA, shift)


@lru_cache(maxsize=4)
def templates(samples_per_turn: int) -> np.ndarray:
    """Every pattern at every sample rotation, as rows of ``samples_per_turn`` x
    ``SYMBOLS`` weights: +1 for the symbol the pattern shows at that angle, -1 for the
    others. Row ``k * samples_per_turn + j`` is pattern ``k`` turned by ``j`` samples."""
    per = samples_per_turn // SECTORS
    rows = []
    for word in CODEWORDS:
        signs = np.eye(SYMBOLS, dtype=np.float32)[np.repeat(word, per)] * 2 - 1
        rows.extend(np.roll(signs, k, axis=0).reshape(-1) for k in range(samples_per_turn))
    return np.array(rows, np.float32)


@lru_cache(maxsize=4)
def by_symbol(samples_per_turn: int) -> np.ndarray:
    """``templates`` as (symbol x sample, row): the sign each row gives a vote for that
    symbol at that sample."""
    t = templates(samples_per_turn).reshape(-1, samples_per_turn, SYMBOLS)
    return np.ascontiguousarray(t.transpose(2, 1, 0).reshape(SYMBOLS * samples_per_turn, -1))


@lru_cache(maxsize=8)
def run_masks(samples_per_turn: int, length: int) -> np.ndarray:
    """Row ``s``: 1 on the ``length`` samples from ``s`` on, around the ring."""
    out = np.zeros((samples_per_turn, samples_per_turn), np.float32)
    for s in range(samples_per_turn):
        out[s, (s + np.arange(length)) % samples_per_turn] = 1.0
    return out


def player_ids(player_index: int) -> range:
    """Tag ids printed for a player: p1 0-15, p2 16-31 (index in the force's order)."""
    return range(player_index * IDS_PER_PLAYER, (player_index + 1) * IDS_PER_PLAYER)


def decode(votes: np.ndarray, allowed: range | None = None,
           hidden: int = 0) -> tuple[int | None, float, float]:
    """Maximum-likelihood id from one ring's votes (see ``decode_many``): (id, margin,
    agreement); the id among ``allowed`` (a player's ids), without it p1's."""
    best, margin, agreement = decode_many(np.asarray(votes, np.float32)[None], hidden)
    if best[0] < 0:
        return None, 0.0, 0.0
    first = allowed.start if allowed is not None else 0
    return first + int(best[0]), float(margin[0]), float(agreement[0])


def decode_many(votes: np.ndarray,
                hidden: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pattern that best explains each ring's votes: ``votes`` is (rings, angles,
    ``SYMBOLS``), how strongly each angular sample showed each symbol.

    A pattern and rotation scores the votes for the symbols it shows there minus the
    votes against. With ``hidden`` > 0 the figure may hide a run of that many samples:
    each pattern and rotation leaves out the run that contradicts it most, and only the
    rest counts (a figure looks like some symbol, and must not outvote the wedges seen).

    Returns per ring the pattern index (-1 where there are no votes), ``margin`` (how
    much better the best pattern explains the votes than any other) and ``agreement``
    (the share of the votes the best explanation fits), both relative to the votes
    counted.
    """
    n_rings, n, _ = votes.shape
    if hidden and n_rings > 1:  # one ring at a time (each is a product of its own)
        parts = [decode_many(votes[k:k + 1], hidden) for k in range(n_rings)]
        return tuple(np.concatenate(p) for p in zip(*parts, strict=True))  # type: ignore[return-value]
    rows = templates(n)
    weight = votes.sum(axis=2)  # (rings, angles)
    if hidden:
        # The votes in every circular run of ``hidden`` samples, per symbol: (starts,
        # symbols x angles). Times the templates, that is how well each pattern and
        # rotation fits each run: one matrix product instead of a fit per sample and
        # running sums over it (three times slower).
        in_run = run_masks(n, hidden)
        per_run = (in_run[:, None, :] * votes[0].T[None]).reshape(n, SYMBOLS * n)
        fit_runs = per_run @ by_symbol(n)  # (starts, rows)
        scores = votes.reshape(1, -1) @ rows.T - fit_runs.min(axis=0)
    else:
        scores = votes.reshape(n_rings, -1) @ rows.T
    per_pattern = scores.reshape(n_rings, len(CODEWORDS), n)
    pattern_scores = per_pattern.max(axis=2)
    best = pattern_scores.argmax(axis=1)
    top2 = np.partition(pattern_scores, len(CODEWORDS) - 2, axis=1)[:, -2:]
    total = weight.sum(axis=1)
    if hidden:
        # The votes counted for the winner: all but its left-out run.
        row = int(best[0]) * n + int(per_pattern[0, best[0]].argmax())
        total = total - in_run[fit_runs[:, row].argmin()] @ weight[0]
    has = total > 0
    safe = np.where(has, total, 1.0)
    margin = np.where(has, (top2[:, 1] - top2[:, 0]) / safe, 0.0)
    agreement = np.where(has, (top2[:, 1] + total) / (2 * safe), 0.0)
    return np.where(has, best, -1), margin, agreement
