"""Sign-in is rate-limited per address and per account (issue 14, item 1); an IPv6 address
counts as its /64 (issue 7 item 6: rotating addresses inside one /64 got fresh attempts)."""

from __future__ import annotations

from pathlib import Path

import httpx

from dineri.accounts.security import LoginLimits
from dineri.admin.auth import LoginLimit
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


def test_attempts_count_per_ipv6_64(tmp_path: Path) -> None:
    """Through the trusted local proxy: 3 attempts a minute; each from another address of one
    /64 (the right password or not) are one client's, so the 4th is refused (before: each
    address had its own 3, and a /64 holds 2**64); the next /64 and an IPv4 client still try."""
    srv = Server(f"sqlite:///{tmp_path / 'l.db'}", DINERI_LOGINS_PER_MINUTE="3").start(timeout=90)
    site = Site(srv)
    try:
        site.account("Rotor", "right password")
        b = site.browser()

        def login_from(address: str, password: str = "wrong guess") -> int:
            r = b.post("/api/accounts/login", json={"username": "Someone", "password": password},
                       headers={"X-Forwarded-For": address})
            return r.status_code
        assert [login_from(f"2001:db8:3:4::{i + 1:x}") for i in range(3)] == [401, 401, 401]
        assert login_from("2001:db8:3:4:ffff::1") == 429
        r = b.post("/api/accounts/login", json={"username": "Rotor", "password": "right password"},
                   headers={"X-Forwarded-For": "2001:db8:3:4::99"})
        assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
        assert login_from("2001:db8:3:5::1") == 401 and login_from("192.0.2.9") == 401
    finally:
        site.http.close()
        srv.stop()


def test_limits_unit() -> None:
    limits = LoginLimits(per_address=0, per_account=2, account_seconds=60)
    assert limits.attempt("1.2.3.4")  # 0: no limit
    per64 = LoginLimits(per_address=2, per_account=0)
    assert per64.attempt("2001:db8::1") and per64.attempt("[2001:db8::2]")
    assert not per64.attempt("2001:db8::3") and per64.attempt("2001:db8:0:1::1")
    admin = LoginLimit(limit=2, window=60)
    admin.failed("2001:db8::1")
    admin.failed("2001:db8::2")
    assert admin.retry_after("2001:db8::3") is not None and admin.retry_after("2001:db8:0:1::1") is None
    assert limits.account_open("k")
    limits.failed("k")
    assert limits.account_open("k")
    limits.failed("k")
    assert not limits.account_open("k") and limits.account_open("other")
