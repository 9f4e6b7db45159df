"""The admin's accounts page (issue 14, item 6): find an account, rename or ban it (or lift the
ban) with a reason, and see every past action with its reason. ``/admin/accounts``.

Same guard as the other admin pages (the admin token or its cookie, which is SameSite=Strict
and scoped to ``/admin``, so a cross-site form cannot use it); plain HTML forms, no script.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs, quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from dineri.accounts import store as accounts
from dineri.accounts.names import NameError_, check_username
from dineri.admin.auth import AdminAuth
from dineri.admin.routes import _render
from dineri.server.deps import Services


def admin_accounts_router(services: Services) -> APIRouter:
    """``GET /admin/accounts?username=`` and ``POST /admin/accounts/{id}/{rename|ban|unban}``
    (form fields ``reason`` and, to rename, ``username``); empty without an admin token."""
    router = APIRouter(prefix="/admin", include_in_schema=False)
    settings = services.settings
    if not settings.admin_token:
        return router
    auth = AdminAuth(settings.admin_token, settings.resolved_secret())

    def find(s: Session, username: str) -> dict[str, Any] | None:
        acc = accounts.by_username(s, username)
        if acc is None:
            return None
        return {"id": acc.player_id, "username": acc.username, "banned_reason": acc.banned_reason,
                "hidden": acc.hidden,
                "log": [{"action": m.action, "reason": m.reason, "detail": m.detail,
                         "at": m.created_at.strftime("%Y-%m-%d %H:%M")}
                        for m in accounts.moderation_log(s, acc.player_id)]}

    @router.get("/accounts")
    async def accounts_page(request: Request, username: str = "", problem: str = "") -> Response:
        if not auth.request_ok(request):
            return RedirectResponse("/admin/login", status_code=303)

        def read() -> dict[str, Any] | None:
            with services.sm() as s:
                return find(s, username.strip()) if username.strip() else None
        found = await asyncio.to_thread(read)
        return _render(request, "accounts.html", username=username, account=found,
                       searched=bool(username.strip()), problem=problem[:200])

    @router.post("/accounts/{player_id}/{action}")
    async def act(request: Request, player_id: str, action: str) -> Response:
        if not auth.request_ok(request):
            return RedirectResponse("/admin/login", status_code=303)
        form = parse_qs((await request.body())[:8192].decode("utf-8", "replace"))
        reason = (form.get("reason") or [""])[0].strip()
        new_name = (form.get("username") or [""])[0]

        def write() -> tuple[str, str]:
            with services.sm.begin() as s:
                acc = accounts.get(s, player_id)
                if acc is None or action not in ("rename", "ban", "unban"):
                    return "", "no such account or action"
                if not 1 <= len(reason) <= 500:
                    return acc.username, "give a reason of 1 to 500 characters"
                if action == "rename":
                    old = acc.username
                    try:
                        accounts.rename(s, acc, check_username(new_name))
                    except NameError_ as e:
                        return old, str(e)
                    except accounts.AccountError as e:
                        return old, e.message
                    accounts.moderate(s, player_id, "rename", reason, f"{old} -> {acc.username}")
                else:
                    acc.banned_reason = reason if action == "ban" else None
                    if action == "ban":
                        accounts.revoke_tokens(s, player_id)
                    accounts.moderate(s, player_id, action, reason)
                return acc.username, ""
        username, problem = await asyncio.to_thread(write)
        target = f"/admin/accounts?username={quote(username)}"
        if problem:
            target += f"&problem={quote(problem)}"
        return RedirectResponse(target, status_code=303)

    return router
