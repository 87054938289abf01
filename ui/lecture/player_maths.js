// The lecture player's maths: the step's prediction and update, written in MathML. A plain
// script joined after player_chart.js (ui/lecture/player.py joins player_types.js,
// player_chart.js, player_maths.js, player_moves.js, player_follow.js and player.js in
// that order): its names are the player's, shared with the files around it.

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

/** @param {HTMLElement} live the maths' box @param {StepView} v @param {PlayerData} d */
function writeMaths(live, v, d) {
  const box = document.createElement("div");
  mathsInto(box, v, d);
  morph(live, box);
}

/** @param {HTMLElement} box @param {StepView} v @param {PlayerData} d */
function mathsInto(box, v, d) {
  const q = /** @type {MathOfStep} */ (v.math); // t > 0 (t = 0 returns first, with MathAtStart)
  if (!v.t) {
    h("p", { class: "hint" }, box, tr("Press Step ▶ (or →) to show the first example to the perceptron."));
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
  m("mtext", row, "\u00A0" + (q.mistake ? tr("mistake") : q.rule ? tr("no mistake") : tr("correct")));
  if (q.rule) { // a tie: only the rule decides, so it is named, in words that wrap on a phone
    const said = q.mistake ? tr("A tie (w·x = 0): by the rule “{rule}” this is a mistake.", { rule: q.rule }) : tr("A tie (w·x = 0): by the rule “{rule}” this is no mistake.", { rule: q.rule });
    h("p", { class: "tie" }, box, said);
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
