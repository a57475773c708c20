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


@pytest.fixture
def track_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Track (``table.games.track``, the example game) installed the way a game package
    is: a distribution whose metadata declares the entry point, found on ``sys.path`` by
    ``importlib.metadata``."""
    dist = tmp_path / "site" / "tablesight_track-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tablesight-track\n"
                                   "Version: 0.1\n")
    (dist / "entry_points.txt").write_text("[tablesight.games]\n"
                                           "track = table.games.track.system:SYSTEM\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))  # undone after the test
    registry.systems.cache_clear()
    yield
    registry.systems.cache_clear()


@pytest.fixture
def cards_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """High Card (``tests/highcard.py``, a test game), installed like ``track_installed``."""
    dist = tmp_path / "site" / "tablesight_highcard-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tablesight-highcard\n"
                                   "Version: 0.1\n")
    (dist / "entry_points.txt").write_text("[tablesight.games]\n"
                                           "highcard = tests.highcard:SYSTEM\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    registry.systems.cache_clear()
    yield
    registry.systems.cache_clear()
