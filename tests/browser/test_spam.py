"""The spam page in a real browser: the trained weights, a typed hostile e-mail shown as
text (no element, no dialog), its features and verdict."""

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES
from perceptron_core import spam_features, train
from tests.browser.conftest import CHARTS_MS, fits_and_scrolls_past, metric, open_page
from ui.look.numbers import number

pytestmark = pytest.mark.browser
HOSTILE = "<img src=x onerror=alert(1)> FREE money <script>alert(2)</script>"


def test_spam_page_trains_and_shows_a_typed_e_mail_as_text(app_url, page, screenshot):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_page(page, app_url + "/spam", "Example: a spam filter")
    X, y = spam_features()
    w = train(X, y, bias=True, max_epochs=50).w
    for name, value in zip(("free", "money", "BIAS"), w, strict=True):
        expect(metric(page, f"w[{name}]")).to_have_text(number(value), timeout=30_000)
    expect(page.locator(".js-plotly-plot")).to_have_count(1, timeout=CHARTS_MS)

    box = page.get_by_label("Type an e-mail")
    box.fill(HOSTILE)
    box.press("Control+Enter")
    page.get_by_text("What the filter reads").scroll_into_view_if_needed()
    echo = page.get_by_text("What the filter reads").locator("xpath=..")
    expect(echo).to_contain_text(HOSTILE, timeout=20_000)  # as typed
    a = float(w @ [1.0, 1.0, 1.0])  # one "free", one "money", BIAS
    verdict = "spam" if a > 0 else "not spam"
    expect(page.get_by_text(f"w·x = {number(a)}", exact=False).last).to_contain_text(verdict)
    # the typed HTML made no element and ran nothing
    main = page.get_by_test_id("stMain")
    expect(main.locator("img[src='x']")).to_have_count(0)
    expect(main.locator("script")).to_have_count(0)
    assert dialogs == []
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.wait_for_timeout(500)
    screenshot("spam")  # the typed e-mail, its features and verdict
    page.locator(".js-plotly-plot").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    screenshot("spam-weights")


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(on_device, device):
    """The wheel or a finger over the weights scrolls the page."""
    page = on_device(device, "/spam", 1)
    fits_and_scrolls_past(page, device, "spam", ".js-plotly-plot")
