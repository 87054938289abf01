// How the live page posts a student's own step to its server (ui/live/reports.py): only the
// Streamlit component carries this (ui/lecture/player.py), after player.js. The offline
// file fetches nothing, so its player never posts.

/** @type {NonNullable<Lecture["postStep"]>} */
const postStep = (url, body) => fetch(url, {
  method: "POST", body, headers: { "Content-Type": "text/plain" }, credentials: "same-origin",
}).then((r) => r.status);
/** @type {Lecture} */ (window.__perceptronLecture).postStep = postStep;
