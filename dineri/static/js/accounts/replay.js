/* A finished match step by step (issue 14, item 2): the game's replay steps (games v2
 * replay_steps), the state after each accepted action. Each step is said in the page's language
 * as the table page's log says it (the game's module, js/games/<game>.js, words its events; the
 * fresh Arabic trial read the record's English action types, "play", "forfeit"). */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, fmt = D.fmt, el = D.el;
  var $ = function (id) { return document.getElementById(id); };
  var steps = D.config.steps || [], players = D.config.players || [], options = D.config.options || {};
  var game = D.games.get(D.config.game || "chkobba");
  var at = steps.length - 1;
  var RTL = document.documentElement.dir === "rtl";

  // ---- who is who, as the replay page says it to a spectator (js/replay.js) ----------------
  function count() {
    var first = steps[0] && steps[0].state;
    return first && first.hands ? first.hands.length : players.length;
  }
  function iso(text) { return RTL ? "\u2068" + text + "\u2069" : text; }
  function playerName(seat) { return players[seat] ? D.displayName(players[seat]) : fmt(_("Seat {n}"), { n: seat + 1 }); }
  function sideOf(seat) { return game && game.sideOf ? game.sideOf(seat, options) : seat % 2; }
  function partners() {
    var mates = 0;
    for (var i = 0; i < count(); i++) { if (sideOf(i) === sideOf(0)) { mates += 1; } }
    return !!game && (game.teams === undefined || !!game.teams) && mates > 1;
  }
  function sideName(side) {
    var names = [];
    for (var i = 0; i < count(); i++) { if (sideOf(i) === side) { names.push(iso(playerName(i))); } }
    return D.joinAnd(names);
  }
  var seats = [];
  for (var s = 0; s < count(); s++) { seats.push({ seat: s, side: sideOf(s), player: players[s] || null }); }
  var ctx = {
    replay: true, seat: null, me: false, view: null, table: { game: D.config.game, status: "over", options: options, seats: seats },
    $: $, el: el, _: _, fmt: fmt, ngettext: D.ngettext, iso: iso,
    auto: function (ev, text) { return ev.auto ? text + " " + _("(automatic)") : text; },
    playerName: playerName, sideName: sideName, sideOf: sideOf, partners: partners,
    seated: function () { return false; }
  };

  /** The step's lines: each event as the game's module words it (a list of strings). */
  function lines(step) {
    var out = [];
    (step.events || []).forEach(function (ev) {
      var said = game && game.describeEvent ? game.describeEvent(ev, ctx) : undefined;
      if (said === undefined) { said = D.commonEventLine(ev, ctx); }
      out = out.concat(Array.isArray(said) ? said : [said]);
    });
    return out.filter(function (x) { return !!x; });
  }

  function text(v) {
    if (v === null || v === undefined) { return "–"; }
    if (Array.isArray(v)) { return v.map(text).join(Array.isArray(v[0]) ? " | " : " "); }
    if (typeof v === "object") { return JSON.stringify(v); }
    return String(v);
  }
  function show() {
    var step = steps[at];
    if (!step) { $("step-label").textContent = _("This record does not replay."); return; }
    $("step-range").value = String(at);
    ctx.view = step.state;
    $("step-label").textContent = step.action ? fmt(_("Step {i} of {n}"), { i: at, n: steps.length - 1 })
      : _("Before the first action");
    var said = step.action ? lines(step) : [];
    var list = $("step-lines");
    list.textContent = "";
    said.forEach(function (t) { list.appendChild(el("li", { text: t })); });
    var dl = $("step-state");
    while (dl.firstChild) { dl.removeChild(dl.firstChild); }
    Object.keys(step.state || {}).forEach(function (k) {
      dl.appendChild(el("dt", { text: k }));
      dl.appendChild(el("dd", { text: text(step.state[k]) }));
    });
  }
  function go(i) { at = Math.max(0, Math.min(steps.length - 1, i)); show(); }
  $("step-range").max = String(Math.max(steps.length - 1, 0));
  $("step-first").addEventListener("click", function () { go(0); });
  $("step-back").addEventListener("click", function () { go(at - 1); });
  $("step-next").addEventListener("click", function () { go(at + 1); });
  $("step-last").addEventListener("click", function () { go(steps.length - 1); });
  $("step-range").addEventListener("input", function () { go(parseInt($("step-range").value, 10)); });
  show();
})();
