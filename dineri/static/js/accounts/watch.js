/* Games to watch (issue 14, item 5): public matches in progress (game and mode, players, score,
 * watchers), refreshed every 3 seconds. */
(function () {
  "use strict";
  var D = window.Dineri, A = window.DineriAccounts, _ = D._, fmt = D.fmt, el = D.el, ngettext = D.ngettext;
  var $ = function (id) { return document.getElementById(id); };

  // The game and mode of a listed match, in the page's language.
  function gameText(t) {
    if (t.game === "chkobba") {
      return (t.options && t.options.seats === 4) ? _("Chkobba, 2 against 2") : _("Chkobba, 1 against 1");
    }
    return { seven_diamonds: _("Seven Diamonds"), golf4: _("Four-card Golf") }[t.game] || t.game;
  }

  function item(t) {
    var names = t.players.map(function (p) {
      var name = D.fullName(p.name);  // a list of seats: with a computer's level
      return p.rating ? name + " (" + A.ratingText(p) + ")" : name;
    });
    var score = Array.isArray(t.scores) ? t.scores.join(" – ") : "";
    var watching = fmt(ngettext("{n} watching", "{n} watching", t.spectators), { n: t.spectators });
    return el("li", { class: "lobby-table", "data-table": t.table, "data-game": t.game }, [
      el("strong", { class: "game", text: gameText(t) }),
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
