"""Mischievous students: attacks on one server while another student steps.

Every attack runs against a fresh ``streamlit run app.py`` on 127.0.0.1 (started and
stopped here, by its own PID), over Streamlit's own websocket protocol (the client of
``tools.app_client``). Throughout, a victim session in a process of its own steps on
the lecture page every 0.25 s (a 20,000-step XOR run, so every step moves): what the
browser sends when a step pauses, the lecture player's ``at`` report of t + 1 (a
fragment rerun; the window's last step reruns the whole page, once in 100). Its
latency (BackMsg sent -> script_finished) is recorded first in a quiet phase with
the attackers connected and idle, then during the attack. The ratio is the attack's
median over the quiet median of the same server in the same run
(``benchmarks/attack_victim.py``).

Attacks (``--attacks``, comma-separated groups), each in a file of its own:

- ``canvas``, ``player`` (``benchmarks/attack_components.py``): one trigger of a
  component carrying 8,000 events or as many as a frame holds, from 3 and from 8
  connections, again and again; each with a control of one event a message;
- ``table`` (``benchmarks/attack_table.py``): the margin lab's keyboard table sent
  60,000 added rows (full, or empty), then a few ordinary reruns of that session;
- ``log`` (``benchmarks/attack_log.py``): 3 sessions stepping at 200,000 steps with the
  mistake log open;
- ``cold``, ``cache``, ``url`` (``benchmarks/attack_opens.py``): pages opened as new
  sessions: 50 cold opens of the variants page at once (20 with ``--quick``); sustained
  cold opens of every page at its heaviest settings, the server's RSS (VmRSS of it and
  its children) sampled every second and summarised against ``--ceiling-mb``, then for
  ``--settle`` s more with no attacker (closed sessions are kept by Streamlit for
  120 s); 8 connections opening page after page with plain, hostile and huge links;
- ``posts`` (``benchmarks/attack_opens.py``): 8 keep-alive connections posting to a
  student's step route (``/api/step``) as fast as answered, every body one it refuses
  (no report, a key never given out, past the bound);
- ``many``, ``tabs``, ``codes``, ``seats`` (``benchmarks/attack_crowd.py``): 100 sessions
  each sending five step reports a second; one client opening 20 new tabs a second
  and keeping them while a hall of 600 real tabs opens and stays (a student elsewhere
  opens a page every second: its first page's time; the server's open files and
  threads); 300 sessions of one client sending
  wrong class codes, and 100 joining and leaving a class, while a student elsewhere
  joins every second (every one must get in); ``hallcodes``: 16 fresh browsers a second
  from the hall's own address sending wrong codes while classmates behind that address
  join every second; ``closedseats``: 25 fresh browsers a second joining and closing the
  tab without Leave (500 seats in 20 s) while a student elsewhere joins every second;
- ``store`` (``benchmarks/attack_store.py``): 4 sessions of one address, and 20 of an
  address each, uploading distinct 5,000-point CSVs as fast as they are answered for
  ``--store-seconds`` (600; quick 90) into an empty store capped at ``--store-mb`` (64;
  quick 8, so that it fills) while a class of 30 seats and answers is live and 10
  students' datasets were opened; a real student joins every 2 s;
- ``markup`` (``benchmarks/attack_markup.py``; a correctness check, no victim): every
  page opened from a link with hostile values and with 1,000 unknown parameters; fails
  if any text the browser renders as markdown holds live markup made from them, or if
  more than a handful of warnings are shown.

Goals: each attack leaves the victim's step median within 2x its
quiet figure (``ratio <= 2``; ``many``: within 2x + 20 ms), and the server's RSS stays
below the ceiling (1 GB); under sustained cold requests it levels off there; ``tabs``:
a student's first page p95 <= 2 s and every tab of the hall in, the server held to
1,024 open files (``--files``, a common default); ``codes``, ``seats``, ``hallcodes``,
``closedseats``: no real student refused; ``store``: nothing of the class nor any student's
dataset lost, no real student refused, every writer whose data were not kept told so on its
page, the store within its cap.
Everything is bounded in count and time; traffic goes only to 127.0.0.1.

Run:  python benchmarks/attack.py [--quick] [--attacks canvas,player,table,log,cold,
      cache,url,posts,many,tabs,codes,seats,hallcodes,closedseats,store,markup] [--quiet 8]
      [--duration 10]
      [--app-dir DIR] [--files 1024] [--store-mb 64] [--store-seconds 600]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import resource
import statistics
import sys
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.attack_components import component_attack, largest_n  # noqa: E402
from benchmarks.attack_crowd import (  # noqa: E402
    closed_seats_attack,
    codes_attack,
    hall_codes_attack,
    many_attack,
    seats_attack,
    tabs_attack,
)
from benchmarks.attack_log import log_attack  # noqa: E402
from benchmarks.attack_markup import (  # noqa: E402
    FIELDS,
    MAX_WARNINGS,
    hostile_query,
    huge_query,
    markup_check,
)
from benchmarks.attack_opens import HEAVY, heavy_queries, opens_attack, posts_attack  # noqa: E402
from benchmarks.attack_phases import (  # noqa: E402
    PAGES,
    AttackerStats,
    Phase,
    fresh_seed,
    server,
    setting_keys,
    widget_state_limit,
)
from benchmarks.attack_store import store_attack  # noqa: E402
from benchmarks.attack_table import table_attack  # noqa: E402
from benchmarks.attack_victim import PERIOD, RATIO_GOAL, Attack, Row, measure  # noqa: E402
from benchmarks.load_phases import verdict  # noqa: E402

CEILING_MB = 1024.0


def build_attacks(args: argparse.Namespace, limit: int, keys: list[str]) -> list[Attack]:
    quick = args.quick
    dur, tail = args.duration, args.tail
    wanted = set(args.attacks.split(","))
    attacks: list[Attack] = []

    def add(
        name: str,
        group: str,
        run: Callable[[int, Phase, AttackerStats], Coroutine[Any, Any, None]],
        duration: float = dur,
        t: float = tail,
    ) -> None:
        if group in wanted:
            attacks.append(Attack(name, group, run, duration, t))

    for kind in ("canvas", "player"):
        big = args.large_n or largest_n(kind, limit)
        cases = [(8000, 3), (big, 8)] if quick else [(8000, 3), (8000, 8), (big, 3), (big, 8)]
        controls = [(1, c) for c in sorted({c for _, c in cases})]
        for n, conns in [*controls, *cases]:  # one event a message: a real gesture, as often

            async def run(
                p: int, ph: Phase, st: AttackerStats, k: str = kind, n: int = n, c: int = conns
            ) -> None:
                await component_attack(p, ph, st, kind=k, n=n, conns=c)

            label = (
                f"{kind}: {n:,} events x{conns}" if n > 1 else f"{kind}: 1 event x{conns} (control)"
            )
            add(label, kind, run)

    run_timeout = 40.0 if quick else 120.0
    for empty in (False, True):

        async def table(p: int, ph: Phase, st: AttackerStats, e: bool = empty) -> None:
            await table_attack(
                p, ph, st, rows=60_000, empty=e, reruns=1 if quick else 3, run_timeout=run_timeout
            )

        what = "empty rows" if empty else "rows"
        add(
            f"table: 60,000 {what} + reruns", "table", table, dur, 2 * run_timeout if quick else 300
        )

    async def log(p: int, ph: Phase, st: AttackerStats) -> None:
        await log_attack(p, ph, st, conns=3)

    add("log: 200,000 steps, log open x3", "log", log)

    cold_n = 20 if quick else 50

    async def cold(p: int, ph: Phase, st: AttackerStats) -> None:
        rng = random.Random(11)
        q = HEAVY["variants"] + "&data_seed={}"
        await opens_attack(
            p,
            ph,
            st,
            queries=lambda k: ("variants", q.format(fresh_seed(rng))),
            conns=cold_n,
            total=cold_n,
            once=True,
        )

    add(f"cold: {cold_n} variants opens at once", "cold", cold, dur, 90 if quick else 180)

    requests = args.cache_requests or (40 if quick else 240)
    seconds = args.cache_seconds or (60 if quick else 300)

    async def cache(p: int, ph: Phase, st: AttackerStats) -> None:
        await opens_attack(p, ph, st, queries=heavy_queries(5), conns=3, total=requests)

    if "cache" in wanted:
        name = f"cache: {requests} cold heavy opens"
        attacks.append(Attack(name, "cache", cache, seconds, 30, 1.0, args.settle))

    hostile, huge = hostile_query(keys, fields=FIELDS), huge_query(limit)
    floods = {
        "url: plain opens x8 (control)": lambda k: (PAGES[k % len(PAGES)], ""),
        "url: 1,000 hostile params x8": lambda k: (PAGES[k % len(PAGES)], hostile),
        f"url: {len(huge) / 1e6:.1f} MB query x8": lambda k: (PAGES[k % len(PAGES)], huge),
    }
    for name, queries in floods.items():

        async def flood(
            p: int, ph: Phase, st: AttackerStats, q: Callable[[int], tuple[str, str]] = queries
        ) -> None:
            await opens_attack(p, ph, st, queries=q, conns=8, total=10_000)

        add(name, "url", flood)

    async def posts(p: int, ph: Phase, st: AttackerStats) -> None:
        await posts_attack(p, ph, st, conns=8)

    if "posts" in wanted:
        attacks.append(Attack("posts: 8 scripts flood /api/step", "posts", posts, dur, tail))

    crowd = 40 if quick else 100

    async def many(p: int, ph: Phase, st: AttackerStats) -> None:
        await many_attack(p, ph, st, conns=crowd, rate=5.0)

    if "many" in wanted:
        name = f"many: {crowd} sessions x 5/s"
        attacks.append(Attack(name, "many", many, dur, tail, slack_ms=20))

    tab_s = 30.0 if quick else 120.0
    hall = 200 if quick else 600

    async def tabs(p: int, ph: Phase, st: AttackerStats) -> None:
        await tabs_attack(p, args.server_pid, ph, st, rate=20.0, hall=hall)

    if "tabs" in wanted:  # judged by the student's first page and the hall's tabs
        name = f"tabs: 20 new a second for {tab_s:.0f} s, a hall of {hall}"
        attacks.append(Attack(name, "tabs", tabs, tab_s, tail, judged=False))
    coders = 60 if quick else 300

    async def codes(p: int, ph: Phase, st: AttackerStats) -> None:
        await codes_attack(p, ph, st, conns=coders)

    if "codes" in wanted:  # judged by the real students' joins
        attacks.append(
            Attack(
                f"codes: {coders} sessions' wrong codes", "codes", codes, dur, tail, judged=False
            )
        )
    churners = 30 if quick else 100

    async def seats(p: int, ph: Phase, st: AttackerStats) -> None:
        await seats_attack(p, ph, st, conns=churners)

    if "seats" in wanted:  # judged by the real students' seats
        attacks.append(
            Attack(f"seats: {churners} join and leave", "seats", seats, dur, tail, judged=False)
        )

    async def hallcodes(p: int, ph: Phase, st: AttackerStats) -> None:
        await hall_codes_attack(p, ph, st, rate=16.0)

    if "hallcodes" in wanted:  # judged by the classmates' joins behind the same address
        name = "hallcodes: 16 fresh browsers a second from the hall's address"
        attacks.append(Attack(name, "hallcodes", hallcodes, dur, tail, judged=False))

    async def closedseats(p: int, ph: Phase, st: AttackerStats) -> None:
        await closed_seats_attack(p, ph, st, rate=25.0)

    if "closedseats" in wanted:  # judged by the real students' seats
        name = "closedseats: 25 fresh browsers a second join and close the tab"
        attacks.append(Attack(name, "closedseats", closedseats, max(dur, 30.0), tail, judged=False))
    store_mb = args.store_mb or (8.0 if quick else 64.0)
    store_s = args.store_seconds or (90.0 if quick else 600.0)
    for writers, spread in ((4, False), (20, True)):

        async def stored(
            p: int, ph: Phase, st: AttackerStats, w: int = writers, sp: bool = spread
        ) -> None:
            await store_attack(
                p, ph, st, setting=args.store_setting, cap=int(store_mb * 1e6), writers=w, spread=sp
            )

        if "store" in wanted:  # judged by what is lost
            where = f"{writers} addresses" if spread else "one address"
            attacks.append(
                Attack(
                    f"store: {writers} writers, {where}",
                    "store",
                    stored,
                    store_s,
                    60.0,
                    judged=False,
                    env={"PERCEPTRON_STORE_MAX_MB": f"{store_mb:g}"},  # and a store: main
                )
            )
    return attacks


HEADER = (
    f"{'attack':<34} {'victim med':>10} {'p95':>8} {'ratio':>6} {'n':>4}  "
    f"{'attacker outcome':<44} {'attacker time':<24} {'RSS max':>8}  verdict"
)


def format_row(row: Row, ceiling: float) -> str:
    ratio = row.ratio
    ratio_text = ("≥" if row.attack.bound(0.5) else "") + (
        f"{ratio:.1f}" if ratio == ratio else "-"
    )
    outcome = row.error or row.stats.outcome_text()
    return (
        f"{row.name:<34} {row.attack.text(0.5):>10} {row.attack.text(0.95):>8} "
        f"{ratio_text:>6} {len(row.attack.all_ms):>4}  {outcome[:44]:<44} "
        f"{row.stats.time_text():<24} {row.rss_max:>6.0f}MB  {verdict(row.ok(ceiling))}"
    )


def memory_summary(row: Row, ceiling: float) -> tuple[str, bool]:
    curve = row.rss
    if len(curve) < 3:
        return "memory: too few samples", False
    third = max(1, len(curve) // 3)
    early, last = max(curve[: len(curve) - third]), max(curve[-third:])
    growth = last - early
    levelled = growth <= 0.05 * ceiling
    ok = max(curve) <= ceiling and levelled
    text = (
        f"memory under {row.name} ({len(curve)} samples, 1/s): start {curve[0]:.0f} MB, "
        f"max {max(curve):.0f} MB, last {curve[-1]:.0f} MB, max over the last third "
        f"{last:.0f} MB ({growth:+.0f} MB over the earlier max: "
        f"{'levels off' if levelled else 'still growing'}); ceiling {ceiling:.0f} MB: "
        f"{'PASS' if ok else 'FAIL'}"
    )
    if row.settled:
        text += (
            f"\n  then {len(row.settled)} s with no attacker (Streamlit keeps a closed "
            f"session 120 s): {row.settled[0]:.0f} -> {row.settled[-1]:.0f} MB "
            f"(min {min(row.settled):.0f} MB)"
        )
    return text, ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter phases, fewer cases")
    groups = (
        "canvas,player,table,log,cold,cache,url,posts,many,tabs,codes,seats,hallcodes,"
        "closedseats,store,markup"
    )
    parser.add_argument("--attacks", default=groups, help=f"comma-separated of {groups}")
    parser.add_argument("--quiet", type=float, help="quiet phase, s (8; quick 4)")
    parser.add_argument("--duration", type=float, help="attack phase, s (10; quick 4)")
    parser.add_argument("--tail", type=float, help="wait for outstanding answers, s (30; 10)")
    parser.add_argument("--large-n", type=int, default=0, help="events in the large message")
    parser.add_argument("--cache-requests", type=int, default=0, help="cold opens (240; 40)")
    parser.add_argument("--cache-seconds", type=float, default=0, help="bound, s (300; 60)")
    parser.add_argument(
        "--settle", type=float, help="cache: sample RSS this long after, s (150; quick 0)"
    )
    parser.add_argument("--ceiling-mb", type=float, default=CEILING_MB)
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="serve the app from here")
    parser.add_argument(
        "--files", type=int, default=1024, help="the server's open-file limit (0: as started)"
    )
    parser.add_argument("--store-mb", type=float, default=0, help="store: its cap, MB (64; 8)")
    parser.add_argument("--store-seconds", type=float, default=0, help="store: s (600; 90)")
    args = parser.parse_args()
    args.quiet = args.quiet or (4.0 if args.quick else 8.0)
    args.duration = args.duration or (4.0 if args.quick else 10.0)
    args.tail = args.tail if args.tail is not None else (10.0 if args.quick else 30.0)
    args.settle = args.settle if args.settle is not None else (0.0 if args.quick else 150.0)
    app_dir = args.app_dir.resolve()
    limit = widget_state_limit(app_dir)
    keys = setting_keys(app_dir)
    attacks = build_attacks(args, limit, keys)
    log_path = Path(tempfile.gettempdir()) / "perceptron_attack_server.log"
    log_path.write_bytes(b"")
    print(
        f"app in {app_dir}; server.maxWidgetStateSize {limit / 1e6:g} MB; a fresh server per "
        f"attack (log {log_path}); victim: a step on /lecture every {PERIOD} s; quiet "
        f"{args.quiet:g} s, attacks {args.duration:g} s (+ up to {args.tail:g} s for answers)"
    )
    print("latencies in ms; ≥: a press still unanswered when the attack ended (a lower bound)")
    print(HEADER, flush=True)
    rows: list[Row] = []
    failed = False
    for attack in attacks:
        if attack.group == "store":  # a store of its own, empty, for each such attack
            path = Path(tempfile.mkdtemp(prefix="perceptron_attack_store_")) / "store.sqlite3"
            args.store_setting = attack.env["PERCEPTRON_STORE"] = f"sqlite://{path}"
        with server(app_dir, log_path, attack.env) as (proc, port):
            args.server_pid = proc.pid
            if args.files:  # a fixed hard limit too: the server cannot raise it
                resource.prlimit(proc.pid, resource.RLIMIT_NOFILE, (args.files, args.files))
            row = asyncio.run(measure(port, proc.pid, attack, args.quiet))
        rows.append(row)
        failed |= not row.ok(args.ceiling_mb)
        print(format_row(row, args.ceiling_mb), flush=True)

    def kin(row: Row) -> tuple[str, str]:  # the page or component, and its connections
        found = re.search(r" x(\d+)", row.name)
        return row.name.split(":")[0], found.group(1) if found else ""

    controls = {kin(r): r for r in rows if "control" in r.name and r.stats.times_ms}
    for row in rows:
        control = controls.get(kin(row))
        notes = [f"quiet median {row.quiet.text(0.5)} ms (n {len(row.quiet.all_ms)})"]
        notes += [n for n in row.stats.notes if n]
        if row.name.startswith("url") and row.stats.max_warnings:
            notes.append(f"up to {row.stats.max_warnings} warnings a page")
        if row.stats.markup:
            notes.append(f"live markup {len(row.stats.markup)}: {row.stats.markup[0][:80]}")
        if control is not None and row is not control and row.stats.times_ms:
            mine = statistics.median(row.stats.times_ms)
            base = statistics.median(control.stats.times_ms)
            notes.append(f"attacker median {mine:.0f} ms, {mine / base:.1f}x the control's")
        if row.attack.errors:
            notes.append(f"victim errors: {row.attack.errors[:2]}")
        print(f"  {row.name}: " + "; ".join(notes))
    for row in rows:
        if row.rss and row.name.startswith("cache"):
            text, ok = memory_summary(row, args.ceiling_mb)
            failed |= not ok
            print(text)
    if "markup" in args.attacks.split(","):
        with server(app_dir, log_path) as (proc, port):
            marks = asyncio.run(markup_check(port, keys))
        print(f"\nmarkup from a link (at most {MAX_WARNINGS} warnings a page):")
        print(f"{'page':<10} {'link':<16} {'live markup':>11} {'warnings':>9}  verdict")
        for m in marks:
            failed |= not m.ok
            print(
                f"{m.page:<10} {m.link:<16} {len(m.markup):>11} {m.warnings:>9}  "
                f"{'PASS' if m.ok else 'FAIL'}"
            )
        for m in marks:
            for finding in (m.markup + m.errors)[:2]:
                print(f"  {m.page} / {m.link}: {finding[:150]}")
    print(
        f"\noverall: {verdict(not failed)} (goal: ratio <= {RATIO_GOAL:g}, RSS <= "
        f"{args.ceiling_mb:.0f} MB, no live markup, <= {MAX_WARNINGS} warnings a page)"
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
