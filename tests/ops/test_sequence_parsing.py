"""tf.train.SequenceExample / FeatureList / FeatureLists (sandbox/platform/example_proto.py),
tf.FixedLenSequenceFeature and tf.SparseFeature in parse_example / parse_single_example
(sandbox/ops/parsing_ops.py), tf.parse_single_sequence_example and tf.io.parse_sequence_example
(sandbox/ops/parsing_sequence_ops.py).

Every expected value below was measured with TensorFlow 2.15.1 (`tensorflow.compat.v1`, graph
mode): the serialized bytes are TF's `SerializeToString(deterministic=True)` of the same
messages (the sandbox always writes map entries sorted; the test messages have no key that is a
prefix of another, where TF 2.15's upb orders "seq" before "s"), the parse results and the
error messages are TF's outputs for the same inputs, so CI checks them without TF.
"""
import numpy as np
import pytest

import sandbox as tf
from sandbox.platform.example_proto import (BytesList, DecodeError, Example, Feature,
                                            FeatureList, FeatureLists, Features, FloatList,
                                            Int64List, SequenceExample)


def I(v):  # noqa: E743
    return Feature(int64_list=Int64List(value=v))


def Fl(v):
    return Feature(float_list=FloatList(value=v))


def B(v):
    return Feature(bytes_list=BytesList(value=v))


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


# -- the protos -----------------------------------------------------------------------------

def sequence_1():
    return SequenceExample(
        context=Features(feature={"label": I([3]), "name": B([b"seq1"])}),
        feature_lists=FeatureLists(feature_list={
            "frames": FeatureList(feature=[Fl([1, 2]), Fl([3, 4]), Fl([5, 6])]),
            "tokens": FeatureList(feature=[I([7]), I([8, 9]), I([])]),
            "words": FeatureList(feature=[B([b"a"]), B([b"b"]), B([b"c"])]),
            "empty": FeatureList()}))


def sequence_2():
    return SequenceExample(
        context=Features(feature={"label": I([4])}),
        feature_lists=FeatureLists(feature_list={
            "frames": FeatureList(feature=[Fl([9, 8])]),
            "tokens": FeatureList(feature=[I([1, 2, 3]), I([4])])}))


# TF 2.15.1's SerializeToString(deterministic=True) of sequence_1() and sequence_2()
TF_SEQUENCE_1 = bytes.fromhex(
    "0a220a0e0a056c6162656c12051a030a01030a100a046e616d6512080a060a04736571311280010a090a05656d"
    "70747912000a340a066672616d6573122a0a0c120a0a080000803f000000400a0c120a0a08000040400000804"
    "00a0c120a0a080000a0400000c0400a1d0a06746f6b656e7312130a051a030a01070a061a040a0208090a021a"
    "000a1e0a05776f72647312150a050a030a01610a050a030a01620a050a030a0163")
TF_SEQUENCE_2 = bytes.fromhex(
    "0a100a0e0a056c6162656c12051a030a010412360a180a066672616d6573120e0a0c120a0a08000010410000"
    "00410a1a0a06746f6b656e7312100a071a050a030102030a051a030a0104")


def test_sequence_example_bytes_are_tfs():
    assert sequence_1().SerializeToString() == TF_SEQUENCE_1
    assert sequence_2().SerializeToString() == TF_SEQUENCE_2
    back = SequenceExample.FromString(TF_SEQUENCE_1)
    assert back == sequence_1()
    assert list(back.context.feature["label"].int64_list.value) == [3]
    frames = back.feature_lists.feature_list["frames"].feature
    assert len(frames) == 3 and list(frames[1].float_list.value) == [3.0, 4.0]
    assert len(back.feature_lists.feature_list["empty"].feature) == 0
    # protobuf's way of building one: maps add on access, repeated fields have add()
    built = SequenceExample()
    built.context.feature["x"].float_list.value.append(0.25)
    steps = built.feature_lists.feature_list["y"]
    steps.feature.add().int64_list.value.extend([1, -1])
    steps.feature.add()
    built.feature_lists.feature_list["z"]                  # noqa: B018 -- adds the entry
    # TF 2.15.1's bytes for the same message (deterministic=True)
    assert built.SerializeToString().hex() == (
        "0a0f0a0d0a0178120812060a040000803e12210a180a017912130a0f1a0d0a0b01ffffffffffffffffff010"
        "a000a050a017a1200")
    assert 'feature_list {\n    key: "y"' in str(built) and "feature {\n      }\n" in str(built)
    # TF 2.15.1: presence and the empty messages
    assert SequenceExample().SerializeToString() == b""
    assert SequenceExample(context=Features()).SerializeToString().hex() == "0a00"
    assert SequenceExample(feature_lists=FeatureLists()).SerializeToString().hex() == "1200"
    assert built.HasField("context") and not SequenceExample().HasField("context")
    assert FeatureList(feature=[I([1]), Feature()]).SerializeToString().hex() == \
        "0a051a030a01010a00"
    assert FeatureLists(feature_list={"a": FeatureList()}).SerializeToString().hex() == \
        "0a050a01611200"
    assert tf.train.SequenceExample is SequenceExample
    assert tf.train.FeatureList is FeatureList and tf.train.FeatureLists is FeatureLists
    with pytest.raises(DecodeError):
        SequenceExample.FromString(b"garbage")
    with pytest.raises(TypeError):
        FeatureList(feature=[Int64List(value=[1])])


# -- FixedLenSequenceFeature and SparseFeature in tf.Example parsing ------------------------

def examples():
    return [Example(features=Features(feature=f)).SerializeToString() for f in [
        {"seq": Fl([1, 2, 3, 4]), "str": B([b"a", b"b"]), "idx": I([3, 0]),
         "val": Fl([0.5, 1.5]), "n": I([5])},
        {"seq": Fl([5, 6]), "idx": I([1]), "val": Fl([2.5]), "n": I([6, 7, 8])},
        {"n": I([])}]]


def test_example_bytes_are_tfs():
    # TF 2.15.1's SerializeToString(deterministic=True) of the same Examples
    assert [e.hex() for e in examples()] == [
        "0a5e0a0d0a0369647812061a040a0203000a0a0a016e12051a030a01050a1b0a03736571121412120a1000"
        "00803f0000004000004040000080400a0f0a0373747212080a060a01610a01620a130a0376616c120c120a"
        "0a080000003f0000c03f",
        "0a420a0c0a0369647812051a030a01010a0c0a016e12071a050a030607080a130a03736571120c120a0a08"
        "0000a0400000c0400a0f0a0376616c120812060a0400002040",
        "0a090a070a016e12021a00"]


def test_fixed_len_sequence_feature_in_parse_example():
    FLS = tf.io.FixedLenSequenceFeature
    assert tf.FixedLenSequenceFeature is FLS
    parsed = tf.io.parse_example(examples(), {
        "seq": FLS([2], tf.float32, allow_missing=True),
        "str": FLS([], tf.string, allow_missing=True, default_value="zz"),
        "n": FLS([], tf.int64, allow_missing=True, default_value=-1)})
    # TF 2.15.1: static shapes [batch, None] + shape; padded with default_value (0 when None)
    assert {k: v.get_shape().as_list() for k, v in parsed.items()} == {
        "seq": [3, None, 2], "str": [3, None], "n": [3, None]}
    got = run(parsed)
    np.testing.assert_array_equal(got["n"], [[5, -1, -1], [6, 7, 8], [-1, -1, -1]])
    assert got["n"].dtype == np.int64 and got["seq"].dtype == np.float32
    assert got["str"].tolist() == [[b"a", b"b"], [b"zz", b"zz"], [b"zz", b"zz"]]
    np.testing.assert_array_equal(got["seq"], [[[1, 2], [3, 4]], [[5, 6], [0, 0]],
                                               [[0, 0], [0, 0]]])
    empty = run(tf.io.parse_example(examples()[2:], {"seq": FLS([2], tf.float32,
                                                                allow_missing=True)}))
    assert empty["seq"].shape == (1, 0, 2)

    single = tf.io.parse_single_example(examples()[0], {
        "seq": FLS([2], tf.float32, allow_missing=True), "n": FLS([], tf.int64,
                                                                  allow_missing=True)})
    assert single["seq"].get_shape().as_list() == [None, 2]
    got = run(single)
    np.testing.assert_array_equal(got["seq"], [[1, 2], [3, 4]])
    np.testing.assert_array_equal(got["n"], [5])
    assert run(tf.io.parse_single_example(examples()[2], {"seq": FLS([2, 1], tf.float32,
                                                                     allow_missing=True)})
               )["seq"].shape == (0, 2, 1)

    # TF 2.15.1's errors
    with pytest.raises(ValueError, match="Unsupported: FixedLenSequenceFeature requires "
                       "allow_missing to be True."):
        tf.io.parse_example(examples(), {"seq": FLS([], tf.float32)})
    with pytest.raises(ValueError, match="Cannot reshape a tensor with 2 elements to shape"):
        tf.io.parse_example(examples(), {"seq": FLS([2], tf.float32, allow_missing=True,
                                                    default_value=[1.0, 2.0])})
    with pytest.raises(tf.errors.InvalidArgumentError, match=(
            r"Name: <unknown>, Key: seq, Index: 0\.  Number of float values is not a multiple "
            r"of stride length\. Saw 4 values but output shape is: \[\?,3\]")):
        run(tf.io.parse_example(examples(), {"seq": FLS([3], tf.float32, allow_missing=True)}))
    with pytest.raises(tf.errors.InvalidArgumentError, match=(
            "Name: <unknown>, Key: n, Index: 0.  Data types don't match. Data type: int64 but "
            "expected type: float")):
        run(tf.io.parse_example(examples(), {"n": FLS([], tf.float32, allow_missing=True)}))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Key: n\.  Can't parse "
                       "serialized Example"):
        run(tf.io.parse_single_example(examples()[1], {"n": FLS([2], tf.int64,
                                                                allow_missing=True)}))


def test_sparse_feature_in_parse_example():
    SF = tf.io.SparseFeature
    assert tf.SparseFeature is SF
    parsed = tf.io.parse_example(examples(), {"sp": SF("idx", "val", tf.float32, 4)})
    assert set(parsed) == {"sp"} and isinstance(parsed["sp"], tf.SparseTensor)
    assert parsed["sp"].indices.get_shape().as_list() == [None, 2]
    got = run(parsed)["sp"]
    # TF 2.15.1: the ids become the last column, entries reordered, dense shape [batch, size]
    assert got.indices.tolist() == [[0, 0], [0, 3], [1, 1]]
    assert got.values.tolist() == [1.5, 0.5, 2.5] and got.values.dtype == np.float32
    assert got.dense_shape.tolist() == [3, 4]

    single = run(tf.io.parse_single_example(examples()[0], {
        "sp": SF("idx", "val", tf.float32, 4), "n": tf.io.VarLenFeature(tf.int64)}))
    assert single["sp"].indices.tolist() == [[0], [3]]
    assert single["sp"].values.tolist() == [1.5, 0.5] and single["sp"].dense_shape.tolist() == [4]
    assert single["n"].indices.tolist() == [[0]] and single["n"].values.tolist() == [5]
    unsorted = run(tf.io.parse_single_example(examples()[0], {
        "sp": SF("idx", "val", tf.float32, 4, already_sorted=True)}))["sp"]
    assert unsorted.indices.tolist() == [[3], [0]] and unsorted.values.tolist() == [0.5, 1.5]
    # TF 2.15.1: a SparseFeature may be named like its index key; the ids are not checked
    # against the size
    both = run(tf.io.parse_example(examples()[:1], {
        "idx": SF("idx", "val", tf.float32, 4), "val": tf.io.VarLenFeature(tf.float32)}))
    assert both["idx"].indices.tolist() == [[0, 0], [0, 3]]
    assert both["val"].indices.tolist() == [[0, 0], [0, 1]]
    small = run(tf.io.parse_example(examples()[:1], {"sp": SF("idx", "val", tf.float32, 2)}))
    assert small["sp"].indices.tolist() == [[0, 0], [0, 3]]
    assert small["sp"].dense_shape.tolist() == [1, 2]

    # TF 2.15.1's errors
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Number of elements in indices "
                       r"\(4\) and values \(3\) do not match"):
        run(tf.io.parse_example(examples()[:2], {"sp": SF("n", "val", tf.float32, 10)}))
    with pytest.raises(tf.errors.InvalidArgumentError, match=(
            "Name: <unknown>, Key: val, Index: 0.  Data types don't match. Expected type: "
            "int64, Actual type: float")):
        run(tf.io.parse_example(examples()[:1], {"sp": SF("idx", "val", tf.int64, 4)}))
    with pytest.raises(tf.errors.InvalidArgumentError, match=(
            r"ConcatOp : Dimension 0 in both shapes must be equal: shape\[0\] = \[2,1\] vs\. "
            r"shape\[2\] = \[1,1\]")):
        run(tf.io.parse_example(examples()[:1], {"sp": SF(["idx", "n"], "val", tf.float32,
                                                          [4, 10])}))
    with pytest.raises(ValueError, match=r"Dense and sparse keys must not intersect; "
                       r"dense_keys: \['idx'\], sparse_keys: \['idx', 'val'\]"):
        tf.io.parse_example(examples(), {"sp": SF("idx", "val", tf.float32, 4),
                                         "idx": tf.io.FixedLenFeature([2], tf.int64)})


# -- parse_single_sequence_example, parse_sequence_example ----------------------------------

def test_parse_single_sequence_example_matches_tf():
    F, FLS, V = tf.io.FixedLenFeature, tf.io.FixedLenSequenceFeature, tf.io.VarLenFeature
    assert tf.parse_single_sequence_example is tf.io.parse_single_sequence_example
    context, sequence = tf.io.parse_single_sequence_example(
        TF_SEQUENCE_1,
        context_features={"label": F([], tf.int64), "name": F([], tf.string),
                          "miss": F([2], tf.float32, default_value=[1.0, 2.0]),
                          "v": V(tf.string)},
        sequence_features={"frames": FLS([2], tf.float32), "tokens": V(tf.int64),
                           "words": FLS([], tf.string), "empty": FLS([3], tf.float32),
                           "gone": FLS([], tf.int64, allow_missing=True),
                           "gonev": V(tf.float32)})
    # TF 2.15.1: one ParseSequenceExampleV2 op; its outputs, shapes and dtypes
    op = "ParseSingleSequenceExample/ParseSequenceExample/ParseSequenceExampleV2"
    assert {k: (v.name, v.get_shape().as_list()) for k, v in context.items()
            if not isinstance(v, tf.SparseTensor)} == {
        "label": (op + ":3", []), "miss": (op + ":4", [2]), "name": (op + ":5", [])}
    assert {k: (v.name, v.get_shape().as_list()) for k, v in sequence.items()
            if not isinstance(v, tf.SparseTensor)} == {
        "empty": (op + ":12", [None, 3]), "frames": (op + ":13", [None, 2]),
        "gone": (op + ":14", [None]), "words": (op + ":15", [None])}
    assert context["v"].indices.get_shape().as_list() == [None, 1]
    assert sequence["tokens"].indices.get_shape().as_list() == [None, 2]
    assert sequence["tokens"].dense_shape.get_shape().as_list() == [2]
    c, s = run((context, sequence))
    assert c["label"] == 3 and c["label"].dtype == np.int64 and c["name"] == b"seq1"
    np.testing.assert_array_equal(c["miss"], [1.0, 2.0])
    assert c["v"].indices.shape == (0, 1) and c["v"].dense_shape.tolist() == [0]
    assert s["empty"].shape == (0, 3) and s["empty"].dtype == np.float32
    np.testing.assert_array_equal(s["frames"], [[1, 2], [3, 4], [5, 6]])
    assert s["gone"].shape == (0,) and s["gone"].dtype == np.int64
    assert s["gonev"].indices.shape == (0, 2) and s["gonev"].dense_shape.tolist() == [0, 0]
    assert s["tokens"].indices.tolist() == [[0, 0], [1, 0], [1, 1]]
    assert s["tokens"].values.tolist() == [7, 8, 9] and s["tokens"].dense_shape.tolist() == [3, 2]
    assert s["words"].tolist() == [b"a", b"b", b"c"]


@pytest.mark.parametrize("context_features, sequence_features, message", [
    # TF 2.15.1's messages
    ({"nope": ("F", [], "int64")}, None,
     "Inconsistent max number of elements for feature nope: expected 1, but found 0"),
    (None, {"nope": ("FLS", [], "int64")},
     "Name: <unknown>, Feature list 'nope' is required but could not be found.  Did you mean "
     "to include it in feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"),
    (None, {"frames": ("FLS", [3], "float32")},
     "Name: <unknown>, Key: frames, Index: 0.  Number of values != expected.  values size: 2 "
     "but output shape: [3]"),
    (None, {"tokens": ("FLS", [], "int64")},
     "Name: <unknown>, Key: tokens, Index: 1.  Number of values != expected.  values size: 2 "
     "but output shape: []"),
    ({"label": ("F", [2], "int64")}, None,
     "Inconsistent max number of elements for feature label: expected 2, but found 1"),
    (None, {"frames": ("FLS", [2], "int64")},
     "Name: <unknown>, Feature list: frames, Index: 0.  Data types don't match. Expected type: "
     "int64"),
    ({"label": ("F", [], "float32")}, None,
     "Name: <unknown>, Context feature: label.  Data types don't match. Expected type: float"),
    (None, {"tokens": ("V", None, "float32")},
     "Name: <unknown>, Feature list: tokens, Index: 0.  Data types don't match. Expected type: "
     "float"),
])
def test_sequence_example_errors_are_tfs(context_features, sequence_features, message):
    kinds = {"F": tf.io.FixedLenFeature, "FLS": tf.io.FixedLenSequenceFeature,
             "V": lambda shape, dtype: tf.io.VarLenFeature(dtype)}

    def build(features):
        return None if features is None else {
            k: kinds[kind](shape, tf.as_dtype(dtype)) for k, (kind, shape, dtype) in
            features.items()}

    parsed = tf.io.parse_single_sequence_example(TF_SEQUENCE_1, build(context_features),
                                                 build(sequence_features))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        run(parsed)
    assert info.value.message.split("\n")[0] == message


def test_sequence_example_argument_errors_are_tfs():
    F, FLS = tf.io.FixedLenFeature, tf.io.FixedLenSequenceFeature
    # TF 2.15.1's messages
    with pytest.raises(ValueError, match="Both context_features and sequence_features are None"):
        tf.io.parse_single_sequence_example(TF_SEQUENCE_1)
    with pytest.raises(ValueError, match=r"Unsupported FixedLenFeature FixedLenFeature\(shape="
                       r"\[2\], dtype=tf.float32, default_value=None\) for key 'frames'"):
        tf.io.parse_single_sequence_example(TF_SEQUENCE_1,
                                            sequence_features={"frames": F([2], tf.float32)})
    with pytest.raises(ValueError, match="Unsupported FixedLenSequenceFeature"):
        tf.io.parse_single_sequence_example(TF_SEQUENCE_1,
                                            context_features={"label": FLS([], tf.int64)})
    with pytest.raises(ValueError, match=r"Value feature_list.dense_defaults\[frames\] must be "
                       "None"):
        tf.io.parse_single_sequence_example(TF_SEQUENCE_1, sequence_features={
            "frames": FLS([2], tf.float32, default_value=0.0)})
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Invalid protocol message input, example id: <unknown>"):
        run(tf.io.parse_single_sequence_example(b"garbage",
                                                context_features={"label": F([], tf.int64)}))


def test_parse_sequence_example_batches_with_lengths():
    F, FLS, V = tf.io.FixedLenFeature, tf.io.FixedLenSequenceFeature, tf.io.VarLenFeature
    context, sequence, lengths = tf.io.parse_sequence_example(
        [TF_SEQUENCE_1, TF_SEQUENCE_2, SequenceExample().SerializeToString()],
        context_features={"label": F([], tf.int64, default_value=-1), "name": V(tf.string)},
        sequence_features={"frames": FLS([2], tf.float32, allow_missing=True),
                           "tokens": V(tf.int64)})
    # TF 2.15.1's static shapes and values
    assert context["label"].get_shape().as_list() == [3]
    assert sequence["frames"].get_shape().as_list() == [3, None, 2]
    assert sequence["tokens"].indices.get_shape().as_list() == [None, 3]
    assert lengths["frames"].get_shape().as_list() == [3] and set(lengths) == {"frames"}
    c, s, n = run((context, sequence, lengths))
    np.testing.assert_array_equal(c["label"], [3, 4, -1])
    assert c["name"].indices.tolist() == [[0, 0]] and c["name"].values.tolist() == [b"seq1"]
    assert c["name"].dense_shape.tolist() == [3, 1]
    np.testing.assert_array_equal(s["frames"], [[[1, 2], [3, 4], [5, 6]],
                                                [[9, 8], [0, 0], [0, 0]],
                                                [[0, 0], [0, 0], [0, 0]]])
    assert s["tokens"].indices.tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0],
                                            [1, 0, 1], [1, 0, 2], [1, 1, 0]]
    assert s["tokens"].values.tolist() == [7, 8, 9, 1, 2, 3, 4]
    assert s["tokens"].dense_shape.tolist() == [3, 3, 3]
    assert n["frames"].tolist() == [3, 1, 0] and n["frames"].dtype == np.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'words' is required"):
        run(tf.io.parse_sequence_example([TF_SEQUENCE_1, TF_SEQUENCE_2],
                                         sequence_features={"words": FLS([], tf.string)}))
    with pytest.raises(ValueError, match=r"Value feature_list.dense_defaults\[words\] must be "
                       "None"):
        tf.io.parse_sequence_example([TF_SEQUENCE_1], sequence_features={
            "words": FLS([], tf.string, allow_missing=True, default_value="pad")})
