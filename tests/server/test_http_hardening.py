"""REST hardening (issue 7, items 7, 8 and 9) against a real server: one error shape for every
error (a non-UTF-8 body used to answer 500, invalid JSON a bare string), bodies exactly as
documented (``clock: false``, ``clock: 15.0`` and unknown option keys refused), and a private
table answering a stranger exactly as a table that does not exist."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.harness import Api, Server

pytestmark = pytest.mark.timeout(120)
MISSING = "no-such-table-00"


def _error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The documented error body ``{"detail": {"code", "message"[, "errors"]}}`` of ``r``."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"detail"} and isinstance(body["detail"], dict), body
    detail = body["detail"]
    assert detail["code"] == code and isinstance(detail["message"], str) and detail["message"], body
    assert set(detail) <= {"code", "message", "errors"}
    for e in detail.get("errors") or []:
        assert set(e) == {"loc", "msg", "type"} and isinstance(e["loc"], list), e
    return dict(detail)


def _raw(api: Api, path: str, who: dict[str, Any] | None, body: bytes,
         headers: dict[str, str]) -> httpx.Response:
    auth = {"Authorization": f"Bearer {who['token']}"} if who else {}
    return api.http.post(path, content=body, headers={**auth, **headers})


def _post_paths(api: Api, host: dict[str, Any]) -> list[str]:
    t = api.table(host)
    return ["/api/players", "/api/tables", f"/api/tables/{t['id']}/seats", f"/api/tables/{t['id']}/bots",
            f"/api/tables/{t['id']}/start"]  # (rematch takes no body)


def test_a_non_utf8_body_is_a_422_on_every_post(api: Api) -> None:
    """Bytes that are not UTF-8, with or without a JSON content type: ``422 malformed`` in the
    documented shape (it was a ``500`` from the error encoder, with or without a token; without
    one it may now be the documented ``401``, when the token is checked first)."""
    host = api.player("Utf")
    for path in _post_paths(api, host):
        for content_type in (None, "application/json", "text/plain", "application/json; charset=latin-1"):
            for body in (b"\xff", b'{"name": "\xff\xfe"}', b'{"seat": 1, "x": "\xc3"}'):
                headers = {"content-type": content_type} if content_type else {}
                for auth in (None, host):
                    r = _raw(api, path, auth, body, headers)
                    if auth is None and path != "/api/players" and r.status_code == 401:
                        _error(r, 401, "unauthenticated")  # the token was checked first
                    else:
                        _error(r, 422, "malformed")


def test_invalid_json_is_a_400_in_the_documented_shape(api: Api) -> None:
    host = api.player("Json")
    for path in _post_paths(api, host):
        for body in (b'{"name": ', b"{'name': 'A'}", b'{"seat": 1,}', b"nul"):
            r = _raw(api, path, host, body, {"content-type": "application/json"})
            detail = _error(r, 400, "invalid_json")
            assert "JSON" in detail["message"]


def test_validation_422s_have_the_documented_shape_and_echo_no_input(api: Api) -> None:
    """A validation failure names where and what (``errors``: ``loc``, ``msg``, ``type``) and
    never sends the offending input back."""
    host = api.player("Shape")
    secret = "do-not-echo-" + "z" * 20
    cases = [("/api/players", {"name": 3}), ("/api/players", {"name": "A", secret: 1}),
             ("/api/tables", {"public": secret}), ("/api/tables", [secret]), ("/api/tables", secret)]
    for path, body in cases:
        r = api.call("POST", path, host, json=body)
        detail = _error(r, 422, "malformed")
        assert detail["errors"], detail
        assert secret not in r.text or path == "/api/players"  # an unknown key's name is its loc
    r = api.call("POST", "/api/players", json={"name": 3})
    assert _error(r, 422, "malformed")["errors"][0]["loc"] == ["body", "name"]


def test_unknown_paths_and_methods_answer_the_documented_shape(server: Server) -> None:
    with httpx.Client(base_url=server.base) as http:
        _error(http.get("/api/nothing-here"), 404, "not_found")
        r = http.put("/api/tables")
        _error(r, 405, "method_not_allowed")
        assert r.headers["allow"] == "GET, POST"  # both routes of the path (Starlette named one)
        _error(http.post("/api/players", content=b"x" * 20000), 413, "too_large")


def test_the_openapi_schema_documents_the_error_shape(server: Server) -> None:
    """Every operation documents its error answers as ``ErrorBody`` (no FastAPI
    ``HTTPValidationError``, whose list shape the server never sends)."""
    schema = httpx.get(server.base + "/openapi.json").json()
    assert "HTTPValidationError" not in str(schema["paths"])
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if path.startswith("/api/"):
                errors = {s: r for s, r in op["responses"].items() if s.startswith(("4", "5"))}
                assert errors, (method, path)
                for r in errors.values():
                    schema_ref = r["content"]["application/json"]["schema"]
                    assert schema_ref == {"$ref": "#/components/schemas/ErrorBody"}


@pytest.mark.parametrize("body", [{"clock": False}, {"clock": True}, {"clock": 15.0}, {"clock": "15"},
                                  {"clock": 45}, {"public": 1}])
def test_item8_loose_table_bodies_are_refused(api: Api, body: dict[str, Any]) -> None:
    """``clock`` must be the JSON integer 0, 15, 30 or 60: ``false`` and ``15.0`` compared equal to
    ``0`` and ``15`` and were accepted; nothing is created on a refusal."""
    host = api.player("Loose")
    options = {"seats": 2, "target": 11, "best_of": 1}
    r = api.call("POST", "/api/tables", host, json={"options": options, **body})
    _error(r, 422, "malformed")
    assert not [t for t in api.http.get("/api/tables").json() if t["host_id"] == host["id"]]


@pytest.mark.parametrize("options", [{"seats": 2, "target": 11, "best_of": 1, "seat": 4},
                                     {"seats": 2, "target": 11, "best_of": 1, "clock": 15},
                                     {"seats": 2, "target": 11, "best_of": 1, "": 0}])
def test_item8_an_unknown_option_key_is_refused(api: Api, options: dict[str, Any]) -> None:
    host = api.player("Typo")
    r = api.call("POST", "/api/tables", host, json={"options": options})
    detail = _error(r, 422, "malformed")
    assert "not an option" in detail["message"]
    assert not [t for t in api.http.get("/api/tables").json() if t["host_id"] == host["id"]]


def _answers(api: Api, table_id: str, who: dict[str, Any], code: str | None = None) -> list[tuple[int, Any]]:
    """What ``who`` gets from every REST endpoint of ``table_id``."""
    body: dict[str, Any] = {"code": code} if code is not None else {}
    calls = [("GET", "", None), ("POST", "/seats", body), ("POST", "/seats", {"seat": 1, **body}),
             ("POST", "/seats", {"side": 1, **body}), ("DELETE", "/seats/me", None),
             ("DELETE", "/seats/0", None), ("DELETE", "/seats/1", None), ("POST", "/bots", {"seat": 1}),
             ("POST", "/start", {}), ("POST", "/rematch", None), ("GET", "/record", None)]
    out = []
    for method, tail, js in calls:
        kw: dict[str, Any] = {"json": js} if js is not None else {}
        if method == "GET" and tail == "" and code is not None:
            kw["params"] = {"code": code}
        r = api.call(method, f"/api/tables/{table_id}{tail}", who, **kw)
        out.append((r.status_code, r.json()))
    return out


def test_item9_a_private_table_answers_a_stranger_as_a_missing_one(api: Api) -> None:
    """Open (empty or with a seat taken), playing and over: every REST endpoint answers a stranger
    (not seated, not the host, no or a wrong code) exactly what it answers for no table at
    all. ``POST seats`` used to answer 403 ``bad_code`` or 409 ``not_open``, ``DELETE seats/me``
    409."""
    host, guest, stranger = api.player("Host"), api.player("Guest"), api.player("Stranger")
    missing = _answers(api, MISSING, stranger)
    assert all(a == (404, {"detail": {"code": "not_found", "message": "no such table"}}) for a in missing)
    empty = api.table(host, public=False)
    seated = api.table(host, public=False)
    assert api.sit(host, seated, seat=0).status_code == 200
    playing = api.table(host, public=False)
    for i, p in enumerate((host, guest)):
        assert api.sit(p, playing, seat=i, code=playing["code"]).status_code == 200
    assert api.start(host, playing).status_code == 200
    over = api.table(host, public=False)
    for i, p in enumerate((host, guest)):
        assert api.sit(p, over, seat=i, code=over["code"]).status_code == 200
    assert api.start(host, over).status_code == 200
    assert api.call("POST", "/api/tables/" + over["id"] + "/seats", guest, json={}).status_code == 409
    for t in (empty, seated, playing, over):
        assert _answers(api, t["id"], stranger) == missing, t["status"]
        wrong = _answers(api, t["id"], stranger, code="wrong-code")
        assert wrong == _answers(api, MISSING, stranger, "wrong-code")
    # With the code the table exists: the refusals say why again.
    r = api.call("POST", f"/api/tables/{playing['id']}/seats", stranger, json={"code": playing["code"]})
    _error(r, 409, "not_open")
    # The host and the seated players still get the real answers.
    _error(api.call("DELETE", f"/api/tables/{playing['id']}/seats/me", guest), 409, "not_open")
    _error(api.call("POST", f"/api/tables/{seated['id']}/seats", host, json={}), 409, "already_seated")
