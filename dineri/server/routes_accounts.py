"""``/api/accounts``, ``/api/ratings``, ``/api/mutes``, rated tables and the admin's account
actions (issue 14). Accounts are optional: guests keep working as before.

Every state-changing request authenticated by cookie needs the CSRF header
(:mod:`dineri.accounts.security`). Errors are ``{"detail": {"code", "message"}}``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from dineri.accounts import passwords
from dineri.accounts import store as accounts
from dineri.accounts.names import MAX_USERNAME, MIN_USERNAME, NameError_, check_username, name_key
from dineri.accounts.profile import profile, rating_json
from dineri.accounts.security import LoginLimits, check_csrf, csrf_token, set_csrf
from dineri.accounts.tables import rated_info
from dineri.admin.auth import AdminAuth
from dineri.ratings.modes import MODES
from dineri.server import revocation
from dineri.server.auth import COOKIE
from dineri.server.deps import MaybePlayerDep, PlayerDep, Services, ServicesDep, set_token_cookie
from dineri.server.errors import literal_methods, method_not_allowed
from dineri.store import repo

T = TypeVar("T")
log = logging.getLogger("dineri.accounts")
router = APIRouter(prefix="/api", tags=["accounts"])


@dataclass
class AccountServices:
    """The accounts' per-process state, built once by :func:`install` (``app.state.accounts``)."""

    limits: LoginLimits
    admin: AdminAuth | None


def get_accounts(request: Request) -> AccountServices:
    """The app's :class:`AccountServices`."""
    acc: AccountServices = request.app.state.accounts
    return acc


AccountsDep = Annotated[AccountServices, Depends(get_accounts)]
Csrf = Depends(check_csrf)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


#: What the OpenAPI document says of a username and a password: the lengths the server checks
#: (issue 7 item 7, schemathesis ST202: a 2-letter username or a 3-letter password was a valid
#: body answered 422). A password is taken as sent: its length is checked by validation. A
#: username is trimmed and put in NFC first, so its lengths are shown, not enforced here (a name
#: sent with spaces around it still fits); what no JSON Schema can state is checked after: only
#: letters, marks, digits and ``_ - .`` (a letter or digit at each end), no mix of scripts with
#: look-alike letters, no reserved name (``422 malformed``, ``confusable``, ``reserved``).
USERNAME = Field(json_schema_extra={"minLength": MIN_USERNAME, "maxLength": MAX_USERNAME})
PASSWORD = Field(min_length=passwords.MIN_PASSWORD, max_length=passwords.MAX_PASSWORD)


class Credentials(_Body):
    """A username (3–24 letters, digits, ``_ - .``) and a password (8–256 characters)."""

    username: str = USERNAME
    password: str = PASSWORD


class PasswordChange(_Body):
    """The current password and the new one (8–256 characters)."""

    old: str
    new: str = PASSWORD


class PasswordOnly(_Body):
    """The account's password (to confirm a deletion)."""

    password: str


class Privacy(_Body):
    """``hidden``: the player's page and leaderboard rows are shown to nobody else."""

    hidden: bool


class RatedBody(_Body):
    """Whether the table's match is rated."""

    rated: bool


class MuteBody(_Body):
    """Mute (``muted`` true) or unmute a player's chat lines."""

    player_id: str
    muted: bool = True


class Rename(_Body):
    """An admin's new username for an account, and why."""

    username: str
    reason: str


class Ban(_Body):
    """Why an admin bans (or unbans) an account."""

    reason: str


def _fail(code: str, message: str, status: int) -> HTTPException:
    return HTTPException(status, {"code": code, "message": message})


async def _tx(services: Services, fn: Callable[[Session], T]) -> T:
    def run() -> T:
        with services.sm.begin() as s:
            try:
                return fn(s)
            except accounts.AccountError as e:
                raise _fail(e.code, e.message, e.status) from None
    return await asyncio.to_thread(run)


async def _issue(services: Services, request: Request, response: Response, player_id: str) -> str:
    """A fresh token for ``player_id`` at its current token version, set as the session cookie
    (``deps.set_token_cookie``: httponly, same-site lax, Secure over HTTPS, the token lifetime)."""
    def version(s: Session) -> int:
        p = repo.get_player(s, player_id)
        return p.token_version if p is not None else 0
    token = services.tokens.make(player_id, await _tx(services, version))
    set_token_cookie(response, request, token, services.tokens.lifetime)
    return token


async def _revoked(services: Services, player_id: str) -> None:
    """The tokens of ``player_id`` were just revoked (a ban, a new password, a deleted account):
    close its sockets opened with them, on every process (4401, dineri/server/revocation.py)."""
    def version(s: Session) -> int | None:
        p = repo.get_player(s, player_id)
        return p.token_version if p is not None else None
    try:
        now = await _tx(services, version)
        if now is not None:
            await revocation.announce(services.tables.fanout, player_id, now)
    except Exception as e:  # stored all the same: new requests and sockets are refused
        log.warning("revocation not announced to open sockets", extra={"error": repr(e)})


def _username(raw: str) -> str:
    try:
        return check_username(raw)
    except NameError_ as e:
        raise _fail(e.code, str(e), 422) from None


def _password(raw: str) -> str:
    try:
        return passwords.check_password(raw)
    except ValueError as e:
        raise _fail("malformed", str(e), 422) from None


@router.get("/accounts/csrf")
async def csrf(request: Request, response: Response) -> dict[str, str]:
    """The CSRF token for ``X-CSRF-Token`` (also set as the ``dineri_csrf`` cookie)."""
    token = csrf_token(request)
    set_csrf(response, token, request)
    return {"csrf": token}


@router.post("/accounts", status_code=201, dependencies=[Csrf])
async def claim(body: Credentials, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Claim the current guest identity: its player id, and so every match it played, stays.
    Its display name becomes the username. ``409 already_claimed``, ``409 taken``, ``422``
    ``malformed``/``confusable``/``reserved``."""
    username = _username(body.username)
    pw = _password(body.password)
    hashed = await asyncio.to_thread(passwords.hash_password, pw)
    acc = await _tx(services, lambda s: accounts.claim(s, player.id, username, hashed))
    return {"id": acc.player_id, "username": acc.username, "hidden": acc.hidden}


@router.post("/accounts/login", dependencies=[Csrf])
async def login(body: Credentials, request: Request, response: Response, services: ServicesDep,
                acc_services: AccountsDep) -> dict[str, Any]:
    """Sign in: sets the session cookie of the account's player (on this browser, replacing a
    guest identity). ``401 bad_credentials``; ``403 banned``; ``429 rate_limited`` beyond the
    attempts per address a minute or the failures per account."""
    address = request.client.host if request.client else None  # counted per /64: LoginLimits
    key = name_key(body.username.strip()) if isinstance(body.username, str) else ""
    limits = acc_services.limits
    if not limits.attempt(address) or not limits.account_open(key):
        raise _fail("rate_limited", "too many sign-in attempts: wait a few minutes", 429)

    def read(s: Session) -> tuple[str, str, str | None] | None:
        acc = accounts.by_username(s, body.username.strip())
        return (acc.player_id, acc.password_hash, acc.banned_reason) if acc else None
    found = await _tx(services, read)
    ok = await asyncio.to_thread(passwords.verify, found[1] if found else None, body.password)
    if not ok or found is None:
        limits.failed(key)
        raise _fail("bad_credentials", "wrong username or password", 401)
    pid, hashed, banned = found
    if banned is not None:
        raise _fail("banned", "this account is banned", 403)
    if passwords.needs_rehash(hashed):
        new_hash = await asyncio.to_thread(passwords.hash_password, body.password)

        def rehash(s: Session) -> None:
            acc = accounts.get(s, pid)
            if acc is not None:
                acc.password_hash = new_hash
        await _tx(services, rehash)
    token = await _issue(services, request, response, pid)

    def me(s: Session) -> dict[str, Any]:
        acc = accounts.get(s, pid)
        assert acc is not None
        return {"id": pid, "username": acc.username, "hidden": acc.hidden}
    return {**(await _tx(services, me)), "token": token}


@router.post("/accounts/logout", dependencies=[Csrf])
async def logout(response: Response) -> dict[str, bool]:
    """Sign out on this browser: the session cookie is removed."""
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return {"ok": True}


@router.get("/accounts/me")
async def account_me(player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """The signed-in account ``{"id", "username", "hidden", "ratings"}``, or ``{"id", "username":
    null}`` for a guest."""
    def read(s: Session) -> dict[str, Any]:
        acc = accounts.get(s, player.id)
        if acc is None:
            return {"id": player.id, "name": player.name, "username": None}
        rows = accounts.ratings_of(s, [player.id]).get(player.id, {})
        return {"id": player.id, "name": player.name, "username": acc.username, "hidden": acc.hidden,
                "ratings": {m: rating_json(r) for m, r in rows.items()}}
    return await _tx(services, read)


async def _account_checked(services: Services, player_id: str, password: str) -> None:
    hashed = await _tx(services, lambda s: (a.password_hash if (a := accounts.get(s, player_id)) else None))
    if hashed is None:
        raise _fail("no_account", "sign in with an account first", 404)
    if not await asyncio.to_thread(passwords.verify, hashed, password):
        raise _fail("bad_credentials", "wrong password", 401)


@router.post("/accounts/password", dependencies=[Csrf])
async def change_password(body: PasswordChange, player: PlayerDep, request: Request, response: Response,
                          services: ServicesDep) -> dict[str, bool]:
    """Change the password: tokens issued before are revoked, this browser gets a fresh one.
    ``401 bad_credentials`` for a wrong current password."""
    new = _password(body.new)
    await _account_checked(services, player.id, body.old)
    hashed = await asyncio.to_thread(passwords.hash_password, new)

    def write(s: Session) -> None:
        acc = accounts.get(s, player.id)
        assert acc is not None
        accounts.set_password(s, acc, hashed)
    await _tx(services, write)
    await _revoked(services, player.id)
    await _issue(services, request, response, player.id)
    return {"ok": True}


@router.post("/accounts/delete", dependencies=[Csrf])
async def delete_account(body: PasswordOnly, player: PlayerDep, response: Response,
                         services: ServicesDep) -> dict[str, bool]:
    """Delete the account (password confirmed): its matches stay, shown under "deleted player";
    its ratings go; this browser is signed out."""
    await _account_checked(services, player.id, body.password)

    def write(s: Session) -> None:
        acc = accounts.get(s, player.id)
        assert acc is not None
        accounts.delete_account(s, acc)
    await _tx(services, write)
    await _revoked(services, player.id)
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return {"ok": True}


@router.post("/accounts/privacy", dependencies=[Csrf])
async def privacy(body: Privacy, player: PlayerDep, services: ServicesDep) -> dict[str, bool]:
    """Hide (or show) the player's page and leaderboard rows."""
    def write(s: Session) -> bool:
        acc = accounts.get(s, player.id)
        if acc is None:
            raise accounts.AccountError("no_account", "sign in with an account first", 404)
        acc.hidden = body.hidden
        return acc.hidden
    return {"hidden": await _tx(services, write)}


@router.get("/accounts/{username}")
async def account_page(username: str, player: MaybePlayerDep, services: ServicesDep,
                       request: Request) -> dict[str, Any]:
    """A player's page data: ratings, win/loss counts per mode, the latest 100 finished matches
    (private tables only to the player themself). ``404 not_found`` for no such account or a
    hidden page."""
    if literal_methods(request.app, request.url.path):  # /api/accounts/login etc.: POST only
        raise method_not_allowed()
    found = await _tx(services, lambda s: profile(s, username, player.id if player else None))
    if found is None:
        raise _fail("not_found", "no such player", 404)
    return found


@router.get("/ratings/{mode}")
async def leaderboard(mode: str, services: ServicesDep) -> dict[str, Any]:
    """The leaderboard of ``mode`` (``chkobba-1v1``, ``chkobba-2v2``, ``golf4``,
    ``seven_diamonds``): ``{"mode", "players": [{"username", "rating", "rd", "provisional",
    "games"}]}``, best first. ``404 not_found`` for another mode."""
    if mode not in MODES:
        raise _fail("not_found", "no such rating mode", 404)

    def read(s: Session) -> list[dict[str, Any]]:
        return [{"username": a.username, **rating_json(r)} for a, r in accounts.leaderboard(s, mode)]
    return {"mode": mode, "players": await _tx(services, read)}


@router.post("/tables/{table_id}/rated", dependencies=[Csrf])
async def mark_rated(table_id: str, body: RatedBody, player: PlayerDep, services: ServicesDep
                     ) -> dict[str, Any]:
    """The host marks an open table rated (or not). Only matches between accounts are rated:
    the host must have one. ``404 not_found``, ``403 not_host``, ``409 not_open``, ``404
    no_account``."""
    def write(s: Session) -> bool:
        t = repo.get_table(s, table_id, lock=True)
        if t is None or (not t.public and t.host_id != player.id):
            raise accounts.AccountError("not_found", "no such table", 404)
        if t.host_id != player.id:
            raise accounts.AccountError("not_host", "only the host marks a table rated", 403)
        if t.status != "open":
            raise accounts.AccountError("not_open", "the match has started")
        if body.rated and accounts.get(s, player.id) is None:
            raise accounts.AccountError("no_account", "rated tables are for accounts", 404)
        accounts.set_rated(s, table_id, body.rated)
        return body.rated
    return {"table": table_id, "rated": await _tx(services, write)}


@router.get("/tables/{table_id}/rated")
async def is_rated(table_id: str, services: ServicesDep) -> dict[str, Any]:
    """Whether the table is rated, and the rating of every seated account in its mode."""
    info = await _tx(services, lambda s: rated_info(s, table_id))
    if info is None:
        raise _fail("not_found", "no such table", 404)
    return info


@router.get("/mutes")
async def mutes(player: PlayerDep, services: ServicesDep) -> dict[str, list[str]]:
    """The player ids whose chat lines this player muted."""
    return {"muted": sorted(await _tx(services, lambda s: accounts.mutes_of(s, player.id)))}


@router.post("/mutes", dependencies=[Csrf])
async def mute(body: MuteBody, player: PlayerDep, services: ServicesDep) -> dict[str, list[str]]:
    """Mute or unmute a player's chat lines for this player (pages hide them)."""
    def write(s: Session) -> set[str]:
        accounts.set_mute(s, player.id, body.player_id, body.muted)
        return accounts.mutes_of(s, player.id)
    return {"muted": sorted(await _tx(services, write))}


def _admin(request: Request, acc_services: AccountsDep) -> None:
    """Admin routes exist only for the admin (bearer token or admin cookie): else ``404``."""
    if acc_services.admin is None or not acc_services.admin.request_ok(request):
        raise _fail("not_found", "not found", 404)


Admin = Depends(_admin)


def _reason(raw: str) -> str:
    text = raw.strip()
    if not 1 <= len(text) <= 500:
        raise _fail("malformed", "give a reason of 1 to 500 characters", 422)
    return text


@router.post("/admin/accounts/{player_id}/rename", include_in_schema=False, dependencies=[Admin, Csrf])
async def admin_rename(player_id: str, body: Rename, services: ServicesDep) -> dict[str, Any]:
    """Admin (bearer token): rename an account, logging why."""
    username, reason = _username(body.username), _reason(body.reason)

    def write(s: Session) -> dict[str, Any]:
        acc = accounts.get(s, player_id)
        if acc is None:
            raise accounts.AccountError("not_found", "no such account", 404)
        old = acc.username
        accounts.rename(s, acc, username)
        accounts.moderate(s, player_id, "rename", reason, f"{old} -> {username}")
        return {"id": player_id, "username": username}
    return await _tx(services, write)


async def _ban(player_id: str, reason: str, banned: bool, services: Services) -> dict[str, Any]:
    def write(s: Session) -> dict[str, Any]:
        acc = accounts.get(s, player_id)
        if acc is None:
            raise accounts.AccountError("not_found", "no such account", 404)
        acc.banned_reason = reason if banned else None
        if banned:
            accounts.revoke_tokens(s, player_id)
        accounts.moderate(s, player_id, "ban" if banned else "unban", reason)
        return {"id": player_id, "banned": banned}
    done = await _tx(services, write)
    if banned:
        await _revoked(services, player_id)
    return done


@router.post("/admin/accounts/{player_id}/ban", include_in_schema=False, dependencies=[Admin, Csrf])
async def admin_ban(player_id: str, body: Ban, services: ServicesDep) -> dict[str, Any]:
    """Admin: ban an account (it can no longer sign in; its tokens are revoked), logging why."""
    return await _ban(player_id, _reason(body.reason), True, services)


@router.post("/admin/accounts/{player_id}/unban", include_in_schema=False, dependencies=[Admin, Csrf])
async def admin_unban(player_id: str, body: Ban, services: ServicesDep) -> dict[str, Any]:
    """Admin: lift a ban, logging why."""
    return await _ban(player_id, _reason(body.reason), False, services)


@router.get("/admin/accounts", include_in_schema=False, dependencies=[Admin])
async def admin_find(username: str, services: ServicesDep) -> dict[str, Any]:
    """Admin: the account whose username looks like ``username`` (``404 not_found``)."""
    def read(s: Session) -> dict[str, Any]:
        acc = accounts.by_username(s, username)
        if acc is None:
            raise accounts.AccountError("not_found", "no such account", 404)
        return {"id": acc.player_id, "username": acc.username, "banned_reason": acc.banned_reason}
    return await _tx(services, read)


@router.get("/admin/accounts/{player_id}", include_in_schema=False, dependencies=[Admin])
async def admin_account(player_id: str, services: ServicesDep) -> dict[str, Any]:
    """Admin: an account with its ban and every moderation action with its reason."""

    def read(s: Session) -> dict[str, Any]:
        acc = accounts.get(s, player_id)
        if acc is None:
            raise accounts.AccountError("not_found", "no such account", 404)
        return {"id": player_id, "username": acc.username, "banned_reason": acc.banned_reason,
                "hidden": acc.hidden,
                "log": [{"action": m.action, "reason": m.reason, "detail": m.detail,
                         "at": m.created_at.isoformat()} for m in accounts.moderation_log(s, player_id)]}
    return await _tx(services, read)
