// The lecture player's state, constants and drawing: the chart of a step (its maths is
// player_maths.js's). A plain script that goes in front of player.js's module
// (ui/lecture/player.py joins player_types.js, player_chart.js, player_maths.js,
// player_moves.js, player_follow.js and player.js in that order): its names are the
// player's, shared with the files around it.

const SVG = "http://www.w3.org/2000/svg";
const MML = "http://www.w3.org/1998/Math/MathML";
const REPORT_AFTER = 350; // ms of quiet after a burst of steps before the server hears it
const ASK_AFTER = 1000; // ms a step waits for its scene before the browser asks for it again
const ALONG_ASK = 300; // ms between a play-along's asks for the next window
// The update's maths (MathML) is half of a step's layout on a phone: off the screen it is
// written once the steps pause this long, or as it scrolls into view or takes the focus
const MATHS_LATER = 250; // ms
// A report or an ask can be lost on its way: Streamlit drops a fragment's rerun that arrives
// while a whole page's run has not yet drawn the fragment again. The page waits this long for
// the server's redraw, then asks again, twice as long each time up to CONFIRM_MAX; the server
// acts on a report once (its seq), so asking again changes nothing that already happened.
const CONFIRM_AFTER = 2000; // ms
const CONFIRM_MAX = 8000; // ms
const LIVE_TRIES = 4; // asks for one lecturer's change: a server that cannot draw it stops being asked
// A class's lecturer's Play starts this long after the press: the room's phones hear of it
// within about half a second (a push to 100 followers, README), and start with it rather
// than that far behind. Its server takes at most 2 s (follow.MAX_LEAD_IN_S).
const COUNT_IN = 600;
const MAX_LATE = 1; // s: a message later than this (against the quickest) is taken as 1 s late
const S = (window.__perceptronLecture = /** @type {Lecture} */ (Object.assign({
  chartTop: 0, below: 40, t: 0, seq: 0, dirty: false, key: null, data: null, playing: false, pending: false,
  speed: 8, timer: null, raf: 0, root: null, listening: false, scene: null,
}, window.__perceptronLecture || {}))); // the scene component (player.py) may have been first

// --- small helpers -------------------------------------------------------------------

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number> | null} [attrs]
 * @param {Node | null} [parent]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number> | null} [attrs]
 * @param {Node | null} [parent]
 * @param {string} [text]
 * @returns {SVGElementTagNameMap[K]}
 */
function s(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * @param {keyof MathMLElementTagNameMap} tag
 * @param {Node | null} [parent]
 * @param {string} [text]
 * @returns {MathMLElement}
 */
function m(tag, parent, text) {
  const node = document.createElementNS(MML, tag);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * ``live`` takes ``fresh``'s children: where the two have the same shape (tags, in order),
 * only the attributes and words that differ are written, so a step that changes a few
 * numbers styles and lays out no new element (on a phone a step has one frame); where
 * they differ, ``fresh``'s children move in whole.
 * @param {Element} live @param {Element} fresh
 */
function morph(live, fresh) {
  const a = live.childNodes, b = fresh.childNodes, n = a.length;
  let same = n === b.length;
  for (let i = 0; same && i < n; i++) same = a[i].nodeName === b[i].nodeName;
  if (!same) { live.replaceChildren(...b); return; }
  for (let i = 0; i < n; i++) {
    const x = a[i], y = b[i];
    if (!(x instanceof Element) || !(y instanceof Element)) {
      if (x.nodeValue !== y.nodeValue) x.nodeValue = y.nodeValue;
      continue;
    }
    const want = y.attributes;
    for (let j = 0; j < want.length; j++) {
      const { name, value } = want[j];
      if (x.getAttribute(name) !== value) x.setAttribute(name, value);
    }
    if (x.attributes.length !== want.length) { // one it has that the fresh one has not
      for (const { name } of [...x.attributes]) if (!y.hasAttribute(name)) x.removeAttribute(name);
    }
    if (x.firstChild || y.firstChild) morph(x, y);
  }
}

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function view() {
  const d = S.data;
  return d && d.steps[S.t - d.start];
}

// --- the chart (an SVG laid out in CSS pixels, so fonts are real sizes) -----------------

// Text is measured on a canvas (measureText), not in the page: measuring the SVG's text
// would force a layout of the whole page at every step.
/** @type {CanvasRenderingContext2D | null | undefined} */
let measurer;
let family = "sans-serif"; // the player's font (the SVG inherits it), read at each redraw
const ASCENT = 1.0, DESCENT = 0.32; // a text's box above and below its baseline, per px of font (generous)

// The widths measured, by font and text: a step measures the same few labels again. At
// most WIDTHS_KEPT of them, all forgotten at once past that (a long run's stamps differ).
/** @type {Map<string, number>} */
const widths = new Map();
const WIDTHS_KEPT = 2000;
// a font that arrives changes every width (measured before it, in the fallback's)
if (document.fonts) document.fonts.addEventListener("loadingdone", () => widths.clear());

/** @param {string} text @param {number} px font size @param {number} [weight] @returns {number} its width, CSS px */
function textWidth(text, px, weight) {
  if (measurer === undefined) measurer = document.createElement("canvas").getContext("2d");
  if (!measurer) return text.length * px * 0.62; // no canvas: a generous estimate
  const font = `${weight || 400} ${px}px ${family}`;
  const key = font + "\n" + text;
  let w = widths.get(key);
  if (w === undefined) {
    if (widths.size >= WIDTHS_KEPT) widths.clear();
    measurer.font = font;
    w = measurer.measureText(text).width;
    widths.set(key, w);
  }
  return w;
}

/** @typedef {{x0: number, y0: number, x1: number, y1: number}} Rect a box in CSS px */

/** @param {Rect} a @param {Rect} b */
const overlaps = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** @param {number} cx @param {number} cy @param {number} r @returns {Rect} */
const around = (cx, cy, r) => ({ x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r });

/**
 * Where a label `w` px wide (font `px`) goes beside the anchor (ax, ay): the first spot,
 * going round from the direction `prefer` (radians, y down), `gaps[0]` px from the anchor,
 * then `gaps[1]` px and so on, whose box stays in `frame` and covers nothing in `taken`
 * (the points, the rings, the labels placed before it); null when there is none.
 * @param {number} w @param {number} px @param {number} ax @param {number} ay @param {number[]} gaps
 * @param {number} prefer @param {Rect[]} taken @param {Rect} frame
 * @returns {{x: number, y: number, box: Rect} | null} x: the text's start, y: its baseline
 */
function place(w, px, ax, ay, gaps, prefer, taken, frame) {
  const hw = w / 2 + 2, up = ASCENT * px, hh = ((ASCENT + DESCENT) * px) / 2;
  for (const gap of gaps) {
    for (let j = 0; j < 16; j++) { // sixteenths of a turn: 0, +1, −1, +2, −2, ...
      const ang = prefer + ((j % 2 ? 1 : -1) * Math.ceil(j / 2) * Math.PI) / 8;
      const dx = Math.cos(ang), dy = Math.sin(ang);
      const t = gap + Math.abs(dx) * hw + Math.abs(dy) * hh; // the box clears the anchor by gap
      const cx = ax + dx * t, cy = ay + dy * t;
      const box = { x0: cx - hw, y0: cy - hh, x1: cx + hw, y1: cy + hh };
      if (box.x0 < frame.x0 || box.x1 > frame.x1 || box.y0 < frame.y0 || box.y1 > frame.y1) continue;
      if (!taken.some((b) => overlaps(box, b))) return { x: cx - w / 2, y: cy - hh + up, box };
    }
  }
  return null;
}

/** @param {Element} el @param {number} wide its measured width @param {number} room */
function squeezeTo(el, wide, room) {
  // a text never cut: one wider than its room is squeezed to fit it
  if (wide > room) {
    el.setAttribute("textLength", String(room));
    el.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

/** @typedef {Array<[string, string?]>} KeyParts a legend line: its texts and their classes */

/** @param {PlayerData} d @param {ProofId} id @returns {KeyParts | null} the key under a proof panel's title */
function keyParts(d, id) {
  if (id === "squeeze") {
    // a squeeze only when separable (figures._curves), and then its key too (figures._panels)
    if (!d.squeeze || !d.panels.squeeze.key) return null;
    const [dot, norm, low, up] = d.panels.squeeze.key;
    return [["● " + dot, "plus"], ["  ◆ " + norm, "minus"], ["  - - " + low, "plus"], ["  - - " + up, "minus"]];
  }
  if (!d[id]) return null;
  const [name, rel, bname] = d.panels[id].key;
  return [[name, "w"], [` ${rel} `], [bname, "boundtxt"], [" " + tr("(dashed)")]];
}

/** @param {KeyParts} parts @param {number} px */
const keyWidth = (parts, px) => parts.reduce((sum, [str, cls]) => sum + textWidth(str, px, cls === "w" ? 600 : 400), 0);

/**
 * Where the panels go. Above the data panel: its title and the stamp's two lines (the
 * step, what the example just shown did), outside the plot so they cover no point. Above a
 * proof panel: its title and its key, on one line where both fit, else on two.
 * @param {number} width @param {PlayerData} d @returns {Layout}
 */
function layout(width, d) {
  const presenter = !!d.presenter;
  // presenter type follows the page's, which follows the viewport (player.py's page CSS)
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize) || 18;
  const font = presenter ? root * (17 / 18) : 13;
  const narrow = width < 720;
  const dataHead = font * 3.9;
  const foot = font * 1.5; // the tick labels under a proof panel
  const spare = window.innerHeight - S.chartTop - S.below - 12; // room left on screen
  const least = 20 * font; // the presenter's chart never shrinks below this
  const ids = /** @type {ProofId[]} */ (["claim1", "claim2", "squeeze"]);
  /** @param {number} w the proof panels' width @returns {boolean} each title and its key fit one line (all or none: alike) */
  const inline = (w) => ids.every((id) => {
    const parts = keyParts(d, id);
    return !parts || textWidth(d.panels[id].title, font, 600) + 1.5 * font + keyWidth(parts, 0.92 * font) <= w;
  });
  if (narrow) {
    const side = width - 56;
    const panels = /** @type {Record<PanelId, Box>} */ ({ data: { x: 48, y: dataHead, w: side, h: side } });
    let top = dataHead + side + 2.6 * font;
    const one = inline(side), head = one ? 1.5 * font : 2.6 * font;
    for (const id of ids) {
      panels[id] = { x: 48, y: top + head, w: side, h: 200 - head - foot - font, inline: one };
      top += 200;
    }
    return { width, height: top, font, panels, stampRoom: side, least, full: true };
  }
  const most = presenter ? 0.62 * width : Math.min(Math.max(440, 0.56 * width), 680);
  const height = presenter ? Math.max(least, Math.min(spare - (S.shrink || 0), most)) : most;
  const dataSide = Math.min(height - dataHead - 2.6 * font, 0.5 * width);
  const left = 4.2 * font;
  const rightX = left + dataSide + 5.2 * font;
  const rightW = width - rightX - 12;
  const slot = height / 3;
  const panels = /** @type {Record<PanelId, Box>} */ ({ data: { x: left, y: dataHead, w: dataSide, h: dataSide } });
  const one = inline(rightW), head = one ? 1.5 * font : 2.6 * font;
  ids.forEach((id, j) => {
    panels[id] = { x: rightX, y: j * slot + head, w: rightW, h: slot - head - foot - (j === 2 ? 0.4 * font : 0), inline: one };
  });
  return { width, height, font, panels, stampRoom: dataSide + 1.5 * font, least, full: height >= most };
}

/**
 * The round values to tick between lo and hi on an axis `length` px long, at least `gap` px
 * apart (so their labels never overlap): steps of 1, 2 or 5 times a power of ten.
 * @param {number} lo @param {number} hi @param {number} length @param {number} gap
 * @returns {number[]}
 */
function ticks(lo, hi, length, gap) {
  const span = hi - lo;
  if (!(span > 0) || !(length > 0)) return [lo];
  const least = (span * gap) / length; // the smallest step that keeps the gap
  const mag = 10 ** Math.floor(Math.log10(least));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((f) => f >= least * (1 - 1e-9)) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push(+v.toPrecision(12));
  return out;
}

/** @param {number} v */
function tickText(v) {
  const a = Math.abs(v);
  const text = a >= 1000 ? Math.round(v).toLocaleString("en") : a === 0 ? "0" : String(+v.toPrecision(3));
  return spoken(text.replace("-", "−"));
}

/**
 * @param {SVGSVGElement} svg
 * @param {Box} box
 * @param {PanelSpec} spec
 * @param {number} font
 * @param {boolean} equal
 * @param {KeyParts | null} parts its key (a proof panel's), drawn under the title or beside it
 * @returns {Panel}
 */
function panel(svg, box, spec, font, equal, parts) {
  const [x0, x1] = spec.x;
  const [y0, y1] = spec.y;
  let { x, y, w, h: ht } = box;
  if (equal) { // one scale on both axes: the data panel is square in data units too
    const side = Math.min(w, ht);
    w = side; ht = side;
  }
  const px = (/** @type {number} */ v) => x + ((v - x0) / (x1 - x0)) * w;
  const py = (/** @type {number} */ v) => y + (1 - (v - y0) / (y1 - y0)) * ht;
  const g = s("g", { class: "panel" }, svg);
  // the title: over the stamp's two lines (data), beside its key (one line) or over it
  const tw = textWidth(spec.title, font, 600);
  const kw = parts ? keyWidth(parts, 0.92 * font) : 0;
  const ty = y - (equal ? 3.05 : box.inline ? 0.45 : 1.75) * font;
  if (box.inline && parts) {
    const start = x + (w - (tw + 1.5 * font + kw)) / 2;
    s("text", { x: start, y: ty, class: "title" }, g, spec.title);
    key(g, start + tw + 1.5 * font, ty, "start", parts);
  } else {
    // centred over the panel, a little wider than it, and never past the chart's edges
    // (on a phone the panels reach the right edge: a title there was cut)
    const cx = x + w / 2, whole = Number(svg.getAttribute("width")) || Infinity;
    const room = Math.min(w + 3 * font, 2 * Math.min(cx, whole - cx) - 4);
    squeezeTo(s("text", { x: cx, y: ty, class: "title", "text-anchor": "middle" }, g, spec.title), tw, room);
    if (parts) squeezeTo(key(g, cx, y - 0.45 * font, "middle", parts), kw, room);
  }
  s("rect", { x, y, width: w, height: ht, class: "frame" }, g);
  const grid = s("g", { class: "grid" }, g);
  for (const v of ticks(x0, x1, w, font * 4.5)) {
    s("line", { x1: px(v), x2: px(v), y1: y, y2: y + ht, class: v === 0 ? "axis" : "" }, grid);
    s("text", { x: px(v), y: y + ht + font * 1.15, "text-anchor": "middle" }, grid, tickText(v));
  }
  // a tall panel: a tick every 2.2 lines of text or more; a low one: three or so ticks,
  // never closer than 1.5 lines, so no two labels overlap
  for (const v of ticks(y0, y1, ht, Math.max(1.5 * font, Math.min(2.2 * font, ht / 3)))) {
    s("line", { y1: py(v), y2: py(v), x1: x, x2: x + w, class: v === 0 ? "axis" : "" }, grid);
    s("text", { x: x - 5, y: py(v) + font * 0.35, "text-anchor": "end" }, grid, tickText(v));
  }
  if (equal) s("text", { x: x + w, y: y + ht + font * 2.3, "text-anchor": "end", class: "axlabel" }, grid, spec.xlabel);
  else s("text", { x: x + w + 4, y: y + ht + font * 1.15, "text-anchor": "end", class: "axlabel label" }, grid, "k");
  if (spec.ylabel) s("text", { x: x - font * 2.6, y: y + font * 0.4, class: "axlabel" }, grid, spec.ylabel);
  const inner = clipped(g, x, y, w, ht);
  return { g, inner, px, py, x, y, w, h: ht };
}

/**
 * A group in ``parent`` whose drawing is cut at the rectangle (a panel's frame).
 * @param {Element} parent @param {number} x @param {number} y @param {number} w @param {number} ht
 * @returns {SVGGElement}
 */
function clipped(parent, x, y, w, ht) {
  const id = `clip-${Math.random().toString(36).slice(2)}`;
  s("rect", { x, y, width: w, height: ht }, s("clipPath", { id }, s("defs", {}, parent)));
  return s("g", { "clip-path": `url(#${id})` }, parent);
}

/** @param {Path} points @param {{px: (v: number) => number, py: (v: number) => number}} P */
function poly(points, P) {
  return points.map(([a, b]) => `${P.px(a).toFixed(1)},${P.py(b).toFixed(1)}`).join(" ");
}

/** @param {SVGGElement} g @param {number} x @param {number} y @param {"start" | "middle"} anchor @param {KeyParts} parts */
function key(g, x, y, anchor, parts) {
  // the panel's legend, beside or under its title: never on a curve
  const text = s("text", { x, y, "text-anchor": anchor, class: "key" }, g);
  parts.forEach(([str, cls]) => s("tspan", { class: cls || "" }, text, str));
  return text;
}

/**
 * The chart's fixed part, in its three layers (see redraw): the panels in ``svg``, the
 * points in ``pts``, and the groups a step draws in ``over``.
 * @param {SVGSVGElement} svg @param {PlayerData} d @param {Layout} L
 * @param {SVGSVGElement} pts @param {SVGSVGElement} over @returns {Drawn}
 */
function drawStatic(svg, d, L, pts, over) {
  const P = /** @type {Drawn} */ ({}); // every field is set below
  const data = panel(svg, L.panels.data, d.panels.data, L.font, true, null);
  P.data = data;
  P.dyn = s("g", {}, data.inner); // half-planes: under everything
  if (d.ring) {
    const r = Math.abs(data.px(d.ring.r) - data.px(0));
    s("circle", { cx: data.px(0), cy: data.py(0), r, class: "ring" }, data.inner).appendChild(
      Object.assign(document.createElementNS(SVG, "title"), { textContent: d.ring.name }),
    );
  }
  for (const seg of d.band) s("polyline", { points: poly(seg, data), class: "band" }, data.inner);
  if (d.wstar) s("polyline", { points: poly(d.wstar, data), class: "wstar" }, data.inner);
  P.line = s("g", {}, data.inner);
  const points = s("g", { class: "points" }, clipped(pts, data.x, data.y, data.w, data.h));
  const size = Math.max(4, L.font * 0.42);
  P.marks = [];
  d.points.x.forEach((a, i) => {
    const cx = data.px(a), cy = data.py(d.points.y[i]);
    const plus = d.points.label[i] > 0;
    const mark = plus
      ? s("circle", { cx, cy, r: size, class: "plus" }, points)
      : s("path", { d: `M${cx - size},${cy - size}L${cx + size},${cy + size}M${cx - size},${cy + size}L${cx + size},${cy - size}`, class: "minus" }, points);
    if (d.points.tip) s("title", {}, mark, d.points.tip[i]);
    P.marks.push(around(cx, cy, size + 3)); // with its stroke, and a little air
  });
  P.top = clipped(over, data.x, data.y, data.w, data.h); // w, the rings of the examples shown and asked, their labels
  P.stamp = s("g", { class: "stamp" }, over); // above the plot: it covers nothing drawn
  for (const id of /** @type {ProofId[]} */ (["claim1", "claim2", "squeeze"])) {
    const spec = d.panels[id];
    const Q = panel(svg, L.panels[id], spec, L.font, false, keyParts(d, id));
    P[id] = Q;
    // drawStep draws its series into a fresh group (which carries the panel, P) and morphs it in
    P[/** @type {SeriesId} */ (id + "_dyn")] = /** @type {SeriesG} */ (s("g", {}, Q.inner));
    if (spec.note) {
      s("text", { x: Q.x + Q.w / 2, y: Q.y + Q.h / 2, "text-anchor": "middle", class: "note" }, Q.g, spec.note);
    }
  }
  for (const id of /** @type {const} */ (["claim1", "claim2"])) {
    const c = d[id];
    if (c) s("polyline", { points: poly(c.bound, P[id]), class: "bound" }, P[id].inner);
  }
  const q = d.squeeze;
  if (q) {
    const Q = P.squeeze;
    const [xs, ys] = q.lower;
    s("polyline", { points: poly(xs.map((a, j) => [a, ys[j]]), Q), class: "low" }, Q.inner);
    const [us, vs] = q.upper;
    s("polyline", { points: poly(us.map((a, j) => [a, vs[j]]), Q), class: "up" }, Q.inner);
    const bx = Q.px(q.bound);
    s("line", { x1: bx, x2: bx, y1: Q.y, y2: Q.y + Q.h, class: "boundline" }, Q.inner);
    s("text", { x: bx - 4, y: Q.y + Q.h - 5, "text-anchor": "end", class: "boundtxt label" }, Q.inner, q.bound_text);
  }
  return P;
}

/**
 * @param {SeriesG} Q
 * @param {number[]} ks
 * @param {number[]} vs
 * @param {number} k
 * @param {number | null} now
 * @param {string} cls
 * @param {"circle" | "diamond"} shape
 * @param {number} font
 */
function series(Q, ks, vs, k, now, cls, shape, font) {
  /** @type {Path} */
  const keep = [];
  for (let j = 0; j < ks.length && ks[j] <= k; j++) keep.push([ks[j], vs[j]]);
  if (now !== null && (!keep.length || keep[keep.length - 1][0] !== k)) keep.push([k, now]);
  const g = s("g", { class: cls }, Q);
  if (keep.length > 1) s("polyline", { points: poly(keep, Q.P), class: "curve" }, g);
  const r = Math.max(3, font * 0.3);
  const dots = keep.length > 300 ? [keep[keep.length - 1]] : keep;
  for (const [a, b] of dots) {
    const cx = Q.P.px(a), cy = Q.P.py(b);
    if (shape === "diamond") s("path", { d: `M${cx},${cy - r * 1.3}L${cx + r * 1.3},${cy}L${cx},${cy + r * 1.3}L${cx - r * 1.3},${cy}Z` }, g);
    else s("circle", { cx, cy, r }, g);
  }
}

// the class was asked about the next example, and the player is at the step it was asked at
/** @param {PlayerData} d @returns {d is AskedData} */
const asking = (d) => Array.isArray(d.asked) && S.t === d.asked[0] && d.asked[1] < d.points.x.length;

/** @param {Drawn} P @param {PlayerData} d @param {StepView} v @param {Layout} L */
function drawStep(P, d, v, L) {
  const data = P.data, f = L.font;
  // A step that is no mistake leaves w, so the line, its half-planes and the proof's
  // panels, as they were: each part is drawn again only when what it shows changed (on a
  // phone a step has the time of one frame)
  const was = (P.drawnAs ||= {});
  /** @param {string} part @param {string} now @returns {boolean} */
  const changed = (part, now) => (was[part] === now ? false : ((was[part] = now), true));
  const plus = v.plus.length ? poly(v.plus, data) : "";
  const minus = v.minus.length ? poly(v.minus, data) : "";
  if (changed("halves", `${plus}|${minus}`)) {
    P.dyn.replaceChildren();
    if (plus) s("polygon", { points: plus, class: "half plus" }, P.dyn);
    if (minus) s("polygon", { points: minus, class: "half minus" }, P.dyn);
  }
  const line = v.line ? poly(v.line, data) : "";
  if (changed("line", line)) {
    P.line.replaceChildren();
    if (line) s("polyline", { points: line, class: "wline" }, P.line);
  }
  const top = s("g"), stamp = s("g"); // drawn apart, then morphed into the chart's
  // Labels cover no point: each goes to the first free spot beside what it names, and
  // above the plot, with the stamp, when there is none.
  const taken = P.marks.slice();
  const frame = { x0: data.x + 2, y0: data.y + 2, x1: data.x + data.w - 2, y1: data.y + data.h - 2 };
  /** @type {string[]} */
  const unplaced = [];
  if (v.shown !== null) {
    const cx = data.px(d.points.x[v.shown]), cy = data.py(d.points.y[v.shown]), r = f * 1.05;
    s("circle", { cx, cy, r, class: v.mistake ? "shown mistake" : "shown right" }, top);
    taken.push(around(cx, cy, r + 2));
  }
  if (asking(d)) { // the class's open question: "will this point be a mistake?"
    const i = d.asked[1], cx = data.px(d.points.x[i]), cy = data.py(d.points.y[i]), r = f * 1.5;
    s("circle", { cx, cy, r, class: "asked" }, top);
    const gaps = [r + 2, r + 0.8 * f, r + 1.8 * f];
    const spot = place(textWidth("?", f, 700), f, cx, cy, gaps, -Math.PI / 4, taken, frame);
    if (spot) {
      s("text", { x: spot.x, y: spot.y, class: "askedtxt label" }, top, "?");
      taken.push(spot.box);
    } else {
      unplaced.push(tr("? point {i}", { i: i + 1 }));
    }
    taken.push(around(cx, cy, r + 2));
  }
  if (v.arrow) {
    const ox = data.px(0), oy = data.py(0), ax = data.px(v.arrow[0]), ay = data.py(v.arrow[1]);
    const ang = Math.atan2(ay - oy, ax - ox), hd = f * 0.9;
    s("line", { x1: ox, y1: oy, x2: ax, y2: ay, class: "warrow" }, top);
    s("path", {
      d: `M${ax},${ay}L${ax - hd * Math.cos(ang - 0.4)},${ay - hd * Math.sin(ang - 0.4)}L${ax - hd * Math.cos(ang + 0.4)},${ay - hd * Math.sin(ang + 0.4)}Z`,
      class: "whead",
    }, top);
    // beside its tip, else beside its shaft: close enough to read as w's
    const wide = textWidth(v.arrow_label, f, 700);
    let spot = place(wide, f, ax, ay, [0.3 * f, 0.9 * f, 1.6 * f], ang, taken, frame);
    for (const along of [0.75, 0.5]) {
      const sx = ox + along * (ax - ox), sy = oy + along * (ay - oy);
      if (!spot) spot = place(wide, f, sx, sy, [0.6 * f, 1.2 * f], ang - Math.PI / 2, taken, frame);
    }
    if (spot) s("text", { x: spot.x, y: spot.y, class: "wlabel label" }, top, v.arrow_label);
    else unplaced.push(`arrow: ${v.arrow_label}`);
  }
  // the stamp: above the plot, the step and what the example just shown did
  const first = `t = ${v.t} · k = ${v.k}`;
  const y1 = data.y - 1.75 * f, y2 = data.y - 0.45 * f;
  s("text", { x: data.x, y: y1, class: "stamptxt" }, stamp, first);
  if (unplaced.length) { // a label with no free spot on the plot: named here
    const more = "· " + unplaced.join(" · ");
    const at = data.x + textWidth(first + " ", f, 700);
    squeezeTo(s("text", { x: at, y: y1, class: "stampmore" }, stamp, more), textWidth(more, f, 600), Math.max(f, L.stampRoom - (at - data.x)));
  }
  if (v.said) {
    const said = s("text", { x: data.x, y: y2, class: v.mistake ? "said mistake" : "said right" }, stamp, v.said);
    squeezeTo(said, textWidth(v.said, f, 600), L.stampRoom);
  }
  morph(P.top, top);
  morph(P.stamp, stamp);
  for (const id of /** @type {const} */ (["claim1", "claim2"])) {
    const c = d[id];
    const dyn = P[/** @type {SeriesId} */ (id + "_dyn")];
    const now = id === "claim1" ? v.dot : v.nsq;
    if (!changed(id, `${!!c}:${v.k}:${now}`)) continue;
    const fresh = /** @type {SeriesG} */ (s("g"));
    if (c) {
      fresh.P = P[id];
      series(fresh, c.k, c.v, v.k, now, "w", "circle", f);
    }
    morph(dyn, fresh);
  }
  const q = d.squeeze;
  if (!changed("squeeze", `${!!q}:${v.k}:${v.dot}:${v.nsq}:${v.t === d.T}`)) return;
  const dyn = /** @type {SeriesG} */ (s("g"));
  if (q) {
    const Q = P.squeeze;
    dyn.P = Q;
    series(dyn, q.k, q.dot, v.k, v.dot === null ? null : v.dot / d.eta_value, "sq plus", "circle", f);
    series(dyn, q.k, q.norm, v.k, Math.sqrt(v.nsq) / d.eta_value, "sq minus", "diamond", f);
    const kx = Q.px(v.k);
    s("line", { x1: kx, x2: kx, y1: Q.y, y2: Q.y + Q.h, class: "kline" }, dyn);
    const text = v.t === d.T ? `M = ${v.k}` : `k = ${v.k} so far`;
    // right of the line, clear of the markers on it; left of it where the panel ends
    const clear = Math.max(3, f * 0.3) * 1.3 + 4;
    const right = kx + clear + textWidth(text, f) <= Q.x + Q.w;
    s("text", { x: right ? kx + clear : kx - clear, y: Q.y + f * 1.1, "text-anchor": right ? "start" : "end", class: "label" }, dyn, text);
  }
  morph(P.squeeze_dyn, dyn);
}

