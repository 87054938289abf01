"""The class page in presenter mode through AppTest: the join view alone on the projector,
the board with the best few, the lecturer's menu, and presenter mode left as it was.
"""

from __future__ import annotations

from room_helpers import (
    ADMIN,
    block,
    board_drawings,
    fresh_store,  # noqa: F401 (each test's own store)
    keys_in,
    presenting,
    room_of,
    shown,
    student,
    submit_from_margin_lab,
    texts,
    within,
)

from ui.classmode import classroom as cr


def test_presenter_mode_shows_the_join_view_alone_on_the_projector(monkeypatch) -> None:
    at, seat = presenting(monkeypatch)
    student(seat.code, "Ana")
    student(seat.code, "Bo")
    at.run()
    assert block(at, "room_presenter_on") is not None  # the page's presenter CSS is on
    screen = block(at, "room_screen")
    assert at.button_group(key="room_view_pick").value == "join"
    said = shown(screen).replace("**", "")
    assert cr.shown_code(seat.code) in said and "2 students have joined" in said
    assert "lab\\.example\\.edu" in said  # the join address
    qr = at.get("image")
    assert len(qr) == 1 and any(n is qr[0] for n in within(screen))  # the QR code
    # on the projector: the switch and the way out of presenter mode; the lecturer's
    # controls only in the menu beside them (closed until the lecturer opens it), never
    # under the screen a scroll away, and no lecturer link on the projector's page
    assert keys_in(screen) >= {"room_view_pick", "room_presenter_off"}
    menu = [n for n in within(screen) if getattr(n, "type", "") == "popover"]
    assert len(menu) == 1 and menu[0].proto.popover.label == "Lecturer's controls"
    assert {"room_ch_open", "room_csv", "room_close"} <= keys_in(menu[0])
    assert not (keys_in(screen) - keys_in(menu[0])) & ADMIN
    page = block(at, "room_presenter_on")
    assert not (keys_in(page) - keys_in(screen)) & ADMIN
    # the private lecturer link and the remote's: in the menu, folded, nowhere else on the
    # page; the remote's carries the key in its fragment, never in its query
    links = [n for n in within(page) if type(n).__name__ == "Code"]
    assert len(links) == 2 and all(any(n is c for n in within(menu[0])) for c in links)
    remote_link = next(c.value for c in links if "/remote?" in c.value)
    assert remote_link.endswith(f"/remote?room={seat.code}#key={seat.secret}")


def test_presenter_mode_shows_the_board_with_the_best_few_and_keeps_the_view(
    monkeypatch,
) -> None:
    at, seat = presenting(monkeypatch)
    at.button(key="room_ch_open").click().run()  # under the projector's screen
    submit_from_margin_lab(seat.code, "<b>Ana</b>", 1.0)
    submit_from_margin_lab(seat.code, "Bo", 2.0)
    at.button_group(key="room_view_pick").set_value("board").run()
    assert not at.exception
    screen = block(at, "room_screen")
    said = shown(screen)
    assert "The margin challenge" in said and "at most **10 points**" in said
    assert "\\<b\\>Ana\\<\\/b\\>" in said and "| #2 |" in said  # the best few, escaped
    assert "2 submissions; 2 of them make at most" in said
    drawings = board_drawings(screen)
    assert drawings and all('aria-label="Mistakes M against the bound' in d for d in drawings)
    assert all("Ana" not in d for d in drawings)  # no nickname in the chart
    assert len(at.get("image")) == 0  # the board alone: no QR code
    # the controls in the menu beside the view switch, the submissions' picker under it
    menu = next(n for n in within(screen) if getattr(n, "type", "") == "popover")
    assert not (keys_in(screen) - keys_in(menu)) & ADMIN
    assert "room_ch_close" in keys_in(menu)
    assert {"room_pick", "room_open"} <= keys_in(block(at, "room_presenter_on"))
    # the choice outlives the page: Step by step and back, the board again
    at.switch_page("pages/lecture.py").run()
    at.switch_page("pages/room.py").run()
    assert at.button_group(key="room_view_pick").value == "board"
    assert board_drawings(block(at, "room_screen"))


def test_leaving_presenter_mode_gives_the_class_page_as_it_was(monkeypatch) -> None:
    at, seat = presenting(monkeypatch)
    at.button(key="room_presenter_off").click().run()
    assert not at.exception
    assert at.session_state["app_presenter"] is False
    assert at.sidebar.toggle[0].value is False  # the sidebar's switch agrees
    assert block(at, "room_presenter_on") is None and block(at, "room_screen") is None
    assert block(at, "room_board") is not None  # join and board on one page, as always
    assert cr.shown_code(seat.code) in texts(at)


def test_in_presenter_mode_the_menu_opens_a_challenge_and_closes_the_class(monkeypatch) -> None:
    """The projector's menu holds the lecturer's controls, and they act as under the page:
    a challenge opens, and closing the class ends it and shows the lecturer its recap."""
    at, seat = presenting(monkeypatch)
    at.button(key="room_ch_open").click().run()
    assert not at.exception and room_of(seat.code).challenge is not None
    at.checkbox(key="room_sure").check().run()
    at.button(key="room_close").click().run()
    assert not at.exception
    assert room_of(seat.code).closed and "room_seat" not in at.session_state
    assert block(at, "room_screen") is None  # the projector's class view is gone
    assert f"Class {cr.shown_code(seat.code)} is closed: the recap" in [t.value for t in at.title]
