"""The dependency rule: ``table`` imports none of cv2, serial, flask (nor the packages
that wrap them)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"cv2", "serial", "flask", "vision", "firmware_bridge", "web", "tablesight"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_table_is_pure():
    files = list((ROOT / "table").rglob("*.py"))
    assert files
    bad = {str(f.relative_to(ROOT)): sorted(imported_modules(f) & FORBIDDEN) for f in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_rules_engine_does_no_io():
    # No file, socket or clock access inside the engine's rule modules.
    io_words = ("open(", "socket", "time.time", "datetime.now", "print(")
    for f in (ROOT / "table" / "dreamblade").glob("*.py"):
        if f.name in ("catalog.py", "board.py", "warband.py"):
            continue  # data loaders: they read the package's own data files
        text = f.read_text(encoding="utf-8")
        assert not [w for w in io_words if w in text], f.name


def _game_packages() -> set[str]:
    """Subpackages of ``table`` that are games (they hold a ``system.py``)."""
    return {p.parent.name for p in (ROOT / "table").glob("*/system.py")}


def _imports_of(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(ROOT).with_suffix("")
    pkg = list(rel.parts[:-1])
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = pkg[:len(pkg) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names.add(module)
            names |= {f"{module}.{a.name}" for a in node.names}
    return names


def test_nothing_outside_a_game_imports_it():
    """A game is a package of its own: the session, the other games, the camera, the box
    and the dashboard reach it only through the seam (``table.system``), found by name
    in the registry, the one place allowed to name the built-in default."""
    games = _game_packages()
    assert "dreamblade" in games
    bad = {}
    for top in ("table", "web", "vision", "firmware_bridge"):
        for f in (ROOT / top).rglob("*.py"):
            rel = f.relative_to(ROOT)
            if rel.parts[0] == "table" and len(rel.parts) > 2 and rel.parts[1] in games:
                continue  # a game's own package
            if rel == Path("table/registry.py"):
                continue
            hits = sorted(m for m in _imports_of(f)
                          if any(m == f"table.{g}" or m.startswith(f"table.{g}.")
                                 for g in games))
            if hits:
                bad[str(rel)] = hits
    assert bad == {}


def test_the_neutral_parts_name_no_game():
    """Not even in a string: the session, the seam, the dashboard (its code, pages and
    scripts), the camera and the box speak of games only through what a game system says
    of itself."""
    games = _game_packages()
    files = [f for top in ("web", "vision", "firmware_bridge") for f in (ROOT / top).rglob("*")
             if f.suffix in (".py", ".js", ".html", ".css")]
    files += list((ROOT / "table" / "session").rglob("*.py"))
    files += [f for f in (ROOT / "table").glob("*.py") if f.name != "registry.py"]
    named = {str(f.relative_to(ROOT)): sorted(g for g in games
                                              if g in f.read_text(encoding="utf-8").lower())
             for f in files}
    assert {k: v for k, v in named.items() if v} == {}
