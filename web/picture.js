// Pandapad on a phone by itself (make web): the pad as it was left, on the screen at once (#68).
// Flutter and Python take seconds to start on an ordinary phone; a picture of the pad, kept when it
// was last still, shows the totals from the first second, under a thin progress line.
// - Kept: Python says the pad is still (views/hosts/standalone.py, a "still" step with the store's
//   stamp: its newest write and its number of files); once Flutter has drawn it, the page keeps a
//   picture of its canvas in Cache Storage, with that stamp, the address and how the phone looked.
// - Shown: only while it is still true: the store in IndexedDB has the stamp it was taken at (no
//   tap, import or other tab wrote since), and the build, the address, the screen's size, the
//   phone's language, text size and dark mode are those it was taken with. A cleared site loses it
//   with the rest. Otherwise the opening screen is as before.
// - Gone: when Flutter has drawn Python's first screen (web/early.js "pandapad-drawn").
// - A tap on it is held. On the live pad it is made again where the finger was, if the live pad
//   shows there what the picture showed; otherwise the person is told to tap again. Never lost,
//   never on another control.
(function () {
  "use strict";
  // Python's start and Flutter's wait for the picture (web/early.js): let go once it is painted
  // or known not to be shown.
  var letGo = window.pandapadLetGo || function () {};
  var frame = window.pandapadFrame || function (callback) { setTimeout(callback, 16); };
  if (!("caches" in window) || !("indexedDB" in window) || !window.Promise) return void letGo();
  var CACHE = "pandapad-picture";
  var KEY = new URL("pandapad-picture", document.baseURI).href;
  var STORE = "/data";         // IDBFS's database: the store's folder (standalone.py MOUNT)
  var FILES = "FILE_DATA";     // its object store, with a "timestamp" index (Emscripten's IDBFS)
  var build = document.querySelector('meta[name="pandapad-build-id"]');
  build = build ? build.content : "";
  var root = new URL(document.baseURI).pathname;

  function route() {
    var path = location.pathname;
    return "/" + (path.indexOf(root) === 0 ? path.slice(root.length) : path.replace(/^\//, ""));
  }

  // Everything the pad's look depends on besides the game: a picture taken otherwise is not shown.
  function look() {
    var chosen = {};
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key.indexOf("flutter.pandapad.") === 0) chosen[key] = localStorage.getItem(key);
      }
    } catch (e) { /* no storage: the phone's own choices only */ }
    var keys = Object.keys(chosen).sort();
    return JSON.stringify({
      build: build, width: innerWidth, height: innerHeight, scale: devicePixelRatio,
      dark: !!(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches),
      languages: navigator.languages ? Array.prototype.slice.call(navigator.languages) : [navigator.language],
      text: getComputedStyle(document.documentElement).fontSize,
      chosen: keys.map(function (k) { return [k, chosen[k]]; })
    });
  }

  // The store as IndexedDB holds it: [newest write in ms, number of files and folders], or null
  // when there is no store (never made here: a database opened only to look is not left behind).
  function storeStamp() {
    return new Promise(function (resolve) {
      var request;
      try { request = indexedDB.open(STORE); } catch (e) { return resolve(null); }
      request.onupgradeneeded = function () { request.transaction.abort(); };
      request.onerror = function (event) { event.preventDefault(); resolve(null); };
      request.onsuccess = function () {
        var db = request.result, newest = null, count = null;
        try {
          var files = db.transaction([FILES], "readonly").objectStore(FILES);
          files.count().onsuccess = function (event) { count = event.target.result; };
          files.index("timestamp").openKeyCursor(null, "prev").onsuccess = function (event) {
            newest = event.target.result ? +event.target.result.key : 0;
          };
          files.transaction.oncomplete = function () { db.close(); resolve([newest, count]); };
          files.transaction.onerror = files.transaction.onabort = function () { db.close(); resolve(null); };
        } catch (e) {
          db.close();
          resolve(null);
        }
      };
    });
  }

  window.pandapadStoreStamp = storeStamp;  // what a picture must be taken at to be shown (tests ask it)

  function sameStamp(a, b) {
    return !!(a && b && a[0] === b[0] && a[1] === b[1]);
  }

  // Flutter's canvases (in its glass pane's shadow root), as laid on the screen.
  function canvases() {
    var found = [];
    (function walk(node) {
      node.querySelectorAll("canvas").forEach(function (c) { found.push(c); });
      node.querySelectorAll("*").forEach(function (el) { if (el.shadowRoot) walk(el.shadowRoot); });
    })(document.querySelector("flutter-view") || document.body);
    return found.filter(function (c) { return c.width > 0 && c.height > 0 && c.getBoundingClientRect().width > 0; });
  }

  // What Flutter shows, in device pixels (or of the box x, y, w, h in CSS pixels).
  function drawn(box) {
    var scale = devicePixelRatio, live = canvases();
    if (!live.length) return null;
    var at = box || [0, 0, innerWidth, innerHeight];
    var out = document.createElement("canvas");
    out.width = Math.round(at[2] * scale);
    out.height = Math.round(at[3] * scale);
    var pen = out.getContext("2d");
    live.forEach(function (c) {
      var r = c.getBoundingClientRect();
      pen.drawImage(c, (r.left - at[0]) * scale, (r.top - at[1]) * scale, r.width * scale, r.height * scale);
    });
    return out;
  }

  // ---------------------------------------------------------------- keeping the picture

  var still = null;     // Python's last "still": {route, stamp}
  var waiting = null;   // the timer of the picture about to be taken
  var SETTLE_MS = 400;  // after "still": Flutter's frames of the last change are drawn

  window.addEventListener("pandapad-still", function (event) {
    still = event.detail;
    clearTimeout(waiting);
    waiting = setTimeout(function () {
      waiting = null;
      // When the page is idle: never in the middle of a frame or a tap on a slow phone.
      if (window.requestIdleCallback) requestIdleCallback(keep, { timeout: 10000 }); else keep();
    }, SETTLE_MS);
  });
  // Going to the background or closing: a picture about to be taken is taken now.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden" && waiting !== null) {
      clearTimeout(waiting);
      waiting = null;
      keep();
    }
  });

  function keep() {
    var said = still;
    if (!said || !/^\/game\//.test(said.route) || said.route !== route() || document.getElementById("pandapad-opening")) {
      return Promise.resolve(false);
    }
    // IndexedDB must hold what Python said: a write since may not be drawn yet, and a picture of
    // the screen before it would be taken for the game after it.
    return storeStamp().then(function (stamp) {
      if (!sameStamp(stamp, said.stamp) || still !== said || said.route !== route()) return false;
      var picture = drawn();
      if (!picture) return false;
      var meta = JSON.stringify({ route: said.route, stamp: said.stamp, look: look() });
      return new Promise(function (resolve) { picture.toBlob(resolve, "image/png"); }).then(function (png) {
        if (!png || still !== said) return false;
        return caches.open(CACHE).then(function (cache) {
          return cache.put(KEY, new Response(png, { headers: { "content-type": "image/png", "x-pandapad-picture": meta } }));
        }).then(function () {
          window.dispatchEvent(new CustomEvent("pandapad-picture-kept", { detail: meta }));
          return true;
        });
      });
    }).catch(function (error) {
      console.warn("Pandapad: no picture of the pad kept (" + error + ")");
      return false;
    });
  }

  // ---------------------------------------------------------------- showing it at the opening

  var picture = null;   // the <img> shown, once decoded
  var held = [];        // taps on the picture: {x, y, mark}

  function opening() {
    var screen = document.getElementById("pandapad-opening");
    return screen && screen.parentNode && !screen.hasAttribute("data-going") ? screen : null;
  }

  function show() {
    if (!/^\/game\//.test(route())) return Promise.resolve(letGo());  // pictures are of pads only
    return Promise.all([caches.open(CACHE).then(function (c) { return c.match(KEY); }), storeStamp()])
      .then(function (found) {
        var kept = found[0], stamp = found[1];
        if (!kept) return;
        var meta = JSON.parse(kept.headers.get("x-pandapad-picture") || "null") || {};
        var why = meta.route !== route() ? "another screen" : meta.look !== look() ? "the phone looks otherwise"
          : !sameStamp(meta.stamp, stamp) ? "the games were written since" : null;
        if (why) return void console.log("Pandapad: the picture of the pad is not shown: " + why);
        return kept.blob().then(function (png) {
          var img = new Image();
          img.className = "picture";
          img.alt = "";
          img.setAttribute("elementtiming", "pandapad-picture");  // when it is painted (bench_web_cold.py)
          img.src = URL.createObjectURL(png);
          return (img.decode ? img.decode() : Promise.resolve()).then(function () {
            var screen = opening();
            if (!screen) return;
            picture = img;
            screen.insertBefore(img, screen.firstChild);
            screen.classList.add("picture");
            screen.addEventListener("pointerdown", down);
            screen.addEventListener("pointerup", up);
            window.dispatchEvent(new CustomEvent("pandapad-picture-shown"));
            frame(function () { frame(letGo); });  // painted: the rest may start
          });
        });
      }).catch(function (error) { console.warn("Pandapad: no picture of the pad shown (" + error + ")"); })
      .then(function () { if (!picture) letGo(); });
  }

  var downAt = null;
  function down(event) {
    downAt = [event.clientX, event.clientY];
  }
  function up(event) {
    if (!downAt || Math.abs(event.clientX - downAt[0]) > 12 || Math.abs(event.clientY - downAt[1]) > 12) return;
    downAt = null;
    var screen = opening();
    if (!screen) return;
    var mark = document.createElement("div");
    mark.className = "held";
    mark.style.left = event.clientX + "px";
    mark.style.top = event.clientY + "px";
    screen.appendChild(mark);
    held.push({ x: event.clientX, y: event.clientY, mark: mark });
    screen.classList.add("holding");  // "Opening… one moment" (web/opening.html)
  }

  // How alike the live pad and the picture are in the box (CSS pixels) about a tap: the share of
  // their device pixels that differ by more than a little in any colour.
  function differs(box) {
    var live = drawn(box);
    if (!live) return 1;
    var scale = devicePixelRatio;
    var then = document.createElement("canvas");
    then.width = live.width;
    then.height = live.height;
    then.getContext("2d").drawImage(picture, -box[0] * scale, -box[1] * scale, innerWidth * scale, innerHeight * scale);
    var a = live.getContext("2d").getImageData(0, 0, live.width, live.height).data;
    var b = then.getContext("2d").getImageData(0, 0, then.width, then.height).data;
    var off = 0;
    for (var i = 0; i < a.length; i += 4) {
      if (Math.abs(a[i] - b[i]) > 24 || Math.abs(a[i + 1] - b[i + 1]) > 24 || Math.abs(a[i + 2] - b[i + 2]) > 24) off++;
    }
    return off / (a.length / 4);
  }

  var TAP_BOX = 24;  // CSS pixels about the finger that must look as they did

  function tapAgain(tap) {
    var x = tap.x, y = tap.y;
    var target = document.elementFromPoint(x, y);
    if (!target) return;
    var base = { clientX: x, clientY: y, screenX: x, screenY: y, bubbles: true, cancelable: true, composed: true,
                 pointerId: 1, pointerType: "touch", isPrimary: true, width: 8, height: 8, view: window };
    target.dispatchEvent(new PointerEvent("pointerdown", Object.assign({ button: 0, buttons: 1, pressure: 0.5 }, base)));
    return new Promise(function (resolve) {
      setTimeout(function () {  // a finger's tap, not a click of no length
        target.dispatchEvent(new PointerEvent("pointerup", Object.assign({ button: 0, buttons: 0, pressure: 0 }, base)));
        setTimeout(resolve, 60);
      }, 40);
    });
  }

  // Flutter has drawn the live pad: the held taps are judged against it, then the picture goes and
  // those that land where they were meant are made again, one after another.
  window.addEventListener("pandapad-drawn", function () {
    var screen = opening();
    if (!picture || !screen) return;
    var taps = held.splice(0);
    // The whole pad first: a tap means what it means among all the pad shows (whose hand it is),
    // then the place of each tap.
    var alike = function (box) {
      try { return differs(box) < 0.02; } catch (e) { return false; }  // a canvas that cannot be read: not made
    };
    var same = taps.length > 0 && alike([0, 0, innerWidth, innerHeight]);
    var judged = taps.map(function (tap) {
      return same && alike([tap.x - TAP_BOX / 2, tap.y - TAP_BOX / 2, TAP_BOX, TAP_BOX]);
    });
    if (typeof window.pandapadOpeningGone === "function") window.pandapadOpeningGone();
    var refused = taps.filter(function (tap, i) { return !judged[i]; });
    taps.filter(function (tap, i) { return judged[i]; }).reduce(function (before, tap) {
      return before.then(function () { return tapAgain(tap); });
    }, Promise.resolve()).then(function () {
      window.dispatchEvent(new CustomEvent("pandapad-taps-made", { detail: { made: taps.length - refused.length, refused: refused.length } }));
    });
    if (refused.length && typeof window.pandapadSay === "function") window.pandapadSay("again");
  });

  if (navigator.serviceWorker && navigator.serviceWorker.controller) show();  // a first visit has kept none
  else letGo();
})();
