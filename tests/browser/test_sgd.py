"""The SGD page in a real browser: the E_p landscape with the path, the losses, the three
learning rates and the online / mini-batch / batch comparison."""

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES
from perceptron_core import make_dataset, train
from tests.browser.conftest import CHARTS_MS, fits_and_scrolls_past, open_page
from ui.look.numbers import number, vector_text

pytestmark = pytest.mark.browser


def test_sgd_page_shows_the_landscape_the_learning_rates_and_the_batches(app_url, page, screenshot):
    open_page(page, app_url + "/sgd", "The perceptron as SGD")
    X, y = make_dataset("separable", n=40, seed=0)  # the sidebar's default, used without bias
    run = train(X, y, bias=False, max_epochs=30)
    expect(page.get_by_text(f"{run.n_mistakes} updates, converged after")).to_be_visible()
    for eta in (0.1, 1, 10):  # from w0 = 0: the same mistakes, w scaled by eta
        w = train(X, y, bias=False, max_epochs=30, eta=eta).w
        assert w == pytest.approx(eta * run.w)
        shown = f"η = {number(eta)}: {run.n_mistakes} mistakes, w = {vector_text(w)}"
        expect(page.get_by_text(shown)).to_be_visible()
    expect(page.get_by_text("same mistakes at the same steps")).to_be_visible()
    from_start = [train(X, y, bias=False, max_epochs=30, w0=[2, 2], eta=e) for e in (0.1, 1, 10)]
    counts = ", ".join(str(t.n_mistakes) for t in from_start[:2])
    expect(page.get_by_text(f"{counts} and {from_start[2].n_mistakes} mistakes")).to_be_visible()
    # landscape, E_p along the path, losses and steps, 3 + 3 learning-rate panels, mistakes
    # and updates per epoch, three paths
    expect(page.locator(".js-plotly-plot")).to_have_count(13, timeout=CHARTS_MS)
    expect(page.get_by_text("Eₚ = 0: no mistake").first).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    for name, heading in (
        ("sgd", "1. The landscape"),
        ("sgd-losses", "2. One update"),
        ("sgd-eta", "3. The learning rate"),
        ("sgd-start", "From a non-zero start"),
        ("sgd-batches", "4. Online, mini-batch and batch"),
    ):
        top = "e => e.scrollIntoView({block: 'start'})"
        page.get_by_role("heading", name=heading).evaluate(top)
        page.wait_for_timeout(300)
        screenshot(name)
    # a student picks XOR in the sidebar's dataset box: no line separates it
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="XOR").click()
    expect(page.get_by_text("No line separates them at all, even with a bias")).to_be_visible(
        timeout=30_000
    )
    expect(page.get_by_text("not converged in 30 epochs").first).to_be_visible()  # section 1
    page.get_by_role("heading", name="4. Online, mini-batch and batch").evaluate(top)
    page.wait_for_timeout(500)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot("sgd-xor-batches")


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(on_device, device):
    """The wheel or a finger over the E_p landscape scrolls the page."""
    page = on_device(device, "/sgd", 13)
    fits_and_scrolls_past(page, device, "sgd", ".st-key-sgd_landscape .js-plotly-plot")
