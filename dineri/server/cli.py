"""``dineri serve [--host] [--port]`` and ``dineri schema`` (added to the ``dineri`` command)."""

from __future__ import annotations

import argparse
from typing import Any


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server on uvicorn with settings from ``DINERI_*``; logs are JSON lines."""
    from dineri.server import gcpause

    gcpause.hold()  # no collection while start-up builds what lives on; the lifespan turns it on
    import uvicorn

    from dineri.server.app import create_app
    from dineri.server.edge import WS_MAX_SIZE, Edge, protocols
    from dineri.server.logs import setup_logging
    from dineri.settings import Settings

    settings = Settings()
    if settings.node is None:  # a node restarted on its port takes its table leases back at once
        import socket

        settings = settings.model_copy(update={"node": f"{socket.gethostname()}:{args.port}"})
    setup_logging(settings.log_level)
    app = create_app(settings)
    # The socket edge (issue 7 item 4): request heads time out, connections are capped per address.
    edge = Edge(settings.connections_per_address, settings.forwarded_allow_ips, settings.request_timeout)
    http, ws = protocols(edge)
    # proxy_headers=False: the app applies X-Forwarded-* itself, only from DINERI_FORWARDED_ALLOW_IPS.
    # ws_max_size: frames up to WS_MAX_SIZE reach the app, which answers those above
    # DINERI_MAX_MESSAGE_BYTES with too_large before closing 1009 (issue 7 item 8).
    uvicorn.run(app, host=args.host, port=args.port, log_config=None, proxy_headers=False, http=http, ws=ws,
                ws_max_size=max(WS_MAX_SIZE, settings.max_message_bytes * 4), timeout_graceful_shutdown=5,
                # Compression keeps zlib state per socket (about 40 KiB, issue 7 item 4) and costs CPU
                # per frame; update frames are small.
                ws_per_message_deflate=settings.ws_deflate)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    """Write the JSON Schemas of every protocol message to ``--out`` (default ``docs/schemas``)."""
    from dineri.server.schemas import write_schemas

    written = write_schemas(args.out)
    print(f"wrote {len(written)} schemas to {args.out}")
    return 0


def add_commands(sub: Any) -> None:
    """Add ``serve`` and ``schema`` to the ``dineri`` subcommands."""
    s = sub.add_parser("serve", help="run the Dineri server (FastAPI on uvicorn)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.set_defaults(func=cmd_serve)
    sc = sub.add_parser("schema", help="write the protocol's JSON Schemas (docs/schemas)")
    sc.add_argument("--out", default="docs/schemas", help="output folder")
    sc.set_defaults(func=cmd_schema)
    from dineri.server.tokens_cli import add_command as add_revoke

    add_revoke(sub)
