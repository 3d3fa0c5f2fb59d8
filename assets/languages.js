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

// Pandapad: which letterforms a kanji or hanzi is drawn in (#45). Flutter's engine draws the
// characters Roboto lacks with the Noto slices the site serves (views/words/fonts.py); a character the
// Japanese, Chinese and Korean slices all have is taken from the family of navigator.language
// ("ja", "ko", "zh-CN"… compared whole: "ja-JP" is not "ja"), else from the Chinese one. So the
// engine is told the language Pandapad will speak, where it is one of those: the one chosen in
// Settings (kept by Flutter's shared_preferences as flutter.pandapad.language), else the first
// of the phone's own that Pandapad speaks (views/words/lang.of_phone). Read once, when Flutter starts:
// Settings opens the app again after a change between them (views/device/preferences.py).
(function () {
  "use strict";
  var SPOKEN = ["en", "de", "es", "fr", "it", "nl", "pl", "pt", "ja", "ko", "zh"];  // views/words/lang.LANGUAGES
  var FORMS = { ja: "ja", ko: "ko", zh: "zh-CN" };
  var speaks = null;
  try {
    var chosen = JSON.parse(localStorage.getItem("flutter.pandapad.language") || "null");
    if (typeof chosen === "string") speaks = chosen.split("_")[0];
  } catch (e) { /* no storage, or not a choice: the phone's own */ }
  if (SPOKEN.indexOf(speaks) < 0) {
    speaks = null;
    var tags = Array.prototype.slice.call(navigator.languages || [navigator.language || ""]);
    for (var i = 0; i < tags.length && speaks === null; i++) {
      var primary = String(tags[i]).toLowerCase().split(/[-_]/)[0];
      if (SPOKEN.indexOf(primary) >= 0) speaks = primary;
    }
  }
  if (!FORMS[speaks] || navigator.language === FORMS[speaks]) return;
  var form = FORMS[speaks];
  try {
    Object.defineProperty(Object.getPrototypeOf(navigator), "language", { configurable: true, get: function () { return form; } });
  } catch (e) {
    console.warn("Pandapad: kanji may be drawn in another language's letterforms: " + e);
  }
})();
