"""Every page in the pseudo-locale (?lang=pseudo: each catalogued string 40 % longer and
between ⟦ and ⟧), on a 390×844 phone and in presenter mode at 1280×720: no word on
screen outside the markers (a string that skipped the catalogue), no text cut by its box,
no text over another, nothing wider than the screen.

Set aside, as no word of the app's: Streamlit's own chrome (its tool bar and status, which
Streamlit does not translate), Material icons (their names are ligatures), maths (KaTeX),
code, inputs, what the page marks translate="no" (Streamlit's icons), and the few words every
language writes the same (file formats, units): ``SAME``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.devices import STICKING_OUT, screens
from perceptron_core.datasets import SPAM_MORE_WORDS
from tests.browser.conftest import run_ended
from ui.shell import PAGES

pytestmark = pytest.mark.browser

SAME = {"SVG", "PNG", "CSV", "GIF", "WebM", "PDF", "px", "kB", "QR", "URL", "Ctrl", "Esc"}
# the spam filter's vocabulary is data, not words of the app's: it counts English words
SAME |= {*SPAM_MORE_WORDS, "BIAS"}
# the text a person reads, leaf by leaf: each element's own text (its text nodes and its
# inline children's), skipping what is no word of the app's; and the leaves whose text is
# cut by a box that hides its overflow, and the pairs of leaves drawn over each other
READ = r"""(scope) => {
  const SKIP = '[data-testid=stToolbar], [data-testid=stStatusWidget], [data-testid=stHeader],'
    + ' [data-testid=stDecoration], [data-testid=stIconMaterial], .katex, .katex-display,'
    + ' .katex-mathml, math, code, pre, script, style, textarea, input, .modebar, [translate=no],'
    // Streamlit's own words in its file uploader (Streamlit does not translate them)
    + ' [data-testid=stFileUploaderDropzoneInstructions],'
    + ' [data-testid=stFileUploaderDropzone] button';
  // a Material icon is its name in a ligature font: no word
  const icon = (el) => /Material/.test(getComputedStyle(el).fontFamily);
  const INLINE = new Set(['B', 'STRONG', 'EM', 'I', 'A', 'SPAN', 'CODE', 'SMALL', 'SUB', 'SUP',
    'BR', 'WBR', 'MARK', 'ABBR', 'TSPAN']);
  // where an element's text is drawn (its contents' box, not a block's full width)
  const textBox = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect();
  };
  // drawn: a box of its own, not hidden, and not clipped away by a box that hides overflow
  // (a folded block, a closed expander)
  const shown = (el) => {
    if (el.closest(SKIP)) return false;
    const closed = el.closest('details:not([open])'); // a closed expander lays out its inside
    if (closed && !(el.closest('summary') && closed.contains(el.closest('summary')))) return false;
    const r = textBox(el);
    if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || +cs.opacity === 0) return false;
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const ac = getComputedStyle(a);
      if (+ac.opacity === 0) return false;
      if (ac.overflowX === 'visible' && ac.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) {
        // scrolled out of a box that scrolls (Streamlit's main area) still counts
        if (!/(auto|scroll)/.test(ac.overflowY + ac.overflowX)) return false;
      }
    }
    return true;
  };
  // an element's own text: its text nodes and its inline children's, but what SKIP sets aside
  const ownText = (node) => {
    let own = '';
    for (const n of node.childNodes) {
      if (n.nodeType === 3) own += n.textContent;
      else if (n.nodeType === 1 && INLINE.has(n.tagName) && !n.matches(SKIP) && !icon(n))
        own += ownText(n);
    }
    return own;
  };
  const leaves = [];
  for (const root of document.querySelectorAll(scope)) {
    for (const el of root.querySelectorAll('*')) {
      if (INLINE.has(el.tagName) && el.parentElement && !el.parentElement.matches(scope)) continue;
      const own = ownText(el);
      if (!/[A-Za-z]{2}|⟦|⟧/.test(own) || icon(el) || !shown(el)) continue;
      leaves.push(el);
      el.__own = own;
    }
  }
  const text = leaves.map((el) => el.__own.replace(/\s+/g, ' ').trim());
  const cut = leaves.filter((el) => {
    if (el.closest('svg')) return false;
    const cs = getComputedStyle(el);
    const hides = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
    return hides && el.scrollWidth > el.clientWidth + 1;
  }).map((el) => el.__own.slice(0, 60));
  const boxes = leaves
    .filter((el) => !el.closest('svg') && !el.closest('[data-testid=stPopoverBody]'))
    .map((el) => [el, textBox(el)]);
  const over = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i], [b, rb] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (x > 2 && y > 2) over.push([a.__own.slice(0, 40), b.__own.slice(0, 40)]);
  }
  return { text, cut, over };
}"""
_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[A-Za-z]{2,}")


def unmarked(texts: list[str]) -> list[str]:
    """The texts on screen (in the page's order) with words outside every ⟦…⟧, each with
    the words: the markers are matched across texts (a message may span a list's items) and
    innermost first (a message may hold another in a placeholder); ``SAME``'s words and
    file names aside."""
    text = "\n".join(texts)
    while _MARKED.search(text):
        text = _MARKED.sub(" ", text)
    text = re.sub(r"[\w.-]+\.(svg|png|csv|gif|webm|pdf|html)\b", " ", text)
    found = []
    for line in text.split("\n"):
        said = [w for w in _WORD.findall(line) if w not in SAME]
        if said:
            found.append(f"{line.strip()[:80]} -> {said[:8]}")
    return found


def test_unmarked_finds_the_words_outside_the_markers():
    assert unmarked(["⟦Step t = 3 of 9····⟧"]) == []
    assert unmarked(["⟦Using your data: ⟦Four points··⟧ (4 points)··⟧"]) == []
    assert unmarked(["⟦Start with w = 0.", "An example arrives.··⟧"]) == []  # a list's items
    assert unmarked(["Step ⟦t = 3⟧ of 9"]) == ["Step   of 9 -> ['Step', 'of']"]
    assert unmarked(["⟦Saved perceptron-step-3.svg: 10 kB⟧", "Copy link"]) == [
        "Copy link -> ['Copy', 'link']"
    ]


PLACES = {
    "phone": (
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
        "",
    ),
    "projector": ({"viewport": {"width": 1280, "height": 720}}, "&app_presenter=1"),
}


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.url_path or "home")
def test_every_word_on_the_page_went_through_the_catalogue(app_url, browser, spec, place):
    options, presenter = PLACES[place]
    context = browser.new_context(**options)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{spec.url_path}?lang=pseudo{presenter}")
        expect(page.get_by_test_id("stMainBlockContainer")).to_be_visible(timeout=60_000)
        run_ended(page, 60_000)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.wait_for_timeout(2_000)  # the components' first draw (the margin lab's numbers)
        scope = "[data-testid=stMain]" + ("" if presenter else ", [data-testid=stSidebar]")
        # a component draws its words once its code has loaded: read until the page's
        # words stand still for half a second (at most 15 s)
        before: list[str] | None = None
        for _ in range(30):
            read = page.evaluate(READ, "[data-testid=stMain]")
            found = unmarked(read["text"])
            if read["text"] == before and not found:
                break
            before = read["text"]
            page.wait_for_timeout(500)
        name = f"pseudo-{spec.url_path or 'home'}-{place}"
        screens(page, name)
        assert not found, f"{len(found)} texts with words outside the catalogue: {found[:20]}"
        assert not read["cut"], f"text cut by its box: {read['cut'][:10]}"
        assert not read["over"], f"text over other text: {read['over'][:10]}"
        fit = page.evaluate(STICKING_OUT)
        assert fit["sideways"] == 0, fit
        if not presenter:  # the sidebar, opened as a student opens it
            page.get_by_test_id("stExpandSidebarButton").click()
            expect(page.get_by_test_id("stSidebar")).to_be_visible()
            side = page.evaluate(READ, scope.split(", ")[1])
            found = unmarked(side["text"])
            assert not found, f"sidebar: {len(found)} texts outside the catalogue: {found[:20]}"
            assert not side["cut"], f"sidebar text cut: {side['cut'][:10]}"
    finally:
        context.close()
