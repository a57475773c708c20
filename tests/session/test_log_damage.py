"""No game lost on disk: a game log copied without its -wal, a damaged -wal, a lost tail,
a damaged entry, a truncated, empty or foreign file, a backup taken while a game is
written. Each test counts the operations recovered: all of them, or a refusal that
says what was lost; never a silently shorter game."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from table.session import GameLog, Session, StorageError
from table.session.integrity import head_path

from .test_storage import ROOT, killed_mid_game, started


def recovered(db: Path) -> list[str]:
    log = GameLog(db)
    try:
        return [op.body["action"] for op in Session.resume(log).ops]
    finally:
        log.close()


def test_a_copy_without_its_wal_holds_the_whole_game(tmp_path: Path) -> None:
    db, shown = killed_mid_game(tmp_path, 60)
    assert (tmp_path / "games.db-wal").exists()  # the crash left one behind
    copy = tmp_path / "copy" / "games.db"
    copy.parent.mkdir()
    shutil.copy(db, copy)  # the main file alone, as a careless copy takes it
    ops = recovered(copy)
    assert ops[:len(shown)] == shown  # every shown action recovered (60 of 60)


def test_a_damaged_wal_loses_nothing_or_is_refused(tmp_path: Path) -> None:
    db, shown = killed_mid_game(tmp_path, 60)
    wal = tmp_path / "games.db-wal"
    data = bytearray(wal.read_bytes())
    rng = random.Random(5)
    for _ in range(64):  # random bytes over the whole -wal, header included
        data[rng.randrange(len(data))] = rng.randrange(256)
    wal.write_bytes(bytes(data))
    try:
        ops = recovered(db)
    except StorageError as e:  # refused: and it says so
        assert "lost" in str(e) or "damaged" in str(e)
        return
    assert ops[:len(shown)] == shown


def test_a_lost_tail_is_refused_with_the_count(tmp_path: Path) -> None:
    log, s = started(tmp_path)
    s.command({"do": "action", "action": "p1 spawn p1#0 e1"})
    early = tmp_path / "early.db"
    log.backup(early)
    s.command({"do": "ready", "player": "p1"})
    s.command({"do": "action", "action": "p2 end"})
    log.close()
    # The older database put back beside the newer head: as if the -wal with the last
    # entries had been lost.
    for f in tmp_path.glob("games.db*"):
        if f.name != "games.db-head":
            f.unlink()
    shutil.copy(early, tmp_path / "games.db")
    with pytest.raises(StorageError, match=r"lost its last 2 of \d+ entries"):
        Session.resume(GameLog(tmp_path / "games.db"))
    # Moving the head file away is how a person accepts the shorter game.
    head_path(tmp_path / "games.db").unlink()
    assert [op.body["action"] for op in Session.resume(GameLog(tmp_path / "games.db")).ops][-1] \
        == "p1 spawn p1#0 e1"


def test_a_damaged_entry_is_named(tmp_path: Path) -> None:
    log, s = started(tmp_path)
    s.command({"do": "action", "action": "p1 spawn p1#0 e1"})
    s.command({"do": "ready", "player": "p1"})
    log.close()
    db = sqlite3.connect(tmp_path / "games.db")
    seq = db.execute("SELECT seq FROM entries WHERE body LIKE '%spawn p1#0%'").fetchone()[0]
    db.execute("UPDATE entries SET body=replace(body, 'e1', 'd1') WHERE seq=?", (seq,))
    db.commit()
    db.close()
    with pytest.raises(StorageError, match=f"entry {seq} \\(action\\) is damaged"):
        Session.resume(GameLog(tmp_path / "games.db"))


def test_a_removed_entry_is_named(tmp_path: Path) -> None:
    log, s = started(tmp_path)
    s.command({"do": "action", "action": "p1 spawn p1#0 e1"})
    s.command({"do": "ready", "player": "p1"})
    log.close()
    db = sqlite3.connect(tmp_path / "games.db")
    db.execute("DELETE FROM entries WHERE seq=2")
    db.commit()
    db.close()
    with pytest.raises(StorageError, match="lost entry 2"):
        Session.resume(GameLog(tmp_path / "games.db"))


@pytest.mark.parametrize("damage", ["empty", "truncated", "text", "wal_only"])
def test_damaged_files_are_refused_and_left_alone(tmp_path: Path, damage: str) -> None:
    log, _s = started(tmp_path)
    log.close()
    db = tmp_path / "games.db"
    if damage == "empty":
        db.write_bytes(b"")
    elif damage == "truncated":
        db.write_bytes(db.read_bytes()[:3000])
    elif damage == "text":
        db.write_text("a shopping list\n")
    else:
        (tmp_path / "games.db-wal").write_bytes(db.read_bytes())
        db.unlink()
    before = db.read_bytes() if db.exists() else None
    with pytest.raises(StorageError):
        Session.resume(GameLog(db))
    assert (db.read_bytes() if db.exists() else None) == before  # nothing written over it


@pytest.mark.parametrize("damage", ["empty", "truncated", "foreign", "missing"])
def test_export_of_a_damaged_file_is_one_line(tmp_path: Path, damage: str) -> None:
    db = tmp_path / "games.db"
    if damage == "empty":
        db.write_bytes(b"")
    elif damage == "truncated":
        log, _s = started(tmp_path)
        log.close()
        db.write_bytes(db.read_bytes()[:3000])
    elif damage == "foreign":
        other = sqlite3.connect(db)
        other.execute("CREATE TABLE notes(x)")
        other.commit()
        other.close()
    r = subprocess.run([sys.executable, "-m", "tablesight", "export", "--db", str(db)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("tablesight: ")


def test_a_backup_while_a_game_is_written_is_whole(tmp_path: Path) -> None:
    log, s = started(tmp_path)
    game = s.game_id
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            log.append(game, "warning", {"message": f"busy {n}"}, "test")
            n += 1

    t = threading.Thread(target=writer)
    t.start()
    time.sleep(0.2)
    at_start = log.check(game)
    out = log.backup(tmp_path / "backup.db")
    stop.set()
    t.join()
    copy = GameLog(out, create=False)
    n = copy.check(game)
    assert n >= at_start > 0
    assert copy.games()[0].entries == n
    copy.close()
    assert head_path(out).exists()
    with pytest.raises(StorageError, match="exists already"):
        log.backup(out)


def test_the_game_on_the_table_is_resumed_not_the_newest(tmp_path: Path) -> None:
    from web import TableServices

    log, s = started(tmp_path)
    TableServices(s, log=log)  # the table shows it
    other = Session.new(s.setup, log)  # created later (a second tab, a script)
    assert other.game_id > s.game_id
    log.close()
    again = GameLog(tmp_path / "games.db")
    assert again.on_table().id == s.game_id
    assert Session.resume(again).game_id == s.game_id
