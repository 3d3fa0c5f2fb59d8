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

// The Japanese fonts (not precached: only a phone reading Japanese asks for them) are kept once
// fetched, for the next opening offline; a new build's copy is fetched in the background.
const { strategies } = workbox;
routing.registerRoute(({ url }) => url.pathname.includes("/assets/fonts/notosansjp/")
                      || url.pathname.endsWith("/fonts/pandapad-ja.woff2"),
                      new strategies.StaleWhileRevalidate({ cacheName: "pandapad-japanese-fonts" }));

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
});
