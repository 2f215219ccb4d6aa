"""keras.wrappers.scikit_learn (sandbox/keras/wrappers/scikit_learn.py): a Keras model behind
scikit-learn's estimator interface. TF 2.15 no longer has these wrappers, so the checks are of
their contract (TF 1.15's code): labels of any kind in and out, score = the model's accuracy
(minus its loss for a regressor), parameters routed to build_fn / fit / predict / evaluate,
and scikit-learn's own clone and cross_val_score driving it."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor
from tests.train.keras_fixture import fresh_keras  # noqa: F401 (the fixture)

keras = tf.keras
pytestmark = pytest.mark.usefixtures("fresh_keras")

X = np.sin(np.arange(48) * 0.9).reshape(16, 3).astype("float32")
LABELS = np.array(["cat", "dog", "emu", "dog"] * 4)


def build(units=4, loss="sparse_categorical_crossentropy"):
    model = keras.Sequential([keras.layers.Dense(units, activation="tanh", input_shape=(3,)),
                              keras.layers.Dense(3, activation="softmax")])
    model.compile(keras.optimizers.SGD(0.1), loss, metrics=["accuracy"])
    return model


def test_classifier_takes_any_labels_and_scores_with_the_models_accuracy():
    clf = KerasClassifier(build, units=5, epochs=2, batch_size=4, verbose=0, shuffle=False)
    history = clf.fit(X, LABELS)
    assert len(history.history["loss"]) == 2                   # epochs reached fit
    assert clf.model.layers[0].units == 5                      # units reached build_fn
    assert list(clf.classes_) == ["cat", "dog", "emu"] and clf.n_classes_ == 3
    predicted = clf.predict(X)
    model_classes = clf.model.predict(X).argmax(-1)
    assert list(predicted) == list(clf.classes_[model_classes])
    proba = clf.predict_proba(X)
    assert proba.shape == (16, 3) and np.allclose(proba.sum(1), 1, atol=1e-5)
    accuracy = clf.model.evaluate(X, np.searchsorted(clf.classes_, LABELS), verbose=0)[1]
    assert clf.score(X, LABELS, verbose=0) == pytest.approx(accuracy)
    assert clf.score(X, LABELS, verbose=0) == pytest.approx(np.mean(predicted == LABELS))


def test_categorical_crossentropy_gets_one_hot_targets_and_a_sigmoid_two_columns():
    clf = KerasClassifier(build, loss="categorical_crossentropy", epochs=1, verbose=0)
    clf.fit(X, LABELS)                                         # labels -> one-hot for fit
    assert 0.0 <= clf.score(X, LABELS, verbose=0) <= 1.0

    def binary():
        model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid",
                                                     input_shape=(3,))])
        model.compile("sgd", "binary_crossentropy", metrics=["accuracy"])
        return model
    clf = KerasClassifier(binary, epochs=1, verbose=0)
    clf.fit(X, LABELS == "dog")
    proba = clf.predict_proba(X)
    assert proba.shape == (16, 2) and np.allclose(proba.sum(1), 1)
    p1 = clf.model.predict(X)[:, 0]
    assert np.allclose(proba[:, 1], p1)
    assert list(clf.predict(X)) == list(p1 > 0.5)


def test_parameters_are_checked_copied_and_set():
    with pytest.raises(ValueError, match="no_such is not a legal parameter"):
        KerasClassifier(build, no_such=1)
    clf = KerasClassifier(build, units=3, epochs=1)
    params = clf.get_params()
    assert params == {"units": 3, "epochs": 1, "build_fn": build}
    params["units"] = 99
    assert clf.sk_params["units"] == 3                          # a copy
    assert clf.set_params(units=7) is clf and clf.sk_params["units"] == 7
    with pytest.raises(ValueError, match="nope is not a legal parameter"):
        clf.set_params(nope=2)


def test_scikit_learn_clones_and_cross_validates_it():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone
    from sklearn.model_selection import cross_val_score
    clf = KerasClassifier(build, units=4, epochs=1, batch_size=8, verbose=0)
    assert clone(clf).get_params()["units"] == 4
    scores = cross_val_score(clf, X, LABELS, cv=2)
    assert scores.shape == (2,) and all(0.0 <= s <= 1.0 for s in scores)
    assert sklearn.__version__


def test_regressor_predicts_squeezed_and_scores_minus_the_loss():
    def build_regressor():
        model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
        model.compile("sgd", "mse")
        return model
    y = X.sum(1)
    reg = KerasRegressor(build_regressor, epochs=2, verbose=0)
    reg.fit(X, y)
    assert reg.predict(X).shape == (16,)
    mse = float(np.mean((reg.model.predict(X)[:, 0] - y) ** 2))
    assert reg.score(X, y, verbose=0) == pytest.approx(-mse, rel=1e-5)
