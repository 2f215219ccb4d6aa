"""Tests for the tf.strings functions that return RaggedTensors (sandbox/ops/ragged/
ragged_string_ops.py, unicode_ops.py): bytes_split, unicode_decode(_with_offsets),
unicode_split(_with_offsets), unicode_encode and ngrams -- every value, dtype and error
class measured with TF 2.15.1's tensorflow.compat.v1 in graph mode on the same inputs."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

C = tf.ragged.constant


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def lists(fetches):
    got = run(fetches)
    return [g.to_list() if hasattr(g, "to_list") else np.asarray(g).tolist() for g in got]


def test_bytes_split():
    assert lists([tf.strings.bytes_split(["hello", "", "ab"]), tf.strings.bytes_split("abc"),
                  tf.strings.bytes_split([["ab"], ["c"]]),
                  tf.strings.bytes_split(C([["ab"], ["c", "de"]])),
                  tf.strings.bytes_split(["é"])]) == [
        [[b"h", b"e", b"l", b"l", b"o"], [], [b"a", b"b"]], [b"a", b"b", b"c"],
        [[[b"a", b"b"]], [[b"c"]]], [[[b"a", b"b"]], [[b"c"], [b"d", b"e"]]],
        [[b"\xc3", b"\xa9"]]]
    assert tf.strings.bytes_split(["hello", "", "ab"]).shape.as_list() == [3, None]
    assert tf.strings.bytes_split([["ab"], ["c"]]).shape.as_list() == [2, 1, None]


def test_unicode_decode():
    got = lists([
        tf.strings.unicode_decode(["héllo", "", "\u20ac!"], "UTF-8"),
        tf.strings.unicode_decode("héllo", "UTF-8"),
        tf.strings.unicode_decode([["hé"], ["a"]], "UTF-8"),
        tf.strings.unicode_decode(C([["hé"], ["a", "b"]]), "UTF-8"),
        tf.strings.unicode_decode(["hé".encode("utf-16-be")], "UTF-16-BE"),
        tf.strings.unicode_decode([b"h\xe9"], "ISO-8859-1"),
        tf.strings.unicode_decode(["h\U0001F600".encode("utf-32-be")], "UTF-32-BE"),
        tf.strings.unicode_decode(["a"], "utf-8"),
        tf.strings.unicode_decode([b"a\x80\xff"], "US-ASCII"),
        tf.strings.unicode_decode([b"a\x80\x9f"], "windows-1252")])
    assert got == [[[104, 233, 108, 108, 111], [], [8364, 33]], [104, 233, 108, 108, 111],
                   [[[104, 233]], [[97]]], [[[104, 233]], [[97], [98]]], [[104, 233]],
                   [[104, 233]], [[104, 128512]], [[97]], [[97, 65533, 65533]],
                   [[97, 8364, 376]]]
    assert run(tf.strings.unicode_decode(["ab"], "UTF-8")).values.dtype == np.int32


def test_unicode_decode_replaces_ill_formed_sequences_as_icu():
    bad = [b"\xe2\x82", b"\xe2\x82x", b"\xf0\x80\x80\x80", b"\xed\xa0\x80", b"\xc0\xaf",
           b"a\xffb\xfe", "\ufdd0\uffff".encode(), b"\xf4\x90\x80\x80",
           b"\x00\t\n\x1f\x7f\xc2\x80"]
    chars, offsets = run(tf.strings.unicode_decode_with_offsets(bad, "UTF-8"))
    R = 65533
    assert chars.to_list() == [[R], [R, 120], [R] * 4, [R] * 3, [R] * 2, [97, R, 98, R],
                               [64976, 65535], [R] * 4, [0, 9, 10, 31, 127, 128]]
    assert offsets.to_list() == [[0], [0, 2], [0, 1, 2, 3], [0, 1, 2], [0, 1], [0, 1, 2, 3],
                                 [0, 3], [0, 1, 2, 3], [0, 1, 2, 3, 4, 5]]
    controls = tf.strings.unicode_decode(bad, "UTF-8", replace_control_characters=True)
    assert run(controls).to_list()[-1] == [R, R, R, R, 127, 128]
    ignored = tf.strings.unicode_decode_with_offsets(bad, "UTF-8", errors="ignore")[1]
    assert run(ignored).to_list() == [[], [2], [], [], [], [0, 2], [0, 3], [], [0, 1, 2, 3, 4,
                                                                                 5]]
    got = lists([tf.strings.unicode_decode([b"a\xffb"], "UTF-8", replacement_char=63),
                 tf.strings.unicode_decode([b"\x00\t\xff"], "UTF-8", errors="ignore",
                                           replace_control_characters=True),
                 tf.strings.unicode_decode([b"\x00\t\xff"], "UTF-8", replacement_char=0x41,
                                           replace_control_characters=True),
                 tf.strings.unicode_decode([b"\x00\t"], "UTF-8", errors="strict",
                                           replace_control_characters=True)])
    assert got == [[[97, 63, 98]], [[]], [[65, 65, 65]], [[R, R]]]
    utf16 = [b"\x00h\xd8\x3d", b"\x00h\xde\x00\x00a", b"\x00h\x00"]
    chars, offsets = run(tf.strings.unicode_decode_with_offsets(utf16, "UTF-16-BE"))
    assert chars.to_list() == [[104, R], [104, R, 97], [104, R]]
    assert offsets.to_list() == [[0, 2], [0, 2, 4], [0, 2]]
    chars, offsets = run(tf.strings.unicode_decode_with_offsets(
        ["ab".encode("utf-16"), "ab".encode("utf-16-le")], "UTF-16"))
    assert chars.to_list() == [[97, 98], [97, 98]] and offsets.to_list() == [[0, 4], [0, 2]]


def test_unicode_decode_errors():
    with pytest.raises(errors.InvalidArgumentError, match="Invalid formatting on input string"):
        run(tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="strict"))
    with pytest.raises(errors.InvalidArgumentError, match="Could not create converter for "
                                                          "input encoding: UTF-9"):
        run(tf.strings.unicode_decode(["a"], "UTF-9"))
    with pytest.raises(errors.InvalidArgumentError, match="replacement_char"):
        run(tf.strings.unicode_decode(["a"], "UTF-8", replacement_char=0x110000))
    with pytest.raises(ValueError, match="Attr 'errors' of 'UnicodeDecode' Op passed string "
                                         "'foo' not in: \"strict\", \"replace\", \"ignore\"."):
        tf.strings.unicode_decode(["a"], "UTF-8", errors="foo")


def test_decode_and_split_with_offsets():
    chars, offsets = run(tf.strings.unicode_decode_with_offsets(["héllo", "", "\u20ac!"],
                                                                "UTF-8"))
    assert chars.to_list() == [[104, 233, 108, 108, 111], [], [8364, 33]]
    assert offsets.to_list() == [[0, 1, 3, 4, 5], [], [0, 3]]
    assert offsets.values.dtype == np.int64
    scalar = run(tf.strings.unicode_decode_with_offsets("hé", "UTF-8"))
    assert [scalar[0].tolist(), scalar[1].tolist()] == [[104, 233], [0, 1]]
    got = lists([tf.strings.unicode_split(["héllo", "", "\u20ac!"], "UTF-8"),
                 tf.strings.unicode_split("hé", "UTF-8"),
                 tf.strings.unicode_split([b"a\xffb"], "UTF-8"),
                 tf.strings.unicode_split(["hé".encode("utf-16-be")], "UTF-16-BE"),
                 tf.strings.unicode_split([b"\x00\t\xff"], "UTF-8", errors="ignore")])
    assert got == [[[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [], [b"\xe2\x82\xac", b"!"]],
                   [b"h", b"\xc3\xa9"], [[b"a", b"\xef\xbf\xbd", b"b"]],
                   [[b"\x00h", b"\x00\xe9"]], [[b"\x00", b"\t"]]]
    chars, offsets = run(tf.strings.unicode_split_with_offsets(["héllo", "", "\u20ac!"],
                                                               "UTF-8"))
    assert chars.to_list() == got[0] and offsets.to_list() == [[0, 1, 3, 4, 5], [], [0, 3]]
    with pytest.raises(ValueError, match="Attr 'output_encoding' of 'UnicodeEncode' Op passed "
                                         "string 'ISO-8859-1'"):
        tf.strings.unicode_split(["a"], "ISO-8859-1")


def test_unicode_encode():
    got = run([tf.strings.unicode_encode(C([[104, 233], [], [8364]]), "UTF-8"),
               tf.strings.unicode_encode([[104, 233], [97, 98]], "UTF-8"),
               tf.strings.unicode_encode([104, 233], "UTF-8"),
               tf.strings.unicode_encode(C([[[104, 233]], [[97], [98]]]), "UTF-8"),
               tf.strings.unicode_encode([[[104, 233]], [[97, 98]]], "UTF-8"),
               tf.strings.unicode_encode([104, 0x110000, -5], "UTF-8"),
               tf.strings.unicode_encode([104, 0x110000], "UTF-8", errors="ignore"),
               tf.strings.unicode_encode([0xD800, 65], "UTF-8"),
               tf.strings.unicode_encode([104, 0x1F600], "UTF-16-BE"),
               tf.strings.unicode_encode([104, 0x1F600], "UTF-32-BE"),
               tf.strings.unicode_encode([[0xFFFE, 0xFDD0, 0x10FFFF, 0xD800, -1, 0x110000,
                                           0xFDEF, 0x1FFFF]], "UTF-8"),
               tf.strings.unicode_encode([[0x41, 0xFFFE]], "UTF-8", replacement_char=0x3F)])
    assert got[0].tolist() == [b"h\xc3\xa9", b"", b"\xe2\x82\xac"]
    assert got[1].tolist() == [b"h\xc3\xa9", b"ab"] and got[2] == b"h\xc3\xa9"
    assert got[3].to_list() == [[b"h\xc3\xa9"], [b"a", b"b"]]
    assert got[4].tolist() == [[b"h\xc3\xa9"], [b"ab"]]
    assert got[5] == b"h\xef\xbf\xbd\xef\xbf\xbd" and got[6] == b"h"
    assert got[7] == b"\xef\xbf\xbdA"
    assert got[8] == b"\x00h\xd8=\xde\x00" and got[9] == b"\x00\x00\x00h\x00\x01\xf6\x00"
    assert got[10].tolist() == [b"\xef\xbf\xbd" * 8] and got[11].tolist() == [b"A?"]
    # errors="ignore" keeps what ICU keeps of an invalid code point
    ignored = C([[0x1F600, 104], [0xD800, 0x41], [0x1FFFF, -1, 0xFDD0, 0x110000, 0x42]])
    got = run([tf.strings.unicode_encode(ignored, enc, errors="ignore")
               for enc in ("UTF-8", "UTF-16-BE", "UTF-32-BE")])
    assert got[0].tolist() == [b"\xf0\x9f\x98\x80h", b"\xef\xbf\xbdA",
                               b"\xf0\x9f\xbf\xbf\xef\xb7\x90B"]
    assert got[1].tolist() == [b"\xd8=\xde\x00\x00h", b"\xd8\x00\x00A",
                               b"\xd8?\xdf\xff\xfd\xd0\x00B"]
    assert got[2].tolist() == [b"\x00\x01\xf6\x00\x00\x00\x00h", b"\x00\x00\xd8\x00\x00\x00\x00A",
                               b"\x00\x01\xff\xff\x00\x00\xfd\xd0\x00\x00\x00B"]
    assert tf.strings.unicode_encode([[[104, 233]], [[97, 98]]], "UTF-8").shape.as_list() == \
        [2, 1]
    with pytest.raises(errors.InvalidArgumentError, match="Code point is out of range for "
                                                          "Unicode, or a noncharacter."):
        run(tf.strings.unicode_encode([104, 0x110000], "UTF-8", errors="strict"))
    with pytest.raises(ValueError, match="input_tensor's rank must be at least 1."):
        tf.strings.unicode_encode(104, "UTF-8")
    with pytest.raises(TypeError, match="Input 'input_values' of 'UnicodeEncode' Op has type "
                                        "int64 that does not match expected type of int32."):
        tf.strings.unicode_encode(tf.constant([104], tf.int64), "UTF-8")


def test_ngrams():
    rt = C([["a", "b", "c"], ["d"], []])
    got = lists([
        tf.strings.ngrams(["a", "b", "c", "d"], 2),
        tf.strings.ngrams([["a", "b", "c"], ["d", "e", "f"]], 2),
        tf.strings.ngrams(rt, 2),
        tf.strings.ngrams(rt, [1, 2], separator="|"),
        tf.strings.ngrams(rt, 3, pad_values=("<s>", "</s>")),
        tf.strings.ngrams(rt, 3, pad_values="#", padding_width=1),
        tf.strings.ngrams(rt, 2, pad_values="#"),
        tf.strings.ngrams(rt, 3, preserve_short_sequences=True),
        tf.strings.ngrams(rt, 3, pad_values="#", preserve_short_sequences=True),
        tf.strings.ngrams(C([[["a", "b", "c"]], [["d"], []]]), 2),
        tf.strings.ngrams([[["a", "b", "c"]], [["d", "e", "f"]]], 2),
        tf.strings.ngrams(["a", "b"], 2, pad_values="#", padding_width=3),
        tf.strings.ngrams(["a", "b", "c"], (2, 3))])
    assert got == [
        [b"a b", b"b c", b"c d"], [[b"a b", b"b c"], [b"d e", b"e f"]],
        [[b"a b", b"b c"], [], []], [[b"a", b"b", b"c", b"a|b", b"b|c"], [b"d"], []],
        [[b"<s> <s> a", b"<s> a b", b"a b c", b"b c </s>", b"c </s> </s>"],
         [b"<s> <s> d", b"<s> d </s>", b"d </s> </s>"], [b"<s> <s> </s>", b"<s> </s> </s>"]],
        [[b"# a b", b"a b c", b"b c #"], [b"# d #"], []],
        [[b"# a", b"a b", b"b c", b"c #"], [b"# d", b"d #"], [b"# #"]],
        [[b"a b c"], [b"d"], []],
        [[b"# # a", b"# a b", b"a b c", b"b c #", b"c # #"], [b"# # d", b"# d #", b"d # #"],
         [b"# # #", b"# # #"]],
        [[[b"a b", b"b c"]], [[], []]], [[[b"a b", b"b c"]], [[b"d e", b"e f"]]],
        [b"# a", b"a b", b"b #"], [b"a b", b"b c", b"a b c"]]
    assert isinstance(tf.strings.ngrams([["a", "b"]], 2), tf.Tensor)
    with pytest.raises(ValueError, match="Data must have rank>0"):
        tf.strings.ngrams("a", 2)
    with pytest.raises(ValueError, match="All ngram_widths must be greater than 0. Got 0"):
        tf.strings.ngrams(["a", "b"], 0)
    with pytest.raises(ValueError, match="pad_values must be provided if padding_width is "
                                         "set."):
        tf.strings.ngrams(["a", "b"], 2, padding_width=1)
    with pytest.raises(TypeError):
        tf.strings.ngrams([1, 2], 2)
