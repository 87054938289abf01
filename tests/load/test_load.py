"""A small class at once: the load benchmark's client against a live ``streamlit run``.

Five simulated students open /lecture over Streamlit's websocket protocol and press
Step three times each (fragment reruns); every answer must advance the step counter by
exactly one and no run may fail. A sixth drags points on the margin lab: every answer
must draw the point where it was dropped. No timing assertions: the full-N figures come from
``python benchmarks/load.py``.
"""

import asyncio
import concurrent.futures
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks import streamlit_server


def run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: Playwright's sync API (the browser tests,
    same pytest process) leaves an event loop running in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# benchmarks/load.py under its own name: this test package is itself called ``load``.
_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"
_SPEC = importlib.util.spec_from_file_location("benchmark_load", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
load = importlib.util.module_from_spec(_SPEC)
sys.modules["benchmark_load"] = load  # dataclasses look their module up by name
_SPEC.loader.exec_module(load)


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    server, url = streamlit_server.start("app.py")
    port = int(url.rsplit(":", 1)[1])
    try:
        yield port
    finally:
        streamlit_server.stop(server)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("full_rerun", [False, True], ids=["fragment", "full"])
def test_sessions_step_without_errors_or_wrong_answers(port: int, full_rerun: bool) -> None:
    summary = run(
        load.run_load(
            port, sessions=6, presses=3, think=0.1, seed=1, full_rerun=full_rerun, draggers=1 / 6
        )
    )
    assert summary.messages == []
    assert (summary.errors, summary.wrong) == (0, 0)
    assert (summary.presses, summary.drags) == (5 * 3, 3)


def test_a_press_that_does_not_step_is_a_wrong_answer(port: int) -> None:
    """The check has teeth: a trigger for an unknown widget leaves t where it was."""

    async def press_unknown() -> str | None:
        async with load.Session(f"ws://127.0.0.1:{port}/_stcore/stream") as session:
            await session.open()
            session.step_id += "-not-a-widget"
            wrong: str | None = (await session.press_step())[1]
            return wrong

    assert run(press_unknown()) == "t = 0 after a press at t = 0"


def test_a_drop_the_page_refuses_is_a_wrong_answer(port: int) -> None:
    """The drag check has teeth too: a drop made on an old version of the data is refused
    by the margin lab (the point stays), and the client reports it."""

    async def stale_drop() -> str | None:
        async with load.Session(f"ws://127.0.0.1:{port}/_stcore/stream", page="margin") as s:
            await s.open()
            s.scene["v"] -= 1  # as if the drop had been made on the data before the last edit
            wrong: str | None = (await s.drag(load.random.Random(0)))[1]
            return wrong

    wrong = run(stale_drop())
    assert wrong is not None and wrong.startswith("point ")


@pytest.mark.timeout(180)
def test_a_long_run_does_not_hold_up_another_students_steps(port: int) -> None:
    """Eight students open the longest runs the caps allow (500 points x 400 epochs, the
    200,000-step cap, new seeds so nothing is cached) while another presses Step three
    times: every Step is answered before the long runs are done, so heavy settings never
    freeze the class (they queue for the heavy-work slot; Steps do not wait for it).
    Eight, because one such run now takes about 0.1 s, as long as a Step under load."""
    url = f"ws://127.0.0.1:{port}/_stcore/stream"
    heavy = "data_name=xor&data_n=500&lec_max_epochs=400&lec_t=199999&data_seed={}"

    async def scenario() -> tuple[list[float], list[float], int]:
        async with load.Session(url) as stepper:
            await stepper.open()
            finished: list[float] = []

            async def long_run(seed: int) -> None:
                async with load.Session(url, query_string=heavy.format(seed)) as s:
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
