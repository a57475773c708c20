"""A real PostgreSQL for the hub's tests: one throw-away cluster for the session, a new
database for each test."""

from __future__ import annotations

import itertools
import shutil
import socket
import tempfile

import pytest

from hub.store import HubStore
from tablesight.pgcluster import Cluster

_numbers = itertools.count()


def free_port() -> int:
    """A port number nothing listens on (the server listens on a Unix socket named
    after it, so only the number must be free among clusters on this machine)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def cluster():
    # In a folder of its own under /tmp: pytest's folders are closed to the ``postgres``
    # user the server runs as under root.
    folder = tempfile.mkdtemp(prefix="tablesight-pg-")
    c = Cluster(folder, port=free_port()).create()
    c.start()
    yield c
    c.stop("immediate")
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def dsn(cluster):
    return cluster.create_database(f"hub_{next(_numbers)}")


@pytest.fixture
def store(dsn):
    s = HubStore(dsn)
    s.setup()
    return s
