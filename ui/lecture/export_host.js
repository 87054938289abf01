// The offline file's host (ui/lecture/export.py puts it after the player's module): no server,
// every step in one window; its words are tr's (words.js, in front of the player), in the
// language of the session that made the file (meta.words). The semicolon ends the player's
// `const mountPlayer = function ... }` before the call.
;(async () => {
  const byId = (id) => document.getElementById(id);
  const put = (id, text) => { byId(id).textContent = text; };
  const meta = JSON.parse(byId("run-meta").textContent || "{}");
  setWords(meta.words); // the language of the session that made the file (words.js)
  document.title = tr("{name}: the perceptron, step by step", { name: meta.name });
  put("about-data", tr("Data: {name}: {points} points.", { name: meta.name, points: meta.points }));
  put("about-settings", tr("Settings: {settings}.", { settings: meta.settings }));
  put("about-made", tr("Made with Perceptron Lab {version} on {day}. It plays from this file alone, with no network.", { version: meta.version, day: meta.exported }));
  if (meta.cut) { put("about-cut", meta.cut); byId("about-cut").hidden = false; }
  if (typeof meta.link === "string" && /^https?:\/\//.test(meta.link)) {
    const a = byId("about-link-a");
    a.href = meta.link;
    a.textContent = meta.link;
    byId("about-link").hidden = false;
  }
  let scene;
  try {
    const packed = (byId("run-scene").textContent || "").trim();
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    scene = JSON.parse(await new Response(stream).text());
  } catch (error) {
    put("about-error", tr("This browser cannot open the run in this file: it needs Chrome or Edge 80, Firefox 113 or Safari 16.4, or newer."));
    byId("about-error").hidden = false;
    return;
  }
  const first = scene.start, last = scene.stop;
  const clamp = (t) => Math.max(first, Math.min(last, Math.round(t)));
  const n = (v) => spoken(v.toLocaleString("en"));
  // ?lec_t= opens the file at a step, as the live page's links do ("Copy link" writes it)
  const asked = new URLSearchParams(window.location.search).get("lec_t");
  const opening = asked !== null && /^\d+$/.test(asked) ? Number(asked) : meta.t;
  const component = {
    name: "perceptron.lecture",
    key: "lec_player",
    data: {
      t: clamp(opening), seq: 0, run: scene.run, start: first, stop: last, presenter: false,
      play: 0, asked: null, summary: meta.summary, lead: false, along: null, words: meta.words,
    },
    parentElement: byId("player"),
    setStateValue() {},
    setTriggerValue(name, value) {
      if (name === "at" && value && typeof value.t === "number") {
        // the server would take the step; here it is the step, kept within the file
        const t = clamp(value.t);
        component.data = { ...component.data, t, seq: value.seq };
        if (t !== value.t) {
          setTimeout(() => {
            mountPlayer(component);
            say(tr("This file holds steps {first} to {last} of {T}; the live app has the rest.", { first: n(first), last: n(last), T: n(scene.T) }));
          }, 0);
        }
      } else if (name === "presenter" && value && typeof value.on === "boolean") {
        component.data = { ...component.data, presenter: value.on };
        document.documentElement.classList.toggle("presenter", value.on);
        setTimeout(() => mountPlayer(component), 0);
      }
    },
  };
  // Save figure's PNG and a clip's frames draw the chart with the file's own font
  figureHooks.fonts = async () => byId("file-font").textContent || "";
  S.scene = scene;
  mountPlayer(component);
})();
