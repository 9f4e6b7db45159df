/* Dineri browser client: Chkobba's module of the table page (docs/web.md, rules R1–R33).
 * Draws the hand, the table cards, the pack, the piles and the round summaries, and turns
 * clicks and keys into actions. The page never selects a capture and never hints at one
 * (R13, R21): the player points at every card taken; the server judges and its error codes are
 * explained by the shell. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._, ngettext = D.ngettext, fmt = D.fmt, el = D.el;
  var $ = function (id) { return document.getElementById(id); };

  // The module's own memory of the page: the selection, the card just laid (a claim needs it),
  // whether our side's redeal was refused (R10).
  var M = { hand: null, picked: [], lastLaid: null, refusedRedeal: false, ctx: null, piles: [[], []] };

  function n(ctx) { return ctx.table ? ctx.table.options.seats : 2; }
  function mySide(ctx) { return ctx.me ? ctx.seat % 2 : 0; }
  function cardsText(codes) { return D.joinList(codes.map(D.cardName)); }
  function gamesToWin(ctx) { return Math.floor(ctx.table.options.best_of / 2) + 1; }

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

  // Results: a player reads "you"; a spectator reads the winning side by its players' names
  // (one name takes "wins", two names take "win").
  function matchResultText(side, ctx) {
    if (side === null || side === undefined) { return _("The match is over."); }
    if (ctx.me) { return ctx.seat % 2 === side ? _("You win the match!") : _("You lose the match."); }
    return n(ctx) === 4 ? fmt(_("{names} win the match."), { names: ctx.sideName(side) })
      : fmt(_("{name} wins the match."), { name: ctx.sideName(side) });
  }
  function gameResultText(game, winner, scores, goesOn, ctx) {
    var text;
    if (ctx.me) {
      var mine = ctx.seat % 2;
      text = fmt(mine === winner ? _("You win game {game}, {a} to {b}.") : _("You lose game {game}, {a} to {b}."),
        { game: game, a: scores[mine], b: scores[1 - mine] });
    } else {
      text = fmt(n(ctx) === 4 ? _("{names} win game {game}, {a} to {b}.") : _("{name} wins game {game}, {a} to {b}."),
        { name: ctx.sideName(winner), names: ctx.sideName(winner), game: game, a: scores[winner], b: scores[1 - winner] });
    }
    return goesOn ? text + " " + _("The match goes on.") : text;
  }

  // ---- the piles' cards (issue 13, item 7) -------------------------------------------------
  // Views count a pile's cards; its cards are public (every capture is an event), so the page
  // keeps them from the events of the current deal: a capture, a claim, the leftovers (R25).
  /** Add the cards of one event to ``piles`` (two lists of codes; a cut begins a new deal, with
   * empty piles). */
  function trackPiles(piles, ev) {
    switch (ev.type) {
      case "cut":
        piles[0].length = 0; piles[1].length = 0;
        return;
      case "play":
      case "claim":
        if (ev.capture && ev.capture.length) {
          var pile = piles[ev.seat % 2];
          ev.capture.forEach(function (c) { pile.push(c); });
          pile.push(ev.card);
        }
        return;
      case "round_over":
        if (ev.leftovers_to !== null && ev.leftovers_to !== undefined) {
          (ev.leftovers || []).forEach(function (c) { piles[ev.leftovers_to].push(c); });
        }
        return;
      default:
        return;
    }
  }

  /** "Cards you took", "Cards taken by your opponent" (1v1), "… by your side", "… by the
   * opponents" (2v2); a spectator reads the side's names. */
  function pileTitle(side, ctx) {
    if (!ctx.me) { return fmt(_("Cards taken by {side}"), { side: ctx.sideName(side) }); }
    var mine = side === mySide(ctx);
    if (ctx.partners()) { return mine ? _("Cards taken by your side") : _("Cards taken by the opponents"); }
    return mine ? _("Cards you took") : _("Cards taken by your opponent");
  }

  function showPile(side, v, ctx) {
    var cards = (v.piles || M.piles)[side];
    var list = el("ul", { class: "cards pile-cards", "aria-label": pileTitle(side, ctx) },
      cards.map(function (c) { return el("li", { role: "img", "aria-label": D.cardName(c) }, [D.cardImg(c)]); }));
    var known = cards.length === v.captured[side];
    ctx.openDialog(pileTitle(side, ctx), el("div", null, [
      cards.length ? list : el("p", { class: "hint", text: _("No card taken yet in this round.") }),
      known ? null : el("p", { class: "hint", text: _("Cards taken before this page was opened are not shown.") })
    ]), _("Close"));  // a look, not a step of the match: "Close", not "Continue"
  }

  // ---- events ----------------------------------------------------------------------------
  /** Log lines of a Chkobba event; undefined for the events the shell words (chat, away, …). */
  function describeEvent(ev, ctx) {
    var who = ev.seat !== undefined ? ctx.iso(ctx.playerName(ev.seat)) : "";
    var auto = ctx.auto;
    switch (ev.type) {
      case "cut":
        return auto(ev, fmt(_("{name} cuts at {at} and draws the {card}."), { name: who, at: ev.at, card: D.cardName(ev.drawn) }));
      case "deal":
        return auto(ev, fmt(ev.choice === "keep" ? _("{name} keeps the drawn card.") : _("{name} puts the drawn card on the table."), { name: who }));
      case "deal_more": return _("Three more cards for each player.");
      case "play":
        var line = !ev.capture || !ev.capture.length
          ? auto(ev, fmt(_("{name} lays the {card}."), { name: who, card: D.cardName(ev.card) }))
          : auto(ev, fmt(_("{name} plays the {card} and takes {cards}."), { name: who, card: D.cardName(ev.card), cards: D.cardPhrase(ev.capture) }));
        return ev.chkobba ? [line, fmt(_("Chkobba for {name}!"), { name: who })] : line;
      case "claim":
        var c = fmt(_("{name} claims a missed capture: the {card} with {cards}."), { name: who, card: D.cardName(ev.card), cards: D.cardPhrase(ev.capture) });
        return ev.chkobba ? [c, fmt(_("Chkobba for {name}!"), { name: who })] : c;
      case "redeal_proposed": return fmt(_("{name} proposes a redeal."), { name: who });
      case "redeal_answered":
        return auto(ev, fmt(ev.accept ? _("{name} accepts the redeal.") : _("{name} refuses the redeal."), { name: who }));
      case "round_over": return _("The round is over.");
      case "game_over":
        return gameResultText(ev.game, ev.winner, ev.scores, ev.games_won[ev.winner] < gamesToWin(ctx), ctx);
      case "match_over": return matchResultText(ev.winner, ctx);
      default: return undefined;
    }
  }

  /** What an event changes on the page besides the log: the card just laid, dialogs. */
  function onEvent(ev, ctx, old) {
    trackPiles(M.piles, ev);
    switch (ev.type) {
      case "deal": M.lastLaid = null; M.refusedRedeal = false; break;
      case "play": M.lastLaid = !ev.capture || !ev.capture.length ? ev.card : null; break;
      case "claim": M.lastLaid = null; break;
      case "redeal_answered":
        if (!ev.accept && ctx.me && ev.seat % 2 !== ctx.seat % 2) { M.refusedRedeal = true; }
        break;
      case "round_over":
        M.lastLaid = null;
        if (!old) { showRoundSummary(ev.result, ev.scores, ctx); }
        break;
      case "game_over":
        if (!old && ctx.dialogOpen()) {
          ctx.dialogBody().appendChild(el("p", { class: "result game-result",
            text: gameResultText(ev.game, ev.winner, ev.scores, ev.games_won[ev.winner] < gamesToWin(ctx), ctx) }));
        }
        break;
      case "match_over": if (!old) { showMatchOver(ev, ctx); } break;
      default: break;
    }
  }

  // ---- summaries -----------------------------------------------------------------------
  function winnerText(side, ctx) { return side === null || side === undefined ? _("Baji (tie): nobody") : ctx.sideName(side); }

  // What each round category means (R26, R27), shown as a legend and as the rows' titles. A 1v1
  // gives the point to a player, a 2v2 to a side (Arabic trial: «للفريق» of a lone player).
  function categoryHelp(ctx) {
    if (n(ctx) !== 4) {
      return {
        karta: _("Karta: 1 point to the player with more cards."),
        dinari: _("Dinari: 1 point to the player with more ♦ diamonds."),
        barmila: _("Barmila: 1 point to the player with more 7s; if tied, more 6s."),
        sabaa: _("Sab'a l-hayya: 1 point to the player holding the 7 of diamonds."),
        baji: _("Baji: a tie; the point goes to nobody."),
        // R23, R24 (issue 13, the fifth trial: the legend named every category but this one).
        chkobba: _("Chkobba: 1 point for each capture that empties the table, but not with the round's last card.")
      };
    }
    return {
      karta: _("Karta: 1 point to the side with more cards."),
      dinari: _("Dinari: 1 point to the side with more ♦ diamonds."),
      barmila: _("Barmila: 1 point to the side with more 7s; if tied, more 6s."),
      sabaa: _("Sab'a l-hayya: 1 point to the side holding the 7 of diamonds."),
      baji: _("Baji: a tie; the point goes to nobody."),
      chkobba: _("Chkobba: 1 point for each capture that empties the table, but not with the round's last card.")
    };
  }

  function roundTable(r, scores, ctx) {
    // The viewer's own side comes first; a spectator reads side 1 then side 2, by names.
    var order = ctx.me ? [ctx.seat % 2, 1 - ctx.seat % 2] : [0, 1];
    var help = categoryHelp(ctx);
    var head = el("tr", null, [el("th", { scope: "col", text: "" })].concat(order.map(function (side) {
      return el("th", { scope: "col", text: ctx.sideName(side) });
    })));
    function row(label, values, title) {
      return el("tr", title ? { title: title } : null, [el("th", { scope: "row", text: label })].concat(order.map(function (side) {
        return el("td", { text: String(values[side]) });
      })));
    }
    var t = el("table", { class: "summary-table" }, [el("thead", null, [head]), el("tbody", null, [
      row(_("Cards"), r.cards, help.karta), row(_("♦ Diamonds"), r.dinari_cards, help.dinari),
      row(_("Sevens"), r.sevens, help.barmila), row(_("Sixes"), r.sixes, help.barmila),
      row(_("Chkobbas"), r.chkobbas, help.chkobba), row(_("Points"), r.points),
      scores ? row(_("Total"), scores) : null
    ])]);
    function cat(key, label) {
      // One entry, so French can put its narrow no-break space before the colon.
      // A tie says so after a dash («كارطة — باجي (تعادل)»), not a second colon.
      var tie = r[key] === null || r[key] === undefined;
      return el("li", { title: help[key], "data-category": key },
        [tie ? fmt(_("{category} — Baji (tie)"), { category: label })
          : fmt(_("{category}: {winner}"), { category: label, winner: winnerText(r[key], ctx) })]);
    }
    var cats = el("ul", { class: "categories" }, [
      cat("karta", _("Karta")), cat("dinari", _("Dinari")), cat("barmila", _("Barmila")), cat("sabaa", _("Sab'a l-hayya"))
    ]);
    var legend = el("ul", { class: "legend hint" }, ["chkobba", "karta", "dinari", "barmila", "sabaa", "baji"].map(function (k) {
      return el("li", { text: help[k], "data-legend": k });
    }));
    return el("div", null, [t, cats, legend]);
  }

  function showRoundSummary(r, scores, ctx) {
    var title = fmt(_("Round {round} of game {game}"), { round: r.round, game: r.game });
    ctx.openDialog(title, roundTable(r, scores, ctx));
  }

  function showMatchOver(ev, ctx) {
    // The last round's summary (with its Total row and the game's result) stays under the result,
    // unless a forfeit ended the match: then that table is an old round's, not the result (issue 13).
    var forfeit = ev.reason === "forfeit";
    var kept = ctx.dialogOpen() && !forfeit ? Array.prototype.slice.call(ctx.dialogBody().childNodes) : [];
    var first = ctx.me ? ctx.seat % 2 : 0;
    // After a forfeit the games won are no result («الألعاب المكسوبة: 0 مقابل 0» under a win,
    // the Arabic phone trial): the line says the match was won (or lost) by forfeit instead.
    var result = !forfeit ? fmt(_("Games won: {a} to {b}"), { a: ev.games_won[first], b: ev.games_won[1 - first] })
      : !ctx.me ? _("The match was won by forfeit.")
      : ev.winner === first ? _("You win the match by forfeit.") : _("You lose the match by forfeit.");
    var wrap = el("div", null, [
      forfeit ? el("p", { class: "forfeit-line", text: ctx.forfeitText() || _("The match ended by forfeit.") }) : null,
      el("p", { class: "result" + (forfeit ? " by-forfeit" : ""), text: result })
    ].concat(kept));
    ctx.matchOver(matchResultText(ev.winner, ctx), wrap);
  }

  function lastRoundSummary(ctx) {
    var v = ctx.view, r = v.rounds[v.rounds.length - 1];
    // A game's score is the sum of its rounds' points (R28), so the totals follow from the rounds.
    var totals = [0, 0];
    v.rounds.forEach(function (x) {
      if (x.game === r.game && x.round <= r.round) { totals[0] += x.points[0]; totals[1] += x.points[1]; }
    });
    showRoundSummary(r, totals, ctx);
    // That round ended its game when a later game began or the match ended at a decided score (R31).
    var ended = r.game < v.game || (v.phase === "over" && totals[0] !== totals[1] &&
      Math.max(totals[0], totals[1]) >= v.options.target);
    if (ended) {
      var winner = totals[0] > totals[1] ? 0 : 1;
      ctx.dialogBody().appendChild(el("p", { class: "result game-result",
        text: gameResultText(r.game, winner, totals, r.game < v.game, ctx) }));
    }
  }

  // ---- drawing ---------------------------------------------------------------------------
  function cardButton(code, zone, pressed, extraLabel) {
    var label = D.cardName(code) + (extraLabel ? " (" + extraLabel + ")" : "");
    // The card just laid carries a visible tag saying so (and why it matters: R19-R20).
    var b = el("button", { type: "button", class: "card" + (pressed ? " picked" : "") + (extraLabel ? " just-laid" : ""),
      "data-card": code, "data-zone": zone, "aria-pressed": pressed ? "true" : "false", "aria-label": label,
      title: extraLabel ? _("The card just laid. If it could have taken cards, the next player may claim them with it, before playing.") : null,
      onclick: function () { toggle(zone, code); } }, [D.cardImg(code),
      extraLabel ? el("span", { class: "laid-tag", "aria-hidden": "true", text: extraLabel }) : null]);
    return el("li", null, [b]);
  }

  function toggle(zone, code) {
    if (zone === "hand") { M.hand = M.hand === code ? null : code; }
    else {
      var i = M.picked.indexOf(code);
      if (i >= 0) { M.picked.splice(i, 1); } else { M.picked.push(code); }
    }
    M.ctx.showError(null);
    M.ctx.render();
    var again = document.querySelector('.card[data-zone="' + zone + '"][data-card="' + code + '"]');
    if (again) { again.focus(); }
  }

  /** Under a seat's name: the backs of an opponent's hand, or your own hand. */
  function seatContent(seat, v, ctx) {
    if (v.hands) {
      // A replay shows every hand face up.
      return el("ul", { class: "cards hand face-up", "aria-label": fmt(_("Hand of {name}"), { name: ctx.playerName(seat) }) },
        v.hands[seat].map(function (c) {
          return el("li", null, [el("span", { class: "card", role: "img", "data-card": c, "aria-label": D.cardName(c) }, [D.cardImg(c)])]);
        }));
    }
    if (seat === ctx.seat) {
      if (M.hand && (v.hand || []).indexOf(M.hand) < 0) { M.hand = null; }
      var hl = el("ul", { class: "cards hand", "aria-label": _("Your hand") }, []);
      (v.hand || []).forEach(function (c) { hl.appendChild(cardButton(c, "hand", M.hand === c, "")); });
      return hl;
    }
    var count = v.hand_sizes[seat] || 0;
    var backs = el("div", { class: "backs", role: "img", "aria-label": fmt(ngettext("{n} card in hand", "{n} cards in hand", count), { n: count }) }, []);
    for (var i = 0; i < count; i++) { backs.appendChild(D.cardImg(null)); }
    backs.appendChild(el("span", { class: "count", "aria-hidden": "true",
      text: fmt(ngettext("{n} card", "{n} cards", count), { n: count }) }));
    return backs;
  }

  function pileBox(side, v, ctx) {
    var cards = el("ul", { class: "cards mini", "aria-label": _("Chkobba cards") }, v.chkobba_cards[side].map(function (c) {
      return el("li", { role: "img", "aria-label": D.cardName(c) }, [D.cardImg(c)]);
    }));
    return el("div", { class: "pile-box side-" + side, "data-pile-side": side }, [
      el("div", { class: "pile-title", text: ctx.sideName(side) }),
      el("button", { type: "button", class: "pile-count", "data-open-pile": side, "aria-haspopup": "dialog",
        title: _("Show the cards taken"), onclick: function () { showPile(side, v, ctx); },
        text: fmt(ngettext("Pile: {n} card", "Pile: {n} cards", v.captured[side]), { n: v.captured[side] }) }),
      el("div", { text: fmt(_("Chkobbas: {n}"), { n: v.chkobbas[side] }) }), cards
    ]);
  }

  function canProposeRedeal(v, ctx) {
    if (v.phase !== "play" || v.pending_redeal || M.refusedRedeal || !ctx.me) { return false; }
    if (v.table.length !== 4 || v.deck_left !== 40 - 4 - 3 * n(ctx)) { return false; }
    if (!v.hand_sizes.every(function (h) { return h === 3; })) { return false; }
    var counts = {};
    v.table.forEach(function (c) { var k = D.cardValue(c); counts[k] = (counts[k] || 0) + 1; });
    return Object.keys(counts).some(function (k) { return counts[k] >= 3; });
  }

  /** Everything of the board but the seats: score bar, pack, table cards, piles, controls. */
  function render(v, ctx) {
    var me = ctx.me;
    var hand = me ? v.hand : [];
    if (!ctx.replay) {
      [0, 1].forEach(function (side) { if (!v.captured[side]) { M.piles[side] = []; } });
    }
    if (M.hand && hand.indexOf(M.hand) < 0) { M.hand = null; }
    M.picked = M.picked.filter(function (c) { return v.table.indexOf(c) >= 0; });
    if (M.lastLaid && v.table.indexOf(M.lastLaid) < 0) { M.lastLaid = null; }

    // Score bar: game, round, scores, games won, target.
    var o = v.options;
    var bar = [];
    bar.push(el("div", { class: "score-line" }, [
      el("span", { text: fmt(_("Game {game} · Round {round}"), { game: v.game, round: v.round }) + " · " +
        fmt(_("to {n} points"), { n: o.target }) + (o.best_of > 1 ? " · " + fmt(_("best of {n} games"), { n: o.best_of }) : "") })
    ]));
    // Your own side first, as in the round summary and the piles.
    (me ? [ctx.seat % 2, 1 - ctx.seat % 2] : [0, 1]).forEach(function (side) {
      bar.push(el("div", { class: "score side-" + side, "data-side": side }, [
        el("strong", { text: ctx.sideName(side) }),
        el("span", { class: "points", text: fmt(_("Score: {n}"), { n: v.scores[side] }) }),
        el("span", { text: fmt(_("Games won: {n}"), { n: v.games_won[side] }) })
      ]));
    });
    // Everything is redrawn in place (Dineri.fill): a card pressed while a view arrives keeps its node.
    D.fill($("scorebar"), bar);
    if ($("last-round-btn")) { $("last-round-btn").hidden = !(v.rounds && v.rounds.length); }

    // Pack, table, piles.
    // An empty pack is an empty place, not a card back with 0 on it.
    D.fill($("pack"), [el("div", { class: "pack-box" + (v.deck_left ? "" : " empty"), role: "img", "data-pack": "",
      "aria-label": v.deck_left ? fmt(_("Cards left in the pack: {n}"), { n: v.deck_left }) : _("The pack is empty.") },
      v.deck_left ? [D.cardImg(null), el("span", { class: "count", "aria-hidden": "true", text: String(v.deck_left) })] : []),
      v.drawn ? el("div", { class: "drawn", role: "img", "aria-label": fmt(_("Drawn card: {card}"), { card: D.cardName(v.drawn) }) }, [D.cardImg(v.drawn)]) : null]);
    var laid = ctx.replay ? v.last_laid : M.lastLaid;
    D.fill($("table-cards"), v.table.map(function (c) {
      return cardButton(c, "table", M.picked.indexOf(c) >= 0, c === laid ? _("just laid") : "");
    }));
    D.fill($("pile-us"), [pileBox(mySide(ctx), v, ctx)]);
    D.fill($("pile-them"), [pileBox(1 - mySide(ctx), v, ctx)]);

    var ds = ctx.dataset;
    ds.table = v.table.join(","); ds.hand = hand.join(",");
    ds.drawn = v.drawn || "";
    ds.winner = v.winner === null || v.winner === undefined ? "" : String(v.winner);
    if (ctx.replay) { return; }
    // Controls for this phase.
    var myTurn = me && v.turn === ctx.seat;
    $("cut-controls").hidden = !(myTurn && v.phase === "cut");
    $("choice-controls").hidden = !(myTurn && v.phase === "cut_choice");
    if (v.drawn) { $("drawn-label").textContent = fmt(_("Drawn card: {card}"), { card: D.cardName(v.drawn) }); }
    $("redeal-answer").hidden = !(me && v.phase === "redeal_vote" && v.pending_redeal && v.pending_redeal.proposer % 2 !== ctx.seat % 2);
    $("play-controls").hidden = !(myTurn && v.phase === "play");
    $("redeal-btn").hidden = !canProposeRedeal(v, ctx);

    var sel = [];
    if (M.hand) { sel.push(fmt(_("Your card: {card}"), { card: D.cardName(M.hand) })); }
    if (M.picked.length) { sel.push(fmt(_("Table cards selected: {cards}"), { cards: cardsText(M.picked) })); }
    $("selection").textContent = sel.join(" · ");
  }

  function statusText(v, ctx) {
    var who = v.turn !== null && v.turn !== undefined ? ctx.playerName(v.turn) : "";
    var mine = ctx.me && v.turn === ctx.seat;
    switch (v.phase) {
      case "cut": return mine ? _("Your cut: pick a position or cut at random.") : fmt(_("{name} cuts the pack."), { name: who });
      case "cut_choice": return mine ? _("Keep the drawn card, or put it on the table?") : fmt(_("{name} chooses: keep the drawn card or put it on the table."), { name: who });
      case "redeal_vote": return fmt(_("A redeal is proposed; waiting for {name}."), { name: who });
      case "play": return mine ? _("Your turn: select a card from your hand and the table cards it takes, or lay it.") : fmt(_("{name} is playing."), { name: who });
      case "over": return matchResultText(v.winner, ctx);
      default: return _("Waiting for the deal.");
    }
  }

  // ---- motion (motion.js; issue 13, item 2) ---------------------------------------------------
  /** Move the cards of one event from where they were; returns how long it takes (ms). */
  function animate(ev, ctx, mo) {
    switch (ev.type) {
      case "play":
      case "claim":
        // From your hand (you played it), else from the player's seat; a claimed card from the table.
        var from = mo.wasCard(ev.card) || mo.wasSeat(ev.seat);
        if (!ev.capture || !ev.capture.length) {
          ctx.sound("card");
          return mo.flip(mo.card(ev.card, "table"), from);
        }
        ctx.sound(ev.chkobba ? "chkobba" : "capture");
        // The card goes onto the first card it takes; then they all go to the side's pile.
        var onto = mo.wasCard(ev.capture[0]), pile = mo.pile(ev.seat % 2) || mo.wasPile(ev.seat % 2);
        var first = ev.type === "play" ? mo.fly(ev.card, from, onto || pile) : 0;
        var took = first;
        ev.capture.concat([ev.card]).forEach(function (c, i) {
          var start = c === ev.card && ev.type === "play" ? onto || from : mo.wasCard(c);
          took = Math.max(took, mo.fly(c, start, pile, { delay: first + 40 * i, shrink: true, fade: true }));
        });
        return took;
      case "deal":
      case "deal_more":
        // New cards come from the pack: the table's four and your own hand's.
        var pack = mo.wasPack(), t = 0, k = 0;
        document.querySelectorAll('.card[data-zone="hand"], .card[data-zone="table"]').forEach(function (b) {
          if (!mo.wasCard(b.getAttribute("data-card"))) { t = Math.max(t, mo.flip(b, pack, { delay: 60 * k++ })); }
        });
        return t;
      case "round_over":
        // The cards left on the table go to the side that captured last (R25).
        if (ev.leftovers_to === null || ev.leftovers_to === undefined) { return 0; }
        var to = mo.pile(ev.leftovers_to), most = 0;
        (ev.leftovers || []).forEach(function (c, i) {
          most = Math.max(most, mo.fly(c, mo.wasCard(c), to, { delay: 40 * i, shrink: true, fade: true }));
        });
        return most;
      default:
        return 0;
    }
  }

  // ---- actions ---------------------------------------------------------------------------
  function capture() {
    var ctx = M.ctx;
    if (!M.hand) { ctx.say(_("Select a card from your hand first.")); return; }
    if (!M.picked.length) { ctx.say(_("Select the table cards to take, or lay the card.")); return; }
    // The selection stays: a refused capture can be fixed; an accepted one leaves the hand and
    // the table, and render() drops cards that are gone.
    ctx.send({ type: "play", card: M.hand, capture: M.picked.slice() });
  }
  function lay() {
    var ctx = M.ctx;
    if (!M.hand) { ctx.say(_("Select a card from your hand first.")); return; }
    if (M.picked.length) { ctx.say(_("To lay a card, clear the table cards you selected.")); return; }
    ctx.send({ type: "play", card: M.hand, capture: [] });
  }
  function claim() {
    var ctx = M.ctx, laid = M.lastLaid;
    if (!laid || M.picked.indexOf(laid) < 0) {
      ctx.say(_("To claim, select the card just laid and the table cards it could have taken."));
      return;
    }
    var rest = M.picked.filter(function (c) { return c !== laid; });
    if (!rest.length) { ctx.say(_("Also select the table cards it could have taken.")); return; }
    ctx.send({ type: "claim", card: laid, capture: rest });
  }
  function clearSel() { M.hand = null; M.picked = []; M.ctx.showError(null); M.ctx.render(); }

  /** Once, when the page starts: wire the game's buttons. */
  function init(ctx) {
    M.ctx = ctx;
    var send = function (a) { return function () { ctx.send(a); }; };
    $("capture-btn").addEventListener("click", capture);
    $("lay-btn").addEventListener("click", lay);
    $("claim-btn").addEventListener("click", claim);
    $("clear-btn").addEventListener("click", clearSel);
    $("redeal-btn").addEventListener("click", send({ type: "propose_redeal" }));
    $("redeal-accept").addEventListener("click", send({ type: "answer_redeal", accept: true }));
    $("redeal-refuse").addEventListener("click", send({ type: "answer_redeal", accept: false }));
    $("cut-btn").addEventListener("click", function () {
      var raw = $("cut-at").value.trim();
      var at = parseInt(raw, 10);
      if (!/^\d+$/.test(raw) || at < 0 || at > 39) { ctx.say(_("Choose a cut position from 0 to 39.")); return; }
      ctx.send({ type: "cut", at: at });
    });
    $("cut-at").addEventListener("keydown", function (e) { if (e.key === "Enter") { $("cut-btn").click(); } });
    $("cut-random").addEventListener("click", send({ type: "cut", at: null }));
    $("keep-btn").addEventListener("click", send({ type: "keep" }));
    $("table-btn").addEventListener("click", send({ type: "table" }));
    $("last-round-btn").addEventListener("click", function () { lastRoundSummary(ctx); });
  }

  /** C captures, L lays, M claims, Escape clears (only while it is your turn to play). */
  function keydown(e) {
    if ($("play-controls").hidden) { return false; }
    var k = e.key.toLowerCase();
    if (k === "c") { capture(); return true; }
    if (k === "l") { lay(); return true; }
    if (k === "m") { claim(); return true; }
    if (k === "escape") { clearSel(); return false; }
    return false;
  }

  // ---- replay (issue 13, item 6) -----------------------------------------------------------
  /** The views a replay draws, one per step of ``POST /api/replay``'s answer: each step's state
   * (the ``dineri replay`` shape, every hand) with what ``render`` also needs: the options, the
   * hand sizes, and the piles and chkobba cards kept from the steps' events. */
  function replayViews(data) {
    var piles = [[], []], chk = [[], []], laid = null;
    return data.steps.map(function (step) {
      step.events.forEach(function (ev) {
        trackPiles(piles, ev);
        if ((ev.type === "play" || ev.type === "claim") && ev.chkobba) { chk[ev.seat % 2].push(ev.card); }
        if (ev.type === "play") { laid = ev.capture && ev.capture.length ? null : ev.card; }
        if (ev.type === "claim" || ev.type === "cut" || ev.type === "round_over") { laid = null; }
      });
      var st = step.state;
      // A new round began in this step (R25 done): its piles start empty.
      if (st.captured[0] + st.captured[1] === 0) { piles = [[], []]; }
      if (st.chkobbas[0] + st.chkobbas[1] === 0) { chk = [[], []]; }
      return Object.assign({}, st, {
        options: data.options,
        hand_sizes: st.hands.map(function (h) { return h.length; }),
        piles: [piles[0].slice(), piles[1].slice()],
        chkobba_cards: [chk[0].slice(), chk[1].slice()],
        last_laid: laid && st.table.indexOf(laid) >= 0 ? laid : null
      });
    });
  }

  /** Where each round of the replay begins: ``[{step, from, label}]``. ``step``, where a jump
   * lands, is the round's deal (its first step in play: the hands and the table dealt); ``from``
   * is the round's first step (the previous round's last move, then the cut), from which on the
   * round is the one the jump list shows. A jump to the round's first step showed the previous
   * round's last move and "The round is over." with empty hands (the fresh Arabic trial). A round
   * never dealt (the match ended first) is jumped to at its first step. */
  function replayRounds(views) {
    var out = [], byKey = {};
    views.forEach(function (v, i) {
      var key = v.game + "." + v.round;
      if (v.phase === "over") { return; }
      var r = byKey[key];
      if (!r) {
        r = byKey[key] = { step: i, from: i, dealt: false,
          label: fmt(_("Game {game} · Round {round}"), { game: v.game, round: v.round }) };
        out.push(r);
      }
      if (!r.dealt && v.phase === "play") { r.step = i; r.dealt = true; }
    });
    return out.map(function (r) { return { step: r.step, from: r.from, label: r.label }; });
  }

  D.games.register("chkobba", {
    teams: true,
    sideOf: function (seat) { return seat % 2; },
    optionsText: optionsText,
    describeEvent: describeEvent,
    onEvent: onEvent,
    seatContent: seatContent,
    render: render,
    statusText: statusText,
    init: init,
    keydown: keydown,
    animate: animate,
    replayViews: replayViews,
    replayRounds: replayRounds,
    paced: ["cut", "deal", "play", "claim", "redeal_proposed", "redeal_answered"]
  });
})();
