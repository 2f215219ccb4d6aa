"""The canned estimators (sandbox/estimator/canned/): DNNClassifier, LinearClassifier,
DNNRegressor, LinearRegressor and DNNLinearCombinedClassifier train, evaluate and predict
through tf.estimator.Estimator with TF's variable names, metric keys and prediction keys.

The linear models start from zeros, so one step of them gives TF's numbers exactly: those
marked 'TF 2.15' were printed by TF 2.15.1's tf.compat.v1.estimator for the same data."""
import numpy as np
import pytest

import sandbox as tf

fc = tf.feature_column


def _small_data():
    """30 rows of two features, classes 0, 1, 2 in turn (TF's reference run used the same)."""
    rng = np.random.RandomState(0)
    y = np.arange(30) % 3
    x = (np.stack([y * 1.0, 2.0 - y], 1) + rng.normal(0, 0.3, (30, 2))).astype(np.float32)
    return {"a": x[:, 0], "b": x[:, 1]}, y


def _iris_like():
    """45 rows, 4 measurements, 3 well-separated species (deterministic)."""
    rng = np.random.RandomState(42)
    centers = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
    y = np.repeat(np.arange(3), 15)
    x = (centers[y] + rng.normal(0, 0.25, (45, 4))).astype(np.float32)
    names = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    return {n: x[:, i] for i, n in enumerate(names)}, y, names


def _input_fn(features, labels, repeat=True):
    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices((features, labels) if labels is not None
                                                else features)
        return (ds.repeat() if repeat else ds).batch(len(next(iter(features.values()))))
    return input_fn


def _columns(names):
    return [fc.numeric_column(n) for n in names]


def test_linear_classifier_one_step_gives_tfs_metrics(tmp_path):
    features, y = _small_data()
    est = tf.estimator.LinearClassifier(_columns(["a", "b"]), n_classes=3,
                                        model_dir=str(tmp_path / "multi"))
    est.train(_input_fn(features, y), steps=1)
    result = est.evaluate(_input_fn(features, y, repeat=False))
    assert sorted(result) == ["accuracy", "average_loss", "global_step", "loss"]
    np.testing.assert_allclose([result["accuracy"], result["average_loss"], result["loss"]],
                               [0.6666667, 0.86781245, 26.034374], rtol=1e-5)   # TF 2.15
    assert sorted(est.get_variable_names()) == [
        "global_step", "linear/linear_model/a/weights", "linear/linear_model/a/weights/Ftrl",
        "linear/linear_model/a/weights/Ftrl_1", "linear/linear_model/b/weights",
        "linear/linear_model/b/weights/Ftrl", "linear/linear_model/b/weights/Ftrl_1",
        "linear/linear_model/bias_weights", "linear/linear_model/bias_weights/Ftrl",
        "linear/linear_model/bias_weights/Ftrl_1"]

    binary = tf.estimator.LinearClassifier(_columns(["a", "b"]),
                                           model_dir=str(tmp_path / "binary"))
    labels = (y > 0).astype(np.int64)
    binary.train(_input_fn(features, labels), steps=1)
    result = binary.evaluate(_input_fn(features, labels, repeat=False))
    tf_2_15 = {"accuracy": 0.96666664, "accuracy_baseline": 0.6666667, "auc": 0.995,
               "auc_precision_recall": 0.99755943, "average_loss": 0.5502544,
               "global_step": 1, "label/mean": 0.6666667, "loss": 16.507631,
               "precision": 0.95238095, "prediction/mean": 0.54846954, "recall": 1.0}
    assert sorted(result) == sorted(tf_2_15)
    for key, value in tf_2_15.items():
        assert result[key] == pytest.approx(value, rel=1e-5), key
    prediction = next(binary.predict(_input_fn(features, None, repeat=False)))
    assert sorted(prediction) == ["all_class_ids", "all_classes", "class_ids", "classes",
                                  "logistic", "logits", "probabilities"]
    assert prediction["probabilities"].shape == (2,) and prediction["logistic"].shape == (1,)


def test_linear_regressor_one_step_gives_tfs_metrics(tmp_path):
    features, y = _small_data()
    est = tf.estimator.LinearRegressor(_columns(["a", "b"]), model_dir=str(tmp_path))
    labels = y.astype(np.float32)
    est.train(_input_fn(features, labels), steps=1)
    result = est.evaluate(_input_fn(features, labels, repeat=False))
    assert sorted(result) == ["average_loss", "global_step", "label/mean", "loss",
                              "prediction/mean"]
    np.testing.assert_allclose(
        [result["average_loss"], result["loss"], result["prediction/mean"]],
        [0.846488, 25.39464, 0.6091697], rtol=1e-5)                             # TF 2.15


def test_dnn_classifier_learns_an_iris_like_dataset(tmp_path):
    features, y, names = _iris_like()
    est = tf.estimator.DNNClassifier([10, 10], _columns(names), n_classes=3,
                                     model_dir=str(tmp_path),
                                     config=tf.estimator.RunConfig(tf_random_seed=1))
    est.train(_input_fn(features, y), steps=80)
    result = est.evaluate(_input_fn(features, y, repeat=False))
    assert sorted(result) == ["accuracy", "average_loss", "global_step", "loss"]
    assert result["global_step"] == 80
    assert result["accuracy"] >= 0.8                    # chance is 1/3
    assert result["loss"] == pytest.approx(45 * result["average_loss"], rel=1e-4)  # SUM
    names = set(est.get_variable_names())
    assert {"dnn/hiddenlayer_0/kernel", "dnn/hiddenlayer_0/bias", "dnn/hiddenlayer_1/kernel",
            "dnn/logits/kernel", "dnn/logits/bias"} <= names
    assert est.get_variable_value("dnn/hiddenlayer_0/kernel").shape == (4, 10)
    predictions = list(est.predict(_input_fn(features, None, repeat=False)))
    assert len(predictions) == 45
    p = predictions[0]
    assert sorted(p) == ["all_class_ids", "all_classes", "class_ids", "classes", "logits",
                         "probabilities"]
    assert p["probabilities"].shape == (3,) and p["class_ids"].dtype == np.int64
    assert p["classes"][0] == str(p["class_ids"][0]).encode()
    accuracy = np.mean([q["class_ids"][0] for q in predictions] == y)
    assert accuracy == pytest.approx(result["accuracy"])


def test_linear_classifier_learns_with_a_label_vocabulary(tmp_path):
    features, y, names = _iris_like()
    species = np.array(["setosa", "versicolor", "virginica"])
    est = tf.estimator.LinearClassifier(_columns(names), n_classes=3,
                                        label_vocabulary=list(species),
                                        model_dir=str(tmp_path))
    est.train(_input_fn(features, species[y]), steps=60)
    result = est.evaluate(_input_fn(features, species[y], repeat=False))
    assert result["accuracy"] >= 0.8                    # chance is 1/3
    np.testing.assert_allclose(                         # TF 2.15, after the same 60 steps
        [result["accuracy"], result["average_loss"], result["loss"]],
        [0.93333334, 0.3831278, 17.240751], rtol=1e-4)
    p = next(est.predict(_input_fn(features, None, repeat=False)))
    assert p["classes"][0] in (b"setosa", b"versicolor", b"virginica")
    assert list(p["all_classes"]) == [b"setosa", b"versicolor", b"virginica"]


def test_dnn_regressor_loss_goes_down(tmp_path):
    features, y, names = _iris_like()
    target = (features["petal_length"] * 0.5).astype(np.float32)
    est = tf.estimator.DNNRegressor([8], _columns(names[:2] + names[3:]),
                                    model_dir=str(tmp_path), optimizer="Adam",
                                    config=tf.estimator.RunConfig(tf_random_seed=3))
    est.train(_input_fn(features, target), steps=1)
    before = est.evaluate(_input_fn(features, target, repeat=False))["average_loss"]
    est.train(_input_fn(features, target), steps=60)
    after = est.evaluate(_input_fn(features, target, repeat=False))
    assert after["average_loss"] < before / 2
    assert sorted(after) == ["average_loss", "global_step", "label/mean", "loss",
                             "prediction/mean"]
    p = next(est.predict(_input_fn(features, None, repeat=False)))
    assert list(p) == ["predictions"] and p["predictions"].shape == (1,)


def test_wide_and_deep_classifier_trains_both_parts(tmp_path):
    features, y, names = _iris_like()
    labels = (y == 2).astype(np.int64)
    est = tf.estimator.DNNLinearCombinedClassifier(
        linear_feature_columns=_columns(names), dnn_feature_columns=_columns(names),
        dnn_hidden_units=[4], model_dir=str(tmp_path),
        config=tf.estimator.RunConfig(tf_random_seed=1))
    est.train(_input_fn(features, labels), steps=5)
    assert est.get_variable_value("global_step") == 5
    assert np.any(est.get_variable_value("linear/linear_model/petal_length/weights") != 0)
    assert "dnn/hiddenlayer_0/kernel/Adagrad" in est.get_variable_names()
    assert "auc" in est.evaluate(_input_fn(features, labels, repeat=False), steps=1)


def test_labels_out_of_range_and_bad_arguments(tmp_path):
    features, y = _small_data()
    est = tf.estimator.LinearClassifier(_columns(["a", "b"]), model_dir=str(tmp_path))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels must <= n_classes - 1"):
        est.train(_input_fn(features, y), steps=1)          # 3 classes, a binary head
    with pytest.raises(ValueError, match="Unsupported optimizer name: Foo"):
        tf.estimator.DNNClassifier([2], _columns(["a"]), optimizer="Foo",
                                   model_dir=str(tmp_path)).train(
            _input_fn(features, y), steps=1)
    with pytest.raises(ValueError, match="n_classes must be > 2"):
        tf.estimator.DNNClassifier([2], _columns(["a"]), n_classes=1)
    with pytest.raises(ValueError, match="feature_columns must not be empty"):
        tf.estimator.LinearRegressor([])
