"""The ring fit (vision/detect/ring_fit.py): a sticker read by its own colours, whatever
the print, the light and the camera did to them; never a wrong pattern."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import tags
from vision.detect.identify import ANGLES
from vision.detect.ring_fit import RingFitter, direction, lab_of, rivals_beat
from vision.layout import game_layout

LAYOUT = game_layout()
FITTER = RingFitter([direction(LAYOUT.player_bgr(p)) for p in LAYOUT.players], ANGLES,
                    lead=0.5, explained=0.7)


def _ring(pattern: int, turn: int, owner: str, fade: float = 1.0, cast: float = 0.0,
          lift: float = 0.0, noise: float = 0.0, blur: float = 0.0,
          seed: int = 0) -> np.ndarray:
    """Lab angle means of a sticker as a camera might see it: colours faded toward
    grey, black lifted, a colour cast, neighbours mixed by blur, noise."""
    printed = {tags.COLOUR: LAYOUT.player_bgr(owner), **tags.PRINTED}
    word = np.repeat(tags.CODEWORDS[pattern], ANGLES // tags.SECTORS)
    bgr = np.array([printed[s] for s in np.roll(word, turn)], np.float32)
    grey = bgr.mean(axis=1, keepdims=True)
    bgr = grey + (bgr - grey) * fade
    bgr = lift * 235 + bgr * (1 - lift)
    bgr = bgr * np.array([1 - cast, 1.0, 1 + cast], np.float32)
    if blur:
        k = np.array([blur, 1 - 2 * blur, blur], np.float32)
        bgr = sum(np.roll(bgr, s, axis=0) * w for s, w in zip((-1, 0, 1), k, strict=True))
    bgr = bgr + np.random.default_rng(seed).normal(0, noise, bgr.shape)
    return lab_of(np.clip(bgr, 0, 255))


def test_reads_every_pattern_at_every_turn() -> None:
    x = np.stack([_ring(p, t, o) for p in range(16) for t in (0, 7, 33)
                  for o in ("p1", "p2")])
    fits = FITTER.fit(x)
    k = 0
    for p in range(16):
        for _t in range(3):
            for q in range(2):
                assert fits[q].clear[k] and fits[q].pattern[k] == p
                assert not fits[1 - q].clear[k]  # never as the other player's sticker
                assert fits[1 - q].error[k] > fits[q].error[k]
                k += 1


def test_a_plain_ring_is_not_a_pattern() -> None:
    plain = lab_of(np.tile(np.array(LAYOUT.player_bgr("p1"), np.float32), (ANGLES, 1)))
    noisy = plain + np.random.default_rng(0).normal(0, 0.5, plain.shape)
    fits = FITTER.fit(noisy[None])
    assert not fits[0].clear[0] and not fits[1].clear[0]


@settings(max_examples=150, deadline=None)
@given(pattern=st.integers(0, 15), turn=st.integers(0, ANGLES - 1),
       owner=st.sampled_from(["p1", "p2"]), fade=st.floats(0.3, 1.0),
       cast=st.floats(-0.15, 0.15), lift=st.floats(0.0, 0.35),
       noise=st.floats(0.0, 25.0), blur=st.floats(0.0, 0.33), seed=st.integers(0, 99))
def test_never_a_wrong_pattern_or_owner(pattern: int, turn: int, owner: str, fade: float,
                                        cast: float, lift: float, noise: float,
                                        blur: float, seed: int) -> None:
    """Faded, lifted, tinted, blurred and noisy: read right or not read, never wrong.
    A reading counts as the detector takes it (``identify._refit``): clear, and no
    other player's reading as good (then the ring has no owner at all)."""
    x = _ring(pattern, turn, owner, fade, cast, lift, noise, blur, seed)
    fits = FITTER.fit(x[None])
    q = list(LAYOUT.players).index(owner)
    taken = [o for o in range(len(fits)) if fits[o].clear[0] and not rivals_beat(fits, 0, o)]
    assert taken in ([], [q])
    if taken:
        assert fits[q].pattern[0] == pattern
