import numpy as np
import pytest

from vision.layout import game_layout
from vision.synth import SceneRenderer


@pytest.fixture(scope="session")
def layout():
    return game_layout()


@pytest.fixture(scope="session")
def renderer(layout):
    return SceneRenderer(layout)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture(scope="module")
def hex_map():
    """Warseer's hex map and a renderer of it."""
    layout = game_layout("warseer")
    return layout, SceneRenderer(layout)
