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
