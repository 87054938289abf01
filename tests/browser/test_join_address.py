"""The join address in real browsers: a lecturer who opens the app at ``localhost``, as
Streamlit suggests, gets a QR code and address the phones in the room can open, or a
warning in plain words where the QR code would be.

Each test starts its own server: one listening on every interface (a lecture laptop
started with ``--server.address 0.0.0.0``) and one on loopback only. Neither has
``PERCEPTRON_PUBLIC_URL``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from browser.devices import DEVICES
from tests.browser.classroom import key, main, sidebar, sidebar_link
from tests.browser.conftest import run_ended
from tools import streamlit_server
from ui.classmode.address import network_address

pytestmark = [pytest.mark.browser]

NO_PUBLIC_URL = {"PERCEPTRON_PUBLIC_URL": ""}


@pytest.fixture
def pages(browser: Browser) -> Iterator[tuple[Page, Page]]:
    contexts = [browser.new_context(**DEVICES[d]) for d in ("laptop", "phone")]
    yield contexts[0].new_page(), contexts[1].new_page()
    for c in contexts:
        c.close()


def start_class_at(page: Page, url: str) -> str:
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible(timeout=60_000)
    # the page's first run ended: its sidebar is drawn for good (as test_room's start_class:
    # Start pressed while the first run still drew the sidebar started no class)
    run_ended(page)
    sidebar(page).get_by_text("Class mode").click()
    key(page, "room_start").get_by_role("button", name="Start a class").click()
    expect(key(page, "room_code")).to_be_visible(timeout=30_000)
    return key(page, "room_code").inner_text().strip()


def test_a_lecturer_on_localhost_shows_the_network_address_and_a_phone_joins_with_it(
    pages: tuple[Page, Page],
) -> None:
    here = network_address()
    if here is None:
        pytest.skip("this machine has no network address but loopback: no phone could join")
    lecturer, phone = pages
    port = streamlit_server.free_port()
    with streamlit_server.serve("app.py", port=port, address="0.0.0.0", env=NO_PUBLIC_URL):
        code = start_class_at(lecturer, f"http://localhost:{port}")
        host = f"[{here}]" if ":" in here else here
        shown = f"http://{host}:{port}/join"
        said = main(lecturer).inner_text().replace("\u2060", "")
        assert f"open {shown} and type" in said, said
        assert "localhost" not in said
        qr = lecturer.get_by_test_id("stImage").locator("img")
        expect(qr).to_have_attribute("src", re.compile(r"^data:image/svg\+xml;base64,"))

        # a phone opens the address the projector shows, with the code the QR code carries:
        # the class's light page
        phone.goto(f"{shown}?room={code.replace('-', '')}")
        expect(phone.get_by_label("Class code")).to_have_value(code, timeout=60_000)
        phone.get_by_label("Your nickname").fill("Pia")
        phone.get_by_role("button", name="Join the class").click()
        expect(phone.locator("#hall-class")).to_contain_text(
            f"Class {code}: you joined as Pia.", timeout=15_000
        )
        expect(key(lecturer, "room_count")).to_have_text("1 student has joined", timeout=10_000)
        # the strip above the lesson pages says the same address
        sidebar_link(lecturer, "Step by step")
        strip = key(lecturer, "room_strip")
        expect(strip).to_contain_text("join at", timeout=30_000)
        assert f"join at {shown}" in strip.inner_text().replace("\u2060", "")


def test_a_lecturer_whose_server_listens_on_loopback_only_is_told_instead_of_a_qr_code(
    pages: tuple[Page, Page],
) -> None:
    lecturer, _ = pages
    port = streamlit_server.free_port()
    with streamlit_server.serve("app.py", port=port, env=NO_PUBLIC_URL):  # 127.0.0.1 only
        code = start_class_at(lecturer, f"http://localhost:{port}")
        warning = main(lecturer).get_by_test_id("stAlertContentWarning")
        expect(warning).to_contain_text("Phones cannot join")
        expect(warning).to_contain_text("PERCEPTRON_PUBLIC_URL")
        expect(lecturer.get_by_test_id("stImage")).to_have_count(0)  # no QR code of localhost
        expect(key(lecturer, "room_code")).to_have_text(code)  # the code stays on show
        box = warning.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, box  # on the projector
        sidebar_link(lecturer, "Step by step")
        expect(key(lecturer, "room_strip")).to_contain_text(
            "phones cannot join yet", timeout=30_000
        )
