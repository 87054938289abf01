"""Reading and writing datasets as CSV: columns x1, x2, y.

``load_csv`` is where students' files enter, so every way a file can be wrong
gets its own sentence (``CSVError``, a ``ValueError``), never a traceback.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
from typing import Any

import numpy as np

from ._checks import FloatArray

MAX_BYTES = 1_000_000  # 1 MB: far more than a 2-D teaching dataset needs
MAX_ROWS = 5_000
COLUMNS = ("x1", "x2", "y")


class CSVError(ValueError):
    """A CSV file that cannot be read as a dataset; the message says why."""


def _read_bytes(source: Any) -> bytes:
    """Read at most MAX_BYTES + 1 bytes from a path or a binary/text file object."""
    raw: Any
    if isinstance(source, str | os.PathLike):
        try:
            with open(source, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CSVError(f"Cannot open the file: {exc.strerror or exc}") from None
    elif hasattr(source, "read"):
        if hasattr(source, "seek"):
            with contextlib.suppress(OSError, ValueError):
                source.seek(0)  # a Streamlit upload may have been read already
        raw = source.read(MAX_BYTES + 1)
    elif isinstance(source, bytes | bytearray):
        raw = bytes(source)
    else:
        raise CSVError("Expected a file path or an uploaded file.")
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    if len(raw) > MAX_BYTES:
        raise CSVError(
            f"The file is larger than {MAX_BYTES // 1000} kB; "
            f"a dataset here has at most {MAX_ROWS} rows."
        )
    return bytes(raw)


def _decode(raw: bytes) -> str:
    if b"\x00" in raw:
        raise CSVError("This is not a text file (it contains binary data). Upload a CSV file.")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CSVError("This is not a UTF-8 text file. Upload a CSV file saved as text.") from None


def _number(cell: str, row: int, column: str) -> float:
    try:
        v = float(cell)
    except ValueError:
        shown = cell if len(cell) <= 20 else cell[:20] + "…"
        raise CSVError(f"Row {row}, column {column}: {shown!r} is not a number.") from None
    if not math.isfinite(v):
        raise CSVError(f"Row {row}, column {column}: {cell!r} is not a finite number.")
    return v


def load_csv(source: Any) -> tuple[FloatArray, FloatArray]:
    """Read a dataset from CSV with columns ``x1, x2, y``.

    The header line names the columns (any order, case-insensitive, extra
    columns ignored); a file whose first line is three numbers is read as
    ``x1, x2, y`` without a header. Labels are -1/+1, or 0/1 with 0 mapped to -1.

    Parameters
    ----------
    source : str, os.PathLike, bytes or file object
        A path, the raw bytes, or an open (e.g. uploaded) file.

    Returns
    -------
    X : ndarray, shape (n, 2)
    y : ndarray, shape (n,), values in {-1.0, +1.0}

    Raises
    ------
    CSVError
        A ``ValueError`` whose message a student understands: empty file, header
        only, missing column, ragged row, text or NaN/inf in a number column,
        bad label, binary junk, or a file over ``MAX_BYTES`` / ``MAX_ROWS``.
    """
    text = _decode(_read_bytes(source))
    rows = [r for r in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in r)]
    if not rows:
        raise CSVError("The file is empty. Expected a header line 'x1,x2,y' and one row per point.")
    header = [cell.strip().lower() for cell in rows[0]]
    try:
        [float(c) for c in header]
        headless = len(header) == 3
    except ValueError:
        headless = False
    if headless:
        header, body, first = list(COLUMNS), rows, 1
    else:
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise CSVError(
                f"Missing column(s) {', '.join(missing)}. The first line must name the columns, "
                "e.g. 'x1,x2,y'."
            )
        body, first = rows[1:], 2
    if not body:
        raise CSVError("The file has a header but no data rows.")
    if len(body) > MAX_ROWS:
        raise CSVError(f"The file has {len(body)} rows; at most {MAX_ROWS} are allowed.")
    cols = [header.index(c) for c in COLUMNS]
    X = np.empty((len(body), 2))
    labels = np.empty(len(body))
    for r, row in enumerate(body):
        line = first + r
        if len(row) != len(header):
            raise CSVError(
                f"Row {line} has {len(row)} values but the header has {len(header)} columns."
            )
        X[r, 0] = _number(row[cols[0]].strip(), line, "x1")
        X[r, 1] = _number(row[cols[1]].strip(), line, "x2")
        labels[r] = _number(row[cols[2]].strip(), line, "y")
    values = set(np.unique(labels).tolist())
    if values <= {0.0, 1.0} and 0.0 in values:
        labels = np.where(labels == 0.0, -1.0, 1.0)
    elif values == {-1.0, 0.0, 1.0} or values == {-1.0, 0.0}:
        raise CSVError("The labels mix 0 and -1. Use -1 and +1, or 0 and 1, not both.")
    elif not values <= {-1.0, 1.0}:
        bad = next(v for v in labels.tolist() if v not in (-1.0, 1.0))
        row_of_bad = first + int(np.argmax(labels == bad))
        raise CSVError(
            f"Row {row_of_bad}: label {bad:g} is not allowed. "
            "Labels must be -1 and +1 (or 0 and 1)."
        )
    return X, labels


def to_csv(X: Any, y: Any) -> str:
    """The dataset as CSV text with header ``x1,x2,y``; ``load_csv`` reads it back exactly.

    Parameters
    ----------
    X : array_like, shape (n, 2)
    y : array_like, shape (n,)
    """
    out = io.StringIO()
    out.write(",".join(COLUMNS) + "\n")
    for (a, b), label in zip(np.asarray(X, dtype=float), np.asarray(y, dtype=float), strict=True):
        out.write(f"{float(a)!r},{float(b)!r},{int(label):d}\n")
    return out.getvalue()
