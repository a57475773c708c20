"""Fixtures shared across test packages."""

from __future__ import annotations

from pathlib import Path

import pytest

from table import registry


def pytest_configure(config: pytest.Config) -> None:
    """Builds the table box's firmware and its simavr harness once, before any test
    runs. ``./run tests`` spreads the tests over pytest-xdist workers that share
    ``firmware_bridge/firmware/build``: two workers running ``make`` there at once could
    hand one of them a half-written harness. The workers find it built."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has built it
        return
    from firmware_bridge.emulator import EmulatorError, build
    try:
        build()
    except EmulatorError:
        pass  # no AVR toolchain: the tests that need one fail and say what to install


def install_games(site: Path, games: dict[str, str], mp: pytest.MonkeyPatch) -> None:
    """Games installed the way a game package is: a distribution in ``site`` whose
    metadata declares their ``tablesight.games`` entry points (name -> ``module:OBJECT``),
    found on ``sys.path`` by ``importlib.metadata`` (``mp`` undoes it)."""
    name = "tablesight_" + "_".join(sorted(games))
    dist = site / f"{name}-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[tablesight.games]\n" + "".join(f"{n} = {t}\n" for n, t in games.items()))
    mp.syspath_prepend(str(site))
    registry.systems.cache_clear()


TRACK = {"track": "table.games.track.system:SYSTEM"}  # the example game
HIGHCARD = {"highcard": "tests.highcard:SYSTEM"}  # a test game of a deck


@pytest.fixture
def track_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Track (``table.games.track``, the example game), installed (``install_games``)."""
    install_games(tmp_path / "site", TRACK, monkeypatch)
    yield
    registry.systems.cache_clear()


@pytest.fixture(scope="module")
def track_installed_module(tmp_path_factory: pytest.TempPathFactory):
    """Track installed for a whole module (module-wide fixtures need it)."""
    mp = pytest.MonkeyPatch()
    install_games(tmp_path_factory.mktemp("site"), TRACK, mp)
    yield
    mp.undo()
    registry.systems.cache_clear()


@pytest.fixture
def cards_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """High Card (``tests/highcard.py``, a test game), installed like ``track_installed``."""
    install_games(tmp_path / "site", HIGHCARD, monkeypatch)
    yield
    registry.systems.cache_clear()
