/* Dineri browser client: Four-card Golf's module of the table page (docs/web.md, rules G1–G15).
 * Draws each player's four cards in two rows (face down: the page never has a face-down card,
 * G7), the stock, the discard pile and the card in hand, the knock and the last turns, the round
 * scores with every hand turned up, and turns clicks and keys into actions. The two bottom cards
 * come once, in the peek's private event (G6): they are shown for a few seconds and forgotten. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, ngettext = D.ngettext, fmt = D.fmt, el = D.el;
  var $ = function (id) { return document.getElementById(id); };
  var PEEK_MS = 5000;

  // The record page's refusal codes (match-record-golf4.md), in the page's language.
  D.addErrors({
    already_peeked: _("You have already looked at your cards, or declined, this round."),
    already_holding: _("You already hold a card: swap it into a slot or discard it."),
    already_knocked: _("Someone has already knocked this round: draw or take the discard."),
    nothing_held: _("Draw from the stock or take the discard first."),
    cannot_discard_taken: _("A card taken from the discard pile cannot be discarded: swap it into a slot."),
    stock_empty: _("The stock is empty."),
    already_forfeited: _("You have already left this match.")
  });

  // The module's memory: the peek being shown (forgotten when its time is up), the context.
  var M = { peek: null, peekTimer: null, ctx: null };

  // A slot by its number and place (G5: slot 0 top left ... 3 bottom right, a physical picture never
  // mirrored, numbered 1 to 4 as on the cards and the keys 1-4): "slot 1 (top left)", so the
  // number a right-to-left reader sees on the card and the place named agree.
  function slotName(slot) {
    return [_("slot 1 (top left)"), _("slot 2 (top right)"), _("slot 3 (bottom left)"), _("slot 4 (bottom right)")][slot];
  }
  function out(v, seat) { return (v.forfeited || []).indexOf(seat) >= 0; }
  function names(seats, ctx) { return D.joinList(seats.map(function (s) { return ctx.iso(ctx.playerName(s)); })); }

  function optionsText(t) {
    var o = t.options;
    return [
      fmt(ngettext("{n} player", "{n} players", o.seats), { n: o.seats }),
      fmt(ngettext("{n} round", "{n} rounds", o.rounds), { n: o.rounds }),
      t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock"),
      t.public ? _("public") : _("private")
    ].join(" · ");
  }

  /** The seats the game waits on: in the peek every seat still in that has not answered (G6). */
  function toAct(v) {
    if (v.phase === "peek") {
      var s = [];
      (v.peeks || []).forEach(function (p, i) { if (p === null && !out(v, i)) { s.push(i); } });
      return s;
    }
    return v.phase === "play" && v.turn !== null && v.turn !== undefined ? [v.turn] : [];
  }

  function winnersText(winners, ctx) {
    if (!winners || !winners.length) { return _("The match is over."); }
    if (ctx.me && winners.indexOf(ctx.seat) >= 0) {
      return winners.length > 1 ? _("You share the win!") : _("You win the match!");
    }
    var text = winners.length > 1 ? fmt(_("{names} share the win."), { names: names(winners, ctx) })
      : fmt(_("{name} wins the match."), { name: ctx.iso(ctx.playerName(winners[0])) });
    return ctx.me ? text + " " + _("You lose the match.") : text;
  }

  // ---- events ----------------------------------------------------------------------------
  function describeEvent(ev, ctx) {
    var who = ev.seat !== undefined ? ctx.iso(ctx.playerName(ev.seat)) : "";
    var auto = ctx.auto;
    switch (ev.type) {
      case "deal": return fmt(_("Round {round}: {name} deals; the {card} starts the discard pile."),
        { round: ev.round, name: ctx.iso(ctx.playerName(ev.dealer)), card: D.cardName(ev.discard) });
      case "peek": return auto(ev, fmt(_("{name} looks at their two bottom cards."), { name: who }));
      case "skip_peek": return auto(ev, fmt(_("{name} does not look."), { name: who }));
      case "peek_cards": return null; // never in the log: the cards are shown for a moment only (G6, G7)
      case "turn": return null;
      case "draw": return auto(ev, fmt(_("{name} draws a card."), { name: who }));
      case "take": return auto(ev, fmt(_("{name} takes the {card}."), { name: who, card: D.cardName(ev.card) }));
      case "swap": return auto(ev, fmt(_("{name} puts a card into {slot}; the {card} goes on the discard pile."),
        { name: who, slot: slotName(ev.slot), card: D.cardName(ev.card) }));
      case "discard": return auto(ev, fmt(_("{name} discards the {card}."), { name: who, card: D.cardName(ev.card) }));
      case "knock": return fmt(_("{name} knocks! Everyone else has one last turn."), { name: who });
      case "reshuffle": return _("The stock is empty: the discards are shuffled into a new stock.");
      case "round_over": return fmt(_("Round {round} is over."), { round: ev.round });
      case "forfeit": return auto(ev, fmt(_("{name} leaves the match and cannot win."), { name: who }));
      case "match_over": return winnersText(ev.winners, ctx);
      default: return undefined;
    }
  }

  function onEvent(ev, ctx, old) {
    switch (ev.type) {
      case "peek_cards":
        // Live only (never resent, never in history): show the two cards for a few seconds.
        if (old || !ctx.me || !ctx.view) { return; }
        M.peek = { round: ctx.view.round, slots: ev.slots, until: Date.now() + PEEK_MS };
        clearTimeout(M.peekTimer);
        M.peekTimer = setTimeout(function () { M.peek = null; ctx.render(); }, PEEK_MS);
        ctx.render();
        break;
      case "deal": M.peek = null; break;
      case "round_over": if (!old) { showRound(ev, ev.totals, ctx); } break;
      case "match_over": if (!old) { showMatchOver(ev, ctx); } break;
      default: break;
    }
  }

  // ---- summaries -----------------------------------------------------------------------
  function handCells(hand) {
    return el("div", { class: "g4-hand", role: "img", "aria-label": D.joinList(hand.map(D.cardName)) },
      hand.map(function (c) { return D.cardImg(c); }));
  }

  // A phone (issue 13, the fresh Arabic trial at 360 px: six columns clipped «المجموع» and drew the
  // cards 18 px wide): each player's cards get a row of their own under the numbers, four across,
  // so the table has five narrow columns and the cards are big enough to read.
  function narrowScreen() { return !!(window.matchMedia && window.matchMedia("(max-width: 420px)").matches); }

  function roundTableNarrow(r, totals, ctx) {
    var head = el("tr", null, [_("Player"), _("Score"), _("Penalty"), _("Points"), _("Total")].map(function (h) {
      return el("th", { scope: "col", text: h });
    }));
    var rows = [];
    r.hands.forEach(function (hand, seat) {
      var name = ctx.playerName(seat) + (r.knocker === seat ? " · " + _("knocked") : "");
      rows.push(el("tr", { "data-seat": seat }, [
        el("th", { scope: "row", text: name }),
        el("td", { text: String(r.cards[seat]) }), el("td", { text: r.penalty[seat] ? "+" + r.penalty[seat] : "" }),
        el("td", { text: String(r.points[seat]) }), el("td", { text: totals ? String(totals[seat]) : "" })
      ]));
      rows.push(el("tr", { class: "g4-hand-row", "data-hand-of": seat }, [el("td", { colspan: "5" }, [handCells(hand)])]));
    });
    return el("table", { class: "summary-table g4-scores g4-narrow" }, [el("thead", null, [head]), el("tbody", null, rows)]);
  }

  function roundTable(r, totals, ctx) {
    if (narrowScreen()) { return roundTableNarrow(r, totals, ctx); }
    var head = el("tr", null, [_("Player"), _("Cards"), _("Score"), _("Penalty"), _("Points"), _("Total")].map(function (h) {
      return el("th", { scope: "col", text: h });
    }));
    var rows = r.hands.map(function (hand, seat) {
      var name = ctx.playerName(seat) + (r.knocker === seat ? " · " + _("knocked") : "");
      return el("tr", { "data-seat": seat }, [
        el("th", { scope: "row", text: name }), el("td", null, [handCells(hand)]),
        el("td", { text: String(r.cards[seat]) }), el("td", { text: r.penalty[seat] ? "+" + r.penalty[seat] : "" }),
        el("td", { text: String(r.points[seat]) }), el("td", { text: totals ? String(totals[seat]) : "" })
      ]);
    });
    return el("table", { class: "summary-table g4-scores" }, [el("thead", null, [head]), el("tbody", null, rows)]);
  }

  function showRound(r, totals, ctx) {
    var body = el("div", null, [el("div", { class: "g4-scroll" }, [roundTable(r, totals, ctx)])]);
    var k = r.knocker;
    if (k !== null && k !== undefined && r.penalty[k]) {
      body.appendChild(el("p", { class: "hint", text: fmt(_("{name} knocked without the lowest score: 10 penalty points."),
        { name: ctx.playerName(k) }) }));
    }
    ctx.openDialog(fmt(_("Round {round} of {rounds}"), { round: r.round, rounds: ctx.table.options.rounds }), body);
  }

  function showMatchOver(ev, ctx) {
    // After a forfeit the open dialog holds an old round's table, not the result (issue 13).
    var forfeit = ev.reason === "forfeit";
    var kept = ctx.dialogOpen() && !forfeit ? Array.prototype.slice.call(ctx.dialogBody().childNodes) : [];
    var order = ev.totals.map(function (t, s) { return s; }).sort(function (a, b) { return ev.totals[a] - ev.totals[b]; });
    var list = el("ol", { class: "g4-final" }, order.map(function (s) {
      var outText = (ctx.view && out(ctx.view, s)) ? " · " + _("left the match") : "";
      return el("li", { "data-seat": s, text: fmt(ngettext("{name}: {n} point", "{name}: {n} points", ev.totals[s]), { name: ctx.playerName(s), n: ev.totals[s] }) + outText });
    }));
    var wrap = el("div", null, [forfeit ? el("p", { class: "forfeit-line", text: ctx.forfeitText() || _("The match ended by forfeit.") }) : null,
      list].concat(kept));
    ctx.matchOver(winnersText(ev.winners, ctx), wrap);
  }

  function lastRound(ctx) {
    var v = ctx.view, r = v.rounds[v.rounds.length - 1], totals = r.hands.map(function () { return 0; });
    v.rounds.forEach(function (x) { x.points.forEach(function (p, s) { totals[s] += p; }); });
    showRound(r, totals, ctx);
  }

  // ---- drawing ---------------------------------------------------------------------------
  // What a slot shows: face down always, except the peek's two cards for a few seconds (G6) and,
  // once the match is over, the last round's cards turned up (G13).
  function shownCard(seat, slot, v, ctx) {
    if (v.hands && v.hands[seat]) { return v.hands[seat][slot] || null; } // a replay: every hand face up
    if (v.phase === "over" && v.rounds && v.rounds.length) { return v.rounds[v.rounds.length - 1].hands[seat][slot]; }
    var p = M.peek;
    if (p && seat === ctx.seat && p.round === v.round && Date.now() < p.until && (v.phase === "peek" || v.phase === "play")) {
      return p.slots[String(slot)] || null;
    }
    return null;
  }

  function seatContent(seat, v, ctx) {
    var mine = ctx.me && seat === ctx.seat;
    var holding = v.holding && v.phase === "play" && v.turn === ctx.seat;
    var count = (v.cards || [])[seat] || 0;
    var box = el("div", { class: "g4-seat" }, []);
    var badges = el("div", { class: "seat-head g4-badges" }, []);
    if (v.knocker === seat) { badges.appendChild(el("span", { class: "badge knocked", text: _("Knocked") })); }
    if ((v.final_turns || []).indexOf(seat) >= 0) { badges.appendChild(el("span", { class: "badge last-turn", text: _("Last turn") })); }
    if (out(v, seat)) { badges.appendChild(el("span", { class: "badge out", text: _("Out") })); }
    badges.appendChild(el("span", { class: "g4-total", text: fmt(_("Total: {n}"), { n: (v.totals || [])[seat] || 0 }) }));
    box.appendChild(badges);
    if (!count && v.phase !== "over") { return box; }
    var grid = el("ul", { class: "g4-slots" + (mine ? " big" : ""), "data-seat": seat,
      "aria-label": mine ? _("Your four cards") : fmt(_("Cards of {name}"), { name: ctx.playerName(seat) }) }, []);
    for (var slot = 0; slot < 4; slot++) {
      var code = shownCard(seat, slot, v, ctx);
      var label = fmt(_("{slot}: {card}"), { slot: slotName(slot), card: code ? D.cardName(code) : _("face down") });
      var img = D.cardImg(code);
      var item;
      if (mine && holding) {
        item = el("button", { type: "button", class: "card swappable", "data-zone": "slot", "data-card": String(slot),
          "data-slot": slot, "aria-label": fmt(_("Swap into {slot}"), { slot: slotName(slot) }),
          onclick: swapper(slot) }, [img, el("span", { class: "slot-no", "aria-hidden": "true", text: String(slot + 1) })]);
      } else {
        item = el("span", { class: "card" + (code && v.phase !== "over" ? " peeked" : ""), role: "img", "aria-label": label,
          "data-slot": slot, "data-shown": code || "" }, [img]);
      }
      grid.appendChild(el("li", null, [item]));
    }
    box.appendChild(grid);
    return box;
  }

  function swapper(slot) { return function () { M.ctx.send({ type: "swap", slot: slot }); }; }

  function render(v, ctx) {
    var me = ctx.me, myTurn = me && v.phase === "play" && v.turn === ctx.seat;
    var o = v.options;
    // Score bar: the round, then every player's running total (lowest wins, G15).
    var bar = $("scorebar");
    bar.textContent = "";
    bar.appendChild(el("div", { class: "score-line" }, [
      el("span", { text: fmt(_("Round {round} of {rounds}"), { round: v.round, rounds: o.rounds }) + " · " + _("Lowest total wins") })
    ]));
    // Each name in its own <bdi>, so "سامي: 0" never runs into "Alice: 0" (trial item 2).
    var totals = el("div", { class: "g4-totals" }, (v.totals || []).map(function (t, s) {
      var parts = _("{name}: {n}").split("{name}");
      return el("span", { "data-seat": s, class: "g4-total-item" }, [
        fmt(parts[0], { n: t }), el("bdi", { text: ctx.playerName(s) }), fmt(parts.slice(1).join("{name}"), { n: t })]);
    }));
    bar.appendChild(totals);
    if ($("last-round-btn")) { $("last-round-btn").hidden = !(v.rounds && v.rounds.length); }

    // Knock banner: who knocked, who still plays (G10).
    var knock = "";
    if (v.knocker !== null && v.knocker !== undefined && v.phase === "play") {
      knock = fmt(_("{name} knocked. Last turns: {names}."), { name: ctx.iso(ctx.playerName(v.knocker)), names: names(v.final_turns, ctx) });
    }
    if ($("g4-knock")) { $("g4-knock").textContent = knock; }

    // Stock, discard pile, the card in hand.
    var stock = $("g4-stock");
    stock.textContent = "";
    stock.appendChild(el("div", { role: "img", "aria-label": fmt(ngettext("Stock: {n} card", "Stock: {n} cards", v.stock_left), { n: v.stock_left }) }, [D.cardImg(null)]));
    stock.appendChild(el("span", { "aria-hidden": "true", text: fmt(_("Stock: {n}"), { n: v.stock_left }) }));
    var pile = $("g4-discard");
    pile.textContent = "";
    if (v.discard_top) {
      pile.appendChild(el("div", { role: "img", "aria-label": fmt(_("Top discard: {card}"), { card: D.cardName(v.discard_top) }) }, [D.cardImg(v.discard_top)]));
    }
    pile.appendChild(el("span", { text: fmt(_("Discards: {n}"), { n: v.discard_size }) }));
    var held = $("g4-held");
    held.textContent = "";
    var heldCard = v.held || (v.holding && v.holding.card) || null;
    if (v.holding && v.phase === "play") {
      var whose = myTurn ? _("Your card") : fmt(_("{name}'s card"), { name: ctx.playerName(v.turn) });
      var src = v.holding.from === "stock" ? _("drawn from the stock") : _("taken from the discard pile");
      held.appendChild(el("div", { role: "img", "aria-label": whose + " (" + src + ")" + (heldCard ? ": " + D.cardName(heldCard) : "") },
        [D.cardImg(heldCard)]));
      held.appendChild(el("span", { text: whose }));
    }

    // Controls for this moment (the replay page has none).
    if (!ctx.replay && $("peek-controls")) {
      var peeking = me && v.phase === "peek" && v.peeks[ctx.seat] === null;
      $("peek-controls").hidden = !peeking;
      $("turn-controls").hidden = !(myTurn && !v.holding);
      $("knock-btn").hidden = v.knocker !== null && v.knocker !== undefined;
      $("take-btn").textContent = v.discard_top ? fmt(_("Take the {card}"), { card: D.cardName(v.discard_top) }) : _("Take the discard");
      $("take-btn").disabled = !v.discard_top;
      $("draw-btn").disabled = !v.stock_left;
      $("held-controls").hidden = !(myTurn && v.holding);
      $("discard-btn").hidden = !(v.holding && v.holding.from === "stock");
      $("held-hint").textContent = v.holding && v.holding.from === "stock"
        ? _("Choose one of your cards to swap it with, or discard it.")
        : _("Choose one of your cards to swap the taken card with.");
    }

    var ds = ctx.dataset || {};
    ds.round = String(v.round);
    ds.discard = v.discard_top || "";
    ds.held = v.held || "";
    ds.holding = v.holding ? v.holding.from : "";
    ds.knocker = v.knocker === null || v.knocker === undefined ? "" : String(v.knocker);
    ds.totals = (v.totals || []).join(",");
    ds.winners = (v.winners || []).join(",");
    ds.peek = M.peek && Date.now() < M.peek.until ? [M.peek.slots["2"], M.peek.slots["3"]].join(",") : "";
  }

  function statusText(v, ctx) {
    var who = v.turn !== null && v.turn !== undefined ? ctx.iso(ctx.playerName(v.turn)) : "";
    var mine = ctx.me && v.turn === ctx.seat;
    switch (v.phase) {
      case "peek":
        if (ctx.me && v.peeks[ctx.seat] === null) { return _("Look once at your two bottom cards, or don't."); }
        var peekers = toAct(v), who = names(peekers, ctx);  // one player: a singular verb (trial item 5)
        return fmt(ngettext("{names} still has to look at their cards.", "{names} still have to look at their cards.",
          peekers.length), { names: who });
      case "play":
        if (mine && v.holding) {
          return v.holding.from === "stock" ? _("Swap the card you drew into one of your slots, or discard it.")
            : _("Swap the taken card into one of your slots.");
        }
        if (mine) {
          return v.knocker === null || v.knocker === undefined ? _("Your turn: draw from the stock, take the discard, or knock.")
            : _("Your last turn: draw from the stock or take the discard.");
        }
        return fmt(_("{name} is playing."), { name: who });
      case "over": return winnersText(v.winners, ctx);
      default: return _("Shuffling…");
    }
  }

  function init(ctx) {
    M.ctx = ctx;
    var send = function (a) { return function () { ctx.send(a); }; };
    $("peek-btn").addEventListener("click", send({ type: "peek" }));
    $("skip-peek-btn").addEventListener("click", send({ type: "skip_peek" }));
    $("draw-btn").addEventListener("click", send({ type: "draw" }));
    $("take-btn").addEventListener("click", send({ type: "take" }));
    $("knock-btn").addEventListener("click", send({ type: "knock" }));
    $("discard-btn").addEventListener("click", send({ type: "discard" }));
    $("last-round-btn").addEventListener("click", function () { lastRound(ctx); });
  }

  /** D draws, T takes, K knocks, X discards, 1–4 swap into a slot (only when it is your move). */
  function keydown(e, ctx) {
    var k = e.key.toLowerCase();
    if (!$("turn-controls").hidden) {
      if (k === "d") { $("draw-btn").click(); return true; }
      if (k === "t") { $("take-btn").click(); return true; }
      if (k === "k" && !$("knock-btn").hidden) { $("knock-btn").click(); return true; }
    }
    if (!$("held-controls").hidden) {
      if (k === "x" && !$("discard-btn").hidden) { $("discard-btn").click(); return true; }
      if (k >= "1" && k <= "4") { ctx.send({ type: "swap", slot: parseInt(k, 10) - 1 }); return true; }
    }
    return false;
  }

  // ---- replays (docs/web.md): a step's state (the record page's replay output) as a view ----
  function replayViews(data) {
    return data.steps.map(function (step) {
      var st = step.state, pile = st.discard || [];
      var holding = st.held ? (st.held.from === "discard" ? { from: "discard", card: st.held.card } : { from: "stock" }) : null;
      return Object.assign({}, st, {
        options: data.options,
        discard_top: pile.length ? pile[pile.length - 1] : null,
        discard_size: pile.length,
        holding: holding,
        held: st.held ? st.held.card : null,
        cards: st.hands.map(function (h) { return h.length; })
      });
    });
  }

  /** Where each round of the replay begins: ``[{step, label}]``. */
  function replayRounds(views) {
    var out = [], seen = {};
    views.forEach(function (v, i) {
      if (!seen[v.round] && v.phase !== "over" && v.phase !== "shuffle") {
        seen[v.round] = true;
        out.push({ step: i, label: fmt(_("Round {round} of {rounds}"), { round: v.round, rounds: v.options.rounds }) });
      }
    });
    return out;
  }

  D.games.register("golf4", {
    teams: false,
    sideOf: function (seat) { return seat; },
    toAct: toAct,
    optionsText: optionsText,
    describeEvent: describeEvent,
    onEvent: onEvent,
    seatContent: seatContent,
    render: render,
    statusText: statusText,
    init: init,
    keydown: keydown,
    replayViews: replayViews,
    replayRounds: replayRounds,
    paced: ["draw", "take", "swap", "discard", "knock"]
  });
})();
