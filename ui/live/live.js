// The class's live channel in the browser (ui/live/route.py): one websocket per page, kept
// across the strip's reruns in window.__perceptronLive, reconnected by itself.
//
// Each message is the room's whole state. It is handed to the rest of the page as a
// "perceptron-live" event (the lecture's instrument draws the lecturer's step and rings the
// question's example itself; Step by step's question card asks its route for the card,
// card.js), and when the class strip is no longer the room's, it asks for a rerun of
// itself (a fragment): the server is asked for a run only when something new must be
// drawn. The page says which state it shows ({"seen": id}) when it reconnects and every
// SEEN_EVERY ms, and is sent the newest if that is not it. Outside text is never drawn
// here: the channel carries numbers and versions only.

const SEEN_EVERY = 20000; // ms between the page's {"seen": id}
const MAX_WAIT = 10000; // ms: the longest wait before reconnecting
const MAX_MESSAGE = 4096; // bytes: a longer message is not the server's
// An ask for a part's rerun can be lost (Streamlit drops a fragment's rerun that arrives
// while a whole page's run has not drawn the fragment yet): with no redraw of that part at
// all within ASK_AGAIN ms, it is asked again, twice as long each time, at most ASK_TRIES times.
const ASK_AGAIN = 2000; // ms
const ASK_TRIES = 4;

/**
 * @typedef {object} Strip a part of the page (a fragment), as it last drew it
 * @property {string} topic the room state's field it shows ("strip" or "end")
 * @property {string} shown that field's version as drawn
 * @property {number} notice how many of its notices it has said (the strip's; -1: a part without)
 * @property {string | null} asked the version a rerun was asked for already
 * @property {number} askedNotice the notice a rerun was asked for already
 * @property {(name: string, value: unknown) => void} trigger
 * @property {number} draws its redraws so far
 * @property {{draws: number, at: number, wait: number, tries: number, value: number} | null} ask its last ask
 * @property {boolean} gone unmounted (another page): not asked until it is drawn again
 */

/**
 * @typedef {object} Live
 * @property {WebSocket | null} ws
 * @property {string} url the channel's path
 * @property {string} ticket
 * @property {string} room the ticket's room: another room opens another channel
 * @property {number} seen the id of the newest state received
 * @property {number} retry reconnections since the last open
 * @property {number} timer
 * @property {number} nudge the newest notice a fragment asked the strip to say
 * @property {{id: number, sent: number, state: Record<string, unknown>} | null} last
 * @property {Record<string, Strip>} parts the parts of the page, by topic
 * @property {boolean} started
 */

const L = /** @type {Live} */ (window.__perceptronLive ||= /** @type {Live} */ ({
  ws: null, url: "", ticket: "", room: "", seen: 0, retry: 0, timer: 0, nudge: 0, last: null, parts: {}, started: false,
}));

function connect() {
  clearTimeout(L.timer);
  if (!L.url || !L.ticket) return;
  if (L.ws && L.ws.readyState <= 1) return; // connecting or open
  const url = new URL(L.url, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("ticket", L.ticket);
  url.searchParams.set("seen", String(L.seen));
  const ws = new WebSocket(url);
  L.ws = ws;
  ws.onopen = () => { L.retry = 0; };
  ws.onmessage = (event) => {
    if (typeof event.data !== "string" || event.data.length > MAX_MESSAGE) return;
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (!message || typeof message.id !== "number" || !message.state || typeof message.state !== "object") return;
    L.seen = message.id;
    L.last = message;
    window.dispatchEvent(new CustomEvent("perceptron-live", { detail: message }));
    check();
  };
  ws.onclose = (event) => {
    if (L.ws !== ws) return;
    L.ws = null;
    // 4403: the ticket opens nothing (the class ended, another server's): the strip's next
    // run brings a new one. Anything else: again, a little later each time, never in step
    // with the rest of the room
    const wait = event.code === 4403 ? MAX_WAIT : Math.min(MAX_WAIT, 500 * 2 ** L.retry);
    L.retry += 1;
    L.timer = window.setTimeout(connect, wait * (0.5 + Math.random()));
  };
}

function check() {
  for (const s of Object.values(L.parts)) {
    if (s.gone) continue;
    const now = L.last ? L.last.state[s.topic] : undefined;
    if (typeof now === "string" && now !== s.shown && now !== s.asked) {
      s.asked = now;
      askPart(s, L.seen);
    } else if (s.notice >= 0 && L.nudge > s.notice && L.nudge !== s.askedNotice) {
      s.askedNotice = L.nudge;
      askPart(s, -L.nudge);
    }
  }
}

/** @param {Strip} s @param {number} value the state's id, or minus the notice's number */
function askPart(s, value) {
  s.trigger("changed", value);
  s.ask = { draws: s.draws, at: Date.now(), wait: ASK_AGAIN, tries: 1, value };
}

function askAgain() {
  for (const s of Object.values(L.parts)) {
    const a = s.ask;
    if (!a || s.gone || a.draws !== s.draws || Date.now() - a.at < a.wait) continue;
    if (a.tries >= ASK_TRIES) { s.ask = null; continue; }
    s.trigger("changed", a.value);
    s.ask = { ...a, at: Date.now(), wait: 2 * a.wait, tries: a.tries + 1 };
  }
}

/** @param {{data?: any, setTriggerValue: (name: string, value: unknown) => void}} component */
export default function (component) {
  const d = component.data || {};
  if (typeof d.nudge === "number") { // another fragment: the strip has something to say
    L.nudge = Math.max(L.nudge, d.nudge);
    check();
    return;
  }
  if (typeof d.url !== "string" || typeof d.ticket !== "string") return;
  const room = d.ticket.split(".")[0];
  const topic = String(d.topic);
  const part = "strip"; // it shows "strip" or "end", one at a time
  const old = L.parts[part];
  L.parts[part] = {
    topic, shown: String(d.shown), notice: typeof d.notice === "number" ? d.notice : -1,
    // a rerun that drew what it was asked for, or older: not asked again for the same
    asked: old && old.topic === topic ? old.asked : null,
    askedNotice: old ? old.askedNotice : 0,
    trigger: component.setTriggerValue,
    // its server answered: an ask is not asked again (askAgain)
    draws: old ? old.draws + 1 : 1,
    ask: old ? old.ask : null,
    gone: false,
  };
  const mine = L.parts[part];
  L.url = d.url;
  L.ticket = d.ticket;
  if (room !== L.room) { // another class: its own channel
    L.room = room;
    L.seen = 0;
    L.last = null;
    if (L.ws) { const ws = L.ws; L.ws = null; ws.close(); }
  }
  if (!L.started) {
    L.started = true;
    window.setInterval(() => {
      if (L.ws && L.ws.readyState === 1) L.ws.send(JSON.stringify({ seen: L.seen }));
    }, SEEN_EVERY);
    window.setInterval(askAgain, 500);
  }
  connect();
  check();
  return () => { mine.gone = true; }; // its fragment left the page
}
