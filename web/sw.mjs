// Writes the phone build's service worker (make web; web/build.py runs this): Workbox's
// injectManifest puts the list of every file of the site, each with its content hash, into
// web/sw-src.js, and Workbox's own scripts are copied beside it (no CDN).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { copyWorkboxLibraries, injectManifest } from "workbox-build";

const here = dirname(fileURLToPath(import.meta.url));
const site = process.argv[2];
for (const old of readdirSync(site).filter((f) => f.startsWith("workbox-v"))) {
  rmSync(join(site, old), { recursive: true });
}
const workboxDir = await copyWorkboxLibraries(site);
// Only the production builds of Workbox's modules: the dev builds and source maps are never loaded.
for (const f of readdirSync(join(site, workboxDir))) {
  if (f.includes(".dev.") || f.endsWith(".map")) rmSync(join(site, workboxDir, f));
}
// The precompressed copies (x.br, x.gz beside x) are for the static server, not for the cache:
// the browser decompresses what it is sent. app.tar.gz is the app itself, and is kept.
const copies = readdirSync(site, { recursive: true })
  .filter((f) => /\.(br|gz)$/.test(f) && existsSync(join(site, f.replace(/\.(br|gz)$/, ""))));

// The build's own name, a hash of every file, the pages without their name: written into the
// page and into the worker, so that a page can tell whether the worker that now controls it is of
// its build (web/page.js), whatever order the browser swapped them in. A change to the pages alone
// (Flutter's renderer is chosen there) is a new build: a picture or an engine kept of the old one
// is not taken for this one's.
const pages = ["index.html", "404.html"];
const unnamed = (page) => readFileSync(join(site, page), "utf8").replace(/\n\s*<meta name="pandapad-build-id"[^>]*>/, "");
// Python's snapshot sent with the site (web/ship_snapshot.py) is made of this build after it is
// named, and names it itself; the worker keeps it once restored, so it is no file of the offline copy.
const shipped = ["python-snapshot.gz", "python-snapshot.json"];
const hash = createHash("sha256");
for (const f of readdirSync(site, { recursive: true }).sort()) {
  if (pages.includes(f)) {
    hash.update(f).update("\0").update(unnamed(f)).update("\0");
    continue;
  }
  if (shipped.includes(f) || copies.includes(f) || f === "sw.js" || f.startsWith(".") || f.startsWith(workboxDir)
      || !statSync(join(site, f)).isFile()) continue;
  hash.update(f).update("\0").update(readFileSync(join(site, f))).update("\0");
}
const build = hash.digest("hex").slice(0, 16);
for (const page of pages) {
  const html = unnamed(page);
  writeFileSync(join(site, page), html.replace("<head>", `<head>\n  <meta name="pandapad-build-id" content="${build}">`));
}

// The fallback fonts the site serves (views/words/fonts.py), by family folder ("notosansjp": its slices):
// the worker keeps a phone's own script whole, and the others in the background (sw-src.js).
const fontRoot = join(site, "assets", "fonts");
const fonts = {};
for (const f of (existsSync(fontRoot) ? readdirSync(fontRoot, { recursive: true }) : []).sort()) {
  if (!f.endsWith(".woff2")) continue;
  const family = f.split(/[\\/]/)[0];
  (fonts[family] ||= []).push(`assets/fonts/${f.split(/[\\/]/).join("/")}`);
}

// Of the CJK families, the slices the worker keeps in the background (web/build.py writes them,
// views/words/fonts.py everyday_slices: the characters names are mostly written with).
const everyday = process.argv[3] ? JSON.parse(readFileSync(process.argv[3], "utf8")) : {};

const source = join(site, ".sw-src.js");
writeFileSync(source, readFileSync(join(here, "sw-src.js"), "utf8").replaceAll("WORKBOX_DIR", workboxDir)
  .replaceAll("BUILD_ID", build).replace("EVERYDAY_FONT_FILES", JSON.stringify(everyday))
  .replace("FONT_FILES", JSON.stringify(fonts)));

const { count, size, warnings } = await injectManifest({
  globDirectory: site,
  globPatterns: ["**/*"],
  // The worker and Workbox are kept by the browser as the worker's own; 404.html is index.html again.
  // The fallback fonts are asked for by a phone that draws their characters only, and kept then (sw-src.js).
  // Flutter's engines are kept per phone, only the one it runs (sw-src.js). Flutter's licence text
  // (shown by no screen of Pandapad) and media_kit's HLS player (no video) are never asked for.
  globIgnores: [...copies, ...shipped, "sw.js", ".sw-src.js", "404.html", `${workboxDir}/**`, "assets/fonts/noto*/**",
                "main.dart.js", "main.dart.mjs", "main.dart.wasm", "canvaskit/**",
                "assets/NOTICES", "assets/packages/media_kit/**"],
  swSrc: source,
  swDest: join(site, "sw.js"),
  // pyodide.asm.wasm (9.6 MB) and main.dart.js are the largest files the app needs.
  maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
});
rmSync(source);
for (const w of warnings) console.warn(`workbox: ${w}`);
console.log(`sw.js precaches ${count} files of build ${build}, ${(size / 1024 / 1024).toFixed(1)} MB`);
