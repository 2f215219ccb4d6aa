"""Tests for tf.string_split, tf.strings.split, tf.reduce_join (sandbox/ops/string_ops.py) and
the string hashes (sandbox/ops/string_hash_ops.py). Every expected value below is TF 2.15's
(tf.compat.v1 in graph mode, run by hand and pasted here)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from sandbox.ops import string_hash_ops


def run(fetches):
    with tf.Session() as sess:
        out = sess.run(fetches)
    return np.asarray(out, dtype=object) if isinstance(out, bytes) else out  # a scalar string


def sparse(st):
    value = run(st)
    return value.indices.tolist(), value.values.tolist(), value.dense_shape.tolist()


# -- the hashes ------------------------------------------------------------------------------

BASE = "The quick brown fox jumps over the lazy dog 0123456789. " * 4
LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 96, 100, 127,
           128, 129, 200]          # FarmHash's length classes: 0-3, 4-7, 8-16, 17-32, 33-64, > 64
STRINGS = [BASE[:n].encode() for n in LENGTHS] + [
    "é".encode(), "naïve café".encode(), "日本語のテキスト".encode(), "🙂🙃 emoji".encode(),
    ("ü" * 40).encode(), b"\x00", b"\x00" * 9, b"\xff" * 70]
BIG = 2 ** 63 - 1                  # the most buckets: the hashes' low 63 bits, mod 2**63 - 1

# TF 2.15's outputs for STRINGS: string_to_hash_bucket_fast(STRINGS, BIG),
# string_to_hash_bucket_strong(STRINGS, BIG, [1, 2]), ..._strong(STRINGS, BIG, [0xDEADBEEF, -5]),
# string_to_hash_bucket(STRINGS, BIG) and string_to_hash_bucket_fast(STRINGS, 1000).
FAST = [
    1936946117179621456, 1366698271136253306, 6802249652779214323, 398699863598724094,
    8425543508670559910, 8805132910519014279, 8879765114474867592, 5102859526078303239,
    5536152759197313107, 9032017524180936103, 4320848957565769301, 5162019803258432958,
    6702341905823656245, 259718955123041108, 3916272259504149091, 8241563171161551831,
    8938627730308717417, 8698329695541423407, 8569374846896056240, 3948712330362037850,
    7355980981875364796, 5838369434751326594, 9076779948083298611, 7869015189536679856,
    639204519056272320, 3690446324967432788, 693143013273849025, 1762165697803648411,
    3319086538622314836, 1571020101173913688, 3910293699597908386, 4494688008148699989,
    7848952359244052180, 2464969561578978609]

STRONG_1_2 = [
    443797209252341628, 8539109249312051502, 2761179273583152410, 7531850269785792671,
    6040603250372251285, 7735477948065926090, 6598655052370010227, 8182414139654459965,
    380299065442354698, 1228895561025515582, 5242959264365556033, 4458056200643605541,
    2220651056078363003, 5837821239571160227, 109331205514008138, 3923631052423311770,
    1721173123802095041, 6581179990968971556, 7618476472131127555, 4218910508709874716,
    6624417775613076816, 8753673062427091668, 4185515282099726867, 420317310804112135,
    7051766553715204911, 6479653227304099853, 4006969190011310591, 5453055417885400794,
    2857707388246683742, 3042321504137493891, 8183304299420018707, 4575515398581416406,
    702508954828724805, 5875258150291898888]

STRONG_DEADBEEF_M5 = [
    4526719097045476478, 138827272537949365, 6108367353179445303, 4697755858323458153,
    5389946346335687160, 3537045971282024335, 4329097846137338024, 4959707998660686226,
    2712600917242949939, 151960277464921128, 2535674318974099966, 4516247144298870622,
    6816789088850951365, 3088154458256495394, 8516782830308288428, 4696813984020755244,
    9005487436880110036, 8517216076884613771, 680712006552714898, 2713269090953699335,
    2976073314755065555, 7530161456303128429, 2136822418488436773, 227989477997852300,
    8457453517790825628, 1873165817489460228, 3540005560827788755, 7391418324598271813,
    3699303002364177442, 4558333967234849346, 823888236361042880, 8431433955368486893,
    7108187856392293054, 9018436744221281861]

LEGACY = [
    105434511174508092, 6768514503378224810, 222333180050931636, 8656412646643872492,
    1607844577577912814, 4429240369837125778, 249932044799380874, 3350161390323024880,
    8095907811612991339, 6433861121940111933, 436177175344453969, 5752701778798411562,
    76780117291459077, 8140991564862523177, 6312311820452977369, 283173735709869071,
    3184802701496532465, 7056190425036604084, 7587175587533425101, 589438531274720025,
    1244234531424359306, 2022822956620980318, 4481064431037504348, 5344768115113265538,
    2615396526204026179, 2995957312682112693, 8313157333981348665, 4078235878650068071,
    4142284917711230161, 3862061473429388577, 1792050509070925371, 1950187560451231046,
    5494854108047315620, 899188446168145709]

FAST_1000 = [
    263, 306, 323, 901, 717, 279, 399, 239, 107, 103, 301, 765, 245, 915, 898, 638, 417,
    407, 240, 657, 603, 594, 611, 856, 320, 595, 25, 218, 836, 495, 193, 796, 180, 416]

def test_fingerprint64_buckets_are_tfs():
    assert len(STRINGS) >= 30
    assert run(tf.string_to_hash_bucket_fast(STRINGS, BIG)).tolist() == FAST
    assert run(tf.string_to_hash_bucket_fast(STRINGS, 1000)).tolist() == FAST_1000
    assert run(tf.strings.to_hash_bucket_fast(STRINGS, 1000)).tolist() == FAST_1000


def test_siphash_buckets_are_tfs():
    assert run(tf.string_to_hash_bucket_strong(STRINGS, BIG, [1, 2])).tolist() == STRONG_1_2
    assert run(tf.strings.to_hash_bucket_strong(STRINGS, BIG, key=[0xDEADBEEF, -5])).tolist() \
        == STRONG_DEADBEEF_M5


def test_legacy_hash64_buckets_are_tfs():
    assert run(tf.string_to_hash_bucket(STRINGS, BIG)).tolist() == LEGACY
    assert run(tf.strings.to_hash_bucket(input=STRINGS, num_buckets=BIG)).tolist() == LEGACY


def test_hash_functions_directly():
    # the full 64-bit values agree with the buckets above (BIG = 2**63 - 1)
    for s, fast, strong, legacy in zip(STRINGS, FAST, STRONG_1_2, LEGACY):
        assert string_hash_ops.fingerprint64(s) % BIG == fast
        assert string_hash_ops.siphash24(1, 2, s) % BIG == strong
        assert string_hash_ops.hash64(s) % BIG == legacy
    # SipHash-2-4's published test vector: key 00..0f, message 00..0e
    key = bytes(range(16))
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    assert string_hash_ops.siphash24(k0, k1, bytes(range(15))) == 0xa129ca6149be45e5


def test_hash_bucket_shapes_and_small_values():
    # TF 2.15: shapes kept, int64, tiny bucket counts
    out = tf.strings.to_hash_bucket_fast([["a", "b"], ["", "xyz"]], 10)
    assert out.dtype == tf.int64 and out.get_shape().as_list() == [2, 2]
    assert run(out).tolist() == [[9, 2], [3, 0]]
    assert run(tf.strings.to_hash_bucket_strong("hello", 10, [3, 4])).tolist() == 4
    assert run(tf.string_to_hash_bucket(["a", "b"], 1)).tolist() == [0, 0]
    assert run(tf.string_to_hash_bucket(input=["a", "b"], num_buckets=7)).tolist() == [4, 5]


def test_hash_bucket_errors():
    with pytest.raises(ValueError, match="Attr 'num_buckets' of 'StringToHashBucketFast' Op "
                                         "passed 0 less than minimum 1"):
        tf.string_to_hash_bucket_fast(["a"], 0)
    with pytest.raises(TypeError):
        tf.string_to_hash_bucket_fast([1], 3)
    with pytest.raises(TypeError, match="Expected list for 'key' argument"):
        tf.string_to_hash_bucket_strong(["a"], 3, 5)
    with pytest.raises(errors.InvalidArgumentError, match="Key must have 2 elements"):
        run(tf.string_to_hash_bucket_strong(["a"], 3, [1]))       # as TF: at run time


# -- string_split ------------------------------------------------------------------------------

def test_string_split_sparse_tensor():
    st = tf.string_split(["hello world", "", "a  b c", " x "])
    assert isinstance(st, tf.SparseTensor)
    assert st.indices.get_shape().as_list() == [None, 2]
    assert st.dense_shape.get_shape().as_list() == [2]
    assert sparse(st) == ([[0, 0], [0, 1], [2, 0], [2, 1], [2, 2], [3, 0]],
                          [b"hello", b"world", b"a", b"b", b"c", b"x"], [4, 3])


def test_string_split_keeps_empty_tokens_but_not_empty_strings():
    st = tf.string_split(["hello world", "", "a  b c", " x "], skip_empty=False)
    assert sparse(st) == ([[0, 0], [0, 1], [2, 0], [2, 1], [2, 2], [2, 3], [3, 0], [3, 1],
                           [3, 2]],
                          [b"hello", b"world", b"a", b"", b"b", b"c", b"", b"x", b""], [4, 4])
    assert sparse(tf.string_split(["", ""], skip_empty=False)) == ([], [], [2, 0])
    assert sparse(tf.string_split(["", ""])) == ([], [], [2, 0])
    assert sparse(tf.string_split(np.array([], object))) == ([], [], [0, 0])


def test_string_split_at_any_delimiter_byte():
    assert sparse(tf.string_split(["a,b;c", "d;;e", ";"], delimiter=",;")) == (
        [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], [b"a", b"b", b"c", b"d", b"e"], [3, 3])
    assert sparse(tf.string_split(["a,b;c", "d;;e", ";"], ",;", skip_empty=False)) == (
        [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1]],
        [b"a", b"b", b"c", b"d", b"", b"e", b"", b""], [3, 3])
    assert sparse(tf.string_split(["a]b^c\\d"], "]^\\")) == (
        [[0, 0], [0, 1], [0, 2], [0, 3]], [b"a", b"b", b"c", b"d"], [1, 4])


def test_string_split_empty_delimiter_gives_bytes():
    assert sparse(tf.string_split(["abc", "", "de"], delimiter="")) == (
        [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]], [b"a", b"b", b"c", b"d", b"e"], [3, 3])
    assert sparse(tf.string_split(["héllo"], delimiter="")) == (
        [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5]],
        [b"h", b"\xc3", b"\xa9", b"l", b"l", b"o"], [1, 6])


def test_string_split_errors():
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 0"):
        tf.string_split("abc")
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.string_split([["a b"]])
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.string_split(["a b"], delimiter=["x"])
    with pytest.raises(ValueError, match="Cannot specify both 'delimiter' and 'sep'"):
        tf.string_split(["a b"], sep="a", delimiter="b")
    with pytest.raises(ValueError, match="result_type must be 'RaggedTensor' or "
                                         "'SparseTensor'"):
        tf.string_split(["a b"], result_type="foo")
    # result_type="RaggedTensor": TF 2.15.1's rows, for both splits and an input of rank 2
    with tf.Session() as sess:
        ragged = sess.run([tf.string_split(["a b", "", "c d e"], result_type="RaggedTensor"),
                           tf.strings.split(["a  b", "c"], sep=" ", result_type="RaggedTensor"),
                           tf.strings.split([["a b", "c"], ["d", "e f g"]],
                                            result_type="RaggedTensor"),
                           tf.strings.split("x y", result_type="RaggedTensor")])
    assert [r.to_list() for r in ragged] == [
        [[b"a", b"b"], [], [b"c", b"d", b"e"]], [[b"a", b"", b"b"], [b"c"]],
        [[[b"a", b"b"], [b"c"]], [[b"d"], [b"e", b"f", b"g"]]], [[b"x", b"y"]]]


def test_strings_split_is_pythons_split():
    assert sparse(tf.strings.split(["a b  c ", "", "  ", "x\ty\nz\x0bw\x0cv\rq"])) == (
        [[0, 0], [0, 1], [0, 2], [3, 0], [3, 1], [3, 2], [3, 3], [3, 4], [3, 5]],
        [b"a", b"b", b"c", b"x", b"y", b"z", b"w", b"v", b"q"], [4, 6])
    assert sparse(tf.strings.split(["a b  c ", "", "  ", "a,,b,"], sep=",")) == (
        [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3]],
        [b"a b  c ", b"", b"  ", b"a", b"", b"b", b""], [4, 4])
    assert sparse(tf.strings.split(["a b  c ", "", "a<>b<><>c"], sep="<>")) == (
        [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [2, 3]],
        [b"a b  c ", b"", b"a", b"b", b"", b"c"], [3, 4])
    assert sparse(tf.strings.split(["a b  c d", "a,b,c,d"], sep=",", maxsplit=1)) == (
        [[0, 0], [1, 0], [1, 1]], [b"a b  c d", b"a", b"b,c,d"], [2, 2])
    assert sparse(tf.strings.split(["a b  c d", " a  b c "], maxsplit=1)) == (
        [[0, 0], [0, 1], [1, 0], [1, 1]], [b"a", b"b  c d", b"a", b"b c "], [2, 2])
    assert sparse(tf.strings.split("a b")) == ([[0, 0], [0, 1]], [b"a", b"b"], [1, 2])
    assert sparse(tf.strings.split(source=["a b"])) == ([[0, 0], [0, 1]], [b"a", b"b"], [1, 2])
    st = tf.strings.split([["a b", "c"], ["", "d e f"]])
    assert st.indices.get_shape().as_list() == [None, 3]
    assert sparse(st) == ([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 1, 0], [1, 1, 1], [1, 1, 2]],
                          [b"a", b"b", b"c", b"d", b"e", b"f"], [2, 2, 3])


# -- reduce_join -------------------------------------------------------------------------------

A = [["a", "b"], ["c", "d"]]
B = np.array([[["a", "b", "c"], ["d", "e", "f"]], [["g", "h", "i"], ["j", "k", "l"]]], object)


@pytest.mark.parametrize("kwargs, expected, shape", [
    ({}, b"abcd", []),
    ({"axis": 0}, [b"ac", b"bd"], [2]),
    ({"axis": 1}, [b"ab", b"cd"], [2]),
    ({"axis": [0, 1]}, b"acbd", []),
    ({"axis": [1, 0]}, b"abcd", []),
    ({"axis": -1, "keep_dims": True, "separator": "-"}, [[b"a-b"], [b"c-d"]], [2, 1]),
    ({"axis": [0], "keepdims": True, "separator": ", "}, [[b"a, c", b"b, d"]], [1, 2]),
    ({"axis": [], "separator": ", "}, [[b"a", b"b"], [b"c", b"d"]], [2, 2]),
])
def test_reduce_join_2d(kwargs, expected, shape):
    out = tf.reduce_join(A, **kwargs)
    assert out.get_shape().as_list() == shape
    assert run(out).tolist() == expected


def test_reduce_join_3d_axis_order():
    assert run(tf.reduce_join(B, [2, 0], separator="|")).tolist() == \
        [b"a|b|c|g|h|i", b"d|e|f|j|k|l"]
    out = tf.reduce_join(B, [0, 2], separator="|", keepdims=True)
    assert out.get_shape().as_list() == [1, 2, 1]
    assert run(out).tolist() == [[[b"a|g|b|h|c|i"], [b"d|j|e|k|f|l"]]]
    assert run(tf.reduce_join(B, [1, -1, 0], separator="|")).tolist() == \
        b"a|d|b|e|c|f|g|j|h|k|i|l"
    assert run(tf.reduce_join(B, separator=".")).tolist() == b"a.b.c.d.e.f.g.h.i.j.k.l"
    assert run(tf.reduce_join(B, reduction_indices=1)).tolist() == \
        [[b"ad", b"be", b"cf"], [b"gj", b"hk", b"il"]]
    assert run(tf.reduce_join(B, keepdims=True)).tolist() == [[[b"abcdefghijkl"]]]
    assert run(tf.strings.reduce_join(A, 1, separator=" ")).tolist() == [b"a b", b"c d"]


def test_reduce_join_empty_and_scalar_and_unknown():
    empty = np.zeros((2, 0), object).astype(bytes)
    assert run(tf.reduce_join(empty, 1)).tolist() == [b"", b""]
    assert run(tf.reduce_join(empty, 1, keep_dims=True)).tolist() == [[b""], [b""]]
    assert run(tf.reduce_join(empty, 0)).tolist() == []
    assert run(tf.reduce_join("abc")).tolist() == b"abc"
    out = tf.reduce_join(A, tf.placeholder_with_default([1], None))
    assert out.get_shape().ndims is None
    assert run(out).tolist() == [b"ab", b"cd"]
    out = tf.reduce_join(tf.placeholder_with_default(B, None), separator=",")
    assert run(out).tolist() == b"a,b,c,d,e,f,g,h,i,j,k,l"


def test_reduce_join_errors():
    with pytest.raises(errors.InvalidArgumentError, match="Duplicate reduction dimension 0"):
        run(tf.reduce_join(A, [0, 0]))
    with pytest.raises(errors.InvalidArgumentError, match="Duplicate reduction dimension 1"):
        run(tf.reduce_join(A, [-1, 1]))
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 "
                                         "dimensions"):
        tf.reduce_join(A, 2)
    with pytest.raises(ValueError, match="Invalid reduction dimension -3"):
        tf.reduce_join(A, -3)
    with pytest.raises(ValueError, match="Invalid reduction dimension 0 for input with 0 "
                                         "dimensions"):
        tf.reduce_join("abc", 0)
    with pytest.raises(errors.OutOfRangeError, match=r"Invalid reduction dimension 5 for input "
                                                     r"with 2 dimension\(s\)"):
        run(tf.reduce_join(A, tf.placeholder_with_default([5], None)))
    with pytest.raises(TypeError, match="Input 'inputs' of 'ReduceJoin' Op has type int32"):
        tf.reduce_join([1, 2])
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'"):
        tf.reduce_join(A, keep_dims=True, keepdims=True)
    with pytest.raises(ValueError, match="Shape must be at most rank 1 but is rank 2"):
        tf.reduce_join(A, [[0]])
