/* A finished match step by step (issue 14, item 2): the game's replay steps (games v2
 * replay_steps), the state after each accepted action. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, fmt = D.fmt, el = D.el;
  var $ = function (id) { return document.getElementById(id); };
  var steps = D.config.steps || [], players = D.config.players || [];
  var at = steps.length - 1;

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
    var a = step.action;
    $("step-label").textContent = a ? fmt(_("Step {n} of {total}: {name}, {action}"),
      { n: at, total: steps.length - 1, name: D.displayName(players[a.seat] || ""), action: a.type }) : _("Before the first action");
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
