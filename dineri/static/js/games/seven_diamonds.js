/* Dineri browser client: Seven Diamonds' module of the table page (docs/web.md; rules S1–S16 of
 * docs/rules/seven-diamonds.md). Draws the four suit rows building from 7 to ace, the hands, the
 * bidding and its multiplier, jella and last-card announcements, the round's count and the
 * running scores to 500; turns clicks and keys into actions. Cards that fit are marked only when
 * the player turns that help on (off by default); the server judges every card anyway. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, ngettext = D.ngettext, fmt = D.fmt, el = D.el;
  var $ = function (id) { return document.getElementById(id); };
  var SUITS = ["D", "H", "S", "C"];
  var RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
  var POINTS = { A: 20, K: 10, Q: 10, J: 10 };
  var HINTS_KEY = "dineri.seven_diamonds.hints";

  // The record page's refusal codes (match-record-seven-diamonds.md), in the page's language.
  D.addErrors({
    illegal_call: _("That call is not open now: Double or Pass first, then Three or Pass for the doubler's opponents."),
    illegal_card: _("That card does not fit: play a 7 of a new suit or the next card up on its row (the 7 of diamonds first)."),
    must_play: _("You hold a card that fits: playing is compulsory.")
  });

  // The module's memory of the page: the selected card, the help switch, the seats that said
  // jella since they last played (S10), the context.
  var M = { picked: null, hints: false, jella: {}, ctx: null };

  function suitName(s) {
    return { D: _("Diamonds"), H: _("Hearts"), S: _("Spades"), C: _("Clubs") }[s];
  }
  function callName(call) {
    return { pass: _("Pass"), double: _("Double"), three: _("Three") }[call] || call;
  }
  function cardPoints(code) { return POINTS[code.charAt(0)] || 0; }

  /** S8–S9: ``code`` may be played on the view's table (the 7D first, then a 7 or the next rank). */
  function fits(v, code) {
    var t = v.table || {};
    if (!(t.D || []).length) { return code === "7D"; }
    return RANKS.indexOf(code.charAt(0)) === (t[code.charAt(1)] || []).length;
  }
  function playable(v) { return (v.hand || []).filter(function (c) { return fits(v, c); }); }

  function optionsText(t) {
    return [
      _("2 against 2"),
      fmt(_("game to {n} points"), { n: t.options.target }),
      t.clock ? fmt(_("{n} s per turn"), { n: t.clock }) : _("no turn clock"),
      t.public ? _("public") : _("private")
    ].join(" · ");
  }

  function matchResultText(side, ctx) {
    if (side === null || side === undefined) { return _("The match is over."); }
    if (ctx.me) { return ctx.sideOf(ctx.seat) === side ? _("You win the match!") : _("You lose the match."); }
    return fmt(_("{names} win the match."), { names: ctx.sideName(side) });
  }

  // ---- events ----------------------------------------------------------------------------
  /** Log lines of a Seven Diamonds event; undefined for the events the shell words. */
  function describeEvent(ev, ctx) {
    var who = ev.seat !== undefined ? ctx.iso(ctx.playerName(ev.seat)) : "";
    var auto = ctx.auto;
    switch (ev.type) {
      case "deal":
        return fmt(_("Round {round}: {name} deals 8 cards to each player."), { round: ev.round, name: ctx.iso(ctx.playerName(ev.dealer)) });
      case "bid":
        if (ev.call === "double") { return auto(ev, fmt(_("{name}: Double! The round counts twice."), { name: who })); }
        if (ev.call === "three") { return auto(ev, fmt(_("{name}: Three! The round counts three times."), { name: who })); }
        return auto(ev, fmt(_("{name}: Pass."), { name: who }));
      case "play_begins":
        return fmt(_("Play begins at ×{m}: {name} holds the 7 of diamonds and plays first."),
          { m: ev.multiplier, name: ctx.iso(ctx.playerName(ev.turn)) });
      case "play":
        return auto(ev, fmt(_("{name} plays the {card}."), { name: who, card: D.cardName(ev.card) }));
      case "last_card": return fmt(_("{name} has one card left!"), { name: who });
      case "jella": return auto(ev, fmt(_("{name}: jella, no card to play."), { name: who }));
      case "round_over":
        var won = Math.max(ev.result.points[0], ev.result.points[1]);  // a count: Arabic's six forms
        return fmt(ngettext("{name} is out: {points} point for {side}.", "{name} is out: {points} points for {side}.", won), {
          name: ctx.iso(ctx.playerName(ev.result.out)), side: ctx.sideName(ctx.sideOf(ev.result.out)), points: won });
      case "match_over": return matchResultText(ev.winner, ctx);
      default: return undefined;
    }
  }

  /** What an event changes besides the log: the jella marks, the selection, the dialogs. */
  function onEvent(ev, ctx, old) {
    switch (ev.type) {
      case "deal": M.jella = {}; M.picked = null; break;
      case "jella": M.jella[ev.seat] = true; break;
      case "play": delete M.jella[ev.seat]; break;
      case "round_over":
        M.jella = {};
        if (!old) { showRoundSummary(ev.result, ev.scores, ctx); }
        break;
      case "match_over": if (!old) { showMatchOver(ev, ctx); } break;
      default: break;
    }
  }

  // ---- the round's count ---------------------------------------------------------------
  function miniCards(codes, label) {
    return el("ul", { class: "cards mini", "aria-label": label }, codes.map(function (c) {
      return el("li", { role: "img", "aria-label": D.cardName(c), "data-card": c }, [D.cardImg(c)]);
    }));
  }

  /** S13–S15: who went out, the losers' cards and what they count, ×, the 200, the total. */
  function countBody(r, scores, ctx) {
    var out = r.out, side = ctx.sideOf(out), partner = (out + 2) % 4;
    var rows = [];
    [(out + 1) % 4, (out + 3) % 4].forEach(function (seat) {
      var left = r.left[seat] || [];
      var pts = left.reduce(function (a, c) { return a + cardPoints(c); }, 0);
      rows.push(el("tr", { "data-seat": seat }, [
        el("th", { scope: "row", text: ctx.playerName(seat) }),
        el("td", null, [left.length ? miniCards(left, fmt(_("Cards left to {name}"), { name: ctx.playerName(seat) }))
          : el("span", { text: _("none") })]),
        el("td", { class: "num", text: String(pts) })
      ]));
    });
    rows.push(el("tr", { class: "not-counted" }, [
      el("th", { scope: "row", text: ctx.playerName(partner) }),
      el("td", { colspan: "2", text: _("not counted: the partner of the player who went out") })
    ]));
    var t = el("table", { class: "summary-table sd-count" }, [
      el("thead", null, [el("tr", null, [el("th", { scope: "col", text: _("Player") }),
        el("th", { scope: "col", text: _("Cards left") }), el("th", { scope: "col", text: _("Points") })])]),
      el("tbody", null, rows)
    ]);
    var total = r.points[side];
    var lines = [
      el("li", { "data-line": "card_points", text: fmt(_("Card points: {n} (ace 20; king, queen, jack 10)"), { n: r.card_points }) }),
      el("li", { "data-line": "multiplier", text: r.multiplier > 1
        ? fmt(_("× {m} ({call}): {n}"), { m: r.multiplier, call: callName(r.multiplier === 3 ? "three" : "double"), n: r.card_points * r.multiplier })
        : _("× 1 (no double)") }),
      r.bonus ? el("li", { "data-line": "bonus", text: fmt(_("+ {n}: the last card was a 7 (not multiplied)"), { n: r.bonus }) }) : null,
      el("li", { class: "result", "data-line": "points", text: fmt(ngettext("= {n} point for {side}", "= {n} points for {side}", total), { n: total, side: ctx.sideName(side) }) })
    ];
    var order = ctx.me ? [ctx.sideOf(ctx.seat), 1 - ctx.sideOf(ctx.seat)] : [0, 1];
    return el("div", { class: "sd-summary", "data-points": String(total) }, [
      el("p", { text: fmt(_("{name} went out with the {card}."), { name: ctx.playerName(out), card: D.cardName(r.last_card) }) }),
      t,
      el("ul", { class: "sd-lines" }, lines),
      scores ? el("p", { class: "sd-scores", text: order.map(function (s) {
        return fmt(_("{side}: {n}"), { side: ctx.sideName(s), n: scores[s] });
      }).join(" · ") + " · " + fmt(_("to {n} points"), { n: ctx.table ? ctx.table.options.target : 500 }) }) : null
    ]);
  }

  function showRoundSummary(r, scores, ctx) {
    ctx.openDialog(fmt(_("Round {round}: the count"), { round: r.round }), countBody(r, scores, ctx));
  }

  function showMatchOver(ev, ctx) {
    // After a forfeit the open dialog holds an old round's count, not the result (issue 13).
    var forfeit = ev.reason === "forfeit";
    var kept = ctx.dialogOpen() && !forfeit ? Array.prototype.slice.call(ctx.dialogBody().childNodes) : [];
    var order = ctx.me ? [ctx.sideOf(ctx.seat), 1 - ctx.sideOf(ctx.seat)] : [0, 1];
    var wrap = el("div", null, [
      forfeit ? el("p", { class: "forfeit-line", text: ctx.forfeitText() || _("The match ended by forfeit.") }) : null,
      el("p", { class: "result", text: order.map(function (s) {
        return fmt(_("{side}: {n}"), { side: ctx.sideName(s), n: ev.scores[s] });
      }).join(" · ") })
    ].concat(kept));
    ctx.matchOver(matchResultText(ev.winner, ctx), wrap);
  }

  function lastRoundSummary(ctx) {
    var v = ctx.view, r = v.rounds[v.rounds.length - 1];
    var totals = [0, 0];
    v.rounds.forEach(function (x) { totals[0] += x.points[0]; totals[1] += x.points[1]; });
    showRoundSummary(r, totals, ctx);
  }

  // ---- drawing ---------------------------------------------------------------------------
  function cardButton(code, v, mine) {
    var pressed = M.picked === code;
    var hint = M.hints && mine && fits(v, code);
    var label = D.cardName(code) + (hint ? " (" + _("can be played") + ")" : "");
    var b = el("button", { type: "button", class: "card" + (pressed ? " picked" : "") + (hint ? " playable" : ""),
      "data-card": code, "data-zone": "hand", "aria-pressed": pressed ? "true" : "false", "aria-label": label,
      onclick: function () { pick(code); } }, [D.cardImg(code)]);
    return el("li", null, [b]);
  }

  function pick(code) {
    M.picked = M.picked === code ? null : code;
    M.ctx.showError(null);
    M.ctx.render();
    var again = document.querySelector('.card[data-zone="hand"][data-card="' + code + '"]');
    if (again) { again.focus(); }
  }

  function badges(seat, v) {
    var out = [];
    if ((v.hand_sizes || [])[seat] === 1 && v.phase === "play") {
      out.push(el("span", { class: "badge last-card", text: _("Last card!") }));
    }
    if (M.jella[seat] && v.phase === "play" && v.turn !== seat) { out.push(el("span", { class: "badge jella", text: _("Jella") })); }
    var call = null;
    (v.bids || []).forEach(function (b) { if (b.seat === seat) { call = b.call; } });
    if (call && (v.phase === "bidding" || call !== "pass")) {
      out.push(el("span", { class: "badge call call-" + call, text: callName(call) }));
    }
    return out;
  }

  /** Under a seat's name: the backs of another hand (never its faces), or your own hand. */
  function seatContent(seat, v, ctx) {
    var wrap = el("div", { class: "sd-seat" }, [el("div", { class: "sd-badges" }, badges(seat, v))]);
    if (seat === ctx.seat) {
      if (M.picked && (v.hand || []).indexOf(M.picked) < 0) { M.picked = null; }
      var hl = el("ul", { class: "cards hand", "aria-label": _("Your hand") }, []);
      (v.hand || []).forEach(function (c) { hl.appendChild(cardButton(c, v, true)); });
      wrap.appendChild(hl);
      return wrap;
    }
    if (v.hands) {  // a replay (replayView): every hand face up
      var faces = el("ul", { class: "cards hand replay-hand", "aria-label": fmt(_("Hand of {name}"), { name: ctx.playerName(seat) }) },
        (v.hands[seat] || []).map(function (c) { return el("li", { role: "img", "aria-label": D.cardName(c), "data-card": c }, [D.cardImg(c)]); }));
      wrap.appendChild(faces);
      return wrap;
    }
    var count = (v.hand_sizes || [])[seat] || 0;
    var backs = el("div", { class: "backs", role: "img", "aria-label": fmt(ngettext("{n} card in hand", "{n} cards in hand", count), { n: count }) }, []);
    for (var i = 0; i < count; i++) { backs.appendChild(D.cardImg(null)); }
    backs.appendChild(el("span", { class: "count", "aria-hidden": "true", text: fmt(ngettext("{n} card", "{n} cards", count), { n: count }) }));
    wrap.appendChild(backs);
    return wrap;
  }

  /** The four suit rows (S9): each from 7 to ace, the cards laid so far, empty places after. */
  function drawRows(v) {
    var rows = [];
    SUITS.forEach(function (s) {
      var pile = (v.table || {})[s] || [];
      var label = pile.length
        ? fmt(_("{suit}: {first} to {last}"), { suit: suitName(s), first: D.cardName(pile[0]), last: D.cardName(pile[pile.length - 1]) })
        : fmt(_("{suit}: not opened"), { suit: suitName(s) });
      var cells = RANKS.map(function (r, i) {
        var code = r + s;
        if (i < pile.length) {
          return el("li", { class: "slot laid" }, [el("span", { class: "card", "data-card": code, "data-zone": "row" }, [D.cardImg(code)])]);
        }
        return el("li", { class: "slot empty", "aria-hidden": "true" }, [el("span", { text: D.rankShort(r) })]);
      });
      rows.push(el("div", { class: "sd-row suit-" + s, "data-suit": s, "data-height": String(pile.length) }, [
        el("span", { class: "sd-suit", "aria-hidden": "true", text: { D: "♦", H: "♥", S: "♠", C: "♣" }[s] }),
        el("ul", { class: "sd-slots", "aria-label": label }, cells)
      ]));
    });
    D.fill($("sd-rows"), rows);  // in place: see Dineri.fill
  }

  function biddingText(v, ctx) {
    var parts = [fmt(_("Multiplier: ×{m}"), { m: v.multiplier })];
    if (v.doubler !== null && v.doubler !== undefined) { parts.push(fmt(_("Double: {name}"), { name: ctx.playerName(v.doubler) })); }
    if (v.tripler !== null && v.tripler !== undefined) { parts.push(fmt(_("Three: {name}"), { name: ctx.playerName(v.tripler) })); }
    return parts.join(" · ");
  }

  function render(v, ctx) {
    var me = ctx.me;
    var o = v.options || { target: 500 };
    // Score bar: round, target, each side's score (your side first).
    var bar = [];
    bar.push(el("div", { class: "score-line" }, [
      el("span", { text: fmt(_("Round {round}"), { round: v.round }) + " · " + fmt(_("to {n} points"), { n: o.target }) })
    ]));
    (me ? [ctx.sideOf(ctx.seat), 1 - ctx.sideOf(ctx.seat)] : [0, 1]).forEach(function (side) {
      bar.push(el("div", { class: "score side-" + side, "data-side": side }, [
        el("strong", { text: ctx.sideName(side) }),
        el("span", { class: "points", text: fmt(_("Score: {n}"), { n: v.scores[side] }) })
      ]));
    });
    D.fill($("scorebar"), bar);
    $("sd-bidding").textContent = biddingText(v, ctx);
    drawRows(v);
    if (!ctx.replay) { drawControls(v, ctx); }

    var ds = ctx.dataset;
    ds.hand = me ? (v.hand || []).join(",") : "";
    ds.table = SUITS.map(function (s) { return s + ((v.table || {})[s] || []).length; }).join(",");
    ds.multiplier = String(v.multiplier);
    ds.scores = v.scores.join(",");
    ds.rounds = String((v.rounds || []).length);
    ds.winner = v.winner === null || v.winner === undefined ? "" : String(v.winner);
    ds.hints = M.hints ? "on" : "off";
  }

  /** The controls of this moment (the table page only; the replay page has none). */
  function drawControls(v, ctx) {
    var me = ctx.me;
    $("sd-hints").closest("label").hidden = !me;  // marks a hand: a spectator has none (trial item 8)
    $("last-round-btn").hidden = !(v.rounds && v.rounds.length);
    var myTurn = me && v.turn === ctx.seat;
    var stage2 = v.doubler !== null && v.doubler !== undefined;
    $("bid-controls").hidden = !(myTurn && v.phase === "bidding");
    $("double-btn").hidden = stage2;
    $("three-btn").hidden = !stage2;
    var canPlay = myTurn && v.phase === "play";
    var anyFits = canPlay && playable(v).length > 0;
    $("play-controls").hidden = !canPlay;
    $("play-btn").hidden = !anyFits;
    $("jella-btn").hidden = !canPlay || anyFits;
    $("selection").textContent = M.picked ? fmt(_("Your card: {card}"), { card: D.cardName(M.picked) }) : "";
  }

  function statusText(v, ctx) {
    var who = v.turn !== null && v.turn !== undefined ? ctx.playerName(v.turn) : "";
    var mine = ctx.me && v.turn === ctx.seat;
    switch (v.phase) {
      case "bidding":
        if (!mine) { return fmt(_("Bidding: {name} calls."), { name: who }); }
        return v.doubler === null || v.doubler === undefined ? _("Your call: Double or Pass.")
          : _("Your call: Three or Pass.");
      case "play":
        if (!mine) { return fmt(_("{name} is playing."), { name: who }); }
        if (!(v.table.D || []).length) { return _("Your turn: play the 7 of diamonds."); }
        return playable(v).length ? _("Your turn: play a card.") : _("No card fits: you pass (jella).");
      case "over": return matchResultText(v.winner, ctx);
      default: return _("Waiting for the deal.");
    }
  }

  // ---- actions ---------------------------------------------------------------------------
  function playPicked() {
    var ctx = M.ctx;
    if (!M.picked) { ctx.say(_("Select a card from your hand first.")); return; }
    ctx.send({ type: "play", card: M.picked });
  }

  function init(ctx) {
    M.ctx = ctx;
    try { M.hints = window.localStorage.getItem(HINTS_KEY) === "on"; } catch (e) { M.hints = false; }
    var box = $("sd-hints");
    box.checked = M.hints;
    box.addEventListener("change", function () {
      M.hints = box.checked;
      try { window.localStorage.setItem(HINTS_KEY, M.hints ? "on" : "off"); } catch (e) { /* private mode */ }
      ctx.render();
    });
    var send = function (a) { return function () { ctx.send(a); }; };
    $("double-btn").addEventListener("click", send({ type: "bid", call: "double" }));
    $("three-btn").addEventListener("click", send({ type: "bid", call: "three" }));
    $("bid-pass-btn").addEventListener("click", send({ type: "bid", call: "pass" }));
    $("play-btn").addEventListener("click", playPicked);
    $("jella-btn").addEventListener("click", send({ type: "pass" }));
    $("last-round-btn").addEventListener("click", function () { lastRoundSummary(ctx); });
  }

  /** In the bidding D doubles, T says three, P passes; in play L plays the selected card. */
  function keydown(e, ctx) {
    var k = e.key.toLowerCase();
    if (!$("bid-controls").hidden) {
      if (k === "d" && !$("double-btn").hidden) { ctx.send({ type: "bid", call: "double" }); return true; }
      if (k === "t" && !$("three-btn").hidden) { ctx.send({ type: "bid", call: "three" }); return true; }
      if (k === "p") { ctx.send({ type: "bid", call: "pass" }); return true; }
      return false;
    }
    if (!$("play-controls").hidden && k === "l") { playPicked(); return true; }
    if (k === "escape" && M.picked) { M.picked = null; ctx.render(); return false; }
    return false;
  }

  // ---- motion (motion.js) -------------------------------------------------------------------
  /** A played card slides from the hand (yours) or the player's seat to its place in its row. */
  function animate(ev, ctx, mo) {
    if (ev.type !== "play") { return 0; }
    ctx.sound("card");
    return mo.flip(mo.card(ev.card, "row"), mo.wasCard(ev.card) || mo.wasSeat(ev.seat));
  }

  // ---- replays (docs/web.md): each step's state (the record page's replay output) as a view ----
  function replayViews(data) {
    return data.steps.map(function (step) {
      var st = step.state, v = {};
      Object.keys(st).forEach(function (k) { v[k] = st[k]; });
      v.options = data.options;
      v.hand_sizes = st.hands.map(function (h) { return h.length; });
      return v;  // ``hands`` stays: seatContent shows every hand face up
    });
  }

  /** Where each round of the replay begins: ``[{step, label}]``. */
  function replayRounds(views) {
    var out = [], seen = {};
    views.forEach(function (v, i) {
      if (!seen[v.round] && v.phase !== "over") {
        seen[v.round] = true;
        out.push({ step: i, label: fmt(_("Round {round}"), { round: v.round }) });
      }
    });
    return out;
  }

  D.games.register("seven_diamonds", {
    replayViews: replayViews,
    replayRounds: replayRounds,
    animate: animate,
    paced: ["bid", "play", "jella"],
    teams: true,
    sideOf: function (seat) { return seat % 2; },
    optionsText: optionsText,
    describeEvent: describeEvent,
    onEvent: onEvent,
    seatContent: seatContent,
    render: render,
    statusText: statusText,
    init: init,
    keydown: keydown
  });
})();
