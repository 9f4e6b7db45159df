"""``POST /api/replay``: a match record stepped for the visual replay (issue 13, item 6).

The players' replay page (``/replay``: a record file the player downloaded) and the admin's
(the same page, with a stored record) send the whole ``dineri-match/1`` document and draw the
answer with the game's own page module, so no page ever reimplements a rule: the steps come from
the game's :meth:`~dineri.games.base.Game.replay_steps`, the final state from
:func:`dineri.records.replay_json` (exactly what ``dineri replay`` prints).

No login is needed: a record is the player's own file and the answer holds nothing the record
does not. The body is limited to :data:`MAX_RECORD_BYTES` (``413 too_large``, by the server's
body limit); a document that is not a record of a known game is ``422 malformed``. The work runs
in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from dineri import records
from dineri.games import GameError, get_game
from dineri.server.bodylimit import LARGER_BODIES

PATH = "/api/replay"
#: The largest record accepted (bytes; 512 KiB): a best of 5 in 2v2 is well under 100 KiB.
MAX_RECORD_BYTES = LARGER_BODIES[PATH]

router = APIRouter(tags=["replay"])


def _malformed(message: str) -> HTTPException:
    return HTTPException(422, {"code": "malformed", "message": message[:300]})


def replay_document(body: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """The replay of one record document: ``{"game", "options", "players", "first_dealer",
    "steps", "result"}``. ``steps`` are the game's replay steps (item 0 before the first action,
    then one per accepted action with its public events and the state after it); ``result`` is
    the ``dineri replay`` output of the whole record (``ok``, ``error``, final state).

    Raises ``ValueError`` (a ``RecordError`` or ``GameError`` message) for a document that is not
    a valid record of a registered game.
    """
    doc = records.parse_document(body)
    result = records.replay_json(doc)  # validates the format, the game and the record
    name = str(doc.get("game"))
    try:
        game = get_game(name)
    except KeyError:
        raise ValueError(f"malformed record: no table game {name[:40]!r} on this server") from None
    try:
        steps = game.replay_steps(doc)
    except GameError as e:
        raise ValueError(f"malformed record: {e.message}") from None
    players = doc.get("players")
    names = players if isinstance(players, list) and all(isinstance(p, str) for p in players) else None
    return {
        "game": name,
        "options": doc.get("options"),
        "players": names,
        "first_dealer": doc.get("first_dealer"),
        "steps": steps,
        "result": result,
    }


#: The body as the OpenAPI document shows it (issue 7 item 7: it showed none, so schemathesis sent
#: none and called the 422 a valid request refused): a record document. That it replays is
#: checked after (``422 malformed``), as no JSON Schema can say.
BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["format", "game"],
    "properties": {"format": {"const": records.FORMAT},
                   "game": {"type": "string", "enum": ["chkobba", "golf4", "seven_diamonds"]}}}}}}}


@router.post(PATH, openapi_extra=BODY)
async def replay(request: Request) -> dict[str, Any]:
    """Step a match record for the replay page (body: the record document, JSON)."""
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:  # the body limit already refuses it; checked here too
        raise HTTPException(413, {"code": "too_large",
                                  "message": f"records are limited to {MAX_RECORD_BYTES} bytes"})
    try:
        return await asyncio.to_thread(replay_document, body)
    except (ValueError, RecursionError) as e:
        raise _malformed(str(e)) from None
