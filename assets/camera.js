// Pandapad: read another phone's codes with this phone's camera (#53, "Receive from another phone").
//
// Flet has no camera on the web, so the page reads the codes, in a layer of its own over the app,
// and hands what it read to Python as a picked file: the screen asks Flet's FilePicker for a file
// of the made-up type PICK_TYPE; Flutter's picker makes an <input type=file> and clicks it; that
// click opens the camera here instead of a file dialog, and the input's change event carries the
// frames read (or, as the file's name, why there are none). The same path runs on the server's
// pages (the file is uploaded as an import's is) and in the phone build (read in the page).
//
// Codes are read by the browser's BarcodeDetector where it has one (Chrome on Android), else by
// the npm package barcode-detector (a stand-in on zxing-wasm, pinned in web/package.json), loaded
// only when the camera first opens, from the site itself (qr/, kept by the offline copy).
// This layer only gathers the frames of one transfer, by their header (storage/README.md,
// "Handing games over by QR code"), whose shape it is given with its words (storage/handoff.py
// GATHERED, by views/handover/receive.py); Python checks everything they hold.
(() => {
  const PICK_TYPE = ".pandapadqr";
  const nativeClick = HTMLInputElement.prototype.click;
  // Words in the phone's language, left in its preferences by views/handover/receive.py (SharedPreferences
  // keeps a value as JSON under "flutter.").
  const ENGLISH = {
    lang: "en", dir: "ltr", title: "Receive from another phone",
    starting: "Starting the camera\u2026",
    point: "Hold the camera up to the code on the other phone.",
    have: "Codes read: {have} of {n}", one: "Code read",
    foreign: "That is not a Pandapad code: hold the camera up to the code on the other phone.",
    other: "That code holds other games: finish reading this set first.",
    cancel: "Cancel",
  };
  let scan = null;  // the reading under way
  // What the readings came to, for a test to wait on and a bench to time (performance.now()):
  // how many opened, the frames of the last in the order heard, what it said, how it ended, and
  // its camera's stream (every track ended once the reading is over).
  const told = window.__pandapadCamera = {opened: 0, heard: [], notes: [], outcome: null, startedAt: null,
                                          firstAt: null, doneAt: null, stream: null};

  function words() {
    try {
      return Object.assign({}, ENGLISH, JSON.parse(JSON.parse(localStorage.getItem("flutter.pandapad.camera_words"))));
    } catch (error) {
      return ENGLISH;
    }
  }

  // The Receive screen's ask a back gesture last left: a pick of that ask reaching the page after
  // it is the screen's no more. (Asks are told apart by the "asked" views/handover/receive.py writes with
  // the words before each pick; the address alone cannot tell, as Flutter moves it after a frame,
  // and on a busy phone the pick's click can come first.)
  let askLeft = {};
  window.addEventListener("popstate", () => { askLeft = words().asked; }, true);

  HTMLInputElement.prototype.click = function () {
    if (this.type === "file" && (this.accept || "").includes(PICK_TYPE)) {
      if (onReceiveScreen() || words().asked !== askLeft) {
        const input = this;
        open({said: words(), heard: heardFrame, deliver: (outcome, body) => toPicker(input, outcome, body)});
      } else {  // asked by a Receive screen already left (the back gesture came first): no camera
        const input = this;
        setTimeout(() => input.dispatchEvent(new Event("cancel")));
      }
      return;
    }
    return nativeClick.call(this);
  };

  // The camera belongs to the Receive screen (views/handover/receive.py, at <base>receive).
  function onReceiveScreen() {
    return location.pathname === new URL("receive", document.baseURI).pathname;
  }

  // Flutter's picker takes the window's focus coming back for "the dialog closed, nothing chosen";
  // while the camera reads, its permission prompt may take the focus and give it back.
  window.addEventListener("focus", (event) => {
    if (scan) event.stopImmediatePropagation();
  }, true);

  // A table's pairing (#54, web/link.js): one code that `wanted(text)` takes, read the same way;
  // resolves with its text, null when the person cancelled, or {failed: why} (the camera refused,
  // busy, none, or its reader not starting). `said` holds the layer's words, as ENGLISH does.
  window.pandapadReadOne = (said, wanted) => new Promise((resolve) => open({
    said: Object.assign({}, ENGLISH, said),
    heard: (current, text) => {
      if (wanted(text)) finish(current, "frames", text);
      else tell(current, "foreign", current.said.foreign);
    },
    deliver: (outcome, body) => resolve(outcome === null ? null : outcome === "frames" ? body : {failed: outcome}),
  }));

  function open(job) {
    if (scan) finish(scan, null);  // a second reading replaces the first
    const said = job.said;
    const layer = document.createElement("div");
    layer.id = "pandapad-camera";
    layer.dataset.state = "starting";
    layer.dataset.have = "0";
    layer.setAttribute("role", "dialog");
    layer.setAttribute("aria-label", said.title);
    layer.lang = said.lang;
    layer.dir = said.dir;
    layer.style.cssText = "position:fixed;inset:0;z-index:2147483646;background:#000;color:#fff;" +
      "display:flex;flex-direction:column;font:400 18px/1.35 system-ui,sans-serif;touch-action:none;" +
      "-webkit-user-select:none;user-select:none;";
    const title = document.createElement("div");
    title.textContent = said.title;
    title.style.cssText = "padding:calc(16px + env(safe-area-inset-top)) 20px 12px;font-weight:600;font-size:20px;";
    const stage = document.createElement("div");
    stage.style.cssText = "position:relative;flex:1;min-height:0;overflow:hidden;";
    const video = document.createElement("video");
    video.muted = true;
    video.playsInline = true;
    video.setAttribute("playsinline", "");
    video.style.cssText = "position:absolute;inset:0;width:100%;height:100%;object-fit:cover;";
    // Where to hold the code: a square in the middle, the rest dimmed.
    const frame = document.createElement("div");
    frame.style.cssText = "position:absolute;left:50%;top:50%;width:min(72vw,56vh);aspect-ratio:1;" +
      "transform:translate(-50%,-50%);border:4px solid #fff;border-radius:24px;" +
      "box-shadow:0 0 0 100vmax rgba(0,0,0,0.45);";
    stage.append(video, frame);
    const panel = document.createElement("div");
    panel.style.cssText = "padding:16px 20px calc(20px + env(safe-area-inset-bottom));display:flex;" +
      "flex-direction:column;gap:12px;background:#000;";
    const status = document.createElement("div");
    status.id = "pandapad-camera-status";
    status.setAttribute("aria-live", "polite");
    status.textContent = said.starting;
    status.style.cssText = "font-size:22px;font-weight:600;min-height:1.35em;";
    const note = document.createElement("div");
    note.id = "pandapad-camera-note";
    note.style.cssText = "font-size:17px;color:#FFD8A8;min-height:1.35em;";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = said.cancel;
    cancel.style.cssText = "min-height:56px;border:2px solid #fff;border-radius:28px;background:transparent;" +
      "color:#fff;font:600 18px system-ui,sans-serif;padding:0 24px;";
    panel.append(status, note, cancel);
    layer.append(title, stage, panel);
    document.body.append(layer);

    const current = scan = {job, layer, video, status, note, said, frames: new Map(), id: null, n: 0,
                            stream: null, done: false};
    Object.assign(told, {opened: told.opened + 1, heard: [], notes: [], outcome: null, startedAt: performance.now(),
                         firstAt: null, doneAt: null, stream: null});
    cancel.addEventListener("click", () => finish(current, null));
    // The phone's back gesture leaves the screen: the camera stops with it.
    window.addEventListener("popstate", current.onBack = () => finish(current, null), {once: true});
    document.addEventListener("visibilitychange", current.onHidden = () => {
      if (document.hidden) finish(current, null);  // a locked phone: no camera left running
    });
    start(current);
  }

  async function start(current) {
    const media = navigator.mediaDevices;
    if (!media || !media.getUserMedia) {
      // A page at a plain http:// address of the Wi-Fi gets no camera: browsers give it only to
      // https:// and to the phone's own address.
      return finish(current, window.isSecureContext ? "none" : "insecure");
    }
    try {
      current.stream = await media.getUserMedia({audio: false, video: {facingMode: {ideal: "environment"},
                                                                          width: {ideal: 1280}, height: {ideal: 720}}});
    } catch (error) {
      const name = error && error.name;
      const why = name === "NotAllowedError" || name === "SecurityError" ? "refused" :
        name === "NotReadableError" || name === "AbortError" ? "busy" : "none";  // busy: another app has it
      return finish(current, why, name);
    }
    if (current.done) return stopCamera(current);
    current.video.srcObject = told.stream = current.stream;
    let detector;
    try {
      await current.video.play();
      detector = await makeDetector();
    } catch (error) {  // the decoder did not load (or the video would not play): not the camera's fault
      console.error("Pandapad: the code reader could not start", error);
      return finish(current, "reader", error && error.name);
    }
    if (current.done) return;
    current.layer.dataset.state = "reading";
    current.status.textContent = current.said.point;
    read(current, detector);
  }

  let loading = null;
  function makeDetector() {
    return loading ||= (async () => {
      if ("BarcodeDetector" in window) {
        try {
          if ((await BarcodeDetector.getSupportedFormats()).includes("qr_code")) {
            return new BarcodeDetector({formats: ["qr_code"]});
          }
        } catch (error) { /* the stand-in below */ }
      }
      await new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = new URL("qr/barcode-detector.js", document.baseURI).href;
        script.onload = resolve;
        script.onerror = () => reject(new Error("qr/barcode-detector.js did not load"));
        document.head.append(script);
      });
      const api = window.BarcodeDetectionAPI;
      // Its WebAssembly from this site, never from a CDN.
      api.prepareZXingModule({
        overrides: {locateFile: (path, prefix) => path.endsWith(".wasm") ?
          new URL("qr/" + path, document.baseURI).href : prefix + path},
        fireImmediately: true,
      });
      return new api.BarcodeDetector({formats: ["qr_code"]});
    })().catch((error) => {
      loading = null;  // tried again at the next opening
      throw error;
    });
  }

  async function read(current, detector) {
    const video = current.video;
    while (!current.done) {
      if (video.readyState >= 2 && video.videoWidth) {
        let codes = [];
        try {
          codes = await detector.detect(video);
        } catch (error) { /* a frame the decoder could not take: the next one */ }
        for (const code of codes) {
          if (current.done) return;
          current.job.heard(current, code.rawValue || "");
        }
      }
      await new Promise((resolve) => video.requestVideoFrameCallback ?
        video.requestVideoFrameCallback(() => resolve()) : setTimeout(resolve, 60));
    }
  }

  // A frame of a Receive screen's transfer: gathered by its header until every k of n is read.
  function heardFrame(current, text) {
    const said = current.said;
    if (!said.header) {  // the words were not written before the pick: no header to gather by
      finish(current, "reader", "");
      return;
    }
    const match = new RegExp(said.header).exec(text);
    const n = match ? Number(match[3]) : 0, k = match ? Number(match[2]) : 0;
    if (!match || n < 1 || n > said.most || k < 1 || k > n) {
      tell(current, "foreign", said.foreign);
      return;
    }
    if (current.id === null) {
      current.id = match[4];
      current.n = n;
    } else if (match[4] !== current.id || n !== current.n) {
      tell(current, "other", said.other);  // another transfer's frame: never mixed in
      return;
    }
    if (current.frames.has(k)) return;
    current.frames.set(k, text);
    if (scan === current) {
      told.heard.push(k);
      told.firstAt ??= performance.now();
    }
    tell(current, "", "");
    current.layer.dataset.have = String(current.frames.size);
    current.layer.dataset.n = String(current.n);
    current.status.textContent = current.n === 1 ? said.one :
      said.have.replace("{have}", current.frames.size).replace("{n}", current.n);
    if (current.frames.size === current.n) {
      const texts = [...current.frames.keys()].sort((a, b) => a - b).map((key) => current.frames.get(key));
      finish(current, "frames", texts.join("\n"));
    }
  }

  function tell(current, kind, text) {
    if (kind && scan === current) told.notes.push(kind);
    current.layer.dataset.note = kind;
    current.note.textContent = text;
  }

  function stopCamera(current) {
    if (current.stream) current.stream.getTracks().forEach((track) => track.stop());
    current.stream = null;
    current.video.srcObject = null;
  }

  // Hand the outcome to Flutter's picker: a file "<outcome>.pandapadqr" holding the frames (or the
  // error's name), or nothing at all for Cancel.
  function finish(current, outcome, body) {
    if (current.done) return;
    current.done = true;
    if (scan === current) {
      scan = null;
      told.outcome = outcome === null ? "cancel" : outcome;
      told.doneAt = performance.now();
    }
    stopCamera(current);
    current.layer.dataset.state = "done";
    current.layer.remove();
    window.removeEventListener("popstate", current.onBack);
    document.removeEventListener("visibilitychange", current.onHidden);
    current.job.deliver(outcome, body);
  }

  function toPicker(input, outcome, body) {
    if (outcome === null) {
      input.dispatchEvent(new Event("cancel"));
      return;
    }
    const transfer = new DataTransfer();
    transfer.items.add(new File([body || ""], outcome + PICK_TYPE, {type: "text/plain"}));
    input.files = transfer.files;
    input.dispatchEvent(new Event("change"));
  }
})();
