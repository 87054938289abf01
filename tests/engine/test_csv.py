"""load_csv(): every way a student's file can be wrong gets a sentence, not a traceback."""

import io

import numpy as np
import pytest

from perceptron_core import CSVError, load_csv, to_csv
from perceptron_core.csvio import MAX_BYTES, MAX_ROWS
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
