"""A class in a room over Streamlit's own protocol: a student's session forges
the lecturer's controls and its own answers.

A real ``streamlit run`` on a real SQLite store in a temporary folder; the room and its
seats are made in that store (``ui.classmode.classroom``), the lecturer's sessions open with the
lecturer link (``?room=<code>&key=<secret>``) and a student's with its seat
(``?room=<code>`` and the seat's cookie), over the websocket the browser uses (the client of
``tools.app_client``). The ids of the lecturer's buttons are taken from the lecturer's
own sessions' deltas (an element's id is the same string in every session); the student's
session sends their trigger values, in the class strip's fragment and as whole-page
reruns, each with the room in the state where the button would act (no question, a
question open, a challenge open). The room's document must stay as it was, no exception
nor error may reach the student's page, and the page must go on working. The student's
own answer widget gets forged values (not a choice, 10 kB, an old question's widget,
made-up widget ids): nothing may be counted. Values of another kind than the widget's
(a number for the pills) count nothing and break no page, not even the forger's own
(``ui/server/guard.py`` drops them before Streamlit keeps them). Another seat's id is not part of
the protocol (a session answers only as its own seat), so it cannot be forged.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

import perceptron_store as store_mod
from benchmarks.load_room import ROOM_QUERY
from tools import streamlit_server
from tools.app_client import Session
from tools.live import seat_cookie, with_cookies
from tools.streamlit_client import OK_FINISH, RunView, stream_url
from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import strip as class_strip

from .test_load import run

FRAGMENT_OK = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
LECTURER_BUTTONS = (
    "room_ask",
    "room_again",
    "room_reveal",
    "room_ch_open",
    "room_ch_close",
    "room_close",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(websocket URL, store path) of a server on its own SQLite store."""
    path = str(tmp_path_factory.mktemp("room-store") / "room.sqlite3")
    with streamlit_server.serve("app.py", env={"PERCEPTRON_STORE": path}) as (_, url):
        yield stream_url(streamlit_server.port_of(url)), path


@pytest.fixture
def room(server: tuple[str, str]) -> tuple[str, store_mod.Store, cr.Room, str]:
    """(websocket URL, store, a new room, its secret)."""
    url, path = server
    s = store_mod.open_store(path)
    made, secret = cr.create_room(s)
    return url, s, made, secret


def lecturer(url: str, code: str, secret: str, page: str = "lecture") -> Session:
    """A lecturer's session opened with the lecturer link (on the lecture page, with the
    class's lecture: 4,000 steps)."""
    lecture = f"{ROOM_QUERY}&" if page == "lecture" else ""
    return Session(url, query_string=f"{lecture}room={code}&key={secret}", page=page)


def student(url: str, code: str, seat: str, page: str = "room") -> Session:
    """A student's tab, by default on the class page, where the question card is the class
    strip's (on Step by step the lecture's instrument draws it, rerun by the server)."""
    headers = with_cookies(None, seat_cookie(code, seat))
    return Session(url, query_string=f"room={code}", page=page, headers=headers)


def strip(session: Session) -> str:
    """The class strip's fragment: the one the server asked to rerun on a timer."""
    assert len(session.auto_reruns) == 1, session.auto_reruns
    return next(iter(session.auto_reruns))


async def poll(session: Session) -> RunView:
    """What the browser's timer sends (see ``tools.live.Live``), and its answer."""
    return await session.request(session.poll_state(strip(session)))


async def act(session: Session, state: Any) -> RunView:
    """A lecturer's real action (a click), which must run cleanly."""
    view = await session.request(state)
    session.check(view)
    return view


async def told(*students: Session) -> None:
    """Each student's strip runs again, as its browser asks when the live channel tells it
    of the room's change (``ui/live/live.js``; a scripted client has no channel, so it asks
    as the strip's timer does): its page then shows the change."""
    for who in students:
        who.check(await poll(who))


@asynccontextmanager
async def asked(
    url: str, s: store_mod.Store, made: cr.Room, secret: str, *seats: str
) -> AsyncIterator[tuple[Session, list[Session], Any]]:
    """A lecturer's session and a student's tab for each seat, open; the lecturer has asked
    the class and every student's page got the question. Yields (the lecturer, the
    students, the question)."""
    async with AsyncExitStack() as stack:
        lec = await stack.enter_async_context(lecturer(url, made.code, secret))
        tabs = [await stack.enter_async_context(student(url, made.code, seat)) for seat in seats]
        for who in (lec, *tabs):
            await who.open()
        await act(lec, lec.press("room_ask"))
        question = cr.load_room(s, made.code, fresh=True).question
        await told(*tabs)
        yield lec, tabs, question


def harm(view: RunView) -> list[str]:
    """What must not reach a page: exceptions, error alerts, a run that did not finish."""
    bad = list(view.exceptions)
    bad += [body[:120] for fmt, body in view.alerts if fmt == Alert.ERROR]
    if view.status not in OK_FINISH:
        bad.append(f"script_finished status {view.status}")
    return bad


def snapshot(s: store_mod.Store, code: str) -> tuple[Any, ...]:
    """The room's document, its members and every question's answers, as the store has them."""
    doc = cr.load_room(s, code, fresh=True)
    assert doc is not None
    answers = {q.id: an.answers_of(s, doc, q.id) for q in doc.asked}
    return doc, s.fields(cr.members_key(code)), answers


def trigger(element_id: str) -> WidgetState:
    return WidgetState(id=element_id, trigger_value=True)


def forgeries(ids: dict[str, tuple[str, str]]) -> list[tuple[str, list[WidgetState], bool]]:
    """(what, widget states, in the strip) for every lecturer's button whose id is known:
    as a rerun of the student's class strip (a rerun of a fragment the session does not
    have, such as the lecturer's strip, is dropped unanswered) and as a whole-page rerun;
    "Close the class" with its "sure" checkbox ticked, "Open the challenge" with its
    numbers."""
    out = []
    for key in LECTURER_BUTTONS:
        if key not in ids:
            continue
        widgets = [trigger(ids[key][0])]
        if key == "room_close" and "room_sure" in ids:
            widgets.insert(0, WidgetState(id=ids["room_sure"][0], bool_value=True))
        if key == "room_ch_open" and "room_ch_n" in ids:
            widgets.insert(0, WidgetState(id=ids["room_ch_n"][0], int_value=3))
        for in_strip in (True, False):
            out.append((f"{key} ({'the strip' if in_strip else 'whole page'})", widgets, in_strip))
    return out


@pytest.mark.timeout(240)
@pytest.mark.parametrize("page", ["lecture", "room"])
def test_a_students_forged_lecturer_controls_change_nothing(room, page: str) -> None:
    """Each of the lecturer's buttons, forged by a student on the lecture page or the class
    page, in each state of the room where it would act: the room as it was, no harm on
    the student's page; then the page still follows the lecturer and counts an answer."""
    url, s, made, secret = room
    code = made.code
    seat = cr.join(s, made, "mallory")

    async def scenario() -> tuple[list[str], list[str], dict[str, Any]]:
        changed: list[str] = []
        harmed: list[str] = []
        async with (
            lecturer(url, code, secret) as lec,
            lecturer(url, code, secret, page="room") as projector,
            student(url, code, seat, page) as mallory,
        ):
            await lec.open()
            await projector.open()
            await mallory.open()
            ids = {**projector.keyed, **lec.keyed}

            async def forge_all(state_name: str) -> None:
                for what, widgets, in_strip in forgeries(ids):
                    before = snapshot(s, code)
                    # the strip's id as the page last drew it (a page run may draw it anew)
                    view = await mallory.rerun(widgets, strip(mallory) if in_strip else "")
                    harmed.extend(f"{state_name}, {what}: {h}" for h in harm(view))
                    if snapshot(s, code) != before:
                        changed.append(f"{state_name}, {what}")

            # no question, no challenge: Ask, Open the challenge and Close would act
            assert {"room_ask", "room_ch_open", "room_close", "room_sure"} <= set(ids)
            await forge_all("no question")
            # a question open: Reveal would act (the lecturer's real click)
            await act(lec, lec.press("room_ask"))
            assert cr.load_room(s, code, fresh=True).question is not None
            ids.update(lec.keyed)
            assert "room_reveal" in ids
            await forge_all("a question open")
            # a challenge open: Close the challenge would act
            await act(projector, projector.press("room_ch_open"))
            assert cr.load_room(s, code, fresh=True).challenge is not None
            await act(projector, projector.state())
            ids.update(projector.keyed)
            assert "room_ch_close" in ids
            await forge_all("a challenge open")

            # the student's page still works: it follows a step and an answer counts
            after: dict[str, Any] = {}
            if page == "lecture":
                target = lec.t + 3
                await act(lec, lec.report_state(target))
                await asyncio.sleep(cr.RECENT_S + 0.05)  # the server's copy of the room
                view = await poll(mallory)
                after["harm"] = harm(view)
                after["followed"] = view.player.t if view.player is not None else None
                after["target"] = target
            q = cr.load_room(s, code, fresh=True).question
            await mallory.settle()  # any run of the page still under way
            if page == "lecture":  # Step by step's card is the page's own, on its route
                assert mallory.card is not None
                said = {"ticket": mallory.card["ticket"], "vote": 1, "turn": None}
                said["ringed"] = mallory.card["ringed"]
                forged = [  # another question, a choice there is not, a vote not open
                    await mallory.card_call(said | {"q": q.id + 5, "said": 0}),
                    await mallory.card_call(said | {"q": q.id, "said": 7}),
                    await mallory.card_call(said | {"q": q.id, "said": 0, "vote": 2}),
                ]
                after["forged"] = [(status, got["said"]) for status, got in forged]
                after["forged_answers"] = an.answers_of(s, made, q.id)
                status, got = await mallory.card_call(said | {"q": q.id, "said": 0})
                after["card"] = (status, got["counted"])
            else:
                view = await mallory.request(mallory.choose(f"room_q{q.id}_said", "mistake"))
                after["harm"] = after.get("harm", []) + harm(view)
            after["answers"] = an.answers_of(s, made, q.id)
            return changed, harmed, after

    changed, harmed, after = run(scenario())
    assert changed == []
    assert harmed == []
    assert after["harm"] == []
    if page == "lecture":
        assert after["followed"] == after["target"]
        assert [status for status, _ in after["forged"]] == [200] * 3  # each said on the card
        assert [said.split(".")[0] for _, said in after["forged"]] == [
            "That question is no longer open",
            "That answer is not one of the choices",
            "That vote is not open",
        ]
        assert after["forged_answers"] == {}  # none counted
        assert after["card"] == (200, "Counted: you said mistake. " + CHANGE)
    assert list(after["answers"]) == [seat]
    assert json.loads(after["answers"][seat])["mistake"] is True


CHANGE = "You can change your answer until the lecturer reveals it."


def forged_answers(element_id: str) -> list[tuple[str, WidgetState]]:
    """Values of a student's answer widget (pills: ``string_array_value``, the formatted
    options) that are no answer."""

    def strings(*values: str) -> WidgetState:
        w = WidgetState(id=element_id)
        w.string_array_value.data.extend(values)
        return w

    return [
        ("not a choice", strings("maybe")),
        ("10 kB", strings("x" * 10_000)),
        ("a choice with a NUL", strings("mistake\x00")),
        ("a choice with a space", strings("mistake ")),
        ("html", strings("<img src=x onerror=alert(1)>")),
        ("nothing chosen", strings()),
    ]


def mistyped_answers(element_id: str) -> list[tuple[str, WidgetState]]:
    """Values of another kind than the answer widget's (``string_array_value``)."""
    return [
        ("a number", WidgetState(id=element_id, int_value=1)),
        ("a boolean", WidgetState(id=element_id, bool_value=True)),
        ("a trigger", WidgetState(id=element_id, trigger_value=True)),
        ("json", WidgetState(id=element_id, json_value='["mistake"]')),
        ("a string", WidgetState(id=element_id, string_value="mistake")),
    ]


def made_up(element_id: str, key: str) -> str:
    """An element id of the same form with another hash and key."""
    return f"$$ID-{'0' * 32}-{key}" if element_id.startswith("$$ID-") else key


@pytest.mark.timeout(180)
def test_forged_answers_are_not_counted(room) -> None:
    """The student's own answer widget with values that are no answer, an old question's
    widget once another question is open, and made-up widget ids: nothing is counted, the
    room is unchanged, nothing harms the page; a real answer afterwards counts."""
    url, s, made, secret = room
    code = made.code
    seat = cr.join(s, made, "mallory")

    async def scenario() -> tuple[list[str], list[str], dict[str, Any]]:
        counted: list[str] = []
        harmed: list[str] = []
        async with asked(url, s, made, secret, seat) as (lec, (mallory,), q1):
            said_1, fragment_id = mallory.element(f"room_q{q1.id}_said")
            assert fragment_id == strip(mallory)  # the strip draws the card

            async def forge(what: str, widget: WidgetState) -> None:
                before = snapshot(s, code)
                for where in (strip(mallory), ""):  # the strip's id as last drawn
                    view = await mallory.rerun([widget], where)
                    harmed.extend(f"{what}: {h}" for h in harm(view))
                    if snapshot(s, code) != before:
                        counted.append(f"{what} ({'fragment' if where else 'whole page'})")

            for what, widget in forged_answers(said_1):
                await forge(f"question {q1.id}, {what}", widget)
            # question 1 revealed, question 2 open: question 1's widget is no longer drawn
            await act(lec, lec.press("room_reveal"))
            await poll(lec)  # the lecturer's strip after the reveal's rerun: Ask again
            await act(lec, lec.press("room_ask"))
            q2 = cr.load_room(s, code, fresh=True).question
            assert q2.id == q1.id + 1
            await told(mallory)
            old = WidgetState(id=said_1)
            old.string_array_value.data.append("mistake")
            await forge(f"question {q1.id}'s widget while {q2.id} is open", old)
            for key in (f"room_q{q2.id}_said", f"room_q{q2.id + 5}_said", "room_ask"):
                fake = WidgetState(id=made_up(said_1, key))
                fake.string_array_value.data.append("mistake")
                await forge(f"a made-up widget id for {key}", fake)
            # a real answer to question 2 still counts
            view = await mallory.request(mallory.choose(f"room_q{q2.id}_said", "no mistake"))
            return (
                counted,
                harmed,
                {
                    "harm": harm(view),
                    "q1": an.answers_of(s, made, q1.id),
                    "q2": an.answers_of(s, made, q2.id),
                    "said": any("Counted: you said no mistake" in b for _, _, b in view.texts),
                },
            )

    counted, harmed, after = run(scenario())
    assert counted == []
    assert harmed == []
    assert after["harm"] == []
    assert after["q1"] == {}
    assert list(after["q2"]) == [seat]
    assert json.loads(after["q2"][seat])["mistake"] is False
    assert after["said"]


@pytest.mark.timeout(120)
def test_an_answer_replaced_by_a_new_one_is_counted_once(room) -> None:
    """Two students answer "mistake"; one changes to "no mistake": two answers, the new
    one in place of the old, and each page says what was counted."""
    url, s, made, secret = room
    ana, ben = cr.join(s, made, "ana"), cr.join(s, made, "ben")

    async def scenario() -> tuple[dict[str, bytes], list[str], list[bool]]:
        async with asked(url, s, made, secret, ana, ben) as (_, (a, b), q):
            key = f"room_q{q.id}_said"
            views = []
            for who in (a, b):
                views.append(await who.request(who.choose(key, "mistake")))
            await asyncio.sleep(0.6)  # a student thinks again (and the seat's answer rate)
            views.append(await a.request(a.choose(key, "no mistake")))
            said = [
                any(f"Counted: you said {text}." in body for _, _, body in view.texts)
                for view, text in zip(views, ("mistake", "mistake", "no mistake"), strict=True)
            ]
            harmed = [h for view in views for h in harm(view)]
            return an.answers_of(s, made, q.id), harmed, said

    answers, harmed, said = run(scenario())
    assert harmed == []
    assert said == [True, True, True]
    assert sorted(answers) == sorted([ana, ben])
    t = an.tally(answers)
    assert (t.answered, t.mistake, t.no_mistake) == (2, 1, 1)
    assert json.loads(answers[ana])["mistake"] is False
    assert json.loads(answers[ben])["mistake"] is True


def test_the_lecturer_buttons_have_the_same_id_in_every_session(room) -> None:
    """The premise of the forgeries: the id a student's session would need is the one any
    lecturer's page shows (two lecturer sessions, two rooms)."""
    url, s, made, secret = room
    other, other_secret = cr.create_room(s)

    async def ids(code: str, key: str) -> tuple[str, str]:
        async with lecturer(url, code, key) as lec, lecturer(url, code, key, "room") as p:
            await lec.open()
            await p.open()
            return lec.element("room_ask")[0], p.element("room_close")[0]

    assert run(ids(made.code, secret)) == run(ids(other.code, other_secret))


def test_the_client_reads_the_strips_auto_rerun(room) -> None:
    """The class strip comes with its ``auto_rerun`` in a lecturer's session (every second:
    the live tally) and a student's (every ``class_strip.HEARTBEAT_S``: a student's strip is
    rerun by its browser when the live channel tells of a change), and a poll reruns only that
    fragment. (Its fragment id is not the same string in both: the lecturer's page draws
    more before the strip.)"""
    url, s, made, secret = room
    seat = cr.join(s, made, "ana")

    async def scenario() -> list[tuple[list[float], Any]]:
        out = []
        async with lecturer(url, made.code, secret) as lec, student(url, made.code, seat) as a:
            for session in (lec, a):
                await session.open()
                out.append((list(session.auto_reruns.values()), (await poll(session)).status))
        return out

    assert run(scenario()) == [
        ([class_strip.POLL_S], FRAGMENT_OK),
        ([class_strip.HEARTBEAT_S], FRAGMENT_OK),
    ]


async def mistyped(url: str, s: store_mod.Store, made: cr.Room, secret: str) -> dict[str, Any]:
    """A student sends each value of another kind for its answer widget; another student
    answers afterwards. What the room, the answers and both pages show."""
    code = made.code
    seat, other = cr.join(s, made, "mallory"), cr.join(s, made, "ana")
    out: dict[str, Any] = {"changed": [], "forger": [], "other": []}
    async with asked(url, s, made, secret, seat, other) as (_, (mallory, ana), q):
        element_id, fragment_id = mallory.element(f"room_q{q.id}_said")
        assert fragment_id == strip(mallory)  # the strip draws the card
        for what, widget in mistyped_answers(element_id):
            before = snapshot(s, code)
            view = await mallory.rerun([widget], strip(mallory))  # its id as last drawn
            out["forger"] += [f"{what}: {h}" for h in harm(view)]
            out["other"] += [f"after {what}: {h}" for h in harm(await poll(ana))]
            if snapshot(s, code) != before:
                out["changed"].append(what)
        view = await ana.request(ana.choose(f"room_q{q.id}_said", "mistake"))
        out["other"] += harm(view)
        out["answers"] = an.answers_of(s, made, q.id)
        out["ana"] = other
    return out


@pytest.mark.timeout(120)
def test_a_mistyped_answer_changes_nothing_and_harms_no_other_page(room) -> None:
    """Values of another kind than the widget's (a number, a boolean, a trigger, JSON, a
    string): nothing counted, the room unchanged, another student's page unharmed and its
    answer counted."""
    url, s, made, secret = room
    out = run(mistyped(url, s, made, secret))
    assert out["changed"] == []
    assert out["other"] == []
    assert list(out["answers"]) == [out["ana"]]


@pytest.mark.timeout(120)
def test_a_mistyped_answer_does_not_break_the_forgers_own_page(room) -> None:
    url, s, made, secret = room
    assert run(mistyped(url, s, made, secret))["forger"] == []


def test_a_step_posted_as_the_class_starts_reaches_the_class(server) -> None:
    """A lecturer steps alone (the page posts each pause's step to ``/api/step``) and starts
    a class before that post arrives: the Start's run published the lecture without it, and
    the strip's next run gives the class the step the projector shows."""
    url, path = server

    async def scenario() -> tuple[dict[str, str], str | None]:
        async with Session(url, query_string=ROOM_QUERY, page="lecture") as lec:
            await lec.open()
            alone = lec.post  # the page alone posts its steps; in a class it reports them
            assert alone is not None
            view = await act(lec, lec.press("room_start_here"))
            await lec.settle()
            shown = re.findall(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}\b", " ".join(t for *_, t in view.texts))
            code = cr.normal_code(shown[0]) if shown else None
            assert code is not None, "no class code on the page"
            lec.post = alone  # the pause's post, sent before the Start, arrives after it
            _, wrong = await lec.post_report(3)
            await act(lec, lec.poll_state(strip(lec)))
            room_now = cr.load_room(store_mod.open_store(path), code, fresh=True)
            assert room_now is not None
            return room_now.lecture_query, wrong

    query, wrong = run(scenario())
    assert wrong is None
    assert query.get("lec_t") == "3", query
