"""Structured logs: one JSON object per line on standard error."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any
from urllib.parse import unquote, unquote_plus

# Secrets that travel in URLs: the bearer token (WebSocket query string) and a private table's
# invitation code (``?code=`` and the link ``/join/{table}.{code}``). Never log them.
_TOKEN = re.compile(r"(\b(?:token|code)=|/join/[A-Za-z0-9_-]+\.)[^&\s\"'/?#]+")
# The server decodes names and paths before routing, so ``?%63ode=`` is ``?code=`` and
# ``/%6Aoin/t%2Ec`` is ``/join/t.c``: match them decoded too.
_PAIR = re.compile(r"([?&;])([^=&\s\"'#]+)=([^&\s\"'#]*)")
_PATH = re.compile(r"/[^\s\"'?#]*")
_JOIN = re.compile(r"(/join/[^/.\s]+\.)[^/\s]+")
SECRET_NAMES = frozenset({"token", "code"})
_STD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def _pair(m: re.Match[str]) -> str:
    if unquote_plus(m.group(2)).strip().lower() in SECRET_NAMES:
        return f"{m.group(1)}{m.group(2)}=[redacted]"
    return m.group(0)


def _path(m: re.Match[str]) -> str:
    decoded = unquote(m.group(0))
    return _JOIN.sub(r"\1[redacted]", decoded) if _JOIN.search(decoded) else m.group(0)


def redact(text: str) -> str:
    """``text`` without tokens and invitation codes (``token=``/``code=`` values, also with
    percent-encoded names, and the code of an invitation path ``/join/{table}.{code}``)."""
    return _TOKEN.sub(r"\1[redacted]", _PATH.sub(_path, _PAIR.sub(_pair, text)))



class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", ...extra}``; extras given with ``extra={...}``."""

    def format(self, record: logging.LogRecord) -> str:
        """One JSON line."""
        doc: dict[str, Any] = {
            "ts": round(record.created, 3),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
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
