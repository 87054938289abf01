"""Every page in the pseudo-locale (?lang=pseudo: each catalogued string 40 % longer and
between ⟦ and ⟧), on a 390×844 phone and in presenter mode at 1280×720: no word on
screen outside the markers (a string that skipped the catalogue), no text cut by its box,
no text over another, nothing wider than the screen.

Set aside, as no word of the app's: Streamlit's own chrome (its tool bar and status, which
Streamlit does not translate), Material icons (their names are ligatures), maths (KaTeX),
code, and the few words every language writes the same (file formats, units): ``SAME``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.devices import STICKING_OUT, screens
from tests.browser.conftest import run_ended
from ui.shell import PAGES

pytestmark = pytest.mark.browser

SAME = {"SVG", "PNG", "CSV", "GIF", "WebM", "PDF", "px", "kB", "QR", "URL", "Ctrl", "Esc"}
# the text a person reads, leaf by leaf: each element's own text (its text nodes and its
# inline children's), skipping what is no word of the app's; and the leaves whose text is
# cut by a box that hides its overflow, and the pairs of leaves drawn over each other
READ = r"""(scope) => {
  const SKIP = '[data-testid=stToolbar], [data-testid=stStatusWidget], [data-testid=stHeader],'
    + ' [data-testid=stDecoration], [data-testid=stIconMaterial], .material-symbols-rounded,'
    + ' .katex, code, pre, script, style, .modebar, [aria-hidden=true] .katex';
  const INLINE = new Set(['B', 'STRONG', 'EM', 'I', 'A', 'SPAN', 'CODE', 'SMALL', 'SUB', 'SUP',
    'BR', 'WBR', 'MARK', 'ABBR', 'TSPAN']);
  const shown = (el) => {
    if (el.closest(SKIP)) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && +cs.opacity !== 0;
  };
  const leaves = [];
  for (const root of document.querySelectorAll(scope)) {
    for (const el of root.querySelectorAll('*')) {
      if (INLINE.has(el.tagName) && el.parentElement && !el.parentElement.matches(scope)) continue;
      let own = '';
      for (const n of el.childNodes) {
        if (n.nodeType === 3) own += n.textContent;
        else if (n.nodeType === 1 && INLINE.has(n.tagName) && !n.closest(SKIP))
          own += n.textContent;
      }
      if (!/[A-Za-z]{2}|⟦/.test(own) || !shown(el)) continue;
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
    .map((el) => [el, el.getBoundingClientRect()]);
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


def unmarked(text: str) -> list[str]:
    """The words of ``text`` outside every ⟦…⟧ (innermost first: a message may hold another
    in a placeholder), but for ``SAME``'s and file names."""
    while _MARKED.search(text):
        text = _MARKED.sub(" ", text)
    text = re.sub(r"[\w.-]+\.(svg|png|csv|gif|webm|pdf|html)\b", " ", text)
    return [w for w in _WORD.findall(text) if w not in SAME]


def test_unmarked_finds_the_words_outside_the_markers():
    assert unmarked("⟦Step t = 3 of 9····⟧") == []
    assert unmarked("⟦Using your data: ⟦Four points··⟧ (4 points)··⟧") == []
    assert unmarked("Step ⟦t = 3⟧ of 9") == ["Step", "of"]
    assert unmarked("⟦Saved perceptron-step-3.svg: 10 kB⟧ Copy link") == ["Copy", "link"]


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
        expect(page.locator("h1").first).to_be_visible(timeout=60_000)
        run_ended(page, 60_000)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.wait_for_timeout(500)  # the components' first draw
        scope = "[data-testid=stMain]" + ("" if presenter else ", [data-testid=stSidebar]")
        read = page.evaluate(READ, "[data-testid=stMain]")
        found = [(t, w) for t in read["text"] if (w := unmarked(t))]
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
            found = [(t, w) for t in side["text"] if (w := unmarked(t))]
            assert not found, f"sidebar: {len(found)} texts outside the catalogue: {found[:20]}"
            assert not side["cut"], f"sidebar text cut: {side['cut'][:10]}"
    finally:
        context.close()
