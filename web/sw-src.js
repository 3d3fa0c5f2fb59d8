// The phone build's service worker (make web): Workbox's precache of the whole site, so that
// after the first visit the app opens with no network. web/sw.mjs fills in the file list
// (every file with its content hash, where the manifest goes below) and copies Workbox beside it.
importScripts("WORKBOX_DIR/workbox-sw.js");
workbox.setConfig({ modulePathPrefix: "WORKBOX_DIR/", debug: false });

const { precaching, routing, core } = workbox;

// The page fetched every file moments before (the worker is registered once the app is up):
// ask the server whether each is unchanged (an ETag or date, answered "304 Not Modified")
// instead of Workbox's default of fetching it all again, which would double a first visit.
// Always asked, never taken unasked from the HTTP cache: a new build is never mixed with the old.
precaching.addPlugins([{
  requestWillFetch: async ({ request }) => new Request(request, { cache: "no-cache" }),
}]);
precaching.precacheAndRoute(self.__WB_MANIFEST);
precaching.cleanupOutdatedCaches();

// The fonts Flutter fetches for the characters its own lacks (views/words/fonts.py: Japanese,
// Chinese, Korean, Arabic, Hebrew, emoji… in slices) are precached by none: each is fetched by a
// phone that draws those characters, and kept then, for the next opening offline. Their
// addresses name their version, so the copy kept is the one to use.
const { strategies } = workbox;
const FONT_CACHE = "pandapad-fonts";
routing.registerRoute(({ url }) => url.origin === self.location.origin && url.pathname.includes("/assets/fonts/noto"),
                      new strategies.CacheFirst({ cacheName: FONT_CACHE }));

// A name typed with no network must not be drawn as boxes (#55): fonts fetched at first use are
// not there for a script the phone never drew before it went offline. So the offline copy keeps
// the phone's own script whole (a Japanese, Korean or Chinese phone: its family's slices), and
// once the copy is whole, the scripts a table types names in are kept in the background: the
// other CJK families (Japanese, Korean, simplified Chinese) and the small ones (Arabic, Hebrew,
// Greek and Cyrillic beyond Roboto, symbols, CJK punctuation). Of those CJK families only the
// slices of the characters names are mostly written with (#68, views/words/fonts.py everyday_slices:
// 3.2 MB of their 7.1); a rarer character's slice is kept at its first use, as before.
// Traditional Chinese (TC, HK) and the colour emoji, 17 MB between them, are kept at first use
// only, and nothing is fetched in the background for a phone that asks to save data.
const FONTS = FONT_FILES;  // web/sw.mjs: family folder -> its files
const EVERYDAY = EVERYDAY_FONT_FILES;  // web/sw.mjs: CJK family folder -> its slices kept in the background
const OWN_SCRIPT = { ja: "notosansjp", ko: "notosanskr", zh: "notosanssc" };
const AT_FIRST_USE = ["notocoloremoji", "notosanstc", "notosanshk"];

// `everyday`: of a CJK family, its everyday slices only (the background's), else every file.
async function keepFonts(families, everyday = false) {
  if (!families.length) return;
  const cache = await caches.open(FONT_CACHE);
  // Asked at every opening: once these families are kept for this build, one look says so,
  // not hundreds while the app starts.
  const whole = new URL(`fonts-kept/BUILD_ID/${families.join("+")}${everyday ? "/everyday" : ""}`, self.registration.scope).href;
  if (await cache.match(whole)) return;
  const urls = families.flatMap((family) => (everyday && EVERYDAY[family]) || FONTS[family] || [])
    .map((file) => new URL(file, self.registration.scope).href);
  // A few at a time: a phone's connection, not a burst of a hundred requests.
  for (let i = 0; i < urls.length; i += 6) {
    await Promise.all(urls.slice(i, i + 6).map(async (url) => {
      if (!(await cache.match(url))) await cache.add(url);
    }));
  }
  await cache.put(whole, new Response(""));
}

function ownScript(language) {
  const family = OWN_SCRIPT[String(language || "").toLowerCase().split(/[-_]/)[0]];
  return family ? [family] : [];
}

function otherScripts(language) {
  const own = ownScript(language);
  return Object.keys(FONTS).filter((family) => !own.includes(family) && !AT_FIRST_USE.includes(family));
}

// Flutter's engines (#44): the site has two builds of Flutter's app, each with its renderer
// (WebAssembly with skwasm where the browser has WasmGC, JavaScript with CanvasKit elsewhere,
// CanvasKit's Chromium flavour where it can), and a phone runs one. None is precached: the page
// names the files it loaded (web/page.js, once this worker is up) and they are kept then, in a
// cache of this build; a file asked for later (the browser gained WasmGC) is kept when first
// fetched. A new build's worker fetches, as it installs, the engine files the old build kept.
const ENGINE = /\/(main\.dart\.(js|mjs|wasm)|canvaskit\/.+)$/;
const ENGINE_CACHE = `pandapad-engine-BUILD_ID`;
routing.registerRoute(({ url }) => url.origin === self.location.origin && ENGINE.test(url.pathname),
                      new strategies.CacheFirst({ cacheName: ENGINE_CACHE }));

async function keepEngine(urls) {
  const cache = await caches.open(ENGINE_CACHE);
  // Asked again, never taken unasked from the HTTP cache: the files of this build only.
  await Promise.all(urls.filter((url) => ENGINE.test(new URL(url).pathname)).map(async (url) => {
    if (!(await cache.match(url))) await cache.add(new Request(url, { cache: "no-cache" }));
  }));
}

async function enginesOfOtherBuilds() {
  const urls = new Set();
  for (const name of await caches.keys()) {
    if (name.startsWith("pandapad-engine-") && name !== ENGINE_CACHE) {
      for (const request of await (await caches.open(name)).keys()) urls.add(request.url);
    }
  }
  return [...urls];
}

self.addEventListener("install", (event) => {
  event.waitUntil(enginesOfOtherBuilds().then(keepEngine));
});
// The Japanese fonts' own cache of before #45 goes too: the same slices are in pandapad-fonts.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => (name.startsWith("pandapad-engine-") && name !== ENGINE_CACHE) || name === "pandapad-japanese-fonts")
    .map((name) => caches.delete(name)))));
});

// The app's own addresses (/game/…, /history) are the page itself, offline too.
routing.registerRoute(new routing.NavigationRoute(precaching.createHandlerBoundToURL("index.html")));

// The first install takes the open page at once; a new build waits until the page asks for it
// (web/page.js), so a phone is never half on one build and half on the other.
core.clientsClaim();
// web/sw.mjs writes the build's name here and into its page; a page asks which build this is.
const BUILD = "BUILD_ID";
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
  if (event.data && event.data.type === "BUILD" && event.ports[0]) event.ports[0].postMessage(BUILD);
  if (event.data && event.data.type === "KEEP_ENGINE" && event.ports[0]) {
    const answer = event.ports[0];
    const language = event.data.language;
    event.waitUntil(Promise.all([keepEngine(event.data.urls || []), keepFonts(ownScript(language))])
      .then(() => answer.postMessage("kept"), (error) => answer.postMessage(`not kept: ${error}`))
      .then(() => (navigator.connection && navigator.connection.saveData) ? null : keepFonts(otherScripts(language), true)
        .then(() => answer.postMessage("fonts kept"), (error) => answer.postMessage(`fonts not kept: ${error}`))));
  }
});
