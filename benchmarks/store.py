"""Store speed: put/get per second on SQLite and on a real redis-server,
beside a plain dict measured in the same run (the floor: no I/O, no copy).

For each backend, on a fresh store: ``--ops`` puts of distinct keys, then as many gets,
with a typical dataset's blob (40 points in 2-D, as the lecture uses) and with the
largest (5,000 points); then ``save_dataset`` and ``load_dataset`` (encode + content id +
put; get + decode + id check + touch) on 40 points; and how long a failed call takes
when the store is down (Redis stopped). Prints per-op microseconds, ops per second and
the ratio against the dict (compare the ratios, not the microseconds, between machines).

SQLite runs on a file in a temporary folder (WAL, synchronous=NORMAL); Redis on a
``redis-server`` started on a free loopback port without persistence, as in the tests.

Run:  python benchmarks/store.py [--ops 2000]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from perceptron_store import (
    MAX_MAP_FIELDS,
    MapFull,
    Store,
    StoreDown,
    encode_dataset,
    load_dataset,
    open_store,
    save_dataset,
)


class DictStore:
    """The floor: a dict behind the same interface (expiry kept, never checked). Only
    plain entries are measured; its maps are there so it is a whole ``Store``."""

    name = "dict"

    def __init__(self) -> None:
        self.data: dict[str, tuple[bytes, float]] = {}
        self.maps: dict[str, dict[str, bytes]] = {}

    def put(self, key: str, value: bytes, *, ttl: float) -> None:
        self.data[key] = (bytes(value), time.time() + ttl)

    def get(self, key: str) -> bytes | None:
        entry = self.data.get(key)
        return None if entry is None else entry[0]

    def touch(self, key: str, *, ttl: float) -> bool:
        entry = self.data.get(key)
        if entry is None:
            return False
        self.data[key] = (entry[0], time.time() + ttl)
        return True

    def put_field(
        self, key: str, field: str, value: bytes, *, ttl: float, max_fields: int | None = None
    ) -> int:
        fields = self.maps.setdefault(key, {})
        limit = MAX_MAP_FIELDS if max_fields is None else min(max_fields, MAX_MAP_FIELDS)
        if field not in fields and len(fields) >= limit:
            raise MapFull(f"the map {key!r} already holds {len(fields)} fields")
        fields[field] = bytes(value)
        return len(fields)

    def fields(self, key: str) -> dict[str, bytes]:
        return dict(self.maps.get(key, {}))

    def field(self, key: str, field: str) -> bytes | None:
        return self.maps.get(key, {}).get(field)

    def count_fields(self, key: str) -> int:
        return len(self.maps.get(key, {}))

    def delete_field(self, key: str, field: str) -> bool:
        fields = self.maps.get(key, {})
        found = fields.pop(field, None) is not None
        if not fields:
            self.maps.pop(key, None)
        return found

    def delete(self, key: str) -> bool:
        return (self.data.pop(key, None) is not None) | (self.maps.pop(key, None) is not None)

    def used_bytes(self) -> int:
        return sum(len(k) + len(v) for k, (v, _) in self.data.items())

    def close(self) -> None:
        self.data.clear()
        self.maps.clear()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return proc, port
        except OSError:
            time.sleep(0.02)
    proc.kill()
    raise RuntimeError("redis-server did not start")


def per_op(fn: Callable[[int], object], ops: int) -> float:
    """Seconds per call of fn(i), i = 0..ops-1."""
    start = time.perf_counter()
    for i in range(ops):
        fn(i)
    return (time.perf_counter() - start) / ops


def measure(store: Store, ops: int, blobs: dict[str, bytes]) -> dict[str, float]:
    out: dict[str, float] = {}
    for label, blob in blobs.items():
        keys = [f"{label.replace(' ', '-')}:{i}" for i in range(ops)]

        def put(i: int, b: bytes = blob, k: list[str] = keys) -> None:
            store.put(k[i], b, ttl=600)

        def get(i: int, k: list[str] = keys) -> bytes | None:
            return store.get(k[i])

        out[f"put {label}"] = per_op(put, ops)
        out[f"get {label}"] = per_op(get, ops)
    rng = np.random.default_rng(0)
    sets = [rng.uniform(-3, 3, (40, 2)) for _ in range(ops)]
    labels = np.where(sets[0][:, 0] > 0, 1.0, -1.0)
    ids: list[str] = []
    out["save_dataset 40"] = per_op(lambda i: ids.append(save_dataset(store, sets[i], labels)), ops)
    out["load_dataset 40"] = per_op(lambda i: load_dataset(store, ids[i]), ops)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", type=int, default=2_000)
    args = parser.parse_args()
    ops = args.ops
    rng = np.random.default_rng(1)
    small_X = rng.uniform(-3, 3, (40, 2))
    big_X = rng.uniform(-3, 3, (5_000, 2))
    blobs = {
        "40 pts": encode_dataset(small_X, np.where(small_X[:, 0] > 0, 1, -1)),
        "5000 pts": encode_dataset(big_X, np.where(big_X[:, 0] > 0, 1, -1)),
    }
    sizes = ", ".join(f"{k}: {len(v):,} B" for k, v in blobs.items())
    print(f"{ops:,} operations each; blobs {sizes}\n")

    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        proc, port = start_redis(workdir)
        try:
            stores: dict[str, Store] = {
                "dict": DictStore(),
                "sqlite": open_store(f"sqlite://{workdir / 'store.sqlite3'}"),
                "redis": open_store(f"redis://127.0.0.1:{port}/0"),
            }
            results = {name: measure(store, ops, blobs) for name, store in stores.items()}
            # a store that is down: how long a call takes to say so
            proc.terminate()
            proc.wait(timeout=10)
            down: list[float] = []
            for i in range(50):
                start = time.perf_counter()
                try:
                    stores["redis"].get(f"k{i}")
                except StoreDown:
                    down.append(time.perf_counter() - start)
            for store in stores.values():
                store.close()
        finally:
            if proc.poll() is None:
                proc.kill()

    rows = list(results["dict"])
    print(f"{'operation':<18}" + "".join(f"{n + ' µs':>12}{n + ' /s':>12}" for n in results))
    for row in rows:
        cells = "".join(
            f"{results[n][row] * 1e6:>12.1f}{1 / results[n][row]:>12,.0f}" for n in results
        )
        print(f"{row:<18}{cells}")
    print("\nratio against the dict (time per operation)")
    print(f"{'operation':<18}{'sqlite':>10}{'redis':>10}")
    for row in rows:
        base = results["dict"][row]
        print(
            f"{row:<18}{results['sqlite'][row] / base:>10.1f}{results['redis'][row] / base:>10.1f}"
        )
    if down:
        print(
            f"\nRedis stopped: StoreDown after {statistics.median(down) * 1e3:.2f} ms "
            f"(median of {len(down)}, max {max(down) * 1e3:.2f} ms)"
        )


if __name__ == "__main__":
    main()
