// The lecture page's player: it moves the chart to the server's step, and
// tells the server where an in-browser replay stopped.
//
// The chart carries one Plotly frame per step of a window of the run and does
// not change while the step stays in that window, so Streamlit keeps it as it
// is; a Step then only moves it to frame t here (Plotly.animate, no redraw).
// - Space plays or pauses (the chart's own Play/Pause buttons); "r" presses
//   Reset (caught before Streamlit's own "r" = rerun).
// - When a replay stops (paused, scrubbed or at the end of its window) the
//   step on show is sent once (trigger "at"). Nothing is sent while it plays.
//
// Streamlit calls this function again on every data change and never calls a
// cleanup until unmount, so everything is idempotent: one keydown listener per
// window, one set of chart listeners per chart element.

const state = (window.__perceptronPlayer ||= { speed: null, autoplayed: 0 });
const SETTLE = 300; // ms without a redraw before touching a newly drawn chart
const NOW = { mode: "immediate", frame: { duration: 0, redraw: false }, transition: { duration: 0 } };

function chart() {
  return document.querySelector(`.st-key-${state.data.chart} .js-plotly-plot`);
}

function ready(gd) {
  return Boolean(gd && gd._transitionData && gd._transitionData._frames.length);
}

function chartButton(gd, prefix) {
  for (const b of gd.querySelectorAll(".updatemenu-button")) {
    if (b.textContent.trim().startsWith(prefix)) return b;
  }
  return null;
}

function press(el) {
  if (el) el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

function play(gd) {
  press(chartButton(gd, `Play ${state.speed ?? state.data.speed}/`) || chartButton(gd, "Play"));
}

function shownStep(gd) {
  const name = gd._fullLayout && gd._fullLayout._currentFrame;
  const frames = gd._transitionData._frames;
  return Number(name ?? frames[0].name);
}

function goTo(gd, t) {
  if (shownStep(gd) !== t && window.Plotly && gd._transitionData._frameHash[String(t)]) {
    window.Plotly.animate(gd, [String(t)], NOW);
  }
}

function report(gd) {
  clearTimeout(state.timer);
  const seen = shownStep(gd);
  state.timer = setTimeout(() => {
    const t = shownStep(gd);
    if (state.playing || t !== seen || Number.isNaN(t) || t === state.serverT) return;
    const frames = gd._transitionData._frames;
    const last = Number(frames[frames.length - 1].name);
    state.serverT = t;
    state.setTrigger("at", { t, end: t === last });
  }, 350);
}

function hook(gd) {
  if (gd.__perceptronHooked || typeof gd.on !== "function") return;
  gd.__perceptronHooked = true;
  gd.__perceptronDrawn = performance.now();
  gd.on("plotly_afterplot", () => {
    gd.__perceptronDrawn = performance.now();
  });
  gd.on("plotly_animating", () => {
    state.playing = true;
    clearTimeout(state.timer);
  });
  gd.on("plotly_animated", () => {
    state.playing = false;
    report(gd);
  });
  gd.on("plotly_animationinterrupted", () => {
    state.playing = false;
    report(gd);
  });
  gd.on("plotly_sliderend", () => report(gd));
  gd.on("plotly_buttonclicked", (e) => {
    const m = /^Play (\d+)/.exec(e && e.button && e.button.label);
    if (m) state.speed = m[1];
  });
}

function typing(target) {
  const tag = (target && target.tagName) || "";
  return /^(INPUT|TEXTAREA|SELECT)$/.test(tag) || Boolean(target && target.isContentEditable);
}

function onKey(event) {
  if (!state.data || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
    return;
  }
  if (event.key === " ") {
    const gd = chart();
    if (!ready(gd)) return; // not on the lecture page
    event.preventDefault();
    event.stopPropagation();
    if (state.playing) press(chartButton(gd, "Pause"));
    else play(gd);
  } else if (event.key === "r" || event.key === "R") {
    const reset = document.querySelector(`.st-key-${state.data.reset} button`);
    if (!reset) return; // elsewhere "r" stays Streamlit's rerun
    event.preventDefault();
    event.stopImmediatePropagation();
    press(reset);
  }
}

function onKeyUp(event) {
  // a focused button would also "click" on the release of space
  if (event.key === " " && state.data && ready(chart()) && !typing(event.target)) {
    event.preventDefault();
  }
}

export default function (component) {
  state.data = component.data;
  state.setTrigger = component.setTriggerValue;
  if (!state.listening) {
    state.listening = true;
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("keyup", onKeyUp, true);
  }
  const { t, autoplay } = state.data;
  const started = performance.now();
  const look = () => {
    const gd = chart();
    const now = performance.now();
    if (ready(gd)) {
      const fresh = !gd.__perceptronHooked;
      hook(gd);
      // a chart Streamlit has just drawn may be drawn once more: wait for quiet
      const settled = now - gd.__perceptronDrawn > SETTLE;
      if (!fresh && (settled || state.gd === gd)) {
        const moved = state.serverT !== undefined && t !== state.serverT;
        if (moved || (state.gd !== gd && !state.playing)) {
          // the server moved (Step, Reset, ...) or drew a new window: show its step
          // (a replay the user started on a new chart is left playing)
          goTo(gd, t);
        }
        state.serverT = t;
        state.gd = gd;
        if (autoplay && state.autoplayed !== autoplay) {
          state.autoplayed = autoplay;
          play(gd);
        }
        return;
      }
    }
    if (now - started < 8000) requestAnimationFrame(look);
  };
  look();
}
