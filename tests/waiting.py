"""Waiting in tests for what another thread (a camera loop, a box reader) will do."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(cond: Callable[[], object], timeout: float = 10.0) -> bool:
    """Whether ``cond()`` became true within ``timeout`` seconds (polled every 50 ms)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False
