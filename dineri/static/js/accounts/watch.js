/* Games to watch (issue 14, item 5): public matches in progress, refreshed every 3 seconds. */
(function () {
  "use strict";
  var D = window.Dineri, A = window.DineriAccounts, _ = D._, fmt = D.fmt, el = D.el, ngettext = D.ngettext;
  var $ = function (id) { return document.getElementById(id); };

  function item(t) {
    var names = t.players.map(function (p) {
      return p.rating ? p.name + " (" + A.ratingText(p) + ")" : p.name;
    });
    var score = Array.isArray(t.scores) ? t.scores.join(" – ") : "";
    var watching = fmt(ngettext("{n} watching", "{n} watching", t.spectators), { n: t.spectators });
    return el("li", { class: "lobby-table", "data-table": t.table }, [
      el("a", { href: "/t/" + encodeURIComponent(t.table), text: D.joinList ? D.joinList(names) : names.join(", ") }),
      el("span", { class: "score", text: score ? fmt(_("Score {score}"), { score: score }) : "" }),
      el("span", { class: "spectators", text: watching })
    ]);
  }
  function refresh() {
    A.call("GET", "/api/watch").then(function (r) {
      var list = $("live");
      while (list.firstChild) { list.removeChild(list.firstChild); }
      r.tables.forEach(function (t) { list.appendChild(item(t)); });
      $("live-empty").hidden = r.tables.length > 0;
    }, function () { /* offline: try again next time */ });
  }
  refresh();
  window.setInterval(refresh, 3000);
})();
