"""A class in real browsers, for the class tests: the three pages (``Klass``: a lecturer and
two students, their messages kept for the forged-event test), and what a person does and
reads on them: start a class, join, follow, ask and answer, the strip's parts by key, the
page's run ended, no exception shown; and the forged control events of a student's page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page, expect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from browser.devices import DEVICES, MAIN, SCREENSHOTS
from browser.test_lecture import button, status, status_t
from browser.wire import parse
from tests.browser.conftest import run_ended
from tools.streamlit_client import message
from ui.classmode.arrive import SEAT_COOKIE

NICK = "<b>**Ana**</b>"  # student A's nickname: HTML and markdown, to be shown as typed
FOLLOW_MS = 15_000  # a follower shows the lecturer's change (how fast: benchmarks/load.py --room)
PROJECTOR_SIZES = ((1280, 720), (1366, 768))
# 4 points, γ ≈ 0.22 with the challenge's bias c = 1: the perceptron makes M = 27 mistakes
CHALLENGE_SET = "x1,x2,y\n-1.8,1.3,1\n0.3,-1.0,-1\n-1.8,0.2,1\n-1.4,1.6,-1\n"
# student B's page keeps the websockets it opens, so that its own script can send on them
KEEP_SOCKETS = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""
# elements that make the nickname's text bold: there would be one had its markup been read
BOLD_NICK = """() => [...document.querySelectorAll('b, strong')]
  .filter(e => e.textContent.includes('Ana') && !e.textContent.includes('<b>')).length"""


@dataclass
class Klass:
    """The three pages, the class's code, and the messages the browsers exchanged that
    the forged-event test reads."""

    lecturer: Page
    a: Page  # student A, a phone
    b: Page  # student B, a laptop
    url: str
    code: str = ""  # as the projector shows it: ABCD-EFGH
    joined: bool = False
    challenge: bool = False  # a challenge is open
    lecturer_sent: list[BackMsg] = field(default_factory=list)
    b_sent: list[BackMsg] = field(default_factory=list)
    b_main_hash: str = ""  # what the server told B's page: its main script's hash
    b_page_hashes: dict[str, str] = field(default_factory=dict)  # url path -> page hash
    b_finished: int = 0  # runs B's page has seen finish
    b_strip: str = ""  # the fragment id of B's class strip (the one B's card comes in)

    def record_sent(self, into: list[BackMsg]):
        def on_frame(payload: str | bytes) -> None:
            if (msg := parse(payload, BackMsg)) is not None:
                into.append(msg)

        return lambda ws: ws.on("framesent", on_frame)

    def b_received(self, ws) -> None:
        def on_frame(payload: str | bytes) -> None:
            if (msg := parse(payload, ForwardMsg)) is None:
                return
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.b_main_hash = msg.new_session.main_script_hash
            elif kind == "navigation":
                for p in msg.navigation.app_pages:
                    self.b_page_hashes[p.url_pathname] = p.page_script_hash
            elif kind == "script_finished":
                self.b_finished += 1
            elif kind == "delta" and "-room_card_" in msg.delta.add_block.id:
                self.b_strip = msg.delta.fragment_id

        ws.on("framereceived", on_frame)


# ----------------------------------------------------------------------------- helpers


def key(page: Page, name: str) -> Locator:
    """The element Streamlit keyed ``name`` (not a hidden copy a fragment's rerun keeps)."""
    return page.locator(f".st-key-{name}").filter(visible=True)


def main(page: Page) -> Locator:
    return page.get_by_test_id("stMain")


def sidebar(page: Page) -> Locator:
    return page.get_by_test_id("stSidebar")


def sidebar_link(page: Page, name: str) -> None:
    """Click a link in the sidebar, opened first on a phone (where it starts closed)."""
    opener = page.get_by_test_id("stExpandSidebarButton")
    phone = opener.is_visible()
    if phone:
        opener.click()
    sidebar(page).get_by_role("link", name=name).first.click()
    if phone:  # on a phone the page the link opened closes the sidebar that lay over it
        expect(sidebar(page)).to_have_attribute("data-collapsed", "true")


def seat_of_browser(page: Page) -> str:
    """The seat cookie this browser keeps ("<code>.<seat>"), or ""."""
    jar = {c["name"]: c["value"] for c in page.context.cookies()}
    return jar.get(SEAT_COOKIE, "")


def no_exception(*pages: Page) -> None:
    for page in pages:
        expect(page.get_by_test_id("stException")).to_have_count(0)


def start_class(k: Klass) -> None:
    page = k.lecturer
    page.goto(k.url)
    expect(page.locator("h1").first).to_be_visible(timeout=60_000)
    # the page's first run ended: its sidebar is drawn for good (under a CI's load, Start
    # pressed as soon as the title showed once started no class in 30 s)
    run_ended(page)
    sidebar(page).get_by_text("Class mode").click()
    key(page, "room_start").get_by_role("button", name="Start a class").click()
    expect(key(page, "room_code")).to_be_visible(timeout=60_000)  # a page's first run
    k.code = key(page, "room_code").inner_text().strip()


def join(page: Page, nick: str, code: str | None = None) -> None:
    """The join form, by keyboard: the code typed (unless the link filled it in), the
    nickname, Enter."""
    form = page.get_by_test_id("stForm")
    if code is not None:
        form.get_by_label("Class code").click()
        page.keyboard.type(code)
    form.get_by_label("Nickname").click()
    page.keyboard.type(nick)
    page.keyboard.press("Enter")


def ensure_joined(k: Klass) -> None:
    """A class with both students in it: A by the join link, B by typing the code."""
    if not k.code:
        start_class(k)
    if k.joined:
        return
    k.a.goto(f"{k.url}/room?room={k.code.replace('-', '')}")
    code_box = k.a.get_by_test_id("stForm").get_by_label("Class code")
    expect(code_box).to_have_value(k.code, timeout=60_000)  # filled in from the link
    join(k.a, NICK)
    k.b.goto(f"{k.url}/room")
    expect(k.b.get_by_test_id("stForm")).to_be_visible(timeout=60_000)
    join(k.b, "Bo", k.code)
    for page in (k.a, k.b):
        expect(page.locator("h1")).to_have_text(f"Class {k.code}", timeout=15_000)
    k.joined = True


def on_lecture(page: Page) -> None:
    """Step by step, within the session (a new page load would lose a student's seat
    unless its URL carried it): the class page's link for a student, else the sidebar."""
    if "/lecture" not in page.url:
        follow_link = main(page).get_by_role("link", name="Follow the lecturer step by step")
        if follow_link.count():
            follow_link.click()
        else:
            sidebar_link(page, "Step by step")
    expect(page.locator(".lec .fig")).to_be_visible(timeout=30_000)
    # the page's run ended: what the page before drew above it (a student's question card
    # in the class strip, under the card Step by step draws) is gone, not merely stale
    run_ended(page)


def on_class_page(page: Page) -> None:
    """The class page: the lecturer's projector view (its code), or a student's."""
    if "/room" not in page.url:
        sidebar_link(page, "The class page")
    drawn = key(page, "room_code").or_(page.locator("h1", has_text=re.compile(r"^Class ")))
    expect(drawn).to_be_visible(timeout=30_000)


def same_step(student: Page, lecturer: Page, t: int) -> None:
    """Within FOLLOW_MS the student's player is at step t with the lecturer's status line
    (but the data's name: a lecturer's custom data reach a student as "data from a link")
    and chart sentence (the line, w, how many of how many points it gets right)."""
    expect(status(student)).to_contain_text(f"step t = {t:,} of", timeout=FOLLOW_MS)
    expect(status(student).locator("> :not(.name)")).to_have_text(
        status(lecturer).locator("> :not(.name)").all_inner_texts()
    )
    sentence = lecturer.locator(".lec .fig").get_attribute("aria-label")
    expect(student.locator(".lec .fig")).to_have_attribute("aria-label", sentence)


def step(page: Page, times: int) -> int:
    """Press the player's Step button ``times`` times; returns the step on show."""
    t = status_t(page)
    for _ in range(times):
        button(page, "step").click()
    expect(status(page)).to_contain_text(f"step t = {t + times:,} of")
    return t + times


def card(page: Page, qid: int | None = None) -> Locator:
    """A student's card of question ``qid`` (of any question if None)."""
    if qid is None:
        return page.locator("[class*='st-key-room_card_']").filter(visible=True)
    return key(page, f"room_card_{qid}")


def answer(page: Page, qid: int, said: str) -> None:
    card(page, qid).get_by_role("radio", name=said, exact=True).click()
    expect(card(page, qid)).to_contain_text(f"Counted: you said {said}.")


def ask(k: Klass) -> tuple[int, int]:
    """The lecturer asks about the next example: (the step it was asked at, the
    question's number, as the lecturer's strip says it; the lecturer's player is at that
    step)."""
    key(k.lecturer, "room_ask").get_by_role("button", name="Ask the class").click()
    strip = key(k.lecturer, "room_strip")
    expect(strip).to_contain_text(
        re.compile(
            r"Question \d+: will point \d+, .* be a mistake at step t = \d+\?0 of 2 answered"
        ),
        timeout=10_000,
    )
    expect(key(k.lecturer, "room_reveal")).to_be_visible()
    said = re.search(r"Question (\d+): will point .* at step t = (\d+)\?", strip.inner_text())
    t = int(said.group(2)) - 1  # asked at step t about the example shown at step t + 1
    expect(status(k.lecturer)).to_contain_text(f"step t = {t:,} of")
    return t, int(said.group(1))


def fits(page: Page, part: Locator) -> None:
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    box = part.bounding_box()
    assert box is not None and box["x"] >= -1 and box["x"] + box["width"] <= w + 1, (w, box)
    assert box["y"] >= -1 and box["y"] + box["height"] <= h + 1, (h, box)


def shots(page: Page, name: str, *parts: Locator) -> None:
    """The projector's view at each projector size: the first of ``parts`` scrolled into
    view (else the top of the page), every part on the screen whole, a screenshot; the page
    is left at 1366×768."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for w, h in PROJECTOR_SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(f"() => {MAIN}.scrollTo(0, 0)")
        if parts:
            parts[0].evaluate("e => e.scrollIntoView({block: 'start'})")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 200)))")
        for part in parts:
            fits(page, part)
        page.screenshot(path=SCREENSHOTS / f"room_{name}_{w}x{h}.png")
    page.set_viewport_size(DEVICES["laptop"]["viewport"])


def last_state(sent: list[BackMsg]) -> ClientState:
    """A copy of the client state of the last rerun a page asked for (its widget values)."""
    for msg in reversed(sent):
        if msg.WhichOneof("type") == "rerun_script":
            state = ClientState()
            state.CopyFrom(msg.rerun_script)
            return state
    raise AssertionError("the page asked for no run")


def pressed(sent: list[BackMsg], name: str) -> ClientState:
    """The client state of the last rerun that pressed the button keyed ``name``."""
    for msg in reversed(sent):
        if any(
            w.id.endswith(f"-{name}") and w.trigger_value
            for w in msg.rerun_script.widget_states.widgets
        ):
            return msg.rerun_script
    raise AssertionError(f"no message pressed {name}")


def forge(k: Klass, state: ClientState) -> None:
    """Send a rerun with ``state`` from student B's page, on its own websocket, and wait
    until B's session has finished the run it asks for (and a second one, if one was under
    way: B's strip runs only when the room changes or on its 30 s timer, so rarely)."""
    before = k.b_finished
    sent = k.b.evaluate(
        """bytes => {
             const ws = window.__sockets  // Streamlit's stream, not the live channel
               .filter(s => s.readyState === WebSocket.OPEN && s.url.endsWith("/_stcore/stream"))
               .at(-1);
             if (!ws) return false;
             ws.send(new Uint8Array(bytes));
             return true;
           }""",
        list(message(state)),
    )
    assert sent, "B's page has no open websocket"
    deadline = 100
    while k.b_finished < before + 1 and deadline:
        k.b.wait_for_timeout(100)  # frames are counted as they arrive (an event, not a sleep)
        deadline -= 1
    assert k.b_finished >= before + 1, "B's session did not run after the forged message"
    for _ in range(10):  # a run that was under way finished first: the forged one follows
        if k.b_finished >= before + 2:
            break
        k.b.wait_for_timeout(100)


# ----------------------------------------------------------------------------- the tests
