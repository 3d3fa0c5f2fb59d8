// Pandapad on a phone by itself (make web): Python starts with the page, not after Flutter.
// Flet's python.js starts the Python worker only when the Flutter app asks to connect, which is
// after its compiled app and renderer have loaded (0.6 s of an offline start here, more on a first
// visit). Pyodide's start does not need Flutter: this script starts the same worker with the
// same first message at once, and hands it to python.js's jsConnect when Flutter asks, with
// whatever the worker said meanwhile. Loaded after python.js, whose _apps and jsConnect it uses.

// The pad's picture first (#68, web/picture.js): on a slow phone Python's start and Flutter's take
// the page's core for seconds, and the picture waited behind them (1.8 s at a quarter of a core).
// Both wait until the picture is painted or known not to be shown (picture.js lets them go), at
// most AFTER_PICTURE_MS. Flutter's loader is started here, not by a tag of the page (web/build.py).
(function () {
  "use strict";
  var AFTER_PICTURE_MS = 1500;
  var letGo;
  window.pandapadAfterPicture = new Promise(function (resolve) { letGo = resolve; });
  window.pandapadLetGo = function () { letGo(); };
  setTimeout(letGo, AFTER_PICTURE_MS);
  window.pandapadFrame = window.requestAnimationFrame.bind(window);  // never held (below)
  window.pandapadAfterPicture.then(function () {
    function boot() {
      var script = document.createElement("script");
      script.src = "flutter_bootstrap.js";
      script.async = true;
      document.body.appendChild(script);
    }
    if (document.body) boot(); else document.addEventListener("DOMContentLoaded", boot);
  });
})();

(function () {
  "use strict";
  if (typeof flet === "undefined" || !flet.pyodide || typeof jsConnect !== "function") return;
  var base = flet.entrypointBaseUrl.endsWith("/") ? flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl;
  var worker = new Worker(base + "/python-worker.js", { type: "module" });
  var frames = holdFrames();
  var said = [];        // what the worker posted before Flutter connected, in order
  var listener = null;  // python.js's handler once Flutter has connected
  worker.onmessage = function heard(event) {
    var data = event.data;
    if (data && typeof data === "object" && typeof data.pandapad === "string") {
      // The worker's own steps (web/python-worker.js): for the opening screen, never for Flutter.
      if (data.pandapad === "started" || data.pandapad === "restored from the site") keepPythonOnceUp();
      if (data.pandapad === "ready") frames.release();
      if (data.pandapad === "still") {  // the pad is still, as stored: a picture of it may be kept (web/picture.js)
        window.dispatchEvent(new CustomEvent("pandapad-still", { detail: data }));
        return;
      }
      window.dispatchEvent(new CustomEvent("pandapad-step", { detail: data.pandapad }));
      return;
    }
    if (data && typeof data === "object" && typeof data.pandapadLink === "string") {
      // For the table of phones (web/link.js): the page holds the connections.
      window.dispatchEvent(new CustomEvent("pandapad-link", { detail: data.pandapadLink }));
      return;
    }
    if (data && typeof data === "object" && Array.isArray(data.pandapadBatch)) {
      // Flet's messages of one step of Python's (web/python-worker.js sendOut): handed to Flutter
      // in this one task, so its next frame has them all.
      data.pandapadBatch.forEach(function (bytes) { heard({ data: bytes }); });
      return;
    }
    if (typeof data === "string" && data !== "initialized") {  // Python did not start: the opening screen goes
      frames.release();
      window.dispatchEvent(new CustomEvent("pandapad-step", { detail: "failed" }));
    }
    lastStir = performance.now();  // Python drew something: the phone is in use (whenStill)
    if (listener) listener(event); else said.push(event);
  };
  var python = worker;  // kept: `worker` is handed to python.js below

  // Until Python has sent the first screen, Flutter has nothing of the app to draw: only Flet's
  // boot spinner, under the opening screen, where nobody sees it. Drawn a frame each display
  // refresh, it took the page's thread from Flet's start and, on a phone, a core from Python's:
  // 0.9 s of frames here before a pad, 3 s at half a core (#52). Flutter asks its frames of
  // requestAnimationFrame; they are held until Python says its first screen is sent (a step
  // after that screen's message, so Flutter's next frame is the app's) or did not start.
  function holdFrames() {
    var ask = window.requestAnimationFrame, drop = window.cancelAnimationFrame;
    var held = new Map(), given = new Map(), next = -1, holding = true;
    // Left in place once released, passing each frame through: a script may have kept them.
    window.requestAnimationFrame = function (callback) {
      if (!holding) return ask.call(window, callback);
      held.set(next, callback);
      return next--;
    };
    window.cancelAnimationFrame = function (id) {
      if (held.has(id)) held.delete(id);
      else drop.call(window, given.has(id) ? given.get(id) : id);
    };
    return {
      release: function () {
        if (!holding) return;
        holding = false;
        held.forEach(function (callback, id) { given.set(id, ask.call(window, callback)); });
        held.clear();
        // The frame after the first one Flutter draws: the app's first screen is on the glass by
        // then (web/picture.js takes the picture of the pad away at that moment, not before).
        ask.call(window, function () {
          ask.call(window, function () { window.dispatchEvent(new CustomEvent("pandapad-drawn")); });
        });
      }
    };
  }

  window.pandapadToPython = function (text) { python.postMessage({ pandapadLink: text }); };
  var build = document.querySelector('meta[name="pandapad-build-id"]');
  // The first message python.js would send for a published app (its Dart side passes no args).
  window.pandapadAfterPicture.then(function () {
    worker.postMessage({
      pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
      args: {},
      documentUrl: document.URL,
      appPackageUrl: flet.appPackageUrl,
      micropipIncludePre: flet.micropipIncludePre,
      pythonModuleName: flet.pythonModuleName,
      build: build ? build.content : null  // names the snapshot of Python this build may restore
    });
  });

  // Python started without a snapshot of the phone's own (a first visit, a new build, a snapshot
  // thrown away), or restored from the site's: once the app is up and the phone is still (below),
  // a second worker keeps one for the next opening (web/python-worker.js keepPython) and is ended
  // when it is done. The site's snapshot is not kept as it came: only a start leaves the browser
  // Python's optimized code, and without it every later opening was 1.5-2 s slower at half a core.
  function keepPythonOnceUp() {
    if (!build || !("caches" in window) || !("BroadcastChannel" in window)) return;
    var channel = new BroadcastChannel("pandapad");
    channel.addEventListener("message", function up(event) {
      if (event.data !== "ready") return;
      channel.close();
      setTimeout(function () { offlineCopyInPlace().then(function () { whenStill(keepPython); }); }, 3000);
    });
  }

  // The keeper is a second Python start: 9 s of a core here, a minute of a mid-range phone's
  // quarter core, and the page's own Python waits behind it. Started while a person taps (a first
  // visit is often a table's first game), it slowed every tap of that minute (at a quarter core:
  // median 680 ms against 265, bench/bench_first_minute.py). So it waits until the phone has been
  // still for STILL_MS: no touch or key, and nothing new from Python (a table's host draws its
  // guests' taps). A phone never still that long keeps no snapshot this time; its next opening
  // restores the site's, as a first visit does, and tries again.
  var STILL_MS = 8000;
  var lastStir = performance.now();
  function stirred() { lastStir = performance.now(); }
  ["pointerdown", "keydown", "wheel"].forEach(function (type) {
    window.addEventListener(type, stirred, { capture: true, passive: true });
  });

  function whenStill(job) {
    var timer = setInterval(function () {
      if (performance.now() - lastStir < STILL_MS) return;
      clearInterval(timer);
      job();
    }, 1000);
  }

  // The keeper starts Python afresh: the one start whose WebAssembly runs hot enough for the
  // browser to optimize much of it, and Chromium keeps that code with the response it was compiled
  // from. Every later opening reads Pyodide from the offline copy: a keeper started before the
  // service worker took this page read the network's copy, and its code went to the HTTP cache,
  // which an opening with no network never reads. A browser with no service worker, or one whose
  // offline copy is not in place within a minute, keeps its snapshot anyway.
  function offlineCopyInPlace() {
    if (!("serviceWorker" in navigator) || navigator.serviceWorker.controller) return Promise.resolve();
    return new Promise(function (resolve) {
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
      setTimeout(resolve, 60000);
    });
  }

  // The keeper ends a while after its snapshot is kept: V8 hands Chromium a module's optimized
  // code once none of it was compiled for 2 s (--wasm-caching-timeout-ms), and its last functions
  // are still being optimized as the snapshot is made; ended at once, the keeper's copy kept
  // nothing. An opening with that code kept is 0.3-0.6 s quicker here (bench_web_cold says
  // whether a run's phone has it). Idle meanwhile, on the first visit only.
  var KEEPER_GRACE_MS = 10000;

  function keepPython() {
    console.log("Pandapad: the keeper of Python started");
    var keeper = new Worker(base + "/python-worker.js", { type: "module" });
    keeper.onmessage = function (event) {
      if (!event.data || event.data.pandapad !== "snapshot-done") return;
      setTimeout(function () {
        keeper.terminate();
        console.log("Pandapad: the keeper of Python ended");
      }, KEEPER_GRACE_MS);
    };
    keeper.postMessage({ keepPython: true, build: build.content, pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
                         documentUrl: document.URL, appPackageUrl: flet.appPackageUrl });
  }

  var connect = jsConnect;
  globalThis.jsConnect = async function (appId, args, dartOnMessage) {
    var plain = args === undefined || args === null || JSON.stringify(args) === "{}";
    if (!worker || !plain) return connect(appId, args, dartOnMessage);  // not the start this worker made
    var app = { dartOnMessage: dartOnMessage, worker: worker };
    worker = null;
    _apps[appId] = app;
    var error;
    var initialized = new Promise(function (resolve) {
      listener = function (event) {
        if (typeof event.data === "string") {
          if (event.data !== "initialized") error = event.data;
          resolve();
        } else {
          app.dartOnMessage(event.data);
        }
      };
    });
    said.splice(0).forEach(listener);
    await initialized;
    if (error) {
      console.error("Python worker init error:", error);
      await jsDisconnect(appId);
      throw error;
    }
    console.log("Python worker initialized: " + appId);
  };
})();
