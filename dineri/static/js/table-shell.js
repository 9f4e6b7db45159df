/* Dineri browser client: the table page's shell, common to every game (docs/web.md).
 * Seats (setup, then around the table), names, presence, the turn clock, chat, the event log,
 * dialogs, rematch, the record download, language and direction. The game's own drawing and
 * input come from its module (js/games/<game>.js, Dineri.games.register); the connection from
 * net.js (Dineri.TableNet). REST for seats and start: docs/protocol.md. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, fmt = D.fmt, el = D.el, cfg = D.config, EP = cfg.endpoints;
  var tableId = cfg.table_id;
  var G = D.games.get(cfg.game || "chkobba");
  var params = new URLSearchParams(location.search);
  var inviteCode = params.get("code") || "";
  var $ = function (id) { return document.getElementById(id); };

  var S = { me: null, table: null, seat: null, view: null, lastSeq: null, net: null, down: null,
    forfeit: null, awayBy: {}, ended: false };

  var explain = D.explain;
  // An error that only said "not connected" is marked, so that it goes when the socket is back
  // (fresh trial: «غير متصل…» stayed under the buttons after the reconnect, until the next move).
  function showError(code) { say(code ? explain(code) : ""); }
  function say(text) { $("error").textContent = text || ""; delete $("error").dataset.offline; }
  function sayOffline() {
    say(_("Not connected. Try again when the connection is back."));
    $("error").dataset.offline = "1";
  }

  // ---- names and sides -------------------------------------------------------------
  function n() { return S.table ? S.table.seats.length : 2; }
  function seated() { return S.seat !== null && S.seat !== undefined; }
  function sideOf(seat) { return G.sideOf ? G.sideOf(seat, S.table && S.table.options) : seat % 2; }
  function teams() { return G.teams === undefined ? true : !!(typeof G.teams === "function" ? G.teams(S.table.options) : G.teams); }
  function playerName(seat) {
    var s = S.table && S.table.seats[seat];
    return (s && s.player && D.displayName(s.player)) || fmt(_("Seat {n}"), { n: seat + 1 });
  }
  /** Whether a side has partners (2v2): in 1v1 a side is one player, and the page says "you"
   * and "your opponent", not "your side" and "the opponents" (the Arabic phone trial). */
  function partners() {
    if (!teams()) { return false; }
    var mates = 0;
    for (var i = 0; i < n(); i++) { if (sideOf(i) === sideOf(0)) { mates += 1; } }
    return mates > 1;
  }
  function sideName(side) {
    if (seated()) {
      var mine = sideOf(S.seat) === side;
      if (!partners()) { return mine ? _("You") : _("Your opponent"); }
      return mine ? _("Your side") : _("Opponents");
    }
    var names = [];
    for (var i = 0; i < n(); i++) { if (sideOf(i) === side) { names.push(iso(playerName(i))); } }
    return D.joinAnd(names);  // "Amel and Chaima" in the page's language (not "&")
  }
  function toAct(v) {
    if (!v || v.phase === "over") { return []; }
    if (G.toAct) { return G.toAct(v); }
    return v.turn === null || v.turn === undefined ? [] : [v.turn];
  }

  // In a right-to-left page a name inside a log line is isolated (FSI … PDI), so a Latin name
  // keeps its own direction and the line's punctuation stays in place.
  var RTL = document.documentElement.dir === "rtl";
  function iso(text) { return RTL ? "\u2068" + text + "\u2069" : text; }
  function auto(ev, text) { return ev.auto ? text + " " + _("(automatic)") : text; }

  // ---- the context a game module works with (docs/web.md) ---------------------------------
  var ctx = {
    $: $, el: el, _: _, fmt: fmt, ngettext: D.ngettext, iso: iso, auto: auto,
    seat: null, me: false, table: null, view: null,
    playerName: playerName, sideName: sideName, sideOf: sideOf, seated: seated, partners: partners,
    send: send, say: say, showError: showError, log: log, render: render,
    openDialog: openDialog, dialogOpen: function () { return $("summary").open; },
    dialogBody: function () { return $("summary-body"); },
    matchOver: matchOver, dataset: document.body.dataset,
    forfeitText: function () { return S.forfeit ? S.forfeit.text : null; },
    sound: function (name) { return D.Sound.play(name); }
  };
  function sync() {
    ctx.seat = seated() ? S.seat : null; ctx.me = seated(); ctx.table = S.table; ctx.view = S.view;
  }

  // ---- REST ------------------------------------------------------------------------
  function tablePath() { return EP.table.replace("{id}", encodeURIComponent(tableId)); }
  function withCode(path) { return inviteCode ? path + "?code=" + encodeURIComponent(inviteCode) : path; }
  function fail(e) { showError(e.code); $("setup-error").textContent = explain(e.code); }
  ctx.tablePath = tablePath;

  function loadTable() {
    return D.api("GET", withCode(tablePath())).then(function (t) { setTable(t); return t; });
  }

  // ---- setup (before the start) ----------------------------------------------------
  function mySeatIn(table) {
    if (!S.me) { return null; }
    for (var i = 0; i < table.seats.length; i++) {
      if (table.seats[i].player_id === S.me.id) { return i; }
    }
    return null;
  }

  function setTable(t) {
    var had = S.table && S.table.status === "open" ? mySeatIn(S.table) : null;
    S.table = t;
    // The seat list says where we sit (a host may have removed us); the welcome confirms it.
    if (S.me) { S.seat = mySeatIn(t); }
    if (had !== null && S.seat === null && t.status === "open" && !leaving) { showRemoved(); }
    // GET says so to a player its host removed (a page opened again): the notice, no seat offer.
    if (t.removed && S.seat === null && t.status === "open" && !removed) { showRemoved(); }
    if (t.status === "open") { renderSetup(); }
    $("setup").hidden = t.status !== "open";
    $("board").hidden = t.status === "open";
    if (t.code) { inviteCode = inviteCode || t.code; }
    keepCodeInUrl();
    if (S.view) { render(); }
    showRematch();
    ensureSocket();
  }

  // A private table's page keeps its code in the address, so a reload (or a seat given up)
  // still finds the table: without it a private table answers 404 to a visitor without a seat.
  function keepCodeInUrl() {
    if (!inviteCode || (S.table && S.table.public) || params.get("code") === inviteCode ||
        !window.history.replaceState) { return; }  // a public table needs no code in its address
    params.set("code", inviteCode);
    history.replaceState(null, "", location.pathname + "?" + params.toString() + location.hash);
  }

  function renderSetup() {
    var t = S.table;
    sync();
    $("setup-options").textContent = G.optionsText(t, ctx);
    // The host by id (display names are not unique); the server decides anyway.
    var isHost = !!S.me && t.host_id === S.me.id;
    var mine = mySeatIn(t);
    $("need-name").hidden = !!S.me;
    $("need-name-link").href = "/join/" + encodeURIComponent(t.id) + (inviteCode ? "." + encodeURIComponent(inviteCode) : "");
    // A removed player gets no invitation to pass on (issue 13, the fresh Arabic trial: the
    // removed guest still saw the private table's link and «نسخ»).
    var link = removed ? ""
      : (isHost && t.code) ? location.origin + "/join/" + encodeURIComponent(t.id + "." + t.code)
      : inviteCode ? location.origin + "/join/" + encodeURIComponent(t.id + "." + inviteCode)
      : t.public ? location.origin + "/t/" + encodeURIComponent(t.id) : "";
    $("invite").hidden = !link;
    if (link) { $("invite-link").value = link; }
    var list = $("setup-seats");
    list.textContent = "";
    t.seats.forEach(function (s) {
      var label = fmt(_("Seat {n}"), { n: s.seat + 1 }) + (partners() ? " · " + fmt(_("side {n}"), { n: s.side + 1 }) : "") +
        " — " + (s.player ? D.fullName(s.player) : _("free"));
      var item = el("li", { class: "setup-seat" }, [el("span", { text: label })]);
      if (!s.player && S.me && mine === null && !removed) {
        item.appendChild(el("button", { type: "button", "data-seat": s.seat, text: _("Sit here"),
          onclick: function () { takeSeat(s.seat); } }));
      }
      if (!s.player && isHost) {
        // The level beside the button, in the home page's words (default medium, as there).
        var level = el("select", { class: "bot-level", "data-bot-level-seat": s.seat, "aria-label": _("Level") }, [
          el("option", { value: "easy", text: _("Easy") }),
          el("option", { value: "medium", text: _("Medium") }),
          el("option", { value: "hard", text: _("Hard") })
        ]);
        // The choice survives a redraw (another player sitting down redraws the list).
        level.value = botLevels[s.seat] || "medium";
        level.addEventListener("change", function () { botLevels[s.seat] = level.value; });
        item.appendChild(level);
        item.appendChild(el("button", { type: "button", class: "bot", "data-bot-seat": s.seat, text: _("Seat a computer player"),
          onclick: function () { seatBot(s.seat, level.value); } }));
      }
      if (s.player && isHost && s.player_id !== S.me.id && confirmRemove === s.seat) {
        // Asked first, in the page (the fresh trial's Remove acted at once): a question and two
        // buttons in place of Remove; a redraw keeps the question while the same seat is asked.
        item.appendChild(el("span", { class: "confirm-remove", role: "alert",
          text: fmt(_("Remove {name} from the table?"), { name: D.fullName(s.player) }) }));
        item.appendChild(el("button", { type: "button", class: "danger", "data-remove-seat": s.seat, text: _("Remove"),
          onclick: function () { confirmRemove = null; removeSeat(s.seat); } }));
        item.appendChild(el("button", { type: "button", class: "cancel-remove", text: _("Cancel"),
          onclick: function () { confirmRemove = null; renderSetup(); } }));
      } else if (s.player && isHost && s.player_id !== S.me.id) {
        item.appendChild(el("button", { type: "button", class: "danger ask-remove", "data-ask-remove": s.seat, text: _("Remove"),
          onclick: function () { confirmRemove = s.seat; renderSetup(); } }));
      }
      list.appendChild(item);
    });
    $("leave-seat").hidden = mine === null;
    var full = t.seats.every(function (s) { return !!s.player; });
    // A full table waits for its host: a guest is told so, the host is asked to start.
    $("setup-h").textContent = !full ? _("Waiting for players")
      : (isHost ? _("Start the match") : _("Waiting for the host to start"));
    $("start-match").hidden = !isHost;
    $("start-match").disabled = !full;
  }

  function takeSeat(seat) {
    var body = { seat: seat };
    if (inviteCode) { body.code = inviteCode; }
    D.api("POST", tablePath() + "/seats", body).then(setTable).catch(function (e) {
      if (e.code === "removed") { showRemoved(); } else { fail(e); }
    });
  }
  // Our seat went while the table was open and we did not leave it: the host removed us, and the
  // server refuses us a seat there from now on (403 removed, docs/protocol.md). The fresh trial's
  // removed player saw the seat free again with "Sit here" and no word why: a notice says it, and
  // the page offers no seat any more (a reloaded page learns it from the seat request's answer).
  var leaving = false, removed = false;
  function showRemoved() {
    removed = true;
    $("notice").textContent = explain("removed");
    $("notice").hidden = false;
    $("setup-error").textContent = "";
    if (S.table && S.table.status === "open") { renderSetup(); }
  }
  var botLevels = {};  // seat -> the level the host picked beside its button
  var confirmRemove = null;  // the seat whose Remove the host pressed, asked to confirm
  function seatBot(seat, level) {
    D.api("POST", tablePath() + "/bots", { seat: seat, level: level || "medium" }).then(setTable).catch(fail);
  }
  function removeSeat(seat) {
    D.api("DELETE", tablePath() + "/seats/" + seat).then(setTable).catch(fail);
  }
  $("leave-seat").addEventListener("click", function () {
    leaving = true;  // our seat going now is our own doing, not the host's
    D.api("DELETE", tablePath() + "/seats/me").then(function (t) { setTable(t); leaving = false; })
      .catch(function (e) { leaving = false; fail(e); });
  });
  $("start-match").addEventListener("click", function () {
    D.api("POST", tablePath() + "/start", {}).then(function (t) { if (t && t.id) { setTable(t); } }).catch(fail);
  });
  $("copy-invite").addEventListener("click", function () {
    var input = $("invite-link"), button = $("copy-invite");
    input.select();
    function copied() {
      button.textContent = _("Copied");
      setTimeout(function () { button.textContent = _("Copy"); }, 2500);
    }
    function fallback() { try { if (document.execCommand("copy")) { copied(); } } catch (e) { /* select() stays */ } }
    if (navigator.clipboard) { navigator.clipboard.writeText(input.value).then(copied, fallback); }
    else { fallback(); }
  });

  // ---- the connection (net.js) ---------------------------------------------------------
  function ensureSocket() {
    if (S.net) { return; }
    if (!S.table.public && S.seat === null) { return; } // private tables cannot be watched
    S.net = new D.TableNet(tableId, {
      welcome: function (w) { S.seat = w.seat; setTable(w.table); },
      table: setTable,
      view: function (m) { queueStep(m); },
      events: function (list) {
        list.forEach(function (e) {
          // History and the events that draw nothing (chat, presence) go at once; the others wait
          // for the view they lead to and are played with it, one move after the other.
          if (e.old || IMMEDIATE[e.event.type]) { onEvent(e.event, e.old); }
          else { Q.events.push(e.event); }
        });
        if (Q.events.length) {
          clearTimeout(Q.timer);
          Q.timer = setTimeout(function () { queueStep(null); }, 1500); // no view came: play them alone
        }
      },
      connection: onConnection,
      ack: function () {},
      refused: function (id, code) { showError(code); },
      // Our seat at a private table is gone (left or removed): the REST table shows the free seats;
      // taking one opens a new socket.
      closed: function (code) {
        S.net = null;
        if (code === 4403) {
          if (seated() && !leaving) { showRemoved(); }
          S.seat = null;
          loadTable().catch(function (e) { if (!removed) { fail(e); } });
        }
      }
    });
  }

  // ---- our own socket down: the countdown to our forfeit (fresh Arabic trial, issue 13) -------
  // While this page's socket is down the server cannot tell it that its seat is away, yet its
  // grace runs (DINERI_GRACE_SECONDS from the drop, then the side forfeits, R33): the others see
  // "Away: forfeits in 86 s" on our seat. So the page counts down the same grace itself, on its
  // own seat and in the connection-lost banner, from when the socket dropped (or from the
  // forfeit_at the server already gave our seat, if the clock had made it away), once the banner
  // shows (a fail-over's moment shows nothing); the countdown goes when the socket is back.
  var GRACE_S = Number(cfg.grace_seconds) || 0, DOWN_SHOWN_MS = 1500;
  var down = { since: null, timer: null };
  function playing() { return seated() && !!S.table && S.table.status === "playing" && !!S.view && S.view.phase !== "over"; }
  function onConnection(up) {
    // Every failed attempt says "down" again (a server that is down refuses each one): only the
    // first starts the countdown's timer, which the next ones must not cancel (the fresh trial's
    // page showed no countdown while its server was down, only while its own socket was).
    if (up) {
      clearTimeout(down.timer);
      if ($("error").dataset.offline) { say(""); }
      var was = !!S.down;
      down.since = null; S.down = null;
      showDown();
      if (was) { render(); }
      return;
    }
    if (down.since !== null) { return; }
    down.since = Date.now() / 1000;
    down.timer = setTimeout(function () {
      if (down.since === null || !playing() || !GRACE_S) { return; }
      var mine = S.table.seats[S.seat] || {};
      S.down = { forfeitAt: mine.away && mine.forfeit_at ? mine.forfeit_at : down.since + GRACE_S };
      showDown();
      render();
    }, DOWN_SHOWN_MS);
  }
  /** The banner's line under "Connection lost. Reconnecting…": how long before we forfeit. */
  function showDown() {
    var banner = $("offline");
    if (!banner) { return; }
    var line = $("offline-grace");
    if (!line) {
      line = el("span", { id: "offline-grace", class: "offline-grace" });
      banner.appendChild(line);
    }
    if (S.down && !playing()) { S.down = null; }  // the match ended meanwhile: nothing to forfeit
    line.hidden = !S.down;
    if (S.down) { line.setAttribute("data-forfeit-at", S.down.forfeitAt); } else { line.removeAttribute("data-forfeit-at"); }
    tickClock();
  }

  // ---- one move after the other (issue 13, item 2) ------------------------------------------
  // A step is a view and the events that led to it. Steps are played in order. Another player's
  // move stays on the page at least PACE_MS before the next one is drawn, however close together
  // they arrive (computer players answer in a few tenths of a second; in 2v2 three moves pass
  // between your turns): the pace counts from when the last one was drawn, so a move that comes
  // after a quiet while is drawn at once, and your own moves are never held. Pacing is not motion:
  // it stays under reduced motion (then nothing moves, but each move can still be read). It is
  // skipped for a catch-up (a burst of events), a page that fell more than MAX_BEHIND steps
  // behind, and a tab in the background (its timers are throttled; it is current when shown).
  // Cards move from where they were (motion.js) unless reduced motion is asked.
  var IMMEDIATE = { chat: 1, player_away: 1, player_back: 1, rematch: 1 };
  var PACE_MS = 900, MAX_BEHIND = 2, BURST = 4;
  var Q = { events: [], steps: [], busy: false, timer: null, shownAt: -Infinity };
  function now() { return window.performance ? performance.now() : Date.now(); }
  function queueStep(m) {
    clearTimeout(Q.timer);
    Q.steps.push({ events: Q.events, m: m });
    Q.events = [];
    pump();
  }
  /** Whether ``step`` holds a move of another seat that is worth seeing (the module's ``paced``). */
  function theirMove(step) {
    return !!G.paced && step.events.some(function (ev) {
      return G.paced.indexOf(ev.type) >= 0 && ev.seat !== S.seat;
    });
  }
  function hold(ms) {
    Q.busy = true;
    setTimeout(function () { Q.busy = false; pump(); }, ms);
  }
  function pump() {
    if (Q.busy || !Q.steps.length) { return; }
    var step = Q.steps[0];
    var behind = Q.steps.length - 1;
    var live = step.events.length <= BURST && behind <= MAX_BEHIND && !document.hidden;
    var theirs = theirMove(step);
    if (live && theirs && S.view) {
      var due = Q.shownAt + PACE_MS - now();
      if (due > 0) { hold(due); return; }
    }
    Q.steps.shift();
    var motion = new D.Motion(document.getElementById("board"));
    step.events.forEach(function (ev) { onEvent(ev, false); });
    if (step.m) { onView(step.m); }
    if (theirs) { Q.shownAt = now(); }
    var took = 0;
    sync();
    // A burst (a reconnect's catch-up) is only logged: moving twenty cards at once tells nothing.
    if (live && S.view) {
      step.events.forEach(function (ev) {
        if (G.animate) { took = Math.max(took, G.animate(ev, ctx, motion) || 0); }
      });
    }
    if (took) { hold(took); } else { pump(); }
  }
  function onView(m) {
    S.lastSeq = m.seq;
    S.table = m.table;
    if (m.seat !== null && m.seat !== undefined) { S.seat = m.seat; }
    S.view = m.view;
    $("setup").hidden = m.table.status !== "open";
    $("board").hidden = m.table.status === "open" || !m.view;
    if (m.table.status === "open") { renderSetup(); }
    if (m.view) { render(); }
    showRematch();
  }

  function send(action) {
    showError(null);
    if (!S.net || S.net.act(action) === null) {
      sayOffline();
      return false;
    }
    return true;
  }

  // ---- events: the log -----------------------------------------------------------------
  function log(text) {
    var list = $("log");
    list.appendChild(typeof text === "string" ? el("li", { text: text }) : text);
    while (list.childNodes.length > 200) { list.removeChild(list.firstChild); }
    list.scrollTop = list.scrollHeight;
  }

  // The events every game has (docs/protocol.md); a module may word any of them its own way.
  function describeCommon(ev, who) {
    switch (ev.type) {
      case "match_started": return _("The match begins.");
      case "commitment": return _("The pack is shuffled and sealed.");
      case "forfeit": return forfeitWords(ev, who);
      case "reveal": return _("The decks are revealed: the match record can now be checked.");
      // Away by the clock is no lost connection: that player may be reading the page (issue 13).
      case "player_away": return ev.seat === S.seat ? null : fmt(ev.reason === "clock"
        ? _("{name} is not playing (the clock played the last turns).") : _("{name} is away."), { name: who });
      case "player_back": return ev.seat === S.seat ? null : fmt(S.awayBy[ev.seat] === "clock"
        ? _("{name} is playing again.") : _("{name} is back."), { name: who });
      // Both the name and the text are isolated (<bdi>), so a French "!" stays at the end of its
      // line in the Arabic log, and an Arabic line keeps its own order in a French page. A line of a
      // player this one muted is not shown (Dineri.chatMuted: js/accounts/table-extras.js).
      case "chat": return D.chatMuted && D.chatMuted(ev) ? null : el("li", { class: "chat-line" }, [el("bdi", { text: ev.name }), ": ", el("bdi", { text: ev.text })]);
      case "rematch": return fmt(_("{name} asks for a rematch."), { name: who });
      default: return null;
    }
  }

  /** How a seat forfeited (R33), said truly: it left (pressed "Leave the match"), or its grace
   * ran out (``auto``) while it was away because the clock played its turns (``player_away``
   * ``reason: "clock"``, or the seat's ``away_reason``), or while it was disconnected. The own side
   * reads "your side", never "that side" (the Arabic phone trial: «وانسحاب ذلك الفريق» read by
   * the away player about her own side; and «مغادرة المباراة… (تلقائي)» for a lost connection). */
  function forfeitWords(ev, who) {
    var info = (S.table && S.table.seats[ev.seat]) || {};
    var why = !ev.auto ? "left" : (S.awayBy[ev.seat] === "clock" || info.away_reason === "clock") ? "clock" : "gone";
    var name = { name: who };
    if (!partners()) {
      if (seated() && ev.seat === S.seat) {
        return why === "left" ? _("You leave the match and forfeit.")
          : why === "clock" ? _("You did not play for longer than the grace period: you forfeit.")
          : _("You were disconnected for longer than the grace period: you forfeit.");
      }
      return fmt(why === "left" ? _("{name} leaves the match and forfeits.")
        : why === "clock" ? _("{name} did not play for longer than the grace period and forfeits.")
        : _("{name} was disconnected for longer than the grace period and forfeits."), name);
    }
    if (seated() && sideOf(ev.seat) === sideOf(S.seat)) {
      return fmt(why === "left" ? _("{name} leaves the match: your side forfeits.")
        : why === "clock" ? _("{name} did not play for longer than the grace period: your side forfeits.")
        : _("{name} was disconnected for longer than the grace period: your side forfeits."), name);
    }
    return fmt(why === "left" ? _("{name} leaves the match: that side forfeits.")
      : why === "clock" ? _("{name} did not play for longer than the grace period: that side forfeits.")
      : _("{name} was disconnected for longer than the grace period: that side forfeits."), name);
  }

  function onEvent(ev, old) {
    sync();
    var who = ev.seat !== undefined ? iso(playerName(ev.seat)) : "";
    var lines = G.describeEvent ? G.describeEvent(ev, ctx) : undefined;
    if (lines === undefined) { lines = describeCommon(ev, who); }
    (Array.isArray(lines) ? lines : [lines]).forEach(function (line) { if (line) { log(line); } });
    // Who forfeited, for the match-end dialog (its words are the log's); from the history too,
    // for a page opened on the finished match (below).
    if (ev.type === "forfeit") {
      var said = Array.isArray(lines) ? lines[0] : lines;
      S.forfeit = { seat: ev.seat, text: typeof said === "string" ? said : null };
    }
    if (ev.type === "player_away") { S.awayBy[ev.seat] = ev.reason || "connection"; }
    if (ev.type === "player_back") { delete S.awayBy[ev.seat]; }
    // The clock played this seat's turn while a dialog covered the table (the round summary,
    // its round break run out): the dialog goes, so the player sees the table, the move made
    // and its own away mark (the Arabic phone trial: the summary stayed, its countdown started
    // again, and the player became away under it). Never the match-end dialog.
    if (!old && ev.auto && ev.type !== "forfeit" && seated() && ev.seat === S.seat && $("summary").open && !S.ended) {
      $("summary").close();
    }
    // A seated player opening the page of a finished match (the one who forfeited, coming
    // back) gets the same end dialog as a live page (reason, result, record, rematch): the
    // history's match_over is played as live once (the trial saw only «خسرت المباراة.»).
    var endAgain = old && ev.type === "match_over" && !S.ended && seated() && !!S.view && S.view.phase === "over";
    if (G.onEvent) { G.onEvent(ev, ctx, old && !endAgain); }
    if (ev.type === "reveal" && !old) { showRecordLink(); }
    if (ev.type === "rematch" && S.table) { S.table.rematch = ev.table; showRematch(); }
  }

  // ---- dialogs, rematch, record ----------------------------------------------------------
  /** *closeLabel*: the close button's word (a summary says "Continue"; a look at a pile "Close"). */
  function openDialog(title, body, closeLabel) {
    $("summary-h").textContent = title;
    $("summary-close").textContent = closeLabel || _("Continue");
    var holder = $("summary-body");
    holder.textContent = "";
    holder.appendChild(body);
    var d = $("summary");
    if (!d.open) { d.showModal(); }
    showDialogTurn();
    $("summary-close").focus();
  }
  $("summary-close").addEventListener("click", function () { $("summary").close(); });

  // The round summary covers the table: when this seat's turn starts under it, the dialog says
  // so, with the turn's clock (its round break included), above its Continue button (issue 13:
  // a player reading the summary had its turns played by the clock, and was made away).
  function showDialogTurn() {
    var box = $("summary-turn");
    if (!box) { return; }
    var v = S.view, mine = $("summary").open && !!v && seated() && toAct(v).indexOf(S.seat) >= 0;
    var c = mine ? clockOf(S.seat) : null, key = mine ? String(c ? c.expires_at : "") : null;
    if (box.getAttribute("data-key") === key && !box.hidden === mine) { return; }
    box.setAttribute("data-key", key === null ? "" : key);
    box.textContent = "";
    box.hidden = !mine;
    if (!mine) { return; }
    box.setAttribute("data-seat", S.seat);
    box.appendChild(el("p", { class: "summary-turn-text", "data-expires": c ? c.expires_at : null, text: _("Your turn") }));
    if (c && S.table.clock) { box.appendChild(clockBar(c)); }
    tickClock();
  }
  /** The running clock of ``seat`` ({seat, expires_at, round_break?}), or null. */
  function clockOf(seat) {
    var rc = S.table && S.table.running_clock;
    if (!rc || (S.view && S.view.phase === "over")) { return null; }
    if (rc.seat === seat) { return rc; }
    var all = rc.seats || [];
    for (var i = 0; i < all.length; i++) { if (all[i].seat === seat) { return all[i]; } }
    return null;
  }
  /** The turn clock as a bar that runs down over the whole clock, its round break included
   * (tickClock sets its width, the break's colour and the 5 s warning). */
  function clockBar(c) {
    var brk = Number(c.round_break) || 0;
    return el("div", { class: "clockbar", role: "presentation", "data-expires": c.expires_at,
      "data-total": S.table.clock + brk, "data-break": brk || null }, [el("div", { class: "clockbar-fill" })]);
  }

  /** The match-end dialog: the module's title and body; the record and rematch buttons follow. */
  function matchOver(title, body) {
    S.ended = true;
    openDialog(title, body);
    showRematch();
  }

  // The rematch (docs/protocol.md): once any player asked, the finished table's info carries its
  // id and every player sees "Join the rematch"; a spectator of a public table may watch it.
  function showRematch() {
    var t = S.table;
    if (!t || t.status !== "over") { return; }
    ["rematch-btn", "rematch-board"].forEach(function (id) {
      var b = $(id);
      b.textContent = t.rematch ? _("Join the rematch") : _("Rematch");
      b.classList.toggle("primary", !!t.rematch);
      b.hidden = !seated();
    });
    var watch = $("rematch-watch");
    watch.hidden = seated() || !t.rematch || !t.public;
    if (t.rematch) { watch.href = "/t/" + encodeURIComponent(t.rematch); }
  }

  function showRecordLink() {
    if (!seated()) { return; }
    ["record-link", "record-board"].forEach(function (id) {
      var a = $(id);
      a.href = tablePath() + "/record";
      a.setAttribute("download", "dineri-" + tableId + ".json");
      a.hidden = false;
    });
    showRematch();
  }

  function rematch() {
    // The answer is the rematch table; its ``code`` (a private table's invitation code) is read
    // defensively: it may be missing (a public table, or an older server), then the URL has none.
    D.api("POST", tablePath() + "/rematch", {}).then(function (nt) {
      if (!nt || typeof nt.id !== "string" || !nt.id) { fail({ code: "internal" }); return; }
      var code = typeof nt.code === "string" ? nt.code : "";
      location.href = "/t/" + encodeURIComponent(nt.id) + (code ? "?code=" + encodeURIComponent(code) : "");
    }).catch(function (e) {
      // Refused by the rematch table (its host removed us there), not by this one.
      if (e.code === "removed") { say(_("The host of the rematch removed you from its table.")); } else { fail(e); }
    });
  }
  $("rematch-btn").addEventListener("click", rematch);
  $("rematch-board").addEventListener("click", rematch);

  // ---- seats around the table ------------------------------------------------------------
  // A physical picture, never mirrored by the page's direction: you at the bottom, the next
  // player on your right (R4), then on round the table (docs/web.md).
  function rel(seat) { return (seat - (seated() ? S.seat : 0) + n()) % n(); }
  function position(r) {
    if (r === 0) { return "bottom"; }
    if (n() === 2) { return "top"; }
    if (r === 1) { return "right"; }
    if (r === n() - 1) { return "left"; }
    return "top";
  }

  function seatBox(seat) {
    var v = S.view, info = S.table.seats[seat] || {};
    var badges = [];
    if (v.dealer === seat) { badges.push(el("span", { class: "badge dealer", text: _("Dealer") })); }
    var acting = toAct(v).indexOf(seat) >= 0;
    // Your own seat says "Your turn"; another's "To play" (never "his turn" on your own seat).
    if (acting) { badges.push(el("span", { class: "badge turn", text: seat === S.seat ? _("Your turn") : _("To play") })); }
    // Once the match is over nobody forfeits any more: no away marks, countdowns or "the clock
    // played your turns" (the Arabic phone trial saw them on its own seat after a forfeit).
    var over = v.phase === "over";
    var offline = !!S.down && seat === S.seat && !over;  // our own socket is down: the grace runs
    var ownAway = (info.away || offline) && seat === S.seat && !over;
    if (offline) {
      badges.push(el("span", { class: "badge away own offline", "data-forfeit-at": S.down.forfeitAt, text: "" }));
    } else if (info.away && !over) {
      // An away player's side forfeits when the grace ends: its countdown (forfeit_at, epoch s).
      // Your own seat speaks to you ("You are away: you forfeit in …", never "his side"); a page
      // that is open is connected, so the clock made you away: say so, and how to come back.
      var why = ownAway ? _("The clock played your turns for you. Make a move to come back.") : null;
      // Away because the clock played its turns: "not playing", never "connection lost" (issue 13).
      var byClock = !ownAway && (info.away_reason === "clock" || S.awayBy[seat] === "clock");
      var attrs = { class: "badge away" + (ownAway ? " own" : "") + (byClock ? " by-clock" : ""),
        text: ownAway ? _("You are away") : byClock ? _("Not playing") : _("Away") };
      if (info.forfeit_at) { attrs["data-forfeit-at"] = info.forfeit_at; }
      if (why) { attrs.title = why; }
      badges.push(el("span", attrs));
    }
    var rc = S.table.running_clock;
    var clock = rc && rc.seat === seat && v.phase !== "over";
    if (clock) { badges.push(el("span", { class: "badge clock", "data-expires": rc.expires_at, text: "" })); }
    var side = sideOf(seat);
    var head = el("div", { class: "seat-head" }, [
      D.seatName(info.player || playerName(seat)),
      partners() ? el("span", { class: "side-tag side-" + side,
        text: seated() ? sideName(side) : fmt(_("side {n}"), { n: side + 1 }) }) : null
    ].concat(badges));
    var r = rel(seat);
    var box = el("div", { class: "seat pos-" + position(r) + (acting ? " on-turn" : ""),
      "data-seat": seat, style: "order: " + (n() - r) }, [head]);
    if (ownAway && !offline) { box.appendChild(el("div", { class: "away-why", text: why })); }
    if (clock && S.table.clock) { box.appendChild(clockBar(rc)); }
    var extra = G.seatContent ? G.seatContent(seat, v, ctx) : null;
    if (extra) { box.appendChild(extra); }
    return box;
  }

  // ---- rendering ---------------------------------------------------------------------------
  function render() {
    var v = S.view;
    if (!v || !S.table) { return; }
    sync();
    // Cards are rebuilt on every view: keep the keyboard focus on the same card if it is still there.
    var active = document.activeElement;
    var focusZone = active && active.getAttribute && active.getAttribute("data-zone");
    var focusCard = focusZone ? active.getAttribute("data-card") : null;
    var wasMyTurn = document.body.dataset.turn === String(S.seat);
    var me = seated();

    // Seats: the others around the table, yours at the bottom. Redrawn in place (Dineri.fill):
    // a card or button being pressed while a view arrives stays the same node, so the press counts.
    var others = [];
    for (var s = 0; s < n(); s++) { if (!me || s !== S.seat) { others.push(seatBox(s)); } }
    D.fill($("opponents"), others);
    D.fill($("me"), [me ? seatBox(S.seat) : el("p", { class: "hint", text: _("You are watching this table.") })]);

    G.render(v, ctx);

    $("forfeit-btn").hidden = !me || v.phase === "over";
    if (S.down && v.phase === "over") { showDown(); }  // the banner's forfeit countdown goes too
    $("chat-form").hidden = !me;
    if (me && v.phase === "over") { showRecordLink(); }
    $("status").textContent = G.statusText(v, ctx);
    // Public state as data attributes, for tests and styling (nothing the page may not show).
    var ds = document.body.dataset;
    ds.phase = v.phase; ds.turn = toAct(v).join(","); ds.seq = String(S.lastSeq);
    showDialogTurn();
    tickClock();
    showTurnInTitle();
    var myTurn = me && toAct(v).indexOf(S.seat) >= 0;
    var again = focusCard && document.querySelector('.card[data-zone="' + focusZone + '"][data-card="' + focusCard + '"]');
    if (again) { again.focus(); }
    else if (myTurn && !wasMyTurn && (!active || active === document.body || focusZone)) {
      var first = document.querySelector('.card[data-zone="hand"]');
      // No scroll: the page must not move under a pointer about to press (issue 13, flaky press).
      if (first) { first.focus({ preventScroll: true }); }
    }
  }

  // ---- time: the clock, the warning, the away countdown, the tab title (issue 13, item 3) -----
  var LOW_S = 5;
  var warned = null;  // the expiry we already warned about (one sound per turn)
  function tickClock() {
    var now = Date.now() / 1000;
    document.querySelectorAll(".badge.clock").forEach(function (b) {
      var left = Math.max(0, Math.round(parseFloat(b.getAttribute("data-expires")) - now));
      b.textContent = fmt(_("{n} s left"), { n: left });
      b.classList.toggle("low", left <= LOW_S);
    });
    document.querySelectorAll(".clockbar").forEach(function (bar) {
      var exp = parseFloat(bar.getAttribute("data-expires")), total = parseFloat(bar.getAttribute("data-total"));
      var left = Math.max(0, exp - now), brk = parseFloat(bar.getAttribute("data-break")) || 0;
      bar.firstChild.style.inlineSize = Math.min(100, 100 * left / total) + "%";
      bar.classList.toggle("low", left <= LOW_S);
      bar.classList.toggle("round-break", brk > 0 && left > total - brk);  // still in the round break
      var mine = bar.parentNode && bar.parentNode.getAttribute("data-seat") === String(S.seat);
      if (mine && left <= LOW_S && left > 0 && warned !== exp) { warned = exp; D.Sound.play("low"); }
    });
    document.querySelectorAll(".badge.away[data-forfeit-at]").forEach(function (b) {
      var left = Math.max(0, Math.round(parseFloat(b.getAttribute("data-forfeit-at")) - now));
      var own = b.classList.contains("own");
      var text = b.classList.contains("offline")
        ? (partners() ? _("Reconnecting: your side forfeits in {n} s") : _("Reconnecting: you forfeit in {n} s"))
        : own ? (partners() ? _("You are away: your side forfeits in {n} s") : _("You are away: you forfeit in {n} s"))
        : b.classList.contains("by-clock")
        ? (partners() ? _("Not playing: the side forfeits in {n} s") : _("Not playing: forfeits in {n} s"))
        : (partners() ? _("Away: the side forfeits in {n} s") : _("Away: forfeits in {n} s"));
      b.textContent = fmt(text, { n: left });
    });
    document.querySelectorAll(".summary-turn-text[data-expires]").forEach(function (p) {
      var left = Math.max(0, Math.round(parseFloat(p.getAttribute("data-expires")) - now));
      p.textContent = fmt(_("Your turn ({n} s)"), { n: left });
      p.classList.toggle("low", left <= LOW_S);
    });
    var grace = $("offline-grace");
    if (grace && grace.hasAttribute("data-forfeit-at")) {
      var rest = Math.max(0, Math.round(parseFloat(grace.getAttribute("data-forfeit-at")) - now));
      grace.textContent = fmt(partners() ? _("Your side forfeits in {n} s unless you are back.")
        : _("You forfeit in {n} s unless you are back."), { n: rest });
    }
  }
  setInterval(function () { tickClock(); if (TITLE !== undefined) { showTurnInTitle(); } }, 250);

  // The tab's title says when it is your turn while the page is in the background.
  var TITLE = document.title;
  var wasMine = false;
  function showTurnInTitle() {
    var mine = !!S.view && seated() && toAct(S.view).indexOf(S.seat) >= 0;
    // Queued after the sound of the move that gave the turn (motion.js), if still our turn then.
    if (mine && !wasMine) { D.Sound.play("turn", function () { return !!S.view && toAct(S.view).indexOf(S.seat) >= 0; }); }
    wasMine = mine;
    // With a turn clock, the seconds left too (tickClock calls this every 250 ms).
    var rc = S.table && S.table.running_clock, left = null;
    if (mine && rc && rc.seat === S.seat && rc.expires_at) {
      left = Math.max(0, Math.round(parseFloat(rc.expires_at) - Date.now() / 1000));
    }
    var turn = left === null ? _("Your turn") : fmt(_("Your turn ({n} s)"), { n: left });
    var t = mine && document.hidden ? "● " + turn + " · " + TITLE : TITLE;
    if (document.title !== t) { document.title = t; }
  }
  document.addEventListener("visibilitychange", showTurnInTitle);

  // Sounds are off until the player turns them on (kept in localStorage).
  function showSound() {
    var on = D.Sound.on();
    $("sound-btn").setAttribute("aria-pressed", on ? "true" : "false");
    $("sound-btn").textContent = on ? _("Sound: on") : _("Sound: off");
  }
  $("sound-btn").addEventListener("click", function () { D.Sound.set(!D.Sound.on()); showSound(); });
  showSound();
  // The deck style: every card is drawn again in the chosen pack.
  $("deck-style").value = D.deckStyle();
  $("deck-style").addEventListener("change", function () { D.setDeckStyle(this.value); render(); });

  // ---- common controls ---------------------------------------------------------------------
  $("forfeit-btn").addEventListener("click", function () {
    var question = partners() ? _("Leave the match? Your side forfeits.") : _("Leave the match? You forfeit.");
    if (window.confirm(question)) { send({ type: "forfeit" }); }
  });

  $("chat-form").addEventListener("submit", function (e) {
    e.preventDefault();
    // Control characters are refused by the server; strip them here (R: every user string checked).
    var text = $("chat-input").value.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim();
    if (!text || !S.net) { return; }
    if (S.net.chat(text.slice(0, 200))) { $("chat-input").value = ""; }
  });

  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    sync();
    if (G.keydown && G.keydown(e, ctx)) { e.preventDefault(); }
  });

  // ---- start -------------------------------------------------------------------------
  sync();
  if (G.init) { G.init(ctx); }
  D.whoAmI().then(function (me) { S.me = me; }, function () { S.me = null; })
    .then(loadTable)
    .catch(function (e) { $("status").textContent = explain(e.code); });
})();
