"""One error shape for every HTTP answer that is not a success (issue 7, item 7).

Every error body is ``{"detail": {"code": "...", "message": "...", "errors"?: [...]}}``
(:class:`ErrorBody`, documented in the OpenAPI schema of every route): a refused operation, a
validation failure (``422 malformed``, with ``errors``: where and what, never the input echoed
back), a body that is not JSON (``400 invalid_json``), a body that is not UTF-8 (``422
malformed``), an unknown path (``404 not_found``), a wrong method (``405``), a database that
does not answer (``503 unavailable`` with ``Retry-After``: issue 7 item 3). Nothing of the
request is encoded back into the answer, so no request body can make the encoder fail (a
non-UTF-8 body used to answer ``500``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

log = logging.getLogger("dineri.errors")

#: The code of an error answer whose detail is only a sentence (Starlette, FastAPI), by status.
CODES = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found",
         405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
         422: "malformed", 429: "rate_limited", 500: "internal", 501: "not_available",
         503: "unavailable"}
#: FastAPI's sentence for a body it could not decode (not UTF-8, or nested past the parser).
_UNREADABLE = "There was an error parsing the body"


class FieldError(BaseModel):
    """One validation problem: where (``loc``: ``["body", "options", "seats"]``), what (``msg``)
    and its pydantic ``type`` (``int_type``, ``extra_forbidden`` …)."""

    loc: list[str | int]
    msg: str
    type: str


class ErrorDetail(BaseModel):
    """``code`` (machine-readable, ``docs/protocol.md``), ``message`` (for people), and for a
    ``422`` from validation the list of problems."""

    code: str = Field(examples=["malformed"])
    message: str
    errors: list[FieldError] | None = None


class ErrorBody(BaseModel):
    """Every error answer of the REST API."""

    detail: ErrorDetail


RETRY_AFTER = 60  # seconds: a 429's Retry-After when its limit does not say (one window)


def error_response(status: int, code: str, message: str, *, errors: list[dict[str, Any]] | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """A JSON answer ``status`` with :class:`ErrorBody` ``{"detail": {code, message[, errors]}}``."""
    detail: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        detail["errors"] = errors
    if status == 429 and not any(k.lower() == "retry-after" for k in headers or {}):
        # Every 429 says when to try again (RFC 6585): the REST limits count by the minute, so a
        # limit that knows no better answers the window's length.
        headers = {**(headers or {}), "Retry-After": str(RETRY_AFTER)}
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may answer ``statuses`` and ``422`` (each an
    :class:`ErrorBody`; FastAPI would document its own list-shaped ``422`` otherwise)."""
    return {s: {"model": ErrorBody, "description": CODES.get(s, "error")} for s in sorted({*statuses, 422})}


def _loc(raw: Any) -> list[str | int]:
    return [p if isinstance(p, int) and not isinstance(p, bool) else str(p) for p in raw]


async def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = list(exc.errors())
    bad_json = next((e for e in problems if e.get("type") == "json_invalid"), None)
    if bad_json is not None:
        why = (bad_json.get("ctx") or {}).get("error", "JSON decode error")
        return error_response(400, "invalid_json", f"the body is not valid JSON: {why}")
    errors = [{"loc": _loc(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
              for e in problems]
    if any(isinstance(e.get("input"), bytes | bytearray) for e in problems):
        # The body was not read as JSON (another Content-Type): say what is expected.
        message = "the body must be a JSON object sent as Content-Type: application/json"
    elif errors:
        first = errors[0]
        where = ".".join(str(p) for p in first["loc"])
        message = f"{where}: {first['msg']}" + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
    else:
        message = "the request is not valid"
    return error_response(422, "malformed", message, errors=errors)


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    headers = dict(exc.headers) if exc.headers else None
    detail = exc.detail
    if isinstance(detail, dict) and isinstance(detail.get("code"), str):
        message = str(detail.get("message", ""))
        if exc.status_code == 503:  # unavailable, retry: send it again shortly
            headers = {"Retry-After": UNAVAILABLE_RETRY_AFTER, **(headers or {})}
        return error_response(exc.status_code, detail["code"], message, headers=headers)
    if exc.status_code == 400 and detail == _UNREADABLE:
        return error_response(422, "malformed", "the body must be a JSON object in UTF-8", headers=headers)
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": _allowed_methods(request)}
    code = CODES.get(exc.status_code, "error")
    return error_response(exc.status_code, code, str(detail), headers=headers)


def _allowed_methods(request: Request) -> str:
    """Every method some route serves at the request's path: Starlette's ``Allow`` names only the
    first route of the path, though GET and POST of one path are often two routes. A path that a
    route names literally (``/api/accounts/login``) is that resource alone, as OpenAPI has it: a
    templated route that also matches it (``/api/accounts/{username}``) does not count
    (schemathesis ST205: ``Allow: GET, POST`` for POST-only paths; such a template answers those
    paths ``405`` itself, :func:`literal_methods`)."""
    routes = request.app.router.routes
    literal = literal_methods(request.app, request.url.path)
    allowed = []
    for method in ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"):
        if literal:
            if method in literal:
                allowed.append(method)
            continue
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in routes):
            allowed.append(method)
    return ", ".join(allowed)


_METHODS = ("delete", "get", "head", "options", "patch", "post", "put")


def literal_methods(app: Any, path: str) -> set[str]:
    """The methods the app's OpenAPI document lists for ``path`` when it names that path
    literally, without a parameter (empty: it does not); upper case."""
    item = app.openapi().get("paths", {}).get(path) if "{" not in path else None
    return {m.upper() for m in item or () if m in _METHODS}


def method_not_allowed() -> StarletteHTTPException:
    """``405`` for a request that a templated route matched at a path another route names
    literally (``GET /api/accounts/login`` is not the page of a user called login): the
    handler's ``Allow`` then names the literal route's methods."""
    return StarletteHTTPException(405, "Method Not Allowed")


#: ``Retry-After`` (seconds) of every ``503 unavailable``: the database did not answer in time.
UNAVAILABLE_RETRY_AFTER = "2"
UNAVAILABLE = "the database is not answering; nothing was changed: send it again shortly"


def unavailable_body() -> bytes:
    """The body of ``503 unavailable`` (:class:`ErrorBody`), for an answer sent below FastAPI."""
    body = {"detail": {"code": "unavailable", "message": UNAVAILABLE}}
    return json.dumps(body, separators=(",", ":")).encode()


async def _database(request: Request, exc: Exception) -> JSONResponse:
    """A database that timed out, went away or refused writes (:func:`dineri.store.db.unavailable`:
    statement, lock, pool or connect timeouts, a lost connection, SQLite's locked or read-only
    file) answers ``503 unavailable`` with ``Retry-After``, never ``500`` (issue 7 item 3). The
    failed transaction rolled back: nothing was changed. ``/readyz`` hears of it (the writer's
    :meth:`~dineri.store.writer.Writer.refused`: it then probes with a real write)."""
    from dineri.store.db import unavailable

    if not unavailable(exc):
        raise exc  # a bug (an IntegrityError, say): 500 internal, logged with its traceback
    services = getattr(request.app.state, "services", None)
    if services is not None:
        services.tables.writer.refused()
    log.warning("database unavailable", extra={"path": request.url.path, "error": repr(exc)[:300]})
    return error_response(503, "unavailable", UNAVAILABLE, headers={"Retry-After": UNAVAILABLE_RETRY_AFTER})


async def _internal(request: Request, exc: Exception) -> JSONResponse:
    # Starlette logs the exception and re-raises it after this answer is sent.
    return error_response(500, "internal", "a server fault; nothing was changed")


#: What an ``/api`` operation that lists no error answers of its own is documented to answer.
GENERIC = (400, 401, 403, 404, 409, 413, 422, 429)
_REF = "#/components/schemas/ErrorBody"


def document_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """Make an OpenAPI document say what the server sends: every ``4xx``/``5xx`` answer of every
    operation is an :class:`ErrorBody` (FastAPI's list-shaped ``HTTPValidationError`` is never
    sent), and an ``/api`` operation whose route did not list its errors with :func:`responses`
    gets :data:`GENERIC`. Changes ``schema`` in place."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    body = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    components.update(body.pop("$defs", {}))
    components["ErrorBody"] = body
    for path, item in schema.get("paths", {}).items():
        for op in item.values():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            answers = op["responses"]
            if path.startswith("/api/") and _REF not in str(answers):  # no responses() of its own
                for status in GENERIC:
                    answers.setdefault(str(status), {"description": CODES.get(status, "error")})
            for status, answer in answers.items():
                if status[:1] in "45":
                    answer["content"] = {"application/json": {"schema": {"$ref": _REF}}}
    text = str(schema.get("paths", {}))
    for name in ("HTTPValidationError", "ValidationError"):
        if f"/{name}'" not in text:
            components.pop(name, None)
    return schema


def install(app: FastAPI) -> None:
    """Make every error answer of ``app`` an :class:`ErrorBody` (unexpected faults too: ``500
    internal``), and its OpenAPI document say so (:func:`document_errors`)."""
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    # The database's failures (issue 7 item 3): one handler instead of code in every route.
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from dineri.store.writer import Unavailable

    for kind in (DBAPIError, PoolTimeout, Unavailable):
        app.add_exception_handler(kind, _database)
    app.add_exception_handler(Exception, _internal)
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_errors(build())
        return app.openapi_schema
    app.openapi = openapi  # type: ignore[method-assign]
