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

//
// The player is five files, joined in this order: player_types.js, player_chart.js,
// player_moves.js, player_follow.js (plain scripts) and this module, whose default export is
// Streamlit's entry point.

/** @param {StreamlitComponent<PlayerStep>} component */
function mount(component) {
  const { parentElement, setTriggerValue } = component;
  const step = component.data;
  S.setTrigger = setTriggerValue;
  S.mounts = (S.mounts || 0) + 1; // the server answered (confirmStep, askAgain)
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
  const prevWords = S.data ? S.data.words : undefined;
  setWords(data.words); // the words of this session's language, sent with each step
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
  if (fresh || !S.wrap || !root.contains(S.wrap) || prevPresenter !== data.presenter || prevFollowing !== followingNow || JSON.stringify(prevWords) !== JSON.stringify(data.words)) {
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
