// Pandapad: tell the person at the table, in words, when this phone cannot reach the laptop.
//
// Flet's client shows only a wordless spinner over the game when its socket closes, and nothing
// at all when the Wi-Fi stalls (the socket stays open; taps queue and land seconds later, so
// people tap again). The server sends a pulse every PULSE_MS; a socket that is closed, or silent
// for longer than STALE_MS, means "not connected". Then a banner says so over the game, which
// stays visible, and a veil takes every tap: nothing reaches the pad, so nothing queues to land
// later, and a tap on the veil says it was not saved. Flet's socket (PatientWebSocket) hears of
// a drop only once the table answers again, and then reconnects at once; the server draws the
// screen anew from the store, and the veil goes a moment after the server has spoken again.
(() => {
  const PULSE_MS = 500;           // views/hosts/connection.py PULSE (seconds) * 1000
  const STALE_MS = 3 * PULSE_MS;  // three pulses missed: the link is stalled
  const SETTLE_MS = 250;          // after the link is back: the redraw arrives first
  const NativeWebSocket = window.WebSocket;
  const link = window.__pandapadLink = {
    everUp: false, open: false, lastIn: 0, down: false, downSince: null, backAt: null, refused: 0,
  };
  let veil = null, banner = null, title = null, detail = null, backTimer = null;
  // The banner's words in this phone's language, left in its preferences by the server
  // (views/device/preferences.py OFFLINE_WORDS_KEY; Flutter keeps a preference as JSON under "flutter.").
  const ENGLISH = {title: "Not connected \u2014 taps are not saved", trying: "Trying to reach the table\u2026",
                   refused: "That tap was not saved. Trying to reach the table\u2026"};

  function words() {
    try {
      const kept = JSON.parse(JSON.parse(localStorage.getItem("flutter.pandapad.offline_words")));
      return Object.assign({}, ENGLISH, kept);
    } catch (error) {
      return ENGLISH;
    }
  }

  function build() {
    if (veil) return;
    veil = document.createElement("div");
    veil.id = "pandapad-offline";
    veil.setAttribute("role", "alert");
    veil.style.cssText = "position:fixed;inset:0;z-index:2147483647;display:none;" +
      "background:rgba(0,0,0,0.18);touch-action:none;-webkit-user-select:none;user-select:none;";
    banner = document.createElement("div");
    banner.style.cssText = "position:absolute;left:8px;right:8px;bottom:16px;padding:12px 16px;" +
      "border-radius:12px;background:#B3261E;color:#fff;font:600 18px/1.3 system-ui,sans-serif;" +
      "box-shadow:0 4px 16px rgba(0,0,0,0.35);text-align:center;";
    title = document.createElement("div");
    detail = document.createElement("div");
    detail.style.cssText = "font-weight:400;font-size:16px;margin-top:4px;";
    banner.append(title, detail);
    veil.append(banner);
    // Every tap and key stops here while the link is down: none may queue up to land later.
    for (const type of ["pointerdown", "pointerup", "touchstart", "touchend", "mousedown", "mouseup",
                        "click", "wheel", "keydown"]) {
      veil.addEventListener(type, (event) => {
        event.stopPropagation();
        if (event.cancelable && type !== "wheel") event.preventDefault();
        if (type === "pointerdown" || type === "keydown") refused();
      }, {capture: true, passive: false});
    }
    document.body.append(veil);
  }

  function refused() {
    link.refused += 1;
    detail.textContent = words().refused;
    banner.animate([{transform: "scale(1.04)"}, {transform: "scale(1)"}], {duration: 250});
  }

  function goDown() {
    if (link.down || !link.everUp) return;
    build();
    clearTimeout(backTimer);
    link.down = true;
    link.downSince = performance.now();
    const said = words();  // the phone's language may have changed since the last time
    banner.lang = said.lang || "en";
    title.textContent = said.title;
    detail.textContent = said.trying;
    veil.style.display = "block";
  }

  function comeBack() {
    if (!link.down || backTimer) return;
    backTimer = setTimeout(() => {
      backTimer = null;
      if (!link.open || performance.now() - link.lastIn > STALE_MS) return;
      link.down = false;
      link.backAt = performance.now();
      veil.style.display = "none";
    }, SETTLE_MS);
  }

  let lastCheck = performance.now();

  function check() {
    const now = performance.now();
    // A check that runs late found the page busy (drawing a big screen) or asleep: the pulses
    // may be waiting in its queue, unread. Judge the silence at the next check, on time.
    const late = now - lastCheck > PULSE_MS;
    lastCheck = now;
    if (link.open && late) return;
    const silent = now - link.lastIn > STALE_MS;
    if (!link.open || silent) {
      clearTimeout(backTimer);
      backTimer = null;
      goDown();
    } else {
      comeBack();
    }
  }

  // Flet's client waits longer and longer between tries while the table cannot be reached
  // (measured: 4 s after the Wi-Fi came back). So a try Flet makes only fails for Flet when it
  // is given up: until then this socket stays "connecting" and dials again every RETRY_MS, and
  // the phone is back within a moment of the network.
  const RETRY_MS = 250;
  const GIVE_UP_MS = 10 * 60 * 1000;

  // The table's socket, dialed as the page loads. Flet's client dials once its engine has
  // started, and on a phone whose frames are drawn on the page's thread its first (empty)
  // frame then holds the handshake back ~200 ms: the home came that much later (#34). The
  // server says nothing until Flet's client registers, so Flet's first dial takes this socket
  // over as it is; a socket that heard anything, or an address Flet does not ask for, is not.
  let early = null;
  // The language chosen in Settings (#33) goes to the table with the socket's handshake, as a
  // cookie: the table then draws the first screen in it without asking the phone first (a
  // round trip: 50 ms of bench_join). Empty: the phone's own language (Accept-Language).
  try {
    const chosen = JSON.parse(localStorage.getItem("flutter.pandapad.language") || "null");
    document.cookie = "pandapad_language=" + (typeof chosen === "string" ? encodeURIComponent(chosen) : "") +
      "; path=/; SameSite=Strict";
  } catch (e) { /* no storage: the table asks the phone */ }
  try {
    const address = new URL("ws", document.baseURI);
    address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
    const dialed = {url: address.href, socket: new NativeWebSocket(address.href), heard: false};
    dialed.socket.addEventListener("message", () => { dialed.heard = true; });
    early = dialed;
  } catch (e) { early = null; }

  function earlySocket(url, protocols) {
    const found = early;
    early = null;
    if (!found) return null;
    const plain = protocols === undefined || (Array.isArray(protocols) && protocols.length === 0);
    const usable = found.socket.readyState === NativeWebSocket.CONNECTING ||
      found.socket.readyState === NativeWebSocket.OPEN;
    if (found.url === new URL(url, location.href).href && plain && usable && !found.heard) return found.socket;
    found.socket.close();
    return null;
  }

  class PatientWebSocket extends EventTarget {
    constructor(url, protocols) {
      super();
      this.url = url;
      this._protocols = protocols;
      this._binaryType = "blob";
      this._native = null;
      this._state = NativeWebSocket.CONNECTING;
      this._since = performance.now();
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      link.socket = this;
      link.open = false;
      this._dial();
    }
    get readyState() { return this._state; }
    get binaryType() { return this._binaryType; }
    set binaryType(value) { this._binaryType = value; if (this._native) this._native.binaryType = value; }
    get bufferedAmount() { return this._native ? this._native.bufferedAmount : 0; }
    get protocol() { return this._native ? this._native.protocol : ""; }
    get extensions() { return this._native ? this._native.extensions : ""; }

    _emit(event) {
      const handler = this["on" + event.type];
      if (typeof handler === "function") handler.call(this, event);
      this.dispatchEvent(event);
    }

    _dial() {
      const taken = earlySocket(this.url, this._protocols);
      const native = taken || (this._protocols === undefined ? new NativeWebSocket(this.url)
        : new NativeWebSocket(this.url, this._protocols));
      native.binaryType = this._binaryType;
      this._native = native;
      let opened = false;
      const open = () => {
        if (opened) return;
        opened = true;
        this._state = NativeWebSocket.OPEN;
        if (link.socket === this) link.open = true;
        this._emit(new Event("open"));
      };
      native.addEventListener("open", open);
      // Taken over already open: its "open" has been and gone, so Flet hears it once its
      // constructor has returned and its handlers are on: a microtask, not a task, which
      // would wait behind the frame that is the reason for dialing early.
      if (native.readyState === NativeWebSocket.OPEN) queueMicrotask(open);
      native.addEventListener("message", (e) => {
        if (link.socket === this) {
          link.lastIn = performance.now();
          link.everUp = true;
          if (link.down) comeBack();
        }
        this._emit(new MessageEvent("message", {data: e.data, origin: e.origin}));
      });
      native.addEventListener("close", (e) => {
        if (!opened && this._state === NativeWebSocket.CONNECTING &&
            performance.now() - this._since < GIVE_UP_MS) {
          setTimeout(() => { if (this._state === NativeWebSocket.CONNECTING) this._dial(); }, RETRY_MS);
          return;  // not yet reachable: Flet is not told, this try goes on
        }
        if (link.socket === this) { link.open = false; check(); }
        if (opened && this._state === NativeWebSocket.OPEN) {
          // Dropped under Flet's feet. Told now, Flet would cover the game with its wordless
          // spinner for the whole outage; told once the table answers again, it reconnects at
          // once and the game stays on screen, under the banner, meanwhile.
          this._state = NativeWebSocket.CLOSING;
          this._waitForTable(e);
          return;
        }
        this._closed(e, opened);
      });
    }

    _closed(e, opened) {
      this._state = NativeWebSocket.CLOSED;
      if (!opened) this._emit(new Event("error"));
      this._emit(new CloseEvent("close", {code: e.code, reason: e.reason, wasClean: e.wasClean}));
    }

    _waitForTable(e) {
      // The page's own address answers without the token (only the socket needs it).
      if (this._state !== NativeWebSocket.CLOSING) return;  // Flet closed it meanwhile
      fetch(document.baseURI, {method: "HEAD", cache: "no-store"})
        .then((answer) => {
          if (!answer.ok) throw new Error(answer.status);
          if (this._state === NativeWebSocket.CLOSING) this._closed(e, true);
        })
        .catch(() => setTimeout(() => this._waitForTable(e), RETRY_MS));
    }

    send(data) {
      if (this._state === NativeWebSocket.CLOSING) return;  // dropped: lost like the rest
      if (this._state !== NativeWebSocket.OPEN) throw new DOMException("not open", "InvalidStateError");
      this._native.send(data);
    }

    close(code, reason) {
      if (this._state === NativeWebSocket.CLOSED) return;
      if (this._state === NativeWebSocket.CLOSING) {  // already dropped: Flet is told now
        this._closed({code: 1000, reason: "", wasClean: true}, true);
        return;
      }
      this._state = NativeWebSocket.CLOSING;
      if (code === undefined) this._native.close(); else this._native.close(code, reason);
    }
  }
  for (const key of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) {
    PatientWebSocket[key] = NativeWebSocket[key];
    PatientWebSocket.prototype[key] = NativeWebSocket[key];
  }

  function PandapadWebSocket(url, protocols) {
    let ours = false;
    try {
      ours = new URL(url, location.href).pathname.endsWith("/ws");  // Flet's app socket, not others
    } catch (e) { /* an odd URL: not ours */ }
    if (ours) return new PatientWebSocket(url, protocols);
    return protocols === undefined ? new NativeWebSocket(url) : new NativeWebSocket(url, protocols);
  }
  PandapadWebSocket.prototype = NativeWebSocket.prototype;
  for (const key of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) PandapadWebSocket[key] = NativeWebSocket[key];
  window.WebSocket = PandapadWebSocket;

  setInterval(check, PULSE_MS / 2);
  // A phone waking up: its timers were asleep, look at once.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
})();
