"""``--through-nginx N``: the load scenarios through the front door.

Starts N app servers, one ``redis-server`` and nginx on this machine with the same code
as ``scripts/serve_class.sh`` (``deploy/class_server.py``: sticky sessions by a cookie
hash, so simulated students, who carry no cookie, are spread over the servers) and
connects the students to nginx's ``/_stcore/stream``; each server and then nginx are
warmed up first. With the default measurement it runs each N of ``--sessions`` (100,200)
through nginx and then the same load on one of the servers directly, in the same run,
and prints how many sessions each server got and its CPU. ``--class``, ``--full-reruns``
and ``--room`` run through nginx the same way (``--room``: the students with sticky
cookies of their own, the server each reaches read from nginx's log, and a lecturer
session on each server).

Goals: 100 students through nginx over 2 servers on this 2-core machine with a Step
median of at most 100 ms and no errors; 200 with no errors.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.load_class import class_report
from benchmarks.load_full_reruns import full_rerun_report
from benchmarks.load_phases import Meter, Pids, print_failures, verdict
from benchmarks.load_room_report import room_report
from benchmarks.load_steps import HEADER, load_of, row, warm_up
from tools.live import Door
from tools.streamlit_client import CLOSED_OR_FAILED, stream_url

if TYPE_CHECKING:
    from deploy.class_server import Class


def through_nginx(args: argparse.Namespace) -> bool:
    """``--through-nginx N``: N app servers, Redis and nginx on this machine
    (``deploy.class_server``, what ``scripts/serve_class.sh`` runs), the simulated
    students sent to nginx; the default measurement beside the same load on one of the
    servers directly, in the same run."""
    from deploy import class_server

    with class_server.serve_class(args.through_nginx) as cls:
        pids = tuple(a.proc.pid for a in cls.apps)
        print(
            f"nginx on {cls.url} in front of {len(cls.apps)} app servers "
            f"({', '.join(a.url for a in cls.apps)}; pids {', '.join(map(str, pids))}), "
            f"store {cls.store}; configurations and logs in {cls.run_dir}"
        )
        try:
            for app in cls.apps:  # each server's first runs, then once through the front door
                asyncio.run(warm_up(app.port, args.full_rerun))
            asyncio.run(warm_up(cls.url, args.full_rerun))
        except (*CLOSED_OR_FAILED,) as exc:
            sys.exit(f"warm-up failed: {exc}")
        if args.room:
            return nginx_room(args, cls)
        if args.class_size:
            return class_report(args, cls.url, pids)
        if args.full_reruns:
            with open(os.devnull, "wb") as log:
                return full_rerun_report(args, cls.url, pids, log)
        return nginx_sessions(args, cls)


def sticky_doors(cls: Class, n: int, rng: random.Random) -> list[Door]:
    """``n`` browsers through nginx, each with a sticky cookie of its own, as nginx sets it
    on a browser's first request; the server each cookie reaches is read from nginx's log
    of a first plain request with it (a websocket is logged only when it closes)."""
    import urllib.request

    keys = [f"{rng.getrandbits(64):016x}" for _ in range(n)]
    for key in keys:
        health = urllib.request.Request(
            f"{cls.url}/_stcore/health", headers={"Cookie": f"perceptron_server={key}"}
        )
        with urllib.request.urlopen(health, timeout=10) as answer:
            answer.read()
    deadline = time.perf_counter() + 10
    while True:  # nginx logs a request just after its answer has gone
        served = {route: up.split(",")[-1].strip() for _, up, route in cls.routes()}
        if all(k in served for k in keys) or time.perf_counter() > deadline:
            break
        time.sleep(0.05)
    index = {app.address: i for i, app in enumerate(cls.apps)}
    url = stream_url(cls.url)
    return [Door(url, {"Cookie": f"perceptron_server={k}"}, index[served[k]]) for k in keys]


def nginx_room(args: argparse.Namespace, cls: Class) -> bool:
    """``--room N --through-nginx M``: the students through nginx (spread over the servers
    by their cookies), one lecturer session on each server (the first by its lecturer's
    start, the others by the lecturer link), stepping in turn: a student follows a lecturer
    on another server at every other change."""
    rng = random.Random(args.seed)
    students = sticky_doors(cls, args.room, rng)
    lecturers: dict[int, Door] = {}
    while len(lecturers) < len(cls.apps):
        for door in sticky_doors(cls, 4, rng):
            lecturers.setdefault(door.server, door)
    pids = tuple(a.proc.pid for a in cls.apps)
    where = f"nginx {cls.url} before {len(cls.apps)} app servers, CPU summed over them"
    ordered = [lecturers[i] for i in sorted(lecturers)]
    return room_report(args, cls.store, ordered, students, pids, where)


def nginx_pids(master: int) -> tuple[int, ...]:
    """nginx's master and its worker processes (Linux /proc)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return (master, *map(int, children))


def nginx_sessions(args: argparse.Namespace, cls: Class) -> bool:
    """Each N of ``--sessions`` (100,200): through nginx, then on one server directly.

    Goals: 100 students through nginx over 2 servers with a Step median of at
    most 100 ms and no errors or wrong answers; 200 with no errors or wrong answers."""
    counts = [int(n) for n in args.sessions.split(",") if n.strip()] if args.sessions_given else []
    counts = counts or [100, 200]
    one = cls.apps[0]
    print(
        f"{'fragment' if not args.full_rerun else 'full'} reruns; think time "
        f"uniform({args.think:g}, {2 * args.think:g}) s; {args.presses} actions each; sessions "
        f"open over {args.ramp:g} s; {args.draggers:.0%} of them drag points on the margin lab"
    )
    print(
        "latency: BackMsg sent -> script_finished received (see the default table); "
        f"server cpu: the servers' CPU summed, in cores x 100% ({os.cpu_count()} cores)"
    )
    print(f"{'where':<22}" + HEADER)
    ok, failures = True, []
    for n in counts:
        ways: list[tuple[str, int | str, Pids]] = [
            (f"nginx, {len(cls.apps)} servers", cls.url, tuple(a.proc.pid for a in cls.apps)),
            ("one server directly", one.port, one.proc.pid),
        ]
        for label, where, pids in ways:
            logged = len(cls.routes())
            meters = [Meter(p) for p in (pids if isinstance(pids, tuple) else (pids,))]
            meter, nginx = Meter(pids), Meter(nginx_pids(cls.nginx.pid))
            summary = load_of(args, where, n)
            _, server, client = meter.read()
            print(f"{label:<22}" + row(summary, server, client), flush=True)
            if where == cls.url:
                streams = [up for req, up, _ in cls.routes()[logged:] if "/_stcore/stream" in req]
                spread = ", ".join(
                    f"{a.address} {sum(up.split(',')[-1].strip() == a.address for up in streams)} "
                    f"sessions, cpu {m.read()[1]:.0%}"
                    for a, m in zip(cls.apps, meters, strict=True)
                )
                print(f"{'':<22}  per server: {spread}; nginx cpu {nginx.read()[1]:.0%}")
                good = summary.errors == 0 and summary.wrong == 0 and summary.presses > 0
                if n == 100:
                    fast = summary.median_ms <= 100
                    print(
                        f"{'':<22}  goal, 100 students through nginx: Step median "
                        f"{summary.median_ms:.0f} ms <= 100 ms and no errors or wrong answers: "
                        f"{verdict(fast and good)}"
                    )
                    ok = ok and fast and good
                elif n == 200:
                    print(
                        f"{'':<22}  goal, 200 students through nginx with no errors or wrong "
                        f"answers: {verdict(good)}"
                    )
                    ok = ok and good
            failures += [f"{label}, N={n}: {m}" for m in summary.messages]
    print(f"load average {Meter.load():.1f} (other work on the machine competes)")
    print_failures(failures)
    return ok
