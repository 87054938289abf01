"""The lecture page in a real browser: steps, keys, replay and presenter mode, with the
chart, the status line, the maths and the text for screen readers read from the page and
checked against the engine's run."""

import json
import re

import numpy as np
import pytest
from playwright.sync_api import Page, expect
from streamlit.proto.BackMsg_pb2 import BackMsg

from perceptron_core import make_dataset, mistakes, train
from tests.browser.conftest import run_ended
from ui.look.numbers import number

pytestmark = pytest.mark.browser

# the default dataset: 40 separable points, seed 0, bias on, w0 = 0
X, Y = make_dataset("separable", n=40, seed=0)
TRACE = train(X, Y, record_steps=True)
T = TRACE.n_steps


def status(page: Page):
    return page.locator(".lec .status")


def status_t(page: Page) -> int:
    return int(
        re.search(r"step t = ([\d,]+) of", status(page).inner_text()).group(1).replace(",", "")
    )


def chart_t(page: Page) -> int:
    """The step the chart draws: its stamp "t = .. · k = .." and the SVG's data-t, read in
    one go (during Play two reads may see two frames)."""
    stamp, data_t = page.locator(".lec .fig").evaluate(
        "svg => [svg.querySelector('.stamptxt').textContent, svg.dataset.t]"
    )
    t = int(re.match(r"t = (\d+)", stamp).group(1))
    assert data_t == str(t)
    return t


def shown_t(page: Page) -> tuple[int, int]:
    """The chart's step and the status line's step, read in one go: during Play a frame
    can land between two separate reads."""
    stamp, said = page.locator(".lec").evaluate(
        "lec => [lec.querySelector('.fig .stamptxt').textContent,"
        " lec.querySelector('.status').innerText]"
    )
    chart = int(re.match(r"t = (\d+)", stamp).group(1))
    return chart, int(re.search(r"step t = ([\d,]+) of", said).group(1).replace(",", ""))


def expect_step(page: Page, t: int) -> None:
    """Status line, chart, maths and URL-to-be all at step t."""
    expect(status(page)).to_contain_text(f"step t = {t:,} of {T}")
    k = TRACE.mistakes_before(t)
    expect(status(page)).to_contain_text(f"mistakes k = {k}")
    assert chart_t(page) == t
    expect(page.locator(".lec .fig .stamptxt")).to_have_text(f"t = {t} · k = {k}")


def open_lecture(page: Page, app_url: str, query: str = "") -> None:
    page.goto(app_url + "/lecture" + query)
    expect(page.locator(".lec .fig")).to_be_visible(timeout=30_000)


def w_shown(page: Page) -> list[float]:
    """The w the maths says is current: the last vector of the update, or the kept w."""
    text = page.locator(".lec .maths").inner_text().replace("−", "-")
    vectors = re.findall(r"\(([-\d., e]+)\)", text.replace("\n", " "))
    return [float(v) for v in vectors[-1].split(",")]


def button(page: Page, name: str):
    return page.locator(f'.lec button[data-act="{name}"]')


def test_step_and_back_move_the_chart_status_and_maths_together(app_url, page, screenshot):
    open_lecture(page, app_url)
    expect_step(page, 0)
    first = int(TRACE.mistake_steps[0, 0]) + 1  # w = 0 errs on the very first example
    for _ in range(first):
        button(page, "step").click()
    expect_step(page, first)
    assert w_shown(page) == pytest.approx(TRACE.weights[1], rel=5e-3)
    expect(page.locator(".lec .maths")).to_contain_text("mistake")
    page.keyboard.press("ArrowRight")  # → is Step too
    expect_step(page, first + 1)
    page.keyboard.press("ArrowLeft")  # ← is Back: the step and its w undone
    expect_step(page, first)
    button(page, "back").click()
    expect_step(page, first - 1)
    assert w_shown(page) == pytest.approx(TRACE.w_before(first - 1), abs=1e-9)
    screenshot("lecture-back")


def test_next_mistake_finish_epoch_run_to_the_end_and_reset(app_url, page):
    open_lecture(page, app_url)
    button(page, "next").click()
    t1 = int(TRACE.mistake_steps[0, 0]) + 1
    expect_step(page, t1)
    button(page, "next").click()
    expect_step(page, int(TRACE.mistake_steps[1, 0]) + 1)
    button(page, "epoch").click()
    expect_step(page, 40)
    expect(status(page)).to_contain_text("epoch 1, example 40 of 40")  # not "epoch 2"
    page.keyboard.press("End")
    expect_step(page, T)
    expect(status(page)).to_contain_text("end of the run: converged")
    page.keyboard.press("ArrowRight")  # past the end: said, not silent
    expect(page.locator(".lec .note")).to_contain_text("last step")
    page.keyboard.press("Home")
    expect_step(page, 0)


def step_reports(frames: list[bytes | str]) -> list[int]:
    """The steps the player reported to the server in the websocket ``frames`` the page
    sent (its "at" events), in order."""
    out = []
    for frame in frames:
        msg = BackMsg()
        msg.ParseFromString(frame if isinstance(frame, bytes) else frame.encode())
        if msg.WhichOneof("type") != "rerun_script":
            continue
        for widget in msg.rerun_script.widget_states.widgets:
            if widget.WhichOneof("value") == "json_trigger_value":
                events = json.loads(widget.json_trigger_value)
                for e in events if isinstance(events, list) else [events]:
                    if e.get("event") == "at":
                        out.append(int(e["value"]["t"]))
    return out


def posts(page: Page) -> list[int]:
    """The steps the page will post to the server's route (``/api/step``), in order: the list
    fills as it posts."""
    out: list[int] = []

    def sent(request) -> None:
        if request.method == "POST" and request.url.endswith("/api/step"):
            out.append(int(json.loads(request.post_data)["t"]))

    page.on("request", sent)
    return out


def test_steps_in_the_window_send_nothing_until_the_burst_pauses_then_one_report(app_url, page):
    sent: list[bytes | str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    posted = posts(page)
    open_lecture(page, app_url)
    page.wait_for_timeout(1000)
    assert step_reports(sent) == posted == []  # opening the page reports no step
    # six steps in one burst, however busy the machine: the presses go in one task, since
    # presses one by one from here can land more than the player's 350 ms of quiet apart
    # (the keys one by one are tested below)
    page.evaluate(
        """() => { for (let i = 0; i < 6; i++) document.body.dispatchEvent(
             new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true })); }"""
    )
    expect_step(page, 6)
    page.wait_for_timeout(1200)  # the burst pauses: the server hears the step once
    # a report from inside the burst would say a step before 6, or be one of several
    # (the count, not the time, so a busy machine's late frame cannot fail it); a student
    # alone posts it to the route: no rerun
    assert posted == [6]
    assert step_reports(sent) == []
    expect(page).to_have_url(re.compile(r"lec_t=6"), timeout=10_000)
    page.reload()  # the URL holds the step: a reload opens at it
    expect(page.locator(".lec .fig")).to_be_visible(timeout=30_000)
    expect_step(page, 6)


def test_a_posted_step_is_the_sessions_on_every_page_and_in_the_open_log(app_url, page):
    sent: list[bytes | str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    posted = posts(page)
    open_lecture(page, app_url)
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    expect_step(page, 9)
    page.wait_for_timeout(1000)
    # the burst is posted when it pauses (on a busy machine a pause inside it posts too),
    # never through the session
    assert posted and posted[-1] == 9 and posted == sorted(posted), posted
    assert step_reports(sent) == []
    burst = len(posted)
    # another page, by the sidebar (no reload): its URL keeps the step the page posted
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="The proof").click()
    expect(page).to_have_url(re.compile(r"/proof\?(.*&)?lec_t=9\b"), timeout=20_000)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Step by step").click()
    expect(page.locator(".lec .fig")).to_be_visible(timeout=30_000)
    expect_step(page, 9)
    # a step the page had not posted yet when it was left (within the pause) is posted as
    # the player leaves: the session has it when the lecture opens again
    page.keyboard.press("ArrowRight")
    expect_step(page, 10)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="The proof").click()
    expect(page).to_have_url(re.compile(r"/proof"), timeout=20_000)
    expect(page.get_by_role("heading", name=re.compile("proof", re.I)).first).to_be_visible()
    page.wait_for_timeout(500)
    assert posted[burst:] == [10], posted
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Step by step").click()
    expect(page.locator(".lec .fig")).to_be_visible(timeout=30_000)
    expect_step(page, 10)
    # the mistake log, opened, counts to the step on screen; while it is open each pause's
    # step reruns the instrument (the log is drawn by the server), and it follows
    k = TRACE.mistakes_before(10)
    page.get_by_text("Mistake log").click()
    expect(page.get_by_text(f"Mistake log ({k} so far)")).to_be_visible(timeout=20_000)
    t = next(t for t in range(11, T) if TRACE.mistakes_before(t) > k)
    for _ in range(t - 10):
        page.keyboard.press("ArrowRight")
    expect_step(page, t)
    k2 = TRACE.mistakes_before(t)
    expect(page.get_by_text(f"Mistake log ({k2} so far)")).to_be_visible(timeout=20_000)
    assert step_reports(sent)[-1] == t and posted[burst:] == [10], posted


def test_at_step_t_no_later_mistake_is_drawn_and_the_chart_has_its_sentence(app_url, page):
    open_lecture(page, app_url)
    t = int(TRACE.mistake_steps[2, 0]) + 1  # just after the third mistake
    for _ in range(t):
        page.keyboard.press("ArrowRight")
    expect_step(page, t)
    k = TRACE.mistakes_before(t)
    # Claim 1 and Claim 2: one marker per k = 0..k; the squeeze: its two series to k
    for group in (".sq.plus", ".sq.minus"):  # the squeeze's two series: k = 0..k, no more
        markers = page.locator(f".lec .fig g{group} circle, .lec .fig g{group} path")
        assert markers.count() == k + 1, group
    drawn = page.locator(".lec .fig g.w circle").count()
    assert drawn == 2 * (k + 1)  # two claims, k + 1 points each (k = 0 is w0)
    sentence = page.locator(".lec .fig").get_attribute("aria-label")
    w = TRACE.w_before(t)
    right = len(Y) - int(mistakes(w, X, Y, bias=True).sum())
    assert f"Step t = {t} of {T}" in sentence
    assert f"gets {right} of {len(Y)} points right" in sentence
    assert f"‖w‖² = {number(float(w @ w))}" in sentence
    assert page.locator("#lec-say").inner_text() == sentence  # a screen reader reads it


def test_a_point_under_the_pointer_shows_its_tooltip_through_the_layers_over_it(app_url, page):
    open_lecture(page, app_url)
    for _ in range(3):  # the step's rings and w drawn over the points
        page.keyboard.press("ArrowRight")
    expect_step(page, 3)
    point = page.locator(".lec .fig .points circle").first
    point.scroll_into_view_if_needed()
    # what the pointer meets at the point's centre is the point, whose <title> is its tooltip
    hit = point.evaluate(
        """c => { const r = c.getBoundingClientRect();
          const at = c.getRootNode().elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return [at === c, c.querySelector('title').textContent]; }"""
    )
    assert hit[0], "the layer over the points takes the pointer"
    assert hit[1].startswith("point ") and "y = " in hit[1]


def test_play_replays_without_messages_and_pause_reports_the_step_once(app_url, page):
    sent: list[bytes | str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    posted = posts(page)
    open_lecture(page, app_url)
    page.keyboard.press(" ")  # space: Play at 8 steps/s
    page.wait_for_timeout(1500)
    playing, said = shown_t(page)
    assert playing >= 6 and said == playing  # the status follows the replay
    assert step_reports(sent) == posted == []  # the replay tells the server nothing
    page.keyboard.press(" ")  # Pause
    paused = chart_t(page)
    page.wait_for_timeout(1000)  # paused: nothing moves, and the status agrees
    assert chart_t(page) == paused == status_t(page)
    assert posted == [paused] and step_reports(sent) == []
    expect(page).to_have_url(re.compile(rf"lec_t={paused}\b"), timeout=10_000)


def test_keys_work_right_after_the_presenter_switch_and_the_chart_keeps_its_step(
    app_url, page, screenshot
):
    open_lecture(page, app_url)
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect_step(page, 4)
    page.get_by_text("Presenter mode").first.click()  # the sidebar's switch: focus on it
    expect(page.locator(".lec.presenter")).to_be_visible(timeout=15_000)
    expect_step(page, 4)  # the redrawn chart shows the step the status shows
    page.keyboard.press("ArrowRight")
    expect_step(page, 5)
    page.keyboard.press("p")  # P leaves presenter mode
    expect(page.locator(".lec.presenter")).to_have_count(0, timeout=15_000)
    expect_step(page, 5)
    page.keyboard.press("ArrowRight")
    expect_step(page, 6)
    screenshot("lecture-after-presenter")


def test_a_fresh_link_opens_at_its_step_in_the_chart_and_the_status(app_url, page):
    open_lecture(page, app_url, "?lec_t=12")
    expect_step(page, 12)
    button(page, "reset").click()
    expect_step(page, 0)
    assert page.locator(".lec .fig .wline").count() == 0  # w = 0: no old line left
    assert page.locator(".lec .fig .warrow").count() == 0


@pytest.mark.parametrize(
    ("rule", "verdict"),
    [("negative", "no mistake"), ("nonpositive", "a mistake"), ("predict_ge", "no mistake")],
)
def test_a_tie_names_the_rule_that_judged_it_under_the_maths(app_url, page, rule, verdict):
    """Seed 001's first point from w = 0 is a tie: the maths says which rule decided, in a
    sentence under the formula; the next step, off the line, names no rule."""
    open_lecture(page, app_url, f"?data_name=four_points&lec_bias=0&lec_rule={rule}&lec_t=1")
    tie = page.locator(".lec .maths p.tie")
    short = {"negative": "mistake iff y·(w·x) < 0", "nonpositive": "mistake iff y·(w·x) ≤ 0"}
    short["predict_ge"] = "predict +1 iff w·x ≥ 0"
    expect(tie).to_have_text(f"A tie (w·x = 0): by the rule “{short[rule]}” this is {verdict}.")
    X4, y4 = make_dataset("four_points")
    margins = train(X4, y4, bias=False, rule=rule, record_steps=True).steps.margin
    off = [t + 1 for t, m in enumerate(margins) if m != 0]
    if off:  # under the strict rule w = 0 never moves: every step is a tie
        button(page, "reset").click()
        for _ in range(off[0]):
            button(page, "step").click()
        expect(page.locator(".lec .status")).to_contain_text(f"step t = {off[0]} of")
        expect(tie).to_have_count(0)


def test_a_step_out_of_the_window_loads_the_next_one(app_url, page):
    open_lecture(page, app_url, "?data_n=150&lec_t=99")
    expect(status(page)).to_contain_text("step t = 99 of")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # 101: the next window, fetched from the server
    expect(status(page)).to_contain_text("step t = 101 of", timeout=15_000)
    X150, Y150 = make_dataset("separable", n=150, seed=0)
    k = train(X150, Y150, record_steps=True).mistakes_before(101)
    expect(status(page)).to_contain_text(f"mistakes k = {k}")
    page.keyboard.press("ArrowLeft")
    expect(status(page)).to_contain_text("step t = 100 of")


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_presenter_mode_fits_a_projector_without_scrolling(app_url, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        open_lecture(page, app_url, "?app_presenter=1&lec_t=9")
        expect(page.locator(".lec.presenter")).to_be_visible()
        page.wait_for_timeout(500)
        assert page.evaluate("window.scrollY") == 0
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()

        def inside(box: dict) -> bool:
            return (
                box["y"] >= 0
                and box["y"] + box["height"] <= height
                and box["x"] >= 0
                and (box["x"] + box["width"] <= width)
            )

        for what in (button(page, "step"), status(page), page.locator(".lec .maths")):
            assert inside(what.bounding_box()), what
        frames = page.locator(".lec .fig rect.frame")
        assert frames.count() == 4  # the data panel and the proof's three
        for j in range(4):
            assert inside(frames.nth(j).bounding_box()), j
        for j in range(4):  # every title whole and on screen
            assert inside(page.locator(".lec .fig .title").nth(j).bounding_box()), j
        body = page.evaluate("getComputedStyle(document.body).fontSize")
        ticks = page.locator(".lec .fig .grid text").first.evaluate(
            "e => getComputedStyle(e).fontSize"
        )
        assert float(ticks[:-2]) >= 0.85 * float(body[:-2])  # readable from the back
        page.screenshot(path=f"tests/browser/screenshots/lecture-presenter-{width}.png")
    finally:
        context.close()


def test_the_copy_link_button_gives_a_link_to_this_step(app_url, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        open_lecture(page, app_url)
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        expect_step(page, 3)
        button(page, "copy").click()
        expect(page.locator(".lec .note")).to_contain_text("Link copied")
        link = page.evaluate("navigator.clipboard.readText()")
        assert "lec_t=3" in link
        page.goto(link)
        expect(page.locator(".lec .fig")).to_be_visible(timeout=30_000)
        expect_step(page, 3)
    finally:
        context.close()


def test_without_a_clipboard_the_link_is_shown_selected(app_url, page):
    """http:// on a lecture hall's network is no secure context: no clipboard API."""
    open_lecture(page, app_url, "?lec_t=5")
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    button(page, "copy").click()
    box = page.locator(".lec .note .linkbox")
    expect(box).to_be_visible()
    assert "lec_t=5" in box.input_value()


def test_reduced_motion_plays_one_step_a_second(app_url, browser):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        open_lecture(page, app_url)
        page.locator(".lec select.speed").select_option("30")
        button(page, "play").click()
        page.wait_for_timeout(2200)
        button(page, "play").click()
        assert 1 <= chart_t(page) <= 3  # not 60
        expect(page.locator(".lec .note")).to_contain_text("Reduced motion")
    finally:
        context.close()


# every element whose transition or animation lasts longer than a millisecond
MOVES = """() => [...document.querySelectorAll('*')].filter(e => {
  const s = getComputedStyle(e);
  const times = (s.transitionDuration + ',' + s.animationDuration).split(',').map(parseFloat);
  return Math.max(...times) > 0.001;
}).map(e => e.getAttribute('data-testid') || e.className || e.tagName)"""


def test_with_reduced_motion_nothing_on_the_page_moves_by_itself(app_url, browser):
    """Streamlit slides its sidebar and fades a rerun's elements; asked for less motion,
    every transition and animation of the page ends at once (the app's own rule)."""
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        open_lecture(page, app_url)
        run_ended(page)
        assert page.evaluate(MOVES) == []
        page.emulate_media(reduced_motion="no-preference")  # the rule is asked for, not always
        expect(page.get_by_test_id("stSidebar")).to_be_visible()
        assert "stSidebar" in page.evaluate(MOVES)
    finally:
        context.close()


def test_colour_is_not_the_only_cue_and_lines_keep_contrast(app_url, page):
    open_lecture(page, app_url, "?lec_t=3")
    plus = page.locator(".lec .fig .points circle.plus").count()
    minus = page.locator(".lec .fig .points path.minus").count()
    assert (plus, minus) == (int((Y > 0).sum()), int((Y < 0).sum()))  # two shapes

    def luminance(rgb: str) -> float:
        c = np.array([int(v) for v in re.findall(r"\d+", rgb)[:3]]) / 255
        c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])

    for sel in (".wline", ".warrow", ".bound", ".shown", ".wstar", ".low", ".up"):
        el = page.locator(f".lec .fig {sel}").first
        stroke = el.evaluate("e => getComputedStyle(e).stroke")
        assert 1.05 / (luminance(stroke) + 0.05) >= 3, (sel, stroke)


def test_a_clicker_steps_and_blanks_the_screen_in_presenter_mode(page: Page, app_url) -> None:
    """A presenter's clicker sends PageDown / PageUp and B: in presenter mode they are Step,
    Back and a black screen; off presenter mode PageDown is the page's own (it scrolls)."""
    open_lecture(page, app_url)
    page.keyboard.press("PageDown")
    page.wait_for_timeout(300)
    expect_step(page, 0)  # not presenting: no step
    page.keyboard.press("p")
    expect(page.locator(".lec.presenter")).to_be_visible()
    for _ in range(3):
        page.keyboard.press("PageDown")
    expect_step(page, 3)
    page.keyboard.press("PageUp")
    expect_step(page, 2)
    page.keyboard.press("b")
    blank = page.locator("#perceptron-blank")
    expect(blank).to_be_visible()
    box, view = blank.bounding_box(), page.viewport_size
    assert (box["x"], box["y"], box["width"], box["height"]) == (
        0,
        0,
        view["width"],
        view["height"],
    )
    colour = blank.evaluate("b => getComputedStyle(b).backgroundColor")
    assert colour == "rgb(0, 0, 0)"
    expect(blank).to_have_attribute("aria-label", re.compile("press B to show it again"))
    page.keyboard.press("b")
    expect(blank).to_have_count(0)
    page.keyboard.press(".")  # some clickers send "." for the black screen
    expect(blank).to_be_visible()
    page.keyboard.press("ArrowRight")  # the first other key only brings the screen back
    expect(blank).to_have_count(0)
    expect_step(page, 2)


# Streamlit drops a fragment's rerun that arrives while a whole page's run has not drawn the
# fragment yet. Here the page itself loses its next report (its trigger is swallowed once,
# until the server's next redraw gives the page its trigger again), as such a drop would.
# the player's next message of one kind (a report "at", the "presenter" switch) lost on
# the way, as Streamlit drops a fragment's rerun that arrives during a whole page's run
LOSE_NEXT = """(kind) => {
  const S = window.__perceptronLecture;
  const real = S.setTrigger;
  window.__lost = 0;
  S.setTrigger = (name, value) => {
    if (name === kind && window.__lost === 0) { window.__lost = 1; return; }
    real(name, value);
  };
}"""


def test_a_lost_report_is_sent_again_and_the_step_arrives(app_url, page):
    open_lecture(page, app_url, "?data_n=150&lec_t=99")
    expect(status(page)).to_contain_text("step t = 99 of")
    page.evaluate(LOSE_NEXT, "at")
    page.keyboard.press("End")  # the last step: outside the window, asked of the server
    expect(page.locator(".lec .note")).to_contain_text("Loading steps")
    X150, Y150 = make_dataset("separable", n=150, seed=0)
    end = train(X150, Y150, record_steps=True).n_steps
    # the first report was lost: the page asks again after 2 s, and the step arrives
    expect(status(page)).to_contain_text(f"step t = {end:,} of", timeout=20_000)
    assert page.evaluate("window.__lost") == 1
    expect(page).to_have_url(re.compile(rf"lec_t={end}\b"), timeout=10_000)
    # inside the window too: a post of a step the page drew that the route does not answer
    # (no network, another server) goes through the session, so the session (another page,
    # the offline file) has the step
    failed: list[str] = []
    page.route(
        "**/api/step", lambda route: (failed.append(route.request.url), route.abort()), times=1
    )
    page.keyboard.press("ArrowLeft")
    expect(status(page)).to_contain_text(f"step t = {end - 1:,} of")
    page.wait_for_timeout(1500)  # the pause's post, refused, and the report through the session
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="The proof").click()
    expect(page).to_have_url(re.compile(rf"/proof\?(.*&)?lec_t={end - 1}\b"), timeout=20_000)
    assert len(failed) == 1
    page.unroute_all(behavior="ignoreErrors")  # no handler left for a request as the page closes


def test_a_lost_presenter_switch_is_sent_again_and_presenter_mode_comes(app_url, page):
    open_lecture(page, app_url)
    page.evaluate(LOSE_NEXT, "presenter")
    page.keyboard.press("p")
    # the switch was lost: the page sends it again after 2 s, and presenter mode comes
    expect(page.locator(".lec.presenter")).to_be_visible(timeout=15_000)
    assert page.evaluate("window.__lost") == 1
    page.keyboard.press("p")  # and leaves, with nothing lost
    expect(page.locator(".lec.presenter")).to_have_count(0, timeout=15_000)
