// Pandapad: a browser whose language tag is not a language (WebKitGTK under a "C" locale says
// navigator.language is "C") leaves Flutter's first frame throwing "Incorrect locale information
// provided", and the app on its logo for good (#46). Loaded before Flutter, by both hosts: the
// tags the browser reports are kept where they are languages, and English stands in for none.
(function () {
  "use strict";
  function valid(tag) {
    try {
      return typeof tag === "string" && Intl.getCanonicalLocales(tag).length === 1;
    } catch (e) {
      return false;
    }
  }
  var told = [];
  try {
    told = Array.prototype.slice.call(navigator.languages || []);
    if (!told.length && navigator.language) told = [navigator.language];
  } catch (e) { /* nothing told: English */ }
  var languages = told.filter(valid);
  if (languages.length === told.length && told.length) return;  // every tag a language: as it is
  if (!languages.length) languages = ["en"];
  var proto = Object.getPrototypeOf(navigator);
  try {
    Object.defineProperty(proto, "languages", { configurable: true, get: function () { return languages.slice(); } });
    Object.defineProperty(proto, "language", { configurable: true, get: function () { return languages[0]; } });
  } catch (e) {
    console.warn("Pandapad: the browser's languages (" + told + ") cannot be mended: " + e);
  }
})();
