// A student's question card on Step by step, drawn by the page (ui/classmode/card.py):
// the server's run gives the card as it stood; when the live channel (live.js) says the
// room's question changed, the page asks the card's route for it (GET /api/card) and
// draws it, and an answer is posted to the same route, which answers with the card as it
// now stands. No rerun of the page's Streamlit session either way.
//
// Every word comes from the server as text and is drawn as text (textContent), never as
// markup: a question bank's prompt is the lecturer's own writing.

const AGAIN = 400; // ms before asking again for a card the channel says is newer, doubled each time
const TRIES = 5;
const HIDDEN = "perceptron-card-hidden"; // sessionStorage: the questions this tab hid
const KEEP_HIDDEN = 50;

/**
 * @typedef {object} Figure the card's picture in numbers (card.py figure_of)
 * @property {number} span
 * @property {{name: string, at: number[], after: boolean}[]} lines
 * @property {number[]} point
 * @property {boolean} plus
 * @property {string} label
 * @property {string[]} notes
 */

/**
 * @typedef {object} View what card.py's view() gives: words and numbers only
 * @property {string} version the room's card as the channel names it
 * @property {number} q the question's number (0: no card)
 * @property {string} said why the last answer was not counted ("" when it was)
 * @property {number} at when the server made it (its clock, s): the newest is kept
 * @property {number} [vote]
 * @property {boolean} [revealed]
 * @property {string} [head]
 * @property {string} [lead]
 * @property {string} [text]
 * @property {string} [alt]
 * @property {Figure | null} [figure]
 * @property {string} [first]
 * @property {string} [barHead]
 * @property {string} [bar]
 * @property {string} [ask]
 * @property {string[]} [options]
 * @property {number} [picked]
 * @property {string} [counted]
 * @property {string} [turnAsk]
 * @property {string[]} [turns]
 * @property {number} [turnPicked]
 * @property {string} [answer]
 * @property {string[][]} [yours]
 * @property {string} [none]
 * @property {string} [line]
 */

/**
 * @typedef {object} CardData what the server's run sends (card.py page_card)
 * @property {string} url
 * @property {string} ticket
 * @property {boolean} ringed
 * @property {string} bar the pinned bar's key prefix
 * @property {View} view
 * @property {Record<string, string>} [words] this page's words in its language (ui.words.script_words; none: English)
 */

/**
 * @typedef {object} CardState
 * @property {HTMLElement} host
 * @property {CardData} data
 * @property {View} view
 * @property {boolean} fetching
 * @property {boolean} fetchAgain
 * @property {number} tries
 * @property {number} timer
 * @property {string | null} posting the body being posted
 * @property {string | null} queued the next body to post
 * @property {number} turn the turn picked before a choice was (-1: none)
 * @property {number} turnFor the question that turn is of
 * @property {number} barFor the question whose bar slid in already (it slides in once)
 * @property {{q: number, text: string} | null} problem why the last answer to question q was not counted
 * @property {(event: Event) => void} onLive
 */

/** @returns {Set<string>} */
function hidden() {
  try {
    const list = JSON.parse(window.sessionStorage.getItem(HIDDEN) || "[]");
    return new Set(Array.isArray(list) ? list.map(String) : []);
  } catch (e) {
    return new Set();
  }
}

/** @param {string} name */
function hide(name) {
  const list = [...hidden(), name].slice(-KEEP_HIDDEN);
  try { window.sessionStorage.setItem(HIDDEN, JSON.stringify(list)); } catch (e) { /* private mode */ }
}

/**
 * @param {string} tag
 * @param {string} [cls]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** @param {string} bold @param {string} rest */
function para(bold, rest) {
  const p = el("p");
  if (bold) p.append(el("strong", "", bold));
  if (rest) p.append((bold ? " " : "") + rest);
  return p;
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The question's picture: the square around the example, the line, the example.
 * @param {Figure} f @param {string} alt */
function picture(f, alt) {
  const s = f.span;
  const box = svg("svg", { viewBox: `${-s} ${-s} ${2 * s} ${2 * s}`, role: "img", "aria-label": alt });
  const grid = svg("g", { stroke: "#bbb", "stroke-width": 1, "vector-effect": "non-scaling-stroke" });
  grid.append(svg("line", { x1: -s, y1: 0, x2: s, y2: 0, "vector-effect": "non-scaling-stroke" }));
  grid.append(svg("line", { x1: 0, y1: -s, x2: 0, y2: s, "vector-effect": "non-scaling-stroke" }));
  box.append(grid);
  for (const line of f.lines) { // y up: the chart's y is the picture's -y
    const [x1, y1, x2, y2] = line.at;
    box.append(svg("line", {
      x1, y1: -y1, x2, y2: -y2, class: line.after ? "after" : "w", "vector-effect": "non-scaling-stroke",
    }));
  }
  const [px, py] = f.point;
  const r = s * 0.05;
  if (f.plus) {
    box.append(svg("circle", { cx: px, cy: -py, r, class: "plus" }));
  } else {
    const cross = svg("g", { class: "minus" });
    cross.append(svg("line", { x1: px - r, y1: -py - r, x2: px + r, y2: -py + r, "vector-effect": "non-scaling-stroke" }));
    cross.append(svg("line", { x1: px - r, y1: -py + r, x2: px + r, y2: -py - r, "vector-effect": "non-scaling-stroke" }));
    box.append(cross);
  }
  const label = svg("text", { x: px, y: -py - 2 * r, "text-anchor": "middle", "font-size": s * 0.09 });
  label.textContent = f.label;
  box.append(label);
  f.notes.forEach((note, i) => {
    const t = svg("text", { x: -s * 0.96, y: -s * (0.86 - 0.1 * i), "font-size": s * 0.08 });
    t.textContent = note;
    box.append(t);
  });
  const legend = f.lines.map((l) => (l.after ? "- - - " : "—— ") + l.name).join(" · ");
  const wrap = el("div");
  wrap.append(box);
  if (legend) wrap.append(el("p", "pcard-caption", legend));
  return wrap;
}

/**
 * A group of choices, one of them picked at most: radio buttons that say whether each is
 * picked (a mark and aria-checked, never a colour alone), reached with Tab or the arrows.
 * @param {string} label @param {string[]} options @param {number} picked
 * @param {string} name @param {(i: number) => void} choose
 */
function choices(label, options, picked, name, choose) {
  const group = el("div");
  group.setAttribute("role", "radiogroup");
  group.setAttribute("aria-label", label);
  options.forEach((text, i) => {
    const b = /** @type {HTMLButtonElement} */ (el("button"));
    if (i === picked) { // the mark for the eye; aria-checked says it to a screen reader
      const mark = el("span", "", "✓ ");
      mark.setAttribute("aria-hidden", "true");
      b.append(mark);
    }
    b.append(text);
    b.type = "button";
    b.dataset.choice = `${name}${i}`;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", String(i === picked));
    b.addEventListener("click", () => choose(i));
    b.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = group.children[(i + step + options.length) % options.length];
      if (next instanceof HTMLElement) next.focus();
    });
    group.append(b);
  });
  return group;
}

/** @param {CardState} S */
function draw(S) {
  const v = S.view;
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.choice : undefined;
  const root = el("div", "pcard");
  if (S.turnFor !== v.q) { S.turn = -1; S.turnFor = v.q; }
  const gone = !v.q || hidden().has(`${S.data.ticket.split(".")[0]}.${v.q}`);
  document.documentElement.classList.toggle("perceptron-bar-open", !gone && !v.revealed);
  if (gone) {
    S.host.replaceChildren(root);
    return;
  }
  const box = el("div", `pcard-box st-key-room_card_${v.q}`);
  box.append(para(v.head || "", v.lead || ""));
  if (v.text) box.append(el("p", "", v.text));
  if (v.figure) box.append(picture(v.figure, v.alt || ""));
  const problem = v.said || (S.problem && S.problem.q === v.q ? S.problem.text : "");
  if (!v.revealed) {
    if (v.first) box.append(el("p", "pcard-caption", v.first));
    const bar = el("div", `pcard-bar st-key-${S.data.bar}${v.q}${S.barFor === v.q ? " pcard-still" : ""}`);
    S.barFor = v.q;
    bar.append(para(v.barHead || "", v.bar || ""));
    bar.append(choices(v.ask || "", v.options || [], v.picked ?? -1, "said", (i) => answer(S, i, null)));
    const status = el("p", "pcard-caption", v.counted || "");
    status.setAttribute("role", "status");
    bar.append(status);
    if (problem) {
      const said = el("p", "pcard-said", problem);
      said.setAttribute("role", "alert");
      bar.append(said);
    }
    box.append(bar);
    if (v.turns && v.turns.length) {
      const turn = (v.turnPicked ?? -1) >= 0 ? (v.turnPicked ?? -1) : S.turn;
      box.append(el("p", "", v.turnAsk || ""));
      box.append(choices(v.turnAsk || "", v.turns, turn, "turn", (i) => answer(S, null, i === turn ? -1 : i)));
    }
    root.append(box);
  } else {
    const details = /** @type {HTMLDetailsElement} */ (el("details", `st-key-room_done_${v.q}`));
    details.append(el("summary", "", v.line || ""));
    box.append(para(tr("Answer:"), v.answer || ""));
    for (const [name, text] of v.yours || []) box.append(para(`${name}:`, text));
    if (v.none) box.append(el("p", "pcard-caption", v.none));
    const hideButton = /** @type {HTMLButtonElement} */ (el("button", "", tr("Hide this question")));
    hideButton.type = "button";
    hideButton.addEventListener("click", () => {
      hide(`${S.data.ticket.split(".")[0]}.${v.q}`);
      draw(S);
    });
    box.append(hideButton);
    details.append(box);
    root.append(details);
  }
  S.host.replaceChildren(root);
  if (focused) { // a keyboard's place survives the card drawn again
    const again = /** @type {HTMLElement | null} */ (root.querySelector(`[data-choice="${focused}"]`));
    if (again) again.focus();
  }
}

/**
 * Take ``view`` unless the page shows a newer one (a run's card made before an answer's,
 * or a slow answer to an earlier ask); whether it was taken.
 * @param {CardState} S @param {View} view
 */
function keep(S, view) {
  if (typeof view.at === "number" && typeof S.view.at === "number" && view.at < S.view.at) return false;
  S.view = view;
  return true;
}

/** The channel's card, if this page shows another: its version. @returns {string | null} */
function newer(/** @type {CardState} */ S) {
  const live = window.__perceptronLive;
  const want = live && live.last && live.last.state ? live.last.state.card : undefined;
  return typeof want === "string" && want !== S.view.version ? want : null;
}

/** @param {CardState} S */
async function refresh(S) {
  if (S.fetching) { S.fetchAgain = true; return; }
  S.fetching = true;
  clearTimeout(S.timer);
  let ok = false;
  try {
    const url = new URL(S.data.url, window.location.href);
    url.searchParams.set("ticket", S.data.ticket);
    url.searchParams.set("ringed", S.data.ringed ? "1" : "0");
    const want = newer(S); // the version the channel named: the server's recent copy may be it
    if (want !== null) url.searchParams.set("v", want);
    const response = await fetch(url, { cache: "no-store", credentials: "same-origin" });
    const body = await response.json();
    if (response.ok && body && typeof body.version === "string") {
      ok = true;
      if (keep(S, body)) draw(S);
    } else if (response.status === 403) {
      S.tries = TRIES; // the seat opens nothing: the strip's next run says why
    }
  } catch (e) { /* the network: asked again below */ }
  S.fetching = false;
  if (S.fetchAgain) { S.fetchAgain = false; refresh(S); return; }
  if (newer(S) !== null && S.tries < TRIES) { // the store behind the channel, or a failed ask
    S.timer = window.setTimeout(() => refresh(S), AGAIN * 2 ** S.tries);
    S.tries += 1;
  } else if (ok) {
    S.tries = 0;
  }
}

/**
 * An answer: the choice ``said`` (null: the one picked) and the turn ``turn`` (null: the
 * one picked; -1: none). A turn before a choice waits for the choice.
 * @param {CardState} S @param {number | null} said @param {number | null} turn
 */
function answer(S, said, turn) {
  const v = S.view;
  const choice = said ?? (v.picked ?? -1);
  const way = turn ?? ((v.turnPicked ?? -1) >= 0 ? (v.turnPicked ?? -1) : S.turn);
  if (turn !== null) S.turn = turn;
  if (choice < 0) { draw(S); return; } // the turn is kept until a choice is made
  S.view = { ...v, picked: choice, turnPicked: way };
  draw(S);
  const body = JSON.stringify({
    ticket: S.data.ticket, q: v.q, vote: v.vote || 1, said: choice, turn: way >= 0 ? way : null, ringed: S.data.ringed,
  });
  if (S.posting !== null) { S.queued = body; return; }
  post(S, body);
}

/** @param {CardState} S @param {string} body */
async function post(S, body) {
  S.posting = body;
  try {
    const response = await fetch(S.data.url, {
      method: "POST", body, headers: { "Content-Type": "application/json" }, credentials: "same-origin",
    });
    const got = await response.json();
    if (response.ok && got && typeof got.version === "string") {
      keep(S, got);
      S.problem = null;
    } else {
      const text = got && typeof got.error === "string" ? got.error : tr("Your answer was not counted: answer again.");
      S.problem = { q: S.view.q, text };
    }
  } catch (e) {
    S.problem = { q: S.view.q, text: tr("Your answer could not be sent (the network): answer again.") };
  }
  S.posting = null;
  draw(S);
  const next = S.queued;
  S.queued = null;
  if (next !== null) post(S, next);
  else if (S.problem !== null || newer(S) !== null) refresh(S); // the card as counted
}

/** @param {StreamlitComponent<CardData>} component */
export default function (component) {
  const data = component.data;
  const root = component.parentElement;
  if (!data || !data.view) return;
  setWords(data.words);
  let host = /** @type {HTMLElement | null} */ (root.querySelector(".pcard-host"));
  if (!host) {
    host = el("div", "pcard-host");
    root.append(host);
  }
  const known = /** @type {{__pcard?: CardState}} */ (/** @type {unknown} */ (host)).__pcard;
  /** @type {CardState} */
  const S = known || {
    host, data, view: data.view, fetching: false, fetchAgain: false, tries: 0, timer: 0,
    posting: null, queued: null, turn: -1, turnFor: 0, barFor: 0, problem: null, onLive: () => {},
  };
  if (known) {
    S.data = data;
    if (S.posting === null) keep(S, data.view); // an answer on its way keeps what was clicked
  } else {
    /** @type {{__pcard?: CardState}} */ (/** @type {unknown} */ (host)).__pcard = S;
  }
  window.removeEventListener("perceptron-live", S.onLive);
  S.onLive = () => { if (newer(S) !== null) { S.tries = 0; refresh(S); } };
  window.addEventListener("perceptron-live", S.onLive);
  draw(S);
  if (newer(S) !== null) refresh(S);
  return () => {
    window.removeEventListener("perceptron-live", S.onLive);
    document.documentElement.classList.remove("perceptron-bar-open");
  };
}
