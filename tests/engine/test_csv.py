"""load_csv(): every way a student's file can be wrong gets a sentence, not a traceback."""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import CSVError, load_csv, to_csv
from perceptron_core.csvio import (
    LIMIT,
    MAX_BYTES,
    MAX_CELL,
    MAX_COLUMNS,
    MAX_LINE,
    MAX_ROWS,
    MIN_SCALE,
)
from perceptron_core.datasets import make_dataset


def test_round_trip_is_exact(tmp_path):
    X, y = make_dataset("noisy", n=50, seed=3)
    path = tmp_path / "data.csv"
    path.write_text(to_csv(X, y))
    X2, y2 = load_csv(path)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)


def test_reads_an_uploaded_file_object_even_after_it_was_read():
    upload = io.BytesIO(b"x1,x2,y\n1,2,1\n-1,-1,-1\n")
    upload.read()
    X, y = load_csv(upload)
    assert X.tolist() == [[1.0, 2.0], [-1.0, -1.0]]
    assert y.tolist() == [1.0, -1.0]


@pytest.mark.parametrize(
    ("content", "X", "y"),
    [
        (b"x1,x2,y\n1,2,0\n3,4,1\n", [[1, 2], [3, 4]], [-1, 1]),  # 0/1 labels, 0 -> -1
        (b"y,x2,x1\n1,2,3\n", [[3, 2]], [1]),  # any column order
        (b"X1 , X2 , Y\n 1 , 2 , -1 \n", [[1, 2]], [-1]),  # case and spaces
        (b"1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1]),  # no header: three numbers
        (b"\xef\xbb\xbfx1,x2,y\n1,2,1.0\n", [[1, 2]], [1]),  # Excel's BOM, label 1.0
        (b"x1,x2,y,name\n1,2,1,a\n\n", [[1, 2]], [1]),  # extra column, blank line
        (b"x1,x2,y\r\n1e-3,2,1\r\n", [[0.001, 2]], [1]),  # Windows line ends
        # a spreadsheet whose decimal mark is the comma saves CSV with semicolons
        (b"x1;x2;y\n1;2;1\n-1.5;-1;-1\n", [[1, 2], [-1.5, -1]], [1, -1]),
        (b"\n1;2;1\n3;4;0\n", [[1, 2], [3, 4]], [1, -1]),  # no header, semicolons
        (b"x1\tx2\ty\n1\t2\t1\n", [[1, 2]], [1]),  # a table copied: tabs
        (b'"x1";"x2";"y"\n"1";"2";"1"\n', [[1, 2]], [1]),  # quoted
    ],
)
def test_accepts_the_files_people_actually_make(content, X, y):
    X2, y2 = load_csv(io.BytesIO(content))
    np.testing.assert_array_equal(X2, np.array(X, float))
    np.testing.assert_array_equal(y2, np.array(y, float))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "The file is empty"),
        (b"\n\n  \n", "The file is empty"),
        (b"x1,x2,y\n", "header but no data rows"),
        (b"x1,x2\n1,2\n", "Missing column"),
        (b"a,b,c\n1,2,1\n", "Missing column"),
        (b"x1,x2,y\n1,2,1\n3,4\n", "Row 3 has 2 values but the header has 3 columns"),
        (b"x1,x2,y\n1,2,1\n3,4,1,5\n", "Row 3 has 4 values"),
        (b"x1,x2,y\n1,abc,1\n", "Row 2, column x2: 'abc' is not a number"),
        (b"x1,x2,y\nnan,1,1\n", "Row 2, column x1: 'nan' is not a finite number"),
        (b"x1,x2,y\n1,inf,1\n", "is not a finite number"),
        (b"x1,x2,y\n1,2,2\n", "Row 2: label 2 is not allowed"),
        (b"x1,x2,y\n1,2,1\n1,2,0.5\n", "Row 3: label 0.5 is not allowed"),
        (b"x1,x2,y\n1,2,-1\n1,2,0\n1,3,1\n", "The labels mix 0 and -1"),
        (b"x1,x2,y\n1,2,\n", "Row 2, column y: '' is not a number"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
        (b"x1,x2,y\n\xff\xfe1,2,1\n", "not a UTF-8 text file"),
        (b"x1;x2;y\n1,5;2;1\n", r"Row 2, column x1: '1,5' has a decimal comma; .* \(1\.5\)"),
        (b"x1 x2 y\n1 2 1\n", "Missing column.*with commas, semicolons or tabs between"),
        (b"x1;x2;y\n1;2;1\n3;4\n", "Row 3 has 2 values but the header has 3 columns"),
    ],
)
def test_rejects_malformed_files_with_a_sentence(content, message):
    with pytest.raises(CSVError, match=message):
        load_csv(io.BytesIO(content))


def test_rejects_files_over_the_size_cap():
    big = b"x1,x2,y\n" + b"1.000000000,2.000000000,1\n" * (MAX_BYTES // 20)
    with pytest.raises(CSVError, match="larger than"):
        load_csv(io.BytesIO(big))


def test_rejects_files_over_the_row_cap():
    rows = b"x1,x2,y\n" + b"1,2,1\n" * (MAX_ROWS + 1)
    assert len(rows) < MAX_BYTES
    with pytest.raises(CSVError, match=f"at most {MAX_ROWS} are allowed"):
        load_csv(io.BytesIO(rows))


def test_missing_path_is_a_csv_error(tmp_path):
    with pytest.raises(CSVError, match="Cannot open the file"):
        load_csv(tmp_path / "nope.csv")


def test_csv_error_is_a_value_error():
    assert issubclass(CSVError, ValueError)


# --- every malformed file gets a sentence -------------------------------------------------

HEADER = b"x1,x2,y\n"
# (what, the rows after a good header, a fragment of the sentence)
BAD_ROWS = [
    ("140,000-character cell", b"1," + b"7" * 140_000 + b",1\n", "140,004 characters"),
    ("300-character cell", b"1," + b"7" * 300 + b",1\n", "column 2: a value of 300"),
    ("too many columns", b",".join([b"1"] * 25) + b"\n", "more than 20 columns"),
    ("1e308", b"1e308,1,1\n", "Row 2, column x1: '1e308' is too large"),
    ("-1e308 in x2", b"1,-1e308,1\n", "column x2: '-1e308' is too large"),
    ("overflows to inf", b"1,1e400,-1\n", "'1e400' is too large"),
    ("just over the limit", b"1000000.5,0,1\n", "at most 1,000,000 in size"),
    ("200 digits", b"1" * 200 + b",0,1\n", "'11111111111111111111…' is too large"),
    ("all coordinates subnormal", b"1e-310,0,1\n0,-1e-310,-1\n", "smaller than 1e-06"),
    ("all coordinates 1e-9", b"1e-9,0,1\n0,-1e-9,-1\n", "Rescale your data"),
    ("nan", b"1,NaN,1\n", "column x2: 'NaN' is not a finite number"),
    ("-Infinity", b"-Infinity,1,1\n", "'-Infinity' is not a finite number"),
    ("label inf", b"1,1,inf\n", "column y: 'inf' is not a finite number"),
    ("text", b"1,two,1\n", "Row 2, column x2: 'two' is not a number"),
    (
        "decimal comma, quoted",
        b'"1,5",2,1\n',
        "'1,5' has a decimal comma; write it with a point (1.5)",
    ),
    ("hex", b"0x10,2,1\n", "'0x10' is not a number"),
    ("label yes", b"1,2,yes\n", "column y: 'yes' is not a number"),
    ("label 2", b"1,2,1\n3,4,2\n", "Row 3: label 2 is not allowed"),
    ("label -0.5", b"1,2,-0.5\n", "label -0.5 is not allowed"),
    ("label 1e308", b"1,2,1e308\n", "label 1e+308 is not allowed"),
    ("label almost 1", b"1,2,1.0000001\n", "label 1.0000001 is not allowed"),
    ("labels 0 and -1", b"1,2,0\n3,4,-1\n", "The labels mix 0 and -1"),
    ("short row", b"1,2,1\n3,4\n", "Row 3 has 2 values but the header has 3"),
    ("long row", b"1,2,1,4\n", "Row 2 has 4 values"),
    ("row number counts blank lines", b"1,2,1\n\n\n1,x,1\n", "Row 5, column x2"),
    ("NUL byte", b"1,2,\x001\n", "not a text file"),
    ("Latin-1", b"1,2,1\n# caf\xe9\n", "not a UTF-8 text file"),
    ("lone surrogate bytes", b"1,\xed\xa0\x80,1\n", "not a UTF-8 text file"),
    ("unbalanced quote", b'"1,2,1\n', "Row 2 has an unbalanced quote"),
    ("quote in a number", b'1,2"5,1\n', "unbalanced quote"),
    ("text after a quoted cell", b'"1"2,3,1\n', "Row 2 is not valid CSV"),
    ("too many rows", b"1,2,1\n" * (MAX_ROWS + 1), f"at most {MAX_ROWS} are allowed"),
]
# (what, the whole file, a fragment of the sentence)
BAD_FILES = [
    ("stray CR inside a field", b"x1,x2,y\n1,2\r,1\n", "Row 2 contains a stray carriage return"),
    ("old Mac line ends (CR only)", b"x1,x2,y\r1,2,1\r", "Row 1 contains a stray carriage return"),
    ("CR inside a quoted field", b'x1,x2,y\n"1\r",2,1\n', "stray carriage return"),
    ("300-character header cell", b"x1,x2,y," + b"a" * 300 + b"\n1,2,1,a\n", "value of 300"),
    ("empty", b"", "The file is empty"),
    ("only a BOM", b"\xef\xbb\xbf", "The file is empty"),
    ("only commas", b",,\n , ,\n", "The file is empty"),
    ("header only", HEADER, "header but no data rows"),
    ("header only, BOM and CRLF", b"\xef\xbb\xbfx1,x2,y\r\n\r\n", "header but no data rows"),
    ("two columns, no header", b"1,2\n3,4\n", "Missing column(s) x1, x2, y"),
    ("PNG", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    ("control characters", b"\x01\x02\x03\x04garbage\x7f", "not a text file"),
    ("ELF binary", b"\x7fELF\x02\x01\x01" + bytes(range(256)), "not a text file"),
    ("UTF-16 with BOM", "x1,x2,y\n1,2,1\n".encode("utf-16"), "saved as UTF-16"),
    ("one line of 1 MB", b"1" * MAX_BYTES, "Row 1 is 1,000,000 characters long"),
    ("too large", b"1,2,1\n" * (MAX_BYTES // 6 + 1), "larger than 1000 kB"),
]
MALFORMED = [(what, HEADER + rows, fragment) for what, rows, fragment in BAD_ROWS] + BAD_FILES


def _no_long_echo(message: str, content: bytes) -> None:
    """The sentence quotes at most ~40 characters of the file."""
    text = content.decode("utf-8", "replace")
    echoed = [message[i : i + 41] for i in range(len(message) - 40) if message[i : i + 41] in text]
    assert echoed == [], echoed


@pytest.mark.parametrize(
    ("content", "fragment"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED]
)
def test_every_malformed_file_gets_one_short_sentence(content, fragment):
    with pytest.raises(CSVError) as caught:
        load_csv(io.BytesIO(content))
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message and len(message) <= 200
    _no_long_echo(message, content)


@pytest.mark.parametrize(
    ("content", "X", "y"),
    [
        (HEADER + b"1e6,-1e6,1\n-1000000,1000000.0,-1\n", [[1e6, -1e6], [-1e6, 1e6]], [1, -1]),
        (HEADER + b"1e-6,0,1\n0,-1e-6,-1\n", [[1e-6, 0], [0, -1e-6]], [1, -1]),  # tiny
        (HEADER + b"1,6.1e-17,1\n", [[1, 6.1e-17]], [1]),  # rounding noise beside 1 is fine
        (HEADER + b"0,0,1\n0,0,-1\n", [[0, 0], [0, 0]], [1, -1]),  # all at the origin
        (HEADER + b"1,2,1\n3,4,+1\n", [[1, 2], [3, 4]], [1, 1]),  # one label only
        (HEADER + b"1,2,0\n", [[1, 2]], [-1]),  # one point, label 0
        (HEADER + b"1,1,1\n1,1,1\n1,1,1\n", [[1, 1]] * 3, [1, 1, 1]),  # duplicates
        (b'"x1","x2","y"\n"1","2","-1"\n', [[1, 2]], [-1]),  # every cell quoted
        (b"x1,x2,y\n1,2,1", [[1, 2]], [1]),  # no line end at the end
        (HEADER + b"1,2,1\n" * MAX_ROWS, [[1, 2]] * MAX_ROWS, [1] * MAX_ROWS),  # the row cap
        (b"x1,x2,y," + b"c" * 200 + b"\n1,2,1,ok\n", [[1, 2]], [1]),  # a 200-character cell
    ],
)
def test_accepts_the_extremes_that_are_allowed(content, X, y):
    X2, y2 = load_csv(io.BytesIO(content))
    np.testing.assert_array_equal(X2, np.array(X, float))
    np.testing.assert_array_equal(y2, np.array(y, float))


def test_a_one_megabyte_single_line_is_refused():
    """Refused by the line-length cap before any parsing (no timing assertion here)."""
    for content in (b"7" * MAX_BYTES, b"x1,x2,y\n" + b"1," * ((MAX_BYTES - 8) // 2)):
        assert len(content) <= MAX_BYTES
        with pytest.raises(CSVError, match="characters long"):
            load_csv(io.BytesIO(content))


def test_a_million_blank_lines_around_one_point_are_read():
    content = HEADER + b"\n" * (MAX_BYTES - 20) + b"1,2,1\n"
    assert len(content) <= MAX_BYTES
    X, y = load_csv(content)
    assert X.tolist() == [[1.0, 2.0]] and y.tolist() == [1.0]


class _Broken(io.RawIOBase):
    def read(self, size=-1):
        raise OSError("disk on fire")


@pytest.mark.parametrize(
    "source",
    [None, 42, 1.5, [b"x1,x2,y"], _Broken(), io.StringIO("x1,x2,y\n1,\ud800,1\n"), "bad\0path"],
    ids=["None", "int", "float", "list", "read raises", "surrogate text", "NUL in path"],
)
def test_odd_sources_are_csv_errors(source):
    with pytest.raises(CSVError):
        load_csv(source)


def test_text_file_objects_are_read():
    X, y = load_csv(io.StringIO("x1,x2,y\n1,2,-1\n"))
    assert X.tolist() == [[1.0, 2.0]] and y.tolist() == [-1.0]


def test_the_caps_are_consistent():
    assert MAX_LINE >= MAX_COLUMNS * MAX_CELL  # a row of full cells fits in a line
    assert LIMIT == 1e6 and 0 < MIN_SCALE < 1 < LIMIT


# --- property: anything in, a valid dataset or a CSVError out -----------------------------


def _check(content: object) -> None:
    """load_csv either returns a dataset satisfying its documented invariants or raises
    CSVError with a one-line sentence; never anything else."""
    try:
        X, y = load_csv(content)
    except CSVError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) <= 200
        if isinstance(content, bytes):
            _no_long_echo(message, content)
        return
    assert isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2
    n = X.shape[0]
    assert X.shape == (n, 2) and 1 <= n <= MAX_ROWS
    assert isinstance(y, np.ndarray) and y.dtype == np.float64 and y.shape == (n,)
    assert set(y.tolist()) <= {-1.0, 1.0}
    assert np.isfinite(X).all()
    largest = float(np.abs(X).max())
    assert largest <= LIMIT
    assert largest == 0.0 or largest >= MIN_SCALE


@settings(max_examples=300)
@given(st.binary(max_size=3000))
def test_arbitrary_bytes_give_a_dataset_or_a_sentence(content):
    _check(content)


@settings(max_examples=300)
@given(st.text(max_size=2000))
def test_arbitrary_text_gives_a_dataset_or_a_sentence(text):
    _check(text.encode("utf-8"))
    _check(io.StringIO(text))


_NUMBER = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.floats(-1e6, 1e6, allow_nan=False).filter(lambda v: abs(v) >= 1e-3 or v == 0).map(repr),
)
_MUTANT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "", " ", "1e308", "-1e308", "1e400", "1e-400", "1000001", "1e6", "nan", "-inf",
            "Infinity", '"', '""', '"1"', "1,5", "\r", "\n", "\r\n", "\x00", "\x0b", "\ufeff",
            "\u2028", "1" * 300, "0x1F", "1_000", "٣", "+1", "-0", "0", "2", "0.5", "--1",
            "1e", "e1", ".", "-", "𝟏",
        ]
    ),
)  # fmt: skip


@st.composite
def _almost_valid(draw) -> bytes:
    """A valid CSV (header, 1–8 rows of numbers and ±1 labels) with one cell replaced."""
    n = draw(st.integers(1, 8))
    rows = [["x1", "x2", "y"]] + [
        [draw(_NUMBER), draw(_NUMBER), draw(st.sampled_from(["1", "-1"]))] for _ in range(n)
    ]
    r = draw(st.integers(0, n))
    c = draw(st.integers(0, 2))
    rows[r][c] = draw(_MUTANT)
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(",".join(row) for row in rows).encode("utf-8", "surrogatepass")


@settings(max_examples=400)
@given(_almost_valid())
def test_almost_valid_files_give_a_dataset_or_a_sentence(content):
    _check(content)
