// The light page of a class (ui/lecture/light.py): a phone follows the lecture with the
// live page's own code and no Streamlit. This module hosts three of the app's components
// as Streamlit would: the player (player.js: the lecture's chart, maths and status), the
// question card (card.js) and the class channel (live.js), each given an object with
// `data`, `parentElement` and `setTriggerValue`. What a Streamlit session would do on a
// trigger is a call of the page's own route here: the room's lecture now
// (GET /api/lecture), or the next window of the lecturer's Play.
//
// Every word the page shows that comes from elsewhere (the class code, the nickname, the
// challenge) is written with textContent, never as markup.

const RETRY = [1000, 2000, 4000, 8000]; // ms between asks of a lecture the network lost
const OFFLINE_AFTER = 2500; // ms without the channel before the page says it reconnects

/**
 * @typedef {object} HallSeat the seat this page holds in the class
 * @property {string} code
 * @property {string} shown the code as the projector shows it
 * @property {string} ticket opens the class channel and the card's route
 * @property {string} nick
 */

/**
 * @typedef {object} HallData what the page's server wrote into it (light.py page)
 * @property {string} code the link's class code, as shown ("" without one)
 * @property {string} said why the link's code opens nothing ("" when it does)
 * @property {HallSeat | null} seat the browser's seat in this class, if it has one
 * @property {{join: string, lecture: string, live: string, card: string, page: string}} urls
 * @property {{player: string, card: string, live: string}} code_files
 * @property {string} bar the card's answer bar's key prefix
 * @property {Record<string, string>} [words] this page's words in its language (ui.words.script_words; none: English)
 */

/**
 * @typedef {object} HallLecture what GET /api/lecture answers (light.py lecture)
 * @property {object | null} scene the window of steps, or null when the page holds it
 * @property {PlayerStep} step
 * @property {string} end the version of the class's end and challenge
 * @property {[string, string] | null} challenge the open challenge's words
 * @property {string} margin the margin lab's address in this class
 * @property {string} explore the full app at this lecture, without its step
 * @property {string} stepKey the step's URL parameter
 */

/** @typedef {{default: (component: any) => unknown}} ComponentModule */

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** @type {HallData} */
const D = JSON.parse(byId("hall-data").textContent || "{}");
setWords(D.words);

languageSwitch("hall-lang"); // the page again in the language chosen

const H = {
  /** @type {HallSeat | null} */ seat: null,
  /** @type {Promise<ComponentModule[]> | null} */ modules: null,
  /** @type {ComponentModule | null} */ player: null,
  /** @type {ComponentModule | null} */ live: null,
  /** @type {any} */ component: null,
  have: "",
  end: "",
  explore: "",
  stepKey: "lec_t",
  fetching: false,
  /** @type {{t: number | null} | null} */ again: null,
  tries: 0,
  retryTimer: 0,
  closed: false,
  offlineSince: 0,
};

/** @returns {Promise<ComponentModule[]>} the player, the card and the channel */
function modules() {
  const urls = [D.code_files.player, D.code_files.card, D.code_files.live];
  H.modules ||= Promise.all(urls.map((u) => import(new URL(u, window.location.origin).href)));
  return H.modules;
}

/** @param {string} text */
function status(text) {
  const p = byId("hall-status");
  if (p.textContent !== text) p.textContent = text;
}

// --- the join form -------------------------------------------------------------------

/** @param {string} said */
function showForm(said) {
  const form = /** @type {HTMLFormElement} */ (byId("hall-join"));
  const code = /** @type {HTMLInputElement} */ (byId("hall-code"));
  form.hidden = false;
  byId("hall-lecture").hidden = true;
  if (!code.value) code.value = D.code;
  byId("hall-said").textContent = said;
  const nick = /** @type {HTMLInputElement} */ (byId("hall-nick"));
  (said && !code.value ? code : code.value ? nick : code).focus();
}

/** @param {SubmitEvent} event */
async function onJoin(event) {
  event.preventDefault();
  const code = /** @type {HTMLInputElement} */ (byId("hall-code"));
  const nick = /** @type {HTMLInputElement} */ (byId("hall-nick"));
  const go = /** @type {HTMLButtonElement} */ (byId("hall-go"));
  const said = byId("hall-said");
  if (!code.value.trim()) { said.textContent = tr("Type the class code from the projector."); code.focus(); return; }
  if (!nick.value.trim()) { said.textContent = tr("Type a nickname: the class sees it beside your answers."); nick.focus(); return; }
  go.disabled = true;
  said.textContent = "";
  try {
    const response = await fetch(D.urls.join, {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code.value.slice(0, 40), nick: nick.value.slice(0, 40) }),
    });
    const body = await response.json();
    if (response.ok && body && typeof body.ticket === "string") enter(body);
    else said.textContent = body && typeof body.error === "string" ? body.error : tr("That did not work: try again.");
  } catch (e) {
    said.textContent = tr("The class could not be reached (the network): try again.");
  }
  go.disabled = false;
}

// --- in the class --------------------------------------------------------------------

/** @param {HallSeat} seat */
async function enter(seat) {
  H.seat = seat;
  byId("hall-join").hidden = true;
  byId("hall-lecture").hidden = false;
  byId("hall-class").textContent = tr("Class {code}: you joined as {nick}. The chart follows the lecturer.", { code: seat.shown, nick: seat.nick });
  document.title = tr("Class {code}: Perceptron Lab", { code: seat.shown });
  const url = new URL(window.location.href);
  url.search = new URLSearchParams({ room: seat.code }).toString();
  window.history.replaceState(null, "", url.href); // the address a classmate may copy
  let found;
  try {
    found = await modules();
  } catch (e) {
    status(tr("This page's code could not be loaded: reload the page."));
    return;
  }
  [H.player, , H.live] = found;
  found[1].default({
    name: "perceptron.card", key: "room_pcard", parentElement: byId("hall-card"),
    data: { url: D.urls.card, ticket: seat.ticket, ringed: true, bar: D.bar, view: { version: "", q: 0, said: "", at: 0 }, words: D.words },
    setStateValue() {}, setTriggerValue() {},
  });
  listen();
  lecture(null);
  window.setInterval(watchChannel, 500);
}

/** The class channel: its "end" part (the class closed, a challenge) asks for the lecture. */
function listen() {
  if (!H.live || !H.seat) return;
  H.live.default({
    name: "perceptron.live", key: "room_channel", parentElement: byId("hall-channel"),
    data: { url: D.urls.live, ticket: H.seat.ticket, topic: "end", shown: H.end },
    setStateValue() {},
    /** @param {string} name */
    setTriggerValue(name) { if (name === "changed") lecture(null); },
  });
}

/** Whether the channel is open; a page without it for a while says it reconnects. */
function watchChannel() {
  const live = window.__perceptronLive;
  // a socket over a Wi-Fi that dropped can look open for minutes: the browser's word first
  const open = navigator.onLine && !!(live && live.ws && live.ws.readyState === 1);
  if (open || H.closed) {
    H.offlineSince = 0;
    if (!H.closed) status("");
    return;
  }
  const now = Date.now();
  if (!H.offlineSince) H.offlineSince = now;
  if (now - H.offlineSince > OFFLINE_AFTER) {
    status(tr("Reconnecting to the class… the lecture stays at the last step you saw."));
  }
}

/**
 * Ask the page's route for the room's lecture (at step t of its run: the next window of a
 * Play; null: the room's own step). One ask at a time: a newer one waits for it.
 * @param {number | null} t
 */
async function lecture(t) {
  if (!H.seat || H.closed) return;
  if (H.fetching) { H.again = { t }; return; }
  H.fetching = true;
  clearTimeout(H.retryTimer);
  const url = new URL(D.urls.lecture, window.location.href);
  url.searchParams.set("ticket", H.seat.ticket);
  if (t !== null) url.searchParams.set("t", String(t));
  if (H.have) url.searchParams.set("have", H.have);
  let retry = false;
  try {
    const response = await fetch(url, { cache: "no-store", credentials: "same-origin" });
    const body = await response.json();
    if (response.ok && body && body.closed === true) {
      ended();
    } else if (response.ok && body && body.step) {
      H.tries = 0;
      show(/** @type {HallLecture} */ (body));
    } else if (response.status === 403) {
      showForm(body && typeof body.error === "string" ? body.error : tr("Join the class again."));
    } else {
      retry = true;
      if (body && typeof body.error === "string") status(body.error);
    }
  } catch (e) {
    retry = true; // the network: the channel's status says so, and this asks again
  }
  H.fetching = false;
  if (H.again) { const next = H.again; H.again = null; lecture(next.t); return; }
  if (retry && H.tries < RETRY.length) {
    H.retryTimer = window.setTimeout(() => lecture(t), RETRY[H.tries]);
    H.tries += 1;
  }
}

/** @param {HallLecture} body */
function show(body) {
  const S = window.__perceptronLecture;
  if (body.scene && S) {
    S.scene = /** @type {LectureScene} */ (body.scene);
    H.have = `${body.step.run}:${body.step.start}`;
  }
  H.explore = body.explore;
  H.stepKey = body.stepKey || H.stepKey;
  const box = byId("hall-challenge");
  box.hidden = !body.challenge;
  if (body.challenge) {
    byId("hall-challenge-head").textContent = body.challenge[0];
    byId("hall-challenge-rest").textContent = body.challenge[1];
    /** @type {HTMLAnchorElement} */ (byId("hall-challenge-go")).href = body.margin;
  }
  if (H.end !== body.end) { H.end = body.end; listen(); }
  if (!H.player) return;
  if (!H.component) {
    H.component = {
      name: "perceptron.lecture", key: "lec_player", data: { ...body.step, words: D.words }, parentElement: byId("hall-player"),
      setStateValue() {},
      setTriggerValue: onPlayer,
    };
  } else {
    H.component.data = { ...body.step, words: D.words };
  }
  H.player.default(H.component);
}

/**
 * What the player asks of its server: the room's lecture (the lecturer changed the run or
 * the question: "live"; the scene went missing: "scene"), or a step outside its window
 * ("at": the next window of the lecturer's Play, or a step of the student's own).
 * @param {string} name @param {any} value
 */
function onPlayer(name, value) {
  if (name === "live") lecture(null);
  else if (name === "scene") { H.have = ""; lecture(null); }
  else if (name === "at" && value && typeof value.t === "number") {
    const d = H.component && H.component.data;
    if (value.follow || !d || value.t < d.start || value.t > d.stop) lecture(Math.max(0, Math.round(value.t)));
    else H.component.data = { ...d, t: value.t, seq: value.seq }; // a step of its own, in the window
  }
}

function ended() {
  H.closed = true;
  byId("hall-ended").hidden = false;
  byId("hall-challenge").hidden = true;
  byId("hall-card").hidden = true;
  status("");
}

/** Explore on my own: the full app at this lecture's data, settings and the step on screen. */
function explore(/** @type {MouseEvent} */ event) {
  const a = /** @type {HTMLAnchorElement} */ (event.currentTarget);
  if (!H.explore) { event.preventDefault(); return; }
  const url = new URL(H.explore, window.location.href);
  const S = window.__perceptronLecture;
  const t = S && typeof S.t === "number" ? S.t : 0;
  if (t > 0) url.searchParams.set(H.stepKey, String(t));
  else url.searchParams.delete(H.stepKey);
  a.href = url.href;
}

// Back online: the channel is opened anew at once (the old socket may be dead without
// knowing it), and the server sends the room's newest state on it
window.addEventListener("online", () => {
  const live = window.__perceptronLive;
  if (live && live.ws) live.ws.close();
  watchChannel();
});
window.addEventListener("offline", watchChannel);
byId("hall-join").addEventListener("submit", onJoin);
byId("hall-explore").addEventListener("click", explore);
if (D.seat) enter(D.seat);
else showForm(D.said);
export {}; // a module: its names are its own
