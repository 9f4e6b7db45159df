/* Dineri browser client: the visual replay (issue 13, item 6; docs/web.md).
 * A player opens a record file (an admin a stored match, ?match=<id>; a finished match of the
 * player pages, ?played=<id>); POST /api/replay answers
 * the game's own replay steps, and the game's page module draws each step as the table page
 * does, every hand face up. Step with the buttons or the keys (arrows mirrored in right-to-left
 * pages), jump to a round, look from any seat. The page never applies a rule itself. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, fmt = D.fmt, el = D.el, cfg = D.config;
  var $ = function (id) { return document.getElementById(id); };
  var RTL = document.documentElement.dir === "rtl";
  var R = { data: null, game: null, views: [], at: 0, persp: 0 };

  function showError(text) { $("replay-error").textContent = text || ""; }

  // Errors of POST /api/replay and of reading the file, in the page's language.
  function explain(e) {
    if (e && e.code === "too_large") { return _("That file is too large to be a match record."); }
    if (e && (e.code === "malformed" || e.code === "not_json")) { return _("That file is not a Dineri match record."); }
    if (e && e.code === "no_game") { return _("This page cannot show records of that game."); }
    if (e && (e.status === 401 || e.status === 403)) { return _("Log in to the admin pages first."); }
    return D.explain(e && e.code);
  }

  function post(text) {
    return fetch(cfg.replay, { method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: text, credentials: "same-origin" }).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (body) {
        if (!r.ok) {
          var d = body && body.detail;
          throw { status: r.status, code: (d && d.code) || (r.status === 422 ? "malformed" : "http_" + r.status) };
        }
        return body;
      });
    });
  }

  // ---- names and sides, as the table page says them to a spectator ---------------------------
  function n() { return R.data.steps[0].state.hands.length; }
  function playerName(seat) {
    var p = R.data.players && R.data.players[seat];
    return p ? D.displayName(p) : fmt(_("Seat {n}"), { n: seat + 1 });
  }
  function sideOf(seat) { return R.game.sideOf ? R.game.sideOf(seat, R.data.options) : seat % 2; }
  function sideName(side) {
    var names = [];
    for (var i = 0; i < n(); i++) { if (sideOf(i) === side) { names.push(iso(playerName(i))); } }
    return D.joinAnd(names);  // "Amel and Chaima" in the page's language
  }
  /** Whether a side is more than its one player (2v2), as table-shell.js's partners(). */
  function partners() {
    var mates = 0;
    for (var i = 0; i < n(); i++) { if (sideOf(i) === sideOf(0)) { mates += 1; } }
    return (R.game.teams === undefined ? true : !!R.game.teams) && mates > 1;
  }
  function iso(text) { return RTL ? "\u2068" + text + "\u2069" : text; }

  function openDialog(title, body, closeLabel) {  // as the table page's (table-shell.js)
    $("summary-h").textContent = title;
    $("summary-close").textContent = closeLabel || _("Continue");
    $("summary-body").textContent = "";
    $("summary-body").appendChild(body);
    if (!$("summary").open) { $("summary").showModal(); }
  }
  $("summary-close").addEventListener("click", function () { $("summary").close(); });

  var ctx = {
    replay: true, seat: null, me: false, table: null, view: null,
    $: $, el: el, _: _, fmt: fmt, ngettext: D.ngettext, iso: iso,
    auto: function (ev, text) { return ev.auto ? text + " " + _("(automatic)") : text; },
    playerName: playerName, sideName: sideName, sideOf: sideOf, partners: partners, seated: function () { return false; },
    send: function () { return false; }, say: function () {}, showError: function () {}, log: function () {},
    render: function () { show(false); }, openDialog: openDialog,
    dialogOpen: function () { return $("summary").open; }, dialogBody: function () { return $("summary-body"); },
    matchOver: function () {}, sound: function () { return false; }, dataset: document.body.dataset
  };

  // ---- drawing one step ----------------------------------------------------------------------
  function toAct(v) {
    if (v.phase === "over") { return []; }
    if (R.game.toAct) { return R.game.toAct(v); }
    return v.turn === null || v.turn === undefined ? [] : [v.turn];
  }
  // The same physical picture as the table page: the seat you look from at the bottom, the next
  // player on its right (R4), never mirrored by the page's direction.
  function position(r) {
    if (r === 0) { return "bottom"; }
    if (n() === 2) { return "top"; }
    if (r === 1) { return "right"; }
    if (r === n() - 1) { return "left"; }
    return "top";
  }
  function seatBox(seat, v) {
    var r = (seat - R.persp + n()) % n();
    var acting = toAct(v).indexOf(seat) >= 0;
    // A side tag only where a side is more than its one player (2v2): in a 1v1 the name says it
    // all («الفريق 1» under each player's name read as teams: Arabic phone trial).
    var teams = (R.game.teams === undefined ? true : !!R.game.teams) && n() > 2;
    var head = el("div", { class: "seat-head" }, [
      D.seatName((R.data.players && R.data.players[seat]) || playerName(seat)),
      teams ? el("span", { class: "side-tag side-" + sideOf(seat), text: fmt(_("side {n}"), { n: sideOf(seat) + 1 }) }) : null,
      v.dealer === seat ? el("span", { class: "badge dealer", text: _("Dealer") }) : null,
      acting ? el("span", { class: "badge turn", text: _("To play") }) : null
    ]);
    var box = el("div", { class: "seat pos-" + position(r) + (acting ? " on-turn" : ""), "data-seat": seat }, [head]);
    box.style.order = String(n() - r);  // CSSOM, not a style attribute: admin pages forbid inline styles
    var extra = R.game.seatContent ? R.game.seatContent(seat, v, ctx) : null;
    if (extra) { box.appendChild(extra); }
    return box;
  }

  function lines(ev) {
    var out = R.game.describeEvent ? R.game.describeEvent(ev, ctx) : undefined;
    if (out === undefined) { out = D.commonEventLine(ev, ctx); }
    return (Array.isArray(out) ? out : [out]).filter(function (x) { return !!x; });
  }

  function show(animate) {
    var v = R.views[R.at], step = R.data.steps[R.at];
    var motion = animate ? new D.Motion($("board")) : null;
    ctx.view = v;
    var opp = $("opponents"), me = $("me");
    opp.textContent = ""; me.textContent = "";
    for (var s = 0; s < n(); s++) { (s === R.persp ? me : opp).appendChild(seatBox(s, v)); }
    R.game.render(v, ctx);
    var log = $("step-log");
    log.textContent = "";
    var said = [];
    step.events.forEach(function (ev) { said = said.concat(lines(ev)); });
    if (!said.length) { said = [R.at === 0 ? _("Before the first action.") : ""]; }
    said.forEach(function (t) { if (t) { log.appendChild(el("li", { text: t })); } });
    $("position").textContent = fmt(_("Step {i} of {n}"), { i: R.at, n: R.views.length - 1 });
    $("first").disabled = $("prev").disabled = R.at === 0;
    $("next").disabled = $("last").disabled = R.at === R.views.length - 1;
    var rounds = $("round-jump");
    for (var k = rounds.options.length - 1; k >= 0; k--) {
      // The round the step belongs to (from its first step on, though a jump lands on its deal).
      if (Number(rounds.options[k].getAttribute("data-from")) <= R.at) { rounds.selectedIndex = k; break; }
    }
    var ds = document.body.dataset;
    ds.step = String(R.at); ds.phase = v.phase; ds.turn = toAct(v).join(",");
    if (motion && R.game.animate) {
      step.events.forEach(function (ev) { R.game.animate(ev, ctx, motion); });
    }
  }

  function go(i) {
    i = Math.max(0, Math.min(R.views.length - 1, i));
    var forward = i === R.at + 1;
    R.at = i;
    show(forward);
  }

  // ---- opening a record ----------------------------------------------------------------------
  function start(data) {
    var game = D.games.get(data.game);
    if (!game || !game.replayViews) { throw { code: "no_game" }; }
    R.data = data; R.game = game; R.views = game.replayViews(data); R.at = 0; R.persp = 0;
    // The table as a module sees it on the table page: options and seats (no one of them is "you").
    var count = data.steps[0].state.hands.length;
    ctx.table = { game: data.game, status: "over", options: data.options, seats: [] };
    for (var i = 0; i < count; i++) {
      ctx.table.seats.push({ seat: i, side: sideOf(i), player: data.players ? data.players[i] : null });
    }
    var board = $("game-board"), tpl = $("board-" + data.game);
    board.textContent = "";
    if (tpl) { board.appendChild(tpl.content.cloneNode(true)); }
    document.body.dataset.game = data.game;
    $("replay-h").textContent = data.players ? data.players.map(D.displayName).join(" · ") : _("Replay");
    var res = data.result;
    $("replay-info").textContent = res && !res.ok ? fmt(_("The record stops at action {i}: it was refused ({code})."),
      { i: res.error.index + 1, code: res.error.code }) : "";
    var rounds = $("round-jump");
    rounds.textContent = "";
    (game.replayRounds ? game.replayRounds(R.views) : []).forEach(function (r) {
      rounds.appendChild(el("option", { value: r.step, "data-from": r.from === undefined ? r.step : r.from, text: r.label }));
    });
    rounds.parentNode.hidden = !rounds.options.length;
    var seats = $("seat-view");
    seats.textContent = "";
    for (var s = 0; s < n(); s++) { seats.appendChild(el("option", { value: s, text: playerName(s) })); }
    $("viewer").hidden = false;
    $("open").classList.add("loaded");
    show(false);
    $("next").focus();
  }

  // A file refused after another was opened: the previous match goes, so that the error is not
  // read as being about the replay still under it (fresh trial: the old replay stayed on screen).
  function clear() {
    R.data = null; R.views = []; R.at = 0;
    $("viewer").hidden = true;
    $("open").classList.remove("loaded");
    ["game-board", "step-log", "scorebar", "opponents", "me"].forEach(function (id) { $(id).textContent = ""; });
    delete document.body.dataset.step; delete document.body.dataset.game;
  }
  function refuse(message) { clear(); showError(message); }

  function open(text) {
    showError("");
    return post(text).then(start).catch(function (e) { refuse(explain(e)); });
  }

  $("record-file").addEventListener("change", function () {
    var file = this.files && this.files[0];
    if (!file) { return; }
    $("record-name").textContent = file.name;
    if (file.size > 512 * 1024) { refuse(explain({ code: "too_large" })); return; }
    var reader = new FileReader();
    reader.onload = function () { open(String(reader.result)); };
    reader.onerror = function () { refuse(explain({ code: "malformed" })); };
    reader.readAsText(file);
  });

  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(R.at - 1); });
  $("next").addEventListener("click", function () { go(R.at + 1); });
  $("last").addEventListener("click", function () { go(R.views.length - 1); });
  $("round-jump").addEventListener("change", function () { go(Number(this.value)); });
  $("seat-view").addEventListener("change", function () { R.persp = Number(this.value); show(false); });
  $("deck-style").value = D.deckStyle();
  $("deck-style").addEventListener("change", function () { D.setDeckStyle(this.value); if (R.data) { show(false); } });

  // Keys: the arrow pointing the way of reading steps forward (left in Arabic), Home and End.
  document.addEventListener("keydown", function (e) {
    if (!R.data || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var keys = { ArrowRight: RTL ? -1 : 1, ArrowLeft: RTL ? 1 : -1 };
    if (keys[e.key]) { e.preventDefault(); go(R.at + keys[e.key]); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(R.views.length - 1); }
  });

  // A stored match: an admin's from the admin API (the admin's own cookie), a player's finished
  // match from the player pages' record route.
  var stored = cfg.match ? "/admin/api/matches/" + encodeURIComponent(cfg.match) + "/record"
    : cfg.played ? "/api/matches/" + encodeURIComponent(cfg.played) + "/record" : null;
  if (stored) {
    $("open").hidden = true;
    fetch(stored, { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) { throw { status: r.status, code: "http_" + r.status }; }
        return r.text();
      })
      .then(open)
      .catch(function (e) { $("open").hidden = false; showError(explain(e)); });
  }
})();
