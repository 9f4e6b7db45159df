/* "Play now" (issue 13 item 5, issue 14 item 4): the one quick-match flow, on the home page and
 * on /play (templates/_play_now.html). The player picks a game and mode of the offered queues
 * (GET /api/quick/queues lists them; the form is rendered from the same list) and its target;
 * POST /api/quick joins the queue, the page polls its ticket every second (each poll also pairs
 * waiting players) and opens the table once seated; after the chosen wait a computer player is
 * offered. A page with a name field (home) saves a typed name first (Dineri.ensureNamed). */
(function () {
  "use strict";
  var D = window.Dineri, A = window.DineriAccounts, _ = D._, fmt = D.fmt;
  var $ = function (id) { return document.getElementById(id); };
  if (!$("play-form") || !A) { return; }
  var timer = null;

  function checked(name) {
    var r = $("play-form").querySelector('input[name="' + name + '"]:checked');
    return r ? r.value : null;
  }
  function chosen() { var s = $("play-queue"); return s.options[s.selectedIndex]; }
  function fail(e) { if (e) { $("play-error").textContent = A.explain(e); } }

  // Each game's own target (Chkobba's points, golf4's rounds; Seven Diamonds' 500 is fixed).
  function target(game) {
    if (game === "golf4") { return parseInt(checked("play_rounds"), 10); }
    if (game === "seven_diamonds") { return 500; }
    return parseInt(checked("target"), 10);
  }
  function showTargets() {
    var q = chosen(), game = q ? q.getAttribute("data-game") : "";
    document.querySelectorAll("#play-form .play-target").forEach(function (f) {
      f.hidden = f.getAttribute("data-game") !== game;
    });
  }
  $("play-queue").addEventListener("change", showTargets);
  showTargets();

  function show(t) {
    if (t.status === "seated") { stop(); window.location.href = "/t/" + encodeURIComponent(t.table); return; }
    var waiting = t.status === "waiting";
    $("waiting").hidden = !waiting;
    $("play-form").hidden = waiting;
    if (!waiting) { stop(); return; }
    $("wait-status").textContent = fmt(_("Looking for players… {n} s"), { n: Math.floor(t.waited) });
    $("take-computer").hidden = !t.bot_offered;
    if (!timer) { timer = window.setInterval(poll, 1000); }
  }
  function stop() { if (timer) { window.clearInterval(timer); timer = null; } }
  function poll() { A.call("GET", "/api/quick").then(show, function (e) { stop(); fail(e); }); }
  // The CSRF token of the cookie-authenticated calls (pages that were not given one ask).
  function csrf() {
    if (D.config.csrf) { return Promise.resolve(D.config.csrf); }
    return A.call("GET", "/api/accounts/csrf").then(function (c) { D.config.csrf = c.csrf; return c.csrf; });
  }
  function named() {
    if (D.ensureNamed) { return D.ensureNamed($("play-error")); }
    return Promise.resolve(null);
  }

  $("play-form").addEventListener("submit", function (e) {
    e.preventDefault();
    $("play-error").textContent = "";
    var q = chosen(), wait = $("bot-after").value;
    var game = q.getAttribute("data-game");
    var body = { game: game, seats: parseInt(q.getAttribute("data-seats"), 10), target: target(game),
                 bot_after: wait ? parseInt(wait, 10) : null };
    named().then(csrf).then(function () { return A.call("POST", "/api/quick", body); }).then(show).catch(fail);
  });
  $("stop-waiting").addEventListener("click", function () {
    A.call("DELETE", "/api/quick").then(function () { show({ status: "none" }); }).catch(fail);
  });
  $("take-computer").addEventListener("click", function () {
    A.call("POST", "/api/quick/computer").then(show).catch(fail);
  });
  // Back on the page while waiting (or seated meanwhile): carry on. No identity yet: nothing.
  var known = true;
  try { known = !$("name-input") || localStorage.getItem("dineri_named") === "1"; } catch (err) { known = true; }
  if (known) { A.call("GET", "/api/quick").then(show, function () { /* no identity yet */ }); }
})();
