"""The README's "first lecture in five minutes", as it is written, in chromium: a lecturer on
a 1280×720 laptop and three students' phones (390×844, touch), from the home page to a
question the three answer and the lecturer reveals, and the class closed, in under ten
minutes. The steps are read from the README: each name it gives a control (in bold or in
italics) is looked for by that name, and what it says the screen shows is checked there.
A README whose words drift from the app fails here.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser.classroom import join, key, main, no_exception, on_lecture, sidebar, sidebar_link
from browser.devices import DEVICES, SCREENSHOTS
from browser.test_lecture import status
from browser.test_room_phone import bar

pytestmark = [pytest.mark.browser]

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Your first lecture in five minutes"
GOAL_S = 600  # the ten minutes, from the clone's first page to the class closed


def steps() -> list[str]:
    """The section's numbered steps, each as one line of text."""
    text = README.read_text(encoding="utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    items = re.split(r"\n(?=\d+\. )", "\n" + text.split("\n\n", 1)[1].split("\n\n", 1)[0])
    return [" ".join(item.split()) for item in items if item.strip()]


def names(step: str) -> set[str]:
    """What a step calls a control or a page: its **bold** and *italic* words."""
    return {m.strip() for m in re.findall(r"\*\*([^*]+)\*\*|\*([^*]+)\*", step) for m in m if m}


def quoted(step: str) -> list[str]:
    """What a step says the screen shows, in quotation marks."""
    return re.findall(r'"([^"]+)"', step)


def test_the_readmes_first_lecture_takes_a_class_from_the_first_page_to_a_revealed_answer(
    browser, app_url
) -> None:
    started = time.monotonic()
    s = steps()
    assert len(s) == 8, s
    laptop = browser.new_context(viewport={"width": 1280, "height": 720})
    phones = [browser.new_context(**DEVICES["phone"]) for _ in range(3)]
    try:
        page = laptop.new_page()
        # 1. Open: the home page explains the perceptron on the handout's four points
        assert "Cornell CS6780" in s[0]
        page.goto(app_url)
        expect(main(page)).to_contain_text("CS6780", timeout=60_000)
        # 2. Presenter mode: Step by step, then P
        assert {"Presenter mode.", "Step by step", "P"} <= names(s[1])
        sidebar(page).get_by_role("link", name="Step by step").click()
        expect(page.locator(".lec .fig")).to_be_visible(timeout=60_000)
        page.keyboard.press("p")
        expect(page.locator(".lec.presenter")).to_have_count(1, timeout=15_000)
        expect(sidebar(page)).to_be_hidden()
        # 3. Step: → three times, and the status line says what the README quotes
        assert "→" in names(s[2])
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        for said in quoted(s[2]):
            expect(status(page)).to_contain_text(said)
        # 4. Start a class, on the lecture: the code over it; Escape closes it
        assert "Start a class" in names(s[3])
        page.get_by_role("button", name="Start a class").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Join this class", timeout=30_000)
        code = dialog.locator(".st-key-room_code").inner_text().strip()
        expect(dialog.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
        assert "/lecture" in page.url
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0, timeout=10_000)
        # 5. Students join: two by the QR code's link (the class's light page), one by
        # typing the code on the Class page (no nickname: it is optional there); their
        # lectures follow the lecturer's
        students = [c.new_page() for c in phones]
        for i, phone in enumerate(students):
            if i < 2:
                phone.goto(f"{app_url}/join?room={code.replace('-', '')}")
                expect(phone.get_by_label("Class code")).to_have_value(code, timeout=60_000)
                phone.get_by_label("Your nickname").fill(f"Student {i + 1}")
                phone.keyboard.press("Enter")
                expect(phone.locator("#hall-class")).to_contain_text(
                    f"Class {code}", timeout=30_000
                )
            else:
                phone.goto(f"{app_url}/room")
                expect(phone.get_by_test_id("stForm")).to_be_visible(timeout=60_000)
                join(phone, "", code)
                expect(phone.locator("h1")).to_have_text(f"Class {code}", timeout=30_000)
                on_lecture(phone)
            expect(status(phone)).to_contain_text("step t = 3 of", timeout=15_000)
            # a following phone shows none of the lecturer's controls
            expect(phone.locator('.lec button[data-act="step"]')).to_have_count(0)
        page.keyboard.press("ArrowRight")  # the lecturer steps: so do the phones
        for phone in students:
            expect(status(phone)).to_contain_text("step t = 4 of", timeout=15_000)
        # 6. Ask the class: every phone answers
        assert "Ask the class" in names(s[5])
        page.get_by_role("button", name="Ask the class").click()
        strip = key(page, "room_strip")
        expect(strip).to_contain_text("0 of 3 answered", timeout=15_000)
        qid = int(re.search(r"Question (\d+):", strip.inner_text()).group(1))
        for i, phone in enumerate(students):
            answer = "mistake" if i != 1 else "no mistake"
            bar(phone, qid).get_by_role("radio", name=answer, exact=True).tap(timeout=15_000)
            expect(bar(phone, qid)).to_contain_text(f"Counted: you said {answer}.")
        expect(strip).to_contain_text("3 of 3 answered", timeout=15_000)
        # 7. Reveal: the truth on every phone, each answer graded
        assert "Reveal" in names(s[6])
        page.get_by_role("button", name="Reveal").click()
        for phone in students:
            expect(key(phone, f"room_done_{qid}")).to_contain_text(
                re.compile(rf"Question {qid}: (✓ right|✗ not this time) · it was"),
                timeout=15_000,
            )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "readme_lecture_revealed_1280x720.png")
        # 8. Close the class on the Class page (in presenter mode: its menu)
        assert {"Close the class", "Lecturer's controls"} <= names(s[7])
        page.keyboard.press("p")  # out of presenter mode: the sidebar, and its Class page
        expect(page.locator(".lec.presenter")).to_have_count(0, timeout=15_000)
        sidebar_link(page, "The class page")
        page.get_by_text("Yes, end it for every student").click()
        page.get_by_role("button", name="Close the class").click()
        expect(page.locator("h1")).to_contain_text("is closed: the recap", timeout=30_000)
        for phone in students:  # the light pages and the Class page say so
            expect(phone.locator("main").first).to_contain_text("has ended", timeout=30_000)
        no_exception(page, *students)
    finally:
        for c in (laptop, *phones):
            c.close()
    assert time.monotonic() - started < GOAL_S
