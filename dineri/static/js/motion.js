/* Dineri browser client: card motion and sounds (issue 13, items 2 and 4; docs/web.md).
 * Motion: before the page redraws, snapshot() notes where every card, seat, pile and the pack
 * were; after it, a game module moves cards from there (flip: an element that is drawn anew
 * slides from its old place; fly: a copy of a card travels between two places and goes away).
 * Nothing moves under prefers-reduced-motion. Sounds: small shipped files, off by default, the
 * player's choice kept in localStorage. */
(function () {
  "use strict";
  var D = window.Dineri;
  var MOVE_MS = 320;
  var reducedQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function rectOf(node) {
    if (!node) { return null; }
    var r = node.getBoundingClientRect();
    return r.width || r.height ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
  }

  /** A motion of one redraw: ``new Dineri.Motion(root)`` snapshots the places under ``root``. */
  function Motion(root) {
    this.root = root || document;
    this.cards = {}; this.seats = {}; this.sides = {}; this.pack = null;
    this.longest = 0;
    if (Motion.reduced()) { return; }
    var self = this;
    this.root.querySelectorAll(".card[data-card]").forEach(function (b) { self.cards[b.getAttribute("data-card")] = rectOf(b); });
    this.root.querySelectorAll(".seat[data-seat]").forEach(function (s) { self.seats[s.getAttribute("data-seat")] = rectOf(s); });
    this.root.querySelectorAll("[data-pile-side]").forEach(function (p) { self.sides[p.getAttribute("data-pile-side")] = rectOf(p); });
    this.pack = rectOf(this.root.querySelector("[data-pack]"));
  }
  /** True when the player asked for less motion (then nothing moves). */
  Motion.reduced = function () { return !!(reducedQuery && reducedQuery.matches); };
  Motion.MOVE_MS = MOVE_MS;
  Motion.count = 0; // motions started on this page (tests read data-moves)

  Motion.prototype.wasCard = function (code) { return this.cards[code] || null; };
  Motion.prototype.wasSeat = function (seat) { return this.seats[String(seat)] || null; };
  Motion.prototype.wasPile = function (side) { return this.sides[String(side)] || null; };
  Motion.prototype.wasPack = function () { return this.pack; };
  Motion.prototype.card = function (code, zone) {
    return this.root.querySelector('.card[data-card="' + code + '"]' + (zone ? '[data-zone="' + zone + '"]' : ""));
  };
  Motion.prototype.pile = function (side) { return rectOf(this.root.querySelector('[data-pile-side="' + side + '"]')); };
  Motion.prototype.seat = function (seat) { return rectOf(this.root.querySelector('.seat[data-seat="' + seat + '"]')); };
  Motion.prototype.note = function (delay, duration) {
    Motion.count += 1;
    document.body.dataset.moves = String(Motion.count);
    this.longest = Math.max(this.longest, delay + duration);
  };

  function centered(from, to) {
    // A place given as a box larger than a card (a seat, a pile): the card starts or lands in its middle.
    if (!from || !to) { return from; }
    if (from.width <= to.width * 1.6) { return from; }
    return { left: from.left + (from.width - to.width) / 2, top: from.top + (from.height - to.height) / 2,
      width: to.width, height: to.height };
  }

  /** Slide ``node`` (already at its new place) from the old place ``from``. Returns ms. */
  Motion.prototype.flip = function (node, from, opts) {
    if (Motion.reduced() || !node || !from || !node.animate) { return 0; }
    var to = rectOf(node);
    if (!to) { return 0; }
    from = centered(from, to);
    var delay = (opts && opts.delay) || 0, duration = (opts && opts.duration) || MOVE_MS;
    var dx = from.left - to.left, dy = from.top - to.top;
    var s = from.width / to.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) { return 0; }
    node.animate([{ transform: "translate(" + dx + "px," + dy + "px) scale(" + s + ")" }, { transform: "none" }],
      { duration: duration, delay: delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
    this.note(delay, duration);
    return delay + duration;
  };

  /** A copy of card ``code`` (null: a back) travels from ``from`` to ``to`` and goes. Returns ms. */
  Motion.prototype.fly = function (code, from, to, opts) {
    if (Motion.reduced() || !from || !to || !document.body.animate) { return 0; }
    var size = (opts && opts.size) || (from.width < to.width * 1.6 ? from : to);
    from = centered(from, size); to = centered(to, size);
    var delay = (opts && opts.delay) || 0, duration = (opts && opts.duration) || MOVE_MS;
    var ghost = D.cardImg(code);
    ghost.className = "flying-card";
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.left = from.left + "px"; ghost.style.top = from.top + "px";
    ghost.style.width = size.width + "px"; ghost.style.height = size.height + "px";
    document.body.appendChild(ghost);
    var dx = to.left - from.left, dy = to.top - from.top, s = to.width / size.width;
    var end = opts && opts.shrink ? " scale(" + (s * 0.6) + ")" : " scale(" + s + ")";
    var anim = ghost.animate([{ transform: "none", opacity: 1 },
      { transform: "translate(" + dx + "px," + dy + "px)" + end, opacity: opts && opts.fade ? 0.2 : 1 }],
      { duration: duration, delay: delay, easing: "cubic-bezier(.3,.6,.3,1)", fill: "both" });
    var gone = function () { if (ghost.parentNode) { ghost.parentNode.removeChild(ghost); } };
    anim.onfinish = gone; anim.oncancel = gone;
    this.note(delay, duration);
    return delay + duration;
  };

  /** Hide ``node`` until ``ms`` have passed (a card that a copy is still flying to). */
  Motion.prototype.holdBack = function (node, ms) {
    if (!node || !ms || !node.animate) { return; }
    node.animate([{ opacity: 0 }, { opacity: 0 }], { duration: ms });
  };

  // ---- sounds ------------------------------------------------------------------------------
  var SOUND_KEY = "dineri_sound";
  var NAMES = ["card", "capture", "chkobba", "turn", "low"];
  var cache = {};
  // "Your turn" never plays over the sound of the move that made it your turn (the Arabic phone
  // trial heard both within 10 ms): it waits until AFTER_MS after the last other sound. The turn
  // itself is not delayed, only its sound.
  var AFTER_MS = 350, lastOther = -Infinity, turnTimer = null;
  function clock() { return window.performance ? performance.now() : Date.now(); }
  function sound(name) {
    document.body.dataset.sound = name;
    try {
      var a = cache[name] || (cache[name] = new Audio(D.config.static + "sounds/" + name + ".wav"));
      a.currentTime = 0;
      var p = a.play();
      if (p && p.catch) { p.catch(function () { /* no sound before the first click: fine */ }); }
    } catch (e) { return false; }
    return true;
  }
  var Sound = {
    /** Whether the player turned sounds on (off by default; kept in localStorage). */
    on: function () { try { return localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { return false; } },
    set: function (on) { try { localStorage.setItem(SOUND_KEY, on ? "1" : "0"); } catch (e) { /* not kept */ } },
    /** Play one of NAMES when sounds are on; data-sound names the last one played (tests).
     * "turn" is queued: it plays once the page's current task is done (the move's own sound is
     * often played just after the view that gives the turn is drawn), and AFTER_MS after the last
     * other sound; ``still`` (optional) is asked then whether it is still wanted. */
    play: function (name, still) {
      if (NAMES.indexOf(name) < 0 || !Sound.on()) { return false; }
      if (name !== "turn") { lastOther = clock(); return sound(name); }
      clearTimeout(turnTimer);
      var due = function () {
        var wait = lastOther + AFTER_MS - clock();
        if (wait > 0) { turnTimer = setTimeout(due, wait); return; }
        turnTimer = null;
        if (!still || still()) { sound("turn"); }
      };
      turnTimer = setTimeout(due, 0);
      return true;
    },
    NAMES: NAMES
  };

  D.Motion = Motion;
  D.Sound = Sound;
})();
