"""Fixtures of the multi-process tests: nginx must be there (in CI: never skipped)."""

from __future__ import annotations

import os

import pytest

from tests.multi.site import nginx_binary


def require_nginx() -> str:
    """Debian's nginx binary (``apt-get install -y nginx``; scripts/test.sh installs it); the test
    is skipped without it, or fails in CI (``CI`` set)."""
    binary = nginx_binary()
    if binary is None:
        missing = "nginx is not installed (apt-get install -y nginx)"
        (pytest.fail if os.environ.get("CI") else pytest.skip)(missing)
    return str(binary)


@pytest.fixture
def nginx() -> str:
    """:func:`require_nginx` as a fixture."""
    return require_nginx()
