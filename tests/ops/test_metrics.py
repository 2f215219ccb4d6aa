"""tf.metrics (sandbox/metrics/): streaming metrics as (value, update_op) pairs whose state is
local variables. Expected numbers were measured with TensorFlow 1.15.5 on the same inputs
(/tmp/tf115), or computed with NumPy beside them."""
import numpy as np
import pytest

import sandbox as tf

LABELS = [1, 0, 1, 1, 0, 1]
PREDS = [1, 0, 0, 1, 1, 1]
W = [1., 2., 1., 0.5, 1., 3.]
SCORES = [0.9, 0.1, 0.4, 0.8, 0.6, 0.7]


def _metrics():
    labels, preds = tf.constant(LABELS, tf.int64), tf.constant(PREDS, tf.int64)
    w, scores = tf.constant(W), tf.constant(SCORES)
    return {
        "accuracy": tf.metrics.accuracy(labels, preds),
        "accuracy_1": tf.metrics.accuracy(labels, preds, weights=w),
        "mean": tf.metrics.mean(scores, weights=w),
        "precision": tf.metrics.precision(labels, preds),
        "recall": tf.metrics.recall(labels, preds, weights=w),
        "auc": tf.metrics.auc(labels, scores),
        "auc_1": tf.metrics.auc(labels, scores, curve="PR"),
        "auc_2": tf.metrics.auc(labels, scores, weights=w),
        "mean_squared_error": tf.metrics.mean_squared_error(tf.cast(labels, tf.float32), scores,
                                                            weights=w),
        "mean_absolute_error": tf.metrics.mean_absolute_error(tf.cast(labels, tf.float32),
                                                              scores),
        "true_positives": tf.metrics.true_positives(labels, preds),
        "false_positives": tf.metrics.false_positives(labels, preds, weights=w),
        "false_negatives": tf.metrics.false_negatives(labels, preds),
    }


# TF 1.15: the value after one update, and after a second update of the same batch.
EXPECTED = {"accuracy": (0.6666667, 0.6666667), "accuracy_1": (0.7647059, 0.7647059),
            "mean": (0.54117644, 0.54117644), "precision": (0.75, 0.75),
            "recall": (0.8181818, 0.8181818), "auc": (0.87499964, 0.87499976),
            "auc_1": (0.9437498, 0.9437499), "auc_2": (0.9393937, 0.93939376),
            "mean_squared_error": (0.12235295, 0.12235295),
            "mean_absolute_error": (0.3166667, 0.3166667), "true_positives": (3.0, 6.0),
            "false_positives": (1.0, 2.0), "false_negatives": (1.0, 2.0)}


def test_values_names_and_state_match_tf_1_15():
    metrics = _metrics()
    for name, (value, update) in metrics.items():
        if name.startswith(("true_", "false_")):
            assert (value.name, update.op.type) == (f"{name}/Identity:0", "AssignAdd")
        else:
            assert (value.name, update.name) == (f"{name}/value:0", f"{name}/update_op:0")
    local = [(v.name, v.get_shape().as_list()) for v in tf.local_variables()]
    assert local[:10] == [
        ("accuracy/total:0", []), ("accuracy/count:0", []), ("accuracy_1/total:0", []),
        ("accuracy_1/count:0", []), ("mean/total:0", []), ("mean/count:0", []),
        ("precision/true_positives/count:0", []), ("precision/false_positives/count:0", []),
        ("recall/true_positives/count:0", []), ("recall/false_negatives/count:0", [])]
    assert local[10:14] == [("auc/true_positives:0", [200]), ("auc/false_negatives:0", [200]),
                            ("auc/true_negatives:0", [200]), ("auc/false_positives:0", [200])]
    assert tf.get_collection(tf.GraphKeys.METRIC_VARIABLES) == tf.local_variables()
    assert tf.global_variables() == [] and tf.trainable_variables() == []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        before = sess.run({k: v for k, (v, _) in metrics.items()})
        first = sess.run({k: u for k, (_, u) in metrics.items()})
        second = sess.run({k: u for k, (_, u) in metrics.items()})
        after = sess.run({k: v for k, (v, _) in metrics.items()})
        sess.run(tf.local_variables_initializer())            # resets every counter
        reset = sess.run({k: v for k, (v, _) in metrics.items()})
    for name, (one, two) in EXPECTED.items():
        assert before[name] == 0.0, name                      # 0 before any update, not NaN
        np.testing.assert_allclose(first[name], one, rtol=1e-6, err_msg=name)
        np.testing.assert_allclose(second[name], two, rtol=1e-6, err_msg=name)
        np.testing.assert_allclose(after[name], two, rtol=1e-6, err_msg=name)
        assert reset[name] == 0.0, name


def test_streaming_over_batches_equals_numpy_over_all_data():
    labels = tf.placeholder(tf.int32, [None])
    preds = tf.placeholder(tf.int32, [None])
    weights = tf.placeholder(tf.float32, [None])
    acc, acc_update = tf.metrics.accuracy(labels, preds, weights=weights)
    rec, rec_update = tf.metrics.recall(labels, preds)
    rng = np.random.default_rng(0)
    all_l, all_p, all_w = [], [], []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        for size in (5, 7, 3):
            l_, p_ = rng.integers(0, 2, size), rng.integers(0, 2, size)
            w_ = rng.random(size).astype(np.float32)
            sess.run([acc_update, rec_update], {labels: l_, preds: p_, weights: w_})
            all_l.append(l_), all_p.append(p_), all_w.append(w_)
        got_acc, got_rec = sess.run([acc, rec])
    l_, p_, w_ = map(np.concatenate, (all_l, all_p, all_w))
    np.testing.assert_allclose(got_acc, np.sum((l_ == p_) * w_) / np.sum(w_), rtol=1e-6)
    np.testing.assert_allclose(got_rec, np.sum(l_ & p_) / np.sum(l_), rtol=1e-6)


def test_mean_iou_confusion_matrix_matches_tf():
    iou, update = tf.metrics.mean_iou(tf.constant(LABELS, tf.int64),
                                      tf.constant(PREDS, tf.int64), num_classes=2)
    cm = tf.local_variables()[0]
    assert (cm.name, cm.dtype.base_dtype) == ("mean_iou/total_confusion_matrix:0", tf.float64)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        first = sess.run(update)
        second = sess.run(update)
        value = sess.run(iou)
    np.testing.assert_array_equal(first, [[1., 1.], [1., 3.]])      # TF 1.15's matrices
    np.testing.assert_array_equal(second, [[2., 2.], [2., 6.]])
    np.testing.assert_allclose(value, 0.4666667, rtol=1e-6)


def test_collections_and_errors():
    value, update = tf.metrics.mean(tf.constant([1.0, 3.0]), metrics_collections=["my_values"],
                                    updates_collections=[tf.GraphKeys.UPDATE_OPS])
    assert tf.get_collection("my_values") == [value]
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == [update]
    named, _ = tf.metrics.accuracy(tf.constant([1]), tf.constant([1]), name="my_acc")
    assert named.name == "my_acc/value:0"
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(update) == 2.0
    with pytest.raises(ValueError, match="curve must be either ROC or PR, XY unknown"):
        tf.metrics.auc(tf.constant([1]), tf.constant([0.5]), curve="XY")
    with pytest.raises(ValueError, match="incompatible"):
        tf.metrics.accuracy(tf.zeros([3]), tf.zeros([4]))


def test_metric_variables_are_not_saved_by_a_saver(tmp_path):
    tf.Variable(1.0, name="weights")
    _, update = tf.metrics.accuracy(tf.constant([1]), tf.constant([1]))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        sess.run(update)
        path = saver.save(sess, str(tmp_path / "model"))
    assert [name for name, _ in tf.train.list_variables(path)] == ["weights"]


def test_auc_summation_methods_and_explicit_thresholds_match_tf():
    labels = tf.constant([1, 0, 1, 1, 0, 1, 0, 0], tf.int64)
    scores = tf.constant([0.9, 0.1, 0.4, 0.8, 0.6, 0.7, 0.35, 0.2])
    pairs = [tf.metrics.auc(labels, scores, curve="PR", summation_method=m, num_thresholds=50)
             for m in ("careful_interpolation", "minoring", "majoring")]
    pairs.append(tf.metrics.auc(labels, scores, thresholds=[0.3, 0.5, 0.75]))
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([u for _, u in pairs])
        got = sess.run([v for v, _ in pairs])
    # TF 1.15.5 on the same inputs:
    np.testing.assert_allclose(got, [0.9442141056060791, 0.9374997615814209,
                                     0.9499998092651367, 0.8749998211860657], rtol=1e-6)
    with pytest.raises(ValueError, match=r"predictions must be in \[0, 1\].*not logits"):
        tf.metrics.auc(tf.constant([1, 0]), tf.constant([3.0, -1.0]))
    with pytest.raises(ValueError, match="Invalid summation_method"):
        tf.metrics.auc(labels, scores, summation_method="simpson")


def test_rmse_and_metrics_at_thresholds_match_tf():
    labels = tf.constant([1, 0, 1, 1, 0, 1, 0, 0], tf.int64)
    scores = tf.constant([0.9, 0.1, 0.4, 0.8, 0.6, 0.7, 0.35, 0.2])
    w = tf.constant([1., 2., 1., 0.5, 1., 3., 1., 1.])
    th = [0.3, 0.5, 0.75]
    pairs = [tf.metrics.root_mean_squared_error(tf.cast(labels, tf.float32), scores, weights=w),
             tf.metrics.true_positives_at_thresholds(labels, scores, th),
             tf.metrics.false_positives_at_thresholds(labels, scores, th, weights=w),
             tf.metrics.false_negatives_at_thresholds(labels, scores, th),
             tf.metrics.true_negatives_at_thresholds(labels, scores, th),
             tf.metrics.precision_at_thresholds(labels, scores, th),
             tf.metrics.recall_at_thresholds(labels, scores, th, weights=w)]
    assert pairs[5][0].name == "precision_at_thresholds/precision_value:0"
    assert [v.name for v in tf.local_variables()][2:4] == [
        "true_positives/true_positives:0", "false_positives/false_positives:0"]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([u for _, u in pairs])
        got = sess.run([v for v, _ in pairs])
    # TF 1.15.5 on the same inputs:
    expected = [0.33841368556022644, [4.0, 3.0, 2.0], [2.0, 1.0, 0.0], [0.0, 1.0, 2.0],
                [2.0, 3.0, 4.0], [0.6666666865348816, 0.75, 1.0],
                [1.0, 0.8181818127632141, 0.27272728085517883]]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-6)
