// Pandapad on a phone by itself (make web): loaded by the page before Flutter starts.
// - Asks the browser to keep the games (storage it may otherwise clear when the phone is short
//   of space); an installed app is usually granted this without a question.
// - Registers the service worker (sw.js, made by Workbox) that keeps the whole app for offline use.
// - A new build, once the worker has fetched all of it, is taken at the next visit or when the
//   app goes to the background: the page reloads into it whole, never half old and half new.
(function () {
  "use strict";
  if (navigator.storage && navigator.storage.persisted) {
    navigator.storage.persisted().then(function (kept) {
      if (!kept && navigator.storage.persist) return navigator.storage.persist();
    }).catch(function () {});
  }
  if (!("serviceWorker" in navigator)) return;  // http:// on a LAN address: no offline copy
  var swapping = false;
  // A page that a worker served is that worker's build. When another worker takes it over, it
  // loads again from the new one: whether this page asked for the swap (below) or the page it
  // replaces did, as it went hidden during a reload (then this page was served by the old
  // worker just before the new one took over, and would have stayed the old build). The very
  // first worker taking a first visit's page does not reload it.
  var servedByWorker = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (swapping || servedByWorker) location.reload();
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
        location.reload();
      }
    };
    worker.postMessage({ type: "BUILD" }, [channel.port2]);
  }
  function takeNewBuild(registration) {
    if (swapping || !registration.waiting || !navigator.serviceWorker.controller) return;
    swapping = true;
    registration.waiting.postMessage({ type: "SKIP_WAITING" });
  }
  var registered = false;
  function register() {
    if (registered) return;
    registered = true;
    navigator.serviceWorker.register("sw.js").then(function (registration) {
      window.pandapadWorker = registration;
      takeNewBuild(registration);  // fetched during an earlier visit: this visit is the new build
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "hidden") takeNewBuild(registration);
      });
    }).catch(function (error) {
      console.warn("Pandapad: no offline copy (" + error + ")");
    });
  }
  if (navigator.serviceWorker.controller) {
    sameBuild(navigator.serviceWorker.controller);
    register();  // the offline copy is there: only ask whether a newer build is out
    return;
  }
  // A first visit: the offline copy is made once the app is up (the app says so on this channel,
  // views/standalone.py), so that it asks the server only whether the files it just sent are
  // unchanged, instead of fetching them a second time alongside the page.
  if ("BroadcastChannel" in window) {
    new BroadcastChannel("pandapad").onmessage = function (event) {
      if (event.data === "ready") register();
    };
  }
  window.addEventListener("load", function () { setTimeout(register, 60000); });
})();
