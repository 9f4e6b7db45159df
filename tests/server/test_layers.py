"""The service, storage and fan-out never look inside a game: they import no engine module
and no concrete game, only the game interface (issue 3, item 0; architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "dineri"
FORBIDDEN = ("dineri.engine", "dineri.golf4", "dineri.games.chkobba", "dineri.games.golf4", "dineri.fairness")


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_service_storage_and_fanout_import_no_game_internals() -> None:
    files = [p for pkg in ("server", "store", "fanout") for p in (ROOT / pkg).rglob("*.py")]
    assert len(files) >= 10
    for path in files:
        bad = {m for m in _imports(path) if m.startswith(FORBIDDEN)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_engine_imports_nothing_of_the_server() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        bad = {m for m in _imports(path) if m.startswith("dineri.") and not m.startswith("dineri.engine")}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_seven_diamonds_engine_is_pure_standard_library() -> None:
    import sys

    files = list((ROOT / "seven_diamonds").rglob("*.py"))
    assert len(files) >= 8
    for path in files:
        mods = _imports(path)
        ours = {m for m in mods if m.startswith("dineri") and not m.startswith("dineri.seven_diamonds")}
        foreign = {m for m in mods if not m.startswith("dineri")
                   and m.split(".")[0] not in sys.stdlib_module_names and m != "__future__"}
        assert not ours and not foreign, f"{path.relative_to(ROOT)} imports {sorted(ours | foreign)}"
        text = path.read_text(encoding="utf-8")
        for impure in ("import random", "import time", "import os", "from random", "datetime"):
            assert impure not in text, f"{path.relative_to(ROOT)}: {impure}"
    for path in [p for pkg in ("server", "store", "fanout") for p in (ROOT / pkg).rglob("*.py")]:
        bad = {m for m in _imports(path) if m.startswith(("dineri.seven_diamonds", "dineri.games.seven"))}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


_IMPURE = ("random", "secrets", "time", "datetime", "os", "sys", "io", "socket", "pathlib", "threading",
           "asyncio", "subprocess", "uuid")


def test_the_golf4_engine_imports_only_the_standard_library_and_itself() -> None:
    import sys

    files = list((ROOT / "golf4").rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        for m in _imports(path):
            top = m.split(".")[0]
            ok = m.startswith("dineri.golf4") or (top in sys.stdlib_module_names and top != "dineri")
            assert ok and top not in _IMPURE, f"{path.relative_to(ROOT)} imports {m}"
