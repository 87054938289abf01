"""The proof page on paper: a printed (or saved as PDF) handout with the run's numbers.

While the marker below is on the page, the browser's print (the button, or Ctrl/Cmd+P)
leaves out what means nothing on paper: the sidebar, Streamlit's header and toolbar, the
page's widgets (its sliders, choices, links to other pages, the closed "Why?" and "Every
mistake" boxes, the glossary) and this button; the box of the run's settings is one
sentence; no formula, card or chart is cut by a page break, and no heading (nor the
caption under it) is left at the bottom of a page.

Plotly draws its charts in SVG at the screen's width, in pixels: on paper they are scaled
to the page's width (each SVG gets the view box of its own size while the page prints,
and loses it after, when Plotly may draw it at another size).
"""

from __future__ import annotations

import streamlit as st

from ui.server.internals import testid
from ui.words import t

KEY = "prf_print"  # the button's container: the marker the rules below look for
ON = f"html:has(.st-key-{KEY})"
# the page's widgets, charts and cards (pages/proof.py gives them these keys; the
# lecture's settings shown here have widget keys of the page's own, prefixed prf_)
WIDGETS = (
    "prf_lec_rule_w",
    "prf_lec_w0_w",
    "prf_lec_w0_typed_w",
    "prf_k_w",
    "prf_orders_w",
    "prf_gamma_w",
)
CHARTS = ("prf_slack", "prf_orders_fig")
CARD = "prf_card_"  # a step's bordered box: prf_card_0 ... prf_card_4, prf_card_theorem_*
SETTINGS_BOX = "prf_settings"  # the box of the run's settings: its sentence is kept on paper

_hidden = ", ".join(
    [
        f"{ON} section{testid('stSidebar')}",
        f"{ON} {testid('stExpandSidebarButton')}",
        f"{ON} header{testid('stHeader')}",
        f"{ON} {testid('stExpander')}",
        f"{ON} {testid('stPageLink')}",
        f"{ON} {testid('stElementToolbar')}",
        f"{ON} .modebar-container",  # Plotly's own toolbar
        f"{ON} .st-key-{KEY}",
        f"{ON} .st-key-app_glossary",
        *(f"{ON} .st-key-{w}" for w in WIDGETS),
    ]
)
_charts = ", ".join(f"{ON} .st-key-{c}" for c in CHARTS)
_svg_boxes = ", ".join(f"{ON} .st-key-{c} .svg-container" for c in CHARTS)
_svgs = ", ".join(f"{ON} .st-key-{c} svg.main-svg" for c in CHARTS)

_CSS = f"""
.st-key-{KEY} {{ font-size: 0.875rem; }}
.st-key-{KEY} button {{
  font: inherit; padding: 0.25rem 0.75rem; margin-right: 0.6rem; cursor: pointer;
  border: 1px solid rgba(49, 51, 63, 0.3); border-radius: 0.5rem; background: transparent;
  color: inherit; }}
.st-key-{KEY} button:hover {{ border-color: currentColor; }}
.st-key-{KEY} .note {{ opacity: 0.75; }}
@media print {{
  @page {{ margin: 14mm 12mm; }}
  {_hidden} {{ display: none !important; }}
  {ON} {testid("stMainBlockContainer")} {{
    padding: 0 !important; max-width: none !important; width: 100% !important; }}
  {ON} {testid("stVerticalBlock")} {{ display: block !important; }}
  {ON} {testid("stVerticalBlock")} > * {{ margin-bottom: 0.6rem; }}
  {ON} {testid("stElementContainer")}:has({testid("stHeading")}),
  {ON} {testid("stElementContainer")}:has({testid("stCaptionContainer")}) {{
    break-after: avoid; page-break-after: avoid; }}
  {ON} .st-key-{SETTINGS_BOX} {{ border: 0 !important; padding: 0 !important; }}
  {ON} .st-key-{SETTINGS_BOX} {testid("stHorizontalBlock")} {{ display: block !important; }}
  {ON} .st-key-{SETTINGS_BOX} {testid("stColumn")} {{ width: 100% !important; }}
  {ON} h1, {ON} h2, {ON} h3 {{ break-after: avoid; page-break-after: avoid; }}
  {ON} .katex-display, {ON} .katex, {ON} math, {ON} [class*="st-key-{CARD}"], {_charts} {{
    break-inside: avoid; page-break-inside: avoid; }}
  {_charts} {{ width: 100% !important; }}
  {_svg_boxes} {{
    width: 100% !important; height: auto !important; aspect-ratio: var(--prf-ratio); }}
  {_svgs} {{ width: 100% !important; height: 100% !important; }}
}}
"""

# The button prints the page (the same as Ctrl/Cmd+P); before any print the charts' SVGs
# get their own size as view box, so the print rules above can scale them to the paper.
_JS = """
const FIT = "prfFit";
function fit(on) {
  for (const svg of document.querySelectorAll(".js-plotly-plot svg.main-svg")) {
    if (on) {
      const w = svg.getAttribute("width"), h = svg.getAttribute("height");
      if (!w || !h || svg.hasAttribute("viewBox")) continue;
      svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
      svg.dataset[FIT] = "1";
      const box = svg.closest(".svg-container");
      if (box instanceof HTMLElement) box.style.setProperty("--prf-ratio", `${w} / ${h}`);
    } else if (svg.dataset[FIT]) {
      svg.removeAttribute("viewBox");
      delete svg.dataset[FIT];
    }
  }
}
export default function (component) {
  const data = component.data || {};
  const button = component.parentElement.querySelector("button");
  const note = component.parentElement.querySelector(".note");
  // the words in the reader's language (data), as text: never markup
  if (button && typeof data.label === "string") button.textContent = data.label;
  if (note && typeof data.note === "string") note.textContent = data.note;
  if (button && !button.dataset.ready) {
    button.dataset.ready = "1";
    button.addEventListener("click", () => window.print());
  }
  const w = /** @type {any} */ (window);
  if (w.__prfPrint) return;
  w.__prfPrint = true;
  window.addEventListener("beforeprint", () => fit(true));
  window.addEventListener("afterprint", () => fit(false));
  window.matchMedia("print").addEventListener("change", (e) => fit(e.matches));
}
"""

# the words until the script writes the reader's (print_button's data)
_HTML = (
    '<button type="button">Print this proof</button>'
    '<span class="note">or Ctrl/Cmd+P: a clean handout with this run\u2019s numbers, '
    "without the sidebar, buttons and sliders.</span>"
)

_print = st.components.v2.component(
    "perceptron_proof_print", html=_HTML, css=_CSS, js=_JS, isolate_styles=False
)


def print_button() -> None:
    """The print button, and the print rules while it is on the page; its words in this
    run's language."""
    _print(
        key=KEY,
        data={
            "label": t("Print this proof"),
            "note": t(
                "or Ctrl/Cmd+P: a clean handout with this run\u2019s numbers, without the "
                "sidebar, buttons and sliders."
            ),
        },
    )
