"""The browser client (issue 4): page routes, templates and static files.

:func:`mount_web` is called by the server's ``create_app``; it mounts ``/static``
and adds the pages: the home/lobby ``/``, the table ``/t/{table_id}``, the
invitation ``/join/{table_id}.{code}`` and the language switch ``/lang/{code}``.
Templates live in ``dineri/templates``, static files in ``dineri/static``, the
catalogues in ``dineri/translations``; all ship with the package.
"""

from __future__ import annotations

from dineri.web.pages import mount_web

__all__ = ["mount_web"]

