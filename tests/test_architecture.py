"""The layout's rules, read from the source:

* ``table`` is pure: it imports none of cv2, serial, flask, psycopg, nor the packages
  that wrap them (``vision``, ``firmware_bridge``, ``web``, ``hub``, ``tablesight``);
* the store hub (``hub``) is a server of its own: it may read the core's log format
  (``table``) but not a table's camera, box or dashboard, and no table part imports it
  but the composition root;
* each game is a package of its own under ``table/games/``: nothing outside
  ``table/games/X/`` imports X, no game imports another, and no game does I/O (its data
  files are read through ``importlib.resources`` by its loaders alone);
* the neutral parts do not even name a game;
* the import graph of the project has no circle.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("table", "vision", "firmware_bridge", "web", "hub", "tablesight")
FORBIDDEN_IN_TABLE = {"cv2", "serial", "flask", "psycopg", "vision", "firmware_bridge",
                      "web", "hub", "tablesight"}
GAMES = ROOT / "table" / "games"

def _python_files(*tops: str) -> Iterator[Path]:
    for top in tops:
        yield from (ROOT / top).rglob("*.py")


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, *, with_type_checking: bool = True) -> set[str]:
    """Every module a file imports, relative imports resolved; ``from pkg import name``
    counts as importing ``pkg.name`` (which may be a module or a name in ``pkg``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = _module_of(path).split(".")
    if path.name != "__init__.py":
        pkg = pkg[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = pkg[:len(pkg) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names |= {f"{module}.{a.name}" for a in node.names}
            if node.module:
                names.add(module)
    return names


def _games() -> set[str]:
    return {p.name for p in GAMES.iterdir() if (p / "__init__.py").exists()}


def _game_named(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["table", "games"] and len(parts) > 2:
        return parts[2]
    return None


def test_table_is_pure():
    files = list(_python_files("table"))
    assert files
    bad = {str(f.relative_to(ROOT)): sorted({m.split(".")[0] for m in _imports(f)}
                                            & FORBIDDEN_IN_TABLE) for f in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_hub_stands_apart():
    into_hub = {str(f.relative_to(ROOT)) for f in _python_files("vision", "firmware_bridge",
                                                                 "web")
                if any(m.split(".")[0] == "hub" for m in _imports(f))}
    hub_reaches = {m.split(".")[0] for f in _python_files("hub") for m in _imports(f)}
    assert into_hub == set()
    assert hub_reaches & {"vision", "firmware_bridge", "web", "tablesight", "cv2",
                          "serial"} == set()


def test_every_game_lives_under_table_games():
    assert {"diskwars", "dreamblade", "warseer", "track"} <= _games()
    strays = [p.parent.name for p in (ROOT / "table").glob("*/system.py")]
    assert strays == [], "a game package outside table/games/"


def test_nothing_outside_a_game_imports_it():
    """The session, the other games, the camera, the box, the dashboard and the CLI reach
    a game only through the seam (``table.system``), found by name in the registry."""
    bad: dict[str, list[str]] = {}
    for f in _python_files(*TOPS):
        rel = f.relative_to(ROOT)
        own = _game_named(_module_of(f))
        hits = sorted(m for m in _imports(f)
                      if (g := _game_named(m)) is not None and g != own)
        if hits:
            bad[str(rel)] = hits
    assert bad == {}


def test_no_game_does_io():
    """No file, socket, clock or printing inside a game: its data comes in through its
    loaders (``importlib.resources`` on the package's own data files), its randomness
    and time through actions, its output through the seam."""
    io_words = re.compile(r"\b(open|print|input)\(|\bsocket\b|\btime\.(time|monotonic)\b"
                          r"|\bdatetime\.now\b|\bos\.environ\b|\bsubprocess\b")
    found = {}
    for f in GAMES.rglob("*.py"):
        text = f.read_text(encoding="utf-8")
        hits = sorted({m.group(0) for m in io_words.finditer(text)})
        if hits:
            found[str(f.relative_to(ROOT))] = hits
    assert found == {}


def _neutral_files() -> list[Path]:
    """The session, the seam, the dashboard (its code, pages and scripts), the camera,
    the box and the composition root: everything but the games."""
    files = [f for top in ("web", "vision", "firmware_bridge", "tablesight")
             for f in (ROOT / top).rglob("*") if f.suffix in (".py", ".js", ".html", ".css")]
    files += list((ROOT / "table" / "session").rglob("*.py"))
    files += list((ROOT / "table").glob("*.py"))
    return files


# Older spellings the neutral parts still read, so that logs, scripts and habits from
# before a second game keep working; each is said once, where it is read.
OLDER_NAMES = {
    "table/session/setup.py": ('"warbands"', "warbands"),
    "tablesight/cli.py": ('"warband"',),
    "tablesight/table_cli.py": ('"--warbands"',),
    "tablesight/vision_cli.py": ('"--warband"',),
}


def test_the_neutral_parts_name_no_game():
    """Not even in a string: the neutral parts speak of games only through what a game
    system says of itself. (The games checked are those tablesight installs; the example
    game's name is a plain English word.)"""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    games = set(pyproject["project"]["entry-points"]["tablesight.games"])
    assert games <= _games()
    named = {str(f.relative_to(ROOT)): sorted(g for g in games
                                              if g in f.read_text(encoding="utf-8").lower())
             for f in _neutral_files()}
    assert {k: v for k, v in named.items() if v} == {}


def test_the_neutral_parts_use_no_games_words():
    """No game's own word for a force ("warband") and no game's own keys (the pieces'
    key of its corrections, "mini" or "unit"; the "minis" a prompt choice once had)
    outside the games: a screen or a tool that used them would work for one game only.
    Older spellings still read are listed in ``OLDER_NAMES``."""
    from table import registry

    words: set[str] = set()
    for system in registry.systems().values():
        if system.force_word != "force":
            words.add(system.force_word)
        ref = system.referee(_sample(system.name))
        words.update(f'"{k}"' for k in ref.correction_fields[:1])
    # (A layout's "cells" are the map format's own word, and stay.)
    words.update(('"minis"', "mini:", "minis:"))
    found: dict[str, list[str]] = {}
    for f in _neutral_files():
        rel = str(f.relative_to(ROOT))
        allowed = OLDER_NAMES.get(rel, ())
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            low = line.lower()
            hits = [w for w in sorted(words) if w in low
                    and not any(w in old and old in low for old in allowed)]
            if hits:
                found.setdefault(rel, []).append(f"{n}: {hits}")
    assert found == {}


def _sample(game: str):
    from table.session import Setup

    return Setup.sample(game)


def _graph() -> dict[str, set[str]]:
    modules = {_module_of(f): f for f in _python_files(*TOPS, "tests")}

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for m, f in modules.items():
        ancestors = {".".join(m.split(".")[:i]) for i in range(1, m.count(".") + 1)}
        graph[m] = {r for name in _imports(f) if (r := resolve(name)) is not None
                    and r != m and r not in ancestors}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_circle():
    """Counting imports inside functions and under ``TYPE_CHECKING`` too: a circle hidden
    that way is still two modules that cannot be read, tested or moved apart."""
    assert _circles(_graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
