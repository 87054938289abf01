// The lecturer's remote (ui/lecture/remote.py): large buttons on a phone for the lecture on
// the projector. The class's key comes from the link's fragment (#key=...), which no server
// sees; it is kept in this tab only and dropped from the address bar. Each press posts
// {code, key, act} and is answered with the remote's view; the step on the projector is
// heard on the class channel (live.js, the lecturer's ticket), and while a question is
// open the view is asked for again for its count of answers.

const KEPT = "perceptron-remote-key:"; // sessionStorage, by class code
const ASK_EVERY = 2000; // ms between asks of the view while a question is open

/**
 * @typedef {object} RemoteData what the page's server wrote into it (remote.py page)
 * @property {string} code
 * @property {string} shown
 * @property {string} said
 * @property {{remote: string, live: string}} urls
 * @property {{live: string}} code_files
 * @property {Record<string, string>} [words] this page's words in its language (ui.words.script_words; none: English)
 */

/**
 * @typedef {object} RemoteView what a press is answered with (remote.py view)
 * @property {number} t
 * @property {number} T
 * @property {string} question
 * @property {boolean} open
 * @property {boolean} again
 * @property {boolean} playing
 * @property {string} ticket
 * @property {string} said
 */

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** @type {RemoteData} */
const D = JSON.parse(byId("rm-data").textContent || "{}");
setWords(D.words);

languageSwitch("hall-lang"); // the page again in the language chosen
const R = {
  key: "",
  /** @type {RemoteView | null} */ view: null,
  busy: false,
  again: false, // a status asked for while busy
  timer: 0,
  ticket: "",
  /** @type {{default: (component: any) => unknown} | null} */ live: null,
  strip: "",
};

/** The key: the link's fragment (then kept in the tab), or what the tab kept. */
function keyOf() {
  const hash = new URLSearchParams(window.location.hash.slice(1)).get("key");
  if (hash) {
    try { window.sessionStorage.setItem(KEPT + D.code, hash); } catch (e) { /* private mode */ }
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    return hash;
  }
  try { return window.sessionStorage.getItem(KEPT + D.code) || ""; } catch (e) { return ""; }
}

/** @param {string} text */
function said(text) {
  byId("rm-said").textContent = text;
}

/** @param {RemoteView} v */
function show(v) {
  R.view = v;
  byId("rm-step").textContent = tr("Step t = {t} of {T}", { t: spoken(v.t.toLocaleString("en")), T: spoken(v.T.toLocaleString("en")) });
  byId("rm-question").textContent = v.question;
  byId("rm-play").textContent = v.playing ? tr("Pause") : tr("Play");
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(".rm-pad button"))) {
    const act = b.dataset.act;
    b.disabled = (act === "ask" && v.open) || (act === "reveal" && !v.open) || (act === "again" && !v.again);
  }
  said(v.said);
  if (v.ticket && v.ticket !== R.ticket) { R.ticket = v.ticket; listen(); }
  clearTimeout(R.timer);
  if (v.open) R.timer = window.setTimeout(() => post("status"), ASK_EVERY);
}

/** @param {string} act */
async function post(act) {
  // an ask for the status while a press is on its way is made once that press is answered
  // (the link opened again with the right key, while a press with the wrong one was sent)
  if (R.busy && act === "status") { R.again = true; return; }
  R.busy = true;
  try {
    const response = await fetch(D.urls.remote, {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: D.code, key: R.key, act }),
    });
    const body = await response.json();
    if (response.ok && body && typeof body.t === "number") show(/** @type {RemoteView} */ (body));
    else said(body && typeof body.error === "string" ? body.error : tr("That press did not arrive: press again."));
  } catch (e) {
    said(tr("The class could not be reached (the network): press again."));
  }
  R.busy = false;
  if (R.again) { R.again = false; post("status"); }
}

/** The class channel: the projector's step and Play as they change, a question asked. */
function listen() {
  if (!R.live || !R.ticket) return;
  R.live.default({
    name: "perceptron.live", key: "room_channel", parentElement: byId("hall-channel"),
    data: { url: D.urls.live, ticket: R.ticket, topic: "strip", shown: R.strip },
    setStateValue() {},
    setTriggerValue() { post("status"); }, // the question changed: its words and count
  });
}

/** @param {Event} event */
function onLive(event) {
  const message = /** @type {CustomEvent<{state?: any}>} */ (event).detail;
  const lec = message && message.state && message.state.lecture;
  if (typeof message.state.strip === "string") R.strip = message.state.strip;
  if (!R.view || !lec || typeof lec.t !== "number") return;
  const playing = Array.isArray(lec.play);
  if (lec.t !== R.view.t || playing !== R.view.playing) show({ ...R.view, t: Math.min(lec.t, R.view.T), playing, said: "" });
}

/** The key of the link (its fragment) or of the tab: the remote, or how to open it. */
function take() {
  R.key = D.code ? keyOf() : "";
  byId("rm-nokey").hidden = !!R.key;
  byId("rm-main").hidden = !R.key;
  if (!R.key && D.said) said(D.said);
  return !!R.key;
}

async function start() {
  byId("rm-class").textContent = D.shown ? tr("Class {code}", { code: D.shown }) : "";
  // the remote link opened again in this tab (only its fragment differs: no new page)
  window.addEventListener("hashchange", () => { if (take()) { said(""); post("status"); } });
  if (!take()) return;
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(".rm-pad button"))) {
    b.addEventListener("click", () => post(b.dataset.act || "status"));
  }
  window.addEventListener("perceptron-live", onLive);
  try {
    R.live = await import(new URL(D.code_files.live, window.location.origin).href);
  } catch (e) {
    said(tr("This page's code could not be loaded: reload the page."));
  }
  post("status");
}

start();
export {}; // a module: its names are its own
