"""JSON Schemas of every protocol message, generated from the pydantic models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dineri.games import game_names, get_game
from dineri.server.protocol import CLIENT_MODELS, SERVER_MODELS, SERVICE_EVENT_MODELS


def all_schemas() -> dict[str, dict[str, Any]]:
    """``relative path -> schema`` for client and server messages and each game's actions."""
    out: dict[str, dict[str, Any]] = {}
    groups: list[tuple[str, dict[str, Any]]] = [("client", CLIENT_MODELS), ("server", SERVER_MODELS),
                                                ("events", SERVICE_EVENT_MODELS)]
    for game in game_names():
        groups += [(game, get_game(game).action_models()), (f"{game}/events", get_game(game).event_models())]
    for folder, models in groups:
        for name, model in models.items():
            out[f"{folder}/{name}.json"] = model.model_json_schema()
    return out


def render(schema: dict[str, Any]) -> str:
    """The file text of a schema (stable: sorted keys, 2-space indent, final newline)."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(out: str | Path) -> list[Path]:
    """Write every schema under ``out``; returns the paths written."""
    root = Path(out)
    paths = []
    for rel, schema in all_schemas().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(schema), encoding="utf-8")
        paths.append(path)
    return paths
