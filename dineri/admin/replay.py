"""What the admin pages show of a ``dineri-match/1`` record (issue 3 item 7): the action log
with what each action did, the rounds, and the full state at any step of a replay.

Pure functions over the record document; they use only the engine (``load_record``,
``replay(record, upto=i)``, ``summary``), so the viewer shows exactly what ``dineri replay``
computes. The states hold every hand: for admins only, never for a player.
"""

from __future__ import annotations

from typing import Any

from dineri.engine import (
    CODE,
    RecordError,
    RuleError,
    action_from_json,
    apply,
    load_record,
    new_match,
    replay,
)

Json = dict[str, Any]


class ReplayError(ValueError):
    """The stored document is not a valid record (``RecordError``'s message), or a step is out of
    range; nothing is shown."""


def _load(doc: Json) -> Any:
    try:
        return load_record(doc)
    except RecordError as e:
        raise ReplayError(str(e)) from None


def _player(players: list[str] | None, seat: Any) -> str | None:
    if players is None or not isinstance(seat, int) or not 0 <= seat < len(players):
        return None
    return players[seat]


def action_log(doc: Json) -> list[Json]:
    """Every action of the record, in order, with what it did.

    Each entry: ``index`` (0-based in ``actions``), ``step`` (``index + 1``: the replay step
    that shows the state after it), ``seat``, ``side``, ``player`` (name or null), ``type``,
    ``action`` (the record's JSON), ``auto`` (bool: made by the server, e.g. the turn clock),
    ``events`` (the engine's public events: captures, chkobbas, round results) and ``refused``
    (null, or ``{"code", "message"}`` for an action the engine refuses: the log stops there).
    Raises :class:`ReplayError` for a document that is not a valid record.
    """
    record = _load(doc)
    players = list(record.players) if record.players is not None else None
    state = new_match(record.options, record.first_dealer, record.decks)
    out: list[Json] = []
    for i, raw in enumerate(record.actions):
        seat = raw.get("seat") if isinstance(raw, dict) else None
        entry: Json = {
            "index": i, "step": i + 1, "seat": seat,
            "side": seat % 2 if isinstance(seat, int) else None,
            "player": _player(players, seat),
            "type": raw.get("type") if isinstance(raw, dict) else None,
            "action": raw, "auto": bool(isinstance(raw, dict) and raw.get("auto")),
            "events": [], "refused": None,
        }
        try:
            state, events = apply(state, action_from_json(raw, record.options.seats))
            entry["events"] = events
        except RuleError as e:
            entry["refused"] = {"code": e.code, "message": e.message}
            out.append(entry)
            break
        out.append(entry)
    return out


def final_state(doc: Json) -> Json:
    """The replay output of the whole record (``match-record.md``: ``ok``, ``error``, state).
    Raises :class:`ReplayError`."""
    return replay(_load(doc)).to_json()


def step(doc: Json, i: int) -> Json:
    """The replay viewer's step ``i`` (0 = before the first action, ``total`` = after the last).

    Shape: ``{"step": i, "total": n, "action": the i-th action's JSON (1-based; null at 0),
    "state": the replay output after ``i`` actions (every hand, table, scores), "piles": each
    side's captured cards in this round, "chkobba_cards": each side's chkobba cards}``.
    Raises :class:`ReplayError` when ``i`` is not in ``0..n`` or the record is invalid.
    """
    record = _load(doc)
    total = len(record.actions)
    if not 0 <= i <= total:
        raise ReplayError(f"step must be from 0 to {total}, got {i}")
    rep = replay(record, upto=i)
    deal = rep.state.deal
    in_deal = deal is not None and rep.state.phase not in ("shuffle", "cut")
    piles = [[CODE[c] for c in p] for p in deal.piles] if in_deal and deal else [[], []]
    chk = [[CODE[c] for c in p] for p in deal.chkobba_cards] if in_deal and deal else [[], []]
    return {"step": i, "total": total, "action": record.actions[i - 1] if i else None,
            "state": rep.to_json(), "piles": piles, "chkobba_cards": chk}


def status_of(status: str, result: Json | None) -> str:
    """The admin's status of a stored match: ``playing`` (in progress), ``forfeited`` (over by
    a forfeit, R33), ``over``, or ``quarantined`` (its stored record does not replay: issue 7
    item 1)."""
    if status == "quarantined":
        return status
    if status != "over":
        return "playing"
    if result is not None and result.get("reason") == "forfeit":
        return "forfeited"
    return "over"


def game_of(doc: Json) -> str:
    """The record's game (``"chkobba"`` when the document names none: the first records)."""
    game = doc.get("game")
    return game if isinstance(game, str) else "chkobba"


def game_match_view(doc: Json) -> tuple[list[Json], Json]:
    """The action log and final state of a record of a game other than Chkobba (Seven Diamonds,
    golf4: ``dineri/records.py`` and the game's ``replay_steps``), for the admin match page.

    Log entries have :func:`action_log`'s shape (``index``, ``step``, ``seat``, ``side``: the
    game's ``side_of``, null for games without sides, ``player``, ``type``, ``action``, ``auto``,
    ``events``, ``refused``); the state is ``dineri replay``'s output of the whole record (its
    ``ok``/``error`` say where it stopped). Raises :class:`ReplayError` for a document that is
    not a valid record of a registered game.
    """
    from dineri import records
    from dineri.games import GameError, get_game

    try:
        state = records.replay_json(doc)
        game = get_game(game_of(doc))
        steps = game.replay_steps(doc)
    except (ValueError, KeyError, GameError) as e:
        raise ReplayError(str(e)) from None
    options = doc.get("options") or {}
    teams = game.teams(options)
    players = doc.get("players") if isinstance(doc.get("players"), list) else None
    out: list[Json] = []
    for st in steps[1:]:
        raw = st.get("action") or {}
        seat = raw.get("seat") if isinstance(raw, dict) else None
        out.append({"index": st["index"], "step": st["index"] + 1, "seat": seat,
                    "side": game.side_of(options, seat) if teams and isinstance(seat, int) else None,
                    "player": _player(players, seat), "type": raw.get("type"), "action": raw,
                    "auto": bool(raw.get("auto")), "events": st.get("events") or [], "refused": None})
    error = state.get("error")
    if not state.get("ok") and isinstance(error, dict) and isinstance(error.get("index"), int):
        i = error["index"]
        actions = doc.get("actions") or []
        raw = actions[i] if i < len(actions) and isinstance(actions[i], dict) else {}
        seat = raw.get("seat")
        out.append({"index": i, "step": i + 1, "seat": seat, "side": None, "player": _player(players, seat),
                    "type": raw.get("type"), "action": raw, "auto": bool(raw.get("auto")), "events": [],
                    "refused": {"code": error.get("code"), "message": error.get("message")}})
    return out, state
