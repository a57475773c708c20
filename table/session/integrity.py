"""How the game log notices lost or damaged entries.

SQLite keeps its own pages consistent, but it cannot know what it never received: a
database copied without its ``-wal`` file, or a ``-wal`` file damaged in the middle (SQLite
then stops reading it there), is a valid database holding a *shorter* game. Two things
let the log tell:

* **A hash chain.** Each entry stores ``chain = H(previous chain, the entry)``, starting
  from ``H(the game's setup)``. A changed, removed or reordered entry breaks every chain
  after it, so a damaged entry is found and named.
* **The head file** (``games.db-head``, beside ``-wal`` and ``-shm``): after each commit, the
  last entry's number and chain per game. It is written *after* the commit is durable,
  so it can lag behind the database (after a power cut) but never run ahead of it. A
  database whose game ends before the head's entry has lost entries, and says which.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

HEAD_FORMAT = "tablesight-head/1"


def root(setup_text: str) -> str:
    return hashlib.sha256(b"tablesight game\n" + setup_text.encode()).hexdigest()


def link(prev: str, seq: int, time: float, kind: str, source: str, body_text: str) -> str:
    """The chain after one entry (``time`` as SQLite returns it: a double, exactly)."""
    h = hashlib.sha256()
    for part in (prev, str(seq), repr(float(time)), kind, source, body_text):
        h.update(part.encode())
        h.update(b"\x00")  # a separator no text field holds unescaped
    return h.hexdigest()


def chains(setup_text: str, rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The chain after each of a game's entries, rows as the log stores them: (seq,
    time, kind, source, body, ...), in order."""
    chain = root(setup_text)
    for seq, t, kind, source, body, *_ in rows:
        chain = link(chain, seq, t, kind, source, body)
        yield chain


def head_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-head")


def read_heads(db_path: Path) -> dict[int, tuple[int, str]]:
    """The head file's ``game -> (last seq, its chain)``; empty when there is none or it
    is unreadable (then only the chain is checked)."""
    try:
        data = json.loads(head_path(db_path).read_text(encoding="utf-8"))
        if data.get("format") != HEAD_FORMAT:
            return {}
        return {int(g): (int(v["seq"]), str(v["chain"])) for g, v in data["games"].items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def write_heads(db_path: Path, heads: dict[int, tuple[int, str]]) -> None:
    """Replace the head file (atomically: a reader sees the old or the new one). Not
    synced to disk: after a power cut an older head only checks less, never wrongly."""
    path = head_path(db_path)
    tmp = path.with_name(path.name + ".tmp")
    doc: dict[str, Any] = {"format": HEAD_FORMAT,
                           "games": {str(g): {"seq": s, "chain": c}
                                     for g, (s, c) in sorted(heads.items())}}
    try:
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
