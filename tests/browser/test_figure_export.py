"""Save figure in a real browser: the lecture's chart and the margin lab's picture saved as
SVG and PNG (2×), each compared with the chart on the page it was drawn from.

The SVG is the page's own <svg> with its look written on every element, plus a white
background, a title, a description and the legend the page shows under the chart; without
those four it has the same elements and the same texts as the chart on the page. The PNG is
that file drawn at twice its size in CSS px. The saved files go to
tests/browser/screenshots/ to look at.
"""

import io
import re
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from browser.test_lecture import expect_step, open_lecture, status, status_t
from tests.browser.conftest import CHARTS_MS, SCREENSHOTS, open_page, uploader
from ui.look.palette import PLUS

pytestmark = pytest.mark.browser

ADDED = {"figure-background", "figure-legend"}  # what the file adds to the chart, by id
CHART = ".lec .fig"
MARGIN = ".mlab .surface > svg"


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def parse(markup: str) -> ET.Element:
    # the page's outerHTML writes a no-break space as HTML's entity, which XML has not
    return ET.fromstring(markup.replace("&nbsp;", "&#160;"))


def without_additions(root: ET.Element) -> ET.Element:
    """The file's root with what it adds to the chart taken out: its own <title> and
    <desc> (the first two children), the background and the legend."""
    for child in list(root):
        if child.get("id") in ADDED:
            root.remove(child)
    kids = list(root)
    assert [local(k.tag) for k in kids[:2]] == ["title", "desc"]
    root.remove(kids[0])
    root.remove(kids[1])
    return root


def tags(root: ET.Element) -> Counter:
    return Counter(local(e.tag) for e in root.iter())


def texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter() if local(e.tag) == "text"]


def save(page: Page, open_menu, choice, name: str):
    """Click through to a format and return the download's bytes, after checking its
    name; a copy goes to the screenshots to look at."""
    open_menu()
    with page.expect_download() as info:
        choice()
    download = info.value
    assert download.suggested_filename == name
    with open(download.path(), "rb") as file:
        data = file.read()
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"figure-{name}").write_bytes(data)
    return data


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def near(a, b, tol: int = 40) -> bool:
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a, b, strict=False))


def assert_picture(png: bytes, width: float, height: float) -> Image.Image:
    """A PNG twice ``width`` × ``height`` (CSS px), with something drawn in it."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert abs(image.width - 2 * width) <= 1 and abs(image.height - 2 * height) <= 1, (
        image.size,
        width,
        height,
    )
    pixels = np.asarray(image.resize((image.width // 4, image.height // 4))).reshape(-1, 3)
    colours = len(np.unique(pixels, axis=0))
    inked = float((pixels != 255).any(axis=1).mean())
    assert colours > 50, colours  # text, lines, points in several colours: not one flat fill
    assert 0.02 < inked < 0.9, inked  # a white background with a chart on it
    return image


# the focused element's data-act, inside the component's shadow root
FOCUSED = """() => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a && a.dataset.act; }"""


def open_save_menu(page: Page):
    def go():
        page.locator('.lec .save summary[data-act="save"]').click()
        expect(page.locator('.lec button[data-act="save-svg"]')).to_be_visible()

    return go


def save_chart(page, t: int):
    """The lecture's chart at step ``t`` saved as SVG (parsed) and PNG (bytes), from the
    player's Save figure menu."""
    files = []
    for kind in ("svg", "png"):
        files.append(
            save(
                page,
                open_save_menu(page),
                lambda kind=kind: page.locator(f'.lec button[data-act="save-{kind}"]').click(),
                f"perceptron-step-{t}.{kind}",
            )
        )
    return ET.fromstring(files[0]), files[1]


def test_lecture_svg_has_the_charts_elements_and_texts_and_its_look_inlined(app_url, page):
    open_lecture(page, app_url, "?lec_t=12")
    expect_step(page, 12)
    live_markup, legend = page.locator(CHART).evaluate(
        """fig => [fig.outerHTML, [...fig.getRootNode().querySelectorAll('.lec .legend span')]
                                  .map(s => s.textContent)]"""
    )
    name = page.locator(".lec .status .name").inner_text()
    said = page.locator(CHART).get_attribute("aria-label")
    data = save(
        page,
        open_save_menu(page),
        lambda: page.locator('.lec button[data-act="save-svg"]').click(),
        "perceptron-step-12.svg",
    )
    text = data.decode("utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"  # xmlns: a file of its own
    box = page.locator(CHART).bounding_box()
    assert float(root.get("width")) == pytest.approx(box["width"], abs=1)
    assert float(root.get("height")) > box["height"]  # the legend's rows under the chart
    title, desc = list(root)[:2]
    assert title.text == f"The perceptron on {name}: step t = 12 of {expect_total(page)}"
    assert desc.text == said and "points" in said  # the chart in words, as a screen reader has it
    (legend_g,) = [g for g in root if g.get("id") == "figure-legend"]
    assert texts(legend_g) == legend and len(legend) >= 8
    background = root.find("{http://www.w3.org/2000/svg}rect")
    assert background.get("id") == "figure-background" and background.get("fill") == "#ffffff"

    # no stylesheet needed: no class, no <style>; the look is on the elements
    assert not [e for e in root.iter() if e.get("class") is not None]
    assert "style" not in tags(root)
    plus = [e for e in root.iter() if local(e.tag) == "circle" and e.get("fill") == css_rgb(PLUS)]
    assert plus, "no +1 point drawn in the +1 colour"
    assert root.get("font-family") and root.get("font-size") == "13px"

    chart = without_additions(root)
    live = parse(live_markup)  # the chart's box, its layers inside
    assert tags(chart) == tags(live) - Counter({"div": 1})  # the layers, each an <svg>
    assert texts(chart) == texts(live)
    assert "t = 12 · k = " in " ".join(texts(live))  # the step's stamp: what is compared is real
    assert sum(tags(live).values()) > 100


def expect_total(page: Page) -> int:
    return int(re.search(r"step t = [\d,]+ of ([\d,]+)", status(page).inner_text())[1])


def css_rgb(hex_colour: str) -> str:
    return "rgb({}, {}, {})".format(*rgb(hex_colour))


def test_lecture_png_is_twice_the_chart_and_shows_it(app_url, page):
    open_lecture(page, app_url, "?lec_t=30")
    expect_step(page, 30)
    box = page.locator(CHART).bounding_box()
    # where the +1 points are on the page, in the chart's CSS px
    centres = page.locator(CHART).evaluate(
        """fig => [...fig.querySelectorAll('.points circle.plus')].map(
             c => [+c.getAttribute('cx'), +c.getAttribute('cy')])"""
    )
    svg, png = save_chart(page, 30)
    image = assert_picture(png, box["width"], float(svg.get("height")))
    assert abs(image.width - 2 * box["width"]) <= 1
    # the picture is the chart at 2×: each +1 point's centre is drawn in the +1 colour
    hits = sum(near(image.getpixel((round(2 * x), round(2 * y))), rgb(PLUS)) for x, y in centres)
    assert len(centres) >= 10 and hits >= 0.8 * len(centres), (hits, len(centres))
    expect(page.locator(".lec .note")).to_contain_text("perceptron-step-30.png")


def test_save_figure_is_reached_and_used_with_the_keyboard(app_url, page):
    open_lecture(page, app_url, "?lec_t=3")
    summary = page.locator('.lec .save summary[data-act="save"]')
    expect(summary).to_have_text(re.compile("Save figure"))
    summary.focus()
    page.keyboard.press("Enter")  # a disclosure: Enter opens it
    expect(page.locator('.lec button[data-act="save-png"]')).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "figure-save-menu.png"))
    page.keyboard.press("Escape")  # and Escape closes it, the focus back on it
    expect(page.locator('.lec button[data-act="save-png"]')).to_be_hidden()
    assert page.evaluate(FOCUSED) == "save"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # into the menu: SVG first
    with page.expect_download() as info:
        page.keyboard.press("Enter")
    assert info.value.suggested_filename == "perceptron-step-3.svg"
    expect(page.locator('.lec button[data-act="save-png"]')).to_be_hidden()  # closed after


def test_a_hostile_dataset_name_is_text_in_the_file(app_url, page, tmp_path):
    hostile = "<img src=x onerror=alert(1)>&"
    page.goto(app_url + "/lecture")
    expect(status(page)).to_contain_text("Separable", timeout=30_000)
    path = tmp_path / f"{hostile}.csv"
    path.write_text("x1,x2,y\n1,2,1\n-1,-2,-1\n2,2,1\n-2,-1,-1\n", encoding="utf-8")
    uploader(page).set_input_files(str(path))
    expect(status(page)).to_contain_text(f"{hostile}.csv", timeout=15_000)
    data = save(
        page,
        open_save_menu(page),
        lambda: page.locator('.lec button[data-act="save-svg"]').click(),
        f"perceptron-step-{status_t(page)}.svg",
    )
    root = ET.fromstring(data)  # well-formed: the name did not break out of its text
    assert f"{hostile}.csv" in root[0].text
    assert not {"img", "script", "foreignObject"} & set(tags(root))
    assert b"<img" not in data


def test_margin_lab_saves_its_picture_as_svg_and_png(app_url, page):
    page.goto(f"{app_url}/margin")
    expect(page.locator(".pt").first).to_be_visible(timeout=30_000)
    surface = page.locator(MARGIN)
    surface.scroll_into_view_if_needed()
    n = surface.locator(".pt").count()
    box = surface.bounding_box()
    live, legend = surface.evaluate(
        """svg => [svg.outerHTML, [...svg.getRootNode().querySelectorAll('.legend span')]
                                  .map(s => s.textContent)]"""
    )
    stem = f"perceptron-margin-{n}-points"
    data = save(
        page,
        lambda: None,
        lambda: page.locator(".mlab .save button", has_text="SVG").click(),
        f"{stem}.svg",
    )
    root = ET.fromstring(data)
    assert float(root.get("width")) == pytest.approx(box["width"], abs=1)
    (legend_g,) = [g for g in root if g.get("id") == "figure-legend"]
    assert texts(legend_g) == legend and len(legend) == 8
    assert tags(legend_g)["svg"] == 8  # each entry's swatch, as the page draws it
    chart = without_additions(root)
    page_chart = parse(live)
    assert tags(chart) == tags(page_chart)
    assert texts(chart) == texts(page_chart)
    png = save(
        page,
        lambda: None,
        lambda: page.locator(".mlab .save button", has_text="PNG").click(),
        f"{stem}.png",
    )
    assert_picture(png, box["width"], float(root.get("height")))
    expect(page.locator(".mlab .save .saved")).to_contain_text(f"{stem}.png")
    page.locator(".mlab .save").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "figure-margin-save-row.png"))


def test_xor_cycle_chart_saves_a_png_at_twice_its_size(app_url, page):
    """Plotly's own camera button, with the page's name and scale (``plots.saved_as``)."""
    open_page(page, app_url + "/xor", "Beyond linear: XOR")
    chart = page.locator(".st-key-xor_curves_0 .js-plotly-plot")
    expect(chart).to_be_visible(timeout=CHARTS_MS)
    chart.scroll_into_view_if_needed()
    chart.hover()
    camera = chart.locator('.modebar-btn[data-title="Download plot as a PNG"]')
    png = save(page, lambda: None, camera.click, "perceptron-xor-mistakes-per-epoch.png")
    assert_picture(png, 640, 400)  # figures.CURVE_SAVED, at 2×


def test_the_offline_file_saves_its_figure_too(app_url, page, browser, tmp_path):
    """The lecture's downloaded run carries Save figure (without the page's fonts: it
    fetches nothing, and its Content-Security-Policy lets the PNG's data: image through)."""
    from browser.test_lecture_export import download_from_live_page

    path = download_from_live_page(page, app_url, tmp_path)
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 720})
    try:
        off = context.new_page()
        asked: list[str] = []
        off.on("request", lambda r: asked.append(r.url))
        off.goto(path.as_uri() + "?lec_t=7")
        expect(off.locator(".lec .fig")).to_be_visible()
        box = off.locator(CHART).bounding_box()
        svg, png = save_chart(off, 7)
        assert_picture(png, box["width"], float(svg.get("height")))
        assert all(u.startswith(("file:", "data:", "blob:")) for u in asked), asked
    finally:
        context.close()
