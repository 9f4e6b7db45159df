"""Structured logs: one JSON object per line on standard error."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

# Secrets that travel in URLs: the bearer token (WebSocket query string) and a private table's
# invitation code (``?code=`` and the link ``/join/{table}.{code}``). Never log them.
_TOKEN = re.compile(r"(\b(?:token|code)=|/join/[A-Za-z0-9_-]+\.)[^&\s\"'/?#]+")
_STD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", ...extra}``; extras given with ``extra={...}``."""

    def format(self, record: logging.LogRecord) -> str:
        """One JSON line."""
        doc: dict[str, Any] = {
            "ts": round(record.created, 3),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": _TOKEN.sub(r"\1[redacted]", record.getMessage()),
        }
        for key, value in record.__dict__.items():
            if key not in _STD and not key.startswith("_"):
                doc[key] = value
        if record.exc_info:
            doc["exc"] = self.formatException(record.exc_info)
        return json.dumps(doc, default=str, ensure_ascii=False)


def setup_logging(level: str = "INFO") -> None:
    """Send every log (uvicorn's too) to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
