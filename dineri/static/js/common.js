/* Dineri browser client: shared helpers (translations, card names, REST, the game registry).
 * (The sockets are in net.js.) Plain script, no build step. Every user-visible string goes through _() and comes
 * from the page's Babel catalogue (rendered as JSON into #i18n). */
(function () {
  "use strict";
  var catalogue = {};
  var LANG = document.documentElement.lang || "en";
  var node = document.getElementById("i18n");
  if (node) { catalogue = JSON.parse(node.textContent || "{}"); }
  var config = {};
  var cfgNode = document.getElementById("dineri-config");
  if (cfgNode) { config = JSON.parse(cfgNode.textContent || "{}"); }

  /** Translate msgid; a missing entry falls back to the English text. */
  function _(msgid) {
    var t = catalogue[msgid];
    return (typeof t === "string" && t) ? t : msgid;
  }

  // Plural forms, as the catalogues' Plural-Forms headers say (CLDR rules, as Babel writes them).
  var PLURAL = {
    ar: function (n) {
      return n === 0 ? 0 : n === 1 ? 1 : n === 2 ? 2 : n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5;
    },
    fr: function (n) { return (n === 0 || n === 1) ? 0 : n !== 0 && n % 1000000 === 0 ? 1 : 2; },
    en: function (n) { return n === 1 ? 0 : 1; }
  };
  /** The form of a plural message for the count n (ngettext); English when not translated. */
  function ngettext(singular, plural, n) {
    var forms = catalogue[singular];
    var rule = PLURAL[document.documentElement.lang] || PLURAL.en;
    if (Array.isArray(forms) && forms[rule(n)]) { return forms[rule(n)]; }
    return n === 1 ? singular : plural;
  }

  /** Replace {name} placeholders of a translated string with values. In Arabic a one-letter
   * preposition or conjunction written against a placeholder ("لـ{name}", "و{b}") is joined to
   * the value as Arabic spelling wants (arabicClitic). */
  function fmt(text, values) {
    return text.replace(/((^|[\s(«])(لـ|و))?\{(\w+)\}/g, function (m, pre, before, clitic, key) {
      if (!values || values[key] === undefined || values[key] === null) { return m; }
      var v = String(values[key]);
      if (!pre) { return v; }
      return before + (LANG === "ar" ? arabicClitic(clitic, v) : clitic + v);
    });
  }

  // Arabic letters (hamza to yeh), and the isolate marks a name may be wrapped in (FSI … PDI).
  var ARABIC_START = /^[\u0621-\u064a]/;
  /** ``clitic`` ("لـ" for, "و" and) written onto ``value``: the lām joins an Arabic word ("للاعب
   * آلي 2", and "ال" loses its alif: "للحاسوب"), inside the name's isolate so the letters connect;
   * و is written against an Arabic word ("وسامي") and spaced before a Latin one or a number ("و
   * Alice"), which a right-to-left line would otherwise tear from it. */
  function arabicClitic(clitic, value) {
    var lead = value.charAt(0) === "\u2068" ? "\u2068" : "";
    var core = value.slice(lead.length);
    var arabic = ARABIC_START.test(core);
    if (clitic === "و") { return arabic ? "و" + value : "و " + value; }
    if (!arabic) { return "لـ" + value; }
    return lead + (core.slice(0, 2) === "ال" ? "لل" + core.slice(2) : "ل" + core);
  }

  // Every error code the server may send (match-record.md's rule codes, docs/protocol.md's
  // service and REST codes), explained in the page's language.
  var ERRORS = {
    malformed: _("That action is not understood."),
    wrong_phase: _("That cannot be done at this point of the round."),
    not_your_turn: _("It is not your turn."),
    card_not_in_hand: _("That card is not in your hand."),
    card_not_on_table: _("A selected card is not on the table."),
    illegal_capture: _("Those cards cannot be taken with that card: take one card of the same value, or cards that add up to its value, and a card of the same value always comes before a sum."),
    no_missed_capture: _("There is no such missed capture to claim."),
    redeal_not_allowed: _("A redeal cannot be proposed now."),
    not_seated: _("Spectators cannot play."),
    no_match: _("The match has not started."),
    match_over: _("The match is over."),
    not_over: _("The match record can be downloaded once the match is over."),
    rate_limited: _("Too many actions at once; wait a moment."),
    retry: _("The table was busy; nothing changed. Try again."),
    too_large: _("That message is too large."),
    not_found: _("There is no such table."),
    forbidden: _("You may not do that."),
    seat_taken: _("That seat is taken."),
    table_full: _("The table is full."),
    not_open: _("The table is no longer open."),
    not_host: _("Only the host may do that."),
    seats_not_full: _("Every seat must be taken before the start."),
    already_seated: _("You already have a seat at this table."),
    bad_code: _("The invitation code is not valid."),
    testing_only: _("That option is only for test servers."),
    not_available: _("That is not available on this server."),
    removed: _("The host removed you from this table."),
    too_many_tables: _("You already host three open tables: start or leave one first."),
    unauthenticated: _("Choose a display name on the home page first."),
    http_401: _("Choose a display name on the home page first."),
    internal: _("Something went wrong. Try again.")
  };
  function explain(code) { return ERRORS[code] || _("Something went wrong. Try again."); }

  // Card names (R1, R3). Each full name is its own catalogue entry, so every language
  // words it its own way ("7 of diamonds", "7 de carreau", "سبعة ديناري").
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"];
  var SUITS = ["D", "H", "S", "C"];
  var CARD_NAMES = {
    AD: _("ace of diamonds"), "2D": _("2 of diamonds"), "3D": _("3 of diamonds"), "4D": _("4 of diamonds"),
    "5D": _("5 of diamonds"), "6D": _("6 of diamonds"), "7D": _("7 of diamonds"), QD: _("queen of diamonds"),
    JD: _("jack of diamonds"), KD: _("king of diamonds"),
    AH: _("ace of hearts"), "2H": _("2 of hearts"), "3H": _("3 of hearts"), "4H": _("4 of hearts"),
    "5H": _("5 of hearts"), "6H": _("6 of hearts"), "7H": _("7 of hearts"), QH: _("queen of hearts"),
    JH: _("jack of hearts"), KH: _("king of hearts"),
    AS: _("ace of spades"), "2S": _("2 of spades"), "3S": _("3 of spades"), "4S": _("4 of spades"),
    "5S": _("5 of spades"), "6S": _("6 of spades"), "7S": _("7 of spades"), QS: _("queen of spades"),
    JS: _("jack of spades"), KS: _("king of spades"),
    AC: _("ace of clubs"), "2C": _("2 of clubs"), "3C": _("3 of clubs"), "4C": _("4 of clubs"),
    "5C": _("5 of clubs"), "6C": _("6 of clubs"), "7C": _("7 of clubs"), QC: _("queen of clubs"),
    JC: _("jack of clubs"), KC: _("king of clubs"),
    // The 8, 9 and 10 (code T) of the 52-card games (golf4, Seven Diamonds).
    "8D": _("8 of diamonds"), "9D": _("9 of diamonds"), TD: _("10 of diamonds"),
    "8H": _("8 of hearts"), "9H": _("9 of hearts"), TH: _("10 of hearts"),
    "8S": _("8 of spades"), "9S": _("9 of spades"), TS: _("10 of spades"),
    "8C": _("8 of clubs"), "9C": _("9 of clubs"), TC: _("10 of clubs")
  };
  var VALUES = { A: 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, Q: 8, J: 9, K: 10 };

  function cardName(code) { return CARD_NAMES[code] || code; }
  // A rank alone (an empty place of Seven Diamonds' rows): the jack, queen, king and ace in the
  // words of the card names («ولد، بنت، شايب، آس»; V D R A in French), never Latin J Q K A in
  // another language; T is the 10.
  var RANK_SHORT = { J: _("J"), Q: _("Q"), K: _("K"), A: _("A"), T: "10" };
  function rankShort(r) { return RANK_SHORT[r] || r; }

  // Computer players get English names from the server ("Bot 2 (greedy)", dineri/bot/inprocess.py);
  // the page names them "Computer 2" («الحاسوب 2», "Ordinateur 2") in running text (the status
  // line, the log, a summary), and adds the level in the players' words only where a seat is listed
  // or drawn ("Computer 2 · easy", fullName, seatName): the fresh trial read «دور لاعب الحاسوب 2 ·
  // متوسط في اللعب.», the level mid-sentence, and three different names for one seat. Never the
  // strategy's id (Arabic phone trial: «لاعب آلي 2 (طمّاع)»). The first bots' strategies read as the
  // level nearest them: random and greedy are the non-searching players, as easy is (greedy with
  // mistakes). Any other name is shown as it is.
  var BOT_NAME = /^Bot (\d+) \((greedy|random|easy|medium|hard)\)$/;
  var LEVEL_NAMES = { greedy: _("easy"), random: _("easy"), easy: _("easy"), medium: _("medium"), hard: _("hard") };
  /** The name of a player in running text: a computer's "Computer 2", without its level. */
  function displayName(name) {
    var m = BOT_NAME.exec(name || "");
    if (!m) { return name; }
    return fmt(_("Computer {n}"), { n: m[1] });
  }
  /** The name of a seat in a list of seats (the setup's seats, the lobby): a computer's
   * "Computer 2 · easy", with its level; a person's name as it is. */
  function fullName(name) {
    var m = BOT_NAME.exec(name || "");
    if (!m) { return name; }
    return fmt(_("Computer {n} · {level}"), { n: m[1], level: LEVEL_NAMES[m[2]] });
  }

  function isComputerName(name) { return BOT_NAME.test(name || ""); }

  /** A seat's name in two parts, for a narrow seat box: a computer's "Computer 4" and its level
   * ("medium") apart, so the level can take a small line of its own (the fresh Arabic phone
   * trial: «لاعب الحاسوب 4 · متوسط» ran to three lines in a 2v2 seat at 360 px). A person's name
   * whole, with no level. */
  function nameParts(name) {
    var m = BOT_NAME.exec(name || "");
    if (!m) { return { name: name || "", level: null }; }
    return { name: displayName(name), level: LEVEL_NAMES[m[2]] };
  }

  /** The <strong class="seat-name"> of a seat box: the name (clamped to two lines by the
   * stylesheet, the whole name in its title) and a computer's level on a small line under it; a
   * screen reader and a copy read "Computer 4 · medium" as everywhere else. */
  function seatName(full) {
    var parts = nameParts(full);
    if (!parts.level) {
      return el("strong", { class: "seat-name", title: parts.name }, [el("span", { class: "seat-who", text: parts.name })]);
    }
    return el("strong", { class: "seat-name computer", title: fullName(full) }, [
      el("span", { class: "seat-who", text: parts.name }),
      el("span", { class: "sr-only", text: " · " }),
      el("span", { class: "seat-level", text: parts.level })
    ]);
  }

  // Lists in the page's language: Arabic joins with its own comma (،).
  function joinList(items) { return items.join(LANG === "ar" ? "، " : ", "); }
  /** Names of one side: "Amel and Chaima" ("أمل وشيماء", "Amel et Chaima"); more than two: the
   * list, then "and" before the last. */
  function joinAnd(items) {
    if (items.length < 2) { return items.join(""); }
    return fmt(_("{a} and {b}"), { a: joinList(items.slice(0, -1)), b: items[items.length - 1] });
  }
  /** Cards named in a sentence: in English "the 5 of spades and the ace of hearts" (English
   * grammar only, so not a catalogue entry); other languages list the names. */
  function cardPhrase(codes) {
    var names = codes.map(cardName);
    if (LANG !== "en") { return joinList(names); }
    names = names.map(function (x) { return "the " + x; });
    return names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }
  function cardValue(code) { return VALUES[code.slice(0, -1)]; }

  // The deck style the player chose (issue 13, item 9): "classic" (French suits) or "spanish"
  // (coins, cups, swords, batons), kept in localStorage.
  var DECK_KEY = "dineri_deck", STYLES = ["classic", "spanish"];
  function deckStyle() {
    var s = null;
    try { s = localStorage.getItem(DECK_KEY); } catch (e) { s = null; }
    return STYLES.indexOf(s) >= 0 ? s : "classic";
  }
  function setDeckStyle(style) {
    if (STYLES.indexOf(style) < 0) { return; }
    try { localStorage.setItem(DECK_KEY, style); } catch (e) { /* not kept */ }
  }

  /** An <img> of a card face (or the back when code is null) in the chosen deck style,
   * decorative: the accessible name is carried by the element that holds it. */
  function cardImg(code) {
    var img = document.createElement("img");
    img.src = config.static + "cards/" + (deckStyle() === "spanish" ? "spanish/" : "") + (code || "back") + ".svg";
    img.alt = "";
    img.draggable = false;
    return img;
  }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) { return; }
        if (k === "text") { e.textContent = v; }
        else if (k === "class") { e.className = v; }
        else if (k.slice(0, 2) === "on") { listen(e, k.slice(2), v); }
        else { e.setAttribute(k, v === true ? "" : v); }
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) { return; }
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }

  // A handler given to el() is kept on the node (node._on[type]) behind one listener, so fill()
  // can hand a kept node the handler of the node drawn in its place.
  function listen(node, type, fn) {
    node._on = node._on || {};
    if (!node._on[type]) {
      node.addEventListener(type, function (ev) { var f = node._on[type]; return f ? f.call(node, ev) : undefined; });
    }
    node._on[type] = fn;
  }

  // ---- redrawing in place ------------------------------------------------------------------
  // The table page draws its seats, hands and table cards anew for every view. Put in by
  // replacing the old nodes, a redraw that lands while a card or button is being pressed (mouse
  // down on the old node, up on the new one) loses the click: nothing is sent (the Seven Diamonds
  // bid and first card, issue 13). fill() brings the old nodes to the new drawing instead: a
  // node that is still there (same tag; a card by its code and zone, a seat by its number) is
  // kept and only its attributes, text and handlers change, so a press on it goes through, the
  // focus stays and its images are not loaded again.
  function keyOf(node) {
    if (node.nodeType !== 1) { return null; }
    var parts = ["data-card", "data-zone", "data-seat", "data-side", "data-pile-side", "data-slot", "data-suit"]
      .map(function (a) { return node.getAttribute(a) || ""; }).join("|");
    if (parts !== "||||||") { return node.tagName + "|" + parts; }
    // A wrapper of one keyed element (the <li> of a card) goes with what it wraps.
    var inner = node.children.length === 1 ? keyOf(node.children[0]) : null;
    return inner ? node.tagName + ">" + inner : null;
  }
  function same(a, b) {
    return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
  }
  function morph(old, neu) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== neu.nodeValue) { old.nodeValue = neu.nodeValue; }
      return;
    }
    var i, a;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      a = old.attributes[i].name;
      if (!neu.hasAttribute(a)) { old.removeAttribute(a); }
    }
    for (i = 0; i < neu.attributes.length; i++) {
      a = neu.attributes[i];
      if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); }
    }
    var handlers = neu._on || {};
    Object.keys(old._on || {}).forEach(function (t) { if (!handlers[t]) { old._on[t] = null; } });
    Object.keys(handlers).forEach(function (t) { listen(old, t, handlers[t]); });
    fillNodes(old, Array.prototype.slice.call(neu.childNodes));
  }
  function fillNodes(parent, nodes) {
    var olds = Array.prototype.slice.call(parent.childNodes), used = [];
    nodes.forEach(function (n, i) {
      var match = null;
      var k = keyOf(n);
      for (var j = 0; j < olds.length && !match; j++) {
        var o = olds[j];
        // A keyed node finds its like anywhere in the list; another, the one at its place.
        if (used.indexOf(o) < 0 && same(o, n) && (k !== null || j === i)) { match = o; }
      }
      var at = parent.childNodes[i] || null;
      if (match) {
        used.push(match);
        morph(match, n);
        if (match !== at) { parent.insertBefore(match, at); }
      } else {
        parent.insertBefore(n, at);
        used.push(n);
      }
    });
    olds.forEach(function (o) { if (used.indexOf(o) < 0 && o.parentNode === parent) { parent.removeChild(o); } });
  }
  /** Make ``container``'s children the nodes ``nodes`` (an array, nulls skipped) as drawn anew,
   * keeping the old nodes that are alike (see above). */
  function fill(container, nodes) {
    fillNodes(container, (nodes || []).filter(function (x) { return x !== null && x !== undefined; }));
  }

  /** JSON over fetch; resolves with the body, rejects with {status, code, message}. */
  function api(method, path, body) {
    var opts = { method: method, headers: { "Accept": "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (r) {
      return r.text().then(function (t) {
        var data = null;
        try { data = t ? JSON.parse(t) : null; } catch (e) { data = null; }
        if (!r.ok) {
          var detail = data && (data.detail || data.error || data);
          var code = (detail && detail.code) || (data && data.code) || ("http_" + r.status);
          throw { status: r.status, code: code, message: (detail && detail.message) || t };
        }
        return data;
      });
    });
  }

  // GET /api/players/me answers 401 to a visitor without a name, which the browser logs as an
  // error; a flag in localStorage (set once a name is chosen here) avoids asking needlessly.
  var NAMED = "dineri_named";
  function whoAmI() {
    var flagged = false;
    try { flagged = localStorage.getItem(NAMED) === "1"; } catch (e) { flagged = false; }
    if (!flagged) { return Promise.reject({ status: 401, code: "http_401" }); }
    return api("GET", config.endpoints.me);
  }
  function setName(name) {
    return api("POST", config.endpoints.players, { name: name }).then(function (p) {
      try { localStorage.setItem(NAMED, "1"); } catch (e) { /* private mode: ask again later */ }
      return p;
    });
  }

  // A link to the rules opens their panel (a closed <details> would hide them): the one its
  // address names (the home page has one per game).
  document.addEventListener("click", function (e) {
    var link = e.target && e.target.closest && e.target.closest("a.rules-link");
    var panel = link && document.getElementById(decodeURIComponent(link.hash.slice(1)) || "rules");
    if (link && panel) { panel.open = true; }
  });

  /** The game modules of the table and replay pages (docs/web.md): ``Dineri.games.register(name,
   * module)`` from js/games/<name>.js; the pages look the table's game up with ``get(name)``. */
  var registered = {};
  var games = {
    register: function (name, module) { registered[name] = module; return module; },
    get: function (name) { return registered[name] || null; }
  };

  /** The line of an event every game's replay says alike (``match_started``, ``commitment``,
   * ``forfeit``, ``reveal``), worded as the table page words it (table-shell.js); ``ctx`` gives
   * ``partners()`` (a side is more than one player), ``playerName(seat)`` and ``iso(text)``.
   * Returns the line, or null for any other event. */
  function commonEventLine(ev, ctx) {
    switch (ev.type) {
      case "match_started": return _("The match begins.");
      case "commitment": return _("The pack is shuffled and sealed.");
      // A side forfeits where a side is more than one player (2v2); in a 1v1 the player does.
      case "forfeit":
        return fmt(ctx.partners() ? _("{name} leaves the match: that side forfeits.") : _("{name} leaves the match and forfeits."),
          { name: ctx.iso(ctx.playerName(ev.seat)) });
      case "reveal": return _("The decks are revealed: the match record can now be checked.");
      default: return null;
    }
  }

  /** A game module adds the explanations of its own rule codes (its record page's codes). */
  function addErrors(map) { Object.keys(map).forEach(function (k) { ERRORS[k] = map[k]; }); }

  window.Dineri = {
    whoAmI: whoAmI, setName: setName, explain: explain, addErrors: addErrors, commonEventLine: commonEventLine, ERROR_CODES: Object.keys(ERRORS),
    _: _, ngettext: ngettext, fmt: fmt, config: config, cardName: cardName, rankShort: rankShort, displayName: displayName, fullName: fullName, isComputerName: isComputerName, nameParts: nameParts, seatName: seatName, joinList: joinList, joinAnd: joinAnd, cardPhrase: cardPhrase, cardValue: cardValue, cardImg: cardImg,
    deckStyle: deckStyle, setDeckStyle: setDeckStyle,
    el: el, fill: fill, api: api, RANKS: RANKS, SUITS: SUITS, games: games
  };
})();
