"""A bank question in a class, in chromium: the lecturer (a 1280×720 laptop) picks one from
the list beside Ask the class (a popover in the class strip) and asks it; the two
students' phones (390×844, touch) go to its state (XOR), show its words and its choices
on the first screen, and take a tap; the lecturer's strip counts them, and the reveal
tells each phone right or not and shows the evidence (the run's last epoch) on every
chart.

Screenshots go to the browser tests' screenshots folder, to be looked at.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.classroom import Klass, ensure_joined, key, no_exception, on_lecture
from browser.devices import DEVICES, SCREENSHOTS
from browser.test_lecture import status
from browser.test_room_phone import bar, on_screen, settled
from tests.browser.conftest import run_ended
from ui.lecture import bank

pytestmark = [pytest.mark.browser]

ENTRY = bank.BANK["xor-epochs"]


@pytest.fixture(scope="module")
def klass(browser, app_url):
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 720}),
        browser.new_context(**DEVICES["phone"]),
        browser.new_context(**DEVICES["phone"]),
    ]
    k = Klass(*(c.new_page() for c in contexts), url=app_url)
    yield k
    for c in contexts:
        c.close()


def pick(page: Page, label: str) -> None:
    """The lecturer opens the question list beside Ask the class and picks ``label``."""
    opener = key(page, "room_strip").get_by_role("button", name="Which question")
    on_screen(page, opener)  # beside Ask, at the top: no scrolling in front of the class
    opener.click()
    box = key(page, "room_bank_pick")
    box.get_by_role("combobox").click()
    page.get_by_role("option", name=label, exact=True).click()
    expect(box.get_by_role("combobox")).to_have_value(label)
    page.keyboard.press("Escape")  # the popover closes; the pick stays
    expect(box).to_be_hidden()
    # the pick's run has ended: a click while the strip is drawn anew (its timer runs every
    # second) once reached no button at all (the page's record of its clicks had none)
    run_ended(page)


def test_a_bank_question_from_the_list_to_the_phones_and_back(klass) -> None:
    k = klass
    ensure_joined(k)
    for page in (k.lecturer, k.a, k.b):
        on_lecture(page)
    made = bank.made(ENTRY.id)
    pick(k.lecturer, ENTRY.label)
    key(k.lecturer, "room_ask").get_by_role("button", name="Ask the class").click()
    strip = key(k.lecturer, "room_strip")
    expect(strip).to_contain_text(made.prompt, timeout=10_000)
    expect(strip).to_contain_text("0 of 2 answered")
    expect(status(k.lecturer)).to_contain_text("XOR (n = 4")  # the lecture took its state
    qid = int(re.search(r"Question (\d+):", strip.inner_text()).group(1))
    right, wrong = made.choices[made.right], made.choices[1 - made.right]
    for phone in (k.a, k.b):
        expect(status(phone)).to_contain_text("XOR", timeout=15_000)  # the follower's too
        expect(bar(phone, qid)).to_contain_text(made.prompt)
        settled(bar(phone, qid))
        for choice in made.choices:  # every choice on the first screen, without a scroll
            on_screen(phone, bar(phone, qid).get_by_role("radio", name=choice, exact=True))
        expect(phone.locator(".lec svg circle.asked")).to_have_count(0)  # no example ringed
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    k.a.screenshot(path=SCREENSHOTS / "bank_question_phone_390x844.png")
    bar(k.a, qid).get_by_role("radio", name=right, exact=True).tap()
    bar(k.b, qid).get_by_role("radio", name=wrong, exact=True).tap()
    expect(bar(k.a, qid)).to_contain_text(f"Counted: you said {right}.")
    expect(strip).to_contain_text("2 of 2 answered", timeout=10_000)
    k.lecturer.screenshot(path=SCREENSHOTS / "bank_question_lecturer_1280x720.png")
    key(k.lecturer, "room_reveal").get_by_role("button", name="Reveal").click()
    end = made.reveal_t  # the reveal shows the evidence: the run's last epoch
    for phone, mark in ((k.a, "✓ right"), (k.b, "✗ not this time")):
        expect(key(phone, f"room_done_{qid}")).to_contain_text(
            f"Question {qid}: {mark} · it was {right}", timeout=15_000
        )
        expect(status(phone)).to_contain_text(f"step t = {end} of {end}")
    expect(strip).to_contain_text(f"{right} ✓ right: 1 (50%)")
    no_exception(k.lecturer, k.a, k.b)
