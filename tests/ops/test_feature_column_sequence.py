"""The sequence feature columns (sandbox/feature_column/sequence_feature_column.py) and
tf.contrib.feature_column.sequence_input_layer (sandbox/contrib/feature_column/): the
[batch, T, D] input and the sequence lengths of TF, the variables named as TF names them, and
TF's errors. The expected numbers were printed by TF 2.15.1 running TF 1.15's contrib
sequence_input_layer (and its _SequenceNumericColumn) on tf.compat.v1's feature columns; its
tf.keras.experimental.SequenceFeatures gave the same values."""
import numpy as np
import pytest

import sandbox as tf

fc = tf.feature_column
sequence_input_layer = tf.contrib.feature_column.sequence_input_layer

EMB_INIT = [[1., 2.], [3., 4.], [5., 6.], [7., 8.]]


def _run(*tensors):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        return sess.run(list(tensors))


def _emb(column, **kwargs):
    return fc.embedding_column(column, 2, initializer=tf.constant_initializer(EMB_INIT),
                               **kwargs)


def test_sequence_input_layer_concatenates_the_sorted_columns_per_step():
    with tf.Graph().as_default():
        feats = {  # lengths 3, 1, 0; 'num' has 2 values per step
            "ids": tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], [1, 2, 0, 3], [3, 3]),
            "tok": tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], ["a", "z", "c", "b"],
                                   [3, 3]),
            "num": tf.SparseTensor([[0, i] for i in range(6)] + [[1, 0], [1, 1]],
                                   [1., 2, 3, 4, 5, 6, 7, 8], [3, 6])}
        ids = fc.sequence_categorical_column_with_identity("ids", 4)
        tok = fc.sequence_categorical_column_with_vocabulary_list("tok", ["a", "b", "c"],
                                                                  num_oov_buckets=1)
        out, length = sequence_input_layer(feats, [
            fc.sequence_numeric_column("num", shape=(2,)), fc.indicator_column(tok), _emb(ids)])
        assert out.name == "sequence_input_layer/concat:0"
        assert out.get_shape().as_list() == [3, 3, 8]
        assert length.name == "sequence_input_layer/assert_all_equal/Identity:0"
        assert length.dtype == tf.int64
        assert [(v.name, v.get_shape().as_list()) for v in tf.global_variables()] == [
            ("sequence_input_layer/ids_embedding/embedding_weights:0", [4, 2])]
        value, length_value = _run(out, length)
    tf_2_15 = [  # ids_embedding | num | tok_indicator (a, b, c, oov)
        [[3, 4, 1, 2, 1, 0, 0, 0], [5, 6, 3, 4, 0, 0, 0, 1], [1, 2, 5, 6, 0, 0, 1, 0]],
        [[7, 8, 7, 8, 0, 1, 0, 0], [0] * 8, [0] * 8],
        [[0] * 8, [0] * 8, [0] * 8]]
    np.testing.assert_allclose(value, tf_2_15)
    assert length_value.tolist() == [3, 1, 0]


def test_several_ids_per_step_and_dense_ids_padded_with_minus_one():
    with tf.Graph().as_default():
        ids3 = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]], [1, 2, 3, 0],
                               [2, 2, 2])
        out3, len3 = sequence_input_layer({"ids3": ids3}, [_emb(
            fc.sequence_categorical_column_with_identity("ids3", 4), combiner="sqrtn")])
        dense, len_dense = sequence_input_layer({"d": [[1, 2, -1], [3, -1, -1]]}, [
            _emb(fc.sequence_categorical_column_with_identity("d", 4))])
        v3, l3, vd, ld = _run(out3, len3, dense, len_dense)
    np.testing.assert_allclose(v3, [[[5.656854, 7.071068], [7, 8]], [[1, 2], [0, 0]]],  # TF
                               rtol=1e-6)
    assert l3.tolist() == [2, 1]
    np.testing.assert_allclose(vd, [[[3, 4], [5, 6], [0, 0]], [[7, 8], [0, 0], [0, 0]]])
    assert ld.tolist() == [2, 1]


def test_hash_bucket_and_vocabulary_file_sequences(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("x\ny\nz\n")
    with tf.Graph().as_default():
        columns = [
            fc.indicator_column(fc.sequence_categorical_column_with_hash_bucket("h", 5)),
            fc.indicator_column(fc.sequence_categorical_column_with_vocabulary_file(
                "v", str(vocab), num_oov_buckets=2)),
            fc.indicator_column(fc.sequence_categorical_column_with_hash_bucket(
                "n", 6, dtype=tf.int64))]
        indices = [[0, 0], [0, 1], [1, 0]]
        feats = {"h": tf.SparseTensor(indices, ["p", "q", "r"], [2, 2]),
                 "v": tf.SparseTensor(indices, ["z", "w", "x"], [2, 2]),
                 "n": tf.SparseTensor(indices, [10, 20, 30], [2, 2])}
        value, length = _run(*sequence_input_layer(feats, columns))
    assert value.shape == (2, 2, 16) and length.tolist() == [2, 1]
    assert value[..., :5].argmax(-1).tolist() == [[3, 3], [3, 0]]         # TF 2.15
    assert value[..., 5:10].argmax(-1).tolist() == [[2, 2], [2, 0]]       # z, oov, x
    assert value[..., 10:].argmax(-1).tolist() == [[3, 5], [1, 0]]
    assert value.sum(-1).tolist() == [[3, 3], [3, 0]]


def test_shared_embedding_of_sequence_columns():
    with tf.Graph().as_default():
        cols = fc.shared_embedding_columns(
            [fc.sequence_categorical_column_with_identity("sa", 4),
             fc.sequence_categorical_column_with_identity("sb", 4)], 2,
            initializer=tf.constant_initializer(EMB_INIT))
        feats = {"sa": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 2, 3], [2, 2]),
                 "sb": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 3, 2], [2, 2])}
        out, length = sequence_input_layer(feats, cols)
        assert [v.name for v in tf.global_variables()] == [
            "sequence_input_layer/sa_sb_shared_embedding/embedding_weights:0"]
        value, length_value = _run(out, length)
        with pytest.raises(ValueError, match="In embedding_column: sa_shared_embedding. "
                                             "categorical_column must not be of type "
                                             "_SequenceCategoricalColumn."):
            fc.input_layer(feats, cols)
    np.testing.assert_allclose(value, [[[3, 4, 1, 2], [5, 6, 7, 8]],   # TF 2.15
                                       [[7, 8, 5, 6], [0, 0, 0, 0]]])
    assert length_value.tolist() == [2, 1]


def test_sequence_numeric_column_default_normalizer_and_3d_values():
    with tf.Graph().as_default():
        double = fc.sequence_numeric_column("m", default_value=-1., normalizer_fn=lambda sp: (
            tf.SparseTensor(sp.indices, sp.values * 2, sp.dense_shape)))
        out, length = sequence_input_layer(
            {"m": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1., 2., 3.], [2, 3])}, [double])
        pairs = fc.sequence_numeric_column("p", shape=(2,))
        out3, length3 = sequence_input_layer({"p": tf.SparseTensor(
            [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]], [1., 2., 3., 4.], [2, 2, 2])}, [pairs])
        v, l, v3, l3 = _run(out, length, out3, length3)
    np.testing.assert_allclose(v, [[[2], [4], [-1]], [[6], [-1], [-1]]])      # TF 2.15
    assert l.tolist() == [2, 1]
    np.testing.assert_allclose(v3, [[[1, 2], [3, 0]], [[4, 0], [0, 0]]])
    assert l3.tolist() == [2, 1]


def test_rows_without_values_have_length_zero():
    with tf.Graph().as_default():
        empty = tf.SparseTensor(np.zeros((0, 2), np.int64), np.zeros((0,), np.int64), [2, 3])
        value, length = _run(*sequence_input_layer({"e": empty}, [
            _emb(fc.sequence_categorical_column_with_identity("e", 4))]))
        gaps = tf.SparseTensor([[0, 0], [2, 0], [2, 1], [2, 2]], [1., 2., 3., 4.], [4, 6])
        _, gap_length = _run(*sequence_input_layer({"g": gaps}, [
            fc.sequence_numeric_column("g", shape=(2,))]))
    np.testing.assert_allclose(value, np.zeros((2, 3, 2)))
    assert length.tolist() == [0, 0]
    assert gap_length.tolist() == [1, 0, 2, 0]      # TF 2.15: 3 values are 2 steps of 2


def test_columns_of_different_lengths_fail_when_run():
    with tf.Graph().as_default():
        out, length = sequence_input_layer({
            "ids": tf.SparseTensor([[0, 0], [0, 1]], [1, 2], [1, 2]),
            "tok": tf.SparseTensor([[0, 0]], [1], [1, 2])}, [
            _emb(fc.sequence_categorical_column_with_identity("ids", 4)),
            fc.indicator_column(fc.sequence_categorical_column_with_identity("tok", 3))])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not "
                                                                 "hold element-wise"):
            _run(length)


def test_the_contrib_names_are_the_sequence_columns_and_their_parse_spec():
    contrib = tf.contrib.feature_column
    for name in ["sequence_categorical_column_with_hash_bucket",
                 "sequence_categorical_column_with_identity",
                 "sequence_categorical_column_with_vocabulary_file",
                 "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column"]:
        assert getattr(contrib, name) is getattr(fc, name)
    ids = fc.sequence_categorical_column_with_identity("ids", 4)
    assert ids.name == "ids" and ids._num_buckets == 4
    assert (fc.embedding_column(ids, 2).name, fc.indicator_column(ids).name) == (
        "ids_embedding", "ids_indicator")
    assert fc.make_parse_example_spec([
        fc.sequence_numeric_column("x", shape=(2,), dtype=tf.int64), _emb(ids)]) == {
        "x": tf.VarLenFeature(tf.int64), "ids": tf.VarLenFeature(tf.int64)}


# -- errors: TF's messages (TF 1.15's v1 wording: input_layer, sequence_input_layer) -----

IDS = fc.sequence_categorical_column_with_identity("ids", 4)
PLAIN_IDS = fc.categorical_column_with_identity("ids", 4)


@pytest.mark.parametrize("layer, columns, message", [
    (fc.input_layer, [fc.embedding_column(IDS, 2)],
     "In embedding_column: ids_embedding. categorical_column must not be of type "
     "_SequenceCategoricalColumn. Suggested fix A: If you wish to use input_layer, use a "
     "non-sequence categorical_column_with_*. Suggested fix B: If you wish to create sequence "
     "input, use sequence_input_layer instead of input_layer."),
    (fc.input_layer, [fc.indicator_column(IDS)],
     "In indicator_column: ids_indicator. categorical_column must not be of type "
     "_SequenceCategoricalColumn."),
    (fc.input_layer, [IDS], "Items of feature_columns must be a _DenseColumn."),
    (sequence_input_layer, [fc.embedding_column(PLAIN_IDS, 2)],
     "In embedding_column: ids_embedding. categorical_column must be of type "
     "_SequenceCategoricalColumn to use sequence_input_layer. Suggested fix: Use one of "
     "sequence_categorical_column_with_*."),
    (sequence_input_layer, [fc.indicator_column(PLAIN_IDS)],
     "In indicator_column: ids_indicator. categorical_column must be of type "
     "_SequenceCategoricalColumn to use sequence_input_layer."),
    (sequence_input_layer, [fc.numeric_column("ids")],
     "All feature_columns must be of type _SequenceDenseColumn. You can wrap a "
     "sequence_categorical_column with an embedding_column or indicator_column. Given (type "),
    (sequence_input_layer, [IDS], "All feature_columns must be of type _SequenceDenseColumn."),
])
def test_layers_refuse_columns_of_the_other_kind(layer, columns, message):
    with tf.Graph().as_default(), pytest.raises(ValueError) as e:
        layer({"ids": [[1]]}, columns)
    assert message in str(e.value)


@pytest.mark.parametrize("make, error, message", [
    (lambda: fc.sequence_numeric_column("x", dtype=tf.string), ValueError,
     "dtype must be convertible to float. dtype: <dtype: 'string'>, key: x"),
    (lambda: fc.sequence_numeric_column("x", shape=(0,)), ValueError,
     "shape dimensions must be greater than 0. shape: (0,), key: x"),
    (lambda: fc.sequence_numeric_column("x", normalizer_fn=3), TypeError,
     "normalizer_fn must be a callable. Given: 3"),
    (lambda: fc.sequence_categorical_column_with_identity("x", 0), ValueError,
     "num_buckets 0 < 1, column_name x"),
    (lambda: fc.sequence_categorical_column_with_hash_bucket("x", 0), ValueError,
     "hash_bucket_size must be at least 1. hash_bucket_size: 0, key: x"),
    (lambda: fc.sequence_categorical_column_with_vocabulary_list("x", ["a", "a"]), ValueError,
     "Duplicate keys in vocabulary_list ['a', 'a'], column_name: x"),
    (lambda: fc.sequence_categorical_column_with_vocabulary_file("x", "/nonexist.txt"),
     ValueError, "vocabulary_file in x does not exist."),
    (lambda: sequence_input_layer({"x": [[1., 2.]]}, [fc.sequence_numeric_column("x")]),
     TypeError, "Input must be a SparseTensor."),
])
def test_sequence_columns_refuse_bad_arguments(make, error, message):
    with tf.Graph().as_default(), pytest.raises(error) as e:
        make()
    assert message in str(e.value)
