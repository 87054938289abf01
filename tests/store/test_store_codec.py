"""The dataset codec and content ids, without a store: canonical, exact, capped, and a
forged blob or id is refused quickly with a ValueError."""

from __future__ import annotations

import base64
import hashlib
import struct
import time
import zlib
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from perceptron_store import (
    ID_ALPHABET,
    ID_LENGTH,
    MAX_BYTES,
    MAX_COORD,
    MAX_POINTS,
    dataset_id,
    decode_dataset,
    encode_dataset,
    valid_id,
)

QUICK = 0.1  # seconds: a forged blob or id is refused well within this


@st.composite
def datasets(draw: st.DrawFn, max_n: int = 40, max_d: int = 4) -> tuple[np.ndarray, np.ndarray]:
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(
        hnp.arrays(
            np.float64,
            (n, d),
            elements=st.floats(-MAX_COORD, MAX_COORD, allow_nan=False, allow_infinity=False),
        )
    )
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    return X, y


def forge(n: int, d: int, body: bytes, *, magic: bytes = b"PLD1", raw: bool = False) -> bytes:
    """A blob in the documented layout: header, then the body (compressed unless raw)."""
    return struct.pack("<4sII", magic, n, d) + (body if raw else zlib.compress(body))


def body_of(X: np.ndarray, y: np.ndarray) -> bytes:
    return np.asarray(X, dtype="<f8").tobytes() + np.asarray(y, dtype=np.int8).tobytes()


def refused_quickly(blob: Any, match: str | None = None) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError, match=match):
        decode_dataset(blob)
    assert time.perf_counter() - start < QUICK


# --------------------------------------------------------------------------- round trip


@given(datasets())
def test_round_trip_is_exact_and_the_id_stable(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    blob = encode_dataset(X, y)
    assert encode_dataset(X, y) == blob  # deterministic
    X2, y2 = decode_dataset(blob)
    assert X2.dtype == np.float64 and y2.dtype == np.float64
    assert X2.shape == X.shape and y2.shape == y.shape
    assert X2.tobytes() == (X + 0.0).tobytes()  # bit for bit (-0.0 is the point 0.0)
    assert np.array_equal(y2, y)
    assert X2.flags.writeable and X2.flags.c_contiguous
    data_id = dataset_id(X, y)
    assert valid_id(data_id)
    assert dataset_id(X2, y2) == data_id
    assert dataset_id(X.tolist(), y.astype(int).tolist()) == data_id
    assert dataset_id(np.asfortranarray(X), y.astype(np.int8)) == data_id


@given(datasets(), st.data())
def test_one_changed_point_or_label_gives_another_id(
    data: tuple[np.ndarray, np.ndarray], draw: st.DataObject
) -> None:
    X, y = data
    original = dataset_id(X, y)
    i = draw.draw(st.integers(0, X.shape[0] - 1))
    j = draw.draw(st.integers(0, X.shape[1] - 1))
    moved = X.copy()
    moved[i, j] = np.nextafter(X[i, j], np.inf) if X[i, j] < MAX_COORD else X[i, j] / 2
    assert dataset_id(moved, y) != original
    flipped = y.copy()
    flipped[i] = -flipped[i]
    assert dataset_id(X, flipped) != original
    if X.shape[0] > 1:
        assert dataset_id(X[:-1], y[:-1]) != original
    assert dataset_id(np.hstack([X, np.zeros((X.shape[0], 1))]), y) != original


def test_order_and_sign_of_zero() -> None:
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    y = np.array([1, -1])
    assert dataset_id(X, y) != dataset_id(X[::-1], y[::-1])  # the lecture steps in order
    assert dataset_id([[0.0, -0.0]], [1]) == dataset_id([[0.0, 0.0]], [1])
    assert dataset_id(X, y) == dataset_id(X.astype(np.float32), y)  # exact in float32 too


def test_the_id_is_the_documented_hash() -> None:
    """Links carry ids: the canonical form must not drift between versions."""
    X = np.array([[1.0, 2.0], [-3.0, 4.5]])
    y = np.array([1, -1])
    canonical = struct.pack("<4sII", b"PLD1", 2, 2) + body_of(X, y)
    digest = base64.b32encode(hashlib.sha256(canonical).digest()).decode().lower()
    assert dataset_id(X, y) == digest[:ID_LENGTH] == "pfin2yrm66l6"
    assert encode_dataset(X, y)[:12] == canonical[:12]
    assert zlib.decompress(encode_dataset(X, y)[12:]) == canonical[12:]
    assert set(digest[:ID_LENGTH]) <= set(ID_ALPHABET)


def test_compact() -> None:
    rng = np.random.default_rng(1)
    X = rng.uniform(-3, 3, (5_000, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    assert len(encode_dataset(X, y)) <= 12 + 5_000 * 17 + 1_000  # about 8.5 bytes a number
    grid = np.round(X)  # drawn points on a grid compress well
    assert len(encode_dataset(grid, y)) < 20_000


# --------------------------------------------------------------------------- caps and bad data


def test_caps_name_their_limit() -> None:
    encode_dataset(np.zeros((MAX_POINTS, 2)), np.ones(MAX_POINTS))
    with pytest.raises(ValueError, match="5,001 points, more than 5,000 points"):
        encode_dataset(np.zeros((5_001, 2)), np.ones(5_001))
    with pytest.raises(ValueError, match="5,000"):
        dataset_id(np.zeros((5_001, 2)), np.ones(5_001))
    # 12 + 5,000 * 24 * 8 + 5,000 bytes fit in 1 MB; with 25 columns they do not
    assert 12 + 5_000 * 24 * 8 + 5_000 <= MAX_BYTES < 12 + 5_000 * 25 * 8 + 5_000
    encode_dataset(np.zeros((5_000, 24)), np.ones(5_000))
    with pytest.raises(ValueError, match="over 1 MB"):
        encode_dataset(np.zeros((5_000, 25)), np.ones(5_000))
    with pytest.raises(ValueError, match="over 1 MB"):
        encode_dataset(np.zeros((1, 200_000)), np.ones(1))


@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        ([[np.nan, 1.0]], [1], "finite"),
        ([[np.inf, 1.0]], [1], "finite"),
        ([[2e6, 1.0]], [1], "at most"),
        ([[1.0, 1.0]], [0], "label"),
        ([[1.0, 1.0]], [2], "label"),
        ([[1.0, 1.0]], [0.5], "label"),
        ([[1.0, 1.0]], [np.nan], "label"),
        ([[1.0, 1.0]], [True], "numbers"),
        ([["1", "2"]], [1], "numbers"),
        ([[1 + 1j, 2.0]], [1], "numbers"),
        ([[object(), 2.0]], [1], "numbers"),
        ([1.0, 2.0], [1, 1], "table"),
        (np.zeros((2, 2, 2)), [1, 1], "table"),
        (np.zeros((0, 2)), [], "table"),
        (np.zeros((2, 0)), [1, 1], "table"),
        ([[1.0, 2.0]], [1, 1], "one label per point"),
        ([[1.0, 2.0]], [[1]], "one label per point"),
    ],
)
def test_bad_data_is_refused(X: Any, y: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        encode_dataset(X, y)
    with pytest.raises(ValueError, match=match):
        dataset_id(X, y)


# --------------------------------------------------------------------------- ids


@given(datasets(max_n=5))
def test_every_content_id_is_valid(data: tuple[np.ndarray, np.ndarray]) -> None:
    data_id = dataset_id(*data)
    assert len(data_id) == ID_LENGTH and valid_id(data_id)


class Str(str):
    pass


@pytest.mark.parametrize(
    "forged",
    [
        None,
        12,
        3.5,
        b"abcdefghijkl",
        ["abcdefghijkl"],
        "",
        "abcdefghijk",  # 11
        "abcdefghijklm",  # 13
        "abcdefghijkl" * 2,
        "ABCDEFGHIJKL",
        "abcdefghijk1",  # 0, 1, 8, 9 are not base32
        "abcdefghijk8",
        "abcdefghijk=",
        "abcdefghijk ",
        "abcdefghijk\n",
        "abcdefghij\x00k",
        "abcdefghijkλ",
        "ａbcdefghijkl",  # a full-width a
        "abcdefghijkı",  # a dotless i
        "abcdefghijk\u0307",
        "../../etc/pa",
        "a" * 10**6,
        "é" * 10**6,
    ],
    ids=lambda v: repr(v)[:16],
)
def test_forged_ids_are_not_valid(forged: Any) -> None:
    start = time.perf_counter()
    assert valid_id(forged) is False
    assert time.perf_counter() - start < QUICK


def test_valid_ids() -> None:
    assert valid_id("abcdefghijkl") is True
    assert valid_id("234567zzzzzz") is True
    assert valid_id(Str("abcdefghijkl")) is True


# --------------------------------------------------------------------------- forged blobs


GOOD_X = np.array([[1.0, 2.0], [-3.0, 4.5], [0.5, 0.5]])
GOOD_Y = np.array([1, -1, 1])


def test_the_forge_matches_the_codec() -> None:
    """The forged blobs below differ from a real one only where each test says."""
    assert forge(3, 2, body_of(GOOD_X, GOOD_Y)) == encode_dataset(GOOD_X, GOOD_Y)
    X, y = decode_dataset(forge(3, 2, body_of(GOOD_X, GOOD_Y)))
    assert np.array_equal(X, GOOD_X) and np.array_equal(y, GOOD_Y)


@given(st.data())
def test_every_truncation_is_refused(draw: st.DataObject) -> None:
    blob = encode_dataset(GOOD_X, GOOD_Y)
    cut = draw.draw(st.integers(0, len(blob) - 1))
    refused_quickly(blob[:cut])


@pytest.mark.parametrize(
    ("blob", "match"),
    [
        (b"", "truncated"),
        (b"PLD1", "truncated"),
        (forge(3, 2, body_of(GOOD_X, GOOD_Y), magic=b"PLD2"), "not a dataset"),
        (forge(3, 2, body_of(GOOD_X, GOOD_Y), magic=b"\x00\x00\x00\x00"), "not a dataset"),
        (b"x1,x2,y\n1,2,1\n" * 3, "not a dataset"),
        (forge(0, 2, b""), "declares 0 points"),
        (forge(3, 0, GOOD_Y.astype(np.int8).tobytes()), "no columns"),
        (forge(5_001, 2, b""), "5,000"),
        (forge(2**32 - 1, 2, b""), "5,000"),
        (forge(5_000, 2**32 - 1, b""), "over 1 MB"),
        (forge(5_000, 25, b""), "over 1 MB"),
        (forge(3, 2, body_of(GOOD_X, GOOD_Y), raw=True), "corrupt"),  # not compressed
        (forge(3, 2, body_of(GOOD_X, GOOD_Y)[:-1]), "length"),  # a label short
        (forge(3, 2, body_of(GOOD_X, GOOD_Y) + b"\x01"), "length"),  # a byte too many
        (forge(2, 2, body_of(GOOD_X, GOOD_Y)), "length"),  # declares fewer points
        (forge(3, 2, body_of(GOOD_X, GOOD_Y)) + b"junk", "length"),  # after the stream
        (forge(3, 2, body_of(GOOD_X, GOOD_Y)) + zlib.compress(b"more"), "length"),
        (forge(3, 2, body_of([[np.nan, 0], [0, 0], [0, 0]], GOOD_Y)), "finite"),
        (forge(3, 2, body_of([[np.inf, 0], [0, 0], [0, 0]], GOOD_Y)), "finite"),
        (forge(3, 2, body_of([[1e300, 0], [0, 0], [0, 0]], GOOD_Y)), "finite"),
        (forge(3, 2, body_of(GOOD_X, [1, 0, 1])), "label"),
        (forge(3, 2, body_of(GOOD_X, [1, -1, 2])), "label"),
        (forge(3, 2, body_of(GOOD_X, [1, -1, -128])), "label"),
        (None, "bytes"),
        ("PLD1", "bytes"),
        (12, "bytes"),
    ],
    ids=lambda v: repr(v)[:24],
)
def test_forged_blobs_are_refused_quickly(blob: Any, match: str) -> None:
    refused_quickly(blob, match)


def test_a_zip_bomb_is_refused_quickly() -> None:
    """A header within the caps over a stream that inflates to 200 MB: inflated no
    further than the declared size (about 1 MB) before being refused."""
    bomb = zlib.compress(b"\x00" * 200_000_000, 9)
    assert len(bomb) < 1_000_000
    refused_quickly(forge(5_000, 24, bomb, raw=True), "length")


def test_a_forged_negative_zero_is_the_point_zero() -> None:
    X = np.array([[-0.0, 1.0]])
    blob = forge(1, 2, np.array([[-0.0, 1.0]]).tobytes() + b"\x01", raw=False)
    X2, _ = decode_dataset(blob)
    assert not np.signbit(X2).any()
    assert dataset_id(X2, [1]) == dataset_id(X, [1])


@given(st.binary(max_size=200))
def test_random_bytes_never_crash(blob: bytes) -> None:
    for candidate in (blob, b"PLD1" + blob):
        try:
            X, y = decode_dataset(candidate)
        except ValueError:
            continue
        assert np.isfinite(X).all() and set(np.unique(y)) <= {-1.0, 1.0}
