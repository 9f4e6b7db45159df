"""Accounts over REST (issue 14, items 1, 2, 6): claiming a guest keeps its matches; signing in
on another browser; sign out; password change; deletion; privacy; CSRF; admin moderation."""

from __future__ import annotations

import secrets

import httpx

from tests.accounts.conftest import Site

ADMIN = {"Authorization": "Bearer admin-secret-token-1234"}


def _login(browser: httpx.Client, username: str, password: str) -> httpx.Response:
    return browser.post("/api/accounts/login", json={"username": username, "password": password})


def _name(prefix: str) -> str:
    return prefix + secrets.token_hex(3)


def test_claimed_guest_keeps_its_match_and_signs_in_elsewhere(site: Site) -> None:
    name = _name("Amira")
    amira, other = site.guest("Amira"), site.guest("Youssef")
    table = site.play([amira, other], loser_seat=1)  # played as a guest, won
    home = site.browser()
    home.cookies.set("dineri_token", amira["token"])
    r = home.post("/api/accounts", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201 and r.json()["id"] == amira["id"]
    assert home.get("/api/players/me").json()["name"] == name  # the display name became the username

    elsewhere = site.browser()  # another device: no identity yet
    r = elsewhere.post("/api/accounts/login", json={"username": name, "password": "correct horse"})
    assert r.status_code == 200 and r.json()["id"] == amira["id"]
    assert elsewhere.get("/api/players/me").json()["id"] == amira["id"]
    page = elsewhere.get(f"/api/accounts/{name}").json()
    assert page["self"] is True
    [m] = page["matches"]
    assert m["table"] == table["id"] and m["outcome"] == "won" and m["mode"] == "chkobba-1v1"
    assert [o["name"] for o in m["opponents"]] == ["Youssef"] and m["partners"] == []
    assert page["counts"] == {"chkobba-1v1": {"won": 1, "lost": 0, "played": 1}}
    # the record of the past match downloads for the signed-in player
    rec = elsewhere.get(f"/api/tables/{table['id']}/record")
    assert rec.status_code == 200 and rec.json()["players"][0] == "Amira"

    r = elsewhere.post("/api/accounts/logout")
    assert r.status_code == 200
    assert elsewhere.get("/api/players/me").status_code == 401


def test_2v2_partners_and_opponents(site: Site) -> None:
    players = [site.account(_name(n)) for n in ("Ali", "Bea", "Cyr", "Dou")]
    site.play(players, loser_seat=1)  # side 1 (seats 1, 3) forfeits
    names = [p["name"] for p in players]
    page = site.http.get(f"/api/accounts/{names[0]}").json()
    [m] = page["matches"]
    assert m["outcome"] == "won" and m["mode"] == "chkobba-2v2"
    assert [p["name"] for p in m["partners"]] == [names[2]]
    assert sorted(o["name"] for o in m["opponents"]) == sorted([names[1], names[3]])
    assert site.http.get(f"/api/accounts/{names[1]}").json()["counts"]["chkobba-2v2"]["lost"] == 1


def test_bad_usernames_are_refused(site: Site) -> None:
    p = site.guest("G")
    taken = site.account(_name("Sami"))
    for bad, code in [("ab", "malformed"), ("a b c", "malformed"), ("admin", "reserved"),
                      ("ADMlN", "reserved"), ("pаypal", "confusable"), ("x\u202ey", "malformed"),
                      (taken["name"].upper(), "taken")]:
        r = site.call("POST", "/api/accounts", p, json={"username": bad, "password": "correct horse"})
        assert r.json()["detail"]["code"] == code, (bad, r.text)
    r = site.call("POST", "/api/accounts", p, json={"username": _name("Nour"), "password": "short"})
    assert r.status_code == 422
    body = {"username": _name("Nour"), "password": "correct horse"}
    r = site.call("POST", "/api/accounts", taken, json=body)
    assert r.json()["detail"]["code"] == "already_claimed"


def test_csrf_is_required_for_cookie_requests(site: Site) -> None:
    name = _name("Lina")
    site.account(name)
    b = site.browser()
    b.headers.pop("X-CSRF-Token")
    r = _login(b, name, "correct horse")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "csrf"
    r = b.post("/api/accounts/login", json={"username": name, "password": "correct horse"},
               headers={"X-CSRF-Token": "x" * 32})
    assert r.status_code == 403
    token = b.cookies["dineri_csrf"]
    r = b.post("/api/accounts/login", json={"username": name, "password": "correct horse"},
               headers={"X-CSRF-Token": token, "Origin": "https://evil.example"})
    assert r.status_code == 403
    # its own origin, also as https (TLS ended by a proxy in front)
    for origin in (site.server.base, site.server.base.replace("http://", "https://"), None):
        headers = {"X-CSRF-Token": token, **({"Origin": origin} if origin else {})}
        r = b.post("/api/accounts/login", json={"username": name, "password": "correct horse"},
                   headers=headers)
        assert r.status_code == 200, origin


def test_wrong_password_and_change_password(site: Site) -> None:
    name = _name("Omar")
    p = site.account(name, "first password")
    b = site.browser()
    r = _login(b, name, "wrong password")
    assert r.status_code == 401 and r.json()["detail"]["code"] == "bad_credentials"
    r = b.post("/api/accounts/login", json={"username": _name("nobody"), "password": "wrong password"})
    assert r.status_code == 401
    r = site.call("POST", "/api/accounts/password", p, json={"old": "not it at all", "new": "second pass"})
    assert r.status_code == 401
    r = site.call("POST", "/api/accounts/password", p, json={"old": "first password", "new": "second pass"})
    assert r.status_code == 200
    assert _login(b, name, "first password").status_code == 401
    assert _login(b, name, "second pass").status_code == 200


def test_delete_keeps_the_matches_under_deleted_player(site: Site) -> None:
    name = _name("Rim")
    rim, other = site.account(name), site.account(_name("Zied"))
    site.play([other, rim], loser_seat=1)
    r = site.call("POST", "/api/accounts/delete", rim, json={"password": "wrong one!"})
    assert r.status_code == 401
    r = site.call("POST", "/api/accounts/delete", rim, json={"password": "correct horse"})
    assert r.status_code == 200
    assert site.http.get(f"/api/accounts/{name}").status_code == 404
    page = site.http.get(f"/api/accounts/{other['name']}").json()
    [m] = page["matches"]
    assert [o["name"] for o in m["opponents"]] == ["deleted player"] and m["outcome"] == "won"
    record = site.http.get(f"/api/matches/{m['match']}/record").json()
    assert record["players"] == [other["name"], "deleted player"]  # the name is gone from its record too
    # the name is free again
    again = site.guest("x")
    r = site.call("POST", "/api/accounts", again, json={"username": name, "password": "correct horse"})
    assert r.status_code == 201


def test_hidden_page_is_shown_to_its_owner_only(site: Site) -> None:
    name = _name("Hana")
    p = site.account(name)
    r = site.call("POST", "/api/accounts/privacy", p, json={"hidden": True})
    assert r.json() == {"hidden": True}
    assert site.http.get(f"/api/accounts/{name}").status_code == 404
    assert site.call("GET", f"/api/accounts/{name}", p).json()["hidden"] is True
    site.call("POST", "/api/accounts/privacy", p, json={"hidden": False})
    assert site.http.get(f"/api/accounts/{name}").status_code == 200


def test_private_matches_are_on_the_owners_page_only(site: Site) -> None:
    a, b = site.account(_name("Priv")), site.account(_name("Vee"))
    site.play([a, b], loser_seat=0, public=False)
    assert site.http.get(f"/api/accounts/{a['name']}").json()["matches"] == []
    [m] = site.call("GET", f"/api/accounts/{a['name']}", a).json()["matches"]
    assert m["outcome"] == "lost" and m["public"] is False


def test_admin_renames_and_bans_with_a_reason(site: Site) -> None:
    name = _name("Troll")
    p = site.account(name)
    found = site.http.get("/api/admin/accounts", params={"username": name.lower()}, headers=ADMIN).json()
    pid = found["id"]
    assert pid == p["id"] and found["username"] == name
    assert site.http.get("/api/admin/accounts", params={"username": name}).status_code == 404  # no token
    assert site.http.post(f"/api/admin/accounts/{pid}/ban", json={"reason": "x"}).status_code == 404
    new = _name("Renamed")
    r = site.http.post(f"/api/admin/accounts/{pid}/rename", headers=ADMIN,
                       json={"username": new, "reason": "offensive name"})
    assert r.status_code == 200
    r = site.http.post(f"/api/admin/accounts/{pid}/ban", json={"reason": "abuse in chat"}, headers=ADMIN)
    assert r.status_code == 200
    b = site.browser()
    r = _login(b, new, "correct horse")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "banned"
    info = site.http.get(f"/api/admin/accounts/{pid}", headers=ADMIN).json()
    assert info["banned_reason"] == "abuse in chat"
    assert [(e["action"], e["reason"]) for e in info["log"]] == [("rename", "offensive name"),
                                                                ("ban", "abuse in chat")]
    assert info["log"][0]["detail"] == f"{name} -> {new}"
    site.http.post(f"/api/admin/accounts/{pid}/unban", json={"reason": "appeal"}, headers=ADMIN)
    assert _login(b, new, "correct horse").status_code == 200


def test_mute_a_player(site: Site) -> None:
    a, b = site.guest("A"), site.guest("B")
    r = site.call("POST", "/api/mutes", a, json={"player_id": b["id"]})
    assert r.json() == {"muted": [b["id"]]}
    assert site.call("GET", "/api/mutes", a).json() == {"muted": [b["id"]]}
    assert site.call("POST", "/api/mutes", a, json={"player_id": a["id"]}).status_code == 422
    assert site.call("POST", "/api/mutes", a, json={"player_id": "nobody"}).status_code == 404
    r = site.call("POST", "/api/mutes", a, json={"player_id": b["id"], "muted": False})
    assert r.json() == {"muted": []}


def test_record_and_replay_of_a_private_match_are_for_its_players(site: Site) -> None:
    a, b = site.account(_name("Rec")), site.account(_name("Ord"))
    site.play([a, b], loser_seat=1, public=False)
    [m] = site.call("GET", f"/api/accounts/{a['name']}", a).json()["matches"]
    path = f"/api/matches/{m['match']}/record"
    assert site.http.get(path).status_code == 404
    assert site.call("GET", path, site.guest("Stranger")).status_code == 404
    r = site.call("GET", path, b)
    assert r.status_code == 200 and r.json()["players"] == [a["name"], b["name"]]
    assert "attachment" in r.headers["content-disposition"]
    assert site.http.get(f"/matches/{m['match']}").status_code == 404
    page = site.call("GET", f"/matches/{m['match']}", a)
    assert page.status_code == 200 and a["name"] in page.text


def test_pages_render(site: Site) -> None:
    p = site.account(_name("Page"))
    site.play([p, site.guest("Opp")], loser_seat=0)
    page = site.http.get(f"/p/{p['name']}")
    assert page.status_code == 200 and "Opp" in page.text and 'data-outcome="lost"' in page.text
    assert "dineri_csrf" in page.headers["set-cookie"]
    moved = site.http.get(f"/p/{p['name'].upper()}", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == f"/p/{p['name']}"
    assert site.http.get("/p/nobody-here").status_code == 404
    fr = site.http.get("/ratings?mode=chkobba-2v2", headers={"Accept-Language": "fr"})
    assert fr.status_code == 200 and "Classements" in fr.text
    for path in ("/account", "/play", "/watch"):
        assert site.http.get(path).status_code == 200


def test_guest_names_that_look_official_are_refused(site: Site) -> None:
    for bad, code in (("Admin", "reserved"), ("  MODERATOR ", "reserved"), ("dineri", "reserved"),
                      ("Ѕupport", "confusable"), ("pаypal", "confusable")):
        r = site.http.post("/api/players", json={"name": bad})
        assert r.status_code == 422 and r.json()["detail"]["code"] == code, bad
    assert site.http.post("/api/players", json={"name": "Amira B"}).status_code == 201


def test_admin_page_renames_bans_and_shows_why(site: Site) -> None:
    name = _name("Rude")
    p = site.account(name)
    admin = httpx.Client(base_url=site.server.base, timeout=30)
    try:
        assert admin.get("/admin/accounts", follow_redirects=False).status_code == 303  # not logged in
        r = admin.post("/admin/login", data={"token": "admin-secret-token-1234"}, follow_redirects=False)
        assert r.status_code == 303
        page = admin.get("/admin/accounts", params={"username": name.upper()})
        assert f'data-id="{p["id"]}"' in page.text and "Not banned" in page.text
        new = _name("Polite")
        admin.post(f"/admin/accounts/{p['id']}/rename", data={"username": new, "reason": "rude name"})
        admin.post(f"/admin/accounts/{p['id']}/ban", data={"reason": "spam in chat"})
        page = admin.get("/admin/accounts", params={"username": new}, headers={"Accept-Language": "fr"})
        assert "Banni" in page.text and "spam in chat" in page.text and "rude name" in page.text
        assert f"{name} -&gt; {new}" in page.text
        bad = admin.post(f"/admin/accounts/{p['id']}/unban", data={"reason": ""}, follow_redirects=True)
        assert "reason" in bad.text and site.call("GET", f"/api/accounts/{new}").json()["banned"] is True
        admin.post(f"/admin/accounts/{p['id']}/unban", data={"reason": "appeal accepted"})
        assert site.call("GET", f"/api/accounts/{new}").json()["banned"] is False
    finally:
        admin.close()
