// The lecture page's player: keyboard shortcuts and the bridge between the
// chart's in-browser replay (Plotly frames) and the server's step t.
//
// - Space plays or pauses. Outside a replay it asks the server for one
//   (trigger "play"); inside, it presses the chart's own Play/Pause buttons.
// - "r" presses Reset (caught before Streamlit's own "r" = rerun).
// - When a replay stops (paused, scrubbed or at its end) the step on show is
//   sent once (trigger "at"), so Step and the math continue from there.
//   Nothing is sent while frames play.
//
// Streamlit calls this function again on every data change and never calls a
// cleanup until unmount, so everything is idempotent: one keydown listener per
// window, one set of chart listeners per chart element.

const state = (window.__perceptronPlayer ||= { speed: null, autoplayed: null });
const SETTLE = 300; // ms without a redraw before an autoplay

function chart() {
  return document.querySelector(`.st-key-${state.data.chart} .js-plotly-plot`);
}

function chartButton(gd, prefix) {
  const items = gd ? gd.querySelectorAll(".updatemenu-button") : [];
  for (const b of items) {
    if (b.textContent.trim().startsWith(prefix)) return b;
  }
  return null;
}

function press(el) {
  el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

function replaying(gd) {
  return Boolean(gd && gd._transitionData && gd._transitionData._frames.length);
}

function play(gd) {
  const b = chartButton(gd, `Play ${state.speed ?? state.data.speed}/`) || chartButton(gd, "Play");
  if (b) press(b);
}

function shownStep(gd) {
  const name = gd._fullLayout && gd._fullLayout._currentFrame;
  if (name !== undefined && name !== null) return Number(name);
  const slider = gd._fullLayout && gd._fullLayout.sliders && gd._fullLayout.sliders[0];
  return slider ? Number(slider.steps[slider.active].label) : null;
}

function report(gd) {
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    if (state.playing) return;
    const t = shownStep(gd);
    if (t === null || Number.isNaN(t)) return;
    const frames = gd._transitionData._frames;
    const last = Number(frames[frames.length - 1].name);
    state.setTrigger("at", { t, end: t === last, nonce: Date.now() });
  }, 350);
}

function hook(gd) {
  if (!gd || gd.__perceptronHooked || typeof gd.on !== "function") return;
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
  return /^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (target && target.isContentEditable);
}

function onKey(event) {
  if (!state.data || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
    return;
  }
  if (event.key === " ") {
    const gd = chart();
    if (!gd) return; // not on the lecture page
    event.preventDefault();
    event.stopPropagation();
    if (!replaying(gd)) {
      state.setTrigger("play", Date.now());
    } else if (state.playing) {
      const b = chartButton(gd, "Pause");
      if (b) press(b);
    } else {
      play(gd);
    }
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
  if (event.key === " " && state.data && chart() && !typing(event.target)) {
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
  // The chart may be drawn after this runs, and Streamlit may redraw it once
  // more right after: a Play pressed before that last redraw leaves an
  // animation running that Pause can no longer stop. So autoplay waits until
  // the chart has not been redrawn for SETTLE ms.
  const started = performance.now();
  const wanted = state.data.autoplay;
  const look = () => {
    const gd = chart();
    if (gd) hook(gd);
    const now = performance.now();
    if (gd && replaying(gd) && !(wanted && state.autoplayed !== wanted)) return;
    if (gd && replaying(gd) && now - (gd.__perceptronDrawn || started) > SETTLE) {
      if (chartButton(gd, "Play")) {
        state.autoplayed = wanted;
        play(gd);
        return;
      }
    }
    if (now - started < 8000) requestAnimationFrame(look);
  };
  look();
}
