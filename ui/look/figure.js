// Saving a chart the page draws as SVG: the same <svg> element, as a file of its own (SVG)
// or as a picture at twice its size (PNG, for projectors). Drawn by nothing but the page's
// own code, so a slide and the lecture never differ.
//
// This file is a plain script, not a module: Python puts its text in front of each
// component that draws an SVG (ui/lecture/player.py, ui/margin/canvas.py), which calls
// figureSave. Its names all start with "figure". On the live page figure_fonts.js follows
// the component's module and lends the PNG the page's fonts.
//
// The file must look the same wherever it is opened, so nothing in it depends on a
// stylesheet: each element gets what the page's CSS gives it as presentation attributes
// (read with getComputedStyle), and the classes go. A white background, a <title> and a
// <desc> (the chart's text alternative) and the legend the page shows under the chart are
// added. Outside text (a dataset's name) only ever enters as textContent; the file is
// written by XMLSerializer, never by gluing strings.

/**
 * A legend entry under the chart: its text, its colour, and a small picture of its own
 * (the margin lab's swatches), cloned as it is drawn.
 * @typedef {object} FigureKey
 * @property {string} text
 * @property {string} color
 * @property {SVGSVGElement} [swatch]
 */

/**
 * @typedef {object} FigureSpec
 * @property {string} title the file's <title>
 * @property {string} desc the file's <desc>: the chart in words
 * @property {FigureKey[]} legend
 * @property {number} font the legend's font size, CSS px
 */

/**
 * The file, built: its root element and its size in CSS px (the PNG is twice that).
 * @typedef {object} Figure
 * @property {SVGSVGElement} svg
 * @property {number} width
 * @property {number} height
 */

const FIGURE_NS = "http://www.w3.org/2000/svg";
// What a stylesheet gives a chart's elements. The inherited ones are written where they
// differ from the parent's; the others where they differ from SVG's initial value.
const FIGURE_INHERITED = [
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity",
  "stroke-linecap", "stroke-linejoin", "paint-order", "font-family", "font-size", "font-weight",
  "font-style", "text-anchor", "visibility",
];
/** @type {Record<string, string>} */
const FIGURE_OWN = { opacity: "1", display: "inline", "dominant-baseline": "auto" };
const FIGURE_PNG_SCALE = 2; // device pixels per CSS px in the PNG, whatever the screen's

/**
 * The element's computed look as attributes on its copy; its class and inline style go.
 * @param {Element} live @param {Element} copy @param {CSSStyleDeclaration | null} parent
 * @returns {CSSStyleDeclaration}
 */
function figureInline(live, copy, parent) {
  const cs = getComputedStyle(live);
  for (const prop of FIGURE_INHERITED) {
    const value = cs.getPropertyValue(prop);
    if (value && (!parent || parent.getPropertyValue(prop) !== value)) copy.setAttribute(prop, value);
  }
  for (const [prop, initial] of Object.entries(FIGURE_OWN)) {
    const value = cs.getPropertyValue(prop);
    if (value && value !== initial) copy.setAttribute(prop, value);
  }
  copy.removeAttribute("class");
  copy.removeAttribute("style");
  return cs;
}

/**
 * A copy of `live` with its look inlined, element by element (the two trees have the same
 * shape, walked together).
 * @param {Element} live @param {Element} copy @param {CSSStyleDeclaration | null} parent
 */
function figureInlineTree(live, copy, parent) {
  const cs = figureInline(live, copy, parent);
  const a = live.children, b = copy.children;
  for (let j = 0; j < a.length && j < b.length; j++) figureInlineTree(a[j], b[j], cs);
}

/** @type {CanvasRenderingContext2D | null | undefined} */
let figureMeasurer;

/** @param {string} text @param {string} font a CSS font @returns {number} */
function figureTextWidth(text, font) {
  if (figureMeasurer === undefined) figureMeasurer = document.createElement("canvas").getContext("2d");
  if (!figureMeasurer) return text.length * 9;
  figureMeasurer.font = font;
  return figureMeasurer.measureText(text).width;
}

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag @param {Record<string, string | number>} attrs @param {Node} parent @param {string} [text]
 * @returns {SVGElementTagNameMap[K]}
 */
function figureEl(tag, attrs, parent, text) {
  const node = document.createElementNS(FIGURE_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

/**
 * The file for the chart `live` (an <svg> on the page): its copy with the look inlined, a
 * white background, a title and a description, and the legend under it, in rows that wrap
 * at the chart's width. Its size is the chart's on screen (CSS px) plus the legend's rows.
 * A chart drawn in layers (SVGs stacked over ``live``, the same size) gives them as
 * ``layers``: each goes into the file as an SVG inside it, in their order.
 * @param {SVGSVGElement} live @param {FigureSpec} spec @param {SVGSVGElement[]} [layers]
 * @returns {Figure}
 */
function figureSvg(live, spec, layers = []) {
  const box = live.getBoundingClientRect();
  const vb = live.viewBox && live.viewBox.baseVal && live.viewBox.baseVal.width
    ? live.viewBox.baseVal
    : { x: 0, y: 0, width: box.width, height: box.height };
  const unit = vb.width / (box.width || vb.width); // the chart's units per CSS px
  const svg = /** @type {SVGSVGElement} */ (live.cloneNode(true));
  figureInlineTree(live, svg, null);
  for (const attr of ["role", "aria-label", "tabindex"]) svg.removeAttribute(attr);
  for (const name of Object.keys(svg.dataset)) delete svg.dataset[name];
  svg.setAttribute("xmlns", FIGURE_NS);
  for (const layer of layers) {
    const copy = /** @type {SVGSVGElement} */ (layer.cloneNode(true));
    figureInlineTree(layer, copy, null);
    copy.removeAttribute("aria-hidden");
    for (const [k, v] of Object.entries({ x: vb.x, y: vb.y, width: vb.width, height: vb.height })) copy.setAttribute(k, String(v));
    svg.appendChild(copy);
  }

  // the legend, in the chart's units: rows of swatch (or coloured glyph) and text
  const family = getComputedStyle(live).fontFamily || "sans-serif";
  const px = spec.font * unit;
  const row = 1.5 * px, gap = 1.2 * px, pad = 0.6 * px;
  const legend = document.createElementNS(FIGURE_NS, "g");
  legend.setAttribute("id", "figure-legend");
  legend.setAttribute("font-family", family);
  legend.setAttribute("font-size", String(px));
  let x = pad, y = vb.height + pad + px;
  for (const key of spec.legend) {
    const sw = key.swatch ? key.swatch.getBoundingClientRect() : null;
    const swW = sw ? sw.width * unit : 0, swH = sw ? sw.height * unit : 0;
    const w = swW + (sw ? 0.25 * px : 0) + figureTextWidth(key.text, `${spec.font}px ${family}`) * unit;
    if (x > pad && x + w > vb.width - pad) { x = pad; y += row; }
    if (key.swatch && sw) {
      const icon = /** @type {SVGSVGElement} */ (key.swatch.cloneNode(true));
      figureInlineTree(key.swatch, icon, null);
      icon.removeAttribute("aria-hidden");
      for (const [k, v] of Object.entries({ x, y: y - 0.35 * px - swH / 2, width: swW, height: swH })) icon.setAttribute(k, String(v));
      legend.appendChild(icon);
    }
    figureEl("text", { x: x + swW + (sw ? 0.25 * px : 0), y, fill: key.color }, legend, key.text);
    x += w + gap;
  }
  const extra = spec.legend.length ? y + 0.6 * px - vb.height : 0;
  const width = vb.width / unit, height = (vb.height + extra) / unit;
  svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.width} ${vb.height + extra}`);
  svg.setAttribute("width", String(+width.toFixed(2)));
  svg.setAttribute("height", String(+height.toFixed(2)));

  const first = svg.firstChild;
  svg.insertBefore(figureEl("title", {}, document.createDocumentFragment(), spec.title), first);
  svg.insertBefore(figureEl("desc", {}, document.createDocumentFragment(), spec.desc), first);
  const bg = figureEl("rect", { id: "figure-background", x: vb.x, y: vb.y, width: vb.width, height: vb.height + extra, fill: "#ffffff" }, document.createDocumentFragment());
  svg.insertBefore(bg, first);
  if (spec.legend.length) svg.appendChild(legend);
  return { svg, width, height };
}

/** @param {Figure} fig @returns {string} the file's text */
function figureText(fig) {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(fig.svg) + "\n";
}

/**
 * Where the PNG gets the page's fonts: figure_fonts.js on the live page; the lecture's
 * offline file, which fetches nothing, gives its inline @font-face (ui/lecture/export.py).
 * @type {{fonts?: (family: string) => Promise<string>}}
 */
const figureHooks = {};

/**
 * The file as a picture, decoded, for a canvas (the PNG, a clip's frames), with `css` (the
 * page's font, or "") inside it.
 * @param {Figure} fig @param {string} css @returns {Promise<HTMLImageElement>}
 */
async function figureImage(fig, css) {
  const svg = /** @type {SVGSVGElement} */ (fig.svg.cloneNode(true));
  if (css) {
    const style = document.createElementNS(FIGURE_NS, "style");
    style.textContent = css;
    svg.insertBefore(style, svg.querySelector("#figure-background"));
  }
  const img = new Image();
  // a data: URL, not a blob: one: the offline file's Content-Security-Policy allows only it
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(figureText({ ...fig, svg }));
  await img.decode();
  return img;
}

/**
 * The PNG: the file drawn on a canvas at FIGURE_PNG_SCALE device pixels per CSS px, with
 * the page's font carried inside it.
 * @param {Figure} fig @returns {Promise<Blob>}
 */
async function figurePng(fig) {
  const family = fig.svg.getAttribute("font-family") || "sans-serif";
  const img = await figureImage(fig, figureHooks.fonts ? await figureHooks.fonts(family) : "");
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(fig.width * FIGURE_PNG_SCALE);
  canvas.height = Math.round(fig.height * FIGURE_PNG_SCALE);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no canvas");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no PNG"))), "image/png");
  });
}

/**
 * Save `blob` as the file `name` (letters, digits and hyphens, then its extension), in the
 * browser: no server round trip.
 * @param {Blob} blob @param {string} stem @param {"svg" | "png" | "webm" | "gif"} ext
 */
function figureDownload(blob, stem, ext) {
  const safe = stem.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "figure";
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${safe}.${ext}`;
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/**
 * Save the chart `live` as `fmt`; resolves to the file's size in bytes and, for a PNG, its
 * pixels. @param {SVGSVGElement} live @param {FigureSpec} spec @param {string} stem
 * @param {"svg" | "png"} fmt @param {SVGSVGElement[]} [layers] its layers (figureSvg)
 * @returns {Promise<{bytes: number, width: number, height: number}>}
 */
async function figureSave(live, spec, stem, fmt, layers = []) {
  const fig = figureSvg(live, spec, layers);
  const blob = fmt === "svg"
    ? new Blob([figureText(fig)], { type: "image/svg+xml" })
    : await figurePng(fig);
  figureDownload(blob, stem, fmt);
  const k = fmt === "png" ? FIGURE_PNG_SCALE : 1;
  return { bytes: blob.size, width: Math.round(fig.width * k), height: Math.round(fig.height * k) };
}
