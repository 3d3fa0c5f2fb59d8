// Pandapad's Python worker for the phone build (make web), in place of flet-web's python-worker.js.
// It speaks the same protocol to python.js and Flet's Python side (a first message with the app's
// addresses; "initialized" or an error text once the app runs; Flet's messages both ways; flet_js
// for the bridge), and adds what makes a cold opening quick (#44):
// - A memory snapshot of Python. Once the app is up after a start without one (a first visit, a
//   new build), the page starts a second worker of this script that starts Python afresh,
//   imports what views/hosts/warm.py `prepare` names and keeps a copy of Python's memory in Cache
//   Storage, keyed by the build's name, then ends: the first visit waits for none of it. Every
//   later start restores that copy instead of starting Python again: seconds become a fraction
//   of one. A snapshot that cannot be read or restored is thrown away and Python starts as on a
//   first visit; one of another build is never read (its key differs) and is deleted at the next
//   start.
// - The same snapshot sent with the site (#52, web/ship_snapshot.py: made in Chromium as the
//   second worker makes it), so that a first visit restores Python too; the second worker then
//   keeps the phone's own, as after a start. Only the build it was made of reads it; a phone that
//   refuses it never fetches it again for that build, and starts Python as on a first visit.
// - The packages' compiled extensions (pydantic_core's, msgpack's) in the snapshot too (#52), as
//   Cloudflare's Python Workers keep them in theirs: they are files of the site of their own (web/
//   build.py python_libs), compiled by WebAssembly.compileStreaming while Pyodide starts (the
//   browser keeps the compiled code for the next opening), and loaded into Python before it starts,
//   in the same order at the same point of every start, so each library gets the same memory and
//   the same slots of the function table every time. Python's dlopen then finds each one loaded.
//   A snapshot records where each library was placed and which dlopen handles point to it; a start
//   that places them otherwise (another build of Pyodide, another library) throws the snapshot
//   away, and a snapshot is never kept if Python loaded any other library.
// - No archive format guessed, no requirements installed: the build packs every package (web/build.py).
// - Its steps told to the page (early.js shows them) as {pandapad: step} messages, which python.js
//   never sees.
"use strict";

const SNAPSHOTS = "pandapad-python";  // Cache Storage: one snapshot, of the build that runs
self.flet_js = {};                     // Flet's Python side reads and sets its bridge here
let appRunning = false;                // prints before the app runs go to the console only

// The packages' compiled extensions, in the order they are loaded: their path in Python's files
// (an empty file there: Python's import finds it, dlopen finds the library already loaded) and
// their address in the site. Written by web/build.py.
const LIBS = /* PANDAPAD_PYTHON_LIBS */[];
const LIBS_HEADER = "x-pandapad-libs"; // on the kept snapshot: where each library was placed, and its pages
const HOME = "/home/pyodide";         // Python's working folder, where the app is (web/build.py PHONE_HOME)
// A snapshot keeps Python's memory without its pages of zeros (#52): a third of the memory (10 MB
// of them at its end), which were read from the disk and copied through the browser at every opening.
const PAGE = 4096;

function step(name) {
  self.postMessage({ pandapad: name });
}

function output(text, isStderr) {
  if (!appRunning || !self.flet_js.send_python_output) {
    (isStderr ? console.error : console.log)(text);
    return;
  }
  // Pyodide calls these with the GIL released: the bridge runs Python, so later.
  queueMicrotask(() => self.flet_js.send_python_output(text, isStderr));
}

function snapshotKey(build) {
  return new URL(`python-snapshot/${build}`, self.location.href).href;
}

// The snapshot this build may restore: the one this phone kept, else the one sent with the site (a
// first visit): what it says of its libraries at once, its bytes as a promise (read while Pyodide's
// own files load).
async function findSnapshot(build) {
  if (!build || !self.caches) return null;
  let cache;
  try {
    cache = await caches.open(SNAPSHOTS);
    const key = snapshotKey(build);
    const kept = await cache.match(key);
    for (const old of await cache.keys()) {
      if (old.url !== key && old.url !== refusedKey(build)) cache.delete(old);  // another build's: never valid here
    }
    if (!kept) return shippedSnapshot(build, cache);
    const libs = JSON.parse(kept.headers.get(LIBS_HEADER) || "null");
    if (!libs || !Array.isArray(libs.placed)) throw new Error("it does not say where its libraries were placed");
    const pages = pagesOf(libs);
    return { bytes: kept.arrayBuffer().then((buffer) => keptBytes(new Uint8Array(buffer), pages)), libs, pages };
  } catch (error) {
    console.warn(`Pandapad: the kept Python could not be read (${error})`);
    await dropSnapshot(build);
    return null;
  }
}

// Python's snapshot sent with the site (web/ship_snapshot.py): 16 MB fetched once, for a phone that
// keeps none yet. Read only if it was made of this very build (another build's memory holds
// another app), and never fetched again for a build whose snapshot this phone refused.
async function shippedSnapshot(build, cache) {
  try {
    if (await cache.match(refusedKey(build))) return null;
    // A phone asked to save data: 16 MB less, and Python started here (seconds longer, once).
    if (self.navigator.connection && self.navigator.connection.saveData) return null;
    // No network (a new build's first opening may be offline), or a site built without one:
    // Python starts as it always did, and the site's is tried again at the next opening.
    const about = await fetch(new URL("python-snapshot.json", self.location.href)).catch(() => null);
    if (!about || !about.ok) return null;
    const made = await about.json();
    if (made.build !== build) return null;
    // Made where Pyodide had stack switching (Chromium), which it sets itself up with: a browser
    // without (Safari, WebKit) would place the libraries otherwise and refuse it after 16 MB.
    if (made.stackSwitching !== ("Suspending" in WebAssembly)) return null;
    const libs = made.libs;
    if (!libs || !Array.isArray(libs.placed)) throw new Error("it does not say where its libraries were placed");
    const pages = pagesOf(libs);
    const shipped = { libs, pages, shipped: true, unreachable: false };
    shipped.bytes = fetch(new URL("python-snapshot.gz", self.location.href)).then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status} for python-snapshot.gz`);
      return new Uint8Array(await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    }).catch((error) => {
      shipped.unreachable = true;  // the network, not the snapshot: tried again at the next opening
      throw error;
    }).then((bytes) => keptBytes(bytes, pages));
    shipped.bytes.catch(() => {});  // awaited by the restore, which says why
    return shipped;
  } catch (error) {
    console.warn(`Pandapad: the site's Python could not be read (${error})`);
    await refuseShipped(build);
    return null;
  }
}

// Pyodide's snapshot: its header (headerSize bytes: its own words), then the whole memory.
function headerSizeOf(bytes) {
  return new Uint32Array(bytes.buffer, bytes.byteOffset, 2)[1];
}

// The memory's pages that are not all zeros, as runs [first page, pages]: the snapshot keeps only
// these, after Pyodide's header.
function pagesToKeep(bytes) {
  const headerSize = headerSizeOf(bytes);
  const heap = bytes.length - headerSize;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + headerSize, heap / 4);
  const runs = [];
  const step = PAGE / 4;
  for (let page = 0; page * step < words.length; page++) {
    let zero = true;
    for (let i = page * step, end = Math.min(words.length, i + step); i < end; i++) {
      if (words[i] !== 0) { zero = false; break; }
    }
    if (zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1]++;
    else runs.push([page, 1]);
  }
  return { size: PAGE, heap, runs };
}

// The bytes of memory a snapshot keeps: its pages' runs.
function keptLength(pages) {
  return pages.runs.reduce((sum, [, count]) => sum + count, 0) * PAGE;
}

// Pyodide's header, then each run of kept pages, one after another.
function sparse(bytes, pages) {
  const headerSize = headerSizeOf(bytes);
  const out = new Uint8Array(headerSize + keptLength(pages));
  out.set(bytes.subarray(0, headerSize));
  let at = headerSize;
  for (const [first, count] of pages.runs) {
    const from = headerSize + first * PAGE;
    out.set(bytes.subarray(from, from + count * PAGE), at);
    at += count * PAGE;
  }
  return out;
}

// What a kept snapshot says of its pages, checked: a snapshot that says otherwise is not read.
function pagesOf(libs) {
  const pages = libs.pages;
  const whole = (n) => Number.isInteger(n) && n >= 0;
  if (!pages || pages.size !== PAGE || !whole(pages.heap) || !Array.isArray(pages.runs)
      || !pages.runs.every((run) => Array.isArray(run) && run.length === 2 && whole(run[0]) && whole(run[1])
                                    && (run[0] + run[1]) * PAGE <= pages.heap)) {
    throw new Error("it does not say which pages of Python's memory it keeps");
  }
  return pages;
}

// The kept bytes, checked against what the snapshot says of its pages.
function keptBytes(bytes, pages) {
  const kept = keptLength(pages);
  if (bytes.length < 8 || bytes.length !== headerSizeOf(bytes) + kept) {
    throw new Error(`its ${bytes.length} bytes are not the ${kept} bytes of memory it says it keeps`);
  }
  return bytes;
}

async function keepSnapshot(build, bytes, libs) {
  try {
    const pages = pagesToKeep(bytes);
    const body = sparse(bytes, pages);
    const cache = await caches.open(SNAPSHOTS);
    await cache.put(snapshotKey(build), new Response(body, {
      headers: { "content-type": "application/octet-stream", [LIBS_HEADER]: JSON.stringify({ ...libs, pages }) } }));
    console.log(`Pandapad: Python kept for the next opening (${(body.length / 1e6).toFixed(1)} MB of ${(bytes.length / 1e6).toFixed(1)} MB; ${engineFrom()})`);
  } catch (error) {  // a full disk: the next opening starts Python as this one did
    console.warn(`Pandapad: Python could not be kept for the next opening (${error})`);
  }
}

// Where this worker's Python engine was read from (web/early.js starts the keeper once the offline
// copy serves the page: the optimized code the browser keeps for it goes with that copy).
function engineFrom() {
  const engine = performance.getEntriesByType("resource").find((entry) => entry.name.endsWith("/pyodide.asm.wasm"));
  if (!engine) return "its engine's source unknown";
  return engine.workerStart > 0 ? "its engine read from the offline copy" : "its engine read from the network";
}

async function dropSnapshot(build) {
  try {
    await (await caches.open(SNAPSHOTS)).delete(snapshotKey(build));
  } catch (error) {
    console.warn(`Pandapad: a broken snapshot could not be deleted (${error})`);
  }
}

// The snapshot a restore came from thrown away: the phone's own deleted, the site's never fetched
// again for this build (a phone whose own cannot be kept would fetch 16 MB at every opening).
function refusedKey(build) {
  return snapshotKey(build) + "/refused";
}

async function refuseShipped(build) {
  try {
    await (await caches.open(SNAPSHOTS)).put(refusedKey(build), new Response(""));
  } catch (error) {
    console.warn(`Pandapad: a refused snapshot could not be noted (${error})`);
  }
}

async function throwAway(build, snapshot) {
  if (!snapshot.shipped) await dropSnapshot(build);
  else if (!snapshot.unreachable) await refuseShipped(build);
}

// Each compiled extension, fetched and compiled while Pyodide starts. compileStreaming lets the
// browser keep the compiled code with the response (Chromium's code cache): the next opening
// compiles nothing. A host that sends another type than application/wasm gets the bytes compiled.
function compileLibs() {
  return Promise.all(LIBS.map(async (lib) => {
    const url = new URL(lib.url, self.location.href).href;
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (error) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`Failed to download ${lib.url}: HTTP ${response.status}`);
      return WebAssembly.compile(await response.arrayBuffer());
    }
  }));
}

// Python's module with the compiled extensions loaded before Python starts (before its runtime
// is initialized, as Emscripten loads a program's own libraries): memory for each from the top of
// the heap, its function-table slots after the program's, so the same libraries in the same order
// land at the same places at every start. Returns where each was placed.
function loadLibs(module, compiled) {
  return LIBS.map((lib, i) => {
    const dso = module.newDSO(lib.path, undefined, "loading");
    dso.refcount = Infinity;  // never unloaded: a snapshot holds it
    dso.global = false;       // as CPython's dlopen of an extension (RTLD_LOCAL)
    dso.exports = module.loadWebAssemblyModule(compiled[i], { global: false, nodelete: true }, lib.path, {});
    return { path: lib.path, heapEnd: module._sbrk(0), tableEnd: module.wasmTable.length };
  });
}

// `snapshot`: the one to restore (null for a fresh start; findSnapshot): its libraries must land
// where they were, and its dlopen handles are put back. Pyodide 314 sizes the restored memory with
// INITIAL_MEMORY, which its build no longer reads (the module makes its own memory): the memory is
// grown to the snapshot's size before its pages are copied in. They are copied once the runtime
// has started (its constructors have written to memory), where Pyodide would copy them, and each
// page not kept is zeroed where this start may have written (memory grown here is zeros already,
// and touching it would cost the phone a fault per page); Pyodide is then given its header alone
// (loadPython), so nothing is copied twice. `placed` receives where each library went.
function pythonModule(pyodideUrl, libs, placed, snapshot = null) {
  return async (settings) => {
    const [asm, compiled] = await Promise.all([import(new URL("pyodide.asm.mjs", pyodideUrl).href), libs]);
    const bytes = snapshot && await snapshot.bytes;
    let grownFrom = 0;  // where the memory this start grew begins (zeros)
    settings.preRun.unshift((module) => {
      placed.push(...loadLibs(module, compiled));
      if (!snapshot) return;
      const kept = snapshot.libs;
      if (JSON.stringify(placed) !== JSON.stringify(kept.placed)) {
        throw new Error(`its libraries were placed elsewhere: ${JSON.stringify(kept.placed)}, now ${JSON.stringify(placed)}`);
      }
      for (const [handle, path] of Object.entries(kept.handles)) {
        module.LDSO.loadedLibsByHandle[handle] = module.LDSO.loadedLibsByName[path];
      }
      const end = module._sbrk(0);
      if (snapshot.pages.heap > module.HEAP8.length) {
        module._sbrk(snapshot.pages.heap - end);  // the constructors' own memory then comes after it
        grownFrom = end;
      } else {
        grownFrom = snapshot.pages.heap;  // not grown: every page not kept is zeroed
      }
    });
    if (snapshot) settings.postRun = [...[settings.postRun || []].flat(), (module) => restorePages(module, bytes, snapshot.pages, grownFrom)];
    return asm.default(settings);
  };
}

// The kept pages copied into Python's memory, the others zeroed below `grownFrom`.
function restorePages(module, bytes, pages, grownFrom) {
  const heap = module.HEAP8;
  const zero = (from, to) => { if (from < Math.min(to, grownFrom)) heap.fill(0, from, Math.min(to, grownFrom)); };
  let at = headerSizeOf(bytes);
  let zeroFrom = 0;
  for (const [first, count] of pages.runs) {
    zero(zeroFrom, first * PAGE);
    const length = Math.min(count * PAGE, heap.length - first * PAGE);
    heap.set(bytes.subarray(at, at + length), first * PAGE);
    at += count * PAGE;
    zeroFrom = (first + count) * PAGE;
  }
  zero(zeroFrom, pages.heap);
}

// Where the libraries Python has loaded are, for the snapshot: refused if Python loaded one of
// its own (it would not be there at a restore).
function libsToKeep(pyodide, placed) {
  const ldso = pyodide._module.LDSO;
  const ours = new Set(LIBS.map((lib) => lib.path));
  const others = Object.keys(ldso.loadedLibsByName).filter((name) => name !== "__main__" && !ours.has(name));
  if (others.length) throw new Error(`Python loaded libraries a restore would not have: ${others.join(", ")}`);
  const handles = {};
  for (const [handle, dso] of Object.entries(ldso.loadedLibsByHandle)) {
    if (Number(handle) === 0) continue;
    if (!ours.has(dso.name)) throw new Error(`a dlopen handle of ${dso.name}, a library a restore would not have`);
    handles[handle] = dso.name;
  }
  return { placed, handles };
}

// Pyodide's scripts, its WebAssembly, the snapshot's bytes and the libraries all asked for at
// once: each opening waited for one after the other (0.4 s for pyodide.mjs, then 0.3 s for the
// snapshot, then Pyodide's WebAssembly).
async function loadPython(start, fresh, libs) {
  const pyodideUrl = new URL(start.pyodideUrl, self.location.href).href;
  import(new URL("pyodide.asm.mjs", pyodideUrl).href).catch(() => {});  // awaited in pythonModule
  const [{ loadPyodide }, snapshot] = await Promise.all([import(pyodideUrl), fresh ? null : findSnapshot(start.build)]);
  const streams = { stdout: (t) => output(t, false), stderr: (t) => output(t, true) };
  if (snapshot) {
    try {
      const header = snapshot.bytes.then((bytes) => bytes.subarray(0, headerSizeOf(bytes)));
      const pyodide = await loadPyodide({ ...streams, _loadSnapshot: header,
                                          createPyodideModule: pythonModule(pyodideUrl, libs, [], snapshot) });
      console.log(`Pandapad: Python restored from ${snapshot.shipped ? "the site's" : "its"} snapshot`);
      // Python broken beyond repair after a restore (Pyodide's fatal error): the next opening
      // must not restore the same memory again.
      pyodide._api.on_fatal = () => throwAway(start.build, snapshot);
      return { pyodide, restored: snapshot };
    } catch (error) {
      console.warn(`Pandapad: the ${snapshot.shipped ? "site's" : "kept"} Python could not be restored, starting it afresh (${error})`);
      await throwAway(start.build, snapshot);
    }
  }
  const pyodide = await loadPyodide({ ...streams, createPyodideModule: pythonModule(pyodideUrl, libs, []) });
  console.log("Pandapad: Python started");
  return { pyodide, restored: null };
}

// The app's archive, fetched and un-gzipped by the browser (natively, beside Python's start):
// the tar's bytes, and where each file lies in them.
async function fetchApp(message) {
  const url = new URL(message.appPackageUrl, self.location.href).href;
  const files = fetchFiles(new URL("app-files.json", url).href);
  files.catch(() => {});
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Failed to download app package: HTTP ${response.status} ${url}`);
  const tar = new Uint8Array(await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  return { tar, files: await files };
}

// The app's files placed where Python runs (its home, its working folder) without copying a
// byte: each file of the in-memory file system is a view of its slice of the archive (MEMFS owns
// the array it is given), from the file list web/build.py app_files wrote. Python's tarfile wrote
// every file out at every opening (0.3-1.3 s of a restored opening here), and a read-only mount of
// slices (WORKERFS) cost 0.3-0.4 s in the browser's Blob.slice calls.
async function fetchFiles(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Failed to download the app's file list: HTTP ${response.status} ${url}`);
  return response.json();
}

function placeApp(pyodide, { tar, files }) {
  const FS = pyodide.FS;
  const folders = new Set();
  for (const { filename, start, end } of files.files) {
    const cut = filename.lastIndexOf("/");
    const folder = HOME + filename.slice(0, cut);
    if (!folders.has(folder)) {
      FS.mkdirTree(folder);
      folders.add(folder);
    }
    FS.createDataFile(folder, filename.slice(cut + 1), tar.subarray(start, end), true, false, true);
  }
}

async function start(message, fresh = false, libs = compileLibs()) {
  const app = fetchApp(message);
  app.catch(() => {});  // awaited below; an error is told there
  libs.catch(() => {});
  const { pyodide, restored } = await loadPython(message, fresh, libs);
  if (restored) {
    try {
      await run(message, pyodide, true, app);
    } catch (error) {
      // Restored, but the app did not come up from it: never again from this snapshot, and this
      // opening starts Python afresh, as a first visit does.
      console.warn(`Pandapad: the app did not start from the restored Python, starting it afresh (${error})`);
      await throwAway(message.build, restored);
      return start(message, true, libs);
    }
    // Up from the site's snapshot: the phone keeps its own as after a start (web/early.js), by a
    // second worker that starts Python afresh and so leaves the browser the code it optimized.
    if (restored.shipped) step("restored from the site");
    return;
  }
  return run(message, pyodide, false, app);
}

async function run(message, pyodide, restored, app) {
  step(restored ? "restored" : "started");
  const asked = performance.now();
  const archive = await app;
  const got = performance.now();
  placeApp(pyodide, archive);
  console.log(`Pandapad: the app placed (${Math.round(got - asked)} ms waiting for its archive, ${Math.round(performance.now() - got)} ms placing its files)`);
  if (restored) {
    // What the snapshot froze that must differ between openings: random's seed, and the import
    // system's view of the files placed again. (The time zone is asked of the browser at each call.)
    pyodide.runPython("import importlib, random; random.seed(); importlib.invalidate_caches()");
  } else {
    pyodide.runPython('import sys; sys.path.insert(0, "__pypackages__")');
  }
  step("imported");

  self.flet_js.args = message.args;
  self.flet_js.documentUrl = message.documentUrl;
  pyodide.registerJsModule("flet_js", self.flet_js);
  pyodide.globals.set("python_module_name", message.pythonModuleName || "main");
  await pyodide.runPythonAsync(`
import flet_js, msgpack, runpy

def _send_python_output(text, is_stderr):
    # As Flet's connection frames a message: 0x00, then msgpack of [action, body] (7: output).
    flet_js.receive_callback(bytes([0]) + msgpack.packb([7, {"text": text, "is_stderr": bool(is_stderr)}]))

flet_js.send_python_output = _send_python_output
flet_js.userAppStarting()
try:
    runpy.run_module(python_module_name, run_name="__main__")
except SystemExit as exit:
    if exit.code not in (None, 0):
        raise
`);
  if (typeof self.flet_js.start_connection !== "function") {
    self.postMessage("__flet_no_ui__:Script finished without starting a Flet UI.");
    return;
  }
  await self.flet_js.start_connection(receive);
  self.postMessage("initialized");
}

// The second worker's one job (web/early.js starts it once the app is up after a start without a
// snapshot): Python afresh, the app prepared, its memory kept; the page then ends this worker.
async function keepPython(message) {
  try {
    const app = fetchApp(message);
    const libs = compileLibs();
    const pyodideUrl = new URL(message.pyodideUrl, self.location.href).href;
    const { loadPyodide } = await import(pyodideUrl);
    const placed = [];
    const pyodide = await loadPyodide({ _makeSnapshot: true, createPyodideModule: pythonModule(pyodideUrl, libs, placed) });
    placeApp(pyodide, await app);
    pyodide.runPython('import sys; sys.path.insert(0, "__pypackages__")\nfrom views.hosts.warm import prepare\nprepare()');
    const kept = libsToKeep(pyodide, placed);
    await keepSnapshot(message.build, pyodide.makeMemorySnapshot(), kept);
  } catch (error) {  // the next opening starts Python as this one did, and tries again
    console.warn(`Pandapad: no snapshot of Python this time (${error})`);
  }
  self.postMessage({ pandapad: "snapshot-done" });
}

// Flet sends a message per control a step of Python's changed (a pad's tap: its score strip,
// its leader line, its keys), working out each in turn. Posted one by one, the page drew a frame
// of the first while Python still worked on the next: two frames a tap, each a whole screen, on a
// phone's page that also carries the other phones' messages (#69). So what one step of Python's
// loop sends goes to the page together, as one message, once the step has run (a microtask:
// Python's step is running JavaScript's current task; web/early.js hands them on in order).
let outgoing = [];
// Anything else the worker posts (Python's own js.postMessage: a link's message, a step) goes
// after what Python sent Flet before it, as it did when each went at once.
const postNow = self.postMessage.bind(self);
self.postMessage = (data, transfer) => {
  if (outgoing.length) sendOut();
  postNow(data, transfer);
};
function receive(message) {
  // A fresh Uint8Array of Python's bytes: its buffer moves to the page, not copied.
  const bytes = message.toJs();
  if (!outgoing.length) queueMicrotask(sendOut);
  outgoing.push(bytes);
}
function sendOut() {
  const batch = outgoing;
  outgoing = [];
  if (batch.length === 1) postNow(batch[0], [batch[0].buffer]);
  else if (batch.length) postNow({ pandapadBatch: batch }, batch.map((bytes) => bytes.buffer));
}
self.flet_js.receive_callback = receive;
self.flet_js.userAppStarting = () => { appRunning = true; };

let started = false;
self.onmessage = async (event) => {
  if (!started) {
    started = true;
    if (event.data.keepPython) return keepPython(event.data);
    try {
      await start(event.data);
    } catch (error) {
      self.postMessage(error.toString());
    }
  } else if (event.data && typeof event.data.pandapadLink === "string") {
    // The table of phones (web/link.js in the page): Python hears it, if it listens.
    if (typeof self.flet_js.link_heard === "function") self.flet_js.link_heard(event.data.pandapadLink);
  } else if (typeof self.flet_js.send === "function") {
    self.flet_js.send(event.data);
  } else {
    console.error("Pandapad: a message for Python before the app started was dropped.");
  }
};
