"""Tests for sandbox/ops/string_ops.py: string_join, as_string, string_to_number, substr,
regex_replace and string_strip -- every value measured with TF 1.15.5."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_string_join():
    assert run(tf.string_join([["a", "b"], "c"], separator="-")).tolist() == [b"a-c", b"b-c"]
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are "
                                         "2 and 3"):
        tf.string_join([["a", "b"], ["c", "d", "e"]])


def test_as_string_formats_as_tf():
    assert run(tf.as_string([3.5, 1e-7, 12345678.9])).tolist() == \
        [b"3.500000", b"0.000000", b"12345679.000000"]
    assert run(tf.as_string([3, -2])).tolist() == [b"3", b"-2"]
    assert run(tf.as_string([True, False])).tolist() == [b"true", b"false"]
    assert run(tf.as_string([3.14159], precision=2)).tolist() == [b"3.14"]
    assert run(tf.as_string([3.14159], scientific=True)).tolist() == [b"3.141590e+00"]
    assert run(tf.as_string([3.14159], shortest=True)).tolist() == [b"3.14159"]
    assert run(tf.as_string([3], width=4, fill="0")).tolist() == [b"0003"]
    with pytest.raises(TypeError, match="DataType string not in list of allowed values"):
        tf.as_string(["a"])


def test_string_to_number():
    np.testing.assert_array_equal(run(tf.string_to_number(["1.5", "-3", "1e3"])),
                                  [1.5, -3, 1000])
    got = run(tf.string_to_number(["7"], out_type=tf.int32))
    assert got.dtype == np.int32 and got.tolist() == [7]
    for bad, out_type in (("abc", tf.float32), ("1.5", tf.int32)):
        with pytest.raises(errors.InvalidArgumentError, match="StringToNumberOp could not "
                                                              f"correctly convert string: {bad}"):
            run(tf.string_to_number([bad], out_type=out_type))


def test_substr_regex_replace_strip():
    assert run(tf.substr(["hello", "world"], 1, 3)).tolist() == [b"ell", b"orl"]
    assert run(tf.substr(["hello", "wo"], 1, 3)).tolist() == [b"ell", b"o"]
    assert run(tf.substr("hello", -3, 2)) == b"ll"
    with pytest.raises(errors.InvalidArgumentError, match="pos 3 out of range for string "
                                                          "b'wo' at index 1"):
        run(tf.substr(["hello", "wo"], 3, 3))
    assert run(tf.regex_replace(["aa bb", "ab"], "a", "x")).tolist() == [b"xx bb", b"xb"]
    assert run(tf.regex_replace(["aa bb", "ab"], "a", "x",
                                replace_global=False)).tolist() == [b"xa bb", b"xb"]
    assert run(tf.regex_replace(["hello world"], r"(\w+) (\w+)", r"\2 \1")).tolist() == \
        [b"world hello"]
    assert run(tf.string_strip(["  a b  "])).tolist() == [b"a b"]
