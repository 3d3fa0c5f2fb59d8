"""No text clipped inside its control (#45): every screen the pseudo-locale walk visits
(tests/test_browser_languages.py), with the pseudo-locale's words 40 % longer than the English
(views/words/lang.py `_pseudo`), on a 320 x 640 phone at extra-large text.

Clipped is what a person sees: a label ellipsized or cut after its last allowed line, a word broken
in the middle because it is wider than its box, a line cut at the edge of whatever clips it (a card,
a button, the screen), or running over its button's border.

How it is seen. Flutter draws every text on a canvas, so the page's DOM cannot show an overflow,
and the accessibility tree gives a box per control, not per text. The engine can: an init script
(HOOK_JS) wraps the skwasm engine's exports as the page hands them to the app's code, so each
paragraph the app builds is read where it is laid out and painted: its text, its line limit, the
width it was laid out at, the engine's own lines (where each starts, its baseline and width), whether
it exceeded its line limit, and the transform and clip it was painted under, through the pictures
the frame is composed of. ANALYSE_JS then reads, for each paragraph of the last frame:
  - ellipsized / cut after N lines: the engine's didExceedMaxLines;
  - a word broken: a line that starts where the line breaker allows no break (inside a word),
    which the engine does only when the word is wider than the line;
  - cut at an edge: a line's ink (advance width, cap height to baseline, and the descent where the
    line has a descending letter) outside the clip it was painted under by more than TOLERANCE px;
    the edges of scrolling viewports (from the accessibility tree) do not count: there the text is
    scrolled out of view, which is why the walk scrolls each screen through;
  - running over its control: ink outside the box of the accessibility node whose label is the text
    (a button's, a chip's, a radio's), also by more than TOLERANCE px.
A name or a number (a text with no ⟦message⟧ of the catalogs) ellipsized on one line counts only where
its row has room for it whole ("Jon…" beside blank space; not six names sharing a row too narrow for
them); every other cut counts for it as for words.

The walk is the pseudo-locale walk's: the host's phone on the languages module's table (its data_dir
fixture, made again here), each screen opened by its address and scrolled through from top to foot
(lists build their rows as they scroll), and the pad's ⋮ menu. A failure names each clipped text, its
screen and why; artifacts/clipping-*.png show each where it is best in view, artifacts/clipping-<half>.json
lists them (with the text's box in the shot). test_the_detector_finds_what_is_clipped_and_passes_what_fits
proves the detector on a page of known cases (tests/clipping_cases.py).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import scoring
from scoring import pass_the_pandas as ptp
from storage import Store, settings as stored_settings
from tests.records_for_tests import record
from tests.browser_harness import (ARTIFACTS_DIR, PHONE, TWO_FRAMES, enable_semantics, flet_server, open_app_page,
                                   scrolled_to, semantics_texts, table_server, wait_for_paint)
# The walk's own screens and table: its data_dir is a fixture (made again for this module).
from tests.test_browser_languages import SCREENS, TOKEN, data_dir  # noqa: F401
from tests.test_browser_languages import WALK_NAMES, speaking, unmarked
from views.words import lang

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE_SIZE = (320, 640)
# A guest's own text size; the host's is the table's (the server fixture).
EXTRA_LARGE = "localStorage.setItem('flutter.pandapad.text_size', JSON.stringify(\"extra-large\"));"
TOLERANCE = 1.0  # px: rounding, no more
# Players typed in six scripts (#55), the walk's games' A to F renamed so: every screen with a name shows
# them, and the walk fails on one broken inside ("김민|준", read from the engine's lines).
SCRIPTS = ["髙橋", "김민준", "王小明", "Łukasz", "Дмитрий", "محمد"]
SCROLL_STEP = 400  # px a step scrolls a screen on (its viewport is ~550 px: each text whole in one step)
CRAMPED_PTP = "cramped-ptp"  # the walk's own Pass the Pandas game (pandas_mid_hand)
STEPS = 60  # History at this size: its list ~100 px high (a step of ~60 px), 19 games ~2,100 px

HOOK_JS = r"""
(() => {
  // Every paragraph Flutter's engine (skwasm) lays out and paints, read where the app's code calls
  // the engine: flutter.js sets window._flutter_skwasmInstance and then hands its wasmExports to the
  // app's module as its imports; the setter below puts wrapped functions there first.
  if (window.__ppText) return;
  const P = window.__ppText = {hooked: false, error: null, frame: [], frames: 0, paras: new Map(), pictures: new Map()};
  let instance;
  Object.defineProperty(window, "_flutter_skwasmInstance", {configurable: true, get: () => instance,
    set: h => { instance = h; try { hook(h); } catch (e) { P.error = String(e && e.stack || e); } }});
  function hook(h) {
    const W = h.wasmExports, X = Object.assign({}, W);
    const buffer = () => (h.wasmMemory || W.memory).buffer;
    const lengths = new Map(), styles = new Map(), textStyles = new Map(), builders = new Map();
    const canvases = new Map(), recorders = new Map();
    let scratch = 0;
    const scratchPtr = () => scratch || (scratch = W.skData_getPointer(W.skData_create(128)));
    const wrap = (name, f) => { if (typeof W[name] !== "function") throw new Error("skwasm has no " + name); X[name] = f; };
    const read16 = (s) => {
      const n = lengths.get(s); if (n === undefined) return "\uFFFD";
      const codes = new Uint16Array(buffer(), W.skString16_getData(s), n).slice();
      let out = ""; for (let i = 0; i < codes.length; i += 4096) out += String.fromCharCode.apply(null, codes.subarray(i, i + 4096));
      return out;
    };
    const transform = (c) => { const p = scratchPtr(); W.canvas_getTransform(c, p); return Array.from(new Float32Array(buffer(), p, 16)); };
    const clip = (c) => { const p = scratchPtr(); W.canvas_getDeviceClipBounds(c, p); return Array.from(new Int32Array(buffer(), p, 4)); };
    wrap("skString16_allocate", (n) => { const s = W.skString16_allocate(n); lengths.set(s, n); return s; });
    wrap("skString16_free", (s) => { lengths.delete(s); return W.skString16_free(s); });
    wrap("textStyle_create", () => { const t = W.textStyle_create(); textStyles.set(t, {}); return t; });
    wrap("textStyle_copy", (t0) => { const t = W.textStyle_copy(t0); textStyles.set(t, Object.assign({}, textStyles.get(t0))); return t; });
    wrap("textStyle_setFontSize", (t, v) => { (textStyles.get(t) || {}).size = v; return W.textStyle_setFontSize(t, v); });
    wrap("paragraphStyle_create", () => { const s = W.paragraphStyle_create(); styles.set(s, {maxLines: 0, ellipsis: false}); return s; });
    wrap("paragraphStyle_setMaxLines", (s, n) => { (styles.get(s) || {}).maxLines = n; return W.paragraphStyle_setMaxLines(s, n); });
    wrap("paragraphStyle_setEllipsis", (s, e) => { (styles.get(s) || {}).ellipsis = true; return W.paragraphStyle_setEllipsis(s, e); });
    wrap("paragraphStyle_setTextStyle", (s, t) => { (styles.get(s) || {}).text = Object.assign({}, textStyles.get(t)); return W.paragraphStyle_setTextStyle(s, t); });
    wrap("paragraphBuilder_create", (s, c) => { const b = W.paragraphBuilder_create(s, c);
      const st = styles.get(s) || {}; builders.set(b, {text: "", maxLines: st.maxLines, ellipsis: st.ellipsis, size: (st.text || {}).size}); return b; });
    wrap("paragraphBuilder_pushStyle", (b, t) => { const r = builders.get(b), st = textStyles.get(t) || {};
      if (r && st.size) r.size = Math.max(r.pushed ? r.size : 0, st.size); if (r) r.pushed = true; return W.paragraphBuilder_pushStyle(b, t); });
    // Where the browser's line breaker (which the engine is given) allows a line to break.
    const breakSizes = new Map();
    wrap("lineBreakBuffer_create", (n) => { const b = W.lineBreakBuffer_create(n); breakSizes.set(b, n); return b; });
    wrap("paragraphBuilder_setLineBreaksUtf16", (b, buf) => { const r = builders.get(b), n = breakSizes.get(buf);
      if (r && n !== undefined) { const d = new Int32Array(buffer(), W.lineBreakBuffer_getDataPointer(buf), 2 * n).slice();
        r.breaks = []; for (let i = 0; i < n; i++) r.breaks.push(d[2 * i]); }
      return W.paragraphBuilder_setLineBreaksUtf16(b, buf); });
    wrap("paragraphBuilder_addText", (b, s) => { const r = builders.get(b); if (r) r.text += read16(s); return W.paragraphBuilder_addText(b, s); });
    wrap("paragraphBuilder_addPlaceholder", (b, ...a) => { const r = builders.get(b); if (r) r.text += "\uFFFC"; return W.paragraphBuilder_addPlaceholder(b, ...a); });
    wrap("paragraphBuilder_build", (b) => { const p = W.paragraphBuilder_build(b); const r = builders.get(b) || {text: "\uFFFD"};
      builders.delete(b); P.paras.set(p, {text: r.text, maxLines: r.maxLines, ellipsis: r.ellipsis, size: r.size, breaks: r.breaks}); return p; });
    wrap("paragraph_dispose", (p) => { P.paras.delete(p); return W.paragraph_dispose(p); });
    wrap("paragraph_layout", (p, width) => { const out = W.paragraph_layout(p, width); const r = P.paras.get(p);
      if (r) r.width = width; return out; });
    wrap("pictureRecorder_beginRecording", (r, cull) => { const c = W.pictureRecorder_beginRecording(r, cull);
      const items = []; canvases.set(c, items); recorders.set(r, items); return c; });
    wrap("pictureRecorder_endRecording", (r) => { const pic = W.pictureRecorder_endRecording(r);
      P.pictures.set(pic, recorders.get(r) || []); recorders.delete(r); return pic; });
    wrap("canvas_drawPicture", (c, pic) => { const items = canvases.get(c);
      if (items) items.push({picture: pic, matrix: transform(c), clip: clip(c)});
      return W.canvas_drawPicture(c, pic); });
    wrap("canvas_drawParagraph", (c, p, x, y) => { const items = canvases.get(c), r = P.paras.get(p);
      if (items && r) {  // what is drawn now: the paragraph may be laid out again or freed before the frame
        const lines = [], n = W.paragraph_getLineCount(p);
        for (let i = 0; i < n; i++) {
          const m = W.paragraph_getLineMetricsAtIndex(p, i);
          const base = W.lineMetrics_getBaseline(m);
          lines.push({left: W.lineMetrics_getLeft(m), width: W.lineMetrics_getWidth(m), base,
                      top: base - W.lineMetrics_getAscent(m), bottom: base + W.lineMetrics_getDescent(m),
                      start: W.lineMetrics_getStartIndex(m), end: W.lineMetrics_getEndIndex(m)});
          W.lineMetrics_dispose(m);
        }
        items.push({paragraph: Object.assign({}, r, {x, y, lines, height: W.paragraph_getHeight(p),
          exceeded: !!W.paragraph_getDidExceedMaxLines(p), natural: W.paragraph_getMaxIntrinsicWidth(p),
          longest: W.paragraph_getLongestLine(p)}), matrix: transform(c), clip: clip(c)});
      }
      return W.canvas_drawParagraph(c, p, x, y); });
    wrap("surface_renderPictures", (s, pics, count) => {
      P.frame = Array.from(new Int32Array(buffer(), pics, count)); P.frames++;
      return W.surface_renderPictures(s, pics, count); });
    h.wasmExports = X;
    P.hooked = true;
  }
  // What the last frame painted: each paragraph's lines in CSS px of the page, under which clip.
  P.painted = () => {
    const dpr = window.devicePixelRatio || 1, out = [];
    const mul = (a, b) => { const r = new Array(16).fill(0);
      for (let c = 0; c < 4; c++) for (let rr = 0; rr < 4; rr++) { let s = 0; for (let k = 0; k < 4; k++) s += a[k * 4 + rr] * b[c * 4 + k]; r[c * 4 + rr] = s; }
      return r; };
    const pt = (m, x, y) => [m[0] * x + m[4] * y + m[12], m[1] * x + m[5] * y + m[13]];
    const box = (m, l, t, r, b) => { const ps = [pt(m, l, t), pt(m, r, t), pt(m, l, b), pt(m, r, b)];
      return [Math.min(...ps.map(p => p[0])), Math.min(...ps.map(p => p[1])), Math.max(...ps.map(p => p[0])), Math.max(...ps.map(p => p[1]))]; };
    const meet = (a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
    const I = [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1];
    // Letters that reach below the baseline (Roboto); ink is otherwise taken from the baseline up to
    // the cap height, so a clip in a line's empty descent or above its capitals is not a cut.
    const DESCENDS = /[gjpqyýÿçţşŗļķņģ,;()\[\]{}|\/QŢŞÇ@µ]/;
    const walk = (pic, M, C, depth) => {
      for (const item of P.pictures.get(pic) || []) {
        const m = mul(M, item.matrix), c = meet(C, box(M, ...item.clip));
        if (item.picture !== undefined) { if (depth < 30) walk(item.picture, m, c, depth + 1); continue; }
        const p = item.paragraph, size = p.size || 14;
        out.push(Object.assign({}, p, {clip: c.map(v => v / dpr),
          box: box(m, p.x, p.y, p.x + (isFinite(p.width) ? p.width : p.longest), p.y + p.height).map(v => v / dpr),
          lines: p.lines.map(l => {
          const text = p.text.slice(l.start, l.end);
          return {start: l.start, end: l.end, text,
            box: box(m, p.x + l.left, p.y + l.top, p.x + l.left + l.width, p.y + l.bottom).map(v => v / dpr),
            ink: box(m, p.x + l.left, p.y + l.base - 0.711 * size, p.x + l.left + l.width,
                     p.y + l.base + (DESCENDS.test(text) ? 0.2 * size : 0)).map(v => v / dpr)};
        })}));
      }
    };
    for (const pic of P.frame) walk(pic, I, [-1e9, -1e9, 1e9, 1e9], 0);
    return out;
  };
})();
"""

ANALYSE_JS = r"""
([tol, names, strict]) => {
  const P = window.__ppText;
  const norm = s => (s || "").replace(/[\s\u00a0\uFEFF\u200B]+/g, " ").trim();
  // A scrollable's axis shows in its style only while it is still (Flutter hides its overflow as it
  // scrolls): kept by node id from the screen's first look.
  const axes = P.axes || (P.axes = {});
  const nodes = Array.from(document.querySelectorAll('flt-semantics-host [id^="flt-semantic-node-"]')).map(n => {
    const r = n.getBoundingClientRect(), st = n.getAttribute("style") || "";
    const own = Array.from(n.childNodes).filter(c => c.nodeType === 3 || c.tagName === "SPAN").map(c => c.textContent).join("");
    const raw = n.getAttribute("aria-label") || (n.tagName === "H2" ? n.textContent : own) || n.value || "";
    if (/overflow-y:\s*scroll/.test(st)) axes[n.id] = "y";
    if (/overflow-x:\s*scroll/.test(st)) axes[n.id] = "x";
    const axis = n.querySelector(":scope > flt-semantics-scroll-overflow") ? (axes[n.id] || "y") : null;
    return {label: norm(raw), parts: raw.split("\n").map(norm), axis,
            role: n.getAttribute("role") || n.getAttribute("data-semantics-role") || n.tagName.toLowerCase(),
            rect: [r.left, r.top, r.right, r.bottom]};
  });
  const viewports = nodes.filter(n => n.axis);
  const near = (a, b) => Math.abs(a - b) <= 1;
  // An edge where a scrolling viewport ends: a text cut there is scrolled out of view, not clipped.
  const scrolledAt = (axis, edge) => viewports.some(v => v.axis === axis &&
    (axis === "y" ? near(v.rect[1], edge) || near(v.rect[3], edge) : near(v.rect[0], edge) || near(v.rect[2], edge)));
  const wide = ch => /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch || "");
  const px = v => v.toFixed(1);
  const found = [], painted = P.painted(), owned = {};
  const inkOf = q => [Math.min(...q.lines.map(l => l.ink[0])), Math.min(...q.lines.map(l => l.ink[1])),
                      Math.max(...q.lines.map(l => l.ink[2])), Math.max(...q.lines.map(l => l.ink[3]))];
  // The width free beside a text in its row, up to the next text or control on either side (within the
  // smallest node around it): a name or a number (no message of the catalogs) ellipsized where that
  // room would hold it whole is a clip.
  const room = (p) => {
    const [bx0, by0, bx1, by1] = p.box, band = p.lines[0].ink, mid = (bx0 + bx1) / 2;
    // Within the smallest node around it that is wider than its own box (a card, a row, the screen).
    const around = nodes.filter(n => n.rect[0] <= bx0 + 1 && n.rect[2] >= bx1 - 1 && n.rect[1] <= by0 + 1 && n.rect[3] >= by1 - 1 &&
                                     n.rect[2] - n.rect[0] > bx1 - bx0 + 2)
      .sort((a, b) => (a.rect[2] - a.rect[0]) - (b.rect[2] - b.rect[0]))[0];
    let left = Math.max(0, around ? around.rect[0] : 0), right = Math.min(innerWidth, around ? around.rect[2] : innerWidth);
    const others = painted.filter(q => q !== p && q.lines.length).map(inkOf)
      .concat(nodes.filter(n => n.role !== "flt-semantics" && !n.axis && !(n.rect[0] <= bx0 + 1 && n.rect[2] >= bx1 - 1)).map(n => n.rect));
    for (const [x0, y0, x1, y1] of others) {
      if (y1 <= band[1] + 1 || y0 >= band[3] - 1) continue;
      if (x1 <= mid && x1 > left) left = x1;
      if (x0 >= mid && x0 < right) right = x0;
    }
    return right - left;
  };
  for (const p of painted) {
    const text = norm(p.text);
    // A player's name in a cramped table or chart (#56): with strict, a name cut short ("Дмитри" under a
    // chart's bar, "Дмит…" over a column) counts whatever room its row has; a person must recognise it.
    const bare = text.replace(/\uFEFF/g, "");
    if (strict && (p.exceeded || (p.ellipsis && isFinite(p.width) && p.natural > p.width + 0.5)) && (names || []).includes(bare)) { found.push({text: p.text, why: [`a name ellipsized (${px(p.natural)} px of name, ${px(p.width)} px given)`],
      ink: inkOf(p), seen: 1, size: p.size, width: p.width, owner: null}); continue; }
    const short = strict && (names || []).find(n => bare.length >= 2 && bare.length < n.length && n.startsWith(bare));
    if (short) { found.push({text: p.text, why: [`a name cut short: ${bare} of ${short}`], ink: inkOf(p), seen: 1,
      size: p.size, width: p.width, owner: null}); continue; }
    if ([...text].every(ch => { const c = ch.codePointAt(0); return c === 0xFFFC || c === 0x20 || (c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000; }))
      continue;  // icons: glyphs of the private use areas (Material's icon fonts)
    const why = [];
    if (p.exceeded) {
      const said = p.ellipsis ? `ellipsized after ${p.lines.length} line(s)` : `cut after ${p.lines.length} line(s)`;
      if (text.includes("\u27e6") || p.lines.length > 1) why.push(said);
      else {  // whole, and a space's width apart from what is beside it
        const r = room(p), need = p.natural + 0.5 * (p.size || 14);
        if (need <= r) why.push(`${said}, its row has room for it whole (${px(p.natural)} px, ${px(r)} px free)`);
      }
    }
    // A line that starts where the browser's line breaker allows no break: inside a word, which the
    // engine breaks only when it is wider than the line.
    const allowed = new Set(p.breaks || []);
    const broken = p.lines.slice(1).filter(l => l.start > 0 && (p.breaks ? !allowed.has(l.start)
        : !/[\s\-\u00ad\u2010-\u2014\/]/.test(p.text[l.start - 1]) && !(wide(p.text[l.start - 1]) || wide(p.text[l.start]))))
      .map(l => { let a = l.start, b = l.start;
        while (a > 0 && !allowed.has(a) && !/\s/.test(p.text[a - 1])) a--;
        while (b < p.text.length && !allowed.has(b) && !/\s/.test(p.text[b])) b++;
        return p.text.slice(a, l.start) + "|" + p.text.slice(l.start, b).trimEnd(); });
    if (broken.length) why.push(`a word broken (wider than its ${px(p.width)} px line): ${broken.join(", ")}`);
    // A typed name is one word in every language (#55): no line starts inside it, though the line breaker
    // allows a break between its kanji or hangul ("김민|준"). Read without the joiners that keep it whole.
    const at = [];
    let plain = "";
    for (let i = 0; i < p.text.length; i++) if (p.text[i] !== "\uFEFF") { at.push(i); plain += p.text[i]; }
    at.push(p.text.length);
    const cutNames = [];
    for (const name of names || []) {
      for (let k = plain.indexOf(name); k >= 0; k = plain.indexOf(name, k + 1)) {
        const from = at[k], to = at[k + name.length - 1] + 1;
        for (const l of p.lines.slice(1))
          if (l.start > from && l.start < to && !/\s/.test(p.text[l.start - 1]))
            cutNames.push(p.text.slice(from, l.start).replace(/\uFEFF/g, "") + "|" + p.text.slice(l.start, to).replace(/\uFEFF/g, ""));
      }
    }
    if (cutNames.length) why.push(`a name broken: ${cutNames.join(", ")}`);
    const [cl, ct, cr, cb] = p.clip;
    // A text that does not wrap is clipped to its own box only where the engine found it wider than that
    // box, and then a chip's label (overflow: fade) fades its end, however little it is over: the clip's
    // corner is the paragraph's own ("すべてのゲーム" by 0.1 px, its last kana lighter, #55).
    if (!isFinite(p.width) && cr > cl && cb > ct && Math.abs(cl - p.box[0]) <= 0.5 && Math.abs(ct - p.box[1]) <= 0.5 && cr - cl < p.natural + 8)
      why.push(`clipped to its own ${px(cr - cl)} px box, faded or cut at its end (${px(p.natural)} px of text)`);
    const shown = p.lines.filter(l => l.ink[3] > ct && l.ink[1] < cb && l.ink[2] > cl && l.ink[0] < cr);
    const cut = {};
    const say = (key, d) => { cut[key] = Math.max(cut[key] || 0, d); };
    for (const l of p.lines) {
      const [x0, y0, x1, y1] = l.ink;
      if (x1 - cr > tol && !scrolledAt("x", cr)) say("cut at its right by", x1 - cr);
      if (cl - x0 > tol && !scrolledAt("x", cl)) say("cut at its left by", cl - x0);
      // Below or above a scrolling viewport's edge is out of view (another step sees it whole); any other
      // edge cuts the line, or hides it whole.
      if (y1 - cb > tol && !scrolledAt("y", cb)) say("cut at its foot by", y1 - Math.max(cb, y0));
      if (ct - y0 > tol && !scrolledAt("y", ct)) say("cut at its top by", Math.min(ct, y1) - y0);
    }
    // The accessibility node the text belongs to: the smallest whose label is it (or one of its merged
    // lines) and whose box meets its ink.
    const lines = p.lines.map(l => l.ink);
    const ink = [Math.min(...lines.map(b => b[0])), Math.min(...lines.map(b => b[1])),
                 Math.max(...lines.map(b => b[2])), Math.max(...lines.map(b => b[3]))];
    // Most of one is over the other: the same name elsewhere (the strip's, over a row scrolled under it) is not its node.
    const over = (a, b) => Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    const owners = nodes.filter(n => (n.label === text || n.parts.includes(text)) && n.rect[2] > n.rect[0] &&
      n.rect[0] < ink[2] + tol && n.rect[2] > ink[0] - tol && n.rect[1] < ink[3] + tol && n.rect[3] > ink[1] - tol &&
      over(n.rect, ink) >= 0.5 * Math.min((n.rect[2] - n.rect[0]) * (n.rect[3] - n.rect[1]), (ink[2] - ink[0]) * (ink[3] - ink[1])) &&
      // A number is a part of many nodes (the strip's "30", a sheet row's total scrolled under the strip, #56): one
      // whose node holds most of it.
      (!/^[\d\s+\-\u2212.,]+$/.test(text) || over(n.rect, ink) >= 0.9 * (ink[2] - ink[0]) * (ink[3] - ink[1])));
    owners.sort((a, b) => (a.rect[2] - a.rect[0]) * (a.rect[3] - a.rect[1]) - (b.rect[2] - b.rect[0]) * (b.rect[3] - b.rect[1]));
    const owner = owners[0];
    if (owner) owned[owner.role] = (owned[owner.role] || 0) + 1;
    if (owner && shown.length) {
      const [ol, ot, or, ob] = owner.rect;
      const inside = shown.map(l => [Math.max(l.ink[0], cl), Math.max(l.ink[1], ct), Math.min(l.ink[2], cr), Math.min(l.ink[3], cb)]);
      const what = owner.role === "flt-semantics" ? "box" : owner.role;
      for (const [x0, y0, x1, y1] of inside) {
        if (x1 - or > tol && !scrolledAt("x", or)) say(`runs past the right of its ${what} by`, x1 - or);
        if (ol - x0 > tol && !scrolledAt("x", ol)) say(`runs past the left of its ${what} by`, ol - x0);
        if (y1 - ob > tol && !scrolledAt("y", ob)) say(`runs below its ${what} by`, y1 - ob);
        if (ot - y0 > tol && !scrolledAt("y", ot)) say(`runs above its ${what} by`, ot - y0);
      }
    }
    for (const [key, d] of Object.entries(cut)) why.push(`${key} ${px(d)} px`);
    // How much of it is in view (for the screenshot): inside the screen and its scrolling viewports.
    const view = [Math.max(0, scrolledAt("x", cl) ? cl : -1e9), Math.max(0, scrolledAt("y", ct) ? ct : -1e9),
                  Math.min(innerWidth, scrolledAt("x", cr) ? cr : 1e9), Math.min(innerHeight, scrolledAt("y", cb) ? cb : 1e9)];
    const area = b => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
    const seen = area([Math.max(ink[0], view[0]), Math.max(ink[1], view[1]), Math.min(ink[2], view[2]), Math.min(ink[3], view[3])]) / Math.max(1e-9, area(ink));
    if (why.length) found.push({text: p.text, why, ink, seen, size: p.size, width: p.width,
                                owner: owner ? {role: owner.role, rect: owner.rect} : null});
  }
  return {found, owned, hooked: P.hooked, error: P.error, frames: P.frames,
          look: JSON.stringify(nodes.map(n => n.rect.map(Math.round)))};
}
"""


@pytest.fixture(scope="module")
def server(data_dir):
    """The languages module's table, its host at extra-large text, its players A to F named in six scripts
    (SCRIPTS). The host's text size is the table's setting (settings.json): a phone's own choice in its
    browser is read for guests only."""
    stored_settings.save(data_dir, stored_settings.load(data_dir).model_copy(update={"text_size": "extra-large"}))
    with Store.open(data_dir) as store:
        for old, new in zip("ABCDEF", SCRIPTS):
            store.rename_player(old, new)
        store.save(pandas_mid_hand(), None)
    with table_server(data_dir, TOKEN) as s:
        yield s


def pandas_mid_hand():
    """Pass the Pandas of five (its most) named in five scripts, two hands in, the third with one player out: its
    hands table, the reason Next hand waits (four names), End the match now (#56)."""
    data = record("pass-the-pandas", [], settings={"variant": "panda-monium", "target": 30})
    data["players"] = [{"id": f"p{k}", "name": n} for k, n in enumerate(SCRIPTS[:5], 1)]
    r = scoring.parse_record({**data, "id": CRAMPED_PTP, "created": "2026-11-24T19:04:00Z"})
    for order in (["p2", "p5", "p1", "p4"], ["p4", "p1", "p3", "p2"]):
        for pid in order:
            r = ptp.go_out(r, pid)
        r = ptp.next_hand(r)
    return ptp.go_out(r, "p5")


def phone(browser, url: str):
    width, height = PHONE_SIZE
    return open_app_page(browser, url, width=width, height=height, locale="en-XA",
                         init_script=EXTRA_LARGE + HOOK_JS, **PHONE)


def clipped_here(page, strict: bool = False) -> tuple[list[dict], str]:
    """The clipped texts of what the page shows now (ANALYSE_JS), and where its nodes are (the screen
    moved if that changed). strict: a player's name cut short counts wherever it is (#56)."""
    seen = page.evaluate(ANALYSE_JS, [TOLERANCE, SCRIPTS, strict])
    assert seen["hooked"] and not seen["error"] and seen["frames"], \
        f"the engine's paragraphs cannot be read (skwasm changed?): {seen['error']}"
    return seen["found"], seen["look"]


# The screen's main scrolling viewport (the largest that scrolls down): where the wheel turns, how
# high it is, how far it is scrolled.
SCROLLER = """() => { const axes = window.__ppText.axes || {};
  const all = Array.from(document.querySelectorAll('flt-semantics-host flt-semantics-scroll-overflow'))
    .map(o => o.parentElement).filter(n => axes[n.id] === "y" || /overflow-y:\\s*scroll/.test(n.getAttribute("style") || ""))
    .map(n => { const r = n.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2, height: r.height,
                                                            area: r.width * r.height, top: n.scrollTop}; });
  return all.sort((a, b) => b.area - a.area)[0] || null; }"""


def shot_stem(screen: str) -> str:
    """The start of the names of a screen's shots of clipped texts (artifacts/clipping-<screen>-<step>.png)."""
    return "clipping-" + re.sub(r"\W+", "-", screen)


class Walk:
    """The clipped texts of a walk through screens: found[(screen, text)] = {why, shot, ink, seen}."""

    def __init__(self, page, shots: Path | None = None, names: list[str] | None = None, strict: bool = False):
        self.page, self.shots, self.found, self.strict = page, shots, {}, strict
        # With names: the words not from the catalogs too (the pseudo-locale's own check, #33), at
        # each look, player names and Flutter's words aside: words[screen] = those texts.
        self.names, self.words = names, {}
        self.per_px = None  # wheel px per px the screen moves (Flutter's web engine moves a quarter of them here)
        self.looks: dict[str, int] = {}  # screen -> the steps it was looked at in (printed: a walk cut short shows)

    def note(self, screen: str, here: list[dict], step) -> None:
        for f in here:
            mine = self.found.setdefault((screen, f["text"]), {"why": [], "shot": None, "ink": None, "seen": 0})
            for why in f["why"]:
                kind = re.sub(r" [\d.]+ px\)?$", "", why)
                if not any(re.sub(r" [\d.]+ px\)?$", "", w) == kind for w in mine["why"]):
                    mine["why"].append(why)
            if self.shots and f["seen"] > mine["seen"] + 0.05:  # a better look at it than before
                path = self.shots / f"{shot_stem(screen)}-{step}.png"
                if not path.exists():
                    self.page.screenshot(path=str(path))
                mine.update(shot=str(path), ink=f["ink"], seen=f["seen"])

    def read(self, screen: str) -> None:
        if self.names is not None and (bad := unmarked(semantics_texts(self.page), self.names)):
            self.words.setdefault(screen, set()).update(bad)

    def menu(self, screen: str) -> None:
        """The pad's ⋮ menu: the texts of its items (the pad under it is looked at on its own: the modal
        menu hides the pad's nodes from the accessibility tree, its scrolling viewport with them)."""
        page = self.page
        with speaking(lang.PSEUDO):
            more, big = lang._("More"), lang._("Big screen")
        page.get_by_role("button", name=more, exact=True).tap()
        page.get_by_role("menuitem", name=big).wait_for()
        wait_for_paint(page)
        seen = page.evaluate(ANALYSE_JS, [TOLERANCE, SCRIPTS])
        assert seen["owned"].get("menuitem"), f"the menu's texts were not read: {seen['owned']}"
        self.note(screen, [f for f in seen["found"] if f["owner"] and f["owner"]["role"] == "menuitem"], 0)
        self.read(screen)
        page.keyboard.press("Escape")
        page.get_by_role("menuitem", name=big).wait_for(state="detached")
        wait_for_paint(page)

    def wheel_ratio(self) -> float:
        """Wheel px per px the screen moves, measured on the first screen that scrolls."""
        page, scroller = self.page, self.page.evaluate(SCROLLER)
        if scroller is None:
            return 1.0
        page.mouse.move(scroller["x"], scroller["y"])
        page.mouse.wheel(0, 100)
        after_the_wheel(page)
        moved = page.evaluate(SCROLLER)["top"] - scroller["top"]
        page.mouse.wheel(0, -1000)
        after_the_wheel(page)
        return 100 / moved if moved > 5 else 1.0

    def screen(self, screen: str, also=None) -> None:
        """What the page shows, scrolled through from its top to its foot, a step at most 60 % of its
        scrolling viewport's height: each text is wholly in view at some step. also(page): what else a
        screen's test reads at each step."""
        page = self.page
        page.evaluate("() => { window.__ppText.axes = {}; }")
        clipped_here(page, self.strict)  # the scrolling viewports' axes, read while they are still
        if self.per_px is None:
            self.per_px = self.wheel_ratio()
        look = None
        for step in range(STEPS):
            here, now = clipped_here(page, self.strict)
            self.looks[screen] = step + 1
            self.note(screen, here, step)
            self.read(screen)
            if also:
                also(page)
            scroller = page.evaluate(SCROLLER)
            if now == look or scroller is None:  # the screen did not move (its foot), or does not scroll
                break
            look = now
            want = min(SCROLL_STEP, 0.6 * scroller["height"])
            page.mouse.move(scroller["x"], scroller["y"])
            page.mouse.wheel(0, want * self.per_px)
            after_the_wheel(page)


def after_the_wheel(page) -> None:
    """Until the screen has moved under the wheel and is painted so, or stays where it was (its
    foot): the frame the wheel asked for, then wait_for_paint. (It waited a fixed 100 ms for that
    frame, 230 times a walk, and under load a frame later than that would have ended the walk of
    a screen early, taken for its foot: #70.)"""
    page.evaluate(TWO_FRAMES)
    wait_for_paint(page)


def test_the_detector_finds_what_is_clipped_and_passes_what_fits(browser):
    """tests/clipping_cases.py: a page of texts known to be clipped (one of each kind) and of texts
    that fit, wrap at their spaces, are cut only where a list scrolls, or are names ellipsized where
    their row has no room. The detector must name each clipped one, and no other."""
    from tests.clipping_cases import CLIPPED, FITTING

    with flet_server("tests/clipping_cases.py") as cases:
        page = phone(browser, cases.url)
        try:
            page.get_by_text("⟦Passt⟧", exact=True).wait_for()
            wait_for_paint(page)
            walk = Walk(page)
            walk.screen("cases")
            painted = {p["text"] for p in page.evaluate("() => window.__ppText.painted()")}
        finally:
            page.context.close()
    found = {text: v["why"] for (_screen, text), v in walk.found.items()}
    assert set(CLIPPED) | set(FITTING[:8]) | set(FITTING[-2:]) <= painted, "the cases were not all read from the engine"
    for text, kind in CLIPPED.items():
        assert any(why.startswith(kind) for why in found.get(text, [])), (text, kind, found.get(text))
    assert set(found) == set(CLIPPED), f"found as clipped but fitting: {set(found) - set(CLIPPED)}"


# The walk in two halves, each on a page of its own: the games' screens up to their ends, then the finished
# games, history, statistics and settings. Whole, it took 109 s here with the machine to itself (27 screens,
# 189 looks, 2 s of loading each) and 131 s in the suite, past #70's 90 s a test; no screen is looked at twice.
WALK_HALVES = {"new-games-and-pads": SCREENS[:12], "finished-history-statistics-settings": SCREENS[12:]}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("half", list(WALK_HALVES))
def test_no_text_is_clipped_on_any_screen_in_the_pseudo_locale_at_extra_large_text(browser, server, half):
    screens = WALK_HALVES[half]
    shots = ARTIFACTS_DIR
    shots.mkdir(parents=True, exist_ok=True)
    for screen, _path, _title in screens:  # this half's shots of an earlier run (Walk.note names them)
        for old in shots.glob(f"{shot_stem(screen)}-*.png"):
            old.unlink()
    page = phone(browser, f"{server.url}?token={server.host_token}")
    walk = Walk(page, shots, names=WALK_NAMES + SCRIPTS)
    squares: dict[int, list[float]] = {}  # the Ur board's squares, by number: their boxes as seen
    try:
        for screen, path, _title in screens:
            page.goto(f"{server.url}{path}?token={server.host_token}")
            enable_semantics(page)
            page.wait_for_function("() => Array.from(document.querySelectorAll('flt-semantics'))"
                                   ".some(n => (n.getAttribute('aria-label') || n.textContent).includes('⟦'))",
                                   polling=100)
            wait_for_paint(page)
            walk.screen(screen, also=(lambda page: squares.update(board_squares(page))) if path == "game/end-royal-ur"
                        else None)
            if path == "game/mid-pr":  # the ⋮ menu every pad has, as the pseudo-locale walk opens it
                walk.menu("the ⋮ menu")
    finally:
        page.context.close()
    found = walk.found
    print(f"\n{sum(walk.looks.values())} looks at {len(walk.looks)} screens: {walk.looks}")
    (ARTIFACTS_DIR / f"clipping-{half}.json").write_text(json.dumps(
        [{"screen": s, "text": t, **v} for (s, t), v in found.items()], ensure_ascii=False, indent=1), encoding="utf-8")
    assert not found, f"{len(found)} texts clipped (screenshots in {shots}):\n" + "\n".join(
        f"{screen}: {text!r}: {'; '.join(v['why'])}" for (screen, text), v in found.items())
    assert not walk.words, "words not from the catalogs:\n" + "\n".join(
        f"{screen}: {sorted(bad)}" for screen, bad in walk.words.items())
    # The Ur board at 320 px (#55: its eighth column was a sliver at the screen's edge): every square of
    # the loser's route seen, each wholly inside the screen.
    if not any(path == "game/end-royal-ur" for _screen, path, _title in screens):
        return
    assert sorted(squares) == list(range(1, 15)), f"the board's squares seen: {sorted(squares)}"
    outside = {n: box for n, box in squares.items() if box[0] < 0 or box[2] > PHONE_SIZE[0] + TOLERANCE}
    assert not outside, f"squares not wholly on the {PHONE_SIZE[0]} px screen: {outside}"


def board_squares(page) -> dict[int, list[float]]:
    """The Ur board's squares the accessibility tree shows: number -> box (CSS px)."""
    with speaking(lang.PSEUDO):
        said = [lang.translations(lang.PSEUDO).gettext(t).split("{square}")[0] for t in (
            "Square {square}, Rosette, {dots}, {counters}", "Square {square}, Doubles, {dots}, {counters}",
            "Square {square}, {dots}, {counters}")]
    found = page.evaluate("""(said) => Array.from(document.querySelectorAll('flt-semantics-host flt-semantics'))
        .map(n => [(n.getAttribute('aria-label') || Array.from(n.childNodes).filter(c => c.nodeType === 3 || c.tagName === 'SPAN')
                     .map(c => c.textContent).join('')).replace(/\uFEFF/g, '').trim(), n.getBoundingClientRect()])
        .filter(([label]) => said.some(s => label.startsWith(s)))
        .map(([label, r]) => [label, [r.left, r.top, r.right, r.bottom]])""", said)
    return {int(re.search(r"\d+", label[len(next(s for s in said if label.startswith(s))):]).group()): box
            for label, box in found}



# The cramped screens of #56, on the table above, in German and Chinese at 360 x 740 (light) and 320 x 640
# (dark), at extra-large text: the players' names whole where a table or chart names them, and room to play.
CRAMPED = [("de", "de-DE", (360, 740), "light"), ("de", "de-DE", (320, 640), "dark"),
           ("zh_Hans", "zh-CN", (320, 640), "dark"), ("pl", "pl-PL", (320, 640), "dark")]
ONLY_THE_PAD = {"pl"}  # Polish: its dialog's longer labels (the rest is German's and Chinese's walk)
# The largest scrolling viewport, and the page's height: what the fixed parts above and below it leave.
MAIN_VIEW = """() => { const axes = window.__ppText.axes || {};
  const all = Array.from(document.querySelectorAll('flt-semantics-host flt-semantics-scroll-overflow'))
    .map(o => o.parentElement).filter(n => axes[n.id] === "y" || /overflow-y:\\s*scroll/.test(n.getAttribute("style") || ""))
    .map(n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });
  all.sort((a, b) => (b[2] - b[0]) * (b[3] - b[1]) - (a[2] - a[0]) * (a[3] - a[1]));
  return {view: all[0] || null, height: innerHeight}; }"""
# Where the painted texts are: [text, x0, y0, x1, y1, lines, size] of each, in CSS px.
TEXTS = """() => window.__ppText.painted().map(p => [p.text.replace(/\\uFEFF/g, ""),
  Math.min(...p.lines.map(l => l.ink[0])), Math.min(...p.lines.map(l => l.ink[1])),
  Math.max(...p.lines.map(l => l.ink[2])), Math.max(...p.lines.map(l => l.ink[3])), p.lines.length, p.size])"""


def first_look(page, shows: str, opened: bool = False) -> None:
    """A screen opened by its address (opened: by open_app_page, its accessibility tree on), showing a
    control named `shows`, painted, its scrolling viewports' axes read while still."""
    if not opened:
        enable_semantics(page)
    page.get_by_role("button", name=shows, exact=True).or_(page.get_by_text(shows, exact=True)).first.wait_for()
    wait_for_paint(page)
    page.evaluate("() => { window.__ppText.axes = {}; }")
    clipped_here(page)


# About 40 s: three phones, four screens each, scrolled through.
@pytest.mark.timeout(360)
def test_names_are_whole_and_the_screens_leave_room_to_play_on_small_phones_in_german_and_chinese(browser, server):
    shots = ARTIFACTS_DIR
    shots.mkdir(parents=True, exist_ok=True)
    cramped: list[str] = []
    found: dict = {}
    for code, locale, (width, height), mode in CRAMPED:
        where = f"{code} {width}"
        with speaking(code):
            end_now, keep, end, show, total, average, next_hand, wins, history = (lang._(m) for m in (
                "End the match now", "Keep playing", "End the match", "Show the sheet", "Total",
                "Average points per hand", "Next hand", "Wins per player", "History"))
        theme = f"localStorage.setItem('flutter.pandapad.theme', JSON.stringify({json.dumps(mode)}));"
        page = open_app_page(browser, f"{server.url}game/{CRAMPED_PTP}?token={server.host_token}", width=width,
                             height=height, locale=locale, init_script=theme + HOOK_JS, color_scheme=mode, **PHONE)
        walk = Walk(page, shots, strict=True)
        try:
            # Pass the Pandas mid-hand: the next step's bar (the reason Next hand waits) leaves the pad two thirds.
            first_look(page, next_hand, opened=True)
            seen = page.evaluate(MAIN_VIEW)
            bar = seen["height"] - seen["view"][3]
            reason = max([lines for _text, _x0, y0, *_rest, lines, _size in page.evaluate(TEXTS) if y0 >= seen["view"][3]],
                         default=0)
            if bar > seen["height"] / 3 or reason > 2:
                cramped.append(f"{where}: Pass the Pandas' bar takes {bar:.0f} px of {height}, its reason {reason} lines")
                page.screenshot(path=str(shots / f"cramped-ptp-bar-{code}-{width}.png"))
            if code not in ONLY_THE_PAD:
                walk.screen(f"Pass the Pandas of five, {where}")
            # End the match now?: each button's label on one line, inside its button.
            scrolled_to(page, page.get_by_role("button", name=end_now, exact=True), bottom=bar).tap()
            page.get_by_role("button", name=keep, exact=True).wait_for()
            wait_for_paint(page)
            # (The pad under the dialog's barrier is the walk's above.)
            walk.note(f"End the match now?, {where}", [f for f in clipped_here(page, True)[0] if f["text"] in (keep, end)], 0)
            for text, *_box, lines, _size in page.evaluate(TEXTS):
                if text in (keep.replace(lang.JOIN, ""), end.replace(lang.JOIN, "")) and lines > 1:
                    cramped.append(f"{where}: the dialog's {text!r} takes {lines} lines")
                    page.screenshot(path=str(shots / f"cramped-dialog-{code}-{width}.png"))
            page.get_by_role("button", name=keep, exact=True).tap()
            page.get_by_role("button", name=keep, exact=True).wait_for(state="detached")
            if code in ONLY_THE_PAD:
                continue

            # Panda Royale's sheet, six players: the every-player table's round column stays as it scrolls sideways.
            page.goto(f"{server.url}game/end-panda-royale?token={server.host_token}")
            first_look(page, show)
            for _tap in range(2):  # once more if the first tap came before the pad listened (seen once in four)
                page.get_by_role("button", name=show).first.tap()
                try:
                    page.get_by_text(total, exact=True).first.wait_for(timeout=10_000)
                    break
                except PlaywrightTimeout:
                    pass
            wait_for_paint(page)
            walk.screen(f"Panda Royale's sheet, {where}")
            wide = page.evaluate("""() => Array.from(document.querySelectorAll('flt-semantics-host [id^="flt-semantic-node-"]'))
                .filter(n => (window.__ppText.axes || {})[n.id] === "x" || /overflow-x:\\s*scroll/.test(n.getAttribute("style") || ""))
                .map(n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })
                .filter(r => r[3] > 0 && r[1] < innerHeight && r[2] - r[0] > 100)""")
            sums = lambda: sorted((round(t[1]), round(t[2])) for t in page.evaluate(TEXTS) if t[0] == "Σ")  # noqa: E731
            heads = lambda: sorted((t[0], round(t[1])) for t in page.evaluate(TEXTS) if t[0] in SCRIPTS)  # noqa: E731
            if wide:
                x0, y0, x1, y1 = wide[-1]
                before, names = sums(), heads()
                page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2)
                page.mouse.wheel(600, 0)
                after_the_wheel(page)
                assert heads() != names, f"{where}: the every-player table did not move sideways under the wheel"
                if sums() != before:
                    cramped.append(f"{where}: the every-player table's round column scrolled away ({before} -> {sums()})")
                    page.screenshot(path=str(shots / f"cramped-sheet-{code}-{width}.png"))

            # Statistics: the chart's names, and a label as large as the value beside it.
            for game in ("panda-royale", "pass-the-pandas"):
                page.goto(f"{server.url}stats/{game}?token={server.host_token}")
                first_look(page, wins)
                small = {"size": None}

                def label_size(page, small=small):
                    for text, *_box, _lines, size in page.evaluate(TEXTS):
                        if text == average.replace(lang.JOIN, ""):
                            small["size"] = size
                walk.screen(f"statistics of {game}, {where}", also=label_size)
                if game == "pass-the-pandas" and (small["size"] or 0) < 16 * 1.3 - 1:
                    cramped.append(f"{where}: {average!r} drawn at {small['size']} px, the text beside it at 21")

            # History at 320 x 640: the list has the room of most of the screen, not of one game.
            if width == 320:
                page.goto(f"{server.url}history?token={server.host_token}")
                first_look(page, history)
                seen = page.evaluate(MAIN_VIEW)
                room = seen["view"][3] - seen["view"][1]
                if room < height / 2:
                    cramped.append(f"{where}: History's list has {room:.0f} px of {height}")
                    page.screenshot(path=str(shots / f"cramped-history-{code}-{width}.png"))
        finally:
            found.update(walk.found)
            page.context.close()
    (ARTIFACTS_DIR / "clipping-cramped.json").write_text(json.dumps(
        [{"screen": s, "text": t, **v} for (s, t), v in found.items()], ensure_ascii=False, indent=1), encoding="utf-8")
    assert not found and not cramped, f"{len(found)} texts clipped (screenshots in {shots}):\n" + "\n".join(
        f"{screen}: {text!r}: {'; '.join(v['why'])}" for (screen, text), v in found.items()) + "\n" + "\n".join(cramped)
