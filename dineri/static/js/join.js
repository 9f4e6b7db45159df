/* Dineri browser client: the invitation page /join/{table}.{code}. One step (issue 13 item 5):
 * a visitor whose display name is known is seated at the first free seat as the page opens and
 * taken to the table; a new visitor types a name and "Take a seat" does the same. A full or
 * started table is not sat at: the page says so and its button opens the table as it is. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, EP = D.config.endpoints, fmt = D.fmt;
  var $ = function (id) { return document.getElementById(id); };
  var parts = (D.config.invite || "").split(".");
  var tablePath = EP.table.replace("{id}", encodeURIComponent(parts[0]));
  var target = "/t/" + encodeURIComponent(parts[0]) + (parts[1] ? "?code=" + encodeURIComponent(parts[1]) : "");
  var me = null, table = null;

  var known = D.whoAmI().then(function (p) { me = p; $("name-input").value = p.name; return p; },
    function () { return null; });

  // Who invites, and to what: the table's host and settings; a wrong link is said at once.
  var loaded = D.api("GET", tablePath + (parts[1] ? "?code=" + encodeURIComponent(parts[1]) : "")).then(function (t) {
    table = t;
    var o = t.options;
    if (t.host) {
      $("invite-from").textContent = fmt(_("{name} invites you to their table."), { name: t.host });
      $("invite-from").hidden = false;
    }
    // The game's own heading and settings (the page's heading says Chkobba until the table is known).
    var game = t.game || "chkobba", parts2;
    if (game === "golf4") {
      $("invite-h").textContent = _("You are invited to a Four-card Golf table");
      parts2 = [fmt(D.ngettext("{n} player", "{n} players", o.seats), { n: o.seats }),
        fmt(D.ngettext("{n} round", "{n} rounds", o.rounds), { n: o.rounds })];
    } else if (game === "seven_diamonds") {
      $("invite-h").textContent = _("You are invited to a Seven Diamonds table");
      parts2 = [_("2 against 2"), fmt(_("game to {n} points"), { n: o.target })];
    } else {
      parts2 = [o.seats === 4 ? _("2 against 2") : _("1 against 1"), fmt(_("game to {n} points"), { n: o.target }),
        o.best_of === 1 ? _("one game") : fmt(_("best of {n} games"), { n: o.best_of })];
    }
    $("invite-options").textContent = parts2.concat([
      t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock"),
      t.public ? _("public") : _("private")
    ]).join(" · ");
    $("invite-options").hidden = false;
    if (t.removed) {
      // The host removed this player: the table refuses it a seat (403 removed), so none is offered.
      $("join-status").textContent = D.explain("removed");
      $("join-name-form").hidden = true;
    } else if (t.status !== "open") {
      $("join-status").textContent = D.explain("not_open");
      $("join-name-form").querySelector("button").textContent = _("Go to the table");
    }
    return t;
  }, function () {
    $("join-status").textContent = _("This invitation is not valid: the table does not exist or the code is wrong.");
    $("join-name-form").querySelector("button").disabled = true;
    return null;
  });

  // A known name and an open table with a free seat (or ours already): seated at once.
  Promise.all([known, loaded]).then(function (r) {
    var p = r[0], t = r[1];
    if (!p || !t || t.status !== "open" || t.removed) { return; }
    var mine = t.seats.some(function (s) { return s.player_id === p.id; });
    var free = t.seats.some(function (s) { return !s.player; });
    if (!mine && !free) { return; }
    $("join-status").textContent = _("Taking a seat…");
    seat().then(go, showFailure);
  });

  function go() { location.href = target; }
  function showFailure(err) {
    $("join-status").textContent = err && err.code === "bad_name"
      ? _("A display name has 1 to 24 characters and no control characters.") : D.explain(err && err.code);
  }

  function seat() {
    // A table already started (or full) is opened as it is: nothing to sit at.
    if (table && table.status !== "open") { return Promise.resolve(); }
    var body = parts[1] ? { code: parts[1] } : {};
    return D.api("POST", tablePath + "/seats", body).catch(function (e) {
      if (e.code === "already_seated" || e.code === "table_full" || e.code === "not_open") { return null; }
      throw e;
    });
  }

  $("join-name-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var name = $("name-input").value.trim();
    var named = me && me.name === name ? Promise.resolve(me) : D.setName(name).catch(function () {
      throw { code: "bad_name" };
    });
    named.then(function (p) { me = p; return seat(); }).then(go).catch(showFailure);
  });
})();
