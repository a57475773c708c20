"""A throw-away PostgreSQL cluster (Debian's ``postgresql`` package), for the hub's tests
and ``tablesight bench hub``: ``initdb`` into a folder, the server on a Unix socket only,
trust for local connections, and everything gone with the folder.

PostgreSQL refuses to run as root; under root (CI) the cluster runs as the package's
``postgres`` user through ``runuser``."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path


class ClusterError(RuntimeError):
    """The cluster could not be made or started; says what to install or look at."""


def bin_dir() -> Path:
    """The newest installed PostgreSQL's programs (``initdb``, ``pg_ctl``)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if not found:
        raise ClusterError("PostgreSQL is not installed: apt-get install postgresql")
    return Path(found[-1]).parent


class Cluster:
    """One PostgreSQL server in ``folder``; ``dsn(db)`` to connect to it."""

    def __init__(self, folder: str | Path, port: int = 5433) -> None:
        self.folder = Path(folder)
        self.data = self.folder / "data"
        self.socket = self.folder / "socket"
        self.port = port
        self.bin = bin_dir()
        self._as_postgres = os.geteuid() == 0

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if check and done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            raise ClusterError(f"{args[0]} failed: {lines[-1] if lines else done.returncode}")
        return done

    def create(self) -> Cluster:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.socket.mkdir(exist_ok=True)
        if self._as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(self.socket, "postgres", "postgres")
        if not (self.data / "PG_VERSION").exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust",
                      "--no-sync", "-E", "UTF8")
        return self

    def start(self) -> Cluster:
        # No TCP: the socket folder alone, and no durability work a test does not need.
        opts = (f"-k {self.socket} -p {self.port} -c listen_addresses='' "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l",
                  str(self.folder / "server.log"), "-w", "-t", "60", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def dsn(self, db: str = "postgres") -> str:
        return f"host={self.socket} port={self.port} user=postgres dbname={db}"

    def create_database(self, name: str) -> str:
        """A new empty database; its DSN."""
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)
