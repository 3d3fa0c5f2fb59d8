// Pandapad on a phone by itself (make web): loaded by the page before Flutter starts.
// - Asks the browser to keep the games (storage it may otherwise clear when the phone is short
//   of space); an installed app is usually granted this without a question.
// - Registers the service worker (sw.js, made by Workbox) that keeps the whole app for offline use.
// - A new build, once the worker has fetched all of it, is taken at the next visit or when the
//   app goes to the background: the page reloads into it whole, never half old and half new.
(function () {
  "use strict";
  // Open straight into the game (#44): a phone that was on a game's pad when the app was last
  // closed opens on that pad, not on the home, when it opens the app's own address (the home
  // screen's icon). Read before Flutter reads the address; kept at every change of screen.
  var LAST = "pandapad-last-screen";
  var root = new URL(document.baseURI).pathname;
  try {
    var last = localStorage.getItem(LAST);
    if (last && /^game\/[\w-]+$/.test(last) && location.pathname === root && !location.search) {
      history.replaceState(history.state, "", root + last);
    }
  } catch (e) { /* no localStorage: the home, as before */ }
  function remember() {
    try {
      var path = location.pathname.indexOf(root) === 0 ? location.pathname.slice(root.length) : "";
      localStorage.setItem(LAST, path);
    } catch (e) { /* nothing kept: the home next time */ }
  }
  ["pushState", "replaceState"].forEach(function (name) {
    var original = history[name];
    history[name] = function () {
      var result = original.apply(this, arguments);
      remember();
      return result;
    };
  });
  window.addEventListener("popstate", remember);

  if (performance.setResourceTimingBufferSize) performance.setResourceTimingBufferSize(2000);
  if (navigator.storage && navigator.storage.persisted) {
    navigator.storage.persisted().then(function (kept) {
      if (!kept && navigator.storage.persist) return navigator.storage.persist();
    }).catch(function () {});
  }
  // Installed: a browser that would not keep the games for a site often does for an app (#46).
  window.addEventListener("appinstalled", function () {
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
  });
  // The browser cleared the site's data under the app (#55): the games of this tab are then only
  // in its memory (views/hosts/standalone.py says so, through web/early.js) until the person
  // keeps them again or exports them. Meanwhile the page never loads itself again, and a reload
  // or a close asks first: loading again is the one way left to lose them.
  var holding = false;
  function leaving(event) {
    event.preventDefault();
    event.returnValue = "";  // the browser's own question; its words are not ours to choose
  }
  window.addEventListener("pandapad-step", function (event) {
    if (event.detail === "storage-lost" && !holding) {
      holding = true;
      window.addEventListener("beforeunload", leaving);
    } else if (event.detail === "storage-kept" && holding) {
      holding = false;
      window.removeEventListener("beforeunload", leaving);
      if ("serviceWorker" in navigator) offlineAgain();
    }
  });
  function reload() {
    if (!holding) location.reload();
  }
  if (!("serviceWorker" in navigator)) return;  // http:// on a LAN address: no offline copy
  var swapping = false;
  // A page whose worker is replaced by one of another build loads again, from the new one:
  // whether this page asked for the swap (below) or the page it replaces did, as it went hidden
  // during a reload (then this page was served by the old worker just before the new one took
  // over, and would have stayed the old build). A worker of this page's own build taking it (a
  // first visit's first worker, the offline copy made again) and a worker taken away (the site's
  // data cleared: no controller at all) leave the page as it is.
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (swapping) reload();
    else if (navigator.serviceWorker.controller) sameBuild(navigator.serviceWorker.controller);
  });
  // A page of one build under the worker of another loads again, from that worker: it would
  // otherwise fetch the rest of the app (Python's archive, Flutter) from the other build. This
  // happens when the new worker took over between the page's request and this script (the
  // old page, going hidden as it reloaded, asked for the swap): then no controllerchange is
  // left for this page to see.
  var build = document.querySelector('meta[name="pandapad-build-id"]');
  function sameBuild(worker) {
    if (!build || !("MessageChannel" in window)) return;
    var channel = new MessageChannel();
    channel.port1.onmessage = function (event) {
      var tried = sessionStorage.getItem("pandapad-loaded-again-for");  // once per build: never a loop
      if (event.data !== build.content && !swapping && tried !== event.data) {
        sessionStorage.setItem("pandapad-loaded-again-for", event.data);
        swapping = true;
        reload();
      }
    };
    worker.postMessage({ type: "BUILD" }, [channel.port2]);
  }
  // Flutter's engine files this page loaded (Flutter chose them for this browser), kept by the
  // worker for the next opening (web/sw-src.js); once they are, the whole app is on the phone,
  // and the app says so, the first time (views/hosts/standalone.py).
  function keepEngine(worker) {
    if (!("MessageChannel" in window)) return;
    var engine = /\/(main\.dart\.(js|mjs|wasm)|canvaskit\/.+)$/;
    var urls = performance.getEntriesByType("resource").map(function (e) { return e.name.split("#")[0]; })
      .filter(function (url) { return new URL(url).origin === location.origin && engine.test(new URL(url).pathname); });
    var channel = new MessageChannel();
    channel.port1.onmessage = function (event) {
      if (event.data === "fonts kept") return void (window.pandapadFonts = true);
      if (event.data !== "kept") return console.warn("Pandapad: " + event.data);
      window.pandapadOffline = true;
      try {
        if (localStorage.getItem("pandapad-offline-told")) return;
        localStorage.setItem("pandapad-offline-told", "1");
      } catch (e) { return; }
      if ("BroadcastChannel" in window) new BroadcastChannel("pandapad").postMessage("offline-ready");
    };
    // navigator.language names the phone's script (assets/languages.js sets it to the language
    // Pandapad speaks where that is Japanese, Korean or Chinese): its fonts are kept whole too.
    worker.postMessage({ type: "KEEP_ENGINE", urls: urls, language: navigator.language }, [channel.port2]);
  }
  function takeNewBuild(registration) {
    if (swapping || holding || !registration.waiting || !navigator.serviceWorker.controller) return;
    swapping = true;
    registration.waiting.postMessage({ type: "SKIP_WAITING" });
  }
  var registered = false;
  function register() {
    if (registered) return;
    registered = true;
    navigator.serviceWorker.register("sw.js").then(function (registration) {
      window.pandapadWorker = registration;
      navigator.serviceWorker.ready.then(function (ready) { keepEngine(ready.active); });
      takeNewBuild(registration);  // fetched during an earlier visit: this visit is the new build
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "hidden") takeNewBuild(registration);
      });
    }).catch(function (error) {
      console.warn("Pandapad: no offline copy (" + error + ")");
    });
  }
  // The games kept again after a clear: the offline copy that went with the site's data is made
  // again, so the app still opens with no network next time.
  function offlineAgain() {
    navigator.serviceWorker.getRegistration().then(function (registration) {
      if (registration) return;
      registered = false;
      register();
    }).catch(function () {});
  }
  if (navigator.serviceWorker.controller) {
    sameBuild(navigator.serviceWorker.controller);
    register();  // the offline copy is there: only ask whether a newer build is out
    return;
  }
  // A first visit: the offline copy is made once the app is up (the app says so on this channel,
  // views/hosts/standalone.py), so that it asks the server only whether the files it just sent are
  // unchanged, instead of fetching them a second time alongside the page.
  if ("BroadcastChannel" in window) {
    new BroadcastChannel("pandapad").onmessage = function (event) {
      if (event.data === "ready") register();
    };
  }
  window.addEventListener("load", function () { setTimeout(register, 60000); });
})();
