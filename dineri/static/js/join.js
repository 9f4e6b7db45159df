/* Dineri browser client: the invitation page /join/{table}.{code}. Asks for a display
 * name when the visitor has none, then opens the table with the invitation code. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, EP = D.config.endpoints;
  var $ = function (id) { return document.getElementById(id); };
  var parts = (D.config.invite || "").split(".");
  var target = "/t/" + encodeURIComponent(parts[0]) + (parts[1] ? "?code=" + encodeURIComponent(parts[1]) : "");

  D.whoAmI().then(function (me) { $("name-input").value = me.name; }, function () {});
  $("join-name-form").addEventListener("submit", function (e) {
    e.preventDefault();
    D.setName($("name-input").value.trim())
      .then(function () { location.href = target; })
      .catch(function () { $("join-status").textContent = _("A display name has 1 to 24 characters and no control characters."); });
  });
})();
