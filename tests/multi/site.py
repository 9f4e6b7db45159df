"""A Dineri site on this machine (issue 9): Debian's nginx in front of two ``dineri serve``
processes on a fresh PostgreSQL schema and the machine's Redis (own key and channel prefix).

The shape is docker-compose.yml's: the processes run the compose file's command and settings
(only the address, port, database, Redis prefix and secret differ), nginx runs
``deploy/nginx.conf`` with only its upstream addresses, port and temporary paths rewritten
(:func:`render_nginx`). Every process is started in its own session and stopped by its process
group, so nothing outlives a test (a SIGKILLed server's helpers included).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml
from sqlalchemy import text

from dineri.store.db import make_engine

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"
TEMP_MARK = "# templated: temporary paths"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def compose() -> dict[str, Any]:
    """docker-compose.yml, parsed (YAML anchors and merge keys resolved)."""
    doc: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return doc


def dineri_services(doc: dict[str, Any]) -> list[str]:
    """The compose services that run Dineri (their command is ``dineri serve``), in order."""
    return [name for name, svc in doc["services"].items()
            if list(svc.get("command", []))[:2] == ["dineri", "serve"]]


def serve_command(doc: dict[str, Any], service: str, host: str, port: int) -> list[str]:
    """The compose command of ``service`` with its ``--host`` and ``--port`` values replaced and
    ``dineri`` resolved to this interpreter's script. Raises ``ValueError`` if the compose
    command has no ``--host`` or ``--port``."""
    argv = [str(a) for a in doc["services"][service]["command"]]
    for flag, value in (("--host", host), ("--port", str(port))):
        if flag not in argv:
            raise ValueError(f"the compose command of {service} has no {flag}")
        argv[argv.index(flag) + 1] = value
    script = Path(sys.executable).with_name("dineri")
    argv[0] = str(script) if script.exists() else (shutil.which("dineri") or "dineri")
    return argv


def compose_port(doc: dict[str, Any], service: str) -> int:
    """The port ``service``'s compose command listens on."""
    argv = [str(a) for a in doc["services"][service]["command"]]
    return int(argv[argv.index("--port") + 1])


def render_nginx(conf: str, upstreams: dict[str, str], listen: str, temp: Path) -> str:
    """``deploy/nginx.conf`` for this machine: each ``name:port`` of ``upstreams`` replaced by
    its address, ``listen 80;`` by ``listen <listen>;``, temporary paths under ``temp``. Raises
    ``ValueError`` when something to replace is missing (the file and the test drifted apart)."""
    out = conf
    for old, new in upstreams.items():
        if old not in out:
            raise ValueError(f"{old} is not in nginx.conf")
        out = out.replace(old, new)
    if out.count("listen 80;") != 1 or TEMP_MARK not in out:
        raise ValueError("nginx.conf has no single 'listen 80;' or no temporary paths mark")
    out = out.replace("listen 80;", f"listen {listen};")
    paths = "".join(f"    {d}_temp_path {temp / d};\n"
                    for d in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # Which process answered each request (Site.owner_of); the deployment logs nothing.
    paths += "    log_format dineri_upstream '$request_uri $upstream_addr';\n"
    out = out.replace("access_log off;", f"access_log {temp / 'access.log'} dineri_upstream;", 1)
    head, mark, tail = out.partition(TEMP_MARK)
    line_end = tail.index("\n") + 1
    return head + mark + tail[:line_end] + paths + tail[line_end:]


def health_path(doc: dict[str, Any], service: str) -> str:
    """The path ``service``'s compose health check asks for on its own port. Raises
    ``ValueError`` when the check names no ``http://127.0.0.1:<its port>/...`` URL."""
    test = " ".join(str(t) for t in doc["services"][service]["healthcheck"]["test"])
    found = re.search(r"http://127\.0\.0\.1:(\d+)(/[A-Za-z0-9_/]*)", test)
    if found is None or int(found.group(1)) != compose_port(doc, service):
        raise ValueError(f"the health check of {service} asks for no URL on its port")
    return found.group(2)


def nginx_binary() -> str | None:
    """Debian's nginx (``apt-get install -y nginx``), or ``None``."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


class Proc:
    """A child process in its own session (so its whole group can be stopped), logging to a file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start (the previous run must be over)."""
        assert self.proc is None, f"{self.name} is running"
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.argv, cwd=ROOT, env={**os.environ, **self.env},
                                         stdout=out, stderr=out, start_new_session=True)

    @property
    def running(self) -> bool:
        """Whether the process is alive (an exited one is left unreaped: see :meth:`_group`)."""
        if self.proc is None or self.proc.returncode is not None:
            return False
        return os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None

    def _group(self, sig: int) -> None:
        # Only while the leader is alive or a zombie (not yet reaped): its pid, the group's id,
        # cannot belong to anybody else then.
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)

    def _exited(self, timeout: float) -> bool:
        """Wait up to ``timeout`` for the leader to exit, without reaping it."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
            time.sleep(0.05)
        return False

    def kill(self) -> None:
        """SIGKILL the process and everything it started (as a machine or container dying)."""
        if self.proc is None:
            return
        self._group(signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
        """Stop gracefully with ``sig`` (then SIGKILL after ``timeout``), and its helpers."""
        if self.proc is None:
            return
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)
            self._exited(timeout)
        self._group(signal.SIGKILL)  # whatever is left of the group (helpers, a stuck server)
        self.proc.wait()
        self.proc = None

    def tail(self, n: int = 3000) -> str:
        """The end of the log."""
        try:
            return self.log.read_text(errors="replace")[-n:]
        except FileNotFoundError:
            return ""


@dataclass
class Endpoint:
    """An HTTP base (nginx, or one process directly) for tests/server/harness's Api and Client."""

    base: str

    @property
    def ws_base(self) -> str:
        """The WebSocket base URL."""
        return "ws" + self.base.removeprefix("http")


class Site:
    """nginx + the compose file's Dineri processes on a fresh PostgreSQL schema and Redis.

    ``env``: extra ``DINERI_*`` settings for every process (tests shorten graces and clocks).
    Use as a context manager; :meth:`close` stops everything and drops the schema and keys.
    """

    def __init__(self, tmp: Path, **env: str) -> None:
        self.tmp = tmp
        self.doc = compose()
        self.services = dineri_services(self.doc)
        self.schema = "t_" + secrets.token_hex(6)
        self.db_url = f"{PG}?options=-csearch_path%3D{self.schema}"
        self.prefix = f"dineri-test-{secrets.token_hex(4)}:"
        self.secret = secrets.token_hex(32)
        self.ports = {svc: free_port() for svc in self.services}
        self.port = free_port()
        self.env = env
        self.procs = {svc: self._dineri(svc) for svc in self.services}
        self.nginx = self._nginx()
        self._schema_made = False

    # --- the pieces ------------------------------------------------------------------------

    def settings_of(self, service: str) -> dict[str, str]:
        """The ``DINERI_*`` settings of ``service``: the compose file's, with this machine's
        database, Redis, secret, hosts and proxy address, plus the test's ``env``."""
        composed = {k: str(v) for k, v in self.doc["services"][service].get("environment", {}).items()}
        local = {
            "DINERI_DATABASE_URL": self.db_url,
            "DINERI_REDIS_URL": REDIS,
            "DINERI_REDIS_PREFIX": self.prefix,
            "DINERI_SECRET_KEY": self.secret,
            "DINERI_ALLOWED_HOSTS": "localhost,127.0.0.1",
            "DINERI_FORWARDED_ALLOW_IPS": "127.0.0.1",
            "DINERI_TESTING": "1",
            "DINERI_GUESTS_PER_MINUTE": "0",
            "DINERI_LOG_LEVEL": "INFO",
        }
        missing = {"DINERI_DATABASE_URL", "DINERI_REDIS_URL", "DINERI_SECRET_KEY"} - set(composed)
        assert not missing, f"docker-compose.yml lost {missing}"
        return {**composed, **local, **self.env}

    def _dineri(self, svc: str) -> Proc:
        argv = serve_command(self.doc, svc, "127.0.0.1", self.ports[svc])
        return Proc(svc, argv, self.settings_of(svc), self.tmp / f"{svc}.log")

    def _nginx(self) -> Proc:
        binary = nginx_binary() or "nginx"
        temp = self.tmp / "nginx"
        temp.mkdir(parents=True, exist_ok=True)
        upstreams = {f"{svc}:{compose_port(self.doc, svc)}": f"127.0.0.1:{self.ports[svc]}"
                     for svc in self.services}
        conf = render_nginx(NGINX_CONF.read_text(encoding="utf-8"), upstreams,
                            f"127.0.0.1:{self.port}", temp)
        path = temp / "nginx.conf"
        path.write_text(conf, encoding="utf-8")
        argv = [binary, "-p", str(temp), "-c", str(path), "-e", "stderr",
                "-g", f"daemon off; pid {temp / 'nginx.pid'};"]
        return Proc("nginx", argv, {}, self.tmp / "nginx.log")

    # --- life ------------------------------------------------------------------------------

    def __enter__(self) -> Site:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Make the schema, start every process at once (they migrate the fresh schema
        together), then nginx; wait until each is ready."""
        admin = make_engine(PG)
        try:
            with admin.begin() as c:
                c.execute(text(f"CREATE SCHEMA {self.schema}"))
            self._schema_made = True
        finally:
            admin.dispose()
        for proc in self.procs.values():
            proc.start()
        for svc in self.services:
            self.wait_ready(svc)
        self.nginx.start()
        self._wait(self.nginx, self.base + "/healthz")

    def close(self) -> None:
        """Stop nginx and every process, drop the schema and the Redis keys of the prefix."""
        self.nginx.stop(signal.SIGQUIT, timeout=5)
        for proc in self.procs.values():
            proc.stop()
        if self._schema_made:
            admin = make_engine(PG)
            try:
                with admin.begin() as c:
                    c.execute(text(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE"))
            finally:
                admin.dispose()
            self._schema_made = False
        with contextlib.suppress(Exception):
            import redis

            r = redis.Redis.from_url(REDIS)
            keys = list(r.scan_iter(match=self.prefix + "*", count=1000))
            if keys:
                r.delete(*keys)
            r.close()

    def ready_path(self, service: str) -> str:
        """The readiness path of ``service``'s compose health check (``/readyz``)."""
        return health_path(self.doc, service)

    def wait_ready(self, service: str, timeout: float = 90.0) -> None:
        """Wait until ``service`` answers its readiness path (90 s: a busy machine)."""
        base = self.direct(service).base
        path = self.ready_path(service)
        with contextlib.suppress(httpx.HTTPError):
            if path == "/readyz" and httpx.get(base + path, timeout=2).status_code == 404:
                path = "/healthz"  # a server from before /readyz (issue 7 item 3)
        self._wait(self.procs[service], base + path, timeout)

    def _wait(self, proc: Proc, url: str, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not proc.running:
                raise RuntimeError(f"{proc.name} exited:\n{proc.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{proc.name} not ready at {url}:\n{proc.tail()}")

    # --- addresses and operations ----------------------------------------------------------

    @property
    def base(self) -> str:
        """The site's address (nginx)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def front(self) -> Endpoint:
        """nginx, for tests/server/harness's Api and Client."""
        return Endpoint(self.base)

    def direct(self, service: str) -> Endpoint:
        """One process directly, bypassing nginx."""
        return Endpoint(f"http://127.0.0.1:{self.ports[service]}")

    def owner_of(self, table_id: str) -> str:
        """The service nginx routes ``table_id``'s paths to now (read from its access log after
        one ``GET /api/tables/{id}`` through nginx)."""
        mark = secrets.token_hex(6)
        httpx.get(f"{self.base}/api/tables/{table_id}?probe={mark}", timeout=10)
        log = self.tmp / "nginx" / "access.log"
        by_port = {str(port): svc for svc, port in self.ports.items()}
        for _ in range(50):
            for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
                if mark in line:
                    last = line.split()[-1].split(",")[-1].strip()  # after a fail-over: the last tried
                    return by_port[last.rpartition(":")[2]]
            time.sleep(0.1)
        raise RuntimeError(f"no access log line for {table_id}")

    def kill(self, service: str) -> None:
        """SIGKILL ``service`` (and its helpers)."""
        self.procs[service].kill()

    def restart(self, *services: str, kill: bool = False) -> None:
        """Stop (SIGTERM, or SIGKILL with ``kill``) then start ``services`` together, and wait
        until each is ready again."""
        for svc in services:
            (self.procs[svc].kill if kill else self.procs[svc].stop)()
        for svc in services:
            self.procs[svc].start()
        for svc in services:
            self.wait_ready(svc)

    def start_service(self, service: str) -> None:
        """Start a stopped ``service`` and wait until it is ready."""
        self.procs[service].start()
        self.wait_ready(service)
