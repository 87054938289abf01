// The lecture page's instrument: the controls, the status line, the update's maths
// and the chart, drawn and stepped in the browser.
//
// Python sends a *scene* (figures.lecture_scene): one window of steps of a run, each
// step already worked out and its numbers already written. Step, Back, Next
// mistake, Finish epoch, Play and the scrubber move inside the window here, with no
// server round trip; everything on screen is drawn from one number, S.t, so the
// chart, the status line, the maths and the text for screen readers always agree.
// The server hears the step once a burst of steps pauses (trigger "at": {t, seq}),
// so the URL, the mistake log and the other pages follow; a step outside the window
// asks for the next window at once. Outside text (the dataset's name) is only ever
// written with textContent.
//
// Streamlit calls the default export again on every data change and keeps no
// cleanup until unmount, so everything here is idempotent: one key listener per
// window, one DOM per mount.

// --- what Python sends (JSDoc types: tsc --checkJs in the tests, nothing at run time) ------

/** @typedef {[number, number]} XY a point [x, y] */
/** @typedef {number[][]} Path points [x, y] in data units (or k and a value on a proof panel) */
/** @typedef {"claim1" | "claim2" | "squeeze"} ProofId the three proof panels */
/** @typedef {"data" | ProofId} PanelId */
/** @typedef {"claim1_dyn" | "claim2_dyn" | "squeeze_dyn"} SeriesId */

/**
 * One panel's fixed part (figures._panels).
 * @typedef {object} PanelSpec
 * @property {string} title
 * @property {XY} x the range shown across
 * @property {XY} y the range shown up
 * @property {string} xlabel
 * @property {string} [ylabel] the data panel's only
 * @property {string} [note] why a proof panel stays empty (not separable)
 */
/** @typedef {PanelSpec & {key: [string, string, string]}} ClaimPanelSpec key: name, relation, the bound's name */
/** @typedef {PanelSpec & {key: [string, string, string, string] | null}} SqueezePanelSpec key: w·w*, ‖w‖, the lower and upper curves; null when not separable */

/**
 * A claim's curve up to the window's last mistake (figures._curves).
 * @typedef {object} Claim
 * @property {number[]} k mistakes k (thinned)
 * @property {number[]} v the value at each k
 * @property {Path} bound the bound as a line: [[0, b0], [k, bk]]
 */

/**
 * The squeeze panel's curves (figures._curves), null when not separable.
 * @typedef {object} Squeeze
 * @property {number[]} k
 * @property {number[]} dot w·w* (per η) at each k
 * @property {number[]} norm ‖w‖ (per η) at each k
 * @property {[number[], number[]]} lower k and the lower bounding curve
 * @property {[number[], number[]]} upper k and the upper bounding curve
 * @property {number} bound where they meet
 * @property {string} bound_text
 * @property {[string, string]} names
 * @property {boolean} per_eta
 */

/**
 * The data's points (figures._points): one list per column.
 * @typedef {object} Points
 * @property {number[]} x
 * @property {number[]} y
 * @property {number[]} label +1 or −1
 * @property {string[]} [tip] a tooltip per point (at most 500 points)
 */

/**
 * The maths at t = 0 (figures._math): w₀, written.
 * @typedef {object} MathAtStart
 * @property {string[]} w0
 */
/**
 * The maths of the step just done (figures._math): every number already written.
 * @typedef {object} MathBase
 * @property {number} i the example's point, from 1
 * @property {string} y its label, "+1" or "−1"
 * @property {string[]} w w before the step
 * @property {string[]} x the example (with its 1 for the bias)
 * @property {string} m the margin y·w·x
 * @property {string} rule on a tie (m = 0) the rule that made the verdict, as a formula; else ""
 */
/** @typedef {MathBase & ({mistake: false} | {mistake: true, wa: string[]})} MathOfStep wa: w after the update */

/**
 * What moves at step t (figures.step_view).
 * @typedef {object} StepView
 * @property {number} t
 * @property {number} k mistakes before step t
 * @property {string[]} status
 * @property {string} end how the run ended, at its last step; else ""
 * @property {Path | null} line w·x = 0 inside the view
 * @property {Path} plus the half-plane predicted +1 (empty when w draws no line)
 * @property {Path} minus
 * @property {number | null} dot w·w* (null without w*)
 * @property {number} nsq ‖w‖²
 * @property {XY | null} arrow w's tip (null for w = 0)
 * @property {string} arrow_label
 * @property {number | null} shown the row of the example just shown (null at t = 0)
 * @property {boolean} mistake
 * @property {string} said
 * @property {MathAtStart | MathOfStep} math MathAtStart at t = 0, else MathOfStep
 * @property {string} say one sentence for a screen reader
 */

/**
 * One window of steps of a run (figures.lecture_scene, with its run's id: runs.scene).
 * @typedef {object} LectureScene
 * @property {string} run
 * @property {string} name the dataset's name: plain text (textContent only)
 * @property {number} T steps in the run
 * @property {number} n examples per epoch
 * @property {number} start the window's first step
 * @property {number} stop its last
 * @property {number} after the step of the next mistake after the window (or T)
 * @property {string} eta η as written
 * @property {number} eta_value η to divide by
 * @property {boolean} bias
 * @property {string[]} facts
 * @property {{data: PanelSpec, claim1: ClaimPanelSpec, claim2: ClaimPanelSpec, squeeze: SqueezePanelSpec}} panels
 * @property {Points} points
 * @property {Path | null} wstar
 * @property {Path[]} band
 * @property {{r: number, name: string}} ring
 * @property {Claim | null} claim1 null when not separable
 * @property {Claim} claim2
 * @property {Squeeze | null} squeeze
 * @property {StepView[]} steps one per t in start..stop
 */

/**
 * The player's data (player.player): the server's step and the window it is in.
 * @typedef {object} PlayerStep
 * @property {number} t
 * @property {number} seq the last report the server acted on
 * @property {string} run
 * @property {number} start
 * @property {number} stop
 * @property {boolean} presenter
 * @property {number} play a new value: a replay plays on into this window
 * @property {[number, number] | null} asked the class's open question: [step, point]
 */

/** @typedef {LectureScene & PlayerStep} PlayerData the scene and the step, as drawn */
/** @typedef {PlayerData & {asked: [number, number]}} AskedData */

/** @typedef {{x: number, y: number, w: number, h: number}} Box a panel's place in CSS px */
/** @typedef {{width: number, height: number, font: number, panels: Record<PanelId, Box>}} Layout */

/**
 * A panel as drawn (panel()): its groups and its scales, data units to CSS px.
 * @typedef {object} Panel
 * @property {SVGGElement} g
 * @property {SVGGElement} inner clipped to the frame
 * @property {(v: number) => number} px
 * @property {(v: number) => number} py
 * @property {number} x
 * @property {number} y
 * @property {number} w
 * @property {number} h
 * @property {(el: Element) => void} fit
 */
/** @typedef {SVGGElement & {P: Panel}} SeriesG a group a proof panel's curve is drawn in, and its panel */

/**
 * What drawStatic() drew, and where drawStep() draws.
 * @typedef {object} Drawn
 * @property {Panel} data
 * @property {SVGGElement} dyn the half-planes
 * @property {SVGGElement} line the line w·x = 0
 * @property {SVGGElement} top w, the ring of the example just shown, the stamp
 * @property {Panel} claim1
 * @property {Panel} claim2
 * @property {Panel} squeeze
 * @property {SeriesG} claim1_dyn
 * @property {SeriesG} claim2_dyn
 * @property {SeriesG} squeeze_dyn
 */

/**
 * The page's state (window.__perceptronLecture, see ui/components.d.ts): the scene carrier
 * in player.py leaves `scene` (and `sceneRaw`) and calls `onScene`. The elements are made
 * by build() before anything reads them (paint() waits for `wrap`, redraw() for
 * `chartBox`), `layout` and `svg` by redraw(), `setTrigger` and `component` by the
 * first mount.
 * @typedef {object} Lecture
 * @property {number} chartTop the chart's top in the page, CSS px
 * @property {number} below room under the chart (the legend)
 * @property {number} t the step on screen
 * @property {number} seq the number of the last report sent (or heard of)
 * @property {boolean} dirty a step the server has not heard of yet
 * @property {string | null} key the run and window on screen
 * @property {PlayerData | null} data
 * @property {boolean} playing
 * @property {boolean} pending the server was asked for another window
 * @property {number} speed steps a second
 * @property {number | null} timer the report's timer
 * @property {number} [askTimer] the timer of a step that waits for its scene
 * @property {number} raf
 * @property {Element | null} root
 * @property {boolean} listening
 * @property {LectureScene | null} scene
 * @property {unknown} [sceneRaw] the carrier's data, as it came
 * @property {() => void} [onScene]
 * @property {StreamlitComponent<PlayerStep>} component
 * @property {(name: string, value: unknown) => void} setTrigger
 * @property {Record<string, HTMLButtonElement>} buttons
 * @property {HTMLSelectElement} speedSel
 * @property {HTMLButtonElement} presBtn
 * @property {HTMLInputElement} range
 * @property {HTMLSpanElement} rangeText
 * @property {HTMLParagraphElement} status
 * @property {HTMLParagraphElement} note
 * @property {HTMLDivElement} maths
 * @property {HTMLDivElement} chartBox
 * @property {HTMLParagraphElement} say
 * @property {HTMLDivElement} legend
 * @property {HTMLDivElement} wrap
 * @property {Layout} layout
 * @property {SVGSVGElement} svg
 * @property {Drawn} [P]
 * @property {number} [shrink] CSS px the presenter's chart gave up to fit the screen
 * @property {boolean} [refitting]
 * @property {number} [noteTimer]
 * @property {number} [resize]
 * @property {string | null} [drawn] the scene and mode the chart was drawn for
 * @property {number} [played] the replay counter already played
 */

const SVG = "http://www.w3.org/2000/svg";
const MML = "http://www.w3.org/1998/Math/MathML";
const REPORT_AFTER = 350; // ms of quiet after a burst of steps before the server hears it
const ASK_AFTER = 1000; // ms a step waits for its scene before the browser asks for it again
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

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function view() {
  const d = S.data;
  return d && d.steps[S.t - d.start];
}

// --- maths (MathML: native in every current browser, no CDN) ----------------------------

/** @param {Node} parent @param {string[]} values */
function vec(parent, values) {
  const row = m("mrow", parent);
  m("mo", row, "(");
  values.forEach((v, j) => {
    if (j) m("mo", row, ",");
    m("mn", row, v);
  });
  m("mo", row, ")");
}

/** @param {Node} parent @param {string} base @param {number} index @param {boolean} [tilde] */
function sub(parent, base, index, tilde) {
  const node = m("msub", parent);
  if (tilde) {
    const over = m("mover", node);
    over.setAttribute("accent", "true");
    m("mi", over, base);
    m("mo", over, "\u02DC");
  } else {
    m("mi", node, base);
  }
  m("mn", node, String(index));
  return node;
}

/** @param {Node} parent */
function mathLine(parent) {
  // no aria-label: a screen reader reads the MathML itself (a label would replace it)
  const math = m("math", parent);
  math.setAttribute("display", "block");
  return m("mrow", math);
}

// a run of MathML tokens: "(" and the like are operators, "#..." a number, else a name
/** @param {Node} row @param {...string} tokens */
function put(row, ...tokens) {
  for (const tok of tokens) {
    if (tok.startsWith("#")) m("mn", row, tok.slice(1));
    else if (/^[()=·←+⇒,]$/.test(tok)) m("mo", row, tok);
    else m("mi", row, tok);
  }
}

/** @param {HTMLElement} box @param {StepView} v @param {PlayerData} d */
function writeMaths(box, v, d) {
  box.replaceChildren();
  const q = /** @type {MathOfStep} */ (v.math); // t > 0 (t = 0 returns first, with MathAtStart)
  if (!v.t) {
    h("p", { class: "hint" }, box, "Press Step ▶ (or →) to show the first example to the perceptron.");
    const row = mathLine(box);
    put(row, "w", "=");
    sub(row, "w", 0);
    put(row, "=");
    vec(row, /** @type {MathAtStart} */ (v.math).w0);
    return;
  }
  const x = d.bias ? "x\u0303" : "x";
  let row = mathLine(box); // the prediction: y_i (w·x_i) = (y)((w)·(x)) = margin ⇒ verdict
  sub(row, "y", q.i);
  put(row, "(", "w", "·");
  sub(row, "x", q.i, d.bias);
  put(row, ")", "=", "(", "#" + q.y, ")", "(");
  vec(row, q.w);
  put(row, "·");
  vec(row, q.x);
  put(row, ")", "=", "#" + q.m);
  m("mspace", row).setAttribute("width", "1em");
  put(row, "⇒");
  m("mtext", row, q.mistake ? "\u00A0mistake" : q.rule ? "\u00A0no mistake" : "\u00A0correct");
  if (q.rule) { // a tie: only the rule decides, so it is named, in words that wrap on a phone
    const verdict = q.mistake ? "a mistake" : "no mistake";
    h("p", { class: "tie" }, box, `A tie (w·x = 0): by the rule “${q.rule}” this is ${verdict}.`);
  }
  row = mathLine(box); // the update, or why there is none
  if (!q.mistake) {
    m("mtext", row, "no update:\u00A0");
    put(row, "w", "=");
    vec(row, q.w);
    m("mtext", row, "\u00A0is kept");
    return;
  }
  put(row, "w", "←", "w", "+", "η", "y", x, "=");
  vec(row, q.w);
  put(row, "+", "#" + d.eta, "·", "(", "#" + q.y, ")", "·");
  vec(row, q.x);
  put(row, "=");
  vec(row, q.wa);
}

// --- the chart (an SVG laid out in CSS pixels, so fonts are real sizes) -----------------

/** @param {number} width @param {boolean} presenter @returns {Layout} */
function layout(width, presenter) {
  const font = presenter ? 17 : 13;
  const narrow = width < 720;
  const spare = window.innerHeight - S.chartTop - S.below - 12; // room left on screen
  const height = narrow
    ? width + 3 * 200
    : presenter
      ? Math.max(360, Math.min(spare - (S.shrink || 0), 0.62 * width))
      : Math.min(Math.max(440, 0.56 * width), 680);
  const head = font * 2.6; // a title line and a key line above each panel
  const foot = font * 1.5; // the tick labels under a proof panel
  if (narrow) {
    const side = width - 56;
    const panels = /** @type {Record<PanelId, Box>} */ ({ data: { x: 48, y: head, w: side, h: side } });
    let top = side + head + 2.6 * font;
    for (const id of /** @type {ProofId[]} */ (["claim1", "claim2", "squeeze"])) {
      panels[id] = { x: 48, y: top + head, w: side, h: 200 - head - foot - font };
      top += 200;
    }
    return { width, height, font, panels };
  }
  const dataSide = Math.min(height - head - 2.6 * font, 0.5 * width);
  const left = 4.2 * font;
  const rightX = left + dataSide + 5.2 * font;
  const rightW = width - rightX - 12;
  const slot = height / 3;
  const panels = /** @type {Record<PanelId, Box>} */ ({ data: { x: left, y: head, w: dataSide, h: dataSide } });
  /** @type {ProofId[]} */ (["claim1", "claim2", "squeeze"]).forEach((id, j) => {
    panels[id] = { x: rightX, y: j * slot + head, w: rightW, h: slot - head - foot - (j === 2 ? font : 0) };
  });
  return { width, height, font, panels };
}

/** @param {number} lo @param {number} hi @param {number} count @returns {number[]} */
function ticks(lo, hi, count) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * mag).find((f) => span / f <= count) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push(+v.toPrecision(12));
  return out;
}

/** @param {number} v */
function tickText(v) {
  const a = Math.abs(v);
  const text = a >= 1000 ? Math.round(v).toLocaleString("en") : a === 0 ? "0" : String(+v.toPrecision(3));
  return text.replace("-", "−");
}

/**
 * @param {SVGSVGElement} svg
 * @param {Box} box
 * @param {PanelSpec} spec
 * @param {number} font
 * @param {boolean} equal
 * @returns {Panel}
 */
function panel(svg, box, spec, font, equal) {
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
  s("text", { x: x + w / 2, y: y - 1.75 * font, class: "title", "text-anchor": "middle" }, g, spec.title);
  s("rect", { x, y, width: w, height: ht, class: "frame" }, g);
  const grid = s("g", { class: "grid" }, g);
  for (const v of ticks(x0, x1, Math.max(2, Math.floor(w / (font * 5))))) {
    s("line", { x1: px(v), x2: px(v), y1: y, y2: y + ht, class: v === 0 ? "axis" : "" }, grid);
    s("text", { x: px(v), y: y + ht + font * 1.15, "text-anchor": "middle" }, grid, tickText(v));
  }
  for (const v of ticks(y0, y1, Math.max(3, Math.floor(ht / (font * 2.2))))) {
    s("line", { y1: py(v), y2: py(v), x1: x, x2: x + w, class: v === 0 ? "axis" : "" }, grid);
    s("text", { x: x - 5, y: py(v) + font * 0.35, "text-anchor": "end" }, grid, tickText(v));
  }
  if (equal) s("text", { x: x + w, y: y + ht + font * 2.3, "text-anchor": "end", class: "axlabel" }, grid, spec.xlabel);
  else s("text", { x: x + w + 4, y: y + ht + font * 1.15, "text-anchor": "end", class: "axlabel label" }, grid, "k");
  if (spec.ylabel) s("text", { x: x - font * 2.6, y: y + font * 0.4, class: "axlabel" }, grid, spec.ylabel);
  const id = `clip-${Math.random().toString(36).slice(2)}`;
  s("rect", { x, y, width: w, height: ht }, s("clipPath", { id }, s("defs", {}, g)));
  const inner = s("g", { "clip-path": `url(#${id})` }, g);
  // a title never cut: squeeze one longer than the panel to fit it (its width is
  // estimated, not measured: a measurement here forced a layout of the whole page)
  const fit = (/** @type {Element} */ el) => {
    const room = w + 3 * font;
    if (el.textContent.length * font * 0.56 > room) {
      el.setAttribute("textLength", String(room));
      el.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  };
  return { g, inner, px, py, x, y, w, h: ht, fit };
}

/** @param {Path} points @param {{px: (v: number) => number, py: (v: number) => number}} P */
function poly(points, P) {
  return points.map(([a, b]) => `${P.px(a).toFixed(1)},${P.py(b).toFixed(1)}`).join(" ");
}

/** @param {Panel} P @param {Array<[string, string?]>} parts @param {number} font */
function key(P, parts, font) {
  // the panel's legend, on its own line under the title: never on a curve
  const text = s("text", { x: P.x + P.w / 2, y: P.y - 0.45 * font, "text-anchor": "middle", class: "key" }, P.g);
  parts.forEach(([str, cls]) => s("tspan", { class: cls || "" }, text, str));
  return text;
}

/** @param {SVGSVGElement} svg @param {PlayerData} d @param {Layout} L @returns {Drawn} */
function drawStatic(svg, d, L) {
  const P = /** @type {Drawn} */ ({}); // every field is set below
  const data = panel(svg, L.panels.data, d.panels.data, L.font, true);
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
  const pts = s("g", { class: "points" }, data.inner);
  const size = Math.max(4, L.font * 0.42);
  d.points.x.forEach((a, i) => {
    const cx = data.px(a), cy = data.py(d.points.y[i]);
    const plus = d.points.label[i] > 0;
    const mark = plus
      ? s("circle", { cx, cy, r: size, class: "plus" }, pts)
      : s("path", { d: `M${cx - size},${cy - size}L${cx + size},${cy + size}M${cx - size},${cy + size}L${cx + size},${cy - size}`, class: "minus" }, pts);
    if (d.points.tip) s("title", {}, mark, d.points.tip[i]);
  });
  P.top = s("g", {}, data.inner); // w, the ring of the example just shown, the stamp
  for (const id of /** @type {ProofId[]} */ (["claim1", "claim2", "squeeze"])) {
    const spec = d.panels[id];
    const Q = panel(svg, L.panels[id], spec, L.font, false);
    P[id] = Q;
    // its P (the panel) is set by drawStep, before series() reads it
    P[/** @type {SeriesId} */ (id + "_dyn")] = /** @type {SeriesG} */ (s("g", {}, Q.inner));
    if (spec.note) {
      s("text", { x: Q.x + Q.w / 2, y: Q.y + Q.h / 2, "text-anchor": "middle", class: "note" }, Q.g, spec.note);
    }
  }
  for (const id of /** @type {const} */ (["claim1", "claim2"])) {
    const c = d[id];
    if (!c) continue;
    const [name, rel, bname] = d.panels[id].key;
    s("polyline", { points: poly(c.bound, P[id]), class: "bound" }, P[id].inner);
    key(P[id], [[name, "w"], [` ${rel} `], [bname, "boundtxt"], [" (dashed)"]], L.font);
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
    // a squeeze only when separable (figures._curves), and then its key too (figures._panels)
    const [dot, norm, low, up] = /** @type {[string, string, string, string]} */ (d.panels.squeeze.key);
    key(Q, [["● " + dot, "plus"], ["  ◆ " + norm, "minus"], ["  - - " + low, "plus"], ["  - - " + up, "minus"]], L.font);
  }
  for (const t of svg.querySelectorAll("text.title")) {
    const Pn = Object.values(P).find(/** @returns {p is Panel} */ (p) => !!p && "g" in p && p.g.contains(t));
    if (Pn) Pn.fit(t);
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
  const data = P.data;
  P.dyn.replaceChildren();
  if (v.plus.length) s("polygon", { points: poly(v.plus, data), class: "half plus" }, P.dyn);
  if (v.minus.length) s("polygon", { points: poly(v.minus, data), class: "half minus" }, P.dyn);
  P.line.replaceChildren();
  if (v.line) s("polyline", { points: poly(v.line, data), class: "wline" }, P.line);
  P.top.replaceChildren();
  if (v.arrow) {
    const ox = data.px(0), oy = data.py(0), ax = data.px(v.arrow[0]), ay = data.py(v.arrow[1]);
    const ang = Math.atan2(ay - oy, ax - ox), hd = L.font * 0.9;
    s("line", { x1: ox, y1: oy, x2: ax, y2: ay, class: "warrow" }, P.top);
    s("path", {
      d: `M${ax},${ay}L${ax - hd * Math.cos(ang - 0.4)},${ay - hd * Math.sin(ang - 0.4)}L${ax - hd * Math.cos(ang + 0.4)},${ay - hd * Math.sin(ang + 0.4)}Z`,
      class: "whead",
    }, P.top);
    s("text", { x: ax + 6, y: ay - 6, class: "wlabel label" }, P.top, v.arrow_label);
  }
  if (v.shown !== null) {
    const cx = data.px(d.points.x[v.shown]), cy = data.py(d.points.y[v.shown]);
    s("circle", { cx, cy, r: L.font * 1.05, class: v.mistake ? "shown mistake" : "shown right" }, P.top);
  }
  if (asking(d)) { // the class's open question: "will this point be a mistake?"
    const i = d.asked[1], cx = data.px(d.points.x[i]), cy = data.py(d.points.y[i]), r = L.font * 1.5;
    s("circle", { cx, cy, r, class: "asked" }, P.top);
    s("text", { x: cx + r * 0.8, y: cy - r * 0.8, class: "askedtxt label" }, P.top, "?");
  }
  // the stamp: in the corner of the panel, on a white box, so no line crosses it
  const stamp = s("g", { class: "stamp" }, P.top);
  const sx = data.x + 6, sy = data.y + L.font * 1.2;
  const bg = s("rect", { x: sx - 3, y: sy - L.font, height: v.said ? L.font * 2.5 : L.font * 1.35, class: "stampbg" }, stamp);
  const first = `t = ${v.t} · k = ${v.k}`;
  s("text", { x: sx, y: sy, class: "stamptxt" }, stamp, first);
  if (v.said) s("text", { x: sx, y: sy + L.font * 1.2, class: v.mistake ? "said mistake" : "said right" }, stamp, v.said);
  const wide = Math.max(first.length, v.said.length) * L.font * 0.56; // estimated: no forced layout
  bg.setAttribute("width", String(wide + 8));
  for (const id of /** @type {const} */ (["claim1", "claim2"])) {
    const c = d[id];
    const dyn = P[/** @type {SeriesId} */ (id + "_dyn")];
    dyn.replaceChildren();
    if (!c) continue;
    dyn.P = P[id];
    const now = id === "claim1" ? v.dot : v.nsq;
    series(dyn, c.k, c.v, v.k, now, "w", "circle", L.font);
  }
  const q = d.squeeze;
  const dyn = P.squeeze_dyn;
  dyn.replaceChildren();
  if (q) {
    dyn.P = P.squeeze;
    series(dyn, q.k, q.dot, v.k, v.dot === null ? null : v.dot / d.eta_value, "sq plus", "circle", L.font);
    series(dyn, q.k, q.norm, v.k, Math.sqrt(v.nsq) / d.eta_value, "sq minus", "diamond", L.font);
    const kx = P.squeeze.px(v.k);
    s("line", { x1: kx, x2: kx, y1: P.squeeze.y, y2: P.squeeze.y + P.squeeze.h, class: "kline" }, dyn);
    const end = v.t === d.T;
    s("text", { x: kx + 4, y: P.squeeze.y + L.font * 1.1, class: "label" }, dyn, end ? `M = ${v.k}` : `k = ${v.k} so far`);
  }
}

// --- the page's parts ----------------------------------------------------------------

const BUTTONS = [
  ["reset", "Reset", "Home or r", "back to w₀, before the first example"],
  ["back", "◀ Back", "←", "undo the last step"],
  ["step", "Step ▶", "→", "show one example"],
  ["next", "Next mistake", "n", "step until the next update"],
  ["epoch", "Finish epoch", "e", "step to the end of this pass"],
  ["end", "Run to the end", "End", "the last step of the run"],
  ["play", "▶ Play", "space", "replay the run"],
];

/** @param {Element} root @param {PlayerData} data */
function build(root, data) {
  root.replaceChildren();
  const wrap = h("div", { class: "lec" }, root);
  const bar = h("div", { class: "bar", role: "toolbar", "aria-label": "step through the run" }, wrap);
  S.buttons = {};
  for (const [id, label, keyName, tip] of BUTTONS) {
    const b = h("button", { type: "button", "data-act": id, title: `${tip} (${keyName})`, "aria-keyshortcuts": keyName }, bar, label);
    b.addEventListener("click", () => act(id));
    S.buttons[id] = b;
  }
  const speed = h("select", { "aria-label": "replay speed", class: "speed" }, bar);
  for (const v of [2, 8, 30]) h("option", { value: v }, speed, `${v} steps/s`);
  speed.value = String(S.speed);
  speed.addEventListener("change", () => { S.speed = +speed.value; if (S.playing) { stop(); play(); } });
  S.speedSel = speed;
  const tools = h("div", { class: "tools" }, bar);
  const copy = h("button", { type: "button", "data-act": "copy", title: "copy a link that opens this step" }, tools, data.presenter ? "Copy link" : "Copy link to this step");
  copy.addEventListener("click", copyLink);
  const pres = h("button", { type: "button", "data-act": "presenter", "aria-pressed": String(!!data.presenter), title: "presenter mode for a projector (p)", "aria-keyshortcuts": "p" }, tools, data.presenter ? "Exit presenter" : "Presenter mode");
  pres.addEventListener("click", () => togglePresenter());
  S.presBtn = pres;
  const scrub = h("div", { class: "scrub" }, wrap);
  const range = h("input", { type: "range", min: 0, max: data.T, step: 1, value: S.t, "aria-label": "scrub: step t" }, scrub);
  range.addEventListener("input", () => scrubTo(+range.value, false));
  range.addEventListener("change", () => scrubTo(+range.value, true));
  S.range = range;
  S.rangeText = h("span", { class: "rangetext" }, scrub);
  S.status = h("p", { class: "status", "aria-live": "polite" }, wrap);
  S.note = h("p", { class: "note", role: "status" }, wrap);
  S.maths = h("div", { class: "maths" }, wrap);
  S.chartBox = h("div", { class: "chart" }, wrap);
  S.say = h("p", { class: "say", id: "lec-say" }, wrap);
  const legend = h("div", { class: "legend", "aria-hidden": "true" }, wrap);
  S.legend = legend;
  for (const [cls, text] of [
    ["plus", "● y = +1"], ["minus", "✕ y = −1"], ["wline", "━ the line w·x = 0"], ["wtxt", "→ w"],
    ["star", "╍ max-margin w* and its γ band"], ["shownr", "◯ example just shown: correct"],
    ["shownm", "◯ example just shown: mistake"], ["ringtxt", "◌ max ‖x‖"], ["boundtxt", "╍ bounds"],
  ]) h("span", { class: cls }, legend, text);
  h("p", { class: "keys" }, wrap,
    "Keys: → step · ← back · n next mistake · e finish epoch · End run to the end · Home or r reset · space play/pause · p presenter mode");
  S.wrap = wrap;
}

function paint() {
  const d = S.data;
  const v = view();
  if (!d || !v || !S.wrap) return;
  /** @param {HTMLElement} parent @param {string} text @param {string} [cls] */
  const chip = (parent, text, cls) => h("span", { class: cls || "chip" }, parent, text);
  S.status.replaceChildren();
  chip(S.status, d.name, "name");
  for (const part of v.status) chip(S.status, part);
  for (const part of d.facts) chip(S.status, part, "fact");
  if (v.end) chip(S.status, v.end, "end");
  const asked = asking(d) ? ` The class is asked: will point ${d.asked[1] + 1}, shown next, be a mistake?` : "";
  if (asked) chip(S.status, `? class question: point ${/** @type {AskedData} */ (d).asked[1] + 1}`, "chip asked");
  writeMaths(S.maths, v, d);
  S.range.value = String(S.t);
  S.rangeText.textContent = `step t = ${S.t} of ${d.T}`;
  S.buttons.back.disabled = S.t === 0 || S.pending;
  S.buttons.reset.disabled = S.t === 0 || S.pending;
  for (const id of ["step", "next", "epoch", "end"]) S.buttons[id].disabled = S.t === d.T || S.pending;
  S.buttons.play.textContent = S.playing ? "❚❚ Pause" : "▶ Play";
  S.buttons.play.disabled = S.pending || (!S.playing && S.t === d.T);
  const L = S.layout;
  if (S.P) drawStep(S.P, d, v, L);
  S.svg.setAttribute("aria-label", v.say + asked);
  S.svg.dataset.t = String(S.t);
  S.say.textContent = v.say + asked;
  S.wrap.dataset.t = String(S.t);
}

function redraw() {
  if (!S.data || !S.chartBox) return;
  const width = Math.max(320, Math.floor(S.chartBox.getBoundingClientRect().width || 900));
  S.chartTop = S.chartBox.getBoundingClientRect().top + window.scrollY;
  S.below = S.legend ? S.legend.getBoundingClientRect().height + 8 : 40;
  const L = layout(width, !!S.data.presenter);
  S.layout = L;
  const svg = s("svg", { width: L.width, height: L.height, viewBox: `0 0 ${L.width} ${L.height}`, role: "img", class: "fig" });
  svg.style.fontSize = `${L.font}px`;
  S.chartBox.replaceChildren(svg);
  S.svg = svg;
  S.P = drawStatic(svg, S.data, L);
  paint();
  if (S.data.presenter && !S.refitting) { // on a projector all of it fits the screen
    const over = S.wrap.getBoundingClientRect().bottom + 6 - window.innerHeight;
    if (over > 1 && L.height > 360) {
      S.shrink = (S.shrink || 0) + over;
      S.refitting = true;
      try { redraw(); } finally { S.refitting = false; }
    } else if (over < -40 && S.shrink) {
      S.shrink = Math.max(0, S.shrink + over);
    }
  }
}

// --- moving ------------------------------------------------------------------------

/** @param {string} text */
function say(text) {
  S.note.textContent = text;
  clearTimeout(S.noteTimer);
  S.noteTimer = setTimeout(() => { S.note.textContent = ""; }, 4000);
}

/** @param {number} t @param {{play?: boolean}} [extra] */
function send(t, extra) {
  S.seq += 1;
  S.dirty = false;
  S.setTrigger("at", { t, seq: S.seq, ...(extra || {}) });
}

/** @param {number} target @param {{play?: boolean}} [opts] */
function moveTo(target, opts) {
  const d = S.data;
  if (!d || S.pending) return false;
  target = Math.max(0, Math.min(d.T, Math.round(target)));
  if (target === S.t) return false;
  if (target < d.start || target > d.stop) { // outside this window: the server sends the next
    S.pending = true;
    S.wrap.classList.add("busy");
    say(`Loading steps around t = ${target}…`);
    clearTimeout(S.timer);
    send(target, opts && opts.play ? { play: true } : {});
    paint();
    return true;
  }
  S.t = target;
  S.dirty = true;
  paint();
  if (!S.playing) schedule();
  return true;
}

function schedule() {
  clearTimeout(S.timer);
  S.timer = setTimeout(() => { if (S.dirty && !S.playing && !S.pending) send(S.t); }, REPORT_AFTER);
}

function nextMistake() {
  const d = /** @type {PlayerData} */ (S.data); // act() has one
  for (let t = S.t + 1; t <= d.stop; t++) if (d.steps[t - d.start].mistake) return t;
  return d.after;
}

/** @param {string} id one of BUTTONS' */
function act(id) {
  const d = S.data;
  if (!d) return;
  if (id !== "play" && S.playing) stop();
  if (id === "step") {
    if (S.t === d.T) say(`That was the last step: the run ends at t = ${d.T}. Reset (Home) starts again.`);
    else moveTo(S.t + 1);
  } else if (id === "back") {
    if (S.t === 0) say("This is the start: no example shown yet, w = w₀.");
    else moveTo(S.t - 1);
  } else if (id === "next") {
    moveTo(nextMistake());
  } else if (id === "epoch") {
    moveTo(Math.min((Math.floor(S.t / d.n) + 1) * d.n, d.T));
  } else if (id === "end") {
    moveTo(d.T);
  } else if (id === "reset") {
    moveTo(0);
  } else if (id === "play") {
    if (S.playing) stop(); else play();
  }
}

function play() {
  const d = S.data;
  if (!d || S.pending) return;
  if (S.t === d.T) { say("The run is over; Reset (Home) to replay it."); return; }
  S.playing = true;
  const rate = reduced() ? Math.min(S.speed, 1) : S.speed; // prefers-reduced-motion: 1 step/s
  if (reduced() && S.speed > 1) say("Reduced motion is on: playing 1 step a second.");
  let last = performance.now();
  let owed = 0;
  const tick = (/** @type {number} */ now) => {
    if (!S.playing) return;
    owed += ((now - last) * rate) / 1000;
    last = now;
    if (owed >= 1) {
      const steps = Math.floor(owed);
      owed -= steps;
      const dd = /** @type {PlayerData} */ (S.data); // set once, never unset
      const target = Math.min(S.t + steps, dd.T);
      if (target > dd.stop) { // the window ends: fetch the next and play on
        S.playing = false;
        moveTo(target, { play: true });
        return;
      }
      moveTo(target);
      if (S.t === dd.T) { stop(); return; }
    }
    S.raf = requestAnimationFrame(tick);
  };
  S.raf = requestAnimationFrame(tick);
  paint();
}

function stop() {
  S.playing = false;
  cancelAnimationFrame(S.raf);
  paint();
  schedule();
}

/** @param {number} t @param {boolean} released */
function scrubTo(t, released) {
  const d = /** @type {PlayerData} */ (S.data); // the scrubber is built with it
  if (t >= d.start && t <= d.stop) { if (S.playing) stop(); moveTo(t); return; }
  S.rangeText.textContent = `step t = ${t} of ${d.T} (release to load it)`;
  if (released) moveTo(t);
}

function link() {
  const url = new URL(window.location.href);
  if (S.t) url.searchParams.set("lec_t", String(S.t));
  else url.searchParams.delete("lec_t");
  return url.toString();
}

function copyLink() {
  const text = link();
  const done = () => say("Link copied: it opens this dataset, these settings and step t = " + S.t + ".");
  const fallback = () => { // http:// in a lecture hall has no clipboard API: show it, selected
    const box = h("input", { type: "text", readonly: "", value: text, "aria-label": "link to this step", class: "linkbox" });
    const said = h("span", {}, null, "");
    S.note.replaceChildren(said, box);
    box.focus();
    box.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    said.textContent = ok ? "Link copied: " : "Press Ctrl+C (⌘C) to copy the link: ";
    clearTimeout(S.noteTimer);
    S.noteTimer = setTimeout(() => { S.note.textContent = ""; }, 20000);
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
}

function togglePresenter() {
  S.setTrigger("presenter", { on: !(/** @type {PlayerData} */ (S.data)).presenter }); // built with it
}

// --- keys: wherever the focus is, except where a key types or moves a widget ----------------

const TYPING = /^(text|search|email|url|password|tel|number|date|time|datetime-local|month|week)$/;

/** @param {Partial<HTMLInputElement> | null | undefined} target an event's target: an element, or not */
function typing(target) {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName || "";
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return TYPING.test(target.type || "text");
  const role = target.getAttribute && target.getAttribute("role");
  return /^(slider|combobox|listbox|spinbutton|textbox|menu|menuitem|option|tab)$/.test(role || "");
}

/** @type {Record<string, string>} */
const KEYS = {
  ArrowRight: "step", ArrowLeft: "back", n: "next", N: "next", e: "epoch", E: "epoch",
  End: "end", Home: "reset", r: "reset", R: "reset", " ": "play", p: "presenter", P: "presenter",
};

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (!S.root || !S.root.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
  const id = KEYS[event.key];
  if (!id) return;
  const path = event.composedPath ? event.composedPath() : [event.target];
  if (typing(path[0]) || (path[0] === S.range && /Arrow|Home|End/.test(event.key))) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (event.repeat && id === "play") return;
  if (id === "presenter") togglePresenter();
  else act(id);
}

/** @param {KeyboardEvent} event */
function onKeyUp(event) {
  // a focused button would also "click" on the release of space
  if (event.key === " " && S.root && S.root.isConnected && !typing(event.composedPath()[0])) event.preventDefault();
}

/** @param {StreamlitComponent<PlayerStep>} component */
function mount(component) {
  const { parentElement, setTriggerValue } = component;
  const step = component.data;
  S.setTrigger = setTriggerValue;
  const scene = S.scene;
  clearTimeout(S.askTimer);
  if (!step || !scene || scene.run !== step.run || scene.start !== step.start || scene.stop !== step.stop) {
    // the scene of this step comes first, and S.onScene mounts again when it does; one
    // still missing after ASK_AFTER ms was lost on the way: ask the server for it
    if (step) S.askTimer = setTimeout(() => setTriggerValue("scene", { run: step.run, start: step.start }), ASK_AFTER);
    return;
  }
  const data = { ...scene, ...step };
  const root = parentElement.querySelector(".lecroot") || h("div", { class: "lecroot" }, parentElement);
  const fresh = S.root !== root;
  S.root = root;
  const key = `${data.run}:${data.start}:${data.stop}`;
  const prevPresenter = S.data && S.data.presenter;
  if (S.key !== key) { // a new run or a new window: the server's step is the step
    S.key = key;
    S.t = data.t;
    S.seq = Math.max(S.seq, data.seq);
    S.dirty = false;
  } else if (data.seq >= S.seq && !S.dirty) {
    S.t = data.t; // the server agrees with us, or moved on its own
  } // else: steps the server has not heard of yet; they stay, and it hears of them soon
  S.seq = Math.max(S.seq, data.seq);
  S.pending = false;
  S.data = data;
  if (!S.listening) {
    S.listening = true;
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("keyup", onKeyUp, true);
    window.addEventListener("resize", () => { clearTimeout(S.resize); S.resize = setTimeout(redraw, 150); });
  }
  if (fresh || !S.wrap || !root.contains(S.wrap) || prevPresenter !== data.presenter) {
    build(root, data);
    S.drawn = null;
  }
  S.wrap.classList.toggle("presenter", !!data.presenter);
  S.wrap.classList.remove("busy");
  S.range.max = String(data.T);
  const drawn = `${key}:${!!data.presenter}`;
  if (S.drawn !== drawn || !S.svg || !S.chartBox.contains(S.svg)) { S.drawn = drawn; redraw(); }
  else paint(); // the same scene: only the step may have changed
  if (S.played === undefined) S.played = data.play; // a replay of before this page load stays over
  if (data.play && data.play !== S.played) { // a replay that ran into the next window plays on
    S.played = data.play;
    play();
  }
  if (S.dirty) schedule();
}

// --- Streamlit's entry point -------------------------------------------------------------

/** @param {StreamlitComponent<PlayerStep>} component */
export default function (component) {
  S.component = component;
  S.onScene = () => mount(S.component);
  mount(component);
}
