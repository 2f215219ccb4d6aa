"""tf.feature_column (sandbox/feature_column/): the columns, input_layer and linear_model give
TF's numbers for the same inputs, name their variables as TF does, and refuse bad input with
TF's errors, naming the column. Every expected number here was printed by TF 2.15.1's
tf.compat.v1.feature_column (the v1 API) for the same features."""
import numpy as np
import pytest

import sandbox as tf

fc = tf.feature_column

FEATURES = {"age": [[25.], [40.], [61.]], "city": [["sf"], ["ny"], ["la"]],
            "id": [[1], [3], [0]], "h": [["a"], ["b"], ["c"]]}
EMB_INIT = [[1., 2.], [3., 4.], [5., 6.], [7., 8.]]


def _run(*tensors):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        return sess.run(list(tensors))


def test_input_layer_sorts_columns_by_name_and_concatenates_them():
    age = fc.numeric_column("age")
    city = fc.categorical_column_with_vocabulary_list("city", ["ny", "sf"], num_oov_buckets=2)
    ident = fc.categorical_column_with_identity("id", 4)
    with tf.Graph().as_default():
        out = fc.input_layer(FEATURES, [
            fc.embedding_column(ident, 2, initializer=tf.constant_initializer(EMB_INIT)),
            fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 10)),
            fc.indicator_column(ident), fc.indicator_column(city),
            fc.bucketized_column(age, [30., 50.]), age])
        value, = _run(out)
        assert out.name == "input_layer/concat:0"
        assert [v.name for v in tf.global_variables()] == [
            "input_layer/id_embedding/embedding_weights:0"]
    tf_2_15 = [  # age | age_bucketized | city_indicator | h_indicator | id_embedding | id_ind.
        [25., 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 4, 0, 1, 0, 0],
        [40., 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7, 8, 0, 0, 0, 1],
        [61., 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1, 0, 0, 0]]
    np.testing.assert_allclose(value, tf_2_15)


def test_hash_buckets_are_tfs_fingerprints_for_strings_and_integers():
    with tf.Graph().as_default():
        out = fc.input_layer({"h": [["a"], ["b"], ["c"]], "n": [[1], [22], [333]]}, [
            fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 10)),
            fc.indicator_column(fc.categorical_column_with_hash_bucket("n", 7, dtype=tf.int64))])
        value, = _run(out)
    assert np.argmax(value[:, :10], 1).tolist() == [9, 2, 2]       # TF 2.15
    assert np.argmax(value[:, 10:], 1).tolist() == [5, 1, 5]


def test_numeric_shape_normalizer_and_vocabulary_default():
    with tf.Graph().as_default():
        p = fc.numeric_column("p", shape=(2,), normalizer_fn=lambda x: x * 2.)
        out = fc.input_layer({"p": [[1., 2.], [3., 4.]]}, [p, fc.bucketized_column(p, [3.])])
        city = fc.categorical_column_with_vocabulary_list("city", ["ny", "sf"], default_value=0)
        out2 = fc.input_layer(FEATURES, [fc.indicator_column(city)])
        ident = fc.categorical_column_with_identity("i", 3, default_value=1)
        out3 = fc.input_layer({"i": [[0], [5], [2]]}, [fc.indicator_column(ident)])
        v1, v2, v3 = _run(out, out2, out3)
    np.testing.assert_allclose(v1, [[2, 4, 1, 0, 0, 1], [6, 8, 0, 1, 0, 1]])     # TF 2.15
    np.testing.assert_allclose(v2, [[0, 1], [1, 0], [1, 0]])
    np.testing.assert_allclose(v3, [[1, 0, 0], [0, 1, 0], [0, 0, 1]])


@pytest.mark.parametrize("combiner, tf_2_15", [
    ("sqrtn", [[5.656854, 7.071068], [0, 0], [7, 8]]),
    ("sum", [[8, 10], [0, 0], [7, 8]]),
    ("mean", [[4, 5], [0, 0], [7, 8]])])
def test_embedding_combiners_on_sparse_ids_with_an_empty_row(combiner, tf_2_15):
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 2])
        col = fc.embedding_column(fc.categorical_column_with_identity("x", 4), 2,
                                  combiner=combiner,
                                  initializer=tf.constant_initializer(EMB_INIT))
        value, = _run(fc.input_layer({"x": sp}, [col]))
    np.testing.assert_allclose(value, tf_2_15, rtol=1e-6)


def test_weighted_categorical_column_as_an_indicator():
    with tf.Graph().as_default():
        feats = {"x": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 2]),
                 "w": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [0.5, 2.0, 3.0], [3, 2])}
        w = fc.weighted_categorical_column(fc.categorical_column_with_identity("x", 4), "w")
        assert w.name == "x_weighted_by_w"
        value, = _run(fc.input_layer(feats, [fc.indicator_column(w)]))
    np.testing.assert_allclose(value, [[0, .5, 2, 0], [0, 0, 0, 0], [0, 0, 0, 3]])  # TF 2.15


def test_linear_model_weights_names_and_sparse_combiner(tmp_path):
    vocab_file = tmp_path / "v.txt"
    vocab_file.write_text("ny\nsf\nla\n")
    feats = {"age": [[25.], [40.], [61.]], "city": [["sf", "la"], ["ny", ""], ["xx", "sf"]],
             "n": [[7], [100], [-1]]}
    city = fc.categorical_column_with_vocabulary_file("city", str(vocab_file))
    n = fc.categorical_column_with_vocabulary_list("n", [100, 7, 5], num_oov_buckets=3)
    with tf.Graph().as_default():
        cols = {}
        lm = fc.linear_model(feats, [n, city, fc.numeric_column("age")], units=2,
                             sparse_combiner="mean", cols_to_vars=cols)
        il = fc.input_layer(feats, [fc.indicator_column(city), fc.indicator_column(n)])
        assert lm.name == "linear_model/weighted_sum:0"
        assert sorted(v.name for v in tf.global_variables()) == [
            "linear_model/age/weights:0", "linear_model/bias_weights:0",
            "linear_model/city/weights:0", "linear_model/n/weights:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for (v,) in cols.values():   # weights 1, 1.5, 2 ... as in TF's run
                shape = v.get_shape().as_list()
                sess.run(v.assign(np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
                                  * 0.5 + 1))
            lm_value, il_value = sess.run([lm, il])
    np.testing.assert_allclose(lm_value, [[30.5, 44.5], [43, 64.5], [64, 95.5]])  # TF 2.15
    np.testing.assert_allclose(il_value, [[0, 1, 1, 0, 1, 0, 0, 0, 0],
                                          [1, 0, 0, 1, 0, 0, 0, 0, 0],
                                          [0, 1, 0, 0, 0, 0, 0, 0, 0]])


def test_crossed_column_hashes_as_tfs_sparse_cross():
    """Sparse inputs first, then dense ones; a dense string keeps its '' (as TF's)."""
    age_b = fc.bucketized_column(fc.numeric_column("age"), [30., 50.])
    a_b = fc.crossed_column(["a", "b"], 1000)
    crosses = [a_b, fc.crossed_column([age_b, "b"], 100),
               fc.crossed_column(["s", fc.categorical_column_with_identity("n2", 4), "n"], 50,
                                 hash_key=123),
               fc.crossed_column([a_b, "s"], 7)]
    assert [c.name for c in crosses] == ["a_X_b", "age_bucketized_X_b", "n_X_n2_X_s",
                                         "a_X_b_X_s"]
    from sandbox.feature_column.feature_column_input import _LazyBuilder
    with tf.Graph().as_default():
        feats = {"a": [["x", "y"], ["z", ""]], "b": [["p"], ["q"]], "n": [[3], [70]],
                 "age": [[20.], [60.]], "n2": [[1], [3]],
                 "s": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["u", "v", "w"], [2, 2])}
        builder = _LazyBuilder(feats)
        ids = _run(*[c._get_sparse_tensors(builder).id_tensor for c in crosses])
        dense, = _run(fc.input_layer(feats, [fc.indicator_column(crosses[1])]))
    tf_2_15 = [([[0, 0], [0, 1], [1, 0], [1, 1]], [452, 734, 751, 679], [2, 2]),
               ([[0, 0], [1, 0]], [64, 25], [2, 1]),
               ([[0, 0], [1, 0], [1, 1]], [18, 48, 22], [2, 2]),
               ([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [1, 3]], [0, 0, 0, 6, 6, 4], [2, 4])]
    for value, (indices, values, shape) in zip(ids, tf_2_15):
        assert (value.indices.tolist(), value.values.tolist(), value.dense_shape.tolist()) == \
            (indices, values, shape)
    assert dense.argmax(1).tolist() == [64, 25] and dense.sum() == 2


def test_make_parse_example_spec():
    age = fc.numeric_column("age")
    x = fc.categorical_column_with_identity("x", 4)
    spec = fc.make_parse_example_spec([
        age, fc.bucketized_column(age, [1.]),
        fc.indicator_column(fc.categorical_column_with_vocabulary_list("city", ["a"])),
        fc.embedding_column(x, 2), fc.weighted_categorical_column(x, "w")])
    assert spec == {"age": tf.FixedLenFeature((1,), tf.float32), "city":
                    tf.VarLenFeature(tf.string), "x": tf.VarLenFeature(tf.int64),
                    "w": tf.VarLenFeature(tf.float32)}


# -- errors: TF 2.15's messages ---------------------------------------------------------

AGE = fc.numeric_column("age")
CITY = fc.categorical_column_with_vocabulary_list("city", ["ny", "sf"])


@pytest.mark.parametrize("make, error, message", [
    (lambda: fc.numeric_column("a", shape=(0,)), ValueError,
     "shape dimensions must be greater than 0. shape: (0,), key: a"),
    (lambda: fc.numeric_column("a", dtype=tf.string), ValueError,
     "dtype must be convertible to float. dtype: <dtype: 'string'>, key: a"),
    (lambda: fc.numeric_column("a", default_value="x"), TypeError,
     "default_value must be compatible with dtype. default_value: x"),
    (lambda: fc.bucketized_column(AGE, [3., 1.]), ValueError,
     "boundaries must be a sorted list."),
    (lambda: fc.bucketized_column(CITY, [1.]), ValueError,
     "source_column must be a column generated with numeric_column()."),
    (lambda: fc.categorical_column_with_vocabulary_list("c", ["a", "a"]), ValueError,
     "Duplicate keys in vocabulary_list ['a', 'a'], column_name: c"),
    (lambda: fc.categorical_column_with_vocabulary_list("c", ["a"], default_value=0,
                                                        num_oov_buckets=1), ValueError,
     "Can't specify both num_oov_buckets and default_value in c."),
    (lambda: fc.categorical_column_with_vocabulary_file("c", "/nonexist.txt"), ValueError,
     "vocabulary_file in c does not exist."),
    (lambda: fc.categorical_column_with_identity("c", 3, default_value=4), ValueError,
     "default_value 4 not in range [0, 3), column_name c"),
    (lambda: fc.categorical_column_with_hash_bucket("c", 0), ValueError,
     "hash_bucket_size must be at least 1. hash_bucket_size: 0, key: c"),
    (lambda: fc.indicator_column(AGE), ValueError,
     "Input must be a _CategoricalColumn. Given: _NumericColumn(key='age'"),
    (lambda: fc.embedding_column(CITY, 0), ValueError, "Invalid dimension 0."),
    (lambda: fc.weighted_categorical_column(AGE, "w"), ValueError,
     "categorical_column must be a _CategoricalColumn."),
    (lambda: fc.crossed_column(["a"], 10), ValueError,
     "keys must be a list with length > 1. Given: ['a']"),
    (lambda: fc.crossed_column(["a", fc.categorical_column_with_hash_bucket("a", 5)], 10),
     ValueError, "categorical_column_with_hash_bucket is not supported for crossing."),
    (lambda: fc.crossed_column(["a", AGE], 10), ValueError,
     "Unsupported key type. All keys must be either string, or categorical column except "),
])
def test_column_constructors_refuse_bad_arguments(make, error, message):
    with pytest.raises(error) as e:
        make()
    assert message in str(e.value)


@pytest.mark.parametrize("features, columns, message", [
    ({"age": [[1.]]}, [CITY], "Items of feature_columns must be a _DenseColumn. You can wrap "
                              "a categorical column with an embedding_column or "
                              "indicator_column. Given: _VocabularyListCategoricalColumn("),
    ({"age": [[1.]]}, [], "feature_columns must not be empty."),
    ({"x": [[1.]]}, [AGE], "Feature age is not in features dictionary."),
    ({"age": 1.}, [AGE], "Feature (key: age) cannot have rank 0."),
    ({"age": [[1.]]}, [AGE, AGE], "Duplicate feature column name found for columns"),
    ({"age": "sparse"}, [AGE], "The corresponding Tensor of numerical column must be a "
                               "Tensor. SparseTensor is not supported. key: age"),
    ({"id": [["a"]]}, [fc.indicator_column(fc.categorical_column_with_identity("id", 4))],
     "Invalid input, not integer. key: id dtype: <dtype: 'string'>"),
    ({"city": [[1]]}, [fc.indicator_column(CITY)],
     "Column dtype and SparseTensors dtype must be compatible. key: city, column dtype: "
     "<dtype: 'string'>, tensor dtype: <dtype: 'int32'>"),
    ({"h": [[1.5]]}, [fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 3))],
     "column_name: h input_tensor dtype must be string or integer. dtype: "
     "<dtype: 'float32'>."),
    ({"x": [[1]], "w": [[1]]}, [fc.indicator_column(fc.weighted_categorical_column(
        fc.categorical_column_with_identity("x", 3), "w"))],
     "Bad dtype, expected <dtype: 'float32'>, but got <dtype: 'int32'>."),
])
def test_input_layer_refuses_bad_features_naming_the_column(features, columns, message):
    with tf.Graph().as_default():
        if features.get("age") == "sparse":
            features = {"age": tf.SparseTensor([[0, 0]], [1.], [1, 1])}
        with pytest.raises(ValueError) as e:
            fc.input_layer(features, columns)
    assert message in str(e.value)


def test_linear_model_refuses_what_is_not_a_column():
    with tf.Graph().as_default(), pytest.raises(ValueError) as e:
        fc.linear_model({"age": [[1.]]}, ["age"])
    assert str(e.value) == ("Items of feature_columns must be a _FeatureColumn. Given (type "
                            "<class 'str'>): age.")
