"""Fresh new-user trial (phone, Arabic): a move tried while the connection was down left the red
«غير متصل. أعد المحاولة عند عودة الاتصال.» ("Not connected. Try again when the connection is
back.") under the buttons after the page had reconnected, until the next move. The error that only
said "not connected" goes when the socket is back; any other error stays."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.tables import open_table, player, started

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# Drop every socket of the page and keep them down (each retry is put off) until RESTORE.
DROP = """Dineri.sockets.forEach(function (s) {
    s._connect = s.connect; s.connect = function () { this.retry(); }; s.ws.close(); })"""
RESTORE = "Dineri.sockets.forEach(function (s) { s.connect = s._connect; })"
UP = "Dineri.sockets.every(function (s) { return s.connected; })"


def test_the_not_connected_error_goes_when_the_socket_is_back(browser: Any, server: str,
                                                              console: Any) -> None:
    """A cut (R8) tried while offline says "not connected"; once reconnected the error is gone."""
    amel, bilel = player(browser, server, "Amel", lang="ar"), player(browser, server, "Bilel", lang="ar")
    table_id = started([amel, bilel])
    pages = [open_table(amel, console, table_id), open_table(bilel, console, table_id)]
    cutter = pages[int(pages[0].evaluate("document.body.dataset.turn"))]
    cutter.evaluate(DROP)
    cutter.wait_for_function(f"!({UP})")
    cutter.fill("#cut-at", "5")
    cutter.click("#cut-btn")
    error = cutter.locator("#error")
    assert error.inner_text() == "غير متصل. أعد المحاولة عند عودة الاتصال."
    cutter.evaluate(RESTORE)
    cutter.wait_for_function(UP, timeout=30000)
    cutter.wait_for_function("document.getElementById('error').textContent === ''", timeout=5000)
    # Back online, the cut goes through as usual.
    cutter.click("#cut-btn")
    cutter.wait_for_function("document.body.dataset.phase === 'cut_choice'")
    for ctx in (amel, bilel):
        ctx.close()
    assert console.errors == []
