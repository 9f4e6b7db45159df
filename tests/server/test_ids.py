"""Identifiers made by the store (``dineri.store.repo.new_id``)."""

from __future__ import annotations

import pytest

from dineri.store import repo


def test_an_id_never_begins_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """An id beginning with ``-`` was taken for an option by ``dineri revoke-tokens ID`` (about
    one id in 64): such a draw is thrown away and another drawn."""
    draws = iter(["-ybeVgpVtKOiaqKh", "--beVgpVtKOiaqKh", "ybeVgpVt-OiaqKh_"])
    monkeypatch.setattr(repo.secrets, "token_urlsafe", lambda n: next(draws))
    assert repo.new_id() == "ybeVgpVt-OiaqKh_"


def test_ids_are_url_safe_and_unguessably_long() -> None:
    ids = {repo.new_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(len(i) == 16 and i[0] != "-" and i.replace("-", "").replace("_", "").isalnum() for i in ids)
