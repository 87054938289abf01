"""Reading and writing datasets as CSV: columns x1, x2, y.

``load_csv`` is where students' files enter, so every way a file can be wrong
gets its own sentence (``CSVError``, a ``ValueError``), never a traceback. The
work is bounded before any loop over the file: its size, its number of lines,
the length of a line and its number of columns are checked on the raw text,
then each line is parsed on its own.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import re
from typing import Any

import numpy as np

from ._checks import FloatArray

MAX_BYTES = 1_000_000  # 1 MB: far more than a 2-D teaching dataset needs
MAX_ROWS = 5_000
MAX_CELL = 200  # characters in one cell: more than any number needs
MAX_COLUMNS = 20  # x1, x2, y and a few columns of the student's own, which are ignored
MAX_LINE = MAX_COLUMNS * (MAX_CELL + 1)  # characters in one line, checked before parsing it
# Largest coordinate accepted: the margin lab's table refuses the same (ui/margin/edits.py,
# LIMIT = 1e6), so an uploaded set can be edited there. A 1e308 cell overflowed to inf in
# the squares and norms of the XOR and SGD pages; at 1e6 they stay far from overflow.
LIMIT = 1e6
# Smallest size of the largest coordinate (unless all are 0). Measured on a 5-point set
# scaled down: with bias, max_margin's γ is 25% off at 1e-8 and a separable set is called
# inseparable from 1e-10 (margin.SEPARABILITY_TOL is absolute); at 1e-300 the
# perceptron's w·x underflows to 0 and it never converges.
MIN_SCALE = 1e-6
COLUMNS = ("x1", "x2", "y")
# What may separate the values: a comma, or a semicolon (spreadsheets where the comma is the
# decimal mark save CSV with semicolons), or a tab (a copied table). The file's first line
# decides: the first of these that makes it a header naming x1, x2 and y, or three numbers.
SEPARATORS = {",": "a comma", ";": "a semicolon", "\t": "a tab"}
SHOWN = 20  # characters of a cell quoted back in a message, at most
# Control characters other than tab, line feed and carriage return: binary data.
_BINARY = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class CSVError(ValueError):
    """A CSV file that cannot be read as a dataset; the message says why."""


def _read_bytes(source: Any) -> bytes:
    """Read at most MAX_BYTES + 1 bytes from a path or a binary/text file object."""
    raw: Any
    if isinstance(source, str | os.PathLike):
        try:
            with open(source, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
            reason = getattr(exc, "strerror", None) or "it could not be read"
            raise CSVError(f"Cannot open the file: {reason}.") from None
    elif hasattr(source, "read"):
        if hasattr(source, "seek"):
            with contextlib.suppress(OSError, ValueError):
                source.seek(0)  # a Streamlit upload may have been read already
        try:
            raw = source.read(MAX_BYTES + 1)
        except (OSError, ValueError, UnicodeDecodeError):
            raise CSVError("The file could not be read. Upload a CSV file saved as text.") from None
    elif isinstance(source, bytes | bytearray | memoryview):
        raw = bytes(source)
    else:
        raise CSVError("Expected a file path or an uploaded file.")
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise CSVError(
                "This is not a UTF-8 text file. Upload a CSV file saved as text."
            ) from None
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise CSVError("The file could not be read. Upload a CSV file saved as text.")
    if len(raw) > MAX_BYTES:
        raise CSVError(
            f"The file is larger than {MAX_BYTES // 1000} kB; "
            f"a dataset here has at most {MAX_ROWS} rows."
        )
    return bytes(raw)


def _decode(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CSVError("This file is saved as UTF-16 text. Save it as CSV (UTF-8) and upload that.")
    if b"\x00" in raw:
        raise CSVError("This is not a text file (it contains binary data). Upload a CSV file.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CSVError("This is not a UTF-8 text file. Upload a CSV file saved as text.") from None
    if _BINARY.search(text):
        raise CSVError("This is not a text file (it contains binary data). Upload a CSV file.")
    return text


def _shown(cell: str) -> str:
    """The cell as quoted in a message: at most SHOWN characters of it, escaped."""
    return repr(cell if len(cell) <= SHOWN else cell[:SHOWN] + "…")


def _lines(text: str, sep: str = ",") -> list[tuple[int, str]]:
    """The file's non-blank lines with their line numbers (1 = first), checked for size
    and shape before any of them is parsed."""
    text = text.replace("\r\n", "\n")
    cr = text.find("\r")
    if cr >= 0:
        row = text.count("\n", 0, cr) + 1
        raise CSVError(
            f"Row {row} contains a stray carriage return (CR) inside it. "
            "Save the file again as CSV with ordinary line ends."
        )
    lines: list[tuple[int, str]] = []
    number, end = 1, 0
    for match in re.finditer(r"[^\n]+", text):  # lazily: stops at the first refusal
        number += text.count("\n", end, match.start())
        end = match.start()
        line = match.group()
        if len(line) > MAX_LINE:
            raise CSVError(
                f"Row {number} is {len(line):,} characters long; "
                f"a row here has at most {MAX_LINE:,}. Is this really a CSV of numbers?"
            )
        if not line.strip():
            continue
        if line.count(sep) >= MAX_COLUMNS:
            raise CSVError(
                f"Row {number} has more than {MAX_COLUMNS} columns; "
                "expected the columns x1, x2, y (and a few more at most)."
            )
        lines.append((number, line))
        if len(lines) > MAX_ROWS + 1:  # a header and MAX_ROWS rows
            raise CSVError(
                f"The file has more than {MAX_ROWS} rows; at most {MAX_ROWS} are allowed."
            )
    return lines


def _separator(text: str) -> str:
    """The separator of the file's values (:data:`SEPARATORS`), read off its first line that
    is not blank; a comma when no separator makes that line a header or a row of numbers."""
    first = re.search(r"[^\n\r]*\S[^\n\r]*", text[: MAX_LINE + 1])
    line = first.group() if first else ""
    for sep in SEPARATORS:
        try:
            cells = [c.strip().lower() for c in next(csv.reader([line], delimiter=sep))]
        except (csv.Error, StopIteration):
            continue
        if all(c in cells for c in COLUMNS) or (len(cells) == 3 and all(map(_is_float, cells))):
            return sep
    return ","


def _cells(line: str, row: int, sep: str = ",") -> list[str]:
    """One line split into cells (quotes allowed), each at most MAX_CELL characters."""
    if line.count('"') % 2:
        raise CSVError(f'Row {row} has an unbalanced quote ("). Remove it or close it.')
    try:
        cells = next(csv.reader([line], delimiter=sep, strict=True))
    except (csv.Error, StopIteration):
        raise CSVError(
            f"Row {row} is not valid CSV (misplaced quotes?). Write the values as plain "
            f"numbers separated by {'commas' if sep == ',' else SEPARATORS[sep] + 's'}."
        ) from None
    for c, cell in enumerate(cells, start=1):
        if len(cell) > MAX_CELL:
            raise CSVError(
                f"Row {row}, column {c}: a value of {len(cell):,} characters; "
                f"a number here has at most {MAX_CELL}."
            )
    return cells


def _number(cell: str, row: int, column: str) -> float:
    try:
        v = float(cell)
    except (ValueError, OverflowError):
        if re.fullmatch(r"[+-]?\d*,\d+", cell):  # 1,5: a decimal comma (the file's values
            raise CSVError(  # are then separated by semicolons or tabs)
                f"Row {row}, column {column}: {_shown(cell)} has a decimal comma; write it "
                f"with a point ({cell.replace(',', '.')})."
            ) from None
        raise CSVError(f"Row {row}, column {column}: {_shown(cell)} is not a number.") from None
    if math.isnan(v) or (math.isinf(v) and "inf" in cell.lower()):
        raise CSVError(f"Row {row}, column {column}: {_shown(cell)} is not a finite number.")
    if not abs(v) <= LIMIT:  # also a finite-looking number too large for a float
        raise CSVError(
            f"Row {row}, column {column}: {_shown(cell)} is too large "
            f"(at most {LIMIT:,.0f} in size). Rescale your data."
        )
    return v


def load_csv(source: Any) -> tuple[FloatArray, FloatArray]:
    """Read a dataset from CSV with columns ``x1, x2, y``.

    The header line names the columns (any order, case-insensitive, extra
    columns ignored); a file whose first line is three numbers is read as
    ``x1, x2, y`` without a header. The values are separated by commas, semicolons
    or tabs (:data:`SEPARATORS`: the first line says which); decimals are written
    with a point. Labels are -1/+1, or 0/1 with 0 mapped to -1.
    Blank lines are skipped; a row number in a message is the line's number in
    the file.

    Parameters
    ----------
    source : str, os.PathLike, bytes or file object
        A path, the raw bytes, or an open (e.g. uploaded) file.

    Returns
    -------
    X : ndarray of float64, shape (n, 2), 1 <= n <= MAX_ROWS
        Finite, every coordinate at most LIMIT (1e6) in size, and the largest at least
        MIN_SCALE (1e-6) unless all are 0.
    y : ndarray of float64, shape (n,), values in {-1.0, +1.0}

    Raises
    ------
    CSVError
        A ``ValueError`` whose message (one line) a student understands, and the
        only exception raised: empty file, header only, missing column, ragged
        row, text, NaN/inf or a coordinate beyond LIMIT in a number column, bad
        label, coordinates all below MIN_SCALE, unbalanced quotes, a stray
        carriage return, binary junk, text that is not UTF-8, or a file over
        ``MAX_BYTES`` / ``MAX_ROWS`` / ``MAX_LINE`` / ``MAX_CELL`` /
        ``MAX_COLUMNS``. A message quotes at most ``SHOWN`` characters of the file.
    """
    text = _decode(_read_bytes(source))
    sep = _separator(text)
    lines = _lines(text, sep)
    parsed = [(i, _cells(line, i, sep)) for i, line in lines]
    rows = [(i, cells) for i, cells in parsed if any(c.strip() for c in cells)]  # not ',,'
    if not rows:
        raise CSVError("The file is empty. Expected a header line 'x1,x2,y' and one row per point.")
    header = [cell.strip().lower() for cell in rows[0][1]]
    headless = len(header) == 3 and all(_is_float(c) for c in header)
    if headless:
        header, body = list(COLUMNS), rows
    else:
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise CSVError(
                f"Missing column(s) {', '.join(missing)}. The first line must name the columns, "
                f"e.g. 'x1,x2,y'{_named(rows[0][1], lines[0][1])}."
            )
        body = rows[1:]
    if not body:
        raise CSVError("The file has a header but no data rows.")
    if len(body) > MAX_ROWS:
        raise CSVError(f"The file has {len(body)} rows; at most {MAX_ROWS} are allowed.")
    cols = [header.index(c) for c in COLUMNS]
    X = np.empty((len(body), 2))
    labels = np.empty(len(body))
    for r, (line, row) in enumerate(body):
        if len(row) != len(header):
            raise CSVError(
                f"Row {line} has {len(row)} values but the header has {len(header)} columns."
            )
        X[r, 0] = _number(row[cols[0]].strip(), line, "x1")
        X[r, 1] = _number(row[cols[1]].strip(), line, "x2")
        labels[r] = _label(row[cols[2]].strip(), line)
    values = set(np.unique(labels).tolist())
    if values <= {0.0, 1.0} and 0.0 in values:
        labels = np.where(labels == 0.0, -1.0, 1.0)
    elif values == {-1.0, 0.0, 1.0} or values == {-1.0, 0.0}:
        raise CSVError("The labels mix 0 and -1. Use -1 and +1, or 0 and 1, not both.")
    largest = float(np.abs(X).max())
    if 0.0 < largest < MIN_SCALE:
        raise CSVError(
            f"Every coordinate is smaller than {MIN_SCALE:g} in size (the largest is "
            f"{largest:.3g}); the lab's calculations lose their precision there. Rescale your "
            "data, e.g. multiply it by 1,000,000."
        )
    return X, labels


def _named(cells: list[str], line: str) -> str:
    """What the first line says when its names are there but not separated by the file's
    separator (a comma): e.g. 'x1 x2 y' or 'x1|x2|y'."""
    if len(cells) != 1:
        return ""
    words = re.split(r"[^0-9a-z]+", line.lower())
    if all(c in words for c in COLUMNS):
        return " (with commas, semicolons or tabs between the names: this line has none)"
    return ""


def _is_float(cell: str) -> bool:
    try:
        float(cell)
    except (ValueError, OverflowError):
        return False
    return True


def _label(cell: str, row: int) -> float:
    """A label cell: -1, 0 or +1 (any way a float is written: '1.0', '+1', '-1e0')."""
    try:
        v = float(cell)
    except (ValueError, OverflowError):
        raise CSVError(f"Row {row}, column y: {_shown(cell)} is not a number.") from None
    if math.isnan(v) or math.isinf(v):
        raise CSVError(f"Row {row}, column y: {_shown(cell)} is not a finite number.")
    if v not in (-1.0, 0.0, 1.0):
        shown = repr(v).removesuffix(".0")  # exactly the value read: 1.0000001 is not 1
        raise CSVError(
            f"Row {row}: label {shown} is not allowed. Labels must be -1 and +1 (or 0 and 1)."
        )
    return v


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
