"""Page routes of the browser client (issue 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

PACKAGE_DIR = Path(__file__).resolve().parent.parent
STATIC_DIR = PACKAGE_DIR / "static"
TEMPLATES_DIR = PACKAGE_DIR / "templates"


def mount_web(app: FastAPI, settings: Any = None) -> None:
    """Mount ``/static`` and add the page routes ``/``, ``/t/{table_id}``, ``/join/{code}`` to *app*.

    *settings* is the server's settings object (read with ``getattr``; unknown
    attributes fall back to defaults). Call once per app.
    """
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>Dineri</title><h1>Dineri</h1>")

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>Dineri</title><h1>Table</h1>")

    @app.get("/join/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def join_page(request: Request, code: str) -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>Dineri</title><h1>Join</h1>")
