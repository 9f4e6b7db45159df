"""Processes of a site start together and migrate one fresh schema at the same time (issue 9:
a restart of both processes at once): one migrates, the others wait and find it done."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy import text

from dineri.store.db import make_engine


@pytest.mark.postgres
@pytest.mark.timeout(300)
def test_three_processes_migrating_one_fresh_schema_at_once_all_succeed(pg_url: str) -> None:
    # Separate processes, as servers are (Alembic's context is one per process).
    code = "import sys; from dineri.store.db import migrate; migrate(sys.argv[1])"
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_url], stderr=subprocess.PIPE)
             for _ in range(3)]
    errors = [p.communicate(timeout=240)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    eng = make_engine(pg_url)
    with eng.connect() as c:
        versions = c.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        tables = c.execute(text("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                                "current_schema()")).scalar_one()
    eng.dispose()
    assert len(versions) == 1
    assert tables > 5
