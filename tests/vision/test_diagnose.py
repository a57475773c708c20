"""What the camera tells a person when its view cannot be worked with: the map not
found and why, an empty-board photo in light the detector cannot learn from, a learned
board the light has since left behind."""

from __future__ import annotations

import re

import numpy as np
import pytest

from vision.config import VisionConfig
from vision.detect.diagnose import empty_board_problems, lines_off, map_not_found, relearn_advice
from vision.detect.locate import MapFix
from vision.layout import game_layout


@pytest.fixture(scope="module")
def layout():
    return game_layout("dreamblade")


def test_a_map_not_found_says_why_and_what_to_check(layout) -> None:
    cfg, size, n = VisionConfig(), (1280, 720), len(layout.markers)
    few = map_not_found(MapFix(False, None, [3], None), layout, cfg, size)
    assert few.startswith(f"the board's markers were not found: 1 of {n} seen")
    assert "whole board in the picture" in few
    # Every marker seen, the fit rejected: its error, the limit and the likely causes,
    # not "not found" (which sent people looking for markers they could see).
    misfit = map_not_found(MapFix(False, None, list(range(n)), 37.4), layout, cfg, size)
    assert f"seen ({n} of {n}) but do not fit the layout: 37.4 px" in misfit
    assert "not found" not in misfit and "--marker-height" in misfit
    bunched = map_not_found(MapFix(False, None, [0, 1, 2], None), layout, cfg, size)
    assert "too close together" in bunched


def _board(shape=(300, 400), value=170.0, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    grain = rng.normal(0, 12, shape)  # a board's own texture: wood, print
    return np.clip(np.dstack([value + grain] * 3), 0, 255).astype(np.uint8)


def test_an_empty_board_in_good_light_is_learned_without_a_word() -> None:
    refused, warnings = empty_board_problems(_board())
    assert refused is None and warnings == []


def test_an_empty_board_too_dark_is_refused() -> None:
    refused, _ = empty_board_problems(_board(value=25))
    assert refused is not None and "too dark" in refused and "light of play" in refused


def test_coloured_or_uneven_light_is_warned_about() -> None:
    purple = _board().astype(np.float32) * np.array([1.0, 0.55, 0.9])  # B, G, R
    refused, warnings = empty_board_problems(purple.astype(np.uint8))
    assert refused is None and len(warnings) == 1 and "coloured" in warnings[0]
    patch = _board()
    patch[:, :200] = (patch[:, :200] * 0.3).astype(np.uint8)  # half in shadow, half in sun
    refused, warnings = empty_board_problems(patch)
    assert refused is None and any("uneven" in w and "sun patch" in w for w in warnings)


def test_an_empty_board_with_a_clipped_sun_patch_is_warned_about() -> None:
    """A sun patch so bright the camera clipped it: whatever is pale and stands there
    later looks like the board. Its share is said; a few clipped pixels (a marker's
    white label, a glint) are not."""
    board = _board()
    board[100:180, 120:260] = 255  # 9 % of the board white-out
    refused, warnings = empty_board_problems(board)
    assert refused is None and any("9% of the empty board is white-out" in w
                                   for w in warnings)
    board = _board()
    board[100:110, 120:260] = 255  # 1 %
    assert empty_board_problems(board) == (None, [])


def test_every_cell_changed_against_a_learned_board_asks_to_learn_it_again() -> None:
    said = relearn_advice(24, 25, learned=True)
    assert said is not None and "Learn the board again" in said and "24 of 25" in said
    assert relearn_advice(10, 25, learned=True) is None  # hands over a few cells
    assert relearn_advice(25, 25, learned=False) is None  # the printed map: no learning


def _grid(offset: int = 0, lines: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A board of 6 x 6 cells 60 px wide (1 px a mm) with its own dark lines drawn
    ``offset`` px right and down of where the region map puts the borders."""
    labels = np.zeros((400, 400), np.int32)
    for i in range(6):
        for j in range(6):
            labels[20 + 60 * i:20 + 60 * (i + 1), 20 + 60 * j:20 + 60 * (j + 1)] = 1 + 6 * i + j
    board = _board((400, 400))
    if lines:
        for k in range(7):
            p = 20 + 60 * k + offset
            board[max(0, p - 1):p + 1, 20 + offset:380 + offset] = 40
            board[20 + offset:380 + offset, max(0, p - 1):p + 1] = 40
    return board, labels


def test_a_board_whose_own_lines_lie_off_the_layout_is_warned_about() -> None:
    """A marker height wrong for every marker alike fits the markers as well as the
    right one; the board's own lines, 12 mm right and 12 down of the layout's borders
    (17 mm away), tell."""
    board, labels = _grid(12)
    warning = lines_off(board, labels, 1.0, {0.0})
    assert warning is not None and "--marker-height" in warning
    found = re.search(r"lie (\d+)-(\d+) mm", warning)
    assert found and 15 <= int(found[1]) <= int(found[2]) <= 19
    board, labels = _grid(0)
    assert lines_off(board, labels, 1.0, {0.0}) is None
    board, labels = _grid(2)  # within what a fit leaves
    assert lines_off(board, labels, 1.0, {0.0}) is None
    board, labels = _grid(12, lines=False)  # a mat with no lines: nothing to judge by
    assert lines_off(board, labels, 1.0, {0.0}) is None
