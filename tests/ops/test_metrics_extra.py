"""The TF-1 metrics added beside tf.metrics' first ones: mean_cosine_distance,
mean_per_class_accuracy, mean_relative_error, mean_tensor, percentage_below,
sensitivity_at_specificity, specificity_at_sensitivity (sandbox/metrics/metrics_impl.py) and
the *_at_k family (sandbox/metrics/ranking_metrics.py).

Every expected number, name and shape below was measured with TensorFlow 2.15.1
(tf.compat.v1.metrics, graph mode) on the same graph and the same three fed batches: the
value before any update, the update op's value after each of three steps (weights where TF
takes them), the names of value / update tensors and of the local variables.
"""
import math

import numpy as np
import pytest

import sandbox as tf

NAN = math.nan

# -- three batches per metric -----------------------------------------------------------------
COS_L = [[[1., 0., 0.], [0., 1., 0.], [0.6, 0.8, 0.], [0., 0., 1.]],
         [[0., 1., 0.], [0.8, 0.6, 0.], [1., 0., 0.], [0., 0.6, 0.8]],
         [[0., 0., 1.], [1., 0., 0.], [0., 1., 0.], [0.6, 0., 0.8]]]
COS_P = [[[0.6, 0.8, 0.], [0., 1., 0.], [1., 0., 0.], [0., 0.8, 0.6]],
         [[0., 1., 0.], [0., 0.6, 0.8], [0.8, 0., 0.6], [0., 0., 1.]],
         [[1., 0., 0.], [1., 0., 0.], [0., 0.6, 0.8], [0.8, 0., 0.6]]]
COS_W = [[[1.], [2.], [0.5], [1.]], [[0.], [1.], [1.], [3.]], [[2.], [1.], [1.], [1.]]]
PCA_L = [[0, 1, 2, 3, 1, 0], [2, 2, 1, 0, 3, 3], [1, 0, 0, 2, 2, 1]]
PCA_P = [[0, 1, 1, 3, 2, 0], [2, 0, 1, 0, 3, 1], [1, 1, 0, 2, 0, 1]]
PCA_W = [[1., 2., 1., 0.5, 1., 3.], [1., 1., 0., 2., 1., 1.], [0.5, 1., 1., 1., 2., 1.]]
MRE_L = [[1., 2., 3., 4., 5.], [2., 0., 1., 3., 1.], [4., 4., 2., 1., 0.5]]
MRE_P = [[1.5, 2., 2., 5., 4.], [1., 1., 1., 2., 3.], [3., 5., 2.5, 1., 1.]]
MRE_N = [[1., 2., 0., 4., 5.], [2., 1., 1., 0., 1.], [4., 4., 2., 1., 0.5]]
MRE_W = [[1., 1., 2., 0.5, 1.], [2., 1., 1., 1., 0.], [1., 3., 1., 1., 1.]]
MT_V = [[[1., 2., 3.], [4., 5., 6.]], [[0., -1., 2.], [3., 3., 3.]], [[2., 2., 2.], [1., 0., 1.]]]
MT_W = [[[1.], [0.]], [[2.], [1.]], [[0.5], [1.]]]
PB_V = [[0.1, 0.7, 0.4, 0.9, 0.5, 0.2], [0.6, 0.3, 0.8, 0.45, 0.55, 0.05],
        [0.2, 0.2, 0.9, 0.9, 0.49, 0.51]]
PB_W = [[1., 2., 1., 0.5, 1., 3.], [1., 1., 0., 2., 1., 1.], [0.5, 1., 1., 1., 2., 1.]]
# at_k: 3 examples, 5 classes (no ties)
K_P = [[[0.1, 0.5, 0.2, 0.9, 0.3], [0.8, 0.05, 0.6, 0.1, 0.7], [0.2, 0.3, 0.4, 0.15, 0.95]],
       [[0.6, 0.1, 0.7, 0.2, 0.3], [0.05, 0.9, 0.1, 0.8, 0.2], [0.3, 0.25, 0.1, 0.5, 0.4]],
       [[0.9, 0.8, 0.1, 0.2, 0.3], [0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 0.1, 0.35, 0.3, 0.6]]]
K_L = [[[3, 1], [2, 4], [0, 0]], [[2, 7], [1, 3], [4, -1]], [[1, 1], [0, 2], [4, 3]]]
K_W = [[1., 2., 0.5], [1., 0., 2.], [3., 1., 1.]]
K_IDX = [[[3, 1], [0, 4], [4, 2]], [[2, 0], [1, 3], [3, 4]], [[0, 1], [4, 3], [4, 0]]]
# sparse labels (same every step), dense shape [3, 3]
SP_IND = [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1]]
SP_VAL = [3, 1, 0, 2, 4, 9]
SP_SHAPE = [3, 3]
SS_L = [[1, 0, 1, 1, 0, 1, 0, 0], [0, 0, 1, 1, 1, 0, 1, 0], [1, 1, 0, 0, 0, 1, 1, 0]]
SS_P = [[0.9, 0.1, 0.4, 0.8, 0.6, 0.7, 0.3, 0.2], [0.2, 0.5, 0.55, 0.9, 0.35, 0.1, 0.65, 0.45],
        [0.75, 0.6, 0.3, 0.05, 0.5, 0.95, 0.4, 0.25]]
SS_W = [[1., 2., 1., 0.5, 1., 3., 1., 1.], [1., 1., 0., 2., 1., 1., 1., 2.],
        [0.5, 1., 1., 1., 2., 1., 1., 1.]]


def _build():
    ph = {}

    def P(name, shape, dtype=tf.float32):  # noqa: N802
        ph[name] = tf.placeholder(dtype, shape, name=name)
        return ph[name]
    m = {}
    m["cos"] = tf.metrics.mean_cosine_distance(P("cl", [4, 3]), P("cp", [4, 3]), dim=1,
                                               weights=P("cw", [4, 1]))
    m["cos_nw"] = tf.metrics.mean_cosine_distance(ph["cl"], ph["cp"], dim=1)
    m["pca"] = tf.metrics.mean_per_class_accuracy(P("pl", [6], tf.int64),
                                                  P("pp", [6], tf.int64), 4, weights=P("pw", [6]))
    m["pca_nw"] = tf.metrics.mean_per_class_accuracy(ph["pl"], ph["pp"], 4)
    m["mre"] = tf.metrics.mean_relative_error(P("ml", [5]), P("mp", [5]), P("mn", [5]),
                                              weights=P("mw", [5]))
    m["mt"] = tf.metrics.mean_tensor(P("tv", [2, 3]), weights=P("tw", [2, 1]))
    m["mt_nw"] = tf.metrics.mean_tensor(ph["tv"])
    m["pb"] = tf.metrics.percentage_below(P("bv", [6]), 0.5, weights=P("bw", [6]))
    m["pb_nw"] = tf.metrics.percentage_below(ph["bv"], 0.45)
    kp, kl, kw = P("kp", [3, 5]), P("kl", [3, 2], tf.int64), P("kw", [3])
    ki = P("ki", [3, 2], tf.int32)
    sp = tf.SparseTensor(tf.constant(SP_IND, tf.int64), tf.constant(SP_VAL, tf.int64),
                         tf.constant(SP_SHAPE, tf.int64))
    m["p_at_k"] = tf.metrics.precision_at_k(kl, kp, 2, weights=kw)
    m["p_at_k_c"] = tf.metrics.precision_at_k(kl, kp, 2, class_id=4, weights=kw)
    m["p_at_k_sp"] = tf.metrics.precision_at_k(sp, kp, 3)
    m["p_at_k_spc"] = tf.metrics.precision_at_k(sp, kp, 3, class_id=3)
    m["sp_at_k"] = tf.metrics.sparse_precision_at_k(kl[:, 0], kp, 1)
    m["r_at_k"] = tf.metrics.recall_at_k(kl, kp, 2, weights=kw)
    m["r_at_k_c"] = tf.metrics.recall_at_k(kl, kp, 3, class_id=2, weights=kw)
    m["r_at_k_sp"] = tf.metrics.recall_at_k(sp, kp, 2, weights=kw)
    m["r_at_k_spc"] = tf.metrics.recall_at_k(sp, kp, 2, class_id=0)
    m["p_top"] = tf.metrics.precision_at_top_k(kl, ki, k=2, weights=kw)
    m["r_top"] = tf.metrics.recall_at_top_k(kl, ki, weights=kw)
    m["r_top_c"] = tf.metrics.recall_at_top_k(kl, ki, class_id=4)
    m["ap"] = tf.metrics.average_precision_at_k(kl, kp, 3, weights=kw)
    m["ap_nw"] = tf.metrics.average_precision_at_k(kl, kp, 2)
    m["ap_sp"] = tf.metrics.average_precision_at_k(sp, kp, 3, weights=kw)
    m["sap"] = tf.metrics.sparse_average_precision_at_k(kl[:, 0], kp, 2)
    sl, sprd, sw = P("sl", [8], tf.int64), P("sp", [8]), P("sw", [8])
    m["sens"] = tf.metrics.sensitivity_at_specificity(sl, sprd, 0.9, weights=sw)
    m["sens_nw"] = tf.metrics.sensitivity_at_specificity(sl, sprd, 0.4, num_thresholds=50)
    m["spec"] = tf.metrics.specificity_at_sensitivity(sl, sprd, 0.3, weights=sw)
    m["spec_nw"] = tf.metrics.specificity_at_sensitivity(sl, sprd, 0.8, num_thresholds=30)
    return ph, m


def _feeds(ph, s):
    d = {"cl": COS_L, "cp": COS_P, "cw": COS_W, "pl": PCA_L, "pp": PCA_P, "pw": PCA_W,
         "ml": MRE_L, "mp": MRE_P, "mn": MRE_N, "mw": MRE_W, "tv": MT_V, "tw": MT_W,
         "bv": PB_V, "bw": PB_W, "kp": K_P, "kl": K_L, "kw": K_W, "ki": K_IDX,
         "sl": SS_L, "sp": SS_P, "sw": SS_W}
    return {ph[k]: v[s] for k, v in d.items()}


# TF 2.15: (value before any update, [update op's value after steps 1, 2, 3]).
EXPECTED = {
    "cos": (1.0, [0.222222209, 0.256842077, 0.336551666]),
    "cos_nw": (1.0, [0.299999952, 0.279999971, 0.306666672]),
    "pca": (0.0, [
        [1.0, 0.666666687, 0.0, 1.0],
        [1.0, 0.666666687, 0.333333343, 0.600000024],
        [0.875, 0.777777791, 0.333333343, 0.600000024]]),
    "pca_nw": (0.0, [
        [1.0, 0.5, 0.0, 1.0],
        [1.0, 0.666666687, 0.333333343, 0.666666687],
        [0.800000012, 0.800000012, 0.400000006, 0.666666687]]),
    "mre": (0.0, [0.149999991, 0.269047618, 0.289999992]),
    "mt": ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [
        [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]],
        [[0.333333343, 0.0, 2.33333325], [3.0, 3.0, 3.0]],
        [[0.571428597, 0.285714298, 2.28571439], [2.0, 1.5, 2.0]]]),
    "mt_nw": ([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
        [[0.5, 0.5, 2.5], [3.5, 4.0, 4.5]],
        [[1.0, 1.0, 2.33333325], [2.66666675, 2.66666675, 3.33333325]]]),
    "pb": (0.0, [0.588235319, 0.620689631, 0.59523809]),
    "pb_nw": (0.0, [0.5, 0.416666657, 0.388888896]),
    "p_at_k": (NAN, [0.571428571, 0.538461538, 0.47826087]),
    "p_at_k_c": (NAN, [0.8, 0.888888889, 0.769230769]),
    "p_at_k_sp": (NAN, [0.444444444, 0.333333333, 0.37037037]),
    "p_at_k_spc": (NAN, [1.0, 0.333333333, 0.25]),
    "sp_at_k": (NAN, [0.333333333, 0.5, 0.444444444]),
    "r_at_k": (NAN, [0.615384615, 0.56, 0.564102564]),
    "r_at_k_c": (NAN, [1.0, 1.0, 1.0]),
    "r_at_k_sp": (NAN, [0.416666667, 0.423076923, 0.5]),
    "r_at_k_spc": (NAN, [0.0, 0.5, 0.666666667]),
    "p_top": (NAN, [0.571428571, 0.538461538, 0.47826087]),
    "r_top": (NAN, [0.615384615, 0.56, 0.564102564]),
    "r_top_c": (NAN, [1.0, 1.0, 1.0]),
    "ap": (0.0, [0.619047619, 0.641025641, 0.485507246]),
    "ap_nw": (0.0, [0.416666667, 0.625, 0.5]),
    "ap_sp": (0.0, [0.452380952, 0.346153846, 0.442028986]),
    "sap": (0.0, [0.333333333, 0.583333333, 0.555555556]),
    "sens": (0.0, [1.0, 0.789473712, 0.769230783]),
    "sens_nw": (0.0, [1.0, 1.0, 1.0]),
    "spec": (0.0, [1.0, 1.0, 1.0]),
    "spec_nw": (0.0, [1.0, 0.875, 0.916666687]),
}

# TF 2.15: (value tensor, update tensor).
NAMES = {
    "cos": ('Sub:0', 'Sub_1:0'),
    "cos_nw": ('Sub_2:0', 'Sub_3:0'),
    "pca": ('mean_accuracy/mean_accuracy:0', 'mean_accuracy/update_op:0'),
    "pca_nw": ('mean_accuracy_1/mean_accuracy:0', 'mean_accuracy_1/update_op:0'),
    "mre": ('mean_relative_error/value:0', 'mean_relative_error/update_op:0'),
    "mt": ('mean/value:0', 'mean/update_op:0'),
    "mt_nw": ('mean_1/value:0', 'mean_1/update_op:0'),
    "pb": ('percentage_below_threshold/value:0', 'percentage_below_threshold/update_op:0'),
    "pb_nw": ('percentage_below_threshold_1/value:0', 'percentage_below_threshold_1/update_op:0'),
    "p_at_k": ('precision_at_2:0', 'precision_at_2/update:0'),
    "p_at_k_c": ('precision_at_2_class4:0', 'precision_at_2_class4/update:0'),
    "p_at_k_sp": ('precision_at_3:0', 'precision_at_3/update:0'),
    "p_at_k_spc": ('precision_at_3_class3:0', 'precision_at_3_class3/update:0'),
    "sp_at_k": ('precision_at_1:0', 'precision_at_1/update:0'),
    "r_at_k": ('recall_at_2:0', 'recall_at_2/update:0'),
    "r_at_k_c": ('recall_at_3_class2:0', 'recall_at_3_class2/update:0'),
    "r_at_k_sp": ('recall_at_2_1:0', 'recall_at_2_1/update:0'),
    "r_at_k_spc": ('recall_at_2_class0:0', 'recall_at_2_class0/update:0'),
    "p_top": ('precision_at_2_1:0', 'precision_at_2_1/update:0'),
    "r_top": ('recall_at_k:0', 'recall_at_k/update:0'),
    "r_top_c": ('recall_at_k_class4:0', 'recall_at_k_class4/update:0'),
    "ap": ('average_precision_at_3/mean:0', 'average_precision_at_3:0'),
    "ap_nw": ('average_precision_at_2/mean:0', 'average_precision_at_2:0'),
    "ap_sp": ('average_precision_at_3_1/mean:0', 'average_precision_at_3_1:0'),
    "sap": ('average_precision_at_2_1/mean:0', 'average_precision_at_2_1:0'),
    "sens": ('sensitivity_at_specificity/value:0', 'sensitivity_at_specificity/update_op:0'),
    "sens_nw": ('sensitivity_at_specificity_1/value:0', 'sensitivity_at_specificity_1/update_op:0'),
    "spec": ('specificity_at_sensitivity/value:0', 'specificity_at_sensitivity/update_op:0'),
    "spec_nw": ('specificity_at_sensitivity_1/value:0', 'specificity_at_sensitivity_1/update_op:0')
}

# TF 2.15: tf.local_variables() in order -- (name, shape, dtype); also METRIC_VARIABLES.
LOCALS = [
    ('mean_cosine_distance/total', [], 'float32'),
    ('mean_cosine_distance/count', [], 'float32'),
    ('mean_cosine_distance_1/total', [], 'float32'),
    ('mean_cosine_distance_1/count', [], 'float32'),
    ('mean_accuracy/total', [4], 'float32'),
    ('mean_accuracy/count', [4], 'float32'),
    ('mean_accuracy_1/total', [4], 'float32'),
    ('mean_accuracy_1/count', [4], 'float32'),
    ('mean_relative_error/total', [], 'float32'),
    ('mean_relative_error/count', [], 'float32'),
    ('mean/total_tensor', [2, 3], 'float32'),
    ('mean/count_tensor', [2, 3], 'float32'),
    ('mean_1/total_tensor', [2, 3], 'float32'),
    ('mean_1/count_tensor', [2, 3], 'float32'),
    ('percentage_below_threshold/total', [], 'float32'),
    ('percentage_below_threshold/count', [], 'float32'),
    ('percentage_below_threshold_1/total', [], 'float32'),
    ('percentage_below_threshold_1/count', [], 'float32'),
    ('precision_at_2/true_positive_at_2', [], 'float64'),
    ('precision_at_2/false_positive_at_2', [], 'float64'),
    ('precision_at_2_class4/true_positive_at_2_class4', [], 'float64'),
    ('precision_at_2_class4/false_positive_at_2_class4', [], 'float64'),
    ('precision_at_3/true_positive_at_3', [], 'float64'),
    ('precision_at_3/false_positive_at_3', [], 'float64'),
    ('precision_at_3_class3/true_positive_at_3_class3', [], 'float64'),
    ('precision_at_3_class3/false_positive_at_3_class3', [], 'float64'),
    ('precision_at_1/true_positive_at_1', [], 'float64'),
    ('precision_at_1/false_positive_at_1', [], 'float64'),
    ('recall_at_2/true_positive_at_2', [], 'float64'),
    ('recall_at_2/false_negative_at_2', [], 'float64'),
    ('recall_at_3_class2/true_positive_at_3_class2', [], 'float64'),
    ('recall_at_3_class2/false_negative_at_3_class2', [], 'float64'),
    ('recall_at_2_1/true_positive_at_2', [], 'float64'),
    ('recall_at_2_1/false_negative_at_2', [], 'float64'),
    ('recall_at_2_class0/true_positive_at_2_class0', [], 'float64'),
    ('recall_at_2_class0/false_negative_at_2_class0', [], 'float64'),
    ('precision_at_2_1/true_positive_at_2', [], 'float64'),
    ('precision_at_2_1/false_positive_at_2', [], 'float64'),
    ('recall_at_k/true_positive_at_k', [], 'float64'),
    ('recall_at_k/false_negative_at_k', [], 'float64'),
    ('recall_at_k_class4/true_positive_at_k_class4', [], 'float64'),
    ('recall_at_k_class4/false_negative_at_k_class4', [], 'float64'),
    ('average_precision_at_3/max_1', [], 'float64'),
    ('average_precision_at_3/total', [], 'float64'),
    ('average_precision_at_2/max_1', [], 'float64'),
    ('average_precision_at_2/total', [], 'float64'),
    ('average_precision_at_3_1/max_1', [], 'float64'),
    ('average_precision_at_3_1/total', [], 'float64'),
    ('average_precision_at_2_1/max_1', [], 'float64'),
    ('average_precision_at_2_1/total', [], 'float64'),
    ('sensitivity_at_specificity/true_positives', [200], 'float32'),
    ('sensitivity_at_specificity/false_negatives', [200], 'float32'),
    ('sensitivity_at_specificity/true_negatives', [200], 'float32'),
    ('sensitivity_at_specificity/false_positives', [200], 'float32'),
    ('sensitivity_at_specificity_1/true_positives', [50], 'float32'),
    ('sensitivity_at_specificity_1/false_negatives', [50], 'float32'),
    ('sensitivity_at_specificity_1/true_negatives', [50], 'float32'),
    ('sensitivity_at_specificity_1/false_positives', [50], 'float32'),
    ('specificity_at_sensitivity/true_positives', [200], 'float32'),
    ('specificity_at_sensitivity/false_negatives', [200], 'float32'),
    ('specificity_at_sensitivity/true_negatives', [200], 'float32'),
    ('specificity_at_sensitivity/false_positives', [200], 'float32'),
    ('specificity_at_sensitivity_1/true_positives', [30], 'float32'),
    ('specificity_at_sensitivity_1/false_negatives', [30], 'float32'),
    ('specificity_at_sensitivity_1/true_negatives', [30], 'float32'),
    ('specificity_at_sensitivity_1/false_positives', [30], 'float32')
]


def test_values_over_three_steps_names_and_state_match_tf_2_15():
    ph, metrics = _build()
    assert {k: (v.name, u.name) for k, (v, u) in metrics.items()} == NAMES
    local = [(v.op.name, v.get_shape().as_list(), v.dtype.base_dtype.name)
             for v in tf.local_variables()]
    assert local == [(n, list(s), d) for n, s, d in LOCALS]
    assert tf.get_collection(tf.GraphKeys.METRIC_VARIABLES) == tf.local_variables()
    assert tf.global_variables() == [] and tf.trainable_variables() == []
    for k, (value, update) in metrics.items():
        # the shapes of TF's numbers (mean_per_class_accuracy's update op: per class)
        assert value.get_shape().as_list() == list(np.shape(EXPECTED[k][0])), k
        assert update.get_shape().as_list() == list(np.shape(EXPECTED[k][1][0])), k
        assert value.dtype.base_dtype == update.dtype.base_dtype, k
        assert value.dtype.base_dtype == (tf.float64 if k.startswith(("p_", "r_", "sp_", "ap",
                                                                      "sap")) else tf.float32)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        before = sess.run({k: v for k, (v, _) in metrics.items()})
        steps = [sess.run({k: u for k, (_, u) in metrics.items()}, _feeds(ph, s))
                 for s in range(3)]
        after = sess.run({k: v for k, (v, _) in metrics.items()})
    for k, (want_before, want_steps) in EXPECTED.items():
        np.testing.assert_allclose(before[k], want_before, rtol=1e-6, err_msg=k)
        for s in range(3):
            np.testing.assert_allclose(steps[s][k], want_steps[s], rtol=1e-6,
                                       err_msg=f"{k} step {s + 1}")
        want_value = np.mean(want_steps[2]) if k.startswith("pca") else want_steps[2]
        np.testing.assert_allclose(after[k], want_value, rtol=1e-6, err_msg=k)


def test_collections_arguments():
    labels, scores = tf.constant([[1, 2], [0, 3]], tf.int64), tf.constant([[.1, .2, .3, .4]] * 2)
    made = [tf.metrics.precision_at_k(labels, scores, 2, metrics_collections=["m"],
                                      updates_collections=["u"]),
            tf.metrics.average_precision_at_k(labels, scores, 2, metrics_collections=["m"],
                                              updates_collections=["u"]),
            tf.metrics.mean_tensor(scores, metrics_collections=["m"], updates_collections=["u"]),
            tf.metrics.mean_cosine_distance(scores, scores, 1, metrics_collections=["m"],
                                            updates_collections=["u"]),
            tf.metrics.specificity_at_sensitivity(labels[:, 0], scores[:, 0], 0.5,
                                                  metrics_collections=["m"],
                                                  updates_collections=["u"])]
    assert tf.get_collection("m") == [v for v, _ in made]
    assert tf.get_collection("u") == [u for _, u in made]


def test_sparse_precision_is_precision_and_labels_of_rank_n_minus_1():
    scores = tf.constant(K_P[0])
    ids = tf.constant([3, 0, 4], tf.int64)                 # one label each: [batch]
    p, p_up = tf.metrics.sparse_precision_at_k(ids, scores, 1)
    r, r_up = tf.metrics.recall_at_top_k(ids, tf.constant([[3], [0], [4]]), k=1)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run([p_up, r_up]) == [1.0, 1.0]


# TF 2.15's exceptions for the same bad inputs (the graph is built, nothing runs).
@pytest.mark.parametrize("case, message", [
    (lambda: tf.metrics.sensitivity_at_specificity(tf.zeros([4], tf.int64), tf.zeros([4]), 1.5),
     "`specificity` must be in the range [0, 1]. Currently, `specificity` got 1.5."),
    (lambda: tf.metrics.specificity_at_sensitivity(tf.zeros([4], tf.int64), tf.zeros([4]), -.1),
     "`sensitivity` must be in the range [0, 1]. Currently, `sensitivity` is -0.1."),
    (lambda: tf.metrics.average_precision_at_k(tf.zeros([3, 2], tf.int64), tf.zeros([3, 5]), 0),
     "Invalid k=0. `k` should be >= 1."),
    (lambda: tf.metrics.precision_at_k(tf.zeros([3, 2, 1, 1], tf.int64), tf.zeros([3, 5]), 2),
     "Unexpected labels shape (3, 2, 1, 1) for predictions shape (3, 2)."),
    (lambda: tf.metrics.recall_at_top_k(tf.zeros([3], tf.int64), tf.constant(1, tf.int64)),
     "Unexpected labels shape (3,) for predictions shape ()."),
    (lambda: tf.metrics.mean_per_class_accuracy(tf.zeros([6], tf.int64),
                                                tf.zeros([5], tf.int64), 3),
     "Shapes (5,) and (6,) are incompatible"),
    (lambda: tf.metrics.mean_relative_error(tf.zeros([4]), tf.zeros([4]), tf.zeros([3])),
     "Shapes (4,) and (3,) are incompatible"),
    (lambda: tf.metrics.mean_cosine_distance(tf.zeros([4, 3]), tf.zeros([4, 2]), 1),
     "Shapes (4, 2) and (4, 3) are incompatible"),
    (lambda: tf.metrics.mean_tensor(tf.zeros([2, 3]), weights=tf.zeros([3, 1])),
     "weights can not be broadcast to values"),
    (lambda: tf.metrics.percentage_below(tf.zeros([4]), 0.5, weights=tf.zeros([3])),
     "weights can not be broadcast to values"),
])
def test_bad_input_raises_value_error_as_tf(case, message):
    with pytest.raises(ValueError) as info:
        case()
    assert message in str(info.value)


def test_weights_of_the_wrong_shape_for_at_k_are_refused_when_built():
    # TF 2.15 builds this graph and fails in its run-time assert; the sandbox refuses the
    # weights when the graph is built (losses/weights_broadcast.py).
    with pytest.raises(ValueError, match="weights can not be broadcast"):
        tf.metrics.precision_at_k(tf.zeros([3, 2], tf.int64), tf.zeros([3, 5]), 2,
                                  weights=tf.zeros([2]))


def test_labels_not_matching_the_batch_fail_when_run():
    ph = tf.placeholder(tf.int64, [None, 2])
    _, update = tf.metrics.recall_at_k(ph, tf.constant(K_P[0]), 2)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(update, {ph: [[0, 1]]})


def test_mean_and_mean_tensor_of_a_fed_placeholder_without_weights():
    # TF 2.15 gives 2.75 and [[2.5, 2.5]]: TF's control dependency on an unweighted `values`
    # (here the placeholder itself) is left out, as the sandbox's executor cannot run it.
    x = tf.placeholder(tf.float32, [None])
    y = tf.placeholder(tf.float32, [1, 2])
    _, mean_update = tf.metrics.mean(x)
    _, tensor_update = tf.metrics.mean_tensor(y)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([mean_update, tensor_update], {x: [1., 2., 3.], y: [[1., 2.]]})
        got = sess.run([mean_update, tensor_update], {x: [5.], y: [[4., 3.]]})
    assert got[0] == 2.75 and got[1].tolist() == [[2.5, 2.5]]
