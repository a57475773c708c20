"""The main job as a user runs it: ``tablesight demo``, ``tablesight run`` killed with
SIGKILL and restarted, ``export`` and ``replay`` (real subprocesses, real HTTP)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tablesight(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablesight", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


class Running:
    """``tablesight run`` in the background, talking HTTP like a browser."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "tablesight", "run", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, cwd=ROOT, env=env)
        self.lines: list[str] = []
        assert self.proc.stdout is not None
        end = time.monotonic() + 60
        self.url = ""
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            m = re.match(r"dashboard: (http://\S+)", line)
            if m:
                self.url = m.group(1)
                break
        assert self.url, "".join(self.lines)
        # A browser keeps the session cookie the CSRF token is tied to.
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        page = self.http.open(self.url).read().decode()
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)

    def get(self, path: str) -> dict:
        return json.loads(self.http.open(self.url + path.lstrip("/")).read())

    def command(self, cmd: dict) -> dict:
        req = urllib.request.Request(self.url + "api/command", json.dumps(cmd).encode(),
                                     {"Content-Type": "application/json",
                                      "X-CSRF-Token": self.csrf})
        return json.loads(self.http.open(req).read())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=20)


def test_demo_plays_a_whole_game_with_the_dashboard_up(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    out_file = tmp_path / "demo.out"
    with out_file.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "tablesight", "demo", "--fast",
                                 "--exit-at-end", "--web-port", "0", "--quiet", "--db", str(db)],
                                stdout=out, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        try:
            code = proc.wait(timeout=400)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = None
    text = out_file.read_text()
    r = subprocess.CompletedProcess(proc.args, code, text, "")
    assert r.returncode == 0, "\n".join(text.splitlines()[-60:])
    assert "dashboard: http://127.0.0.1:" in r.stdout
    assert re.search(r"game over after \d+ s: (Ann|Bob) won; Ann \d turns won, "
                     r"Bob \d turns won", r.stdout)
    assert "[camera] " in r.stdout and "[box] roll:" in r.stdout
    # The game is in the log: export it and play it back.
    out = tablesight("export", "--db", str(db))
    assert out.returncode == 0, out.stderr
    record = tmp_path / "game.json"
    record.write_text(out.stdout)
    rep = tablesight("replay", str(record))
    assert rep.returncode == 0, rep.stderr
    assert re.search(r"replayed \d+ operations: (Ann|Bob) won; turns won: Ann \d, Bob \d",
                     rep.stdout), rep.stdout
    data = json.loads(out.stdout)
    data["operations"][5] = {"kind": "action", "action": "p1 move p1#0 z9"}
    record.write_text(json.dumps(data))
    bad = tablesight("replay", str(record))
    assert bad.returncode == 2 and "operation 5" in bad.stderr


def test_run_killed_mid_game_resumes_the_same_game(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    table = Running("--db", str(db), "--web-port", "0")
    try:
        assert "new game 1" in "".join(table.lines)
        for cmd in ({"do": "initiative", "player": "p1", "die": 5},
                    {"do": "initiative", "player": "p2", "die": 2},
                    {"do": "action", "action": "p1 spawn p1#0 e1"},
                    {"do": "ready", "player": "p1"},
                    {"do": "action", "action": "p2 spawn p2#1 a5"}):
            assert table.command(cmd)["ok"]
        before = table.get("/api/state")
    finally:
        table.kill()
    again = Running("--db", str(db), "--web-port", "0")
    try:
        assert "resumed game 1" in "".join(again.lines)
        after = again.get("/api/state")
        assert after["state"] == before["state"]
        assert after["prompt"]["text"] == before["prompt"]["text"]
        assert [h["action"] for h in after["history"] if h["kind"] == "action"] == [
            "initiative 5 2", "p1 spawn p1#0 e1", "p1 end", "p2 spawn p2#1 a5"]
    finally:
        again.stop()


def test_run_resumes_a_game_of_any_system(track_installed, tmp_path: Path) -> None:
    """A game whose state has no turn counter (the example game) resumes and says where
    it stands in its own words."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    db = tmp_path / "games.db"
    table = Running("--db", str(db), "--web-port", "0", "--game", "track", env=env)
    try:
        assert "new game 1" in "".join(table.lines)
        assert table.command({"do": "die", "player": "p1", "die": 4})["ok"]
    finally:
        table.kill()
    again = Running("--db", str(db), "--web-port", "0", env=env)
    try:
        said = "".join(again.lines)
        assert "resumed game 1" in said and "(1 operations): Player 1: move a pawn 4" in said
        assert again.get("/api/state")["state"]["roll"] == 4
    finally:
        again.stop()


def test_run_refuses_a_file_that_is_not_a_game_log(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("my notes\n")
    r = tablesight("run", "--db", str(notes), "--web-port", "0", timeout=60)
    assert r.returncode == 2
    assert "not an SQLite database" in r.stderr and "Traceback" not in r.stderr
    assert notes.read_text() == "my notes\n"


def test_run_off_localhost_needs_a_strong_pin_and_creates_nothing_without(
        tmp_path: Path) -> None:
    for cmd in ("run", "demo"):
        db = tmp_path / f"{cmd}.db"
        r = tablesight(cmd, "--db", str(db), "--host", "0.0.0.0", "--web-port", "0",
                       timeout=60)
        assert r.returncode == 2 and "admin PIN" in r.stderr
        r = tablesight(cmd, "--db", str(db), "--host", "0.0.0.0", "--web-port", "0",
                       "--admin-pin", "1234", timeout=60)
        assert r.returncode == 2 and "at least 6 characters" in r.stderr
        assert not db.exists()  # refused before any game was created


def test_a_demo_refused_for_a_busy_port_leaves_no_temporary_folder(tmp_path: Path) -> None:
    """A second demo while the first holds the dashboard's port: one line, exit 2, and
    nothing of it left in the temporary folder."""
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        env = {**os.environ, "TMPDIR": str(tmp_path)}
        r = subprocess.run([sys.executable, "-m", "tablesight", "demo", "--exit-at-end",
                            "--fast", "--web-port", str(busy.getsockname()[1])],
                           capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    finally:
        busy.close()
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_run_on_the_lan_prints_the_addresses_players_open(tmp_path: Path) -> None:
    from tablesight.server import lan_addresses

    table = Running("--db", str(tmp_path / "g.db"), "--web-port", "0", "--host", "0.0.0.0",
                    "--admin-pin", "730519")
    try:
        line = next(x for x in table.lines if x.startswith("dashboard: "))
        for addr in lan_addresses():
            assert f"http://{addr}:" in line
        assert table.get("/api/state")["staff_login"] is True
    finally:
        table.stop()


def test_backup_of_a_live_log_and_its_resume(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    table = Running("--db", str(db), "--web-port", "0")
    try:
        for cmd in ({"do": "initiative", "player": "p1", "die": 5},
                    {"do": "initiative", "player": "p2", "die": 2},
                    {"do": "action", "action": "p1 spawn p1#0 e1"}):
            assert table.command(cmd)["ok"]
        r = tablesight("backup", "--db", str(db), "--out", str(tmp_path / "b.db"), timeout=60)
        assert r.returncode == 0, r.stderr
        assert "backed up 1 games" in r.stdout
    finally:
        table.stop()
    out = tablesight("export", "--db", str(tmp_path / "b.db"))
    assert out.returncode == 0, out.stderr
    assert [op["action"] for op in json.loads(out.stdout)["operations"]] == [
        "initiative 5 2", "p1 spawn p1#0 e1"]


def test_after_the_demo_game_a_new_game_is_played_too(tmp_path: Path) -> None:
    """Game over, the dashboard's 'new game' button: the scripted players clear the map
    and play the new game (they stopped at the first game's end before). A new game
    started mid-game is played the same way: that is checked first."""
    proc = subprocess.Popen([sys.executable, "-m", "tablesight", "demo", "--fast", "--quiet",
                             "--web-port", "0", "--db", str(tmp_path / "demo.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT)
    lines: list[str] = []
    assert proc.stdout is not None

    def read_until(prefix: str, limit: float = 300) -> str:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            line = proc.stdout.readline()
            assert line, "".join(lines[-40:])
            lines.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"no {prefix!r} in {limit} s")

    def new_game() -> int:
        state = json.loads(http.open(url + "api/state").read())
        body = json.dumps({k: state["setup"][k] for k in ("names", "colors", "forces")})
        req = urllib.request.Request(url + "api/games", body.encode(), {
            "Content-Type": "application/json", "X-CSRF-Token": csrf})
        return json.loads(http.open(req).read())["game_id"]

    def played(game: int) -> dict:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = json.loads(http.open(url + "api/state").read())
            on_map = [m for m in state["board"]["pieces"] if m["region"]]
            if state["game_id"] == game and len(on_map) >= 3:
                return state
            time.sleep(0.3)
        raise AssertionError(f"the scripted players did not play game {game}")

    try:
        url = read_until("dashboard: ").split()[1]
        http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        page = http.open(url).read().decode()
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
        read_until("[camera]")  # the first game is under way
        second = new_game()
        played(second)
        read_until("the dashboard stays up")  # the second game, played to its end
        state = json.loads(http.open(url + "api/state").read())
        assert state["game_id"] == second and state["prompt"]["step"] == "game_over"
        third = new_game()
        state = played(third)
        assert not state["desync"] or len(state["desync"]) == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
        lines.append(out)
    text = "".join(lines)
    assert f"new game {second}: Ann and Bob" in text and f"new game {third}: Ann and Bob" in text
    assert proc.returncode == 0, text[-3000:]
