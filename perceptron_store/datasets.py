"""Datasets in the store: points and labels only, nothing personal, under a content id.

``dataset_id`` is 12 characters of base32 of the SHA-256 of a canonical encoding, so the
same points and labels always give the same id. The encoding (``encode_dataset``) is

    header: b"PLD1", n (uint32 LE), d (uint32 LE)          12 bytes
    body:   X as float64 LE, row by row (n*d*8), y as int8 (n), zlib-compressed in the blob

and ``decode_dataset`` checks everything a forged blob could get wrong (magic, declared
sizes before any decompression, the exact body length, finite coordinates within
``MAX_COORD``, labels exactly +1/-1), raising ``ValueError``. A dataset is stored under
``dataset:<id>`` in any :class:`~perceptron_store.base.Store`.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import struct
import zlib

import numpy as np
import numpy.typing as npt

from perceptron_store.base import (
    MAX_BYTES,
    MAX_COORD,
    MAX_POINTS,
    MAX_VALUE_BYTES,
    Store,
    StoreDown,
    default_ttl,
)

FloatArray = npt.NDArray[np.float64]

ID_LENGTH = 12
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"  # base32, lower case
_ID_CHARS = frozenset(ID_ALPHABET)
DATASET_PREFIX = "dataset:"

_MAGIC = b"PLD1"
_HEADER = struct.Struct("<4sII")  # magic, n, d


def _canonical(X: object, y: object) -> tuple[bytes, bytes]:
    """The canonical header and body of a dataset; ValueError naming what is wrong."""
    xs = np.asarray(X)
    ys = np.asarray(y)
    if xs.dtype.kind not in "iuf" or ys.dtype.kind not in "iuf":
        raise ValueError("Points and labels must be numbers.")
    if xs.ndim != 2 or xs.shape[0] < 1 or xs.shape[1] < 1:
        raise ValueError("The points must be a table with at least one row and one column.")
    n, d = int(xs.shape[0]), int(xs.shape[1])
    if ys.shape != (n,):
        raise ValueError(f"There must be one label per point ({n:,} points).")
    if n > MAX_POINTS:
        raise ValueError(
            f"The dataset has {n:,} points, more than {MAX_POINTS:,} points; it was not stored."
        )
    raw = _HEADER.size + n * d * 8 + n
    if raw > MAX_BYTES:
        raise ValueError(
            f"The dataset takes {raw:,} bytes, over 1 MB ({MAX_BYTES:,} bytes); it was not stored."
        )
    x64 = np.ascontiguousarray(xs, dtype="<f8") + 0.0  # + 0.0 turns -0.0 into 0.0
    if not np.isfinite(x64).all():
        raise ValueError("Every coordinate must be a finite number.")
    if np.abs(x64).max() > MAX_COORD:
        raise ValueError(f"Every coordinate must be at most {MAX_COORD:.0e} in size.")
    if not np.all((ys == 1) | (ys == -1)):
        raise ValueError("Every label must be +1 or -1.")
    header = _HEADER.pack(_MAGIC, n, d)
    return header, x64.tobytes() + ys.astype(np.int8).tobytes()


def _id_of(header: bytes, body: bytes) -> str:
    digest = hashlib.sha256(header + body).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_LENGTH]


def dataset_id(X: object, y: object) -> str:
    """The content id: the same points and labels (in the same order) give the same id,
    whatever their container or number type. ValueError as ``encode_dataset``."""
    return _id_of(*_canonical(X, y))


def encode_dataset(X: object, y: object) -> bytes:
    """The blob a dataset is stored as: its canonical header, then the body compressed.
    Raises ValueError (over 5,000 points, over 1 MB, not finite, labels not +1/-1...)."""
    header, body = _canonical(X, y)
    return header + zlib.compress(body, 6)


def decode_dataset(blob: bytes) -> tuple[FloatArray, FloatArray]:
    """The points (n, d) and labels (n,) of a blob, both float64; raises ValueError on
    anything malformed, before allocating or decompressing more than the caps allow."""
    if not isinstance(blob, bytes | bytearray | memoryview):
        raise ValueError("A stored dataset is bytes.")
    data = bytes(blob)
    if len(data) < _HEADER.size:
        raise ValueError("The stored dataset is truncated.")
    magic, n, d = _HEADER.unpack_from(data)
    if magic != _MAGIC:
        raise ValueError("The stored data is not a dataset of this app.")
    if not 1 <= n <= MAX_POINTS:
        raise ValueError(f"The stored dataset declares {n:,} points (1 to {MAX_POINTS:,}).")
    if d < 1:
        raise ValueError("The stored dataset declares no columns.")
    if _HEADER.size + n * d * 8 + n > MAX_BYTES:
        raise ValueError("The stored dataset declares a size over 1 MB.")
    size = n * d * 8 + n
    compressed = data[_HEADER.size :]
    if len(compressed) > MAX_VALUE_BYTES:
        raise ValueError("The stored dataset is over the store's limit.")
    inflate = zlib.decompressobj()
    try:
        body = inflate.decompress(compressed, size + 1)
    except zlib.error:
        raise ValueError("The stored dataset is corrupt.") from None
    if len(body) != size or not inflate.eof or inflate.unused_data or inflate.unconsumed_tail:
        raise ValueError("The stored dataset's length does not match its header.")
    X = np.frombuffer(body, dtype="<f8", count=n * d).reshape(n, d).astype(np.float64)
    labels = np.frombuffer(body, dtype=np.int8, count=n, offset=n * d * 8)
    if not np.isfinite(X).all() or np.abs(X).max() > MAX_COORD:
        raise ValueError(
            "The stored dataset has a coordinate that is not a finite number "
            f"within {MAX_COORD:.0e}."
        )
    if not np.all((labels == 1) | (labels == -1)):
        raise ValueError("The stored dataset has a label other than +1 or -1.")
    X += 0.0  # a forged -0.0 is the point 0.0, as the id counts it
    return X, labels.astype(np.float64)


def valid_id(text: object) -> bool:
    """Whether ``text`` can be a dataset id: a str of exactly 12 characters of the
    lower-case base32 alphabet. Checked before any lookup, in time independent of the
    text's length."""
    return isinstance(text, str) and len(text) == ID_LENGTH and all(c in _ID_CHARS for c in text)


def dataset_key(data_id: str) -> str:
    """The store key of a dataset id."""
    return DATASET_PREFIX + data_id


def save_dataset(store: Store, X: object, y: object, *, ttl: float | None = None) -> str:
    """Store a dataset under ``dataset:<id>`` for ``ttl`` seconds (default
    ``default_ttl()``, 30 days) and return its id. Saving the same data again refreshes
    its expiry. Raises ValueError (the data is refused: the message says why) or
    StoreDown."""
    header, body = _canonical(X, y)
    data_id = _id_of(header, body)
    blob = header + zlib.compress(body, 6)
    store.put(dataset_key(data_id), blob, ttl=default_ttl() if ttl is None else ttl)
    return data_id


def load_dataset(
    store: Store, data_id: object, *, refresh: bool = True
) -> tuple[FloatArray, FloatArray] | None:
    """The dataset stored under ``data_id``, or None if it is unknown or expired.

    Raises ValueError for an id that is not one (checked before any lookup) or for a
    stored entry that is malformed or does not hash to its id, and StoreDown.
    ``refresh`` (default) keeps a dataset in use for another ``default_ttl()``: a link
    opened every week never expires (a failure to refresh is ignored, the data is in
    hand)."""
    if not valid_id(data_id):
        raise ValueError("That is not a dataset id.")
    assert isinstance(data_id, str)
    key = dataset_key(data_id)
    blob = store.get(key)
    if blob is None:
        return None
    X, y = decode_dataset(blob)
    if dataset_id(X, y) != data_id:
        raise ValueError("The stored dataset does not match its id.")
    if refresh:
        with contextlib.suppress(StoreDown):
            store.touch(key, ttl=default_ttl())
    return X, y
