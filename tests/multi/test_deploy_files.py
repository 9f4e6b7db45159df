"""docker-compose.yml and deploy/ (issue 9, item 4). There is no Docker engine on this machine, so
the compose file is checked here instead of run: it describes nginx, two Dineri processes,
PostgreSQL and Redis with health checks, and names the same commands, ports, settings and nginx
configuration as the site tests/multi runs for real (tests/multi/site.py builds its processes
from this very file)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from fastapi.routing import APIRoute

from dineri.server.app import create_app
from dineri.settings import Settings
from tests.multi.site import (
    NGINX_CONF,
    ROOT,
    Site,
    compose,
    compose_port,
    dineri_services,
    health_path,
    render_nginx,
)


def test_the_compose_file_is_nginx_two_dineri_processes_postgresql_and_redis() -> None:
    doc = compose()
    services = doc["services"]
    assert set(services) == {"nginx", "dineri1", "dineri2", "postgres", "redis"}
    assert dineri_services(doc) == ["dineri1", "dineri2"]
    for svc in ("dineri1", "dineri2"):
        assert services[svc]["depends_on"] == {"postgres": {"condition": "service_healthy"},
                                               "redis": {"condition": "service_healthy"}}
    assert services["nginx"]["depends_on"] == {"dineri1": {"condition": "service_healthy"},
                                               "dineri2": {"condition": "service_healthy"}}
    # Every service has a health check, and each asks what the service is.
    checks = {name: " ".join(map(str, svc["healthcheck"]["test"])) for name, svc in services.items()}
    assert "pg_isready" in checks["postgres"] and "redis-cli ping" in checks["redis"]
    assert "http://127.0.0.1/healthz" in checks["nginx"]
    assert health_path(doc, "dineri1") == health_path(doc, "dineri2")


def test_both_processes_share_database_redis_and_secret() -> None:
    services = compose()["services"]
    one, two = (services[s]["environment"] for s in ("dineri1", "dineri2"))
    for key in ("DINERI_DATABASE_URL", "DINERI_REDIS_URL", "DINERI_SECRET_KEY", "DINERI_ALLOWED_HOSTS",
                "DINERI_FORWARDED_ALLOW_IPS"):
        assert one[key] == two[key], key
    assert one["DINERI_DATABASE_URL"].startswith("postgresql+psycopg://")
    assert "@postgres:5432/" in one["DINERI_DATABASE_URL"]
    assert one["DINERI_REDIS_URL"] == "redis://redis:6379/0"
    # nginx's network is the one trusted proxy.
    subnet = compose()["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert one["DINERI_FORWARDED_ALLOW_IPS"] == subnet


def test_every_setting_the_compose_file_names_is_a_dineri_setting() -> None:
    fields = {"DINERI_" + name.upper() for name in Settings.model_fields}
    for svc in ("dineri1", "dineri2"):
        named = set(compose()["services"][svc]["environment"])
        assert named <= fields, named - fields


def test_the_ci_site_runs_the_compose_command_and_settings(tmp_path: Path) -> None:
    doc = compose()
    site = Site(tmp_path)  # not started: only its commands and settings are compared
    for svc in ("dineri1", "dineri2"):
        argv = site.procs[svc].argv
        want = [str(a) for a in doc["services"][svc]["command"]]
        assert Path(argv[0]).name == want[0] == "dineri"
        port = str(site.ports[svc])
        assert argv[1:] == [port if w == "8000" else "127.0.0.1" if w == "0.0.0.0" else w for w in want[1:]]
        settings = site.procs[svc].env
        composed = doc["services"][svc]["environment"]
        assert set(composed) <= set(settings)
        for key, value in composed.items():  # only what differs on this machine is changed
            if key not in {"DINERI_DATABASE_URL", "DINERI_REDIS_URL", "DINERI_SECRET_KEY",
                           "DINERI_ALLOWED_HOSTS", "DINERI_FORWARDED_ALLOW_IPS"}:
                assert settings[key] == str(value), key
    assert site.procs["dineri1"].env["DINERI_SECRET_KEY"] == site.procs["dineri2"].env["DINERI_SECRET_KEY"]


def test_nginx_conf_proxies_to_the_compose_services_and_is_mounted_by_compose() -> None:
    doc = compose()
    conf = NGINX_CONF.read_text(encoding="utf-8")
    servers = re.findall(r"^\s*server\s+([\w.-]+:\d+)", conf, re.M)
    wanted = {f"{svc}:{compose_port(doc, svc)}" for svc in dineri_services(doc)}
    assert set(servers) == wanted and len(servers) == 2 * len(wanted)  # two upstreams, same servers
    nginx = doc["services"]["nginx"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in nginx["volumes"]
    assert nginx["ports"] == ["8080:80"] and "listen 80;" in conf
    # WebSocket upgrade, the table routing, fail-over.
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "hash $dineri_table consistent;" in conf
    assert "proxy_next_upstream error timeout;" in conf


def test_the_image_runs_the_compose_command_from_the_source_tree() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    command = compose()["services"]["dineri1"]["command"]
    assert f"CMD {str(command).replace(chr(39), chr(34))}" in dockerfile
    # db.migrate reads alembic.ini and migrations/ beside the package: an editable install.
    for needed in ("COPY migrations migrations", "alembic.ini", "pip install -e ."):
        assert needed in dockerfile


def test_the_app_serves_the_paths_the_health_checks_ask_for(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'd.db'}", secret_key="k" * 32))
    paths = {r.path for r in app.routes if isinstance(r, APIRoute)}
    doc = compose()
    assert health_path(doc, "dineri1") in paths
    assert "/healthz" in paths  # nginx's check, through to a process


def test_the_rendered_nginx_conf_is_valid_for_debians_nginx(nginx: str, tmp_path: Path) -> None:
    conf = render_nginx(NGINX_CONF.read_text(encoding="utf-8"),
                        {"dineri1:8000": "127.0.0.1:1", "dineri2:8000": "127.0.0.1:2"},
                        "127.0.0.1:3", tmp_path)
    path = tmp_path / "nginx.conf"
    path.write_text(conf, encoding="utf-8")
    out = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(path), "-e", "stderr",
                          "-g", f"pid {tmp_path / 'nginx.pid'};"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert "syntax is ok" in out.stderr
