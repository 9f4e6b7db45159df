/* The table page's account extras (issue 14): ratings beside the names, whether the match is
 * rated (the host, an account, may mark an open table rated), how many watch, and muting a
 * player's chat lines (the shell asks Dineri.chatMuted(event) before logging a chat line). */
(function () {
  "use strict";
  var D = window.Dineri, A = window.DineriAccounts, _ = D._, fmt = D.fmt, el = D.el, ngettext = D.ngettext;
  var id = D.config.table_id;
  if (!id || !A) { return; }
  var table = null, rated = null, me = null, muted = {};
  var code = new URLSearchParams(window.location.search).get("code");

  var bar = el("div", { id: "table-extras", class: "row hint" }, [
    el("span", { id: "watchers", "aria-live": "polite" }),
    el("span", { id: "rated-badge" }),
    el("label", { id: "rated-toggle", hidden: true }, [el("input", { type: "checkbox", id: "rated-input" }),
      document.createTextNode(" " + _("Rated match (accounts only)"))]),
  ]);
  var main = document.getElementById("main");
  if (main) { main.insertBefore(bar, main.firstChild); }
  // Muting is about chat lines: the buttons sit under the chat, not above the table.
  var muteBox = el("div", { id: "mute-list", class: "row mute-list" });
  var chat = document.getElementById("chat-form");
  if (chat) { chat.parentNode.insertBefore(muteBox, chat.nextSibling); } else { bar.appendChild(muteBox); }

  D.chatMuted = function (ev) {
    var s = table && table.seats && table.seats[ev.seat];
    return !!(s && s.player_id && muted[s.player_id]);
  };

  function decorate() {
    if (!rated) { return; }
    var byName = {};
    Object.keys(rated.seats || {}).forEach(function (seat) { byName[rated.seats[seat].username] = rated.seats[seat]; });
    document.querySelectorAll(".seat-name").forEach(function (node) {
      var r = byName[node.textContent];
      var next = node.nextSibling;
      var badge = next && next.classList && next.classList.contains("seat-rating") ? next : null;
      if (!r) { if (badge) { badge.remove(); } return; }
      var text = " (" + A.ratingText(r) + ")";
      if (!badge) { badge = el("span", { class: "seat-rating" }); node.parentNode.insertBefore(badge, node.nextSibling); }
      if (badge.textContent !== text) { badge.textContent = text; }
    });
  }

  function muteButtons() {
    var box = document.getElementById("mute-list");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    if (!me || !table) { return; }
    table.seats.forEach(function (s) {
      // Computer players never chat: nothing to mute.
      if (!s.player_id || s.player_id === me.id || D.isComputerName(s.player)) { return; }
      var on = !!muted[s.player_id];
      var b = el("button", { type: "button", class: "mute", "data-player": s.player_id,
        text: fmt(on ? _("Unmute {name}") : _("Mute {name}"), { name: D.displayName(s.player) }) });
      b.addEventListener("click", function () {
        A.call("POST", "/api/mutes", { player_id: s.player_id, muted: !on }).then(function (r) {
          muted = {}; r.muted.forEach(function (p) { muted[p] = true; }); muteButtons();
        });
      });
      box.appendChild(b);
    });
  }

  // Only public tables have watcher counts and ratings here (private ones answer 404, which the
  // browser would log as an error).
  function refresh() {
    A.call("GET", "/api/tables/" + encodeURIComponent(id) + (code ? "?code=" + encodeURIComponent(code) : ""))
      .then(function (t) {
        table = t;
        if (!t.public) { muteButtons(); return null; }
        A.call("GET", "/api/tables/" + encodeURIComponent(id) + "/watchers").then(function (w) {
          // Nobody watching says nothing (no "0 watching" above the table).
          document.getElementById("watchers").textContent = !w.spectators ? "" :
            fmt(ngettext("{n} watching", "{n} watching", w.spectators), { n: w.spectators });
        }, function () { /* gone */ });
        return A.call("GET", "/api/tables/" + encodeURIComponent(id) + "/rated").then(function (r) {
          rated = r;
          document.getElementById("rated-badge").textContent = r.rated ? _("Rated match") : "";
          var host = me && me.username && t.host_id === me.id && t.status === "open";
          document.getElementById("rated-toggle").hidden = !host;
          document.getElementById("rated-input").checked = !!r.rated;
          decorate(); muteButtons();
        });
      })
      .catch(function () { /* no such table: the shell says so */ });
  }

  document.getElementById("rated-input").addEventListener("change", function (e) {
    A.call("POST", "/api/tables/" + encodeURIComponent(id) + "/rated", { rated: e.target.checked }).then(refresh);
  });
  new MutationObserver(decorate).observe(document.body, { childList: true, subtree: true });

  var named = false;
  try { named = localStorage.getItem("dineri_named") === "1"; } catch (e) { named = false; }
  A.call("GET", "/api/accounts/csrf").then(function (c) { D.config.csrf = c.csrf; });
  if (named) {
    A.call("GET", "/api/accounts/me").then(function (m) {
      me = m;
      return A.call("GET", "/api/mutes");
    }).then(function (r) { r.muted.forEach(function (p) { muted[p] = true; }); refresh(); }, refresh);
  } else {
    refresh();
  }
  window.setInterval(refresh, 5000);
})();
