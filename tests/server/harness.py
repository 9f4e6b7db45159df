"""Test harness: a real ``dineri serve`` (uvicorn) in a subprocess on a free port, a REST
helper, and real WebSocket clients (the ``websockets`` library) that keep every frame."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m dineri.cli serve`` with ``DINERI_*`` settings from ``env``."""

    def __init__(self, db_url: str, **env: str) -> None:
        self.db_url = db_url
        # Tests make many players from one address, and some chat in bursts: no guest or chat
        # limit unless a test sets one.
        self.env = {"DINERI_DATABASE_URL": db_url, "DINERI_TESTING": "1", "DINERI_GUESTS_PER_MINUTE": "0",
                    "DINERI_CHAT_LINES_PER_MINUTE": "0", **env}
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.nofile: int | None = None  # a lower open-files limit for the server process
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"dineri-test-{self.port}.log"

    @property
    def base(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        """The WebSocket base URL."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Server:
        """Start and wait until ``/healthz`` answers."""
        env = {**os.environ, **self.env}
        log = open(self.log_path, "ab")  # noqa: SIM115 (kept open for the child's lifetime)
        nofile = self.nofile

        def limits() -> None:
            if nofile is not None:
                import resource

                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.proc = subprocess.Popen([sys.executable, "-m", "dineri.cli", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=log, stderr=log, preexec_fn=limits)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        self.stop()  # a server that never answered must not outlive the test
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        """Terminate (SIGTERM, then SIGKILL)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """SIGKILL: no cleanup at all."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None


class Api:
    """REST calls against a server."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=30)

    def player(self, name: str) -> dict[str, Any]:
        r = self.http.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        self.http.cookies.clear()  # each call names its player with a bearer token
        return dict(r.json())

    def call(self, method: str, path: str, player: dict[str, Any] | None = None, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {player['token']}"} if player else {}
        return self.http.request(method, path, headers=headers, **kw)

    def table(self, host: dict[str, Any], seats: int = 2, target: int = 11, best_of: int = 1,
              public: bool = True, clock: int = 0) -> dict[str, Any]:
        r = self.call("POST", "/api/tables", host, json={
            "options": {"seats": seats, "target": target, "best_of": best_of}, "public": public,
            "clock": clock})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def sit(self, player: dict[str, Any], table: dict[str, Any], **body: Any) -> httpx.Response:
        return self.call("POST", f"/api/tables/{table['id']}/seats", player, json=body)

    def start(self, host: dict[str, Any], table: dict[str, Any], **body: Any) -> httpx.Response:
        return self.call("POST", f"/api/tables/{table['id']}/start", host, json=body)

    def full_table(self, names: list[str], *, decks: list[list[str]] | None = None, first_dealer: int = 0,
                   **opts: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Create a table, seat ``names`` in seats 0.., start it; return (table, players by seat)."""
        players = [self.player(n) for n in names]
        table = self.table(players[0], seats=len(names), **opts)
        for i, p in enumerate(players):
            r = self.sit(p, table, seat=i)
            assert r.status_code == 200, r.text
        body: dict[str, Any] = {"first_dealer": first_dealer}
        if decks is not None:
            body["decks"] = decks
        r = self.start(players[0], table, **body)
        assert r.status_code == 200, r.text
        return table, players


class Client:
    """A real WebSocket client of one table; keeps every frame it receives.

    ``wire``: the frames as they came, each validated against its protocol model
    (``SERVER_MODELS``: no unknown type or key; a failure is raised by the next wait).
    ``frames``: the same stream in the per-event form the tests read: an ``update`` is
    expanded into its ``event`` frames, its ``private`` events, then the whole ``view`` it
    leaves the client with (the patch applied to the last view, marked ``"patched": True``),
    a ``table`` when it carried only the table, and its ``ack``.
    """

    def __init__(self, server: Server, table_id: str, token: str | None = None) -> None:
        self.url = f"{server.ws_base}/ws/tables/{table_id}" + (f"?token={token}" if token else "")
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.wire: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.protocol_errors: list[str] = []
        self.view: dict[str, Any] | None = None  # the view as the frames left it
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        self._new = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.closed = False
        self._ids = 0

    async def connect(self, last_event: int | None = None, hello: bool = True) -> Client:
        self.ws = await connect(self.url, max_size=2**22)
        self.closed = False
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if hello:
            await self.send({"type": "hello", "last_event": last_event})
            await self.wait_for(lambda f: f["type"] == "view")
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                assert isinstance(text, str)
                self.raw.append(text)
                doc = json.loads(text)
                self.wire.append(doc)
                self.frames.extend(self._expand(doc))
                self._new.set()
        except Exception:
            pass
        finally:
            self.closed = True
            self._new.set()

    def _expand(self, doc: dict[str, Any]) -> list[dict[str, Any]]:
        """Check one frame against its model and turn it into the per-event form."""
        from pydantic import ValidationError

        from dineri.server.protocol import SERVER_MODELS

        kind = doc.get("type")
        try:
            SERVER_MODELS[str(kind)].model_validate(doc)
        except (KeyError, ValidationError) as e:
            self.protocol_errors.append(f"{doc!r}: {e}")
        if kind == "welcome":
            self.seat, self.table = doc["seat"], doc["table"]
        elif kind == "table":
            self.table = doc["table"]
        elif kind == "view":
            self.view = dict(doc["view"]) if doc["view"] is not None else None
            self.seat, self.table = doc["seat"], doc["table"]
        if kind != "update":
            return [doc]
        out: list[dict[str, Any]] = [{"type": "event", "seq": e["seq"], "event": e["event"]}
                                     for e in doc["events"]]
        out += [{"type": "private", "seq": doc["seq"], "event": e} for e in doc.get("private") or []]
        if "table" in doc:
            self.table = doc["table"]
        if "view" in doc:
            if self.view is None:
                self.protocol_errors.append(f"a view patch before any view: {doc!r}")
            else:
                self.view.update(doc["view"])
                out.append({"type": "view", "seq": doc["seq"], "seat": self.seat, "view": dict(self.view),
                            "table": self.table, "patched": True})
        elif "table" in doc:
            out.append({"type": "table", "table": doc["table"]})
        if "ack" in doc:
            out.append({"type": "ack", "id": doc["ack"], "seq": doc["seq"]})
        return out

    async def send(self, msg: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def wait_for(self, pred: Any, start: int = 0, timeout: float = 15.0) -> dict[str, Any]:
        """The first frame from index ``start`` on that satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        i = start
        while True:
            assert not self.protocol_errors, self.protocol_errors[0]
            while i < len(self.frames):
                if pred(self.frames[i]):
                    return self.frames[i]
                i += 1
            if self.closed:
                raise ConnectionError("socket closed while waiting")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching frame; last frames: {self.frames[-3:]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    async def act(self, action: dict[str, Any], cid: str | None = None) -> dict[str, Any]:
        """Send an action and return its ``ack`` or ``error``."""
        self._ids += 1
        cid = cid or f"a{self._ids}-{random.getrandbits(32)}"
        start = len(self.frames)
        await self.send({"type": "action", "id": cid, "action": action})
        return await self.wait_for(lambda f: f["type"] in ("ack", "error") and f.get("id") == cid, start)

    def last_seq(self) -> int:
        """The highest event number received."""
        seqs = [f["seq"] for f in self.frames if f["type"] == "event"]
        seqs += [f["seq"] for f in self.frames if f["type"] == "view"]
        return max(seqs, default=0)

    def last_view(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f["type"] == "view")

    async def wait_seq(self, seq: int, timeout: float = 15.0) -> None:
        """Wait until a view with ``seq`` or later has arrived."""
        await self.wait_for(lambda f: f["type"] == "view" and f["seq"] >= seq, timeout=timeout)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


def is_event(kind: str) -> Any:
    """A frame predicate: an ``event`` frame of ``kind``."""
    return lambda f: f["type"] == "event" and f["event"]["type"] == kind


async def refusal(url: str, **kw: Any) -> int | None:
    """Open the WebSocket ``url`` and return the close code the server answers with; fails if
    a frame comes first or the socket stays open for 5 s."""
    async with connect(url, **kw) as ws:
        try:
            frame = await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed:
            return ws.close_code
        raise AssertionError(f"a frame instead of a close: {frame!r}")


@contextlib.contextmanager
def running(db: Path, **env: str) -> Iterator[tuple[Server, Api]]:
    """A started server on the SQLite file ``db`` with ``DINERI_*`` settings ``env``, and its
    :class:`Api`; both are stopped and closed on exit, also when the body fails."""
    srv = Server(f"sqlite:///{db}", **env).start()
    api = Api(srv)
    try:
        yield srv, api
    finally:
        srv.stop()
        api.http.close()
