"""``tablesight bench hub`` runs end to end (its figures are reported, not asserted)."""

from __future__ import annotations

import pytest

from tablesight.bench_hub import bench_hub

pytestmark = pytest.mark.slow


def test_the_bench_plays_tables_through_the_hub_and_reports():
    out = bench_hub(tables=2, seconds=12.0, pace=0.02)
    assert out["tables"] == 2
    assert out["entries_stored_per_second"] > 0
    assert out["staff_stream_events"] > 0  # the staff stream heard the tables
    assert out["memory_mb_start"]["hub"] > 0 and out["memory_mb_end"]["tables"] > 0
