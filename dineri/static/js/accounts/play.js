/* Quick match (issue 14, item 4): "Play now" joins the queue, the page polls its ticket every
 * second (each poll also pairs) and opens the table once seated. */
(function () {
  "use strict";
  var D = window.Dineri, A = window.DineriAccounts, _ = D._, fmt = D.fmt;
  var $ = function (id) { return document.getElementById(id); };
  var timer = null;

  function radio(name) { return document.querySelector('input[name="' + name + '"]:checked').value; }
  function fail(e) { $("play-error").textContent = A.explain(e); }

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

  $("play-form").addEventListener("submit", function (e) {
    e.preventDefault();
    $("play-error").textContent = "";
    var wait = radio("bot_after");
    var body = { game: "chkobba", seats: parseInt(radio("seats"), 10), target: parseInt(radio("target"), 10),
                 bot_after: wait ? parseInt(wait, 10) : null };
    A.call("POST", "/api/quick", body).then(show).catch(fail);
  });
  $("stop-waiting").addEventListener("click", function () {
    A.call("DELETE", "/api/quick").then(function () { show({ status: "none" }); }).catch(fail);
  });
  $("take-computer").addEventListener("click", function () {
    A.call("POST", "/api/quick/computer").then(show).catch(fail);
  });
  A.call("GET", "/api/quick").then(show, function () { /* no identity yet: the form explains on submit */ });
})();
