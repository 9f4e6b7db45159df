"""Instant restart (issue 8 item 6): what a start-up does not do any more.

A database at the scripts' head is not migrated through Alembic's environment (a database behind
still is); the server's start imports no Redis client without Redis, no HTTP client, no Alembic,
and hashes no password; ``dineri serve`` holds the collector off while it builds itself.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import text

from dineri.server import gcpause
from dineri.store import db
from dineri.store.db import alembic_config, make_engine, migrate, script_heads


def _versions(engine_url: str) -> set[str]:
    engine = make_engine(engine_url)
    try:
        with engine.connect() as c:
            return {r[0] for r in c.execute(text("SELECT version_num FROM alembic_version"))}
    finally:
        engine.dispose()


def test_the_cheap_head_is_alembics_head(tmp_path: Path) -> None:
    script = ScriptDirectory.from_config(alembic_config(f"sqlite:///{tmp_path / 'x.db'}"))
    assert script_heads() == frozenset(script.get_heads())


def test_a_merge_revision_leaves_the_decision_to_alembic(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("revision = 'a'\ndown_revision = None\n")
    (tmp_path / "b.py").write_text("revision = 'b'\ndown_revision = 'a'\n")
    assert script_heads(tmp_path) == {"b"}
    (tmp_path / "m.py").write_text("revision = 'm'\ndown_revision = ('b', 'c')\n")
    assert script_heads(tmp_path) is None


def test_a_database_at_head_is_not_migrated_again_one_behind_is(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    assert migrate(url) is True  # a new database: Alembic creates everything
    heads = script_heads()
    assert heads is not None and _versions(url) == heads
    real_upgrade = command.upgrade

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("Alembic ran on a database at head")

    monkeypatch.setattr(command, "upgrade", refuse)
    assert migrate(url) is False
    monkeypatch.setattr(command, "upgrade", real_upgrade)
    command.downgrade(alembic_config(url), "-1")  # one migration behind
    behind = _versions(url)
    assert behind and behind != heads
    assert migrate(url) is True and _versions(url) == heads


def test_a_database_that_records_another_head_runs_alembic(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'o.db'}"
    migrate(url)
    monkeypatch.setattr(db, "script_heads", lambda versions=None: frozenset({"9999"}))
    ran: list[str] = []
    monkeypatch.setattr(command, "upgrade", lambda cfg, rev: ran.append(rev))
    assert migrate(url) is True and ran == ["head"]


def test_the_servers_start_imports_and_hashes_nothing_it_does_not_need(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    migrate(url)
    code = (
        "import json, sys\n"
        "from dineri.server import gcpause\n"
        "gcpause.hold()\n"
        "import dineri.cli\n"
        "dineri.cli.build_parser()\n"
        "from dineri.server.app import create_app\n"
        "from dineri.settings import Settings\n"
        "from dineri.store.db import migrate\n"
        "create_app(Settings())\n"
        "ran = migrate(Settings().database_url)\n"
        "from dineri.accounts import passwords\n"
        "held = not __import__('gc').isenabled()\n"
        "print(json.dumps({'ran': ran, 'held': held, 'hashed': passwords._dummy.cache_info().currsize,\n"
        "    'loaded': sorted(m for m in ('redis', 'httpx', 'alembic') if m in sys.modules)}))\n"
    )
    env = {**os.environ, "DINERI_DATABASE_URL": url, "DINERI_SECRET_KEY": "c" * 64}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                         check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found == {"ran": False, "held": True, "hashed": 0, "loaded": []}


def test_a_held_collector_is_frozen_without_a_full_collection() -> None:
    before = gc.get_threshold()
    seen: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    try:
        gcpause.hold()
        assert not gc.isenabled()
        gc.callbacks.append(count)
        gcpause.tune((12_345, 11, 77))
        gc.callbacks.remove(count)
        assert seen == [] and gc.isenabled() and gc.get_threshold() == (12_345, 11, 77)
        assert gc.get_freeze_count() > 1000
    finally:
        if count in gc.callbacks:
            gc.callbacks.remove(count)
        gc.enable()
        gc.unfreeze()
        gc.set_threshold(*before)


def test_release_turns_a_held_collector_back_on() -> None:
    try:
        gcpause.hold()
        gcpause.release()
        assert gc.isenabled()
    finally:
        gc.enable()


def test_a_game_is_imported_when_first_asked_for_alone() -> None:
    code = (
        "import json, sys\n"
        "from dineri.games import game_names, get_game\n"
        "first = get_game('chkobba').name\n"
        "others = sorted(m for m in sys.modules if m.startswith(('dineri.golf4', 'dineri.seven_diamonds')))\n"
        "print(json.dumps({'first': first, 'others': others, 'names': game_names(),\n"
        "                  'golf4': get_game('golf4').name}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found == {"first": "chkobba", "others": [], "names": ["chkobba", "golf4", "seven_diamonds"],
                     "golf4": "golf4"}
