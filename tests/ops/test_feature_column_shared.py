"""tf.feature_column.shared_embedding_columns (sandbox/feature_column/shared_embedding.py): the
columns look their ids up in one variable, named and shaped as TF names it, found again through
its collection by every later column, and give TF's numbers. Every expected number and name
here was printed by TF 2.15.1's tf.compat.v1.feature_column for the same program."""
import numpy as np
import pytest

import sandbox as tf

fc = tf.feature_column

EMB_INIT = [[1., 2.], [3., 4.], [5., 6.], [7., 8.]]
A = fc.categorical_column_with_identity("a", 4)
B = fc.categorical_column_with_identity("b", 4)


def _features():
    return {"a": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 2]),
            "b": [[0], [3], [-1]]}


def _run(*tensors):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(list(tensors))


def test_one_variable_named_after_the_sorted_columns_shared_by_two_input_layers():
    cols = fc.shared_embedding_columns([B, A], 2, initializer=tf.constant_initializer(EMB_INIT))
    assert [c.name for c in cols] == ["b_shared_embedding", "a_shared_embedding"]
    assert {c._var_scope_name for c in cols} == {"a_b_shared_embedding"}
    with tf.Graph().as_default() as graph:
        feats = _features()
        out = fc.input_layer(feats, cols)
        out2 = fc.input_layer(feats, cols)       # finds the variable in the collection
        assert out.name == "input_layer/concat:0" and out.get_shape().as_list() == [3, 4]
        variables = tf.global_variables()
        assert [(v.name, v.get_shape().as_list()) for v in variables] == [
            ("input_layer/a_b_shared_embedding/embedding_weights:0", [4, 2])]
        assert tf.get_collection("a_b_shared_embedding") == variables
        assert variables == tf.trainable_variables()
        names = {op.name for op in graph.get_operations()}
        # each column's lookup in a name scope of its own, in the group's variable scope
        assert "input_layer/a_b_shared_embedding/a_shared_embedding" in \
            {n.rsplit("/", 2)[0] for n in names}
        assert "input_layer/a_b_shared_embedding_1/b_shared_embedding" in \
            {n.rsplit("/", 2)[0] for n in names}
        value, value2 = _run(out, out2)
    tf_2_15 = [[4, 5, 1, 2], [0, 0, 7, 8], [7, 8, 0, 0]]   # a (mean of its ids) | b
    np.testing.assert_allclose(value, tf_2_15)
    np.testing.assert_allclose(value2, tf_2_15)


def test_weighted_column_sum_combiner_named_collection_and_linear_model():
    with tf.Graph().as_default():
        w = fc.weighted_categorical_column(A, "w")
        cols = fc.shared_embedding_columns([w, B], 2, combiner="sum",
                                           shared_embedding_collection_name="shared",
                                           initializer=tf.constant_initializer(EMB_INIT))
        assert [c.name for c in cols] == ["a_weighted_by_w_shared_embedding",
                                          "b_shared_embedding"]
        feats = dict(_features(), w=tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [0.5, 2., 3.],
                                                     [3, 2]))
        out = fc.input_layer(feats, cols)
        lm = fc.linear_model(feats, cols, units=1)
        assert [(v.name, v.get_shape().as_list()) for v in tf.global_variables()] == [
            ("input_layer/shared/embedding_weights:0", [4, 2]),
            ("linear_model/shared/weights:0", [2, 1]),
            ("linear_model/shared_1/weights:0", [2, 1]), ("linear_model/bias_weights:0", [1])]
        value, lm_value = _run(out, lm)
    np.testing.assert_allclose(value, [[11.5, 14, 1, 2], [0, 0, 7, 8], [21, 24, 0, 0]])
    np.testing.assert_allclose(lm_value, [[0], [0], [0]])


def test_defaults_parse_spec_and_not_trainable():
    cols = fc.shared_embedding_columns([A, B], 3, trainable=False)
    assert cols[0].combiner == "mean" and cols[0].max_norm is None
    assert cols[0].initializer is cols[1].initializer
    assert cols[0]._variable_shape.as_list() == [3]
    assert fc.make_parse_example_spec(cols) == {"a": tf.VarLenFeature(tf.int64),
                                                "b": tf.VarLenFeature(tf.int64)}
    with tf.Graph().as_default():
        fc.input_layer(_features(), cols)
        weights, = tf.global_variables()
        assert tf.trainable_variables() == []
        value, = _run(weights)
    # truncated_normal(0, 1/sqrt(3)): within two standard deviations, not all equal
    assert value.shape == (4, 3) and np.all(np.abs(value) <= 2 / np.sqrt(3)) and value.std() > 0


def test_a_collection_that_holds_other_variables_is_refused():
    cols = fc.shared_embedding_columns([A, B], 2)
    with tf.Graph().as_default():
        tf.add_to_collection("a_b_shared_embedding", tf.Variable(np.zeros((3, 2), np.float32),
                                                                 name="other"))
        with pytest.raises(ValueError) as e:
            fc.input_layer(_features(), cols)
    assert str(e.value).startswith("Shared embedding collection a_b_shared_embedding contains "
                                   "variable other:0 of unexpected shape")
    with tf.Graph().as_default():
        for _ in range(2):
            tf.add_to_collection("a_b_shared_embedding", tf.Variable(np.zeros((4, 2),
                                                                              np.float32)))
        with pytest.raises(ValueError, match="can only contain one variable"):
            fc.input_layer(_features(), cols)


@pytest.mark.parametrize("make, error, message", [
    (lambda: fc.shared_embedding_columns([A, fc.categorical_column_with_identity("c", 5)], 2),
     ValueError, "To use shared_embedding_column, all categorical_columns must have the same "
                 "number of buckets."),
    (lambda: fc.shared_embedding_columns([A, fc.categorical_column_with_hash_bucket("c", 4)],
                                         2),
     ValueError, "To use shared_embedding_column, all categorical_columns must have the same "
                 "type, or be weighted_categorical_column or sequence column of the same type."),
    (lambda: fc.shared_embedding_columns([A, B], 0), ValueError, "Invalid dimension 0."),
    (lambda: fc.shared_embedding_columns([A, B], 2, initializer=3), ValueError,
     "initializer must be callable if specified."),
    (lambda: fc.shared_embedding_columns([fc.numeric_column("n"), B], 2), ValueError,
     "All categorical_columns must be subclasses of _CategoricalColumn."),
    (lambda: fc.shared_embedding_columns([A, B], 2, ckpt_to_load_from="x"), ValueError,
     "Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them."),
    (lambda: fc.shared_embedding_columns([A, B], 2, ckpt_to_load_from="x",
                                         tensor_name_in_ckpt="t"), NotImplementedError,
     "is not supported by the sandbox"),
])
def test_shared_embedding_columns_refuses_bad_arguments(make, error, message):
    with pytest.raises(error) as e:
        make()
    assert message in str(e.value)
