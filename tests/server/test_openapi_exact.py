"""The OpenAPI document is exactly as strict as the server (issue 7 item 7, schemathesis's
ST202-like finding: bodies the schema allows were answered 422; and ST205-like: ``405`` answers
without a correct ``Allow``). Each class of mismatch fixed has its check here: the schema and the
server judge the same inputs alike (jsonschema_rs against the real validation)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from dineri.games import GameError, game_names, get_game
from dineri.server.app import create_app
from dineri.settings import Settings

pytestmark = pytest.mark.timeout(120)


def _accepts(game: str, options: Any) -> bool:
    """What ``POST /api/tables`` accepts of ``options``: ``check_options`` passes and no key is
    left out of the normalised options (routes_tables._no_unknown_options)."""
    try:
        known = get_game(game).check_options(options)
    except GameError:
        return False
    return isinstance(options, dict) and set(options) <= set(known)


def _option_samples() -> Iterator[dict[str, Any]]:
    values: list[Any] = [None, 0, 1, 2, 3, 4, 5, 8, 9, 11, 18, 21, 31, 500, 4.0, 4.5, True, "2", -1]
    keys = ("seats", "target", "best_of", "rounds")
    for a, b in itertools.product(values, repeat=2):  # two keys at a time, every pair of values
        for k1, k2 in itertools.combinations(keys, 2):
            yield {k: v for k, v in ((k1, a), (k2, b)) if v is not None}
    for seats, target, best_of in itertools.product((2, 3, 4), (11, 12, 21, 31), (1, 2, 3, 5)):
        yield {"seats": seats, "target": target, "best_of": best_of}
        yield {"seats": seats, "target": target, "best_of": best_of, "extra": 1}
    for seats, rounds in itertools.product(range(0, 11), (8, 9, 18, None)):
        yield {"seats": seats} if rounds is None else {"seats": seats, "rounds": rounds}
    yield {}


@pytest.mark.parametrize("game", game_names())
def test_each_game_s_options_schema_accepts_exactly_what_it_accepts(game: str) -> None:
    """``Game.options_schema()`` (shown in ``POST /api/tables``' schema) and the server's own
    check agree on every sample: in-range and out-of-range values, floats and booleans for
    integers, missing and unknown keys."""
    check = jsonschema_rs.validator_for(get_game(game).options_schema())
    # JSON Schema's data model has one number 4 = 4.0 ("integer" takes 4.0), while the server
    # refuses 4.0 (a JSON integer is meant): the one difference no schema can state.
    samples = [o for o in _option_samples() if not any(type(v) is float and v.is_integer()
                                                        for v in o.values())]
    disagree = [o for o in samples if check.is_valid(o) != _accepts(game, o)]
    assert not disagree, disagree[:5]
    assert any(check.is_valid(o) for o in samples)  # the samples hold valid options too


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("exact") / "x.db"
    app = create_app(Settings(database_url=f"sqlite:///{db}", guests_per_minute=0,
                              allowed_hosts=["testserver"]))
    with TestClient(app) as client:
        yield client


def _component(http: TestClient, name: str) -> Any:
    schema = http.get("/openapi.json").json()
    return jsonschema_rs.validator_for({**schema["components"]["schemas"][name],
                                        "components": schema["components"]})


def test_a_new_table_body_is_valid_exactly_when_the_server_takes_it(http: TestClient) -> None:
    """``NewTable``: ``game`` one of the games, each game's options as its branch says, the
    default game and options where they fit; the server creates exactly the tables the schema
    allows (201) and refuses the others (422)."""
    schema_of = http.get("/openapi.json").json()
    body_ref = schema_of["paths"]["/api/tables"]["post"]["requestBody"]["content"]["application/json"]
    assert body_ref["schema"] == {"$ref": "#/components/schemas/NewTable"}
    check = _component(http, "NewTable")
    bodies: list[dict[str, Any]] = [
        {}, {"game": "chkobba"}, {"game": "golf4"}, {"game": "seven_diamonds"}, {"game": "poker"},
        {"game": "golf4", "options": {"seats": 5}}, {"game": "golf4", "options": {"seats": 9}},
        {"game": "golf4", "options": {"seats": 3, "rounds": 18}}, {"options": {"seats": 5}},
        {"game": "seven_diamonds", "options": {}}, {"game": "seven_diamonds", "options": {"seats": 2}},
        {"options": {"seats": 4, "target": 21, "best_of": 3}}, {"options": {"seats": 4}},
        {"options": {"seats": 2, "target": 11, "best_of": 1, "rounds": 9}}, {"clock": 15},
        {"clock": 20}, {"public": False}, {"colour": "red"}]
    for body in bodies:
        player = http.post("/api/players", json={"name": "Host"}).json()
        r = http.post("/api/tables", json=body, headers={"Authorization": f"Bearer {player['token']}"})
        assert r.status_code == (201 if check.is_valid(body) else 422), (body, r.status_code, r.text)


def test_every_405_names_exactly_the_documented_methods(http: TestClient) -> None:
    """ST205: every path the schema names without a parameter answers an undocumented method
    with ``405`` and an ``Allow`` of exactly its documented methods. The
    POST-only paths under ``/api/accounts/`` advertised ``GET`` too, because
    ``GET /api/accounts/{username}`` matched them; that route answers them 405 now, and those
    words cannot be usernames."""
    paths = http.get("/openapi.json").json()["paths"]
    literal = {p: item for p, item in paths.items() if "{" not in p}
    assert "/api/accounts/login" in literal
    for path, item in literal.items():
        documented = {m.upper() for m in item}
        expected = documented
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
            if method in documented:
                continue
            r = http.request(method, path)
            assert r.status_code == 405, (method, path, r.status_code, r.text)
            assert set(r.headers["allow"].split(", ")) == expected, (method, path, r.headers["allow"])
            assert r.json()["detail"]["code"] == "method_not_allowed"
    # A templated path keeps its own methods.
    r = http.put("/api/tables/abc")
    assert r.status_code == 405 and r.headers["allow"] == "GET"


def test_the_literal_account_paths_are_no_usernames() -> None:
    """``GET /api/accounts/login`` is no user's page: the words of the literal paths under
    ``/api/accounts/`` are reserved usernames."""
    from dineri.accounts.names import NameError_, check_username

    for word in ("csrf", "login", "logout", "password", "delete", "privacy", "Login"):
        with pytest.raises(NameError_) as e:
            check_username(word)
        assert e.value.code == "reserved"


def test_a_quick_match_body_is_valid_exactly_for_an_offered_queue(http: TestClient) -> None:
    """``PlayNow``: one branch per offered queue (game, seats, its targets; defaults where they
    fit) and ``bot_after`` one of the waits: the schema and the server's own check
    (``check_key``, the waits of ``QuickMatch.join``) agree on every combination."""
    from dineri.accounts.matcher import BOT_WAITS, QuickError, check_key

    check = _component(http, "PlayNow")
    unset = object()
    for game, seats, target in itertools.product(("chkobba", "golf4", "seven_diamonds", "poker", unset),
                                                 (1, 2, 3, 4, 8, unset), (9, 11, 18, 21, 31, 500, 12, unset)):
        body = {k: v for k, v in (("game", game), ("seats", seats), ("target", target)) if v is not unset}
        try:
            check_key(body.get("game", "chkobba"), body.get("seats", 2), body.get("target", 11))
            ok = True
        except QuickError:
            ok = False
        assert check.is_valid(body) == ok, body
    for wait in (None, 0, 5, 10, 30, 60, 120, 121):
        assert check.is_valid({"bot_after": wait}) == (wait in BOT_WAITS), wait


def test_lengths_of_names_and_passwords_are_in_the_schema(http: TestClient) -> None:
    """A display name of 1–24 characters, a username of 3–24, a password of 8–256 (claim and
    sign-in; a new password too): the schema says so, and the server refuses (422) exactly the
    bodies outside them; within them it creates the guest or the account."""
    player = _component(http, "NewPlayer")
    for name, status in (("", 422), ("A", 201), ("A" * 24, 201), ("A" * 25, 422)):
        assert player.is_valid({"name": name}) == (status == 201), name
        assert http.post("/api/players", json={"name": name}).status_code == status, name
    creds = _component(http, "Credentials")
    cases = [("ab", "password1", 422), ("abc", "password1", 201), ("u" * 24, "password1", 201),
             ("u" * 25, "password1", 422), ("usr7", "x" * 7, 422), ("usr8", "x" * 8, 201),
             ("usr256", "x" * 256, 201), ("usr257", "x" * 257, 422)]
    for username, password, status in cases:
        body = {"username": username, "password": password}
        assert creds.is_valid(body) == (status == 201), body
        token = http.post("/api/players", json={"name": "G"}).json()["token"]
        r = http.post("/api/accounts", json=body, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == status, (body, r.text)
    change = _component(http, "PasswordChange")
    assert not change.is_valid({"old": "x", "new": "short"})
    assert change.is_valid({"old": "x", "new": "long enough"})


def test_a_display_name_s_characters_are_in_the_schema(http: TestClient) -> None:
    """The name's pattern refuses what the server refuses by category (control, format,
    private-use, line and paragraph separators: ``"\\u0001"`` was a valid body answered 422),
    and takes names of any script."""
    check = _component(http, "NewPlayer")
    for name in ("\u0001", "a\u200bb", "x\u2028y", "\ue000", "a\U000e0001", "\x7f", "a\nb",
                 " \r\u2006\x1d\u2006\xa0\x85 "):  # the last: whitespace alone, nothing once trimmed
        assert not check.is_valid({"name": name}), repr(name)
        assert http.post("/api/players", json={"name": name}).status_code == 422, repr(name)
    # Trimmed first: whitespace at the ends (a line end, U+2028) is no part of the name.
    for name in ("Amira", "أمينة", "Nguyễn", "李雷", "O'Brien 2", "a\U0001f600", "Amira\n", "\u2028Li\t"):
        assert check.is_valid({"name": name}), name
        assert http.post("/api/players", json={"name": name}).status_code == 201, name


def test_the_replay_body_is_documented(http: TestClient) -> None:
    """``POST /api/replay`` documents its body (a record: ``format``, one of the games), which
    it showed none of; the games listed are the server's."""
    op = http.get("/openapi.json").json()["paths"]["/api/replay"]["post"]
    body = op["requestBody"]["content"]["application/json"]["schema"]
    assert op["requestBody"]["required"] and body["required"] == ["format", "game"]
    assert body["properties"]["game"]["enum"] == game_names()
