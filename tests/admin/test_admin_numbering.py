"""The admin pages number seats and sides from 1, like the player pages ("Seat 1", "side 1")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.admin.test_admin_live import admin, match_of

pytestmark = pytest.mark.timeout(300)


def test_seats_and_sides_are_numbered_from_one(played: dict[str, Any]) -> None:
    m = match_of(played, "forfeit")  # "Forfeiter" (seat 0, side 0) forfeits: side 1 (index 1) wins
    with admin(played) as a:
        detail = a.get(f"/admin/matches/{m['id']}").text
        step = a.get(f"/admin/matches/{m['id']}/replay", params={"step": 1}).text
        listing = a.get("/admin").text
    assert "seat 0" not in detail and "side 0" not in detail
    assert "seat 1" in detail  # the first dealer (index 0) and the forfeiting seat
    # A 1v1's winner (index 1) is its player, not "side 2" (Arabic phone trial).
    assert re.search(r"Winner: <bdi>Stayer</bdi>", detail) and "side 2" not in detail
    assert "seat 0" not in step and "side 0" not in step
    assert "(seat 1)" in step and "(seat 2)" in step
    assert "side 0" not in listing
    # The Players table too: seats from 1 ("Seat 1", never "0"); a 1v1 has no side column.
    rows = re.findall(r"<tr><td>(\d+)</td><td class=\"name\">", detail)
    assert rows[:2] == ["1", "2"]


def test_card_codes_stay_left_to_right_in_arabic(played: dict[str, Any]) -> None:
    m = match_of(played, "bots")
    with admin(played) as a:
        html = a.get(f"/admin/matches/{m['id']}", headers={"Accept-Language": "ar"}).text
    assert 'dir="rtl"' in html
    cards = re.findall(r'<span class="card suit-[DHSC]"[^>]*>', html)
    assert cards and all('dir="ltr"' in c for c in cards)
