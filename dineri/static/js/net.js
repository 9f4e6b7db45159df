/* Dineri browser client: the connection layer (docs/protocol.md sections 3 and 4), alone.
 * Every protocol detail of the table socket lives here (frames, hello/resume, the history
 * catch-up, acks, resending, close codes); the pages get a plain stream instead (docs/web.md):
 *   welcome(info)   the socket is (re)joined: {seat, table, resume}
 *   table(table)    the table info changed (seats, away flags, clock, rematch)
 *   events(list)    these events happened: [{seq, event, old}], old = history (log only)
 *   view(info)      here is the full view: {view (null before the start), seat, table, seq}
 *                   (after an `update` frame too: net.js applies its patch to the last view)
 *   ack(id)         your action was accepted
 *   refused(id, code)  your action (id) or frame (id null) was refused; nothing changed
 *   closed(code)    the server refused this socket for good (4403 private, 4404 no table, ...)
 *   connection(up)  the socket opened (true) or dropped (false); it reconnects by itself
 * Events always arrive before the view they lead to. */
(function () {
  "use strict";
  var D = window.Dineri, _ = D._;

  /**
   * A WebSocket that reconnects with capped exponential backoff (0.5 s doubling to MAX_DELAY_MS,
   * each wait drawn between half of it and all of it, so a server's pages do not all come back in
   * step; 0.1 s first when an open socket drops, so a server process going away behind the
   * proxy costs a moment: issue 9 item 2), and at once when the browser is back online or the
   * tab is shown again. The cap is low on purpose: the fresh trial's page reconnected ~14 s after
   * its server was back (a 15 s cap); now it is within ~2 s. It shows the "connection lost"
   * banner, with the attempts so far, while it is down for longer than OFFLINE_AFTER_MS (a
   * fail-over shows nothing), and never for a socket the server refused for good.
   * handlers: onopen(socket), onmessage(msg), onstate(connected), onrefused(closeCode).
   */
  var OFFLINE_AFTER_MS = 1500, MAX_DELAY_MS = 2000;
  var sockets = [];  // every live socket of the page (a test may drop one to check recovery)
  function LiveSocket(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    this.delay = 500;
    this.ws = null;
    this.closed = false;
    this.connected = false;
    this.attempts = 0;     // connection attempts since it was last up (the banner says how many)
    this.timer = null;     // the next attempt
    sockets.push(this);
    this.connect();
  }
  // Back online, or the tab shown again: try at once instead of waiting out the backoff.
  function retryNow() {
    sockets.forEach(function (s) {
      if (s.closed || s.connected || s.ws) { return; }
      clearTimeout(s.timer);
      s.timer = null;
      s.connect();
    });
  }
  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { retryNow(); } });
  LiveSocket.prototype.url = function () {
    var proto = location.protocol === "https:" ? "wss:" : "ws:";
    return proto + "//" + location.host + this.path;
  };
  LiveSocket.prototype.connect = function () {
    var self = this;
    var ws;
    if (!this.connected) { this.attempts += 1; showAttempts(this); }
    try { ws = new WebSocket(this.url()); } catch (e) { this.retry(); return; }
    this.ws = ws;
    ws.onopen = function () {
      self.delay = 500;
      self.attempts = 0;
      self.setConnected(true);
      if (self.handlers.onopen) { self.handlers.onopen(self); }
    };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      self.handlers.onmessage(msg);
    };
    ws.onclose = function (ev) {
      self.ws = null;
      if (self.connected) { self.delay = 100; }  // it was up: its process went away, come back at once
      self.setConnected(false);
      // Refusals (docs/protocol.md: 1008 Origin, 4403 private, 4404 no table, 4429 replaced by a
      // newer socket) would be refused again: stop instead of retrying, and tell the page.
      if ([1008, 4403, 4404, 4429].indexOf(ev.code) >= 0) {
        self.closed = true;
        // Refused, not lost: no "connection lost" banner (a removed guest saw one, issue 13).
        if (self.offlineTimer) { clearTimeout(self.offlineTimer); self.offlineTimer = null; }
        var banner = document.getElementById("offline");
        if (banner && !sockets.some(function (s) { return !s.closed && !s.connected; })) { banner.hidden = true; }
        if (self.handlers.onrefused) { self.handlers.onrefused(ev.code); }
      }
      if (!self.closed) { self.retry(); }
    };
    ws.onerror = function () { /* onclose follows and retries */ };
  };
  LiveSocket.prototype.retry = function () {
    var self = this;
    var wait = this.delay * (0.5 + Math.random() * 0.5);
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.timer = null; if (!self.closed && !self.ws) { self.connect(); } }, wait);
  };
  /** The banner's attempt count ("Attempt 3"), once it shows. */
  function showAttempts(sock) {
    var line = document.getElementById("offline-attempts");
    if (line) { line.textContent = D.fmt(_("Attempt {n}"), { n: sock.attempts }); }
  }
  LiveSocket.prototype.setConnected = function (up) {
    var self = this;
    this.connected = up;
    var banner = document.getElementById("offline");
    if (up) {
      if (this.offlineTimer) { clearTimeout(this.offlineTimer); this.offlineTimer = null; }
      if (banner) { banner.hidden = true; }
    } else if (!this.offlineTimer) {
      this.offlineTimer = setTimeout(function () {
        self.offlineTimer = null;
        if (!self.connected && banner) { banner.hidden = false; }
      }, OFFLINE_AFTER_MS);
    }
    if (this.handlers.onstate) { this.handlers.onstate(up); }
  };
  LiveSocket.prototype.send = function (obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  };
  LiveSocket.prototype.close = function () {
    this.closed = true;
    if (this.ws) { this.ws.close(); }
  };

  var HISTORY = 40;     // recent events shown in the log of a page that just opened
  var RESEND_MS = 30000; // an unacknowledged action older than this is dropped, not resent

  /**
   * The table socket of one table: ``new Dineri.TableNet(tableId, handlers)`` (handlers as the
   * header says; every one optional). ``act(action)`` sends a game action and returns its id, or
   * null when not connected; ``chat(text)`` returns whether it was sent; ``close()``.
   */
  function TableNet(tableId, handlers) {
    var self = this;
    this.h = handlers || {};
    this.lastSeq = null;     // the last event number seen live
    this.pending = {};       // id -> {action, at}: sent, not yet acked
    this.actionNo = 0;
    this.historyAsked = false;
    this.historyFrom = null; // ask once more from here, after the first view
    this.historyUpTo = null; // events up to here are history
    this.view = null;        // the whole view as the frames left it (update frames patch it)
    this.seat = null;
    this.table = null;
    var path = D.config.endpoints.table_ws.replace("{id}", encodeURIComponent(tableId));
    this.socket = new LiveSocket(path, {
      onopen: function (sock) {
        sock.send({ type: "hello", last_event: self.lastSeq });
        // An action sent just before the connection dropped may or may not have landed: send it
        // again with the same id, which the server applies at most once (docs/protocol.md).
        Object.keys(self.pending).forEach(function (id) {
          var p = self.pending[id];
          if (Date.now() - p.at < RESEND_MS) { sock.send({ type: "action", id: id, action: p.action }); }
          else { delete self.pending[id]; }
        });
      },
      onmessage: function (msg) { self.onFrame(msg); },
      onstate: function (up) { self.emit("connection", up); },
      onrefused: function (code) { self.emit("closed", code); }
    });
  }
  TableNet.prototype.emit = function (name) {
    var f = this.h[name];
    if (f) { f.apply(null, Array.prototype.slice.call(arguments, 1)); }
  };
  TableNet.prototype.onFrame = function (msg) {
    switch (msg.type) {
      case "welcome":
        // A fresh page (nothing seen yet) asks once more for the last events, to fill the log.
        if (!msg.resume && this.lastSeq === null && !this.historyAsked && msg.last_event > 0) {
          this.historyAsked = true;
          this.historyFrom = Math.max(0, msg.last_event - HISTORY);
        }
        this.seat = msg.seat;
        this.table = msg.table;
        this.emit("welcome", { seat: msg.seat, table: msg.table, resume: !!msg.resume });
        break;
      case "view":
        this.lastSeq = msg.seq;
        this.view = msg.view;
        this.seat = msg.seat;
        this.table = msg.table;
        this.emit("view", { view: msg.view, seat: msg.seat, table: msg.table, seq: msg.seq });
        if (this.historyFrom !== null) {
          this.socket.send({ type: "hello", last_event: this.historyFrom });
          this.historyFrom = null;
          this.historyUpTo = this.lastSeq;
        }
        break;
      case "event":
        // Events up to what the page has already shown are history: the log only, no dialogs.
        var old = this.lastSeq !== null && msg.seq <= this.lastSeq;
        if (old && this.historyUpTo !== null && msg.seq > this.historyUpTo) { break; } // already shown live
        if (!old) { this.lastSeq = msg.seq; }
        this.emit("events", [{ seq: msg.seq, event: msg.event, old: old }]);
        break;
      case "update":
        this.onUpdate(msg);
        break;
      case "ack":
        delete this.pending[msg.id];
        this.emit("ack", msg.id);
        break;
      case "error":
        if (msg.id) { delete this.pending[msg.id]; }
        this.emit("refused", msg.id || null, msg.code);
        break;
      case "table":
        this.table = msg.table;
        this.emit("table", msg.table);
        break;
      default:
        break;
    }
  };
  // One committed change (docs/protocol.md "update"): its events, this seat's one-time secrets,
  // then the view patched (each key of msg.view replaces the old value), or the table alone,
  // then the ack. A patch never comes before a whole view: the server resyncs with `view`.
  TableNet.prototype.onUpdate = function (msg) {
    var self = this, list = [];
    msg.events.forEach(function (e) {
      if (self.lastSeq !== null && e.seq <= self.lastSeq) { return; } // already shown
      self.lastSeq = e.seq;
      list.push({ seq: e.seq, event: e.event, old: false });
    });
    (msg["private"] || []).forEach(function (ev) {
      // A one-time secret for this seat alone (golf4's peek, G6): live, never history or resent.
      list.push({ seq: msg.seq, event: ev, old: false, "private": true });
    });
    if (list.length) { this.emit("events", list); }
    if (msg.table) { this.table = msg.table; }
    if (msg.view && this.view) {
      var view = {};
      Object.keys(this.view).forEach(function (k) { view[k] = self.view[k]; });
      Object.keys(msg.view).forEach(function (k) { view[k] = msg.view[k]; });
      this.view = view;
      this.lastSeq = Math.max(this.lastSeq || 0, msg.seq);
      this.emit("view", { view: view, seat: this.seat, table: this.table, seq: msg.seq });
    } else if (msg.table) {
      this.emit("table", msg.table);
    }
    if (msg.ack) {
      delete this.pending[msg.ack];
      this.emit("ack", msg.ack);
    }
  };
  TableNet.prototype.act = function (action) {
    this.actionNo += 1;
    var id = "a" + Date.now().toString(36) + "-" + this.actionNo;
    if (!this.socket.send({ type: "action", id: id, action: action })) { return null; }
    this.pending[id] = { action: action, at: Date.now() };
    return id;
  };
  TableNet.prototype.chat = function (text) { return this.socket.send({ type: "chat", text: text }); };
  TableNet.prototype.close = function () { this.socket.close(); };

  D.sockets = sockets;
  D.LiveSocket = LiveSocket;
  D.TableNet = TableNet;
})();
