/* Dineri accounts (issue 14): REST calls with the CSRF header, shared by the account pages.
 * Plain script, no build step; strings go through Dineri._ (the page's Babel catalogue). */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._;

  // Account error codes (docs/accounts.md), explained in the page's language.
  var ERRORS = {
    bad_credentials: _("Wrong username or password."),
    banned: _("This account is banned."),
    taken: _("That username, or one that looks like it, is taken."),
    reserved: _("That username is reserved."),
    confusable: _("That username mixes alphabets with look-alike letters."),
    already_claimed: _("This player already has an account."),
    no_account: _("Sign in with an account first."),
    csrf: _("The page is out of date: reload it and try again."),
    rate_limited: _("Too many attempts: wait a few minutes."),
    too_early: _("The computer player is offered after the wait you chose."),
    not_waiting: _("You are not waiting for a match."),
    malformed: _("A username has 3 to 24 letters or digits (and _ - . inside); a password has at least 8 characters.")
  };
  function explain(e) { return ERRORS[e && e.code] || D.explain(e && e.code); }

  /** JSON over fetch with the CSRF token; rejects with {status, code, message}. */
  function call(method, path, body) {
    var opts = { method: method, credentials: "same-origin",
                 headers: { "Accept": "application/json", "X-CSRF-Token": D.config.csrf || "" } };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(path, opts).then(function (r) {
      return r.text().then(function (t) {
        var data = null;
        try { data = t ? JSON.parse(t) : null; } catch (e) { data = null; }
        if (!r.ok) {
          var detail = data && data.detail;
          var code = (detail && detail.code) || ("http_" + r.status);
          throw { status: r.status, code: code, message: (detail && detail.message) || t };
        }
        return data;
      });
    });
  }

  // The home page asks /api/players/me only when this flag says a name was chosen here.
  function remember(named) {
    try { if (named) { localStorage.setItem("dineri_named", "1"); } else { localStorage.removeItem("dineri_named"); } }
    catch (e) { /* private mode */ }
  }

  function ratingText(r) { return r ? (r.rating + (r.provisional ? "?" : "")) : ""; }

  window.DineriAccounts = { call: call, explain: explain, remember: remember, ratingText: ratingText };
})();
