"""A small class at once: the load benchmark's client against a live ``streamlit run``.

Five simulated students open /lecture over Streamlit's websocket protocol and step three
times each: the lecture player's report of t + 1, what the browser sends once a burst
of steps pauses (fragment reruns, or full ones); every answer must show the step one
further, and no run may fail. A sixth drags points on the margin lab: every answer must
draw the point where it was dropped. A step out of the player's window comes back as a
full rerun with the window that holds it; ``--class`` (students stepping in bursts)
and the full-rerun throughput run here in miniature. No timing assertions: the full-N
figures come from ``python benchmarks/load.py``.
"""

import asyncio
import concurrent.futures
import random
from collections.abc import Iterator
from typing import Any

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.load_class import run_class
from benchmarks.load_full_reruns import run_full_reruns
from benchmarks.load_steps import run_load
from tools import streamlit_server
from tools.app_client import Session
from tools.components import PlayerView, Where, verify
from tools.streamlit_client import RunView, stream_url


def run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: Playwright's sync API (the browser tests,
    same pytest process) leaves an event loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with streamlit_server.serve("app.py") as (_, url):
        yield streamlit_server.port_of(url)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("full_rerun", [False, True], ids=["fragment", "full"])
def test_sessions_step_without_errors_or_wrong_answers(port: int, full_rerun: bool) -> None:
    summary = run(
        run_load(
            port, sessions=6, presses=3, think=0.1, seed=1, full_rerun=full_rerun, draggers=1 / 6
        )
    )
    assert summary.messages == []
    assert (summary.errors, summary.wrong) == (0, 0)
    assert (summary.presses, summary.drags) == (5 * 3, 3)


def test_a_report_that_does_not_step_is_a_wrong_answer(port: int) -> None:
    """The check has teeth: a report to an unknown component leaves t where it was."""

    async def report_unknown() -> str | None:
        async with Session(stream_url(port)) as session:
            await session.open()
            session.player_id += "-not-a-widget"
            wrong: str | None = (await session.press_step())[1]
            return wrong

    wrong = run(report_unknown())
    assert wrong is not None and wrong.startswith("t = 0 after a report of t = 1 at t = 0")


def test_a_drop_the_page_refuses_is_a_wrong_answer(port: int) -> None:
    """The drag check has teeth too: a drop made on an old version of the data is refused
    by the margin lab (the point stays), and the client reports it."""

    async def stale_drop() -> str | None:
        async with Session(stream_url(port), page="margin") as s:
            await s.open()
            s.scene["v"] -= 1  # as if the drop had been made on the data before the last edit
            wrong: str | None = (await s.drag(random.Random(0)))[1]
            return wrong

    wrong = run(stale_drop())
    assert wrong is not None and wrong.startswith("point ")


@pytest.mark.timeout(180)
def test_a_long_run_does_not_hold_up_another_students_steps(port: int) -> None:
    """Eight students open the longest runs the caps allow (500 points x 400 epochs, the
    200,000-step cap, new seeds so nothing is cached) while another steps three
    times: every step is answered before the long runs are done, so heavy settings never
    freeze the class (they queue for the heavy-work slot; steps do not wait for it).
    Eight, because one such run takes about 0.1 s, as long as a step under load."""
    url = stream_url(port)
    heavy = "data_name=xor&data_n=500&lec_max_epochs=400&lec_t=199999&data_seed={}"

    async def scenario() -> tuple[list[float], list[float], int]:
        async with Session(url) as stepper:
            await stepper.open()
            finished: list[float] = []

            async def long_run(seed: int) -> None:
                async with Session(url, query_string=heavy.format(seed)) as s:
                    await s.open()
                    assert s.n_steps == 200_000
                    finished.append(asyncio.get_running_loop().time())

            tasks = [asyncio.create_task(long_run(1000 + i)) for i in range(8)]
            await asyncio.sleep(0.05)  # their runs have started
            answered = []
            for _ in range(3):
                _, wrong = await stepper.press_step()
                assert wrong is None
                answered.append(asyncio.get_running_loop().time())
            await asyncio.gather(*tasks)
            return answered, finished, stepper.t

    answered, finished, t = run(scenario())
    assert t == 3
    assert max(answered) < max(finished), (answered, finished)


LONG = "data_name=xor&lec_max_epochs=500"  # 20,000 steps: 200 windows of 100


def test_a_step_out_of_the_window_reruns_the_page_with_the_window_that_holds_it(
    port: int,
) -> None:
    """Inside the window a report reruns the fragment; past its end, before its start, or
    as a replay playing on, the whole page, with the window that holds the step."""

    async def scenario() -> list[tuple[str, str | None, bool, tuple[int, int]]]:
        async with Session(stream_url(port), LONG) as s:
            await s.open()
            assert (s.t, s.start, s.stop, s.n_steps) == (0, 0, 100, 20_000)
            out = []
            for what, target, play in [
                ("inside", 7, False),
                ("past the end", 150, False),
                ("inside", 151, False),
                ("a replay playing on", 201, True),
                ("back before the start", 12, False),
                ("past the run's end", 10**9, False),
                ("reset", 0, False),
            ]:
                _, wrong = await s.report(target, play)
                assert s.last is not None
                out.append((what, wrong, s.last.full, (s.start, s.stop)))
            return out

    answers = run(scenario())
    assert [wrong for _, wrong, _, _ in answers] == [None] * len(answers), answers
    assert [full for _, _, full, _ in answers] == [False, True, False, True, True, True, True]
    assert [window for *_, window in answers] == [
        (0, 100),
        (100, 200),
        (100, 200),
        (200, 300),
        (0, 100),
        (19_900, 20_000),
        (0, 100),
    ]


def test_an_answer_that_does_not_hold_together_is_a_wrong_answer() -> None:
    """``verify`` has teeth: a step out of the window answered by a fragment rerun, an
    old ``seq``, a window without the step, a status line that says another step."""
    before = Where(t=5, start=0, stop=100, T=20_000, play=0)

    def answer(finish: int, **player: object) -> object:
        fields: dict[str, object] = {"id": "x", "fragment_id": "f", "t": 150, "T": 20_000}
        fields |= {"start": 100, "stop": 200, "seq": 3, "views": 101}
        fields["status"] = ["epoch 4, example 30 of 40", "step t = 150 of 20,000", "k = 9"]
        return RunView(status=finish, player=PlayerView(**(fields | player)))

    full = ForwardMsg.FINISHED_SUCCESSFULLY
    fragment = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY

    def check(view: object, target: int = 150, play: bool = False) -> str | None:
        return verify(view, target, 3, before, full_rerun=False, play=play)

    assert check(answer(full)) is None
    assert "fragment rerun" in (check(answer(fragment)) or "")
    assert "seq = 2" in (check(answer(full, seq=2)) or "")
    assert "does not hold" in (check(answer(full, start=200, stop=300)) or "")
    assert "says" in (check(answer(full, status=["step t = 149 of 20,000"])) or "")
    assert "t = 150 after" in (check(answer(full), target=151) or "")
    assert "play on" in (check(answer(full), play=True) or "")
    assert "no lecture player" in (check(RunView(status=full)) or "")
    inside = Where(t=140, start=100, stop=200, T=20_000, play=0)
    assert verify(answer(fragment), 150, 3, inside, full_rerun=False) is None
    assert "full rerun" in (verify(answer(full), 150, 3, inside, full_rerun=False) or "")


@pytest.mark.timeout(180)
def test_a_class_stepping_in_bursts_gets_right_answers(port: int) -> None:
    """``--class`` in miniature: 8 students, one report a burst (t + 1..8), a third
    of the bursts leaving the window; every answer right, and those out of the window
    answered by full reruns."""
    summary = run(
        run_class(port, 8, 6.0, think=(0.2, 0.6), leave=0.35, query=LONG, seed=3, ramp=1.0)
    )
    assert summary.messages == []
    assert summary.opened == 8 and summary.actions >= 30
    assert summary.left >= 5 and summary.full >= summary.left


@pytest.mark.timeout(120)
@pytest.mark.parametrize("reports", [False, True], ids=["plain", "reports"])
def test_full_page_reruns_back_to_back_are_answered_right(port: int, reports: bool) -> None:
    summary = run(run_full_reruns(port, 4, 3.0, reports=reports, ramp=0.5))
    assert summary.messages == []
    assert summary.actions >= 4 and summary.full == summary.actions
