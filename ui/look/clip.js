// Recording a range of steps as a clip: a plain script that goes in front of a component's
// module, after figure.js (ui/look/clip.py). Each frame is the file figure.js saves (the
// chart the page draws, its look inlined), drawn on a canvas of the clip's size. WebM: the
// canvas as a stream, one frame asked for per step and held for the step's time
// (MediaRecorder, in the browser). GIF: each frame reduced to 256 colours and written with
// the step's delay (gifenc, vendored: GIFENC). Nothing leaves the browser.

const CLIP_MAX_FRAMES = 60; // a clip's frames at most: a minute's GIF would be megabytes
const CLIP_WIDTHS = [640, 960, 1280]; // px: a slide's, a course page's, a projector's

/**
 * @typedef {object} ClipSpec
 * @property {number[]} steps the steps, a frame each (at most CLIP_MAX_FRAMES are kept)
 * @property {number} rate frames a second
 * @property {number} width the clip's width in px (one of CLIP_WIDTHS; its height keeps the chart's shape)
 * @property {"webm" | "gif"} fmt
 * @property {(t: number) => Figure} frame the figure at step t
 */

/** @param {number} ms @returns {Promise<void>} */
function clipSleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @returns {string | undefined} a WebM type this browser records, if any */
function clipWebmType() {
  if (typeof MediaRecorder === "undefined") return undefined;
  return ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"].find((t) => MediaRecorder.isTypeSupported(t));
}

/**
 * Record `spec.steps` as a clip. @param {ClipSpec} spec
 * @returns {Promise<{blob: Blob, frames: number, width: number, height: number}>}
 */
async function clipRecord(spec) {
  const steps = spec.steps.slice(0, CLIP_MAX_FRAMES);
  const width = CLIP_WIDTHS.includes(spec.width) ? spec.width : CLIP_WIDTHS[0];
  const first = spec.frame(steps[0]);
  const height = 2 * Math.round((width * first.height) / first.width / 2); // even: video codecs want it
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d", { willReadFrequently: spec.fmt === "gif" });
  if (!ctx) throw new Error("no canvas");
  const family = first.svg.getAttribute("font-family") || "sans-serif";
  const css = figureHooks.fonts ? await figureHooks.fonts(family) : "";
  /** @param {Figure} fig */
  const draw = async (fig) => {
    const img = await figureImage(fig, css);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(img, 0, 0, width, height);
  };
  const delay = Math.round(1000 / spec.rate);
  if (spec.fmt === "gif") {
    const gif = GIFENC.GIFEncoder();
    for (let i = 0; i < steps.length; i++) {
      await draw(i === 0 ? first : spec.frame(steps[i]));
      const { data } = ctx.getImageData(0, 0, width, height);
      const palette = GIFENC.quantize(data, 256);
      gif.writeFrame(GIFENC.applyPalette(data, palette), width, height, { palette, delay });
    }
    gif.finish();
    return { blob: new Blob([gif.bytes()], { type: "image/gif" }), frames: steps.length, width, height };
  }
  const type = clipWebmType();
  if (!type) throw new Error("no WebM recorder");
  const stream = canvas.captureStream(0); // 0: a frame only when asked for (requestFrame)
  const track = /** @type {MediaStreamTrack & {requestFrame: () => void}} */ (stream.getVideoTracks()[0]);
  const recorder = new MediaRecorder(stream, { mimeType: type });
  /** @type {Blob[]} */
  const chunks = [];
  recorder.ondataavailable = (event) => { if (event.data.size) chunks.push(event.data); };
  const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
  await draw(first);
  recorder.start();
  for (let i = 0; i < steps.length; i++) {
    if (i) await draw(spec.frame(steps[i]));
    track.requestFrame();
    await clipSleep(delay); // the step's time on screen: the video plays at the chosen speed
  }
  recorder.stop();
  await stopped;
  track.stop();
  return { blob: new Blob(chunks, { type: "video/webm" }), frames: steps.length, width, height };
}
