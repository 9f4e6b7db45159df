"""Sign-in is rate-limited per address and per account (issue 14, item 1)."""

from __future__ import annotations

from pathlib import Path

import httpx

from dineri.accounts.security import LoginLimits
from tests.accounts.conftest import Site
from tests.server.harness import Server


def login(browser: httpx.Client, username: str, password: str) -> int:
    return browser.post("/api/accounts/login", json={"username": username, "password": password}).status_code


def test_failures_per_account_and_attempts_per_address(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'l.db'}", DINERI_LOGINS_PER_MINUTE="8",
                 DINERI_LOGIN_FAILURES_PER_ACCOUNT="3").start(timeout=90)
    site = Site(srv)
    try:
        site.account("Victim", "right password")
        b = site.browser()
        codes = [login(b, "Victim", "wrong guess") for _ in range(4)]
        assert codes == [401, 401, 401, 429]
        # the account is closed for a while, even with the right password
        r = b.post("/api/accounts/login", json={"username": "victim", "password": "right password"})
        assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
        site.account("Other", "right password")
        codes = [login(b, "Other", "right password") for _ in range(4)]
        assert codes == [200, 200, 200, 429]  # 8 attempts a minute from this address
    finally:
        site.http.close()
        srv.stop()


def test_limits_unit() -> None:
    limits = LoginLimits(per_address=0, per_account=2, account_seconds=60)
    assert limits.attempt("1.2.3.4")  # 0: no limit
    assert limits.account_open("k")
    limits.failed("k")
    assert limits.account_open("k")
    limits.failed("k")
    assert not limits.account_open("k") and limits.account_open("other")
