"""Tests for tf.strings.length, lower, upper, format, regex_full_match, unsorted_segment_join,
unicode_script and unicode_transcode (sandbox/ops/string_case_ops.py, string_format_ops.py,
string_regex_ops.py, string_segment_ops.py, unicode_script_ops.py, unicode_transcode_ops.py).
Every expected value and message was measured with TensorFlow 2.15.1 running the same graph
(tensorflow.compat.v1, graph mode)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.framework import errors
from sandbox.framework.op_def import get_gradient_function


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


# -- length, lower, upper --------------------------------------------------------------------

def test_length_counts_bytes_or_utf8_characters():
    words = ["héllo".encode(), b"", b"\xff", "🙂".encode()]
    t = tf.strings.length(words)
    assert t.op.type == "StringLength" and t.dtype == tf.int32
    got = run(t)
    assert got.dtype == np.int32 and got.tolist() == [6, 0, 1, 4]
    # UTF8_CHAR counts the bytes that do not continue a sequence, valid UTF-8 or not
    odd = ["héllo".encode(), b"\xff\xfe", b"a\xe2\x82", b"\xc3", b"\x80\x80", b"\xe2\x82\xac\x80"]
    assert run(tf.strings.length(odd, unit="UTF8_CHAR")).tolist() == [5, 2, 2, 1, 0, 1]
    assert run(tf.strings.length(["é"], None, "UTF8_CHAR")).tolist() == [1]   # TF 1's order
    scalar = tf.strings.length("abc", name="L")
    assert scalar.name == "L:0" and scalar.get_shape().ndims == 0 and run(scalar) == 3


def test_length_rejects_bad_unit_and_non_strings():
    with pytest.raises(ValueError, match="Attr 'unit' of 'StringLength' Op passed string "
                                         "'CHAR' not in: \"BYTE\", \"UTF8_CHAR\"."):
        tf.strings.length(["a"], unit="CHAR")
    with pytest.raises(TypeError, match="Expected string passed to parameter 'input' of op "
                                        "'StringLength', got \\[1\\] of type 'list' instead"):
        tf.strings.length([1])
    with pytest.raises(TypeError, match="Input 'input' of 'StringLength' Op has type int32 "
                                        "that does not match expected type of string."):
        tf.strings.length(tf.constant([1]))


def test_lower_upper_ascii_and_utf8():
    assert run(tf.strings.lower(["ÀBC Déf".encode(), b"\xff AB"])).tolist() == \
        [b"\xc3\x80bc d\xc3\xa9f", b"\xff ab"]                  # ASCII letters only
    assert run(tf.strings.upper([["àbc déf ß"]])).tolist() == [["àBC DéF ß".encode()]]
    assert run(tf.strings.lower(["ÀBC Déf ΣΑΣ İ ẞ"], encoding="utf-8")).tolist() == \
        ["àbc déf σας i̇ ß".encode()]                           # final sigma, İ -> i + dot
    assert run(tf.strings.upper(["àbc déf ß ﬁ σς ǆ"], encoding="utf-8")).tolist() == \
        ["ÀBC DÉF SS FI ΣΣ Ǆ".encode()]
    assert run(tf.strings.upper([b"ab\xffcd", b"\xe2\x82x"], encoding="utf-8")).tolist() == \
        [b"AB\xef\xbf\xbdCD", b"\xef\xbf\xbdX"]                  # invalid UTF-8 -> U+FFFD
    t = tf.strings.lower("A", name="low")
    assert t.op.type == "StringLower" and t.name == "low:0" and run(t) == b"a"
    for encoding in ("latin1", "UTF-8"):
        with pytest.raises(errors.InvalidArgumentError, match="only utf-8 or '' \\(no "
                                                              f"encoding\\) is supported, "
                                                              f"received {encoding}"):
            run(tf.strings.lower(["A"], encoding=encoding))


# -- format ----------------------------------------------------------------------------------

def fmt(value, summarize=3):
    return run(tf.strings.format("{}", tf.constant(value) if not isinstance(value, tf.Tensor)
                                 else value, summarize=summarize))


def test_format_scalars_and_elements():
    assert fmt(3) == b"3"
    assert fmt(3.5) == b"3.5"
    assert fmt(1e-7) == b"1e-07"
    assert fmt(1.0 / 3) == b"0.333333343"                     # float32: %.9g when needed
    assert fmt(np.float64(1.0 / 3)) == b"0.33333333333333331"
    assert fmt(123456789.0) == b"123456792"
    assert fmt(True) == b"1"
    assert fmt("hi") == b'"hi"'
    assert fmt([1.5, 2.0, np.nan, np.inf, -np.inf]) == b"[1.5 2 nan inf -inf]"
    assert fmt(np.array([-np.nan], np.float32)) == b"[-nan]"
    assert fmt(np.array([0.1, 1e16, -0.0, 5e-324], np.float64)) == \
        b"[0.1 1e+16 -0 4.94065645841247e-324]"
    assert fmt(np.array([1e-40, 1.5], np.float32)) == b"[0 1.5]"  # denormals flushed
    assert fmt(np.array([1 / 3], np.float16)) == b"[0.333251953]"
    assert fmt(np.array([2 ** 64 - 1], np.uint64)) == b"[18446744073709551615]"
    assert fmt(np.ones([2, 3], np.complex64)) == b"[? ? ?...]"
    assert fmt(np.complex64(1)) == b"?"
    assert fmt(["a\nb", 'q"t', "back\\s", "tab\t", "é", "it's", "\r", "\x7f", "\x01x"],
               summarize=-1) == b'["a\\nb" "q\\"t" "back\\\\s" "tab\\t" "\xc3\xa9" "it\\\'s" ' \
                                b'"\\r" "\\177" "\\001x"]'
    assert fmt([[b"a", b"\xff"]]) == b'[["a" "\xff"]]'


def test_format_nests_and_summarizes_as_tf_print():
    assert fmt(tf.range(6)) == b"[0 1 2 3 4 5]"
    assert fmt(tf.range(7)) == b"[0 1 2 ... 4 5 6]"
    assert fmt(tf.reshape(tf.range(12), [3, 4])) == b"[[0 1 2 3]\n [4 5 6 7]\n [8 9 10 11]]"
    assert fmt(tf.reshape(tf.range(100), [10, 10])) == (
        b"[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
        b" [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]")
    assert fmt(tf.reshape(tf.range(24), [2, 3, 4])) == (
        b"[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n"
        b"  [20 21 22 23]]]")
    assert fmt(tf.reshape(tf.range(16), [8, 2, 1]), summarize=1) == (
        b"[[[0]\n  [1]]\n\n ...\n\n [[14]\n  [15]]]")
    m45 = tf.reshape(tf.range(20), [4, 5])
    assert fmt(m45, summarize=1) == b"[[0 ... 4]\n ...\n [15 ... 19]]"
    assert fmt(m45, summarize=2) == \
        b"[[0 1 ... 3 4]\n [5 6 ... 8 9]\n [10 11 ... 13 14]\n [15 16 ... 18 19]]"
    assert fmt(tf.range(10), summarize=-1) == b"[0 1 2 3 4 5 6 7 8 9]"
    assert fmt(tf.range(10), summarize=0) == b"[ ...]"
    assert fmt(tf.reshape(tf.range(20), [2, 2, 5]), summarize=0) == b"[\n\n ...]"
    assert fmt(5, summarize=0) == b"..."
    assert fmt(tf.zeros([0])) == b"[]"
    assert fmt(tf.zeros([2, 0])) == b"[\n ...]"                 # summarize <= the size, 0
    assert fmt(tf.zeros([0, 3])) == b"[]"


def test_format_template_placeholders_and_errors():
    t = tf.strings.format("x={} y={}!", [tf.constant(1), tf.constant([2, 3])])
    assert t.op.type == "StringFormat" and t.get_shape().ndims == 0
    assert run(t) == b"x=1 y=[2 3]!"
    assert run(tf.strings.format("{} {}", [1, "x"])) == b'1 "x"'       # Python values too
    assert run(tf.strings.format("x%sy%s", [tf.constant(1), tf.constant(2)],
                                 placeholder="%s")) == b"x1y2"
    assert run(tf.strings.format("no holes", [])) == b"no holes"
    with pytest.raises(ValueError, match="The template expects 2 tensors, but the inputs only "
                                         "has 1. Please ensure the number of placeholders in "
                                         "template matches inputs length."):
        tf.strings.format("{} {}", tf.constant([1]))


# -- regex_full_match -----------------------------------------------------------------------

def test_regex_full_match_static_and_tensor_patterns():
    t = tf.strings.regex_full_match(["abc", "abcd", "xabc"], "a.c")
    assert t.op.type == "StaticRegexFullMatch" and t.dtype == tf.bool
    assert run(t).tolist() == [True, False, False]
    t = tf.strings.regex_full_match(["abc", "abcd"], tf.constant("a.*"))
    assert t.op.type == "RegexFullMatch" and run(t).tolist() == [True, True]
    assert run(tf.strings.regex_full_match(["ab", "abc"], "a|ab")).tolist() == [True, False]
    # as RE2: '.' is one UTF-8 character, \w and \d are ASCII
    assert run(tf.strings.regex_full_match(["é", "ab", "a\nb", "🙂"], ".")).tolist() == \
        [True, False, False, True]
    assert run(tf.strings.regex_full_match(["é", "a", "٣"], r"\w")).tolist() == \
        [False, True, False]
    assert run(tf.strings.regex_full_match([["2019-01-02", "19-1-2"]],
                                           r"(\d{4})-(\d\d)-(\d\d)")).tolist() == [[True, False]]
    with pytest.raises(errors.InvalidArgumentError, match="Invalid pattern: a\\(, error: "):
        run(tf.strings.regex_full_match(["abc"], "a("))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.strings.regex_full_match(["abc"], tf.constant(["a", "b"]))


# -- unsorted_segment_join ------------------------------------------------------------------

def test_unsorted_segment_join():
    t = tf.strings.unsorted_segment_join(["this", "a", "test", "is"], [0, 1, 1, 0], 3, " ")
    assert t.op.type == "UnsortedSegmentJoin" and t.get_shape().as_list() == [3]
    assert run(t).tolist() == [b"this is", b"a test", b""]
    t = tf.strings.unsorted_segment_join([["Y", "q", "c"], ["Y", "6", "6"], ["p", "G", "a"]],
                                         [1, 0, 1], 2, separator=":")
    assert t.get_shape().as_list() == [2, 3]
    assert run(t).tolist() == [[b"Y", b"6", b"6"], [b"Y:p", b"q:G", b"c:a"]]
    t = tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [[0, 1], [1, 0]], 2, ",")
    assert run(t).tolist() == [b"a,d", b"b,c"]                  # row-major order
    assert run(tf.strings.unsorted_segment_join(
        ["a", "b"], tf.constant([0, 0], tf.int64), tf.constant(1, tf.int64))).tolist() == [b"ab"]
    unknown = tf.strings.unsorted_segment_join(tf.placeholder_with_default([["a", "b"]], None),
                                               [0], 3)
    assert unknown.get_shape().ndims is None
    assert run(unknown).tolist() == [[b"a", b"b"], [b"", b""], [b"", b""]]


def test_unsorted_segment_join_errors():
    for ids, n in (([0, -1], 2), ([0, 2], 2), ([0, 0], 0)):
        with pytest.raises(errors.InvalidArgumentError, match="segment_ids are not allowed to "
                                                              "exceed num_segments or to have "
                                                              "negative values."):
            run(tf.strings.unsorted_segment_join(["a", "b"], ids, n))
    with pytest.raises(errors.InvalidArgumentError, match="Segment dimension is 2 while input "
                                                          "dimension is 1 in rank 0"):
        run(tf.strings.unsorted_segment_join(tf.placeholder_with_default(["a", "b", "c"], None),
                                             [0, 0], 1))
    with pytest.raises(errors.InvalidArgumentError, match="Segment_id cannot have rank 0"):
        run(tf.strings.unsorted_segment_join("a", 0, 1))
    with pytest.raises(errors.InvalidArgumentError, match="Number of segments must be "
                                                          "non-negative but got -1"):
        run(tf.strings.unsorted_segment_join(["a"], [0], tf.placeholder_with_default(-1, [])))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.strings.unsorted_segment_join(["a", "b"], [0, 1, 0], 2)
    with pytest.raises(ValueError, match="Dimension size, given by scalar input 2, must be "
                                         "non-negative but is -1"):
        tf.strings.unsorted_segment_join(["a", "b"], [0, 0], -1)
    with pytest.raises(TypeError, match="Value passed to parameter 'segment_ids' has DataType "
                                        "float32 not in list of allowed values: int32, int64"):
        tf.strings.unsorted_segment_join(["a", "b"], [0., 0.], 1)


# -- unicode_script --------------------------------------------------------------------------

def test_unicode_script_gives_icu_codes():
    text = "aZéЖα中ا 1.\u0301あア가אกक"
    t = tf.strings.unicode_script([ord(c) for c in text])
    assert t.op.type == "UnicodeScript" and t.dtype == tf.int32
    assert run(t).tolist() == [25, 25, 25, 8, 14, 17, 2, 0, 0, 0, 1, 20, 22, 18, 19, 38, 10]
    # not a code point: -1; unassigned, private use, surrogate, after Unicode 13: Unknown 103
    assert run(tf.strings.unicode_script([-5, 0x110000, 0x378, 0xE000, 0xD800, 0x31350,
                                          0x10FFFF])).tolist() == [-1, -1, 103, 103, 103, 103,
                                                                    103]
    assert run(tf.strings.unicode_script(97)) == 25
    with pytest.raises(TypeError, match="Input 'input' of 'UnicodeScript' Op has type int64 "
                                        "that does not match expected type of int32."):
        tf.strings.unicode_script(tf.constant([1], tf.int64))


# -- unicode_transcode ----------------------------------------------------------------------

def transcode(strings, *args, **kwargs):
    return run(tf.strings.unicode_transcode(strings, *args, **kwargs)).tolist()


def test_transcode_between_utf_encodings():
    t = tf.strings.unicode_transcode(["Hello", "é🙂"], "UTF-8", "UTF-16-BE")
    assert t.op.type == "UnicodeTranscode"
    assert run(t).tolist() == [b"\x00H\x00e\x00l\x00l\x00o", b"\x00\xe9\xd8=\xdeB"]
    assert transcode(["é🙂"], "UTF-8", "UTF-32-BE") == [b"\x00\x00\x00\xe9\x00\x01\xf6B"]
    assert transcode([b"\x00a\xd8\x3d\xde\x42", b"\xfe\xff\x00a"], "UTF-16-BE", "UTF-8") == \
        [b"a\xf0\x9f\x99\x82", b"\xef\xbb\xbfa"]                # BOM kept: order is explicit
    assert transcode([b"\xff\xfea\x00", b"\xfe\xff\x00a", b"\x00a"], "UTF-16", "UTF-8") == \
        [b"a", b"a", b"a"]                                       # BOM read and dropped
    assert transcode([b"\xff\xfe\x00\x00a\x00\x00\x00"], "UTF-32", "UTF-8") == [b"a"]
    assert transcode([b"ab\x80\xff"], "ISO-8859-1", "UTF-8") == [b"ab\xc2\x80\xc3\xbf"]
    assert transcode([b"ab\x80\xff"], "US ASCII", "UTF-8") == [b"ab\xef\xbf\xbd\xef\xbf\xbd"]
    assert transcode([b"ab"], "utf8", "UTF-8") == [b"ab"]      # ICU's name matching


def test_transcode_ill_formed_input():
    bad = [b"a\xffb", b"a\xe2\x82b", b"\xf0\x80\x80z", b"\xed\xa0\x80q", b"ab\xe2"]
    r = "\ufffd".encode()
    assert transcode(bad, "UTF-8", "UTF-8") == \
        [b"a" + r + b"b", b"a" + r + b"b", r * 3 + b"z", r * 3 + b"q", b"ab" + r]
    assert transcode(bad, "UTF-8", "UTF-8", errors="ignore") == [b"ab", b"ab", b"z", b"q", b"ab"]
    assert transcode([b"\xd8\x3dz\x00", b"\x00a\x00"], "UTF-16-BE", "UTF-8") == \
        [r + "\u7a00".encode(), b"a" + r]
    assert transcode([b"\x00\x11\x00\x00\x00\x00\x00b"], "UTF-32-BE", "UTF-8") == [r + b"b"]
    assert transcode([b"a\xffb\x01\n"], "UTF-8", "UTF-8", replacement_char=63,
                     replace_control_characters=True) == [b"a?b??"]
    assert transcode([b"a\xffb\x01\n"], "UTF-8", "UTF-8", errors="ignore",
                     replace_control_characters=True) == [b"ab"]
    assert transcode([b"a\xff"], "UTF-8", "UTF-16-BE", replacement_char=0x1F642) == \
        [b"\x00a\xd8=\xdeB"]
    for strings, control in (([b"ab", b"a\xffb"], False), ([b"ab\x01"], True)):
        with pytest.raises(errors.InvalidArgumentError, match="Invalid formatting on input "
                                                              "string"):
            transcode(strings, "UTF-8", "UTF-8", errors="strict",
                      replace_control_characters=control)


def test_transcode_argument_errors():
    with pytest.raises(ValueError, match="Attr 'output_encoding' of 'UnicodeTranscode' Op "
                                         "passed string 'UTF-16-LE' not in: \"UTF-8\", "
                                         "\"UTF-16-BE\", \"UTF-32-BE\"."):
        tf.strings.unicode_transcode(["a"], "UTF-8", "UTF-16-LE")
    with pytest.raises(ValueError, match="Attr 'errors' of 'UnicodeTranscode' Op passed "
                                         "string 'x' not in"):
        tf.strings.unicode_transcode(["a"], "UTF-8", "UTF-8", errors="x")
    with pytest.raises(errors.InvalidArgumentError, match="Could not create converter for "
                                                          "input encoding: FOO"):
        transcode(["a"], "FOO", "UTF-8")
    with pytest.raises(errors.InvalidArgumentError, match="replacement_char out of unicode "
                                                          "codepoint range"):
        transcode(["a"], "UTF-8", "UTF-8", replacement_char=0x110000)
    with pytest.raises(NotImplementedError, match="not 'Shift_JIS'"):
        tf.strings.unicode_transcode(["a"], "Shift_JIS", "UTF-8")


# -- all of them ----------------------------------------------------------------------------

def test_no_gradients_and_namespace():
    s = tf.constant(["Ab"])
    outputs = [tf.strings.length(s), tf.strings.lower(s), tf.strings.upper(s),
               tf.strings.format("{}", s), tf.strings.regex_full_match(s, "A."),
               tf.strings.regex_full_match(s, tf.constant("A.")),
               tf.strings.unsorted_segment_join(s, [0], 1), tf.strings.unicode_script([97]),
               tf.strings.unicode_transcode(s, "UTF-8", "UTF-8")]
    for t in outputs:
        assert get_gradient_function(t.op) is None, t.op.type
    for name in ("format", "length", "lower", "upper", "regex_full_match",
                 "unsorted_segment_join", "unicode_script", "unicode_transcode"):
        assert name in tf.strings.__all__ and callable(getattr(tf.strings, name))


def test_ops_run_on_a_cluster_task():
    with tf.Graph().as_default():
        with tf.device("/job:worker/task:0"):
            words = tf.constant(["Straße", "ΑΣ"])
            out = [tf.strings.format("{} {}", [words, tf.strings.length(words, unit="UTF8_CHAR")]),
                   tf.strings.upper(words, encoding="utf-8"),
                   tf.strings.unsorted_segment_join(words, [0, 0], 1, "+"),
                   tf.strings.unicode_transcode(words, "UTF-8", "UTF-16-BE"),
                   tf.strings.unicode_script([ord("ß")])]
        with LocalCluster({"worker": 1}) as cluster, tf.Session(cluster.target()) as sess:
            text, upper, joined, utf16, script = sess.run(out)
    assert text == '["Straße" "ΑΣ"] [6 2]'.encode()
    assert upper.tolist() == ["STRASSE".encode(), "ΑΣ".encode()]
    assert joined.tolist() == ["Straße+ΑΣ".encode()]
    assert utf16.tolist() == ["Straße".encode("utf-16-be"), "ΑΣ".encode("utf-16-be")]
    assert script.tolist() == [25]
