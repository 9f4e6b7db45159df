"""Schemathesis against a real ``dineri serve`` (issue 7, item 7): every REST answer has a
documented status code, the documented content type and a body matching the OpenAPI schema
(the error shape included), and no request gets a server error. Positive and negative cases,
a bounded number per operation, with a player's token, and path ids of real tables half the
time (random ids only ever meet 404s)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from schemathesis import GenerationMode, checks
from schemathesis.config import SchemathesisConfig

from tests.server.harness import Api, Server, running

pytestmark = pytest.mark.timeout(300)
EXAMPLES = 25  # per operation and generation mode: the whole module takes a few seconds
CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance, checks.response_headers_conformance]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with a player and tables in every state the endpoints care about."""
    db = tmp_path_factory.mktemp("st") / "dineri.db"
    srv: Server
    api: Api
    with running(db) as (srv, api):
        me, other = api.player("Fuzz"), api.player("Other")
        open_t = api.table(other)
        private_t = api.table(other, public=False)
        played, _ = api.full_table(["Fuzz", "Rival"])
        yield {"server": srv, "token": me["token"],
               "tables": [open_t["id"], private_t["id"], played["id"]]}


def _cases() -> list[tuple[str, GenerationMode]]:
    """Every documented operation (``"POST /api/tables"`` …, read from the app's own schema) with
    positive cases, and with negative ones where something can be invalid (a body, a parameter
    that is not any string)."""
    from dineri.server.app import create_app
    from dineri.settings import Settings

    paths = create_app(Settings(database_url="sqlite://", secret_key="x")).openapi()["paths"]
    out = []
    for path, item in sorted(paths.items()):
        for method, op in sorted(item.items()):
            label = f"{method.upper()} {path}"
            out.append((label, GenerationMode.POSITIVE))
            typed = [p for p in op.get("parameters", []) if p.get("schema", {}).get("type") != "string"]
            if "requestBody" in op or typed:
                out.append((label, GenerationMode.NEGATIVE))
    return out


@pytest.fixture(scope="module")
def api_schema(world: dict[str, Any]) -> Any:
    """The schema as the running server serves it."""
    config = SchemathesisConfig.from_dict({"generation": {"database": "none"}})
    return schemathesis.openapi.from_url(f"{world['server'].base}/openapi.json", config=config)


@pytest.mark.parametrize(("label", "mode"), _cases())
def test_every_answer_matches_the_openapi_schema(label: str, mode: GenerationMode, api_schema: Any,
                                                 world: dict[str, Any]) -> None:
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None
    calls = []

    @hypothesis.given(case=operation.as_strategy(generation_mode=mode))
    @hypothesis.settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                         suppress_health_check=list(hypothesis.HealthCheck))
    def run(case: Any) -> None:
        rng = random.Random(repr((case.path_parameters, case.query, case.body)))
        if case.path_parameters and "table_id" in case.path_parameters and rng.random() < 0.5:
            case.path_parameters["table_id"] = rng.choice(world["tables"])
        headers = {"Authorization": f"Bearer {world['token']}"} if rng.random() < 0.8 else {}
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        calls.append(response.status_code)
        assert response.status_code < 500
    run()
    assert calls  # the operation was really called
