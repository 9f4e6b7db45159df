/* Dineri browser client: the home page and lobby (issue 4, item 1).
 * Display name (POST /api/players; typing it is enough, the Save button is optional), the
 * live list of open public tables (/ws/lobby), table creation with every host option and game,
 * joining by invitation. "Play now" under the list is js/play-now.js (the quick-match queues). */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, fmt = D.fmt, el = D.el, EP = D.config.endpoints;
  var $ = function (id) { return document.getElementById(id); };
  var me = null;

  function explain(e) {
    return e.status === 422 ? _("A display name has 1 to 24 characters and no control characters.") : D.explain(e.code);
  }

  function showMe() {
    $("name-status").textContent = me ? fmt(_("You play as {name}."), { name: me.name }) : _("Choose a display name to play.");
    if (me) { $("name-input").value = me.name; }
  }
  var asked = D.whoAmI().then(function (p) { me = p; showMe(); }, function () { me = null; showMe(); });

  $("name-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var name = $("name-input").value.trim();
    D.setName(name).then(function (p) { me = p; showMe(); })
      .catch(function (err) { $("name-status").textContent = explain(err); });
  });

  function radio(form, name) { return form.querySelector('input[name="' + name + '"]:checked').value; }

  // One step (issue 13, item 5): a name typed but not saved is saved on the way.
  function named(status) {
    // A press before the page learnt who it is waits for that answer (no name asked twice).
    return asked.then(function () { return namedNow(status); });
  }
  function namedNow(status) {
    var typed = $("name-input").value.trim();
    if (me && (!typed || typed === me.name)) { return Promise.resolve(me); }
    if (!typed) {
      status.textContent = _("Choose a display name first.");
      $("name-input").focus();
      return Promise.reject(null);
    }
    return D.setName(typed).then(function (p) { me = p; showMe(); return p; });
  }
  // "Play now" (js/play-now.js) saves a typed name the same way before it queues.
  D.ensureNamed = named;
  function failed(status) {
    return function (err) { if (err) { status.textContent = explain(err); } };
  }
  /** Open ``href`` (a table, an invitation), saving a typed new name first: there a seat needs
   * the name, and the typed one would be lost on the way (issue 13 item 5). No name: just go. */
  function goNamed(href) {
    asked.then(function () {
      var typed = $("name-input").value.trim();
      return typed && (!me || typed !== me.name) ? namedNow($("name-status")) : null;
    }).then(function () { location.href = href; }, failed($("name-status")));
  }
  function openTable(t) {
    // A private table's address carries its code (docs/protocol.md); a public one needs none.
    var code = t.code && !t.public ? "?code=" + encodeURIComponent(t.code) : "";
    location.href = "/t/" + encodeURIComponent(t.id) + code;
  }
  function createAndSit(body) {
    return D.api("POST", EP.tables, body).then(function (t) {
      var seat = { seat: 0 };
      if (t.code) { seat.code = t.code; }
      return D.api("POST", EP.table.replace("{id}", t.id) + "/seats", seat).then(function () { openTable(t); });
    });
  }

  // The chosen game's options (each game's fieldsets in home.html carry data-game).
  function gameOptions(f, game) {
    if (game === "golf4") {
      return { seats: parseInt(f.querySelector('select[name="golf4_seats"]').value, 10), rounds: parseInt(radio(f, "golf4_rounds"), 10) };
    }
    if (game === "seven_diamonds") { return { seats: 4, target: 500 }; }
    return { seats: parseInt(radio(f, "seats"), 10), target: parseInt(radio(f, "target"), 10), best_of: parseInt(radio(f, "best_of"), 10) };
  }
  function showGameOptions() {
    var game = radio($("create-form"), "game");
    document.querySelectorAll("#create-form .game-options").forEach(function (g) { g.hidden = g.getAttribute("data-game") !== game; });
  }
  document.querySelectorAll('#create-form input[name="game"]').forEach(function (r) { r.addEventListener("change", showGameOptions); });
  showGameOptions();

  $("create-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var f = e.target;
    var game = radio(f, "game");
    var body = {
      game: game,
      options: gameOptions(f, game),
      public: radio(f, "public") === "1",
      clock: parseInt(radio(f, "clock"), 10)
    };
    $("create-status").textContent = "";
    named($("create-status")).then(function () { return createAndSit(body); }).catch(failed($("create-status")));
  });

  // One click (issue 12): a private 1v1 table to 11, the computer seated at the chosen level, started.
  $("computer-form").addEventListener("submit", function (e) {
    e.preventDefault();
    // A name typed but not saved is saved on the way, as for "Create the table" (issue 13 item 5).
    var level = radio(e.target, "level");
    var body = { game: "chkobba", options: { seats: 2, target: 11, best_of: 1 }, public: false, clock: 0 };
    $("computer-status").textContent = "";
    named($("computer-status")).then(function () { return D.api("POST", EP.tables, body); }).then(function (t) {
      var path = EP.table.replace("{id}", t.id), seat = { seat: 0 };
      if (t.code) { seat.code = t.code; }
      return D.api("POST", path + "/seats", seat)
        .then(function () { return D.api("POST", path + "/bots", { seat: 1, level: level }); })
        .then(function () { return D.api("POST", path + "/start", {}); })
        .then(function () {
          location.href = "/t/" + encodeURIComponent(t.id) + (t.code ? "?code=" + encodeURIComponent(t.code) : "");
        });
    }).catch(failed($("computer-status")));
  });

  $("join-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var raw = $("join-input").value.trim();
    var m = raw.match(/\/join\/([A-Za-z0-9_.%-]+)/) || raw.match(/^([A-Za-z0-9_.-]+)$/);
    var t = raw.match(/\/t\/([A-Za-z0-9_-]+)(\?code=([A-Za-z0-9_-]+))?/);
    if (t) { goNamed("/t/" + t[1] + (t[3] ? "?code=" + t[3] : "")); }
    else if (m) { goNamed("/join/" + m[1]); }
    else { $("join-input").setCustomValidity(_("Paste the invitation link you received.")); $("join-input").reportValidity(); }
  });
  $("join-input").addEventListener("input", function () { this.setCustomValidity(""); });

  function optionsText(t) {
    var o = t.options;
    if (t.game === "seven_diamonds") {
      return [
        _("Seven Diamonds"), fmt(_("game to {n} points"), { n: o.target }),
        t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock")
      ].join(" · ");
    }
    if (t.game === "golf4") {
      return [
        _("Four-card Golf"),
        fmt(D.ngettext("{n} player", "{n} players", o.seats), { n: o.seats }),
        fmt(D.ngettext("{n} round", "{n} rounds", o.rounds), { n: o.rounds }),
        t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock")
      ].join(" · ");
    }
    return [
      _("Chkobba"),
      o.seats === 4 ? _("2 against 2") : _("1 against 1"),
      fmt(_("game to {n} points"), { n: o.target }),
      o.best_of === 1 ? _("one game") : fmt(_("best of {n} games"), { n: o.best_of }),
      t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock")
    ].join(" · ");
  }

  function renderLobby(tables) {
    var list = $("lobby");
    list.textContent = "";
    tables.forEach(function (t) {
      var players = t.seats.filter(function (s) { return !!s.player; });
      var names = D.joinList(players.map(function (s) { return D.fullName(s.player); })) || _("nobody yet");
      list.appendChild(el("li", { class: "lobby-table", "data-table": t.id }, [
        el("div", null, [el("strong", { text: optionsText(t) })]),
        el("div", { class: "hint", text: fmt(_("Seated ({k} of {n}): {names}"), { k: players.length, n: t.seats.length, names: names }) }),
        el("a", { class: "button", href: "/t/" + encodeURIComponent(t.id), text: _("Open the table") })
      ]));
    });
    $("lobby-empty").hidden = tables.length > 0;
  }

  $("lobby").addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a.button");
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    e.preventDefault();
    goNamed(a.getAttribute("href"));
  });

  new D.LiveSocket(EP.lobby_ws, {
    onmessage: function (msg) { if (msg.type === "lobby") { renderLobby(msg.tables); } }
  });
})();
