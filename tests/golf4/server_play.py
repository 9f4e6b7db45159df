"""Playing golf4 through a real server (tests/server harness), and checking what each receiver
got against the true match (issue 10 item 6).

:func:`truth` rebuilds, from the finished record and the server's action log (each action's
``ack_seq``), the true state at every event number; :func:`check_stream` then checks one
receiver's frames: each view is exactly the engine's view of the true state for that receiver
(so a face-down card can never be in it, G7; the held card only to its drawer, G8), no event
names a card that is not face up, ``peek_cards`` only in ``private`` frames of the peeking seat,
once per peek and equal to its true bottom cards (G6), decks only in the ``reveal``.
"""

from __future__ import annotations

import asyncio
import bisect
import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dineri import golf4 as engine
from dineri.games import get_game
from dineri.server.protocol import SERVICE_EVENT_MODELS
from tests.cardscan import card_strings as _card_strings
from tests.server.harness import Api, Client, Server

Json = dict[str, Any]
CODES = frozenset(engine.CODE)
NAMES = ["Ana", "Bogdan", "Carmen", "Dorin", "Elena", "Florin", "Gabi", "Horia"]
#: where a public event may name a card: each of these is face up (G5, G8, G9)
CARD_FIELDS = {"deal": {"discard"}, "take": {"card"}, "swap": {"card"}, "discard": {"card"}}


def card_strings(obj: Any) -> set[str]:
    """Every golf4 card code in a JSON value (keys included, either case), upper case."""
    return _card_strings(obj, CODES)


def new_table(api: Api, seats: int, *, clock: int = 0, rounds: int = 9, first_dealer: int = 0,
              decks: list[list[str]] | None = None, start: bool = True) -> tuple[Json, list[Json]]:
    """A golf4 table of ``seats`` guests (seat i: ``NAMES[i]``), started unless ``start`` is
    false (testing server: stacked ``decks``)."""
    players = [api.player(NAMES[i]) for i in range(seats)]
    r = api.call("POST", "/api/tables", players[0], json={
        "game": "golf4", "options": {"seats": seats, "rounds": rounds}, "public": True, "clock": clock})
    assert r.status_code == 201, r.text
    table = r.json()
    for seat, p in enumerate(players):
        assert api.sit(p, table, seat=seat).status_code == 200
    if start:
        body: Json = {"first_dealer": first_dealer}
        if decks is not None:
            body["decks"] = decks
        r = api.start(players[0], table, **body)
        assert r.status_code == 200, r.text
    return table, players


def awaited(view: Json) -> list[int]:
    """The seats the game waits on, from the public view (G6: the peek waits on every seat)."""
    out = view.get("forfeited") or []
    if view["phase"] == "peek":
        return [s for s, p in enumerate(view["peeks"]) if p is None and s not in out]
    if view["phase"] == "play" and view["turn"] is not None and view["turn"] not in out:
        return [view["turn"]]
    return []


def legal(view: Json) -> list[Json]:
    """What a seat may send, worked out from its own view alone (G6, G8–G10)."""
    seat = view["seat"]
    if view["phase"] == "peek":
        return [{"type": "peek"}, {"type": "skip_peek"}] if view["peeks"][seat] is None else []
    if view["phase"] != "play" or view["turn"] != seat:
        return []
    holding = view["holding"]
    if holding is None:
        out = [{"type": "draw"}] if view["stock_left"] else []
        if view["discard_top"]:
            out.append({"type": "take"})
        if view["knocker"] is None:
            out.append({"type": "knock"})
        return out
    swaps = [{"type": "swap", "slot": k} for k in range(4)]
    return swaps + ([{"type": "discard"}] if holding["from"] == "stock" else [])


def pick(rng: random.Random, options: list[Json], knock_rate: float) -> Json:
    """A random choice; a knock only ``knock_rate`` of the times it is allowed (rounds end)."""
    knocks = [a for a in options if a["type"] == "knock"]
    rest = [a for a in options if a["type"] != "knock"]
    if knocks and (not rest or rng.random() < knock_rate):
        return knocks[0]
    return rng.choice(rest)


async def play(clients: list[Client], rng: random.Random, *, stop_after: int | None = None,
               knock_rate: float = 0.25, forfeit: tuple[int, int] | None = None) -> list[Json]:
    """Random legal actions, every awaited seat deciding from its own socket's last view, until
    the match is over (or ``stop_after`` accepted actions). ``forfeit``: ``(after n actions,
    seat)`` forfeits. Returns the accepted actions (record form, ``seat`` first)."""
    done: list[Json] = []
    while stop_after is None or len(done) < stop_after:
        head = clients[0].last_view()
        view = head["view"]
        if view is None or view["phase"] == "over":
            return done
        seats = awaited(view)
        if not seats:
            await clients[0].wait_for(lambda f: f["type"] == "view", start=len(clients[0].frames))
            continue
        seat = rng.choice(seats)
        client = clients[seat]
        await client.wait_seq(head["seq"])
        mine = client.last_view()["view"]
        if forfeit is not None and len(done) >= forfeit[0] and forfeit[1] not in mine["forfeited"]:
            seat, client, action = forfeit[1], clients[forfeit[1]], {"type": "forfeit"}
        else:
            options = legal(mine)
            if not options:
                continue
            action = pick(rng, options, knock_rate)
        reply = await client.act(action)
        assert reply["type"] == "ack", (reply, action, mine)
        done.append({"seat": seat, **action})
        for c in clients:
            await c.wait_seq(reply["seq"])
    return done


def record_of(api: Api, table: Json, player: Json) -> Json:
    """The finished table's record (its players may download it)."""
    r = api.call("GET", f"/api/tables/{table['id']}/record", player)
    assert r.status_code == 200, r.text
    return dict(r.json())


@dataclass
class Truth:
    """The true match at every event number: ``states[k]`` after ``k`` actions; ``acks[i]``: the
    number of action ``i``'s last event."""

    states: list[engine.MatchState]
    acks: list[int]

    def at(self, seq: int) -> engine.MatchState:
        """The true state once event ``seq`` was sent."""
        return self.states[bisect.bisect_right(self.acks, seq)]


def truth(db: Path, table_id: str, record: Json) -> Truth:
    """Rebuild :class:`Truth` from the record and the server's stored action log."""
    rec = engine.load_record(record)
    states = [engine.start(rec)]
    for step in engine.steps(rec):
        if isinstance(step, engine.Step):
            states.append(step.state)
    with sqlite3.connect(db) as con:
        acks = [row[0] for row in con.execute(
            "SELECT a.ack_seq FROM actions a JOIN matches m ON m.id = a.match_id "
            "WHERE m.table_id = ? ORDER BY a.idx", (table_id,))]
    assert len(acks) == len(rec.actions) == len(states) - 1
    assert acks == sorted(acks)
    return Truth(states, acks)


def check_stream(frames: list[Json], seat: int | None, t: Truth, *, live: bool = True) -> dict[str, int]:
    """One receiver's frames against the truth (see the module docstring). ``live``: the
    receiver was connected when its seat's peeks happened (else none may come at all). Returns
    counts of what was checked: ``frames``, ``views``, ``peeks`` (private peek frames),
    ``held`` (views showing a held card)."""
    models = {**SERVICE_EVENT_MODELS, **get_game("golf4").event_models()}
    counts = {"frames": 0, "views": 0, "peeks": 0, "held": 0}
    peeks_owed = 0
    over = False
    for f in frames:
        counts["frames"] += 1
        if f["type"] == "event":
            ev = f["event"]
            assert ev["type"] in models and ev["type"] != "peek_cards", ev
            models[ev["type"]].model_validate(ev, strict=True)  # documented, no extra key
            if ev["type"] == "reveal":
                assert over, "decks revealed before the match ended"
                continue
            if ev["type"] == "match_over":
                over = True
            if ev["type"] == "peek" and ev["seat"] == seat and live:
                peeks_owed += 1
            if ev["type"] == "round_over":
                continue  # every hand turned up (G13)
            named = {k: v for k, v in ev.items() if k not in CARD_FIELDS.get(ev["type"], set())}
            assert not card_strings(named), (seat, ev)
        elif f["type"] == "private":
            ev = f["event"]
            assert seat is not None and ev["type"] == "peek_cards", (seat, f)
            models["peek_cards"].model_validate(ev, strict=True)
            deal = t.at(f["seq"]).deal
            assert deal is not None
            a, b = engine.peek_slots(deal, seat)
            assert ev["slots"] == {"2": engine.CODE[a], "3": engine.CODE[b]}, (seat, ev)
            peeks_owed -= 1
            assert peeks_owed == 0, "a peek_cards frame without its own peek, or twice"
            counts["peeks"] += 1
        elif f["type"] == "view" and f.get("view") is not None:
            state = t.at(f["seq"])
            expected = engine.public_view(state) if seat is None else engine.seat_view(state, seat)
            assert f["view"] == expected, (seat, f["seq"])
            counts["views"] += 1
            counts["held"] += bool(f["view"].get("held"))
        elif f["type"] != "view":
            assert not card_strings(f), f  # welcome, table, ack, error: no card at all
    assert peeks_owed == 0
    return counts


async def connect_all(srv: Server, table: Json, players: list[Json], last_event: int | None = 0,
                      watcher: bool = True) -> list[Client]:
    """A socket per seat (and a spectator's last, when ``watcher``)."""
    out = [await Client(srv, table["id"], p["token"]).connect(last_event=last_event) for p in players]
    if watcher:
        out.append(await Client(srv, table["id"]).connect(last_event=last_event))
    return out


async def close_all(clients: list[Client]) -> None:
    """Close every socket."""
    await asyncio.gather(*(c.close() for c in clients))
