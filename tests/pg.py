"""The real PostgreSQL of the tests (database ``test`` on 127.0.0.1): a fresh schema per use."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator

from sqlalchemy import text

from dineri.store.db import make_engine

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema in database ``test`` (its URL, the schema as search path),
    dropped with everything in it afterwards."""
    schema = "t_" + secrets.token_hex(6)
    admin = make_engine(PG)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{PG}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
