"""The attacks that open pages as new sessions, ``cold``, ``cache`` and ``url``; and
``posts``, scripts flooding a student's step route.

- ``cold``: 50 sessions (20 with ``--quick``) open the variants page at once, at its
  largest settings with fresh seeds.
- ``cache``: sustained cold requests, each a new session with a fresh seed, on every
  page at its heaviest settings (:data:`HEAVY`), by 3 workers, until ``--cache-requests``
  or ``--cache-seconds``; the server's RSS is watched throughout.
- ``url``: 8 connections open page after page with (a) plain URLs (a control: the same
  traffic without hostile parameters), (b) a hostile value in every setting and 1,000
  unknown parameters, (c) a query string as large as a frame may be
  (``benchmarks/attack_markup.py``).
"""

from __future__ import annotations

import asyncio
import random
import socket
import time
from collections.abc import Callable

from benchmarks.attack_markup import live_markup_in
from benchmarks.attack_phases import (
    CLOSED_BY_SERVER,
    NO_ANSWER,
    AttackerStats,
    Phase,
    answered,
    fresh_seed,
    timed,
    visit,
    warnings_of,
)
from tools.streamlit_client import RunView

# The heaviest settings of each page (a fresh data_seed and exp_seed are added per request).
HEAVY = {
    "lecture": "data_name=xor&data_n=500&lec_max_epochs=500&lec_t=200000",
    "proof": "data_name=xor&data_n=500&lec_max_epochs=500&prf_orders=200&lec_t=200000",
    "variants": "var_runs=200&var_n=500&var_epochs=100&data_n=500&var_data=shared",
    "sgd": "data_name=xor&data_n=500&sgd_epochs=100&sgd_batch=1&sgd_order=shuffle",
    "xor": "data_name=xor&data_n=500&xor_data=shared&xor_epochs=200",
    "experts": "exp_n=100&exp_k=1&exp_days=2000&exp_behaviour=adversarial",
    "margin": "data_name=xor&data_n=500&mar_max_epochs=500",
}


async def opens_attack(
    port: int,
    phase: Phase,
    stats: AttackerStats,
    *,
    queries: Callable[[int], tuple[str, str]],
    conns: int,
    total: int,
    once: bool = False,
) -> None:
    """``conns`` workers open pages (``queries(k)`` -> (page, query string)) as new
    sessions, one after another, until ``total`` opens or the deadline (``once``:
    every worker opens one page, all at the same time)."""
    deadline = await phase.begin()
    counter = iter(range(total))

    async def worker() -> None:
        for k in counter:
            if time.monotonic() >= deadline and not once:
                return
            page, query = queries(k)
            view = await timed(stats, visit(port, page, query, phase.left()))
            if view == NO_ANSWER:
                return
            if view == CLOSED_BY_SERVER:
                continue
            assert isinstance(view, RunView)
            stats.max_warnings = max(stats.max_warnings, warnings_of(view))
            stats.markup += [f"{page or 'home'}: {m}" for m in live_markup_in(view)]
            stats.outcomes[answered(view)] += 1
            if once:
                return

    await asyncio.gather(*(worker() for _ in range(conns)))


def heavy_queries(seed: int) -> Callable[[int], tuple[str, str]]:
    rng = random.Random(seed)
    pages = list(HEAVY)

    def query(k: int) -> tuple[str, str]:
        page = pages[k % len(pages)]
        s = fresh_seed(rng)
        return page, f"{HEAVY[page]}&data_seed={s}&exp_seed={s}"

    return query


# What a script may post to a student's step route (ui/live/reports.py), each refused:
# JSON that is no report, a key the server never gave out, and a body past the bound.
POST_BODIES = (
    b"{",
    b'{"k": "' + b"0" * 32 + b'", "t": 1, "seq": 1, "run": "' + b"a" * 32 + b'"}',
    b'{"k": [' + b"1," * 200 + b"1]}",
)


async def posts_attack(port: int, phase: Phase, stats: AttackerStats, *, conns: int) -> None:
    """``conns`` keep-alive connections post bodies of :data:`POST_BODIES` to
    ``/api/step`` as fast as each is answered, until the deadline; the outcomes are the
    answers' statuses."""
    deadline = await phase.begin()

    async def worker(w: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as a browser's
        try:
            k = w
            while time.monotonic() < deadline:
                body = POST_BODIES[k % len(POST_BODIES)]
                k += 1
                start = time.perf_counter()
                writer.write(
                    b"POST /api/step HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
                status = int((await reader.readline()).split()[1])
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                stats.times_ms.append((time.perf_counter() - start) * 1000)
                stats.outcomes[f"answered {status}"] += 1
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as exc:
            stats.outcomes[f"closed ({type(exc).__name__})"] += 1
        finally:
            writer.close()

    await asyncio.gather(*(worker(w) for w in range(conns)))
