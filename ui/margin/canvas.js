// The margin lab's instrument: a toolbar of modes, an SVG of the points and the lines Python
// computed, the theorem's numbers, and one status line. Python sends everything shown;
// this file only draws it and turns gestures into one event each:
//   drag a point (any mode)            -> "moved"   {i, x, y}
//   tap in "add +1" / "add −1"          -> "added"   {x, y, label}
//   tap a point in "flip" / "delete"    -> "flipped" / "deleted" {i}
//   tap a point, then a place, "move"   -> "moved"   {i, x, y}
//   a mode button                       -> "mode"    {mode}
// With a mouse, shift-click adds the other label and alt-click deletes (shortcuts only).
// A tap takes the nearest point within a finger's reach (24 CSS px; 14 with a mouse), not
// whichever mark happens to be drawn on top. Streamlit calls this function again on every
// data change and keeps no cleanup until unmount, so each call rebuilds the SVG from
// scratch (the old listeners go with it); the toolbar's listeners are added once per host.
// --- what Python sends (JSDoc types: tsc --checkJs in the tests, nothing at run time) ------

/** @typedef {[number, number]} XY a point [x, y] in data units */

/**
 * One of the theorem's numbers (lab.readouts), with its change since the last edit.
 * @typedef {object} Readout
 * @property {string} key
 * @property {string} label
 * @property {string} value as shown
 * @property {{text: string, up: boolean, good: boolean | null} | null} delta
 */

/**
 * A line across the view (figures._line): w*, its γ band or the perceptron's.
 * @typedef {object} Line
 * @property {[XY, XY]} d its two ends
 * @property {string} cls
 * @property {string} label "" for none
 * @property {XY} at where the label goes
 */

/**
 * A point (figures.canvas_scene): x, y, label (+1/−1), flags (1: support vector,
 * 2: the perceptron's w gets it wrong) and its tooltip.
 * @typedef {[number, number, number, number, string]} Point
 */

/**
 * What the surface shows (figures.canvas_scene) and the hints (canvas.HINTS).
 * @typedef {object} MarginScene
 * @property {number} v the data's version: every gesture names the version it was made on
 * @property {number} tick a new answer to an edit
 * @property {string} mode the session's mode (canvas.MODES)
 * @property {Readout[]} numbers
 * @property {string | null} note the last edit's sentence
 * @property {string | null} error why the last edit was refused
 * @property {[number, number, number, number]} view x0, x1, y0, y1
 * @property {{x: number[], y: number[]}} ticks
 * @property {Array<{cls: string, d: XY[]}>} fills
 * @property {Line[]} lines
 * @property {{r: number} | null} circle the circle of radius max ‖x‖
 * @property {Point[]} points
 * @property {string} banner "" for none
 * @property {string} alt the picture in words
 * @property {{touch: Record<string, string>, mouse: Record<string, string>}} hints per mode
 * @property {boolean} fit presenter mode: the picture fits on the screen (fitScreen)
 * @property {Record<string, string>} [words] this page's words in its language (ui.words.script_words; none: English)
 */

/**
 * A pointer's press on the surface, until it is released.
 * @typedef {object} Press
 * @property {number} i the point it took (within reach), or -1
 * @property {{i: number, css: number}} near the nearest point and its distance, CSS px
 * @property {number} id the pointer
 * @property {number} cx where it went down (client px)
 * @property {number} cy
 * @property {boolean} moved a drag
 * @property {boolean} alt
 * @property {boolean} shift
 * @property {string} type the pointer's type
 * @property {XY} [at] where a drag is now (set with moved)
 */

/**
 * The surface's state, kept on its host element across redraws. The functions are set
 * by every render, before its toolbar can be clicked.
 * @typedef {object} MlabState
 * @property {boolean} dragging
 * @property {StreamlitComponent<MarginScene> | null} pending data that arrived during a drag
 * @property {string | null} mode what a tap does (the session's, from the first render on)
 * @property {number | null} picked the point taken in move mode
 * @property {number} [busyTimer]
 * @property {string} [sig] the picture drawn
 * @property {string} [seen] the version and tick whose sentence is shown
 * @property {() => void} showMode
 * @property {(text: string, kind?: string) => void} say
 * @property {() => void} unpick
 * @property {(mode: string) => void} setMode
 * @property {boolean} [fit] the last picture's data.fit
 * @property {ResizeObserver} [fitter] refits as the status line above the picture wraps
 * @property {number} [edits] the edits sent so far: each carries its number ("e")
 * @property {number} [renders] the server's redraws so far
 * @property {number} [resendTimer] sends an unanswered edit again
 */
/** @typedef {HTMLElement & {__mlab?: MlabState}} MlabHost canvas.py's `.mlab` div */

const NS = "http://www.w3.org/2000/svg";
const SIZE = 640;
const PAD = { left: 46, right: 14, top: 14, bottom: 40 };
const SLOP = 6; // CSS px a pointer may wander before a press counts as a drag
/** @type {Record<string, number>} */
const REACH = { touch: 24, pen: 24, mouse: 14 }; // CSS px: how far a tap may be from a point

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} name
 * @param {Record<string, string | number> | null} [attrs]
 * @param {Node} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

const FIT_MIN = 240; // CSS px: the smallest side the picture is fitted to
const FIT_GAP = 12; // CSS px between the picture and the foot of the screen
const RESEND_AFTER = 2500; // ms an edit waits for the server's redraw before it is sent again

/**
 * Presenter mode: the picture (square) no taller than the screen below its top, so the room
 * sees every point while the lecturer drags, with the numbers beside it; elsewhere it takes
 * the column's width. Its side is a CSS variable of the host (canvas.py's CSS).
 * @param {MlabHost} host
 */
function fitScreen(host) {
  const surface = /** @type {HTMLElement} */ (host.querySelector(".surface"));
  if (!host.__mlab || !host.__mlab.fit) { host.style.removeProperty("--fit"); return; }
  // the page scrolls in one of its boxes (Streamlit's main section), not the window: the
  // picture's top is measured in that box's content, as it is with nothing scrolled
  const box = scroller(host);
  const top = box
    ? surface.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop
    : surface.getBoundingClientRect().top + window.scrollY;
  const screen = box ? box.clientHeight : window.innerHeight;
  const side = `${Math.max(FIT_MIN, Math.floor(screen - top - FIT_GAP))}px`;
  if (host.style.getPropertyValue("--fit") !== side) host.style.setProperty("--fit", side);
}

/**
 * The nearest box around `node` that scrolls vertically (through the component's shadow
 * root), or null for the window.
 * @param {Element} node @returns {HTMLElement | null}
 */
function scroller(node) {
  /** @type {Node | null} */
  let at = node.parentNode;
  while (at) {
    if (at instanceof ShadowRoot) { at = at.host; continue; }
    if (!(at instanceof HTMLElement) || at === document.body || at === document.documentElement) break;
    if (/(auto|scroll)/.test(getComputedStyle(at).overflowY) && at.scrollHeight > at.clientHeight) return at;
    at = at.parentNode;
  }
  return null;
}

function coarse() {
  return window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
}

/** @param {StreamlitComponent<MarginScene>} component */
export default function render(component) {
  const { data, setTriggerValue, parentElement } = component;
  const host = /** @type {MlabHost | null} */ (parentElement.querySelector(".mlab"));
  if (!host || !data) return;
  setWords(data.words);
  translate(host);
  const st = host.__mlab || (host.__mlab = /** @type {MlabState} */ ({ dragging: false, pending: null, mode: null, picked: null }));
  st.renders = (st.renders || 0) + 1; // the server answered (send)
  if (st.dragging) { st.pending = component; return; } // redraw when the drag ends
  host.classList.remove("busy");
  clearTimeout(st.busyTimer);
  // The same picture again (the session only took note of a mode button): keep it as it is,
  // with a point taken in move mode and what the line says
  const { mode: _, ...picture } = data;
  const sig = JSON.stringify(picture);
  if (sig === st.sig && host.querySelector(".surface svg")) return;
  st.sig = sig;
  if (st.mode === null) st.mode = data.mode; // the session's mode, at first
  st.picked = null; // a pick belongs to the picture it was made on
  st.fit = Boolean(data.fit);
  if (!st.fitter) {
    // what moves the picture's top or the foot of the screen: the status line above it
    // wrapping, the window's size, the page's font arriving; a refit that changes nothing
    // sets nothing, so the observer settles
    st.fitter = new ResizeObserver(() => fitScreen(host));
    st.fitter.observe(/** @type {Element} */ (host.querySelector(".status")));
    window.addEventListener("resize", () => fitScreen(host));
    document.fonts.ready.then(() => fitScreen(host));
  }
  fitScreen(host);

  // One line under the buttons says what just happened, or else what a tap does now
  const status = /** @type {HTMLElement} */ (host.querySelector(".status")); // canvas.py's HTML
  const hints = coarse() ? data.hints.touch : data.hints.mouse;
  /** @param {string} text @param {string} [kind] */
  const say = (text, kind) => {
    status.textContent = text || hints[/** @type {string} */ (st.mode)] || "";
    status.className = `status ${text ? kind || "" : "hint"}`;
  };
  const showMode = () => {
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (host.querySelectorAll(".tools button"))) {
      b.setAttribute("aria-pressed", b.dataset.mode === st.mode ? "true" : "false");
    }
    host.dataset.mode = /** @type {string} */ (st.mode);
  };

  // The numbers, rebuilt from this picture's data every time (never left from an earlier one)
  const nums = /** @type {HTMLElement} */ (host.querySelector(".nums"));
  nums.replaceChildren();
  for (const n of data.numbers) {
    const box = document.createElement("div");
    box.className = "num";
    box.dataset.k = n.key;
    const k = document.createElement("div");
    k.className = "k";
    k.textContent = n.label;
    const v = document.createElement("div");
    v.className = "v";
    // a long number breaks only between its groups of digits ("10,000,<wbr>050,148")
    n.value.split(",").forEach((part, i) => {
      if (i > 0) v.append(",", document.createElement("wbr"));
      v.append(part);
    });
    box.append(k, v);
    if (n.delta) {
      const d = document.createElement("div");
      d.className = `d ${n.delta.good === null ? "" : n.delta.good ? "good" : "bad"}`;
      d.textContent = `${n.delta.up ? "▲" : "▼"} ${n.delta.text}`;
      d.setAttribute("aria-label", `${n.delta.up ? "up" : "down"} ${n.delta.text}`);
      box.append(d);
    }
    nums.append(box);
  }

  const [x0, x1, y0, y1] = data.view;
  const W = SIZE - PAD.left - PAD.right, H = SIZE - PAD.top - PAD.bottom;
  const px = (/** @type {number} */ x) => PAD.left + ((x - x0) / (x1 - x0)) * W;
  const py = (/** @type {number} */ y) => PAD.top + (1 - (y - y0) / (y1 - y0)) * H;
  const clampX = (/** @type {number} */ x) => Math.min(Math.max(x, x0), x1);
  const clampY = (/** @type {number} */ y) => Math.min(Math.max(y, y0), y1);
  // marks at least 6.5 CSS px in radius on a narrow screen
  const fitted = st.fit ? parseFloat(host.style.getPropertyValue("--fit")) || SIZE : SIZE;
  const shown = Math.min(host.clientWidth || SIZE, 760, fitted) / SIZE;
  const R = Math.max(8, 6.5 / Math.max(shown, 0.1));

  const svg = el("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, role: "img", "aria-label": data.alt });
  svg.dataset.version = String(data.v);
  svg.dataset.tick = String(data.tick);
  el("rect", { class: "bg", x: PAD.left, y: PAD.top, width: W, height: H }, svg);
  const clip = el("clipPath", { id: "mlab-clip" }, el("defs", {}, svg));
  el("rect", { x: PAD.left, y: PAD.top, width: W, height: H }, clip);
  const grid = el("g", { class: "grid" }, svg);
  for (const t of data.ticks.x) {
    el("line", { x1: px(t), x2: px(t), y1: PAD.top, y2: PAD.top + H, class: t === 0 ? "axis" : "" }, grid);
    el("text", { x: px(t), y: PAD.top + H + 16, "text-anchor": "middle" }, grid).textContent = String(t);
  }
  for (const t of data.ticks.y) {
    el("line", { y1: py(t), y2: py(t), x1: PAD.left, x2: PAD.left + W, class: t === 0 ? "axis" : "" }, grid);
    el("text", { x: PAD.left - 6, y: py(t) + 4, "text-anchor": "end" }, grid).textContent = String(t);
  }
  el("text", { x: PAD.left + W, y: SIZE - 6, "text-anchor": "end", class: "axlabel" }, grid).textContent = "x₁";
  el("text", { x: 12, y: PAD.top + 10, class: "axlabel" }, grid).textContent = "x₂";

  const drawing = el("g", { "clip-path": "url(#mlab-clip)" }, svg);
  for (const f of data.fills) {
    el("polygon", { class: f.cls, points: f.d.map(([x, y]) => `${px(x)},${py(y)}`).join(" ") }, drawing);
  }
  if (data.circle) {
    const r = (data.circle.r / (x1 - x0)) * W;
    el("circle", { class: "radius", cx: px(0), cy: py(0), r }, drawing);
  }
  for (const l of data.lines) {
    const [[ax, ay], [bx, by]] = l.d;
    el("line", { class: l.cls, x1: px(ax), y1: py(ay), x2: px(bx), y2: py(by) }, drawing);
    if (l.label) {
      el("text", { class: `tag ${l.cls}`, x: px(l.at[0]), y: py(l.at[1]) }, drawing).textContent = l.label;
    }
  }

  const points = el("g", { class: "points" }, svg);
  const marks = data.points.map(([x, y, label, flags, tip], i) => {
    const g = el("g", { class: `pt ${label > 0 ? "plus" : "minus"}`, transform: `translate(${px(x)},${py(y)})` }, points);
    g.dataset.i = String(i);
    el("title", {}, g).textContent = tip; // a mouse's tooltip; the margins table has them all
    if (flags & 1) el("circle", { class: "support", r: R + 5 }, g);
    if (flags & 2) el("circle", { class: "wrong", r: R + 8 }, g);
    if (label > 0) el("circle", { class: "mark", r: R }, g);
    else el("rect", { class: "mark", x: -R + 0.5, y: -R + 0.5, width: 2 * R - 1, height: 2 * R - 1 }, g);
    el("text", { class: "glyph", y: R / 2, "font-size": 1.75 * R }, g).textContent = label > 0 ? "+" : "−";
    return g;
  });
  if (data.banner) {
    el("text", { class: "banner", x: PAD.left + W / 2, y: PAD.top + 22, "text-anchor": "middle" }, svg).textContent = data.banner;
  }

  // getScreenCTM() is null only for an svg not drawn, and one not drawn gets no pointer event
  /** @param {{clientX: number, clientY: number}} ev @returns {XY} */
  const toData = (ev) => {
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(/** @type {DOMMatrix} */ (svg.getScreenCTM()).inverse());
    return [x0 + ((p.x - PAD.left) / W) * (x1 - x0), y0 + (1 - (p.y - PAD.top) / H) * (y1 - y0)];
  };
  const scale = () => svg.getBoundingClientRect().width / SIZE; // CSS px per SVG unit
  // the nearest point to a pointer, and its distance in CSS px
  /** @param {{clientX: number, clientY: number}} ev a pointer or a touch */
  const nearest = (ev) => {
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(/** @type {DOMMatrix} */ (svg.getScreenCTM()).inverse());
    let best = -1, dist = Infinity;
    data.points.forEach(([x, y], i) => {
      const d = Math.hypot(px(x) - p.x, py(y) - p.y);
      if (d < dist) { best = i; dist = d; }
    });
    return { i: best, css: dist * scale() };
  };
  const name = (/** @type {number} */ i) => tr("point {i}", { i: i + 1 }); // a student counts points from 1
  /** @param {string} event @param {object} value */
  const send = (event, value) => {
    host.classList.add("busy"); // until Python answers with a redraw
    st.busyTimer = setTimeout(() => host.classList.remove("busy"), 4000);
    st.edits = (st.edits || 0) + 1;
    const edit = { ...value, v: data.v, e: st.edits };
    setTriggerValue(event, edit);
    // An edit can be lost on its way (Streamlit drops a fragment's rerun that arrives while a
    // whole page's run has not drawn the fragment yet): with no redraw within RESEND_AFTER ms
    // it is sent once more, with its number, which the server acts on once (lab.on_surface).
    const renders = st.renders;
    clearTimeout(st.resendTimer);
    st.resendTimer = setTimeout(() => { if (st.renders === renders) setTriggerValue(event, edit); }, RESEND_AFTER);
  };

  /** @type {Press | null} */
  let press = null;
  svg.addEventListener("pointerdown", (ev) => {
    if ((ev.pointerType === "mouse" && ev.button !== 0) || host.classList.contains("busy")) return;
    const near = nearest(ev);
    const reach = REACH[ev.pointerType] || REACH.touch;
    const i = near.css <= reach ? near.i : -1;
    press = { i, near, id: ev.pointerId, cx: ev.clientX, cy: ev.clientY, moved: false,
      alt: ev.altKey, shift: ev.shiftKey, type: ev.pointerType };
    svg.setPointerCapture(ev.pointerId);
    ev.preventDefault();
  });
  // A finger that lands on a point drags it; one that lands on empty space may scroll the page
  svg.addEventListener("touchstart", (ev) => {
    if (ev.touches.length !== 1) return;
    const t = ev.touches[0];
    const near = nearest(t);
    if (near.css <= REACH.touch || st.picked !== null) ev.preventDefault();
  }, { passive: false });
  svg.addEventListener("pointermove", (ev) => {
    if (!press || ev.pointerId !== press.id || press.i < 0) return;
    if (!press.moved && Math.hypot(ev.clientX - press.cx, ev.clientY - press.cy) < SLOP) return;
    press.moved = true;
    st.dragging = true;
    const [x, y] = toData(ev);
    press.at = [clampX(x), clampY(y)];
    const g = marks[press.i];
    g.setAttribute("transform", `translate(${px(press.at[0])},${py(press.at[1])})`);
    g.classList.add("dragging");
    say(tr("Moving {point} to ({x}, {y})", { point: name(press.i), x: spoken(press.at[0].toFixed(2)), y: spoken(press.at[1].toFixed(2)) }));
  });
  /** @param {PointerEvent} ev @param {boolean} cancelled */
  const release = (ev, cancelled) => {
    if (!press || ev.pointerId !== press.id) return;
    const p = press;
    press = null;
    st.dragging = false;
    if (cancelled) { // put the point back (or draw what arrived meanwhile)
      const next = st.pending || component;
      st.pending = null;
      render(next);
      return;
    }
    st.pending = null;
    if (p.moved) {
      // p.at is set with p.moved
      send("moved", { i: p.i, x: /** @type {XY} */ (p.at)[0], y: /** @type {XY} */ (p.at)[1] });
      return;
    }
    tap(ev, p);
  };
  /** @param {PointerEvent} ev @param {Press} p */
  const tap = (ev, p) => {
    const [x, y] = toData(ev);
    const inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
    const onMark = p.near.i >= 0 && p.near.css <= R * scale() + 3;
    if (p.alt && p.i >= 0) return send("deleted", { i: p.i }); // mouse shortcut
    const mode = p.shift && st.mode === "plus" ? "minus" : p.shift && st.mode === "minus" ? "plus" : st.mode;
    if (mode === "plus" || mode === "minus") {
      if (onMark) return say(tr("{point} is there already: to change it, pick flip, delete or move.", { point: name(p.near.i) }));
      if (inside) send("added", { x, y, label: mode === "plus" ? 1 : -1 });
      return;
    }
    if (mode === "move" && st.picked !== null) {
      const i = st.picked;
      marks[i].classList.remove("picked");
      st.picked = null;
      if (p.i === i) return say(tr("Let go of {point}.", { point: name(i) }));
      if (inside) send("moved", { i, x, y });
      return;
    }
    if (p.i < 0) {
      if (p.near.i < 0) return say("");
      const away = { point: name(p.near.i), px: Math.round(p.near.css) };
      return say(p.type === "mouse"
        ? tr("No point within reach of that click: the nearest, {point}, is {px} px away.", away)
        : tr("No point within reach of that tap: the nearest, {point}, is {px} px away.", away));
    }
    if (mode === "move") {
      st.picked = p.i;
      marks[p.i].classList.add("picked");
      return say(tr("Took {point}: now tap where it should go (tap it again to let go).", { point: name(p.i) }));
    }
    say(tr("Took {point}.", { point: name(p.i) }));
    send(mode === "delete" ? "deleted" : "flipped", { i: p.i });
  };
  svg.addEventListener("pointerup", (ev) => release(ev, false));
  svg.addEventListener("pointercancel", (ev) => release(ev, true));

  if (!host.dataset.wired) { // the toolbar outlives every redraw: wire it once
    host.dataset.wired = "1";
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (host.querySelectorAll(".tools button"))) {
      b.addEventListener("click", () => {
        const now = /** @type {MlabState} */ (host.__mlab); // set above, never unset
        now.mode = /** @type {string} */ (b.dataset.mode); // every button has one (canvas.MODES)
        now.showMode();
        now.unpick();
        now.say("");
        now.setMode(/** @type {string} */ (b.dataset.mode));
      });
    }
  }
  if (!host.dataset.saving) { // Save the picture: the SVG on show, with the legend under it
    host.dataset.saving = "1";
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (host.querySelectorAll(".save button"))) {
      b.addEventListener("click", () => {
        const live = /** @type {SVGSVGElement | null} */ (host.querySelector(".surface svg"));
        const saved = /** @type {HTMLElement} */ (host.querySelector(".save .saved")); // canvas.py's HTML
        if (!live) return;
        const fmt = b.dataset.save === "png" ? "png" : "svg";
        const legend = Array.from(host.querySelectorAll(".legend span")).map((span) => ({
          text: span.textContent || "",
          color: getComputedStyle(span).color,
          swatch: /** @type {SVGSVGElement | undefined} */ (span.querySelector("svg") || undefined),
        }));
        const n = live.querySelectorAll(".points .pt").length;
        const spec = {
          title: tr("Margin lab: {n} points, w* with its γ band and the perceptron's final line", { n }),
          desc: live.getAttribute("aria-label") || "",
          legend,
          font: parseFloat(getComputedStyle(/** @type {Element} */ (host.querySelector(".legend"))).fontSize) || 13,
        };
        const stem = `perceptron-margin-${n}-points`;
        figureSave(live, spec, stem, fmt).then(
          (out) => { saved.textContent = tr("Saved {file}: {width} × {height} px, {kb} kB.", { file: `${stem}.${fmt}`, width: out.width, height: out.height, kb: Math.max(1, Math.round(out.bytes / 1024)) }); },
          () => { saved.textContent = tr("This browser could not draw the picture; try the other format."); },
        );
      });
    }
  }
  st.showMode = showMode;
  st.say = say;
  st.unpick = () => {
    if (st.picked !== null) marks[st.picked].classList.remove("picked");
    st.picked = null;
  };
  st.setMode = (mode) => setTriggerValue("mode", { mode }); // remembered for reloads and links
  showMode();
  // new data or a new answer to an edit bring their sentence (or none: the hint); a redraw
  // of the same picture (a mode button's report) keeps what the line says (a tap's message)
  const seen = `${data.v}/${data.tick}`;
  if (st.seen !== seen || !status.textContent) {
    say(data.error || data.note || "", data.error ? "error" : "");
  }
  st.seen = seen;

  /** @type {HTMLElement} */ (host.querySelector(".surface")).replaceChildren(svg);
}
