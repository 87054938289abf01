"""Scripts uploading datasets flat out into a small store on a real ``redis-server`` while
a class is live, against a real server: nothing of the class and no dataset opened this
week is lost, the real students still get seats, every writer whose data were not kept
was told so on its page, and the store stays within its cap.

What ``benchmarks/attack.py --attacks store`` does for ten minutes with the default
cap, here for ``ATTACK_S`` seconds with a 1 MB cap and 1,000-point CSVs, so that the
store is full within seconds and every write after that must be refused.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from benchmarks.attack_phases import AttackerStats, Phase
from benchmarks.attack_store import store_attack
from tests.load.test_load import run
from tools import streamlit_server

CAP_MB = 1
ATTACK_S = 15.0
WRITERS = 4
ROWS = 1_000  # about 20 kB a dataset: the cap's room for datasets is full after ~40


def test_uploads_flat_out_lose_nothing_a_class_needs_and_are_told_no(tmp_path: Path) -> None:
    from store.conftest import RedisServer  # tests/store's real redis-server

    redis = RedisServer(tmp_path)
    redis.start()
    env = {"PERCEPTRON_STORE": redis.url, "PERCEPTRON_STORE_MAX_MB": str(CAP_MB)}
    stats = AttackerStats()
    try:
        with streamlit_server.serve("app.py", env=env) as (_, url):
            port = streamlit_server.port_of(url)
            phase = Phase(ATTACK_S, 10.0)

            async def attack() -> None:
                task = asyncio.create_task(
                    store_attack(
                        port,
                        phase,
                        stats,
                        setting=redis.url,
                        cap=CAP_MB * 1_000_000,
                        writers=WRITERS,
                        spread=True,
                        rows=ROWS,
                    )
                )
                await phase.ready.wait()
                phase.start()
                phase.go.set()
                await asyncio.wait_for(task, ATTACK_S + 60)

            run(attack())
    finally:
        redis.stop()
    report = f"{dict(stats.outcomes)}; {stats.notes}"
    failures = {k: v for k, v in stats.outcomes.items() if k.isupper() and v}
    assert not failures, report  # ROOM LOST, DATASET LOST, WRITER NOT TOLD, ...
    assert stats.outcomes["kept"] > 0, report  # the writers' first datasets were kept ...
    assert stats.outcomes["not kept"] > 0, report  # ... until the store was full
    joined = [n for n in stats.notes if n.startswith("real students:")]
    assert joined and joined[0].endswith(" 0 refused"), report
    assert int(joined[0].split()[2]) >= 2, report  # they came in, one every JOIN_EVERY s
