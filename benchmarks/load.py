"""A class at once: simulated students on the lecture page, over Streamlit's own protocol.

Starts one ``streamlit run app.py`` on a free port (``tools.streamlit_server``), then
simulates students without a browser (``tools.app_client``: the lecture player's reports
and the margin lab's drops, exactly as the browser sends them; every answer verified).
One scenario a run, each in a file of its own:

- the default (``benchmarks/load_steps.py``): ``--sessions`` N students press Step, a
  share of them dragging on the margin lab; one row per N;
- ``--class N`` (``benchmarks/load_class.py``): N students stepping in bursts, as the
  browser player lets them; the server's CPU and whether it keeps up;
- ``--full-reruns`` (``benchmarks/load_full_reruns.py``): full-page reruns a second,
  against a reference copy of the app with ``--reference DIR``;
- ``--room N`` (``benchmarks/load_room.py``): N students following a lecturer in one
  room, every tab left open and polling; a question asked, answered and revealed;
- ``--room N --play`` (``benchmarks/load_play.py``): N students following a lecturer who
  presses Play at 2 and at 8 steps/s: each follower's step against the lecturer's;
- ``--through-nginx N`` (``benchmarks/load_nginx.py``): any of them through nginx in
  front of N app servers with Redis, as ``scripts/serve_class.sh`` runs them.

``--port`` sends the students to a server that is already running, ``--url
http://HOST:PORT`` to a front door that is (nginx in front of several servers). Each
scenario's file states its goals; the run exits 1 if one is missed.

Run:  python benchmarks/load.py [--sessions 10,20,50,100] [--presses 10] [--think 1.0]
      python benchmarks/load.py --class 200 [--duration 30] [--leave 0.1]
      python benchmarks/load.py --full-reruns [--sessions 50] [--reference DIR]
      python benchmarks/load.py --through-nginx 2 [--sessions 100,200]
      python benchmarks/load.py --url http://HOST:PORT [--sessions 100]
      python benchmarks/load.py --room 100 [--changes 10] [--gap 4] [--idle 15]
      python benchmarks/load.py --room 100 --through-nginx 2
      python benchmarks/load.py --room 50 --play [--play-s 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load_class import class_report  # noqa: E402
from benchmarks.load_full_reruns import full_rerun_report  # noqa: E402
from benchmarks.load_nginx import through_nginx  # noqa: E402
from benchmarks.load_phases import CLASS_QUERY  # noqa: E402
from benchmarks.load_play import play_report  # noqa: E402
from benchmarks.load_room_report import room_report  # noqa: E402
from benchmarks.load_steps import sessions_table, warm_up  # noqa: E402
from tools import streamlit_server  # noqa: E402
from tools.live import Door  # noqa: E402
from tools.streamlit_client import CLOSED_OR_FAILED, stream_url  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", help="comma-separated N values (10,20,50,100)")
    parser.add_argument("--presses", type=int, default=10, help="Step presses per session")
    parser.add_argument("--think", type=float, default=1.0, help="think time: uniform(x, 2x) s")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="open the sessions over this many s (0: at once; --class and --full-reruns: N/5 s)",
    )
    parser.add_argument(
        "--draggers", type=float, default=0.2, help="share of sessions dragging on the margin lab"
    )
    parser.add_argument("--full-rerun", action="store_true", help="no fragment_id: whole page")
    parser.add_argument(
        "--class",
        dest="class_size",
        type=int,
        default=0,
        help="N students stepping in bursts (200)",
    )
    parser.add_argument(
        "--leave", type=float, default=0.1, help="--class: share of bursts leaving the window"
    )
    parser.add_argument(
        "--full-reruns",
        action="store_true",
        help="full-page reruns a second with --sessions N (50) sessions",
    )
    parser.add_argument(
        "--duration", type=float, default=30.0, help="--class, --full-reruns: measured s"
    )
    parser.add_argument(
        "--query", default="", help=f"--class ({CLASS_QUERY}), --full-reruns (''): the URL's query"
    )
    parser.add_argument(
        "--reference", type=Path, help="--full-reruns: also measure the app in this directory"
    )
    parser.add_argument(
        "--room",
        type=int,
        default=0,
        metavar="N",
        help="N students (100) following a lecturer in one room, a question",
    )
    parser.add_argument("--changes", type=int, default=10, help="--room: the lecturer's steps")
    parser.add_argument(
        "--play", action="store_true", help="--room: the lecturer plays; followers play along"
    )
    parser.add_argument("--play-s", type=float, default=6.0, help="--play: s at each speed")
    parser.add_argument("--gap", type=float, default=4.0, help="--room: s between the steps")
    parser.add_argument("--idle", type=float, default=15.0, help="--room: measured idle s")
    parser.add_argument(
        "--store",
        default=os.environ.get("PERCEPTRON_STORE", ""),
        help="--room with --port or --url: the store the server uses (its PERCEPTRON_STORE)",
    )
    parser.add_argument("--port", type=int, default=0, help="use a running server instead")
    parser.add_argument(
        "--app-dir",
        type=Path,
        default=ROOT,
        help="serve the app from this copy (a reference: another commit's worktree)",
    )
    parser.add_argument(
        "--url",
        default="",
        help="use a running front door instead (http://host:port: nginx before several servers)",
    )
    parser.add_argument(
        "--through-nginx",
        type=int,
        default=0,
        metavar="N",
        help="start N servers + Redis + nginx and send the students through nginx "
        "(--sessions: 100,200, beside one server directly)",
    )
    args = parser.parse_args()
    args.sessions_given = args.sessions is not None
    args.sessions = args.sessions or ("50" if args.full_reruns else "10,20,50,100")

    if args.through_nginx:
        sys.exit(0 if through_nginx(args) else 1)
    proc = None
    port: int | str = args.url or args.port
    log_path = Path(tempfile.gettempdir()) / "perceptron_load_server.log"
    env: dict[str, str] = {}
    if args.room and not port:  # the room is made in the store the server is given
        room_dir = tempfile.mkdtemp(prefix="perceptron-room-")
        args.store = env["PERCEPTRON_STORE"] = os.path.join(room_dir, "room.sqlite3")
    elif args.room and not args.store:
        sys.exit("--room with --port or --url needs --store: the server's PERCEPTRON_STORE")
    with open(os.devnull if port else log_path, "wb") as log:
        if not port:
            proc, url = streamlit_server.start(
                "app.py", log=log, env=env, app_dir=args.app_dir.resolve()
            )
            port = streamlit_server.port_of(url)
            print(f"streamlit run app.py on port {port} (pid {proc.pid}, log {log_path})")
        pid = proc.pid if proc is not None else None
        try:
            try:
                asyncio.run(warm_up(port, args.full_rerun))
            except (*CLOSED_OR_FAILED,) as exc:
                sys.exit(f"warm-up failed: {exc}")
            if args.room and args.play:
                door = Door(stream_url(port))
                ok = play_report(args, args.store, door, [door] * args.room, pid)
            elif args.room:
                door = Door(stream_url(port))
                where = f"one server, pid {pid}" if pid else f"the server at {port}"
                ok = room_report(args, args.store, [door], [door] * args.room, pid, where)
            elif args.class_size:
                ok = class_report(args, port, pid)
            elif args.full_reruns:
                ok = full_rerun_report(args, port, pid, log)
            else:
                ok = sessions_table(args, port, pid)
        finally:
            if proc is not None:
                streamlit_server.stop(proc)
            if "PERCEPTRON_STORE" in env:
                shutil.rmtree(Path(env["PERCEPTRON_STORE"]).parent, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
