"""The hostile corpus through every way text gets in, in a real browser: nothing renders as
a link, an image, a style, an icon, maths or a tag, and the text shows as typed.

Ways in: URL parameter values and names (the notices), an uploaded file's name (sidebar,
lecture status line, a Plotly chart title), a CSV cell quoted in an error, a typed e-mail.
"""

from urllib.parse import quote

import pytest
from hostile_corpus import CORPUS
from playwright.sync_api import Page, expect

from tests.browser.conftest import run_ended, uploader

pytestmark = pytest.mark.browser

# Elements a hostile string would have made, anywhere in the given containers.
MADE = """(selector) => {
  const made = [];
  for (const box of document.querySelectorAll(selector)) {
    for (const el of box.querySelectorAll(
        'a, img, strong, em, code, del, h1, h2, blockquote, li, table, .katex, ' +
        '[data-testid=stIconMaterial], span[style], b, br, script')) {
      made.push(el.tagName + ' ' + (el.outerHTML || '').slice(0, 80));
    }
  }
  return made;
}"""


def shown(text: str) -> str:
    """What a notice shows of ``text``: one line, at most 39 characters before the cut."""
    return " ".join(text.replace("\x00", " ").split())[:30]


def watch_dialogs(page: Page) -> list[str]:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return dialogs


@pytest.mark.parametrize("chunk", range(0, len(CORPUS), 4))
def test_url_values_and_names_show_as_typed(app_url, page, chunk):
    dialogs = watch_dialogs(page)
    texts = CORPUS[chunk : chunk + 4]
    params = ["data_n", "data_seed", "lec_t", "lec_max_epochs"]
    query = "&".join(f"{p}={quote(t)}" for p, t in zip(params, texts, strict=False))
    query += "&" + "&".join(f"{quote(t)}=1" for t in texts[:3])
    page.goto(f"{app_url}/lecture?{query}")
    notices = page.get_by_test_id("stAlertContentWarning")
    expect(notices.first).to_be_visible(timeout=30_000)
    # the page's notices come in one after another, as its run draws them: each is read
    # once the run has ended
    run_ended(page)
    everything = " ".join(notices.all_inner_texts()).replace("\u2060", "")
    flat = " ".join(everything.split())
    for t in texts:
        assert shown(t) in flat, (t, flat[-300:])
    made = page.evaluate(MADE, "[data-testid=stAlertContentWarning]")
    assert made == []
    assert dialogs == []
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_a_hostile_file_name_and_cells_show_as_text_everywhere(app_url, page, tmp_path):
    dialogs = watch_dialogs(page)
    page.goto(f"{app_url}/lecture")
    status = page.locator(".lec .status")  # the lecture player's status line
    expect(status).to_contain_text("Separable", timeout=30_000)
    # a file name has no "/": the tags stay open, the icon is :smile:
    name = "<span style='font-size:80px'>BIG [C](http:evil.invalid) :smile: www.evil.invalid"
    bad = tmp_path / f"{name} bad.csv"
    bad.write_text("x1,x2,y\n1,[x](http://evil.invalid),1\n", encoding="utf-8")
    uploader(page).set_input_files(str(bad))
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text("is not a number", timeout=15_000)
    assert "<span style='font-size:" in error.inner_text()  # the name, as typed
    assert page.evaluate(MADE, "[data-testid=stAlertContentError]") == []
    good = tmp_path / f"{name}.csv"
    good.write_text("x1,x2,y\n1,2,1\n2,1,1\n-1,-1,-1\n-1,1,-1\n", encoding="utf-8")
    uploader(page).set_input_files(str(good))
    expect(status).to_contain_text("BIG", timeout=15_000)
    assert "<span" in status.inner_text()  # the tag shows as typed
    assert page.evaluate(MADE, "[data-testid=stSidebar] [data-testid=stAlertContainer]") == []
    # the name is one text span of the status line: nothing inside it became an element
    name_span = status.locator(".name")
    expect(name_span).to_contain_text("BIG")
    assert name_span.evaluate("e => e.querySelectorAll('*').length") == 0
    assert status.locator("a, img, span[style], b, br, script").count() == 0
    assert dialogs == []
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_a_hostile_name_in_a_plotly_title_stays_text(app_url, page, tmp_path):
    page.goto(f"{app_url}/variants?var_data=shared")  # the page on the sidebar's data
    expect(page.locator(".gtitle").first).to_be_visible(timeout=60_000)
    name = "<a href='http:evil.invalid'>link<span style='font-size:80px'>BIG $x$ %{x}"
    good = tmp_path / f"{name}.csv"
    good.write_text(
        "x1,x2,y\n" + "".join(f"{i % 7 - 3},{i % 5 - 2 + 0.5},{1 if i % 7 > 3 else -1}\n"
                              for i in range(40)),
        encoding="utf-8",
    )  # fmt: skip
    uploader(page).set_input_files(str(good))
    title = page.locator(".gtitle").filter(has_text="BIG $x$")
    expect(title).to_contain_text("<a href='http:evil.invalid'>link<span", timeout=30_000)
    assert page.locator("svg a").count() == 0
    assert page.locator(".gtitle tspan[style*='80px']").count() == 0


def test_a_typed_email_with_every_trick_shows_as_typed(app_url, page):
    dialogs = watch_dialogs(page)
    page.goto(f"{app_url}/spam")
    box = page.get_by_label("Type an e-mail")
    expect(box).to_be_visible(timeout=30_000)
    text = " ".join(t for t in CORPUS if "\n" not in t)[:480]
    box.fill(text)
    box.press("Control+Enter")
    echo = page.get_by_test_id("stMarkdownContainer").filter(has_text="What the filter reads")
    expect(echo).to_contain_text("evil.invalid", timeout=15_000)
    made = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stMarkdownContainer]')]
              .filter(b => b.innerText.includes('What the filter reads'))
              .flatMap(b => [...b.querySelectorAll('a, img, em, code, del, .katex, span[style],'
                 + ' [data-testid=stIconMaterial], h1, blockquote, li, table')])
              .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert made == []  # only the bold of the counted words is markup
    seen = " ".join(echo.inner_text().replace("\u2060", "").split())
    assert " ".join(text.split())[:200] in seen
    assert dialogs == []
