// The lecture page's instrument: the controls, the status line, the update's maths
// and the chart, drawn and stepped in the browser.
//
// Python sends a *scene* (figures.lecture_scene): one window of steps of a run, each
// step already worked out and its numbers already written. Step, Back, Next
// mistake, Finish epoch, Play and the scrubber move inside the window here, with no
// server round trip; everything on screen is drawn from one number, S.t, so the
// chart, the status line, the maths and the text for screen readers always agree.
// The server hears the step once a burst of steps pauses (trigger "at": {t, seq}, or for
// a student alone with the log closed a post to the app's route, which reruns nothing),
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
 * @property {boolean} [projector] presenter mode in the projector theme (thicker lines, stronger tints)
 * @property {number} play a new value: a replay plays on into this window
 * @property {[number, number] | null} asked the class's open question: [step, point]
 * @property {string} summary the run's settings, shown in presenter mode (the page's widgets are hidden)
 * @property {boolean} [lead] a class's lecturer: Play and Pause are reported at once (the followers play along)
 * @property {Along | null} [along] the lecturer's Play by the server's clock: a follower plays along with it, the lecturer plays on it
 * @property {number} [sent] the server's clock as it sent this, in seconds (compared only with other messages' times: see lateness)
 * @property {boolean} [quick] sent by a rerun of the instrument alone (a report, the class push), not a whole page's run
 * @property {Follow | null} [follow] a following student's page: the lecturer's change it shows (follow.live_follow)
 * @property {Post | null} [post] a student stepping alone: where the steps are posted (no rerun)
 */

/**
 * Where a page posts its own steps (ui.live.reports).
 * @typedef {object} Post
 * @property {string} url the route
 * @property {string} k the session's key for this page
 */

/**
 * The lecturer's Play as a follower's server sends it (follow.play_along).
 * @typedef {object} Along
 * @property {number} from the step the lecturer's Play started from (between two steps)
 * @property {number} rate steps a second
 * @property {number} elapsed seconds since it started, by the server's clock as it sent this (below 0: until it starts)
 */

/**
 * What a student's page shows of the class's lecture (follow.live_follow).
 * @typedef {object} Follow
 * @property {boolean} following the student follows the lecturer (else only q is heard)
 * @property {number} n the lecturer's change the page shows
 * @property {string} run the version of the lecture's run (its settings and data)
 * @property {string} q the version of the question its chart rings
 */

/**
 * The room's state on the live channel (ui/classmode/live.py state_of), as ui/live/live.js hands it on.
 * @typedef {object} LiveMessage
 * @property {number} id
 * @property {number} sent the server's clock as it sent it, in s
 * @property {{closed?: boolean, lecture?: {n: number, run: string, t: number, q: string, asked?: unknown, play: [number, number, number] | null}}} state
 */

/** @typedef {LectureScene & PlayerStep} PlayerData the scene and the step, as drawn */
/** @typedef {PlayerData & {asked: [number, number]}} AskedData */

/** @typedef {{x: number, y: number, w: number, h: number, inline?: boolean}} Box a panel's place in CSS px; inline: its title and key on one line */
/**
 * @typedef {object} Layout
 * @property {number} width
 * @property {number} height
 * @property {number} font the chart's font size, CSS px
 * @property {Record<PanelId, Box>} panels
 * @property {number} stampRoom how wide the stamp over the data panel may be
 * @property {number} least the presenter's chart is never lower than this
 * @property {boolean} full the chart is as high as it may be (a phone's is always)
 */

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
 */
/** @typedef {SVGGElement & {P: Panel}} SeriesG a group a proof panel's curve is drawn in, and its panel */

/**
 * What drawStatic() drew, and where drawStep() draws.
 * @typedef {object} Drawn
 * @property {Panel} data
 * @property {SVGGElement} dyn the half-planes
 * @property {SVGGElement} line the line w·x = 0
 * @property {SVGGElement} top w, the rings of the examples shown and asked, their labels
 * @property {SVGGElement} stamp the step and what it did, above the data panel
 * @property {Rect[]} marks the points' boxes: no label covers one
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
 * @property {HTMLParagraphElement} facts the run's facts and settings (presenter mode)
 * @property {HTMLParagraphElement} note
 * @property {HTMLDivElement} maths
 * @property {HTMLDivElement} chartBox
 * @property {HTMLParagraphElement} say
 * @property {HTMLDivElement} legend
 * @property {HTMLDetailsElement} [saveBox] Save figure's menu
 * @property {HTMLDivElement} wrap
 * @property {Layout} layout
 * @property {SVGSVGElement} svg
 * @property {Drawn} [P]
 * @property {number} [shrink] CSS px the presenter's chart gave up (or, below 0, gained) against its estimate of the room
 * @property {boolean} [refitting]
 * @property {number} [noteTimer]
 * @property {number} [resize]
 * @property {string | null} [drawn] the scene and mode the chart was drawn for
 * @property {number} [played] the replay counter already played
 * @property {{from: number, rate: number, at: number} | null} [along] playing along with the lecturer: from step `from` at this page's time `at` (performance.now), at `rate` steps a second
 * @property {number} [alongRaf] the play-along's animation frame
 * @property {number} [askedAt] when the play-along last asked for the next window
 * @property {{base: number, rate: number, at: number} | null} [clock] this page's Play: step base at time `at` (performance.now)
 * @property {number} [quickest] the least (this page's clock − the server's) over the messages so far, in seconds
 * @property {boolean} [clipping] a clip is being recorded: the chart moves through its steps
 * @property {number} [followN] a follower's page: the lecturer's change it shows now (drawn from the live channel or sent)
 * @property {string} [followQ] a student's page: the question version it shows or asked to be drawn
 * @property {string} [askedLive] the lecturer's change and question a rerun was last asked for (ask)
 * @property {number} [acked] the newest report the server's redraw has said it acted on (data.seq)
 * @property {number} [confirmTimer] the timer that sends an unanswered report again (confirm)
 * @property {number} [posted] the newest report the route took (204) that the session may not have taken yet
 * @property {string} [postedRun] the run of that report
 * @property {(url: string, body: string) => Promise<number>} [postStep] posts a step, resolves to the answer's status (post.js; the live page's only)
 * @property {number} [mounts] the server's redraws of the instrument so far
 * @property {number} [liveTimer] the timer that asks again for an unanswered live rerun (ask)
 * @property {{on: boolean, tries: number, timer: number} | null} [presenterAsk] the presenter switch asked for, until a redraw shows it
 */

const SVG = "http://www.w3.org/2000/svg";
const MML = "http://www.w3.org/1998/Math/MathML";
const REPORT_AFTER = 350; // ms of quiet after a burst of steps before the server hears it
const ASK_AFTER = 1000; // ms a step waits for its scene before the browser asks for it again
const ALONG_ASK = 300; // ms between a play-along's asks for the next window
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

// Text is measured on a canvas (measureText), not in the page: measuring the SVG's text
// would force a layout of the whole page at every step.
/** @type {CanvasRenderingContext2D | null | undefined} */
let measurer;
let family = "sans-serif"; // the player's font (the SVG inherits it), read at each redraw
const ASCENT = 1.0, DESCENT = 0.32; // a text's box above and below its baseline, per px of font (generous)

/** @param {string} text @param {number} px font size @param {number} [weight] @returns {number} its width, CSS px */
function textWidth(text, px, weight) {
  if (measurer === undefined) measurer = document.createElement("canvas").getContext("2d");
  if (!measurer) return text.length * px * 0.62; // no canvas: a generous estimate
  measurer.font = `${weight || 400} ${px}px ${family}`;
  return measurer.measureText(text).width;
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
  return [[name, "w"], [` ${rel} `], [bname, "boundtxt"], [" (dashed)"]];
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
  return text.replace("-", "−");
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
    squeezeTo(s("text", { x: x + w / 2, y: ty, class: "title", "text-anchor": "middle" }, g, spec.title), tw, w + 3 * font);
    if (parts) squeezeTo(key(g, x + w / 2, y - 0.45 * font, "middle", parts), kw, w + 3 * font);
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
  const id = `clip-${Math.random().toString(36).slice(2)}`;
  s("rect", { x, y, width: w, height: ht }, s("clipPath", { id }, s("defs", {}, g)));
  const inner = s("g", { "clip-path": `url(#${id})` }, g);
  return { g, inner, px, py, x, y, w, h: ht };
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

/** @param {SVGSVGElement} svg @param {PlayerData} d @param {Layout} L @returns {Drawn} */
function drawStatic(svg, d, L) {
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
  const pts = s("g", { class: "points" }, data.inner);
  const size = Math.max(4, L.font * 0.42);
  P.marks = [];
  d.points.x.forEach((a, i) => {
    const cx = data.px(a), cy = data.py(d.points.y[i]);
    const plus = d.points.label[i] > 0;
    const mark = plus
      ? s("circle", { cx, cy, r: size, class: "plus" }, pts)
      : s("path", { d: `M${cx - size},${cy - size}L${cx + size},${cy + size}M${cx - size},${cy + size}L${cx + size},${cy - size}`, class: "minus" }, pts);
    if (d.points.tip) s("title", {}, mark, d.points.tip[i]);
    P.marks.push(around(cx, cy, size + 3)); // with its stroke, and a little air
  });
  P.top = s("g", {}, data.inner); // w, the rings of the examples shown and asked, their labels
  P.stamp = s("g", { class: "stamp" }, data.g); // above the plot: it covers nothing drawn
  for (const id of /** @type {ProofId[]} */ (["claim1", "claim2", "squeeze"])) {
    const spec = d.panels[id];
    const Q = panel(svg, L.panels[id], spec, L.font, false, keyParts(d, id));
    P[id] = Q;
    // its P (the panel) is set by drawStep, before series() reads it
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
  P.dyn.replaceChildren();
  if (v.plus.length) s("polygon", { points: poly(v.plus, data), class: "half plus" }, P.dyn);
  if (v.minus.length) s("polygon", { points: poly(v.minus, data), class: "half minus" }, P.dyn);
  P.line.replaceChildren();
  if (v.line) s("polyline", { points: poly(v.line, data), class: "wline" }, P.line);
  P.top.replaceChildren();
  // Labels cover no point: each goes to the first free spot beside what it names, and
  // above the plot, with the stamp, when there is none.
  const taken = P.marks.slice();
  const frame = { x0: data.x + 2, y0: data.y + 2, x1: data.x + data.w - 2, y1: data.y + data.h - 2 };
  /** @type {string[]} */
  const unplaced = [];
  if (v.shown !== null) {
    const cx = data.px(d.points.x[v.shown]), cy = data.py(d.points.y[v.shown]), r = f * 1.05;
    s("circle", { cx, cy, r, class: v.mistake ? "shown mistake" : "shown right" }, P.top);
    taken.push(around(cx, cy, r + 2));
  }
  if (asking(d)) { // the class's open question: "will this point be a mistake?"
    const i = d.asked[1], cx = data.px(d.points.x[i]), cy = data.py(d.points.y[i]), r = f * 1.5;
    s("circle", { cx, cy, r, class: "asked" }, P.top);
    const gaps = [r + 2, r + 0.8 * f, r + 1.8 * f];
    const spot = place(textWidth("?", f, 700), f, cx, cy, gaps, -Math.PI / 4, taken, frame);
    if (spot) {
      s("text", { x: spot.x, y: spot.y, class: "askedtxt label" }, P.top, "?");
      taken.push(spot.box);
    } else {
      unplaced.push(`? point ${i + 1}`);
    }
    taken.push(around(cx, cy, r + 2));
  }
  if (v.arrow) {
    const ox = data.px(0), oy = data.py(0), ax = data.px(v.arrow[0]), ay = data.py(v.arrow[1]);
    const ang = Math.atan2(ay - oy, ax - ox), hd = f * 0.9;
    s("line", { x1: ox, y1: oy, x2: ax, y2: ay, class: "warrow" }, P.top);
    s("path", {
      d: `M${ax},${ay}L${ax - hd * Math.cos(ang - 0.4)},${ay - hd * Math.sin(ang - 0.4)}L${ax - hd * Math.cos(ang + 0.4)},${ay - hd * Math.sin(ang + 0.4)}Z`,
      class: "whead",
    }, P.top);
    // beside its tip, else beside its shaft: close enough to read as w's
    const wide = textWidth(v.arrow_label, f, 700);
    let spot = place(wide, f, ax, ay, [0.3 * f, 0.9 * f, 1.6 * f], ang, taken, frame);
    for (const along of [0.75, 0.5]) {
      const sx = ox + along * (ax - ox), sy = oy + along * (ay - oy);
      if (!spot) spot = place(wide, f, sx, sy, [0.6 * f, 1.2 * f], ang - Math.PI / 2, taken, frame);
    }
    if (spot) s("text", { x: spot.x, y: spot.y, class: "wlabel label" }, P.top, v.arrow_label);
    else unplaced.push(`arrow: ${v.arrow_label}`);
  }
  // the stamp: above the plot, the step and what the example just shown did
  P.stamp.replaceChildren();
  const first = `t = ${v.t} · k = ${v.k}`;
  const y1 = data.y - 1.75 * f, y2 = data.y - 0.45 * f;
  s("text", { x: data.x, y: y1, class: "stamptxt" }, P.stamp, first);
  if (unplaced.length) { // a label with no free spot on the plot: named here
    const more = "· " + unplaced.join(" · ");
    const at = data.x + textWidth(first + " ", f, 700);
    squeezeTo(s("text", { x: at, y: y1, class: "stampmore" }, P.stamp, more), textWidth(more, f, 600), Math.max(f, L.stampRoom - (at - data.x)));
  }
  if (v.said) {
    const said = s("text", { x: data.x, y: y2, class: v.mistake ? "said mistake" : "said right" }, P.stamp, v.said);
    squeezeTo(said, textWidth(v.said, f, 600), L.stampRoom);
  }
  for (const id of /** @type {const} */ (["claim1", "claim2"])) {
    const c = d[id];
    const dyn = P[/** @type {SeriesId} */ (id + "_dyn")];
    dyn.replaceChildren();
    if (!c) continue;
    dyn.P = P[id];
    const now = id === "claim1" ? v.dot : v.nsq;
    series(dyn, c.k, c.v, v.k, now, "w", "circle", f);
  }
  const q = d.squeeze;
  const dyn = P.squeeze_dyn;
  dyn.replaceChildren();
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
  // a student following the lecturer gets the chart first and none of the lecturer's
  // controls (the strip's Explore on my own brings them back): the controls are made, so
  // that the rest of the player needs no second path, but never put on the page
  const following = !!(data.follow && data.follow.following);
  const bar = h("div", { class: "bar", role: "toolbar", "aria-label": "step through the run" }, following ? null : wrap);
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
  // on a projector the scrubber shares the buttons' row: the chart keeps the height
  const scrub = h("div", { class: "scrub" }, data.presenter ? bar : null);
  const tools = h("div", { class: "tools" }, bar);
  const copy = h("button", { type: "button", "data-act": "copy", title: "copy a link that opens this step" }, tools, "Copy link");
  copy.addEventListener("click", copyLink);
  // Save figure: a disclosure (summary: Enter opens it) with the two formats
  const save = h("details", { class: "save" }, tools);
  const summary = h("summary", { "data-act": "save", title: "save the chart as it is now: SVG for slides, PNG at twice its size for a projector" }, save, "Save figure");
  const menu = h("div", { class: "menu", role: "group", "aria-label": "save the chart as" }, save);
  for (const [fmt, label] of /** @type {const} */ ([["svg", "SVG"], ["png", "PNG (2×)"]])) {
    const b = h("button", { type: "button", "data-act": `save-${fmt}` }, menu, label);
    b.addEventListener("click", () => { save.open = false; summary.focus(); saveChart(fmt); });
  }
  // a clip of the steps from this one, at the player's speed (its own choice), at a width
  const clip = h("div", { class: "cliprow", role: "group", "aria-label": "a clip of the steps from this one, at the player's speed" }, menu);
  h("span", {}, clip, "Clip:");
  const steps = /** @type {HTMLSelectElement} */ (h("select", { "data-act": "clip-steps", "aria-label": "clip: how many steps from this one" }, clip));
  for (const n of [10, 20, 50]) h("option", { value: n, ...(n === 20 ? { selected: "" } : {}) }, steps, `next ${n} steps`);
  const width = /** @type {HTMLSelectElement} */ (h("select", { "data-act": "clip-width", "aria-label": "clip: its width" }, clip));
  for (const w of CLIP_WIDTHS) h("option", { value: w }, width, `${w} px wide`);
  for (const [fmt, label] of /** @type {const} */ ([["webm", "WebM"], ["gif", "GIF"]])) {
    const b = h("button", { type: "button", "data-act": `clip-${fmt}` }, clip, label);
    b.addEventListener("click", () => { save.open = false; summary.focus(); saveClip(fmt, +steps.value, +width.value); });
  }
  save.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && save.open) { save.open = false; summary.focus(); }
  });
  S.saveBox = save;
  const pres = h("button", { type: "button", "data-act": "presenter", "aria-pressed": String(!!data.presenter), title: "presenter mode for a projector (p)", "aria-keyshortcuts": "p" }, tools, data.presenter ? "Leave presenter mode" : "Presenter mode");
  pres.addEventListener("click", () => togglePresenter());
  S.presBtn = pres;
  if (!data.presenter && !following) wrap.appendChild(scrub);
  const range = h("input", { type: "range", min: 0, max: data.T, step: 1, value: S.t, "aria-label": "scrub: step t" }, scrub);
  range.addEventListener("input", () => scrubTo(+range.value, false));
  range.addEventListener("change", () => scrubTo(+range.value, true));
  S.range = range;
  S.rangeText = h("span", { class: "rangetext" }, scrub);
  S.status = h("p", { class: "status", "aria-live": "polite" }, wrap);
  S.facts = h("p", { class: "facts" }, wrap);
  const mathrow = h("div", { class: "mathrow" }, wrap); // on a projector the note floats in it
  S.note = h("p", { class: "note", role: "status" }, mathrow);
  S.maths = h("div", { class: "maths" }, mathrow);
  S.chartBox = h("div", { class: "chart" }, wrap);
  if (following) wrap.insertBefore(S.chartBox, S.status); // then what it shows, under it
  S.say = h("p", { class: "say", id: "lec-say" }, wrap);
  const legend = h("div", { class: "legend", "aria-hidden": "true" }, wrap);
  S.legend = legend;
  for (const [cls, text] of [
    ["plus", "● y = +1"], ["minus", "✕ y = −1"], ["wline", "━ the line w·x = 0"], ["wtxt", "→ w"],
    ["star", "╍ max-margin w* and its γ band"], ["shownr", "example just shown: correct"],
    ["shownm", "example just shown: mistake"], ["ringtxt", "◌ max ‖x‖"], ["boundtxt", "╍ bounds"],
  ]) {
    const entry = h("span", { class: cls }, legend);
    // the rings' entries show each ring as the chart draws it: solid, or dashed for a mistake
    if (cls === "shownr" || cls === "shownm") {
      const sw = s("svg", { class: "sw", viewBox: "0 0 20 20" }, entry);
      s("circle", { cx: 10, cy: 10, r: 7.5, class: cls === "shownm" ? "swring mistake" : "swring right" }, sw);
    }
    entry.append(text);
  }
  h("p", { class: "keys" }, wrap,
    "Keys: → step · ← back · n next mistake · e finish epoch · End run to the end · Home or r reset · space play/pause · p presenter mode · in presenter mode a clicker's PageDown / PageUp step and go back, and b blanks the screen");
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
  // on a projector the run's facts and settings are a second, smaller line: the first,
  // what moves, stays one line
  S.facts.replaceChildren();
  for (const part of d.facts) chip(d.presenter ? S.facts : S.status, part, "fact");
  if (d.presenter && d.summary) chip(S.facts, d.summary, "fact");
  if (v.end) chip(S.status, v.end, "end");
  const asked = asking(d) ? ` The class is asked: will point ${d.asked[1] + 1}, shown next, be a mistake?` : "";
  if (asked) chip(S.status, `? class question: point ${/** @type {AskedData} */ (d).asked[1] + 1}`, "chip asked");
  writeMaths(S.maths, v, d);
  S.range.value = String(S.t);
  S.rangeText.textContent = `step t = ${S.t} of ${d.T}`;
  S.buttons.back.disabled = S.t === 0 || S.pending;
  S.buttons.reset.disabled = S.t === 0 || S.pending;
  for (const id of ["step", "next", "epoch", "end"]) S.buttons[id].disabled = S.t === d.T || S.pending;
  S.buttons.play.textContent = S.playing || S.along ? "❚❚ Pause" : "▶ Play";
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
  family = getComputedStyle(S.wrap).fontFamily || family;
  const L = layout(width, S.data);
  S.layout = L;
  const svg = s("svg", { width: L.width, height: L.height, viewBox: `0 0 ${L.width} ${L.height}`, role: "img", class: "fig" });
  svg.style.fontSize = `${L.font}px`;
  S.chartBox.replaceChildren(svg);
  S.svg = svg;
  S.P = drawStatic(svg, S.data, L);
  paint();
  if (S.data.presenter && !S.refitting) { // on a projector all of it fits the screen, and fills it
    const over = S.wrap.getBoundingClientRect().bottom + 6 - window.innerHeight;
    if ((over > 1 && L.height > L.least) || (over < -4 && !L.full)) {
      S.shrink = (S.shrink || 0) + over;
      S.refitting = true;
      try { redraw(); } finally { S.refitting = false; }
    }
  }
}

// On a projector, what is above the chart can change after it is drawn (the class strip
// arrives, a question's line wraps): the chart is drawn again for the room it has.
function refit() {
  if (!S.root || !S.root.isConnected || !S.data || !S.data.presenter || !S.chartBox || !S.layout) return;
  const top = S.chartBox.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - (S.wrap.getBoundingClientRect().bottom + 6); // under the legend
  const L = S.layout;
  if (Math.abs(top - S.chartTop) > 2 || (room < -1 && L.height > L.least) || (room > 8 && !L.full)) redraw();
}

// --- moving ------------------------------------------------------------------------

/** @param {string} text */
function say(text) {
  S.note.textContent = text;
  clearTimeout(S.noteTimer);
  S.noteTimer = setTimeout(() => { S.note.textContent = ""; }, 4000);
}

/** @typedef {{play?: boolean, from?: number, rate?: number, elapsed?: number, follow?: boolean}} ReportExtra */

/** @param {number} t @param {ReportExtra} [extra] */
function send(t, extra) {
  S.seq += 1;
  S.dirty = false;
  // a follower's page says which of the lecturer's changes it showed (follow.caught_up)
  const shown = S.followN !== undefined ? { n: S.followN } : {};
  const value = { t, seq: S.seq, ...shown, ...(extra || {}) };
  const to = S.data && S.data.post;
  if (to && !extra && !S.pending) post(to, value);
  else { S.setTrigger("at", value); confirm(value, CONFIRM_AFTER); }
}

/**
 * A student stepping alone: the step goes to the server's route, with no rerun, and into the
 * address bar here (a reload, a copied link). A server that does not know this tab (another
 * server, a restart) or no answer: the report goes through the session after all.
 * @param {Post} to @param {{t: number, seq: number}} value
 */
function post(to, value) {
  const run = /** @type {PlayerData} */ (S.data).run;
  try {
    window.history.replaceState(window.history.state, "", atStep(new URL(window.location.href), value.t));
  } catch (e) { /* an address that cannot change (a sandboxed frame): the link still can */ }
  const through = () => {
    if (S.seq !== value.seq || (S.acked || 0) >= value.seq) return; // superseded, or heard
    S.setTrigger("at", value);
    confirm(value, CONFIRM_AFTER);
  };
  if (!S.postStep) { through(); return; } // a host that cannot post (the offline file)
  S.postStep(to.url, JSON.stringify({ k: to.k, t: value.t, seq: value.seq, run })).then((status) => {
    if (status !== 204) { through(); return; }
    S.acked = Math.max(S.acked || 0, value.seq);
    S.posted = Math.max(S.posted || 0, value.seq);
    S.postedRun = run;
    if (!(S.data && S.data.post)) unposted(); // the page stopped posting meanwhile
  }, through);
}

/**
 * A step the route took that the session has not (its redraws say an older report), on a
 * page that no longer posts (a class just started, the log opened): the session takes no
 * more posts until its next run, which may not come, so the step goes through it now.
 */
function unposted() {
  const d = S.data;
  if (d && !d.post && (S.posted || 0) > d.seq && d.run === S.postedRun && !S.pending) {
    S.posted = 0;
    send(S.t);
  }
}

/**
 * Send `value` (a report) again, as a new report, if no redraw of the server's has said it
 * acted on it within `wait` ms. A newer report replaces this one (and its timer).
 * @param {Record<string, unknown> & {seq: number}} value @param {number} wait
 */
function confirm(value, wait) {
  clearTimeout(S.confirmTimer);
  S.confirmTimer = setTimeout(() => {
    if ((S.acked || 0) >= value.seq || S.seq !== value.seq) return; // answered, or superseded
    S.seq += 1;
    /** @type {Record<string, unknown> & {seq: number}} */
    const again = { ...value, seq: S.seq };
    // a lecturer's Play: how long ago it started is as of now, not of the lost report
    if (typeof value.elapsed === "number" && S.clock) again.elapsed = (performance.now() - S.clock.at) / 1000;
    S.setTrigger("at", again);
    confirm(again, Math.min(2 * wait, CONFIRM_MAX));
  }, wait);
}

/** @param {number} target @param {ReportExtra} [opts] */
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
    send(target, opts && opts.play ? opts : {});
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
  if (S.along) { // a follower's own move: the page is theirs from here (the server says so)
    S.along = null;
    if (id === "play") { S.dirty = true; schedule(); paint(); return; } // Pause: stay here
  }
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

/** @param {boolean} [resume] a replay that ran into the next window plays on, on its clock */
function play(resume) {
  const d = S.data;
  if (!d || S.pending) return;
  if (S.t === d.T) { say("The run is over; Reset (Home) to replay it."); return; }
  S.playing = true;
  const rate = reduced() ? Math.min(S.speed, 1) : S.speed; // prefers-reduced-motion: 1 step/s
  if (reduced() && S.speed > 1) say("Reduced motion is on: playing 1 step a second.");
  // Play is a clock: step base + rate × the time since it started. Fetching the next window
  // holds the chart still, not the clock, so the replay keeps its pace (and a class's
  // followers, who play by the same clock, stay with it).
  if (!resume || !S.clock || S.clock.rate !== rate) {
    S.clock = { base: S.t, rate, at: performance.now() + (d.lead && !resume ? COUNT_IN : 0) };
  }
  const c = S.clock;
  // a class's lecturer: the followers play along from where it started, how fast, how long ago
  const lead = () => (d.lead ? { from: c.base, rate, elapsed: (performance.now() - c.at) / 1000 } : {});
  if (d.lead && !resume) { clearTimeout(S.timer); send(S.t, lead()); }
  const tick = (/** @type {number} */ now) => {
    if (!S.playing) return;
    const dd = /** @type {PlayerData} */ (S.data); // set once, never unset
    const target = Math.min(Math.floor(c.base + (c.rate * Math.max(0, now - c.at)) / 1000), dd.T);
    if (target > S.t) {
      if (target > dd.stop) { // the window ends: fetch the next and play on
        S.playing = false;
        moveTo(target, { play: true, ...lead() });
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
  const was = S.playing;
  S.playing = false;
  cancelAnimationFrame(S.raf);
  paint();
  // a class's lecturer: the followers stop where the lecturer stopped, so it is said at once
  if (was && S.data && S.data.lead && !S.pending) { clearTimeout(S.timer); send(S.t); }
  else schedule();
}

// --- following on the live channel (ui/live/live.js) ------------------------------------
// A following student's page draws the lecturer's new step itself when its scene holds it,
// plays along with the lecturer's Play by the room's clock, and asks its server for a rerun
// of the instrument only for what it cannot draw: a step outside the window, another run,
// a question to ring, the class's end.

/** @param {Event} event */
function onLive(event) {
  const message = /** @type {CustomEvent<LiveMessage>} */ (event).detail;
  const d = S.data;
  const f = d && d.follow;
  const lec = message && message.state && message.state.lecture;
  if (!d || !f || !lec || typeof lec.n !== "number" || !S.root || !S.root.isConnected) return;
  // the class's end is the strip's to draw (live.js reruns it): one rerun at a time, as
  // Streamlit takes one fragment's triggers in a batch
  if (message.state.closed) return;
  const newer = f.following && lec.n > (S.followN === undefined ? f.n : S.followN);
  const asked = lec.q !== (S.followQ === undefined ? f.q : S.followQ);
  if (!newer && !asked) return; // shown already
  if (newer) S.followN = lec.n;
  S.followQ = lec.q;
  // the class's question: a follower's chart (the lecturer's run) rings its example itself;
  // the card is the strip's. A state without a well-formed example: the server draws it
  const ring = ringOf(lec.asked);
  if (asked && ring !== undefined && f.following) d.asked = ring;
  if ((asked && ring === undefined && f.following) || lec.run !== f.run || S.pending) {
    ask(lec.n, lec.q); // the page must draw something new: its server does
    return;
  }
  if (!newer) {
    if (f.following) paint();
    return;
  }
  if (S.playing) stop();
  if (lec.play) {
    const [from, rate, at] = lec.play;
    playAlong({ from, rate, elapsed: message.sent - at }, lateness(message.sent, true));
    return;
  }
  S.along = null;
  if (lec.t < d.start || lec.t > d.stop) { // the next window: the server sends it
    S.pending = true;
    S.wrap.classList.add("busy");
    ask(lec.n, lec.q);
    return;
  }
  clearTimeout(S.timer);
  S.t = lec.t;
  S.dirty = false;
  paint();
}

/**
 * The example a live state's question asks about, [step, point] (null: none), or undefined
 * when the value is not one.
 * @param {unknown} value @returns {[number, number] | null | undefined}
 */
function ringOf(value) {
  if (value === null) return null;
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [t, i] = value;
  return Number.isInteger(t) && Number.isInteger(i) && t >= 0 && i >= 0 ? [t, i] : undefined;
}

/**
 * A rerun of the instrument for the lecturer's change n with question q: once per change,
 * so a page its server cannot bring to the room's state (a store that cannot be read) does
 * not ask without end; the next change asks again.
 * @param {number} n @param {string} q
 */
function ask(n, q) {
  const want = `${n}:${q}`;
  if (S.askedLive === want) return;
  S.askedLive = want;
  askAgain(n, want, 1, CONFIRM_AFTER);
}

/**
 * Ask for the rerun of change n, and ask again if no redraw at all came within `wait` ms
 * (the ask was lost), at most LIVE_TRIES times. A redraw that could not bring the room's
 * state ends the asks: the next change asks again.
 * @param {number} n @param {string} want @param {number} tries @param {number} wait
 */
function askAgain(n, want, tries, wait) {
  const mounts = S.mounts || 0;
  S.setTrigger("live", { n });
  clearTimeout(S.liveTimer);
  S.liveTimer = setTimeout(() => {
    if ((S.mounts || 0) === mounts && S.askedLive === want && tries < LIVE_TRIES) {
      askAgain(n, want, tries + 1, Math.min(2 * wait, CONFIRM_MAX));
    }
  }, wait);
}

// --- playing along: a follower whose lecturer plays ------------------------------------
// The server says where the lecturer's Play started, how fast, and how long ago by its own
// clock as it sent it; this page plays on from there by its own clock, and stops where the
// lecturer stops when the server says so. It reports nothing of its own but an ask for the
// next window.
//
// A message arrives a while after the server sent it (the rest of its page run, the
// network, this page's own work), and the Play has gone on meanwhile. The two clocks are
// never compared as times: the difference (this page's clock − the server's) is the clocks'
// offset plus that message's delay, so a message's delay beyond the quickest one's so far is
// that difference less its least. The quickest message's own delay (a fragment's run, tens
// of ms) is not seen: the page may be that much behind, never ahead by it.

/**
 * @param {number | undefined} sent the server's clock as it sent the message, in s
 * @param {boolean | undefined} quick a rerun of the instrument alone (see PlayerStep.quick)
 * @returns {number} s
 */
function lateness(sent, quick) {
  if (typeof sent !== "number" || !Number.isFinite(sent)) return 0;
  const gap = (performance.timeOrigin + performance.now()) / 1000 - sent;
  // the quickest of the instrument's own reruns: a whole page's run sends the player with
  // the rest of the page, which is not the way's delay (a lecturer who opens the page and
  // presses Play has no other message yet: its Play then ran behind the room's)
  if (quick && (S.quickest === undefined || gap < S.quickest)) S.quickest = gap;
  if (S.quickest === undefined) return 0;
  return Math.min(Math.max(gap - S.quickest, 0), MAX_LATE);
}

/** @param {Along} a @param {number} late seconds the message spent on the way (lateness) */
function playAlong(a, late) {
  const now = performance.now();
  const at = now - (a.elapsed + late) * 1000; // when this page's clock passed the Play's start
  const same = S.along && S.along.from === a.from && S.along.rate === a.rate && Math.abs(S.along.at - at) < 1000;
  // the same Play again (the next window, a push): a late message only says it started later
  S.along = { from: a.from, rate: a.rate, at: same && S.along ? Math.min(S.along.at, at) : at };
  if (!S.alongRaf) S.alongRaf = requestAnimationFrame(alongTick);
}

/** @param {number} now */
function alongTick(now) {
  S.alongRaf = 0;
  const a = S.along;
  const d = S.data;
  if (!a || !d || !S.root || !S.root.isConnected) return;
  // before the Play starts (the lecturer's count-in) the page stands at its start
  const target = Math.max(0, Math.min(d.T, Math.floor(a.from + (a.rate * Math.max(0, now - a.at)) / 1000)));
  if (target > d.stop) { // the next window: the server sends it, at the lecturer's step then
    if (!S.pending && !(now - (S.askedAt || -1e9) < ALONG_ASK)) {
      S.askedAt = now;
      S.pending = true;
      send(target, { follow: true });
    }
    if (S.t !== d.stop) { S.t = d.stop; paint(); }
  } else if (target !== S.t && target >= d.start) {
    S.t = target;
    paint();
  }
  if (target < d.T) S.alongRaf = requestAnimationFrame(alongTick);
}

/** @param {number} t @param {boolean} released */
function scrubTo(t, released) {
  const d = /** @type {PlayerData} */ (S.data); // the scrubber is built with it
  S.along = null; // a follower's own move
  if (t >= d.start && t <= d.stop) { if (S.playing) stop(); moveTo(t); return; }
  S.rangeText.textContent = `step t = ${t} of ${d.T} (release to load it)`;
  if (d.presenter && !released) say(S.rangeText.textContent); // its text is hidden on a projector
  if (released) moveTo(t);
}

/** `url` that opens at step `t` (the setting lec_t, left out at 0 as the server leaves it). @param {URL} url @param {number} t */
function atStep(url, t) {
  if (t) url.searchParams.set("lec_t", String(t));
  else url.searchParams.delete("lec_t");
  return url;
}

function link() {
  const url = new URL(window.location.href);
  // the projector's layout and a course page's frame are not the lesson's (state.LOCAL_SETTINGS)
  url.searchParams.delete("app_presenter");
  url.searchParams.delete("embed");
  return atStep(url, S.t).toString();
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

/** @returns {FigureSpec | null} the chart as it is now, for its file */
function chartSpec() {
  const d = S.data;
  if (!d || !S.svg || !S.layout) return null;
  // the legend under the chart, as the page shows it (its text and colour)
  const legend = Array.from(S.legend.children).map((span) => ({ text: span.textContent || "", color: getComputedStyle(span).color }));
  return {
    title: `The perceptron on ${d.name}: step t = ${S.t} of ${d.T}`, // textContent, in the file
    desc: S.svg.getAttribute("aria-label") || "",
    legend,
    font: S.layout.font * 0.9,
  };
}

/** @param {"svg" | "png"} fmt */
function saveChart(fmt) {
  const spec = chartSpec();
  if (!spec || !S.svg) return;
  const t = S.t;
  figureSave(S.svg, spec, `perceptron-step-${t}`, fmt).then(
    (out) => say(`Saved perceptron-step-${t}.${fmt}: ${out.width} × ${out.height} px, ${Math.max(1, Math.round(out.bytes / 1024))} kB.`),
    () => say("This browser could not draw the figure; try the other format."),
  );
}

/**
 * Record the steps from this one as a clip and save it: `n` steps (within the scene the
 * page holds), at the player's speed, `width` px wide. The chart moves through them as it
 * records, then comes back to this step.
 * @param {"webm" | "gif"} fmt @param {number} n @param {number} width
 */
async function saveClip(fmt, n, width) {
  const d = S.data;
  if (!d || !S.svg || S.clipping) return;
  if (S.along) { say("The lecturer is playing: record a clip when the play stops."); return; }
  if (S.playing) stop();
  const from = S.t, to = Math.min(d.stop, from + Math.max(1, Math.min(n, CLIP_MAX_FRAMES - 1)));
  if (to <= from) { say("This is the last step here: go back a few steps to record a clip."); return; }
  const steps = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const name = `perceptron-steps-${from}-${to}`;
  S.clipping = true;
  S.wrap.classList.add("busy");
  say(`Recording steps ${from} to ${to} at ${S.speed} steps/s…`);
  try {
    const out = await clipRecord({
      steps,
      rate: S.speed,
      width,
      fmt,
      frame: (t) => {
        S.t = t;
        paint();
        const spec = /** @type {FigureSpec} */ (chartSpec()); // the chart is on the page
        return figureSvg(/** @type {SVGSVGElement} */ (S.svg), spec);
      },
    });
    figureDownload(out.blob, name, fmt);
    say(`Saved ${name}.${fmt}: ${out.frames} frames at ${S.speed} steps/s, ${out.width} × ${out.height} px, ${Math.max(1, Math.round(out.blob.size / 1024))} kB.`);
  } catch (error) {
    say(fmt === "webm" ? "This browser cannot record WebM video: try GIF." : "This browser could not draw the clip.");
  } finally {
    S.clipping = false;
    S.wrap.classList.remove("busy");
    S.t = from;
    paint();
  }
}

function togglePresenter() {
  const on = !(/** @type {PlayerData} */ (S.data)).presenter; // built with it
  if (S.presenterAsk) clearTimeout(S.presenterAsk.timer);
  S.presenterAsk = { on, tries: 0, timer: 0 };
  askPresenter(CONFIRM_AFTER);
}

/**
 * Send the presenter switch, and again if no redraw shows it within `wait` ms (Streamlit
 * drops a fragment's rerun that arrives during a whole page's run), at most LIVE_TRIES
 * times; the server sets it, so a second send changes nothing.
 * @param {number} wait
 */
function askPresenter(wait) {
  const a = S.presenterAsk;
  if (!a || a.tries >= LIVE_TRIES) { S.presenterAsk = null; return; }
  a.tries += 1;
  S.setTrigger("presenter", { on: a.on });
  a.timer = window.setTimeout(() => {
    if (S.presenterAsk === a) askPresenter(Math.min(2 * wait, CONFIRM_MAX));
  }, wait);
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

// A presenter's clicker sends PageDown / PageUp, and B or "." for a black screen: in presenter
// mode they step, go back and blank the screen (off presenter mode PageDown scrolls the page)
/** @type {Record<string, string>} */
const CLICKER = { PageDown: "step", PageUp: "back", b: "blank", B: "blank", ".": "blank" };

/** Black out the screen (the clicker's B), or bring it back; any key but a clicker's brings
 * it back too, so a lecturer is never stuck in front of a black projector. */
function toggleBlank() {
  const old = document.getElementById("perceptron-blank");
  if (old) { old.remove(); return; }
  const cover = h("div", {
    id: "perceptron-blank", role: "dialog", "aria-modal": "true", tabindex: "-1",
    "aria-label": "The screen is blank: press B to show it again",
    style: "position:fixed;inset:0;z-index:2147483647;background:#000;color:#1c1c1c;"
      + "display:flex;align-items:flex-end;justify-content:center;padding:12px;font-size:14px",
  }, document.body, "B: show the screen again");
  cover.addEventListener("click", () => cover.remove());
  cover.focus();
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (!S.root || !S.root.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
  const presenter = Boolean(S.data && S.data.presenter);
  const blank = document.getElementById("perceptron-blank");
  const clicker = presenter ? CLICKER[event.key] : undefined;
  if (blank && clicker !== "blank") { // the first key on a black screen only shows it again
    event.preventDefault();
    blank.remove();
    return;
  }
  const id = clicker || KEYS[event.key];
  if (!id) return;
  const path = event.composedPath ? event.composedPath() : [event.target];
  if (typing(path[0]) || (path[0] === S.range && /Arrow|Home|End/.test(event.key))) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (event.repeat && (id === "play" || id === "blank")) return;
  if (id === "presenter") togglePresenter();
  else if (id === "blank") toggleBlank();
  else act(id);
}

/** @param {KeyboardEvent} event */
function onKeyUp(event) {
  // a focused button would also "click" on the release of space
  if (event.key === " " && S.root && S.root.isConnected && !typing(event.composedPath()[0])) event.preventDefault();
}

/**
 * The page's styles reach it as a file beside this code (ui.server.code),
 * which can arrive after the code has drawn: what was measured then is measured again.
 * @param {Node} node @param {() => void} then
 */
function whenStyled(node, then) {
  const root = /** @type {Document | ShadowRoot} */ (node.getRootNode());
  if (!root.querySelectorAll) return;
  for (const link of /** @type {NodeListOf<HTMLLinkElement>} */ (root.querySelectorAll('link[rel="stylesheet"]'))) {
    if (!link.sheet) link.addEventListener("load", then, { once: true });
  }
}

/** @param {StreamlitComponent<PlayerStep>} component */
function mount(component) {
  const { parentElement, setTriggerValue } = component;
  const step = component.data;
  S.setTrigger = setTriggerValue;
  S.mounts = (S.mounts || 0) + 1; // the server answered (confirm, askAgain)
  if (step && typeof step.seq === "number") S.acked = Math.max(S.acked || 0, step.seq);
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
  const prevFollowing = !!(S.data && S.data.follow && S.data.follow.following);
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
  unposted();
  if (S.presenterAsk && S.presenterAsk.on === !!data.presenter) { // shown: asked no more
    clearTimeout(S.presenterAsk.timer);
    S.presenterAsk = null;
  }
  S.followN = data.follow && data.follow.following ? data.follow.n : undefined; // the lecturer's change shown
  S.followQ = data.follow ? data.follow.q : undefined;
  if (!S.listening) {
    S.listening = true;
    window.addEventListener("perceptron-live", onLive);
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("keyup", onKeyUp, true);
    window.addEventListener("resize", () => { clearTimeout(S.resize); S.resize = setTimeout(redraw, 150); });
    setInterval(refit, 400);
    // an open Save figure menu closes on a click anywhere else
    document.addEventListener("click", (event) => {
      if (S.saveBox && S.saveBox.open && !event.composedPath().includes(S.saveBox)) S.saveBox.open = false;
    }, true);
  }
  const followingNow = !!(data.follow && data.follow.following);
  if (fresh || !S.wrap || !root.contains(S.wrap) || prevPresenter !== data.presenter || prevFollowing !== followingNow) {
    build(root, data);
    S.drawn = null;
    whenStyled(root, redraw);
  }
  S.wrap.classList.toggle("presenter", !!data.presenter);
  S.wrap.classList.toggle("projector", !!data.projector); // the projector theme: player.py's CSS
  S.wrap.classList.remove("busy");
  S.range.max = String(data.T);
  const drawn = `${key}:${!!data.presenter}`;
  if (S.drawn !== drawn || !S.svg || !S.chartBox.contains(S.svg)) { S.drawn = drawn; redraw(); }
  else paint(); // the same scene: only the step may have changed
  const late = lateness(data.sent, data.quick);
  if (data.along && !S.playing && !data.lead) playAlong(data.along, late); // the lecturer plays: so does this page
  else S.along = null;
  if (data.along && data.lead && S.playing && S.clock && S.clock.rate === data.along.rate) {
    // the lecturer's own Play goes on by the clock the room has, which its followers share:
    // it starts when the server heard of it, a moment after the press (a step may wait)
    S.clock.base = data.along.from;
    S.clock.at = performance.now() - (data.along.elapsed + late) * 1000;
  }
  if (S.played === undefined) S.played = data.play; // a replay of before this page load stays over
  if (data.play && data.play !== S.played) { // a replay that ran into the next window plays on
    S.played = data.play;
    play(true);
  }
  if (S.dirty) schedule();
  // a follower: a newer change of the lecturer's than the server drew, heard meanwhile
  const heard = window.__perceptronLive;
  if (data.follow && heard && heard.last) onLive(new CustomEvent("perceptron-live", { detail: heard.last }));
}

// --- Streamlit's entry point -------------------------------------------------------------

/**
 * The player leaves the page (another page of the app): a step the server has not heard of
 * yet is posted now, so the session has it when a page of it runs next.
 */
function flush() {
  if (!S.dirty || S.pending || !S.data || !S.data.post) return;
  clearTimeout(S.timer);
  send(S.t);
}

/** @param {StreamlitComponent<PlayerStep>} component */
export default function (component) {
  S.component = component;
  S.onScene = () => mount(S.component);
  mount(component);
  return flush; // called as the player leaves the page
}
