/* Dineri browser client: the invitation page /join/{table}.{code}. Asks for a display
 * name when the visitor has none, then opens the table with the invitation code. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, EP = D.config.endpoints;
  var $ = function (id) { return document.getElementById(id); };
  var parts = (D.config.invite || "").split(".");
  var target = "/t/" + encodeURIComponent(parts[0]) + (parts[1] ? "?code=" + encodeURIComponent(parts[1]) : "");

  D.whoAmI().then(function (me) { $("name-input").value = me.name; }, function () {});

  // Who invites, and to what: the table's host and settings; a wrong link is said at once.
  var fmt = D.fmt;
  D.api("GET", EP.table.replace("{id}", encodeURIComponent(parts[0])) +
        (parts[1] ? "?code=" + encodeURIComponent(parts[1]) : "")).then(function (t) {
    var o = t.options;
    if (t.host) {
      $("invite-from").textContent = fmt(_("{name} invites you to their table."), { name: t.host });
      $("invite-from").hidden = false;
    }
    $("invite-options").textContent = [
      o.seats === 4 ? _("2 against 2") : _("1 against 1"),
      fmt(_("game to {n} points"), { n: o.target }),
      o.best_of === 1 ? _("one game") : fmt(_("best of {n} games"), { n: o.best_of }),
      t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock"),
      t.public ? _("public") : _("private")
    ].join(" · ");
    $("invite-options").hidden = false;
    if (t.status !== "open") { $("join-status").textContent = D.explain("not_open"); }
  }, function () {
    $("join-status").textContent = _("This invitation is not valid: the table does not exist or the code is wrong.");
    $("join-name-form").querySelector("button").disabled = true;
  });
  $("join-name-form").addEventListener("submit", function (e) {
    e.preventDefault();
    D.setName($("name-input").value.trim())
      .then(function () { location.href = target; })
      .catch(function () { $("join-status").textContent = _("A display name has 1 to 24 characters and no control characters."); });
  });
})();
