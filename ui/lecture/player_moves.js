// The lecture player's page and its moves: the controls built, a step drawn, reported
// to the server (or posted), Play and Stop.
// A plain script that goes in front of player.js's module (ui/lecture/player.py joins
// player_types.js, player_chart.js, player_moves.js, player_follow.js and player.js in
// that order): its names are the player's, shared with the files around it.

// --- the page's parts ----------------------------------------------------------------

const BUTTONS = [ // id, label, key, what it does: the words marked N_ for the catalogue
  ["reset", N_("Reset"), N_("Home or r"), N_("back to w₀, before the first example")],
  ["back", N_("◀ Back"), "←", N_("undo the last step")],
  ["step", N_("Step ▶"), "→", N_("show one example")],
  ["next", N_("Next mistake"), "n", N_("step until the next update")],
  ["epoch", N_("Finish epoch"), "e", N_("step to the end of this pass")],
  ["end", N_("Run to the end"), N_("End"), N_("the last step of the run")],
  ["play", N_("▶ Play"), N_("space"), N_("replay the run")],
];

/** @param {Element} root @param {PlayerData} data */
function build(root, data) {
  root.replaceChildren();
  const wrap = h("div", { class: "lec" }, root);
  // a student following the lecturer gets the chart first and none of the lecturer's
  // controls (the strip's Explore on my own brings them back): the controls are made, so
  // that the rest of the player needs no second path, but never put on the page
  const following = !!(data.follow && data.follow.following);
  const bar = h("div", { class: "bar", role: "toolbar", "aria-label": tr("step through the run") }, following ? null : wrap);
  S.buttons = {};
  for (const [id, label, keyName, tip] of BUTTONS) {
    const b = h("button", { type: "button", "data-act": id, title: `${tr(tip)} (${tr(keyName)})`, "aria-keyshortcuts": keyName }, bar, tr(label));
    b.addEventListener("click", () => act(id));
    S.buttons[id] = b;
  }
  const speed = h("select", { "aria-label": tr("replay speed"), class: "speed" }, bar);
  for (const v of [2, 8, 30]) h("option", { value: v }, speed, tr("{n} steps/s", { n: v }));
  speed.value = String(S.speed);
  speed.addEventListener("change", () => { S.speed = +speed.value; if (S.playing) { stop(); play(); } });
  S.speedSel = speed;
  // on a projector the scrubber shares the buttons' row: the chart keeps the height
  const scrub = h("div", { class: "scrub" }, data.presenter ? bar : null);
  const tools = h("div", { class: "tools" }, bar);
  const copy = h("button", { type: "button", "data-act": "copy", title: tr("copy a link that opens this step") }, tools, tr("Copy link"));
  copy.addEventListener("click", copyLink);
  // Save figure: a disclosure (summary: Enter opens it) with the two formats
  const save = h("details", { class: "save" }, tools);
  const summary = h("summary", { "data-act": "save", title: tr("save the chart as it is now: SVG for slides, PNG at twice its size for a projector") }, save, tr("Save figure"));
  const menu = h("div", { class: "menu", role: "group", "aria-label": tr("save the chart as") }, save);
  for (const [fmt, label] of /** @type {const} */ ([["svg", "SVG"], ["png", "PNG (2×)"]])) {
    const b = h("button", { type: "button", "data-act": `save-${fmt}` }, menu, label);
    b.addEventListener("click", () => { save.open = false; summary.focus(); saveChart(fmt); });
  }
  // a clip of the steps from this one, at the player's speed (its own choice), at a width
  const clip = h("div", { class: "cliprow", role: "group", "aria-label": tr("a clip of the steps from this one, at the player's speed") }, menu);
  h("span", {}, clip, tr("Clip:"));
  const steps = /** @type {HTMLSelectElement} */ (h("select", { "data-act": "clip-steps", "aria-label": tr("clip: how many steps from this one") }, clip));
  for (const n of [10, 20, 50]) h("option", { value: n, ...(n === 20 ? { selected: "" } : {}) }, steps, tr("next {n} steps", { n }));
  const width = /** @type {HTMLSelectElement} */ (h("select", { "data-act": "clip-width", "aria-label": tr("clip: its width") }, clip));
  for (const w of CLIP_WIDTHS) h("option", { value: w }, width, tr("{n} px wide", { n: w }));
  for (const [fmt, label] of /** @type {const} */ ([["webm", "WebM"], ["gif", "GIF"]])) {
    const b = h("button", { type: "button", "data-act": `clip-${fmt}` }, clip, label);
    b.addEventListener("click", () => { save.open = false; summary.focus(); saveClip(fmt, +steps.value, +width.value); });
  }
  save.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && save.open) { save.open = false; summary.focus(); }
  });
  S.saveBox = save;
  const pres = h("button", { type: "button", "data-act": "presenter", "aria-pressed": String(!!data.presenter), title: tr("presenter mode for a projector (p)"), "aria-keyshortcuts": "p" }, tools, data.presenter ? tr("Leave presenter mode") : tr("Presenter mode"));
  pres.addEventListener("click", () => togglePresenter());
  S.presBtn = pres;
  if (!data.presenter && !following) wrap.appendChild(scrub);
  const range = h("input", { type: "range", min: 0, max: data.T, step: 1, value: S.t, "aria-label": tr("scrub: step t") }, scrub);
  range.addEventListener("input", () => scrubTo(+range.value, false));
  range.addEventListener("change", () => scrubTo(+range.value, true));
  S.range = range;
  S.rangeText = h("span", { class: "rangetext" }, scrub);
  S.status = h("p", { class: "status", "aria-live": "polite" }, wrap);
  S.facts = h("p", { class: "facts" }, wrap);
  const mathrow = h("div", { class: "mathrow" }, wrap); // on a projector the note floats in it
  S.note = h("p", { class: "note", role: "status" }, mathrow);
  S.maths = h("div", { class: "maths" }, mathrow);
  watchMaths(S.maths);
  S.chartBox = h("div", { class: "chart" }, wrap);
  if (following) wrap.insertBefore(S.chartBox, S.status); // then what it shows, under it
  S.say = h("p", { class: "say", id: "lec-say" }, wrap);
  const legend = h("div", { class: "legend", "aria-hidden": "true" }, wrap);
  S.legend = legend;
  for (const [cls, text] of [
    ["plus", "● y = +1"], ["minus", "✕ y = −1"], ["wline", N_("━ the line w·x = 0")], ["wtxt", "→ w"],
    ["star", N_("╍ max-margin w* and its γ band")], ["shownr", N_("example just shown: correct")],
    ["shownm", N_("example just shown: mistake")], ["ringtxt", "◌ max ‖x‖"], ["boundtxt", N_("╍ bounds")],
  ]) {
    const entry = h("span", { class: cls }, legend);
    // the rings' entries show each ring as the chart draws it: solid, or dashed for a mistake
    if (cls === "shownr" || cls === "shownm") {
      const sw = s("svg", { class: "sw", viewBox: "0 0 20 20" }, entry);
      s("circle", { cx: 10, cy: 10, r: 7.5, class: cls === "shownm" ? "swring mistake" : "swring right" }, sw);
    }
    entry.append(tr(text));
  }
  h("p", { class: "keys" }, wrap,
    tr("Keys: → step · ← back · n next mistake · e finish epoch · End run to the end · Home or r reset · space play/pause · p presenter mode · in presenter mode a clicker's PageDown / PageUp step and go back, and b blanks the screen"));
  S.wrap = wrap;
}

function paint() {
  const d = S.data;
  const v = view();
  if (!d || !v || !S.wrap) return;
  /** @type {[string, string][]} */
  const status = [[d.name, "name"], ...v.status.map((part) => /** @type {[string, string]} */ ([part, "chip"]))];
  /** @type {[string, string][]} */
  const facts = [];
  // on a projector the run's facts and settings are a second, smaller line: the first,
  // what moves, stays one line
  for (const part of d.facts) (d.presenter ? facts : status).push([part, "fact"]);
  if (d.presenter && d.summary) facts.push([d.summary, "fact"]);
  if (v.end) status.push([v.end, "end"]);
  const asked = asking(d) ? " " + tr("The class is asked: will point {i}, shown next, be a mistake?", { i: d.asked[1] + 1 }) : "";
  if (asked) status.push([tr("? class question: point {i}", { i: /** @type {AskedData} */ (d).asked[1] + 1 }), "chip asked"]);
  chips(S.status, status);
  chips(S.facts, facts);
  maths(v, d);
  // each written only when it changes: a write of the same words still lays them out
  if (S.range.value !== String(S.t)) S.range.value = String(S.t);
  words(S.rangeText, tr("step t = {t} of {T}", { t: S.t, T: d.T }));
  off(S.buttons.back, S.t === 0 || S.pending);
  off(S.buttons.reset, S.t === 0 || S.pending);
  for (const id of ["step", "next", "epoch", "end"]) off(S.buttons[id], S.t === d.T || S.pending);
  words(S.buttons.play, S.playing || S.along ? tr("❚❚ Pause") : tr("▶ Play"));
  off(S.buttons.play, S.pending || (!S.playing && S.t === d.T));
  const L = S.layout;
  if (S.P) drawStep(S.P, d, v, L);
  const said = v.say + asked, t = String(S.t);
  if (S.fig.getAttribute("aria-label") !== said) S.fig.setAttribute("aria-label", said);
  if (S.say.textContent !== said) S.say.textContent = said;
  if (S.fig.dataset.t !== t) S.fig.dataset.t = t;
  if (S.wrap.dataset.t !== t) S.wrap.dataset.t = t;
}

/** @param {HTMLElement} el @param {string} text */
function words(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** @param {HTMLButtonElement} button @param {boolean} disabled */
function off(button, disabled) {
  if (button.disabled !== disabled) button.disabled = disabled;
}

/**
 * ``box`` holds one chip (a span) per [text, class] of ``list``: the chips it has are kept
 * and only their words change (a step changes a few numbers: new elements would be styled
 * and laid out anew on every step).
 * @param {HTMLElement} box @param {[string, string][]} list
 */
function chips(box, list) {
  const have = box.children;
  const same = have.length === list.length && list.every(([, cls], i) => have[i].className === cls);
  if (!same) {
    box.replaceChildren();
    for (const [text, cls] of list) h("span", { class: cls }, box, text);
    return;
  }
  list.forEach(([text], i) => words(/** @type {HTMLElement} */ (have[i]), text));
}

/**
 * The maths of the step on show: at once when it is on the screen, else once the steps
 * pause (MATHS_LATER), so a burst of steps or a Play off its screen skips its layout.
 * @param {StepView} v @param {PlayerData} d
 */
function maths(v, d) {
  clearTimeout(S.mathsTimer);
  if (S.mathsShown !== false) { writeMaths(S.maths, v, d); S.mathsDue = false; return; }
  S.mathsDue = true;
  S.mathsTimer = setTimeout(mathsNow, MATHS_LATER);
}

function mathsNow() {
  clearTimeout(S.mathsTimer);
  const v = view();
  if (!S.mathsDue || !S.data || !v) return;
  S.mathsDue = false;
  writeMaths(S.maths, v, S.data);
}

/** @param {HTMLElement} box the maths' box: whether it is on the screen, noted as it changes */
function watchMaths(box) {
  if (S.mathsWatch) S.mathsWatch.disconnect();
  S.mathsShown = undefined; // until the first report: written at once
  if (typeof IntersectionObserver !== "function") return;
  S.mathsWatch = new IntersectionObserver((entries) => {
    for (const e of entries) S.mathsShown = e.isIntersecting;
    if (S.mathsShown) mathsNow();
  });
  S.mathsWatch.observe(box);
  box.addEventListener("focusin", mathsNow);
}

function redraw() {
  if (!S.data || !S.chartBox) return;
  const width = Math.max(320, Math.floor(S.chartBox.getBoundingClientRect().width || 900));
  S.chartTop = S.chartBox.getBoundingClientRect().top + window.scrollY;
  S.below = S.legend ? S.legend.getBoundingClientRect().height + 8 : 40;
  family = getComputedStyle(S.wrap).fontFamily || family;
  widths.clear();
  const L = layout(width, S.data);
  S.layout = L;
  // The chart is three SVGs, one over the other, each its own paint layer: what a mistake
  // changes (the line, its half-planes, the proof's panels), the points (never), and what
  // every step changes (the rings, w, the labels, the stamp). A step then repaints the
  // layer it changed, not 500 points (on a phone a step has the time of one frame).
  const fig = h("div", { class: "fig", role: "img" });
  fig.style.fontSize = `${L.font}px`;
  const layer = (/** @type {string} */ cls) => s("svg", { width: L.width, height: L.height, viewBox: `0 0 ${L.width} ${L.height}`, class: cls, "aria-hidden": "true" }, fig);
  const svg = layer("under"), pts = layer("pts"), over = layer("over");
  S.chartBox.replaceChildren(fig);
  S.fig = fig;
  S.svg = svg;
  S.P = drawStatic(svg, S.data, L, pts, over);
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
  else { S.setTrigger("at", value); confirmStep(value, CONFIRM_AFTER); }
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
    confirmStep(value, CONFIRM_AFTER);
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
function confirmStep(value, wait) {
  clearTimeout(S.confirmTimer);
  S.confirmTimer = setTimeout(() => {
    if ((S.acked || 0) >= value.seq || S.seq !== value.seq) return; // answered, or superseded
    S.seq += 1;
    /** @type {Record<string, unknown> & {seq: number}} */
    const again = { ...value, seq: S.seq };
    // a lecturer's Play: how long ago it started is as of now, not of the lost report
    if (typeof value.elapsed === "number" && S.clock) again.elapsed = (performance.now() - S.clock.at) / 1000;
    S.setTrigger("at", again);
    confirmStep(again, Math.min(2 * wait, CONFIRM_MAX));
  }, wait);
}

/** @param {number} target @param {ReportExtra} [opts] */
function goTo(target, opts) {
  const d = S.data;
  if (!d || S.pending) return false;
  target = Math.max(0, Math.min(d.T, Math.round(target)));
  if (target === S.t) return false;
  if (target < d.start || target > d.stop) { // outside this window: the server sends the next
    S.pending = true;
    S.wrap.classList.add("busy");
    say(tr("Loading steps around t = {t}…", { t: target }));
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
    if (S.t === d.T) say(tr("That was the last step: the run ends at t = {T}. Reset (Home) starts again.", { T: d.T }));
    else goTo(S.t + 1);
  } else if (id === "back") {
    if (S.t === 0) say(tr("This is the start: no example shown yet, w = w₀."));
    else goTo(S.t - 1);
  } else if (id === "next") {
    goTo(nextMistake());
  } else if (id === "epoch") {
    goTo(Math.min((Math.floor(S.t / d.n) + 1) * d.n, d.T));
  } else if (id === "end") {
    goTo(d.T);
  } else if (id === "reset") {
    goTo(0);
  } else if (id === "play") {
    if (S.playing) stop(); else play();
  }
}

/** @param {boolean} [resume] a replay that ran into the next window plays on, on its clock */
function play(resume) {
  const d = S.data;
  if (!d || S.pending) return;
  if (S.t === d.T) { say(tr("The run is over; Reset (Home) to replay it.")); return; }
  S.playing = true;
  const rate = reduced() ? Math.min(S.speed, 1) : S.speed; // prefers-reduced-motion: 1 step/s
  if (reduced() && S.speed > 1) say(tr("Reduced motion is on: playing 1 step a second."));
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
        goTo(target, { play: true, ...lead() });
        return;
      }
      goTo(target);
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

