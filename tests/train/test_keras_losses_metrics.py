"""keras.losses, keras.metrics and keras.initializers.Identity against TF 2.15.1's
tf.compat.v1.keras (graph mode, v2 behaviour off, as TF 1.15): the loss functions and classes
(reduction, sample weights), the metric functions, the stateful metrics (result() after two
update_state batches, one weighted), the same metrics and losses in compile + evaluate, and
get / serialize / deserialize. Expected values are TF 2.15.1's, except where TF 1.15's
metrics differ from TF 2.15's (see test_rate_at_rate_metrics_choose_the_nearest_threshold).
"""
import numpy as np
import pytest

from sandbox import keras
from sandbox.keras import backend as K
from tests.train.keras_fixture import fresh_keras  # noqa: F401 (the fixture)

NAN = float("nan")

YT = np.array([[0., 1., 0.], [1., 0., 0.], [0., 0., 1.], [0., 1., 0.]], np.float32)
YP = np.array([[.1, .7, .2], [.5, .3, .2], [.25, .45, .3], [.6, .3, .1]], np.float32)
REG_T = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, 2.0]], np.float32)
REG_P = np.array([[1.5, -1.0, 2.0], [0.25, 0.5, 4.5]], np.float32)
BIN_T = np.array([[1.], [0.], [1.], [0.], [1.], [0.]], np.float32)
BIN_P = np.array([[.9], [.2], [.4], [.6], [.55], [.05]], np.float32)
HINGE_T = np.array([[1., -1., 1.], [-1., 1., 1.]], np.float32)


def loss_functions(keras):
    L = keras.losses
    out = {}
    for name in ("mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
                 "mean_squared_logarithmic_error", "logcosh", "poisson", "cosine_similarity",
                 "cosine_proximity", "mse", "mae", "mape", "msle", "kld", "squared_hinge",
                 "hinge", "categorical_hinge"):
        fn = getattr(L, name)
        out[name] = fn(REG_T, REG_P)
        out[name + "/probs"] = fn(YT, YP)
    out["hinge/pm1"] = L.hinge(HINGE_T, REG_P)
    out["squared_hinge/pm1"] = L.squared_hinge(HINGE_T, REG_P)
    out["kullback_leibler_divergence"] = L.kullback_leibler_divergence(YT, YP)
    out["categorical_crossentropy"] = L.categorical_crossentropy(YT, YP)
    out["categorical_crossentropy/smooth"] = L.categorical_crossentropy(YT, YP,
                                                                        label_smoothing=0.1)
    out["binary_crossentropy"] = L.binary_crossentropy(BIN_T, BIN_P)
    out["binary_crossentropy/logits"] = L.binary_crossentropy(BIN_T, BIN_P * 4 - 2,
                                                              from_logits=True)
    out["sparse_categorical_crossentropy"] = L.sparse_categorical_crossentropy(
        np.array([1, 0, 2, 1]), YP)
    return out


def loss_classes(keras):
    L = keras.losses
    w = np.array([1.0, 0.5], np.float32)
    out = {}
    for cls, kw, t, p in (
            ("Hinge", {}, HINGE_T, REG_P), ("SquaredHinge", {}, HINGE_T, REG_P),
            ("CategoricalHinge", {}, YT, YP), ("Huber", {}, REG_T, REG_P),
            ("Huber", {"delta": 0.6}, REG_T, REG_P), ("LogCosh", {}, REG_T, REG_P),
            ("KLDivergence", {}, YT, YP), ("Poisson", {}, REG_T, np.abs(REG_P)),
            ("MeanAbsolutePercentageError", {}, REG_T, REG_P),
            ("MeanSquaredLogarithmicError", {}, REG_T, REG_P),
            ("CosineSimilarity", {}, REG_T, REG_P),
            ("CosineSimilarity", {"axis": 0}, REG_T[:, :2], REG_P[:, :2]),
            ("MeanSquaredError", {}, REG_T, REG_P),
            ("BinaryCrossentropy", {"label_smoothing": 0.2}, BIN_T, BIN_P),
            ("CategoricalCrossentropy", {"from_logits": True}, YT, YP),
            ("SparseCategoricalCrossentropy", {}, np.array([1, 0, 2, 1]), YP)):
        key = cls + "".join(f"/{k}={v}" for k, v in kw.items())
        loss = getattr(L, cls)(**kw)
        out[key] = loss(t, p)
        if len(t) == 2:
            out[key + "/weighted"] = loss(t, p, sample_weight=w)
            out[key + "/sum"] = getattr(L, cls)(reduction="sum", **kw)(t, p, sample_weight=w)
            out[key + "/none"] = getattr(L, cls)(reduction="none", **kw)(t, p)
    return out


def metric_functions(keras):
    M = keras.metrics
    labels = np.array([1, 0, 2, 1])
    return {"top_k": M.top_k_categorical_accuracy(YT, YP, k=1),
            "top_k2": M.top_k_categorical_accuracy(YT, YP, k=2),
            "sparse_top_k2": M.sparse_top_k_categorical_accuracy(labels, YP, k=2),
            "sparse_top_k2_col": M.sparse_top_k_categorical_accuracy(labels[:, None], YP, k=2),
            "cosine_proximity": M.cosine_proximity(REG_T, REG_P),
            "kld": M.kld(YT, YP), "poisson": M.poisson(REG_T, np.abs(REG_P)),
            "logcosh": M.logcosh(REG_T, REG_P), "mape": M.mape(REG_T, REG_P),
            "msle": M.msle(REG_T, REG_P), "hinge": M.hinge(HINGE_T, REG_P),
            "squared_hinge": M.squared_hinge(HINGE_T, REG_P)}


BATCHES = [(BIN_T[:3], BIN_P[:3], None), (BIN_T[3:], BIN_P[3:], np.array([1., 2., .5]))]
SCORES = np.array([[.9], [.8], [.7], [.6], [.5], [.4], [.3], [.2], [.1], [.35]], np.float32)
SCORE_T = np.array([[1], [1], [0], [1], [0], [1], [0], [0], [0], [1]], np.float32)


def stateful_metrics(keras):
    """(metric, list of (y_true, y_pred, sample_weight)) pairs; the value is result() after
    all the updates."""
    M = keras.metrics
    probs_batches = [(YT[:2], YP[:2], None), (YT[2:], YP[2:], np.array([2., 1.]))]
    reg = [(REG_T[:1], REG_P[:1], None), (REG_T[1:], REG_P[1:], np.array([3.]))]
    score = [(SCORE_T[:5], SCORE_T[:5] * 0 + SCORES[:5], None), (SCORE_T[5:], SCORES[5:], None)]
    iou = [(np.array([0, 1, 2, 1]), np.array([0, 2, 2, 1]), None),
           (np.array([1, 1]), np.array([0, 1]), np.array([2., 1.]))]
    return {
        "TruePositives": (M.TruePositives(), BATCHES),
        "TrueNegatives": (M.TrueNegatives(thresholds=[0.3, 0.5, 0.7]), BATCHES),
        "FalsePositives": (M.FalsePositives(thresholds=0.3), BATCHES),
        "FalseNegatives": (M.FalseNegatives(), BATCHES),
        "Precision": (M.Precision(), BATCHES),
        "Precision/thr": (M.Precision(thresholds=[0.3, 0.58]), BATCHES),
        "Precision/top_k": (M.Precision(top_k=1), probs_batches),
        "Precision/class_id": (M.Precision(class_id=1), probs_batches),
        "Recall": (M.Recall(), BATCHES),
        "Recall/thr": (M.Recall(thresholds=[0.1, 0.5, 0.95]), BATCHES),
        "Recall/top_k2": (M.Recall(top_k=2), probs_batches),
        "AUC": (M.AUC(), score),
        "AUC/5": (M.AUC(num_thresholds=5), BATCHES),
        "AUC/PR": (M.AUC(curve="PR"), score),
        "AUC/PR/minoring": (M.AUC(curve="PR", summation_method="minoring"), score),
        "AUC/ROC/majoring": (M.AUC(num_thresholds=7, summation_method="majoring"), score),
        "AUC/thresholds": (M.AUC(thresholds=[0.25, 0.5, 0.75]), score),
        "MeanIoU": (M.MeanIoU(num_classes=3), iou),
        "RootMeanSquaredError": (M.RootMeanSquaredError(), reg),
        "MeanRelativeError": (M.MeanRelativeError(normalizer=[[1., 2., 4.]]), reg),
        "TopKCategoricalAccuracy": (M.TopKCategoricalAccuracy(k=2), probs_batches),
        "SparseTopKCategoricalAccuracy": (M.SparseTopKCategoricalAccuracy(k=1), [
            (np.array([[1], [0]]), YP[:2], None), (np.array([[2], [1]]), YP[2:], None)]),
        "Hinge": (M.Hinge(), [(HINGE_T, REG_P, None)]),
        "SquaredHinge": (M.SquaredHinge(), [(HINGE_T, REG_P, np.array([1., 3.]))]),
        "CategoricalHinge": (M.CategoricalHinge(), probs_batches),
        "KLDivergence": (M.KLDivergence(), probs_batches),
        "Poisson": (M.Poisson(), [(REG_T, np.abs(REG_P), None)]),
        "LogCoshError": (M.LogCoshError(), reg),
        "CosineSimilarity": (M.CosineSimilarity(), reg),
        "MeanAbsolutePercentageError": (M.MeanAbsolutePercentageError(), reg),
        "MeanSquaredLogarithmicError": (M.MeanSquaredLogarithmicError(), reg),
        "BinaryCrossentropy": (M.BinaryCrossentropy(), BATCHES),
        "CategoricalCrossentropy": (M.CategoricalCrossentropy(label_smoothing=0.1),
                                    probs_batches),
        "SparseCategoricalCrossentropy": (M.SparseCategoricalCrossentropy(), [
            (np.array([1, 0]), YP[:2], None), (np.array([2, 1]), YP[2:], None)]),
    }


def tensor_metrics(keras):
    M = keras.metrics
    return {"Sum": (M.Sum(), [([1., 2.], None), ([3.], [0.5])]),
            "MeanTensor": (M.MeanTensor(), [([1., 2.], None), ([3., 5.], [0.5, 2.])])}


# TF 2.15.1's values
EXPECTED = {
    "loss_functions": {
        'mean_squared_error': [0.75, 2.1875],
        'mean_squared_error/probs': [0.04667, 0.12667, 0.25167, 0.28667],
        'mean_absolute_error': [0.83333, 1.08333],
        'mean_absolute_error/probs': [0.2, 0.33333, 0.46667, 0.46667],
        'mean_absolute_percentage_error': [44.44445, 166666736.0],
        'mean_absolute_percentage_error/probs': [100000008.0, 166666688.0, 233333344.0,
                                                 233333344.0],
        'mean_squared_logarithmic_error': [0.04418, 0.18835],
        'mean_squared_logarithmic_error/probs': [0.02291, 0.06161, 0.12448, 0.13852],
        'logcosh': [0.32923, 0.65487],
        'logcosh/probs': [0.02307, 0.06144, 0.11874, 0.13413],
        'poisson': [NAN, 0.97833],
        'poisson/probs': [0.45222, 0.56438, 0.73466, 0.73466],
        'cosine_similarity': [-0.94295, -0.97611],
        'cosine_similarity/probs': [-0.95258, -0.81111, -0.50351, -0.44233],
        'cosine_proximity': [-0.94295, -0.97611],
        'cosine_proximity/probs': [-0.95258, -0.81111, -0.50351, -0.44233],
        'mse': [0.75, 2.1875],
        'mse/probs': [0.04667, 0.12667, 0.25167, 0.28667],
        'mae': [0.83333, 1.08333],
        'mae/probs': [0.2, 0.33333, 0.46667, 0.46667],
        'mape': [44.44445, 166666736.0],
        'mape/probs': [100000008.0, 166666688.0, 233333344.0, 233333344.0],
        'msle': [0.04418, 0.18835],
        'msle/probs': [0.02291, 0.06161, 0.12448, 0.13852],
        'kld': [0.0, 0.34657],
        'kld/probs': [0.35667, 0.69314, 1.20397, 1.20397],
        'squared_hinge': [0.0, 0.58854],
        'squared_hinge/probs': [0.91333, 1.12667, 1.385, 1.42],
        'hinge': [0.0, 0.625],
        'hinge/probs': [0.86667, 1.0, 1.13333, 1.13333],
        'categorical_hinge': [0.0, 0.0],
        'categorical_hinge/probs': [0.5, 0.8, 1.15, 1.3],
        'hinge/pm1': [0.0, 0.58333],
        'squared_hinge/pm1': [0.0, 0.60417],
        'kullback_leibler_divergence': [0.35667, 0.69314, 1.20397, 1.20397],
        'categorical_crossentropy': [0.35667, 0.69315, 1.20397, 1.20397],
        'categorical_crossentropy/smooth': [0.4633, 0.74072, 1.19653, 1.21749],
        'binary_crossentropy': [0.10536, 0.22314, 0.91629, 0.91629, 0.59784, 0.05129],
        'binary_crossentropy/logits': [0.1839, 0.26328, 0.91302, 0.91302, 0.59814, 0.15298],
        'sparse_categorical_crossentropy': [0.35667, 0.69315, 1.20397, 1.20397],
    },
    "loss_classes": {
        'Hinge': 0.29167,
        'Hinge/weighted': 0.14583,
        'Hinge/sum': 0.29167,
        'Hinge/none': [0.0, 0.58333],
        'SquaredHinge': 0.30208,
        'SquaredHinge/weighted': 0.15104,
        'SquaredHinge/sum': 0.30208,
        'SquaredHinge/none': [0.0, 0.60417],
        'CategoricalHinge': 0.9375,
        'Huber': 0.54688,
        'Huber/weighted': 0.36719,
        'Huber/sum': 0.73438,
        'Huber/none': [0.375, 0.71875],
        'Huber/delta=0.6': 0.40688,
        'Huber/delta=0.6/weighted': 0.28385,
        'Huber/delta=0.6/sum': 0.56771,
        'Huber/delta=0.6/none': [0.32167, 0.49208],
        'LogCosh': 0.49205,
        'LogCosh/weighted': 0.32833,
        'LogCosh/sum': 0.65666,
        'LogCosh/none': [0.32923, 0.65487],
        'KLDivergence': 0.86444,
        'Poisson': 0.82501,
        'Poisson/weighted': 0.58043,
        'Poisson/sum': 1.16086,
        'Poisson/none': [0.6717, 0.97833],
        'MeanAbsolutePercentageError': 83333392.0,
        'MeanAbsolutePercentageError/weighted': 41666708.0,
        'MeanAbsolutePercentageError/sum': 83333416.0,
        'MeanAbsolutePercentageError/none': [44.44445, 166666736.0],
        'MeanSquaredLogarithmicError': 0.11627,
        'MeanSquaredLogarithmicError/weighted': 0.06918,
        'MeanSquaredLogarithmicError/sum': 0.13836,
        'MeanSquaredLogarithmicError/none': [0.04418, 0.18835],
        'CosineSimilarity': -0.95953,
        'CosineSimilarity/weighted': -0.71551,
        'CosineSimilarity/sum': -1.43101,
        'CosineSimilarity/none': [-0.94295, -0.97611],
        'CosineSimilarity/axis=0': -0.9251,
        'CosineSimilarity/axis=0/weighted': -0.7015,
        'CosineSimilarity/axis=0/sum': -1.40299,
        'CosineSimilarity/axis=0/none': [-0.95578, -0.89443],
        'MeanSquaredError': 1.46875,
        'MeanSquaredError/weighted': 0.92188,
        'MeanSquaredError/sum': 1.84375,
        'MeanSquaredError/none': [0.75, 2.1875],
        'BinaryCrossentropy/label_smoothing=0.2': 0.567,
        'CategoricalCrossentropy/from_logits=True': 0.99917,
        'SparseCategoricalCrossentropy': 0.86444,
    },
    "metric_functions": {
        'top_k': [1.0, 1.0, 0.0, 0.0],
        'top_k2': [1.0, 1.0, 1.0, 1.0],
        'sparse_top_k2': [1.0, 1.0, 1.0, 1.0],
        'cosine_proximity': [-0.94295, -0.97611],
        'kld': [0.35667, 0.69314, 1.20397, 1.20397],
        'poisson': [0.6717, 0.97833],
        'logcosh': [0.32923, 0.65487],
        'mape': [44.44445, 166666736.0],
        'msle': [0.04418, 0.18835],
        'hinge': [0.0, 0.58333],
        'squared_hinge': [0.0, 0.60417],
    },
}

# TF 2.15.1's result() after the batches of stateful_metrics / tensor_metrics
EXPECTED_METRICS = {
    'TruePositives': 3.0,
    'TrueNegatives': [1.5, 1.5, 2.5],
    'FalsePositives': 1.0,
    'FalseNegatives': 1.0,
    'Precision': 0.75,
    'Precision/thr': [0.8, 0.5],
    'Precision/top_k': 0.4,
    'Precision/class_id': 1.0,
    'Recall': 0.75,
    'Recall/thr': [1.0, 0.75, 0.0],
    'Recall/top_k2': 1.0,
    'AUC': 0.8,
    'AUC/5': 0.8,
    'AUC/PR': 0.80787,
    'AUC/PR/minoring': 0.58667,
    'AUC/ROC/majoring': 0.88,
    'AUC/thresholds': 0.82,
    'MeanIoU': 0.41111,
    'RootMeanSquaredError': 1.35208,
    'MeanRelativeError': 0.38542,
    'TopKCategoricalAccuracy': 1.0,
    'SparseTopKCategoricalAccuracy': 0.5,
    'Hinge': 0.29167,
    'SquaredHinge': 0.45312,
    'CategoricalHinge': 0.98,
    'KLDivergence': 0.93235,
    'Poisson': 0.82501,
    'LogCoshError': 0.57346,
    'CosineSimilarity': 0.96782,
    'MeanAbsolutePercentageError': 125000056.0,
    'MeanSquaredLogarithmicError': 0.15231,
    'BinaryCrossentropy': 0.52037,
    'CategoricalCrossentropy': 0.96291,
    'SparseCategoricalCrossentropy': 0.86444,
    'Sum': 4.5,
    'MeanTensor': [1.66667, 4.0],
}


pytestmark = pytest.mark.usefixtures("fresh_keras")   # (conftest.py)


def _close(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return got.shape == want.shape and np.allclose(got, want, rtol=2e-4, atol=2e-4,
                                                   equal_nan=True)


@pytest.mark.parametrize("group", sorted(EXPECTED))
def test_functions_and_loss_classes_match_tf(group):
    values = K.get_session().run(globals()[group](keras))
    wrong = {k: (np.round(values[k], 5).tolist(), want) for k, want in EXPECTED[group].items()
             if not _close(values[k], want)}
    assert not wrong, wrong


def test_stateful_metrics_match_tf():
    metrics = {**stateful_metrics(keras), **tensor_metrics(keras)}
    updates = {name: [m.update_state(*batch[:-1], sample_weight=batch[-1]) for batch in batches]
               for name, (m, batches) in metrics.items()}
    results = {name: m.result() for name, (m, _) in metrics.items()}
    sess = K.get_session()
    for name, ops in updates.items():
        for op in ops:
            sess.run(op)
    values = sess.run(results)
    wrong = {k: (np.round(values[k], 5).tolist(), want)
             for k, want in EXPECTED_METRICS.items() if not _close(values[k], want)}
    assert not wrong, wrong
    # reset_states starts again; calling the metric updates and returns the result
    precision = metrics["Precision"][0]
    precision.reset_states()
    assert sess.run(precision.result()) == 0.0
    assert sess.run(precision([[1], [0]], [[0.9], [0.8]])) == pytest.approx(0.5)


def test_rate_at_rate_metrics_choose_the_nearest_threshold():
    """TF 1.15 takes the threshold whose constrained rate is nearest the target (the first of
    ties), where TF 2.15 takes the best rate that meets it. Positives score .9 .8 .6 .4 .35,
    negatives .7 .5 .3 .2 .1; thresholds 0, 1/(n-1), ..., 1."""
    M = keras.metrics
    cases = {  # value: TF 2.15.1's, or derived by hand where TF 1.15 differs
        (M.SensitivityAtSpecificity, 0.5, 200): 1.0,
        (M.SensitivityAtSpecificity, 0.8, 9): 0.6,
        # sensitivity 0.6 first at t = 80/199 (> .4): specificity 3/5 (TF 2.15: 0.8)
        (M.SpecificityAtSensitivity, 0.6, 200): 0.6,
        (M.SpecificityAtSensitivity, 0.4, 5): 1.0,
        # recall 0.8 first at t = 70/199 (> .35): precision 4 / 6 (TF 2.15: 5 / 7)
        (M.PrecisionAtRecall, 0.8, 200): 4 / 6,
        # recall 0.4 (in float32 nearer 0.5 than 0.6) first at t = 5/8: .9 .8 and the
        # negative .7: 2 / 3 (TF 2.15: 0.75)
        (M.PrecisionAtRecall, 0.5, 9): 2 / 3,
    }
    metrics = {key: key[0](key[1], num_thresholds=key[2]) for key in cases}
    sess = K.get_session()
    for key, metric in metrics.items():
        sess.run(metric.update_state(SCORE_T, SCORES))
        assert sess.run(metric.result()) == pytest.approx(cases[key], abs=1e-5), key
    with pytest.raises(ValueError, match="range"):
        M.SensitivityAtSpecificity(1.5)


X = np.array([[0.5, -1.0], [1.5, 0.25], [-0.5, 2.0], [1.0, 1.0], [0.0, -0.75], [2.0, 0.5]],
             np.float32)
Y = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float32)
W = np.array([[0.4, -0.3, 0.2], [-0.1, 0.5, 0.3]], np.float32)
B = np.array([0.1, 0.0, -0.1], np.float32)


def _compiled(keras):
    M = keras.metrics
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(2,))])
    model.set_weights([W, B])
    model.compile("sgd", loss="kld",
                  metrics=["top_k_categorical_accuracy", "mape", "msle", "hinge",
                           M.AUC(num_thresholds=11), M.Precision(),
                           M.Recall(thresholds=0.3), M.TopKCategoricalAccuracy(k=2, name="top2"),
                           M.RootMeanSquaredError(), M.CategoricalHinge(), M.KLDivergence(),
                           M.LogCoshError(), M.CosineSimilarity(), M.Poisson()])
    values = model.evaluate(X, Y, batch_size=6, verbose=0)
    losses = {}
    for loss in ("hinge", "squared_hinge", "categorical_hinge", "logcosh", "poisson",
                 "cosine_similarity", "mean_absolute_percentage_error", "msle",
                 keras.losses.Huber(delta=0.5), keras.losses.CosineSimilarity()):
        m = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(2,))])
        m.set_weights([W, B])
        m.compile("sgd", loss=loss)
        losses[loss if isinstance(loss, str) else type(loss).__name__] = round(float(
            m.evaluate(X, Y, batch_size=6, verbose=0)), 5)
    return model.metrics_names, [round(float(v), 5) for v in values], losses


def test_metrics_and_losses_in_compile_match_tf():
    names, values, losses = _compiled(keras)
    # TF 2.15.1's
    assert names == ["loss", "top_k_categorical_accuracy", "mean_absolute_percentage_error",
                     "mean_squared_logarithmic_error", "hinge", "auc", "precision", "recall",
                     "top2", "root_mean_squared_error", "categorical_hinge",
                     "kullback_leibler_divergence", "logcosh", "cosine_similarity", "poisson"]
    np.testing.assert_allclose(values, [1.12601, 1.0, 219704336.0, 0.11554, 1.10608, 0.5, 0.0,
                                        0.5, 0.66667, 0.4842, 1.09179, 1.12601, 0.11048,
                                        0.55321, 0.70867], rtol=1e-4)
    assert losses == pytest.approx({
        "hinge": 1.10608, "squared_hinge": 1.34052, "categorical_hinge": 1.09179,
        "logcosh": 0.11048, "poisson": 0.70867, "cosine_similarity": -0.55321,
        "mean_absolute_percentage_error": 219704336.0, "msle": 0.11554, "Huber": 0.11092,
        "CosineSimilarity": -0.55321}, rel=1e-4)


def test_get_serialize_deserialize():
    L, M = keras.losses, keras.metrics
    for name, fn in (("kld", L.kullback_leibler_divergence), ("mape", L.mape),
                     ("huber_loss", L.huber_loss), ("logcosh", L.logcosh),
                     ("cosine_proximity", L.cosine_similarity)):
        assert L.get(name) is fn
    assert L.serialize(L.poisson) == "poisson"
    huber = L.Huber(delta=0.5, reduction="sum")
    # TF 2.15.1's config, less the 'fn' that TF 2.x adds (TF 1.15 does not write it)
    assert L.serialize(huber) == {"class_name": "Huber", "config": {
        "reduction": "sum", "name": "huber_loss", "delta": 0.5}}
    again = L.deserialize(L.serialize(huber))
    assert isinstance(again, L.Huber) and again.get_config() == huber.get_config()
    cosine = L.get({"class_name": "CosineSimilarity", "config": {"axis": 0}})
    assert cosine.get_config() == {"reduction": "auto", "name": "cosine_similarity", "axis": 0}
    with pytest.raises(ValueError, match="Unknown loss function"):
        L.get("nope")
    assert M.get("top_k_categorical_accuracy") is M.top_k_categorical_accuracy
    assert M.get("kld") is L.kullback_leibler_divergence
    auc = M.AUC(num_thresholds=7, curve="PR", name="pr")
    # TF 2.15.1's configs, less the arguments TF 1.15 does not have (multi_label ...)
    assert M.serialize(auc) == {"class_name": "AUC", "config": {
        "num_thresholds": 7, "curve": "PR", "summation_method": "interpolation", "name": "pr",
        "dtype": "float32"}}
    assert M.deserialize(M.serialize(auc)).get_config() == auc.get_config()
    top = M.deserialize({"class_name": "TopKCategoricalAccuracy",
                         "config": {"k": 2, "name": "t2", "dtype": "float32"}})
    assert (top.name, top.get_config()["k"]) == ("t2", 2)
    assert M.Precision(thresholds=0.3, class_id=1).get_config() == {
        "thresholds": 0.3, "top_k": None, "class_id": 1, "name": "precision",
        "dtype": "float32"}
    assert M.MeanIoU(3).get_config() == {"num_classes": 3, "name": "mean_io_u",
                                         "dtype": "float32"}
    with pytest.raises(ValueError, match="Threshold values must be in"):
        M.Recall(thresholds=[0.5, 1.5])


def test_identity_initializer_and_activations():
    init = keras.initializers.get("identity")
    assert isinstance(init, keras.initializers.Identity)
    gained = keras.initializers.Identity(gain=2.0)
    # TF 2.15.1's
    assert keras.initializers.serialize(gained) == {
        "class_name": "Identity", "config": {"gain": 2.0, "dtype": "float32"}}
    sess = K.get_session()
    np.testing.assert_array_equal(sess.run(gained((2, 3))), [[2, 0, 0], [0, 2, 0]])
    with pytest.raises(ValueError, match="2D"):
        gained((2, 3, 4))
    model = keras.Sequential([keras.layers.Dense(3, kernel_initializer="identity",
                                                 input_shape=(3,))])
    np.testing.assert_array_equal(model.get_weights()[0], np.eye(3))
    x = K.constant([[-2.0, 0.2, 0.5, 3.0]])
    relu = keras.activations.relu(x, alpha=0.1, max_value=2.0, threshold=0.3)
    elu = keras.activations.elu(x, alpha=0.5)
    # TF 2.15.1's
    np.testing.assert_allclose(sess.run(relu), [[-0.23, -0.01, 0.5, 2.0]], atol=1e-6)
    np.testing.assert_allclose(sess.run(elu), [[-0.432332, 0.2, 0.5, 3.0]], atol=1e-6)


def test_compile_takes_serialized_metrics_and_loss_objects():
    """What a saved model's training config holds for metric objects (TF 1.15 writes
    {'class_name', 'config'}): compile deserializes them."""
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(2,))])
    model.set_weights([W, B])
    model.compile("sgd", loss=keras.losses.get("kld"),
                  metrics=[keras.metrics.serialize(keras.metrics.AUC(num_thresholds=11)),
                           keras.metrics.serialize(keras.metrics.Recall(thresholds=0.3))])
    values = model.evaluate(X, Y, batch_size=6, verbose=0)
    assert model.metrics_names == ["loss", "auc", "recall"]
    np.testing.assert_allclose(values, [1.12601, 0.5, 0.5], rtol=1e-4)     # TF 2.15.1's


def test_stateful_metrics_in_fit_and_evaluate_accumulate_per_epoch_as_tf():
    """AUC and Precision in compile: updated by every batch, reset at each epoch (and for the
    validation pass and evaluate), reported as their value so far -- TF 2.15.1's numbers
    (v1 training loop) for 12 samples in batches of 4; a per-batch average gave 0.5 and
    0.5556 for the first epoch's auc and precision."""
    x = np.sin(np.arange(36) * 0.7).reshape(12, 3).astype("float32")
    y = (np.sin(np.arange(12) * 1.3) > 0.3).astype("float32").reshape(12, 1)
    m = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
    m.layers[0].set_weights([np.array([[0.5], [-0.3], [0.2]], "float32"),
                             np.array([0.1], "float32")])
    m.compile(keras.optimizers.SGD(0.5), "binary_crossentropy",
              metrics=[keras.metrics.AUC(name="auc"), keras.metrics.Precision(name="prec"),
                       "accuracy"])
    h = m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0,
              validation_data=(x[:6], y[:6])).history
    want = {"acc": [0.416667, 0.583333], "auc": [0.472222, 0.625],
            "loss": [0.696139, 0.674741], "prec": [0.428571, 0.6],
            "val_acc": [0.666667, 0.666667], "val_auc": [0.75, 0.8125],
            "val_loss": [0.678573, 0.654113], "val_prec": [0.5, 0.5]}
    assert sorted(h) == sorted(want)
    for key, values in want.items():
        np.testing.assert_allclose(h[key], values, atol=2e-6, err_msg=key)
    np.testing.assert_allclose(m.evaluate(x, y, batch_size=5, verbose=0),
                               [0.6413, 0.75, 0.75, 0.666667], atol=2e-6)

    def batches():
        while True:
            for i in range(0, 12, 4):
                yield x[i:i + 4], y[i:i + 4]
    h = m.fit_generator(batches(), steps_per_epoch=3, epochs=1, verbose=0).history
    np.testing.assert_allclose([h["loss"][0], h["auc"][0], h["prec"][0], h["acc"][0]],
                               [0.661014, 0.652778, 0.6, 0.583333], atol=2e-6)
