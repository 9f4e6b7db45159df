/* The account page (issue 14, item 1): claim the guest, sign in and out, password, privacy,
 * deletion. */
(function () {
  "use strict";
  var D = window.Dineri, A = window.DineriAccounts, _ = D._, fmt = D.fmt;
  var $ = function (id) { return document.getElementById(id); };

  function fail(e) { $("acc-error").textContent = A.explain(e); }
  function ok(text) { $("acc-error").textContent = ""; $("acc-status").textContent = text; }

  function show(me) {
    var account = me && me.username;
    $("signed-in").hidden = !account;
    $("claim").hidden = !me || !!account;
    $("login").hidden = !!account;
    if (account) {
      $("my-page").href = "/p/" + encodeURIComponent(me.username);
      $("hidden-input").checked = !!me.hidden;
      ok(fmt(_("Signed in as {name}."), { name: me.username }));
    } else if (me) {
      ok(fmt(_("You play as the guest {name}."), { name: me.name }));
      if (!$("claim-username").value) { $("claim-username").value = me.name; }
    } else {
      ok(_("You have no name here yet: sign in, or choose a display name on the home page."));
    }
  }
  function load() {
    return A.call("GET", "/api/accounts/me").then(show, function () { show(null); });
  }
  load();

  $("claim-form").addEventListener("submit", function (e) {
    e.preventDefault();
    A.call("POST", "/api/accounts", { username: $("claim-username").value.trim(), password: $("claim-password").value })
      .then(function () { $("claim-password").value = ""; A.remember(true); return load(); }).catch(fail);
  });
  $("login-form").addEventListener("submit", function (e) {
    e.preventDefault();
    A.call("POST", "/api/accounts/login", { username: $("login-username").value.trim(), password: $("login-password").value })
      .then(function () { $("login-password").value = ""; A.remember(true); return load(); }).catch(fail);
  });
  $("logout-form").addEventListener("submit", function (e) {
    e.preventDefault();
    A.call("POST", "/api/accounts/logout").then(function () { A.remember(false); return load(); }).catch(fail);
  });
  $("password-form").addEventListener("submit", function (e) {
    e.preventDefault();
    A.call("POST", "/api/accounts/password", { old: $("old-password").value, new: $("new-password").value })
      .then(function () { $("old-password").value = ""; $("new-password").value = ""; ok(_("The password is changed.")); })
      .catch(fail);
  });
  $("hidden-input").addEventListener("change", function () {
    A.call("POST", "/api/accounts/privacy", { hidden: $("hidden-input").checked })
      .then(function (r) { ok(r.hidden ? _("Your page is hidden.") : _("Your page is shown.")); }).catch(fail);
  });
  $("delete-form").addEventListener("submit", function (e) {
    e.preventDefault();
    if (!window.confirm(_("Delete your account for good?"))) { return; }
    A.call("POST", "/api/accounts/delete", { password: $("delete-password").value })
      .then(function () { A.remember(false); return load(); }).catch(fail);
  });
})();
