// The page's fonts for a PNG of a chart (figure.js): an SVG drawn as an image loads
// nothing, so without them its text would fall back to another font, wider than the one
// the chart's labels were measured in. A plain script, put after the live components'
// modules (ui/look/figure.py); the lecture's offline file goes without it.

/** @type {Map<string, Promise<string>>} */
const figureFonts = new Map();

/**
 * The page's @font-face rules of `family` with their fonts as data: URLs, read once a page;
 * "" when there are none (a system font).
 * @param {string} family a computed font-family @returns {Promise<string>}
 */
figureHooks.fonts = function (family) {
  const name = family.split(",")[0].trim().replace(/^["']|["']$/g, "");
  const known = figureFonts.get(name);
  if (known) return known;
  /** @type {Promise<string>[]} */
  const faces = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { continue; } // another origin's: not ours to read
    for (const rule of Array.from(rules)) {
      if (!(rule instanceof CSSFontFaceRule)) continue;
      const style = rule.style;
      if (style.getPropertyValue("font-family").trim().replace(/^["']|["']$/g, "") !== name) continue;
      const src = /url\(\s*["']?([^"')]+)["']?\s*\)/.exec(style.getPropertyValue("src"));
      if (!src) continue;
      const url = new URL(src[1], sheet.href || document.baseURI).href;
      const weight = style.getPropertyValue("font-weight") || "normal";
      const fstyle = style.getPropertyValue("font-style") || "normal";
      faces.push(fetch(url).then((r) => r.blob()).then((blob) => new Promise((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(`@font-face { font-family: "${name.replace(/["\\]/g, "")}"; src: url(${reader.result}); font-weight: ${weight}; font-style: ${fstyle}; }\n`);
        reader.onerror = () => resolve("");
        reader.readAsDataURL(blob);
      })).catch(() => ""));
    }
  }
  const all = Promise.all(faces).then((css) => css.join(""));
  figureFonts.set(name, all);
  return all;
};
