// The lecture player following the class (the live channel), playing along, its links,
// Save figure, presenter mode and the keys.
// A plain script that goes in front of player.js's module (ui/lecture/player.py joins
// player_types.js, player_chart.js, player_moves.js, player_follow.js and player.js in
// that order): its names are the player's, shared with the files around it.

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
  if (d && lec && typeof d.remote === "number" && S.root && S.root.isConnected) pressed(lec.remote);
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
 * The lecturer's page: the remote's press [n, act, t] (ui.classmode.classroom.press), done
 * here as if its button were pressed (or, for "at", the step gone to), once each.
 * @param {unknown} value
 */
function pressed(value) {
  if (!Array.isArray(value) || value.length !== 3) return;
  const [n, what, t] = value;
  if (!Number.isInteger(n) || !Number.isInteger(t)) return;
  const seen = Math.max(S.remoteN || 0, (S.data && S.data.remote) || 0);
  if (n <= seen) return;
  S.remoteN = n;
  if (what === "at") {
    if (S.playing) stop();
    goTo(t);
  } else if (what === "step" || what === "back" || what === "next" || what === "play") {
    act(what);
  }
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
  if (t >= d.start && t <= d.stop) { if (S.playing) stop(); goTo(t); return; }
  S.rangeText.textContent = tr("step t = {t} of {T} (release to load it)", { t, T: d.T });
  if (d.presenter && !released) say(S.rangeText.textContent); // its text is hidden on a projector
  if (released) goTo(t);
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
  const done = () => say(tr("Link copied: it opens this dataset, these settings and step t = {t}.", { t: S.t }));
  const fallback = () => { // http:// in a lecture hall has no clipboard API: show it, selected
    const box = h("input", { type: "text", readonly: "", value: text, "aria-label": tr("link to this step"), class: "linkbox" });
    const said = h("span", {}, null, "");
    S.note.replaceChildren(said, box);
    box.focus();
    box.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    said.textContent = ok ? tr("Link copied: ") : tr("Press Ctrl+C (⌘C) to copy the link: ");
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
    title: tr("The perceptron on {name}: step t = {t} of {T}", { name: d.name, t: S.t, T: d.T }), // textContent, in the file
    desc: S.fig.getAttribute("aria-label") || "",
    legend,
    font: S.layout.font * 0.9,
  };
}

/** @returns {SVGSVGElement[]} the chart's layers over its lowest, S.svg (redraw) */
const layersOver = () => /** @type {SVGSVGElement[]} */ ([...S.fig.children].slice(1));

/** @param {"svg" | "png"} fmt */
function saveChart(fmt) {
  const spec = chartSpec();
  if (!spec || !S.svg) return;
  const t = S.t;
  figureSave(S.svg, spec, `perceptron-step-${t}`, fmt, layersOver()).then(
    (out) => say(tr("Saved {file}: {width} × {height} px, {kb} kB.", { file: `perceptron-step-${t}.${fmt}`, width: out.width, height: out.height, kb: Math.max(1, Math.round(out.bytes / 1024)) })),
    () => say(tr("This browser could not draw the figure; try the other format.")),
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
  if (S.along) { say(tr("The lecturer is playing: record a clip when the play stops.")); return; }
  if (S.playing) stop();
  const from = S.t, to = Math.min(d.stop, from + Math.max(1, Math.min(n, CLIP_MAX_FRAMES - 1)));
  if (to <= from) { say(tr("This is the last step here: go back a few steps to record a clip.")); return; }
  const steps = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const name = `perceptron-steps-${from}-${to}`;
  S.clipping = true;
  S.wrap.classList.add("busy");
  say(tr("Recording steps {from} to {to} at {speed} steps/s…", { from, to, speed: S.speed }));
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
        return figureSvg(/** @type {SVGSVGElement} */ (S.svg), spec, layersOver());
      },
    });
    figureDownload(out.blob, name, fmt);
    say(tr("Saved {file}: {frames} frames at {speed} steps/s, {width} × {height} px, {kb} kB.", { file: `${name}.${fmt}`, frames: out.frames, speed: S.speed, width: out.width, height: out.height, kb: Math.max(1, Math.round(out.blob.size / 1024)) }));
  } catch (error) {
    say(fmt === "webm" ? tr("This browser cannot record WebM video: try GIF.") : tr("This browser could not draw the clip."));
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
    "aria-label": tr("The screen is blank: press B to show it again"),
    style: "position:fixed;inset:0;z-index:2147483647;background:#000;color:#1c1c1c;"
      + "display:flex;align-items:flex-end;justify-content:center;padding:12px;font-size:14px",
  }, document.body, tr("B: show the screen again"));
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
