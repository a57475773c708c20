"""The game log: resume, undo across restarts, migrations, files that are not ours,
and a process killed mid-game."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from table.device import DeviceEvent
from table.session import GameLog, Session, StorageError
from table.session.storage import APPLICATION_ID, SCHEMA_VERSION

from .helpers import sample_setup, seen
from .test_session import play_game

ROOT = Path(__file__).resolve().parents[2]


def started(tmp_path: Path) -> tuple[GameLog, Session]:
    log = GameLog(tmp_path / "games.db")
    s = Session.new(sample_setup(), log)
    s.observe(seen(s.state))
    for p, die in (("p1", 5), ("p2", 2)):
        s.device(DeviceEvent("roll", 0.0, p, sides=6, numbers=(die,)))
    return log, s


def test_resume_gives_the_same_state(tmp_path: Path) -> None:
    log, s = started(tmp_path)
    s.command({"do": "action", "action": "p1 spawn p1#0 e1"})
    s.command({"do": "ready", "player": "p1"})
    key = s.state.key()
    log.close()
    again = Session.resume(GameLog(tmp_path / "games.db"))
    assert again.state.key() == key
    assert again.game_id == s.game_id and again.setup == s.setup
    assert [h["kind"] for h in again.history].count("action") == 3


def test_undo_survives_a_restart(tmp_path: Path) -> None:
    log, s = started(tmp_path)
    before = s.state.key()
    s.command({"do": "action", "action": "p1 spawn p1#0 e1"})
    s.command({"do": "undo"})
    log.close()
    again = Session.resume(GameLog(tmp_path / "games.db"))
    assert again.state.key() == before and len(again.ops) == 1


def test_a_finished_game_is_not_resumed_and_the_record_replays(tmp_path: Path) -> None:
    s, _ = play_game(7)
    log = GameLog(tmp_path / "games.db")
    fresh = Session.new(sample_setup(), log)
    for op in s.record()["operations"]:
        fresh.command({"do": "action", "action": op["action"]}, source="replay")
    assert fresh.state.is_over()
    assert log.latest_playing() is None
    assert Session.resume(log, fresh.game_id).state.key() == fresh.state.key()
    with pytest.raises(StorageError, match="no unfinished game"):
        Session.resume(log)


def test_a_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list\n")
    with pytest.raises(StorageError, match="not an SQLite database"):
        GameLog(path)
    assert path.read_text() == "shopping list\n"


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t(x)")
    db.execute("INSERT INTO t VALUES (1)")
    db.commit()
    db.close()
    with pytest.raises(StorageError, match="another program"):
        GameLog(path)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    GameLog(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StorageError, match="newer tablesight"):
        GameLog(path)


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    log, _s = started(tmp_path)
    log.close()
    path = tmp_path / "games.db"
    data = bytearray(path.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # the header survives, the pages do not
    path.write_bytes(bytes(data))
    for wal in tmp_path.glob("games.db-*"):
        wal.unlink()
    with pytest.raises(StorageError):
        Session.resume(GameLog(path))


def test_a_version_1_log_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, created REAL NOT NULL,
                            setup TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'playing');
        CREATE TABLE entries (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                              time REAL NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL,
                              PRIMARY KEY (game, seq));
        PRAGMA user_version=1;
    """)
    db.execute("INSERT INTO games(created, setup) VALUES (1, ?)",
               (json.dumps(sample_setup().to_dict()),))
    db.execute("INSERT INTO entries VALUES (1, 1, 1, 'action', ?)",
               (json.dumps({"action": "initiative 5 2"}),))
    db.commit()
    db.close()
    log = GameLog(path)
    assert log.schema_version == SCHEMA_VERSION
    s = Session.resume(log)
    assert s.state.phase.value == "spawn" and s.history[0]["source"] == ""


CHILD = """
import sys
sys.path.insert(0, {root!r})
from table.session import GameLog, Session
from tests.session.test_session import play_game
import tests.session.test_session as t

log = GameLog({db!r})
real_new = Session.new
def new(setup, log_=None, catalog=None):
    s = real_new(setup, log, catalog)
    s.subscribe(lambda e: e.kind == "action" and print(e.data["action"], flush=True))
    return s
Session.new = new
play_game(11)
"""


def killed_mid_game(tmp_path: Path, actions: int) -> tuple[Path, list[str]]:
    """A game played in another process and killed with SIGKILL after ``actions``
    accepted actions: the log as a crash leaves it (main file, -wal, -shm, -head), and
    the actions the game had announced."""
    db = tmp_path / "games.db"
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(ROOT), db=str(db))],
                             stdout=subprocess.PIPE, text=True)
    shown: list[str] = []
    assert child.stdout is not None
    deadline = time.monotonic() + 60
    while len(shown) < actions and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        shown.append(line.strip())
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert len(shown) >= actions, "the game did not get far enough to be killed mid-way"
    return db, shown


def test_killed_mid_game_nothing_shown_is_lost(tmp_path: Path) -> None:
    db, shown = killed_mid_game(tmp_path, 120)
    s = Session.resume(GameLog(db))
    replayed = [op.body["action"] for op in s.ops]
    # Everything announced was in the file first; at most the actions logged after the
    # last line we read are extra.
    assert replayed[:len(shown)] == shown
    assert not s.state.is_over()


def test_a_version_3_log_learns_each_games_system(tmp_path: Path) -> None:
    """Schema 4 records the game system and rules version per game; a log from before
    names the system its setups name (or the one there was), the version unknown."""
    path = tmp_path / "v3.db"
    log = GameLog(path)
    s = Session.new(sample_setup(), log)
    s.command({"do": "action", "action": "initiative 5 2"})
    log.db.execute("UPDATE games SET game='', rules_version=''")
    log.db.execute("ALTER TABLE games DROP COLUMN game")
    log.db.execute("ALTER TABLE games DROP COLUMN rules_version")
    log.db.execute("PRAGMA user_version=3")
    log.close()
    again = GameLog(path)
    assert again.schema_version == SCHEMA_VERSION
    row = again.games()[0]
    assert (row.game, row.rules_version) == ("dreamblade", "")
    assert Session.resume(again).state.phase.value == "spawn"


def test_a_new_game_records_its_system_and_rules_version(tmp_path: Path) -> None:
    from table.games.dreamblade.system import SYSTEM

    log = GameLog(tmp_path / "games.db")
    Session.new(sample_setup(), log)
    row = log.games()[0]
    assert (row.game, row.rules_version) == ("dreamblade", SYSTEM.rules_version)
    log.db.execute("UPDATE games SET rules_version='dreamblade-2006/engine-1'")
    s = Session.resume(log)
    assert "played under rules dreamblade-2006/engine-1" in s.history[-1]["text"]


def test_a_die_rolled_before_a_crash_is_not_lost(tmp_path: Path) -> None:
    """One player rolled initiative, then the host died: the resumed game still has
    that die, and waits for the other player's (an undo still forgets it)."""
    log = GameLog(tmp_path / "games.db")
    s = Session.new(sample_setup(), log)
    s.command({"do": "initiative", "player": "p1", "die": 5})
    again = Session.resume(GameLog(tmp_path / "games.db"))
    assert again.referee.init_dice == {"p1": 5}
    assert again.prompt().text == "turn 1: roll initiative (Bob to roll; Ann rolled 5)"
    again.command({"do": "initiative", "player": "p2", "die": 2})
    assert again.state.phase.value == "spawn" and again.state.active == "p1"
