// The words a component shows, in the session's language: tr("Copy link") looks the
// message up in the words the page sent (data.words, made from the catalogue by
// ui.words.script_words) and falls back to the English message itself. {name} in a
// message is filled from `values`. A plain script that goes in front of a component's
// code: its names are the component's.

/** @type {Record<string, string>} */
let WORDS = {};
// how this page's language writes a number: its decimal sign and its grouping (the words'
// "#decimal" and "#group", which script_words sends with them)
let DECIMAL = ".", GROUP = ",";

/**
 * Mark a message for the catalogue where it is defined (a table built before the page's
 * words arrive); tr() translates it where it is shown.
 * @template {string} T
 * @param {T} message
 * @returns {T}
 */
function N_(message) {
  return message;
}

/**
 * The words of this page's language (an object of message: translation; anything else:
 * English).
 * @param {unknown} words
 */
function setWords(words) {
  WORDS = words && typeof words === "object" && !Array.isArray(words) ? /** @type {Record<string, string>} */ (words) : {};
  DECIMAL = typeof WORDS["#decimal"] === "string" ? WORDS["#decimal"] : ".";
  GROUP = typeof WORDS["#group"] === "string" ? WORDS["#group"] : ",";
}

/**
 * A number written in English ("5,940.5", "0.49") as this page's language writes it:
 * "0,49" in French, German and Spanish, their grouping ("5 940", "5.940").
 * @param {string | number} text
 * @returns {string}
 */
function spoken(text) {
  const s = String(text);
  if (DECIMAL === ".") return s;
  return s.replace(/[.,]/g, (c) => (c === "." ? DECIMAL : GROUP));
}

/**
 * `message` in this page's language, its {name}s filled from `values`.
 * @param {string} message
 * @param {Record<string, string | number>} [values]
 * @returns {string}
 */
function tr(message, values) {
  const said = Object.prototype.hasOwnProperty.call(WORDS, message) && typeof WORDS[message] === "string" ? WORDS[message] : message;
  if (!values) return said;
  return said.replace(/\{(\w+)\}/g, (whole, name) => (Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole));
}

/**
 * Say the words of the HTML under `root` in this page's language: an element's data-tr is
 * the message of its text (its last text node: an icon before it stays), data-tr-label
 * the message of its aria-label.
 * @param {ParentNode} root
 */
function translate(root) {
  for (const el of root.querySelectorAll("[data-tr]")) {
    const said = tr(el.getAttribute("data-tr") || "");
    const last = Array.from(el.childNodes).reverse().find((n) => n.nodeType === Node.TEXT_NODE);
    if (!last) el.append(said);
    else if (last.textContent !== said) last.textContent = said;
  }
  for (const el of root.querySelectorAll("[data-tr-label]")) {
    const said = tr(el.getAttribute("data-tr-label") || "");
    if (el.getAttribute("aria-label") !== said) el.setAttribute("aria-label", said);
  }
}

/**
 * A light page's Language switch (the select `id`): the same page again in the language
 * chosen, as ?lang=, its other parameters kept (the remote's key stays in the address's
 * fragment).
 * @param {string} id
 */
function languageSwitch(id) {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById(id));
  if (!select) return;
  select.addEventListener("change", () => {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", select.value);
    window.location.assign(url.toString());
  });
}
