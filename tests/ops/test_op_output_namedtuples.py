"""Ops with several outputs return namedtuples named after the op, as TF's generated wrappers
do, so a TF-1 program can write `tf.nn.top_k(x, 2).indices`. Names and fields as TensorFlow
2.15.1's compat.v1 (the same as TF 1.15's)."""
import numpy as np

import sandbox as tf


def _kind(result):
    return type(result).__name__, result._fields


def test_multi_output_ops_return_tfs_namedtuples():
    x = tf.constant([1., 5., 3., 5.])
    img = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
    classes = tf.constant([[1]], tf.int64)
    assert _kind(tf.nn.top_k(x, 2)) == ("TopKV2", ("values", "indices"))
    assert _kind(tf.math.top_k(x, 2)) == ("TopKV2", ("values", "indices"))
    assert _kind(tf.unique(x)) == ("Unique", ("y", "idx"))
    assert _kind(tf.unique(x, out_idx=tf.int64)) == ("Unique", ("y", "idx"))
    assert _kind(tf.nn.max_pool_with_argmax(img, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")) == \
        ("MaxPoolWithArgmax", ("output", "argmax"))
    assert _kind(tf.nn.fractional_max_pool(img, [1., 1.5, 1.5, 1.], seed=1)) == \
        ("FractionalMaxPool", ("output", "row_pooling_sequence", "col_pooling_sequence"))
    assert _kind(tf.nn.fractional_avg_pool(img, [1., 1.5, 1.5, 1.], seed=1))[0] == \
        "FractionalAvgPool"
    assert _kind(tf.linalg.lu(tf.constant([[2., 1.], [1., 3.]]))) == ("Lu", ("lu", "p"))
    sampled = tf.nn.log_uniform_candidate_sampler(classes, 1, 2, True, 5)
    assert _kind(sampled) == ("LogUniformCandidateSampler", (
        "sampled_candidates", "true_expected_count", "sampled_expected_count"))
    assert _kind(tf.nn.uniform_candidate_sampler(classes, 1, 2, True, 5))[0] == \
        "UniformCandidateSampler"
    assert _kind(tf.nn.compute_accidental_hits(classes, sampled.sampled_candidates, 1)) == \
        ("ComputeAccidentalHits", ("indices", "ids", "weights"))

    top = tf.nn.top_k(x, 2)
    unique = tf.unique(x)
    pooled = tf.nn.max_pool_with_argmax(img, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    assert (top.values.name, top.indices.name) == ("TopKV2_2:0", "TopKV2_2:1")   # 3rd TopKV2
    with tf.Session() as sess:
        got_top, got_unique, got_pool = sess.run([top, unique, pooled])
    assert type(got_top).__name__ == "TopKV2"           # fetched as the same namedtuple
    np.testing.assert_array_equal(got_top.values, [5., 5.])
    np.testing.assert_array_equal(got_top.indices, [1, 3])
    np.testing.assert_array_equal(got_unique.y, [1., 5., 3.])
    np.testing.assert_array_equal(got_unique.idx, [0, 1, 2, 1])
    np.testing.assert_array_equal(got_pool.argmax.ravel(), [5, 7, 13, 15])
