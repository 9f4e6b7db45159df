"""Wiring the accounts into the app (issue 14): one call from ``create_app``."""

from __future__ import annotations

from fastapi import FastAPI

from dineri.admin.auth import AdminAuth
from dineri.ratings.rate import rate_match
from dineri.server.deps import Services
from dineri.store import hooks


def install(app: FastAPI, services: Services) -> None:
    """Register the rating hook (the result's transaction), the accounts' state and routers, and
    the pages (``/p/{name}``, ``/account``, ``/ratings``, ``/play``, ``/watch``)."""
    from dineri.accounts.matcher import QuickMatch
    from dineri.accounts.security import LoginLimits
    from dineri.accounts.watch import Watchers
    from dineri.server import routes_accounts, routes_quick
    from dineri.server.ratelimit import Window

    settings = services.settings
    hooks.on_result(rate_match)
    admin = AdminAuth(settings.admin_token, settings.resolved_secret()) if settings.admin_token else None
    app.state.accounts = routes_accounts.AccountServices(
        limits=LoginLimits(settings.logins_per_minute, settings.login_failures_per_account), admin=admin)
    app.state.quick = QuickMatch(services)
    app.state.watchers = Watchers()
    # Read by the table socket; site-wide in Redis when there is one (issue 9 item 3).
    app.state.chat_lines = Window(settings.chat_lines_per_minute, 60.0, shared=services.shared, name="chat")
    app.include_router(routes_accounts.router)
    app.include_router(routes_quick.router)
    from dineri.accounts.admin_pages import admin_accounts_router
    app.include_router(admin_accounts_router(services))
    try:
        from dineri.accounts.pages import mount_pages
    except ImportError:  # the browser pages are optional
        return
    mount_pages(app, services)
