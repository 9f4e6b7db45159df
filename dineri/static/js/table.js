/* Dineri browser client: the table page (issue 4, item 2).
 * Talks docs/protocol.md: REST for seats and start, the table WebSocket for play.
 * The page never selects a capture and never hints at one (R13, R21): the player points
 * at every card taken; the server judges and its error codes are explained here. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, ngettext = D.ngettext, fmt = D.fmt, el = D.el, cfg = D.config, EP = cfg.endpoints;
  var tableId = cfg.table_id;
  var params = new URLSearchParams(location.search);
  var inviteCode = params.get("code") || "";
  var $ = function (id) { return document.getElementById(id); };

  var S = {
    me: null, table: null, seat: null, view: null, lastSeq: null,
    hand: null, picked: [], lastLaid: null, refusedRedeal: false,
    socket: null, actionNo: 0, pending: {}, historyAsked: false, historyFrom: null,
    historyUpTo: null
  };
  var HISTORY = 40;  // recent events shown in the log of a page that just opened

  var explain = D.explain;
  function showError(code) { $("error").textContent = code ? explain(code) : ""; }

  // ---- names and sides -------------------------------------------------------------
  function n() { return S.table ? S.table.options.seats : 2; }
  function playerName(seat) {
    var s = S.table && S.table.seats[seat];
    return (s && s.player && D.displayName(s.player)) || fmt(_("Seat {n}"), { n: seat + 1 });
  }
  function sideName(side) {
    if (S.seat !== null && S.seat !== undefined) {
      return (S.seat % 2 === side) ? _("Your side") : _("Opponents");
    }
    var names = [];
    for (var i = side; i < n(); i += 2) { names.push(playerName(i)); }
    return names.join(" & ");
  }
  function seated() { return S.seat !== null && S.seat !== undefined; }
  // Results: a player reads "you"; a spectator reads the winning side by its players' names
  // (one name takes "wins", two names take "win").
  function matchResultText(side) {
    if (side === null || side === undefined) { return _("The match is over."); }
    if (seated()) { return S.seat % 2 === side ? _("You win the match!") : _("You lose the match."); }
    return n() === 4 ? fmt(_("{names} win the match."), { names: sideName(side) })
      : fmt(_("{name} wins the match."), { name: sideName(side) });
  }
  function gameResultText(game, winner, scores, goesOn) {
    var text;
    if (seated()) {
      var mine = S.seat % 2;
      text = fmt(mine === winner ? _("You win game {game}, {a} to {b}.") : _("You lose game {game}, {a} to {b}."),
        { game: game, a: scores[mine], b: scores[1 - mine] });
    } else {
      text = fmt(n() === 4 ? _("{names} win game {game}, {a} to {b}.") : _("{name} wins game {game}, {a} to {b}."),
        { name: sideName(winner), names: sideName(winner), game: game, a: scores[winner], b: scores[1 - winner] });
    }
    return goesOn ? text + " " + _("The match goes on.") : text;
  }
  function gamesToWin() { return Math.floor(S.table.options.best_of / 2) + 1; }
  function cardsText(codes) { return D.joinList(codes.map(D.cardName)); }

  // ---- REST ------------------------------------------------------------------------
  function tablePath() { return EP.table.replace("{id}", encodeURIComponent(tableId)); }
  function withCode(path) { return inviteCode ? path + "?code=" + encodeURIComponent(inviteCode) : path; }
  function fail(e) { showError(e.code); $("setup-error").textContent = explain(e.code); }

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
    S.table = t;
    // The seat list says where we sit (a host may have removed us); the welcome confirms it.
    if (S.me) { S.seat = mySeatIn(t); }
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
    if (!inviteCode || params.get("code") === inviteCode || !window.history.replaceState) { return; }
    params.set("code", inviteCode);
    history.replaceState(null, "", location.pathname + "?" + params.toString() + location.hash);
  }

  function optionsText(t) {
    var o = t.options;
    var parts = [
      o.seats === 4 ? _("2 against 2") : _("1 against 1"),
      fmt(_("game to {n} points"), { n: o.target }),
      o.best_of === 1 ? _("one game") : fmt(_("best of {n} games"), { n: o.best_of }),
      t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock"),
      t.public ? _("public") : _("private")
    ];
    return parts.join(" · ");
  }

  function renderSetup() {
    var t = S.table;
    $("setup-options").textContent = optionsText(t);
    // The host by id (display names are not unique); the server decides anyway.
    var isHost = !!S.me && t.host_id === S.me.id;
    var mine = mySeatIn(t);
    $("need-name").hidden = !!S.me;
    $("need-name-link").href = "/join/" + encodeURIComponent(t.id) + (inviteCode ? "." + encodeURIComponent(inviteCode) : "");
    if (isHost && t.code) {
      $("invite").hidden = false;
      $("invite-link").value = location.origin + "/join/" + encodeURIComponent(t.id + "." + t.code);
    } else if (inviteCode) {
      $("invite").hidden = false;
      $("invite-link").value = location.origin + "/join/" + encodeURIComponent(t.id + "." + inviteCode);
    } else if (t.public) {
      $("invite").hidden = false;
      $("invite-link").value = location.origin + "/t/" + encodeURIComponent(t.id);
    }
    var list = $("setup-seats");
    list.textContent = "";
    t.seats.forEach(function (s) {
      var label = fmt(_("Seat {n}"), { n: s.seat + 1 }) + " · " +
        fmt(_("side {n}"), { n: s.side + 1 }) + " — " + (s.player ? D.displayName(s.player) : _("free"));
      var item = el("li", { class: "setup-seat" }, [el("span", { text: label })]);
      if (!s.player && S.me && mine === null) {
        item.appendChild(el("button", { type: "button", "data-seat": s.seat, text: _("Sit here"),
          onclick: function () { takeSeat(s.seat); } }));
      }
      if (!s.player && isHost) {
        item.appendChild(el("button", { type: "button", class: "bot", "data-bot-seat": s.seat, text: _("Seat a computer player"),
          onclick: function () { seatBot(s.seat); } }));
      }
      if (s.player && isHost && s.player_id !== S.me.id) {
        item.appendChild(el("button", { type: "button", class: "danger", text: _("Remove"),
          onclick: function () { removeSeat(s.seat); } }));
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
    D.api("POST", tablePath() + "/seats", body).then(setTable).catch(fail);
  }
  function seatBot(seat) {
    D.api("POST", tablePath() + "/bots", { seat: seat }).then(setTable).catch(fail);
  }
  function removeSeat(seat) {
    D.api("DELETE", tablePath() + "/seats/" + seat).then(setTable).catch(fail);
  }
  $("leave-seat").addEventListener("click", function () {
    D.api("DELETE", tablePath() + "/seats/me").then(setTable).catch(fail);
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

  // ---- the socket --------------------------------------------------------------------
  function ensureSocket() {
    if (S.socket) { return; }
    if (!S.table.public && S.seat === null) { return; } // private tables cannot be watched
    var path = EP.table_ws.replace("{id}", encodeURIComponent(tableId));
    S.socket = new D.LiveSocket(path, {
      onopen: function (sock) {
        sock.send({ type: "hello", last_event: S.lastSeq });
        // An action sent just before the connection dropped may or may not have landed: send it
        // again with the same id, which the server applies at most once (docs/protocol.md).
        Object.keys(S.pending).forEach(function (id) {
          var p = S.pending[id];
          if (Date.now() - p.at < 30000) { sock.send({ type: "action", id: id, action: p.action }); }
          else { delete S.pending[id]; }
        });
      },
      onmessage: onMessage,
      // Our seat at a private table is gone (left or removed): the REST table shows the free seats;
      // taking one opens a new socket.
      onrefused: function (code) {
        S.socket = null;
        if (code === 4403) { S.seat = null; loadTable().catch(fail); }
      }
    });
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        S.seat = msg.seat;
        // A fresh page (nothing seen yet) asks once more for the last events, to fill the log.
        if (!msg.resume && S.lastSeq === null && !S.historyAsked && msg.last_event > 0) {
          S.historyAsked = true;
          S.historyFrom = Math.max(0, msg.last_event - HISTORY);
        }
        setTable(msg.table);
        break;
      case "view":
        S.lastSeq = msg.seq;
        S.table = msg.table;
        if (msg.seat !== null && msg.seat !== undefined) { S.seat = msg.seat; }
        S.view = msg.view;
        $("setup").hidden = msg.table.status !== "open";
        $("board").hidden = msg.table.status === "open" || !msg.view;
        if (msg.table.status === "open") { renderSetup(); }
        if (msg.view) { render(); }
        showRematch();
        if (S.historyFrom !== null && S.socket) {
          S.socket.send({ type: "hello", last_event: S.historyFrom });
          S.historyFrom = null;
          S.historyUpTo = S.lastSeq;
        }
        break;
      case "event":
        // Events up to what the page has already shown are history: the log only, no dialogs.
        var old = S.lastSeq !== null && msg.seq <= S.lastSeq;
        if (old && S.historyUpTo !== null && msg.seq > S.historyUpTo) { break; } // already shown live
        if (!old) { S.lastSeq = msg.seq; }
        onEvent(msg.event, old);
        break;
      case "ack":
        delete S.pending[msg.id];
        break;
      case "error":
        if (msg.id) { delete S.pending[msg.id]; }
        showError(msg.code);
        break;
      case "table":
        setTable(msg.table);
        break;
      default:
        break;
    }
  }

  function send(action) {
    S.actionNo += 1;
    var id = "a" + Date.now().toString(36) + "-" + S.actionNo;
    showError(null);
    if (!S.socket || !S.socket.send({ type: "action", id: id, action: action })) {
      $("error").textContent = _("Not connected. Try again when the connection is back.");
      return;
    }
    S.pending[id] = { action: action, at: Date.now() };
  }

  // ---- events: the log, the summaries ---------------------------------------------
  function log(text) {
    var list = $("log");
    list.appendChild(typeof text === "string" ? el("li", { text: text }) : text);
    while (list.childNodes.length > 200) { list.removeChild(list.firstChild); }
    list.scrollTop = list.scrollHeight;
  }

  function auto(ev, text) { return ev.auto ? text + " " + _("(automatic)") : text; }

  // In a right-to-left page a name inside a log line is isolated (FSI … PDI), so a Latin name
  // keeps its own direction and the line's punctuation stays in place.
  var RTL = document.documentElement.dir === "rtl";
  function iso(text) { return RTL ? "\u2068" + text + "\u2069" : text; }

  function onEvent(ev, old) {
    var who = ev.seat !== undefined ? iso(playerName(ev.seat)) : "";
    switch (ev.type) {
      case "match_started": log(_("The match begins.")); break;
      case "commitment": log(_("The pack is shuffled and sealed.")); break;
      case "cut":
        log(auto(ev, fmt(_("{name} cuts at {at} and draws the {card}."), { name: who, at: ev.at, card: D.cardName(ev.drawn) })));
        break;
      case "deal":
        log(auto(ev, fmt(ev.choice === "keep" ? _("{name} keeps the drawn card.") : _("{name} puts the drawn card on the table."), { name: who })));
        S.lastLaid = null; S.refusedRedeal = false;
        break;
      case "deal_more": log(_("Three more cards for each player.")); break;
      case "play":
        if (!ev.capture || !ev.capture.length) {
          S.lastLaid = ev.card;
          log(auto(ev, fmt(_("{name} lays the {card}."), { name: who, card: D.cardName(ev.card) })));
        } else {
          S.lastLaid = null;
          log(auto(ev, fmt(_("{name} plays the {card} and takes {cards}."), { name: who, card: D.cardName(ev.card), cards: D.cardPhrase(ev.capture) })));
        }
        if (ev.chkobba) { log(fmt(_("Chkobba for {name}!"), { name: who })); }
        break;
      case "claim":
        S.lastLaid = null;
        log(fmt(_("{name} claims a missed capture: the {card} with {cards}."), { name: who, card: D.cardName(ev.card), cards: D.cardPhrase(ev.capture) }));
        if (ev.chkobba) { log(fmt(_("Chkobba for {name}!"), { name: who })); }
        break;
      case "redeal_proposed": log(fmt(_("{name} proposes a redeal."), { name: who })); break;
      case "redeal_answered":
        log(auto(ev, fmt(ev.accept ? _("{name} accepts the redeal.") : _("{name} refuses the redeal."), { name: who })));
        if (!ev.accept && S.seat !== null && ev.seat % 2 !== S.seat % 2) { S.refusedRedeal = true; }
        break;
      case "round_over":
        S.lastLaid = null;
        log(_("The round is over."));
        if (!old) { showRoundSummary(ev.result, ev.scores); }
        break;
      case "game_over":
        var line = gameResultText(ev.game, ev.winner, ev.scores, ev.games_won[ev.winner] < gamesToWin());
        log(line);
        if (!old && $("summary").open) { $("summary-body").appendChild(el("p", { class: "result game-result", text: line })); }
        break;
      case "forfeit": log(auto(ev, fmt(_("{name} leaves the match: that side forfeits."), { name: who }))); break;
      case "match_over":
        log(matchResultText(ev.winner));
        if (!old) { showMatchOver(ev); }
        break;
      case "reveal":
        log(_("The decks are revealed: the match record can now be checked."));
        if (!old) { showRecordLink(); }
        break;
      case "player_away": if (ev.seat !== S.seat) { log(fmt(_("{name} is away."), { name: who })); } break;
      case "player_back": if (ev.seat !== S.seat) { log(fmt(_("{name} is back."), { name: who })); } break;
      case "chat": log(iso(ev.name) + ": " + ev.text); break;
      case "rematch":
        log(fmt(_("{name} asks for a rematch."), { name: who }));
        if (S.table) { S.table.rematch = ev.table; showRematch(); }
        break;
      default: break;
    }
  }

  // The rematch (docs/protocol.md): once any player asked, the finished table's info carries its
  // id and every player sees "Join the rematch"; a spectator of a public table may watch it.
  function showRematch() {
    var t = S.table;
    if (!t || t.status !== "over") { return; }
    var me = S.seat !== null && S.seat !== undefined;
    ["rematch-btn", "rematch-board"].forEach(function (id) {
      var b = $(id);
      b.textContent = t.rematch ? _("Join the rematch") : _("Rematch");
      b.classList.toggle("primary", !!t.rematch);
      b.hidden = !me;
    });
    var watch = $("rematch-watch");
    watch.hidden = me || !t.rematch || !t.public;
    if (t.rematch) { watch.href = "/t/" + encodeURIComponent(t.rematch); }
  }

  function winnerText(side) { return side === null || side === undefined ? _("Baji (tie): nobody") : sideName(side); }

  // What each round category means (R26, R27), shown as a legend and as the rows' titles.
  function categoryHelp() {
    return {
      karta: _("Karta: 1 point to the side with more cards."),
      dinari: _("Dinari: 1 point to the side with more ♦ diamonds."),
      barmila: _("Barmila: 1 point to the side with more 7s; if tied, more 6s."),
      sabaa: _("Sab'a l-hayya: 1 point to the side holding the 7 of diamonds."),
      baji: _("Baji: a tie; the point goes to nobody.")
    };
  }

  function roundTable(r, scores) {
    // The viewer's own side comes first; a spectator reads side 1 then side 2, by names.
    var order = seated() ? [S.seat % 2, 1 - S.seat % 2] : [0, 1];
    var help = categoryHelp();
    var head = el("tr", null, [el("th", { scope: "col", text: "" })].concat(order.map(function (side) {
      return el("th", { scope: "col", text: sideName(side) });
    })));
    function row(label, values, title) {
      return el("tr", title ? { title: title } : null, [el("th", { scope: "row", text: label })].concat(order.map(function (side) {
        return el("td", { text: String(values[side]) });
      })));
    }
    var t = el("table", { class: "summary-table" }, [el("thead", null, [head]), el("tbody", null, [
      row(_("Cards"), r.cards, help.karta), row(_("♦ Diamonds"), r.dinari_cards, help.dinari),
      row(_("Sevens"), r.sevens, help.barmila), row(_("Sixes"), r.sixes, help.barmila),
      row(_("Chkobba"), r.chkobbas), row(_("Points"), r.points),
      scores ? row(_("Total"), scores) : null
    ])]);
    function cat(key, label) {
      // One entry, so French can put its narrow no-break space before the colon.
      return el("li", { title: help[key], "data-category": key },
        [fmt(_("{category}: {winner}"), { category: label, winner: winnerText(r[key]) })]);
    }
    var cats = el("ul", { class: "categories" }, [
      cat("karta", _("Karta")), cat("dinari", _("Dinari")), cat("barmila", _("Barmila")), cat("sabaa", _("Sab'a l-hayya"))
    ]);
    var legend = el("ul", { class: "legend hint" }, ["karta", "dinari", "barmila", "sabaa", "baji"].map(function (k) {
      return el("li", { text: help[k] });
    }));
    return el("div", null, [t, cats, legend]);
  }

  function openDialog(title, body) {
    $("summary-h").textContent = title;
    var holder = $("summary-body");
    holder.textContent = "";
    holder.appendChild(body);
    var d = $("summary");
    if (!d.open) { d.showModal(); }
    $("summary-close").focus();
  }

  function showRoundSummary(r, scores) {
    var title = fmt(_("Round {round} of game {game}"), { round: r.round, game: r.game });
    openDialog(title, roundTable(r, scores));
  }

  function showMatchOver(ev) {
    // The last round's summary (with its Total row and the game's result) stays under the result.
    var kept = $("summary").open ? Array.prototype.slice.call($("summary-body").childNodes) : [];
    var first = seated() ? S.seat % 2 : 0;
    var wrap = el("div", null, [
      el("p", { class: "result", text: fmt(_("Games won: {a} to {b}"), { a: ev.games_won[first], b: ev.games_won[1 - first] }) }),
      ev.reason === "forfeit" ? el("p", { text: _("The match ended by forfeit.") }) : null
    ].concat(kept));
    openDialog(matchResultText(ev.winner), wrap);
    showRematch();
  }

  function showRecordLink() {
    if (S.seat === null || S.seat === undefined) { return; }
    ["record-link", "record-board"].forEach(function (id) {
      var a = $(id);
      a.href = tablePath() + "/record";
      a.setAttribute("download", "dineri-" + tableId + ".json");
      a.hidden = false;
    });
    showRematch();
  }

  $("summary-close").addEventListener("click", function () { $("summary").close(); });
  $("last-round-btn").addEventListener("click", function () {
    var v = S.view, r = v.rounds[v.rounds.length - 1];
    // A game's score is the sum of its rounds' points (R28), so the totals follow from the rounds.
    var totals = [0, 0];
    v.rounds.forEach(function (x) {
      if (x.game === r.game && x.round <= r.round) { totals[0] += x.points[0]; totals[1] += x.points[1]; }
    });
    showRoundSummary(r, totals);
    // That round ended its game when a later game began or the match ended at a decided score (R31).
    var ended = r.game < v.game || (v.phase === "over" && totals[0] !== totals[1] &&
      Math.max(totals[0], totals[1]) >= v.options.target);
    if (ended) {
      var winner = totals[0] > totals[1] ? 0 : 1;
      $("summary-body").appendChild(el("p", { class: "result game-result",
        text: gameResultText(r.game, winner, totals, r.game < v.game) }));
    }
  });
  function rematch() {
    // The answer is the rematch table; its ``code`` (a private table's invitation code) is read
    // defensively: it may be missing (a public table, or an older server), then the URL has none.
    D.api("POST", tablePath() + "/rematch", {}).then(function (nt) {
      if (!nt || typeof nt.id !== "string" || !nt.id) { fail({ code: "internal" }); return; }
      var code = typeof nt.code === "string" ? nt.code : "";
      location.href = "/t/" + encodeURIComponent(nt.id) + (code ? "?code=" + encodeURIComponent(code) : "");
    }).catch(fail);
  }
  $("rematch-btn").addEventListener("click", rematch);
  $("rematch-board").addEventListener("click", rematch);

  // ---- rendering the board ---------------------------------------------------------
  function rel(seat) { return (seat - (S.seat === null || S.seat === undefined ? 0 : S.seat) + n()) % n(); }
  var POS = { 2: ["bottom", "top"], 4: ["bottom", "right", "top", "left"] };

  function seatBox(seat) {
    var v = S.view, info = S.table.seats[seat] || {};
    var badges = [];
    if (v.dealer === seat) { badges.push(el("span", { class: "badge dealer", text: _("Dealer") })); }
    if (v.turn === seat && v.phase !== "over") { badges.push(el("span", { class: "badge turn", text: _("To play") })); }
    if (info.away) { badges.push(el("span", { class: "badge away", text: _("Away") })); }
    var rc = S.table.running_clock;
    if (rc && rc.seat === seat) { badges.push(el("span", { class: "badge clock", "data-expires": rc.expires_at, text: "" })); }
    var head = el("div", { class: "seat-head" }, [
      el("strong", { class: "seat-name", text: playerName(seat) }),
      el("span", { class: "side-tag side-" + (seat % 2),
        text: seated() ? sideName(seat % 2) : fmt(_("side {n}"), { n: seat % 2 + 1 }) })
    ].concat(badges));
    var box = el("div", { class: "seat pos-" + POS[n()][rel(seat)] + (v.turn === seat ? " on-turn" : ""), "data-seat": seat }, [head]);
    if (seat !== S.seat) {
      var count = v.hand_sizes[seat] || 0;
      var backs = el("div", { class: "backs", role: "img", "aria-label": fmt(ngettext("{n} card in hand", "{n} cards in hand", count), { n: count }) }, []);
      for (var i = 0; i < count; i++) { backs.appendChild(D.cardImg(null)); }
      backs.appendChild(el("span", { class: "count", "aria-hidden": "true",
        text: fmt(ngettext("{n} card", "{n} cards", count), { n: count }) }));
      box.appendChild(backs);
    }
    return box;
  }

  function cardButton(code, zone, pressed, extraLabel) {
    var label = D.cardName(code) + (extraLabel ? " (" + extraLabel + ")" : "");
    var b = el("button", { type: "button", class: "card" + (pressed ? " picked" : "") + (extraLabel ? " just-laid" : ""),
      "data-card": code, "data-zone": zone, "aria-pressed": pressed ? "true" : "false", "aria-label": label,
      onclick: function () { toggle(zone, code); } }, [D.cardImg(code)]);
    return el("li", null, [b]);
  }

  function toggle(zone, code) {
    if (zone === "hand") { S.hand = S.hand === code ? null : code; }
    else {
      var i = S.picked.indexOf(code);
      if (i >= 0) { S.picked.splice(i, 1); } else { S.picked.push(code); }
    }
    showError(null);
    render();
    var again = document.querySelector('.card[data-zone="' + zone + '"][data-card="' + code + '"]');
    if (again) { again.focus(); }
  }

  function pileBox(side) {
    var v = S.view;
    var cards = el("ul", { class: "cards mini", "aria-label": _("Chkobba cards") }, v.chkobba_cards[side].map(function (c) {
      return el("li", { role: "img", "aria-label": D.cardName(c) }, [D.cardImg(c)]);
    }));
    return el("div", { class: "pile-box side-" + side }, [
      el("div", { class: "pile-title", text: sideName(side) }),
      el("div", { class: "pile-count", text: fmt(ngettext("Pile: {n} card", "Pile: {n} cards", v.captured[side]), { n: v.captured[side] }) }),
      el("div", { text: fmt(_("Chkobbas: {n}"), { n: v.chkobbas[side] }) }), cards
    ]);
  }

  function canProposeRedeal(v) {
    if (v.phase !== "play" || v.pending_redeal || S.refusedRedeal || S.seat === null) { return false; }
    if (v.table.length !== 4 || v.deck_left !== 40 - 4 - 3 * n()) { return false; }
    if (!v.hand_sizes.every(function (h) { return h === 3; })) { return false; }
    var counts = {};
    v.table.forEach(function (c) { var k = D.cardValue(c); counts[k] = (counts[k] || 0) + 1; });
    return Object.keys(counts).some(function (k) { return counts[k] >= 3; });
  }

  function render() {
    var v = S.view;
    if (!v || !S.table) { return; }
    // Cards are rebuilt on every view: keep the keyboard focus on the same card if it is still there.
    var active = document.activeElement;
    var focusZone = active && active.getAttribute && active.getAttribute("data-zone");
    var focusCard = focusZone ? active.getAttribute("data-card") : null;
    var wasMyTurn = document.body.dataset.turn === String(S.seat);
    var me = S.seat !== null && S.seat !== undefined;
    var hand = me ? v.hand : [];
    if (S.hand && hand.indexOf(S.hand) < 0) { S.hand = null; }
    S.picked = S.picked.filter(function (c) { return v.table.indexOf(c) >= 0; });
    if (S.lastLaid && v.table.indexOf(S.lastLaid) < 0) { S.lastLaid = null; }

    // Score bar: game, round, scores, games won, target.
    var o = v.options;
    $("scorebar").textContent = "";
    $("scorebar").appendChild(el("div", { class: "score-line" }, [
      el("span", { text: fmt(_("Game {game} · Round {round}"), { game: v.game, round: v.round }) }),
      el("span", { text: fmt(_("to {n} points"), { n: o.target }) + (o.best_of > 1 ? " · " + fmt(_("best of {n} games"), { n: o.best_of }) : "") })
    ]));
    // Your own side first, as in the round summary and the piles.
    (me ? [S.seat % 2, 1 - S.seat % 2] : [0, 1]).forEach(function (side) {
      $("scorebar").appendChild(el("div", { class: "score side-" + side, "data-side": side }, [
        el("strong", { text: sideName(side) }),
        el("span", { class: "points", text: fmt(_("Score: {n}"), { n: v.scores[side] }) }),
        el("span", { text: fmt(_("Games won: {n}"), { n: v.games_won[side] }) })
      ]));
    });

    $("last-round-btn").hidden = !(v.rounds && v.rounds.length);

    // Seats.
    var opp = $("opponents");
    opp.textContent = "";
    for (var s = 0; s < n(); s++) { if (!me || s !== S.seat) { opp.appendChild(seatBox(s)); } }

    // Pack, table, piles.
    $("pack").textContent = "";
    $("pack").appendChild(el("div", { class: "pack-box", role: "img", "aria-label": fmt(_("Cards left in the pack: {n}"), { n: v.deck_left }) }, [
      D.cardImg(null), el("span", { class: "count", "aria-hidden": "true", text: String(v.deck_left) })
    ]));
    if (v.drawn) {
      $("pack").appendChild(el("div", { class: "drawn", role: "img", "aria-label": fmt(_("Drawn card: {card}"), { card: D.cardName(v.drawn) }) }, [D.cardImg(v.drawn)]));
    }
    var tc = $("table-cards");
    tc.textContent = "";
    v.table.forEach(function (c) {
      tc.appendChild(cardButton(c, "table", S.picked.indexOf(c) >= 0, c === S.lastLaid ? _("just laid") : ""));
    });
    var mySide = me ? S.seat % 2 : 0;
    $("pile-us").textContent = ""; $("pile-us").appendChild(pileBox(mySide));
    $("pile-them").textContent = ""; $("pile-them").appendChild(pileBox(1 - mySide));

    // My seat and hand.
    var mine = $("me");
    mine.textContent = "";
    if (me) {
      var box = seatBox(S.seat);
      var hl = el("ul", { class: "cards hand", "aria-label": _("Your hand") }, []);
      hand.forEach(function (c) { hl.appendChild(cardButton(c, "hand", S.hand === c, "")); });
      box.appendChild(hl);
      mine.appendChild(box);
    } else {
      mine.appendChild(el("p", { class: "hint", text: _("You are watching this table.") }));
    }

    // Controls for this phase.
    var myTurn = me && v.turn === S.seat;
    $("cut-controls").hidden = !(myTurn && v.phase === "cut");
    $("choice-controls").hidden = !(myTurn && v.phase === "cut_choice");
    if (v.drawn) { $("drawn-label").textContent = fmt(_("Drawn card: {card}"), { card: D.cardName(v.drawn) }); }
    $("redeal-answer").hidden = !(me && v.phase === "redeal_vote" && v.pending_redeal && v.pending_redeal.proposer % 2 !== S.seat % 2);
    $("play-controls").hidden = !(myTurn && v.phase === "play");
    $("redeal-btn").hidden = !canProposeRedeal(v);
    $("forfeit-btn").hidden = !me || v.phase === "over";
    $("chat-form").hidden = !me;
    if (me && v.phase === "over") { showRecordLink(); }

    var sel = [];
    if (S.hand) { sel.push(fmt(_("Your card: {card}"), { card: D.cardName(S.hand) })); }
    if (S.picked.length) { sel.push(fmt(_("Table cards selected: {cards}"), { cards: cardsText(S.picked) })); }
    $("selection").textContent = sel.join(" · ");
    $("status").textContent = statusText(v, me);
    // Public state as data attributes, for tests and styling (nothing the page may not show).
    var ds = document.body.dataset;
    ds.phase = v.phase; ds.turn = v.turn === null ? "" : String(v.turn);
    ds.table = v.table.join(","); ds.hand = hand.join(","); ds.seq = String(S.lastSeq);
    ds.drawn = v.drawn || "";
    ds.winner = v.winner === null || v.winner === undefined ? "" : String(v.winner);
    tickClock();
    var again = focusCard && document.querySelector('.card[data-zone="' + focusZone + '"][data-card="' + focusCard + '"]');
    if (again) { again.focus(); }
    else if (myTurn && !wasMyTurn && v.phase === "play" && (!active || active === document.body || focusZone)) {
      var first = document.querySelector('.card[data-zone="hand"]');
      if (first) { first.focus(); }
    }
  }

  function statusText(v, me) {
    var who = v.turn !== null && v.turn !== undefined ? playerName(v.turn) : "";
    var mine = me && v.turn === S.seat;
    switch (v.phase) {
      case "cut": return mine ? _("Your cut: pick a position or cut at random.") : fmt(_("{name} cuts the pack."), { name: who });
      case "cut_choice": return mine ? _("Keep the drawn card, or put it on the table?") : fmt(_("{name} chooses: keep the drawn card or put it on the table."), { name: who });
      case "redeal_vote": return fmt(_("A redeal is proposed; waiting for {name}."), { name: who });
      case "play": return mine ? _("Your turn: select a card from your hand and the table cards it takes, or lay it.") : fmt(_("{name} is playing."), { name: who });
      case "over": return matchResultText(v.winner);
      default: return _("Waiting for the deal.");
    }
  }

  function tickClock() {
    var now = Date.now() / 1000;
    document.querySelectorAll(".badge.clock").forEach(function (b) {
      var left = Math.max(0, Math.round(parseFloat(b.getAttribute("data-expires")) - now));
      b.textContent = fmt(_("{n} s left"), { n: left });
    });
  }
  setInterval(tickClock, 1000);

  // ---- actions -------------------------------------------------------------------------
  function capture() {
    if (!S.hand) { $("error").textContent = _("Select a card from your hand first."); return; }
    if (!S.picked.length) { $("error").textContent = _("Select the table cards to take, or lay the card."); return; }
    // The selection stays: a refused capture can be fixed; an accepted one leaves the hand and
    // the table, and render() drops cards that are gone.
    send({ type: "play", card: S.hand, capture: S.picked.slice() });
  }
  function lay() {
    if (!S.hand) { $("error").textContent = _("Select a card from your hand first."); return; }
    if (S.picked.length) { $("error").textContent = _("To lay a card, clear the table cards you selected."); return; }
    send({ type: "play", card: S.hand, capture: [] });
  }
  function claim() {
    var laid = S.lastLaid;
    if (!laid || S.picked.indexOf(laid) < 0) {
      $("error").textContent = _("To claim, select the card just laid and the table cards it could have taken.");
      return;
    }
    var rest = S.picked.filter(function (c) { return c !== laid; });
    if (!rest.length) { $("error").textContent = _("Also select the table cards it could have taken."); return; }
    send({ type: "claim", card: laid, capture: rest });
  }
  function clearSel() { S.hand = null; S.picked = []; showError(null); render(); }

  $("capture-btn").addEventListener("click", capture);
  $("lay-btn").addEventListener("click", lay);
  $("claim-btn").addEventListener("click", claim);
  $("clear-btn").addEventListener("click", clearSel);
  $("redeal-btn").addEventListener("click", function () { send({ type: "propose_redeal" }); });
  $("redeal-accept").addEventListener("click", function () { send({ type: "answer_redeal", accept: true }); });
  $("redeal-refuse").addEventListener("click", function () { send({ type: "answer_redeal", accept: false }); });
  $("cut-btn").addEventListener("click", function () {
    var raw = $("cut-at").value.trim();
    var at = parseInt(raw, 10);
    if (!/^\d+$/.test(raw) || at < 0 || at > 39) { $("error").textContent = _("Choose a cut position from 0 to 39."); return; }
    send({ type: "cut", at: at });
  });
  $("cut-at").addEventListener("keydown", function (e) { if (e.key === "Enter") { $("cut-btn").click(); } });
  $("cut-random").addEventListener("click", function () { send({ type: "cut", at: null }); });
  $("keep-btn").addEventListener("click", function () { send({ type: "keep" }); });
  $("table-btn").addEventListener("click", function () { send({ type: "table" }); });
  $("forfeit-btn").addEventListener("click", function () {
    if (window.confirm(_("Leave the match? Your side forfeits."))) { send({ type: "forfeit" }); }
  });

  $("chat-form").addEventListener("submit", function (e) {
    e.preventDefault();
    // Control characters are refused by the server; strip them here (R: every user string checked).
    var text = $("chat-input").value.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim();
    if (!text || !S.socket) { return; }
    if (S.socket.send({ type: "chat", text: text.slice(0, 200) })) { $("chat-input").value = ""; }
  });

  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if ($("play-controls").hidden) { return; }
    var k = e.key.toLowerCase();
    if (k === "c") { e.preventDefault(); capture(); }
    else if (k === "l") { e.preventDefault(); lay(); }
    else if (k === "m") { e.preventDefault(); claim(); }
    else if (k === "escape") { clearSel(); }
  });

  // ---- start -------------------------------------------------------------------------
  D.whoAmI().then(function (me) { S.me = me; }, function () { S.me = null; })
    .then(loadTable)
    .catch(function (e) { $("status").textContent = explain(e.code); });
})();
