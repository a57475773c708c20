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
