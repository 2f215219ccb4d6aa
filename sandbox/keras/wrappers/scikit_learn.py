"""keras.wrappers.scikit_learn -- mirrors TensorFlow 1.15's python/keras/wrappers/scikit_learn.py:
a Keras model behind scikit-learn's estimator interface (fit, predict, score, get_params,
set_params), so that GridSearchCV or cross_val_score can tune and score it.

    def build(units=8):
        model = keras.Sequential([keras.layers.Dense(units, activation='relu', input_shape=(4,)),
                                  keras.layers.Dense(3, activation='softmax')])
        model.compile('adam', 'sparse_categorical_crossentropy', metrics=['accuracy'])
        return model

    clf = KerasClassifier(build, units=16, epochs=5, batch_size=8, verbose=0)
    clf.fit(x, y); clf.predict(x); clf.score(x, y)    # score: the accuracy

The keyword arguments (`sk_params`) go where they are accepted: to build_fn, and to the
model's fit, predict and evaluate (an argument none of them takes is TF's ValueError "... is
not a legal parameter"). Each fit builds a new model with build_fn. KerasClassifier takes
labels of any kind (strings too: `classes_` maps them to 0..n-1) and one-hot targets;
KerasRegressor's score is minus the loss (greater is better, as scikit-learn wants).
scikit-learn itself is not needed; when it is installed, the wrappers subclass its
BaseEstimator and mixins (recent scikit-learn asks its estimators for tags).
"""
import copy
import inspect
import types

import numpy as np

from ..engine.sequential import Sequential
from ..utils import to_categorical

try:      # scikit-learn >= 1.6 asks an estimator for its tags, which its base classes give
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
except ImportError:             # (TF 1.15's wrappers predate that: they subclass object)
    class BaseEstimator:
        """(scikit-learn is not installed)"""

    class ClassifierMixin:
        """(scikit-learn is not installed)"""

    class RegressorMixin:
        """(scikit-learn is not installed)"""

__all__ = ["KerasClassifier", "KerasRegressor"]


def _takes(fn, name):
    """True if fn accepts the keyword argument `name` (TF's has_arg)."""
    parameters = inspect.signature(fn).parameters
    return name in parameters and parameters[name].kind in (
        inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


class BaseWrapper(BaseEstimator):
    """What both wrappers share: the parameters, and fit (build a model, then fit it)."""

    def __init__(self, build_fn=None, **sk_params):
        self.build_fn = build_fn
        self.sk_params = sk_params
        self.check_params(sk_params)

    def _build_function(self):
        if self.build_fn is None:                   # a subclass that defines __call__
            return self.__call__
        if isinstance(self.build_fn, (types.FunctionType, types.MethodType)):
            return self.build_fn
        return self.build_fn.__call__               # an object with __call__

    def check_params(self, params):
        """Raises ValueError for a parameter that neither build_fn nor fit, predict,
        predict_classes or evaluate accepts."""
        legal = [Sequential.fit, Sequential.predict, Sequential.predict_classes,
                 Sequential.evaluate, self._build_function()]
        for name in params:
            if name != "nb_epoch" and not any(_takes(fn, name) for fn in legal):
                raise ValueError(f"{name} is not a legal parameter")

    def get_params(self, **params):
        """The parameters, for scikit-learn (a copy, build_fn included)."""
        return {**copy.deepcopy(self.sk_params), "build_fn": self.build_fn}

    def set_params(self, **params):
        self.check_params(params)
        self.sk_params.update(params)
        return self

    def filter_sk_params(self, fn, override=None):
        """The sk_params that `fn` accepts, then `override`."""
        taken = {name: value for name, value in self.sk_params.items() if _takes(fn, name)}
        taken.update(override or {})
        return taken

    def _one_hot_if_needed(self, y):
        loss = getattr(self.model.loss, "__name__", self.model.loss)
        if loss == "categorical_crossentropy" and len(y.shape) != 2:
            return to_categorical(y)
        return y

    def fit(self, x, y, **kwargs):
        """Builds a new model with build_fn, then fits it; returns its History."""
        build = self._build_function()
        self.model = build(**self.filter_sk_params(build))
        y = self._one_hot_if_needed(np.asarray(y))
        fit_args = copy.deepcopy(self.filter_sk_params(Sequential.fit))
        fit_args.update(kwargs)
        return self.model.fit(x, y, **fit_args)


class KerasClassifier(ClassifierMixin, BaseWrapper):
    """A classifier: predict gives labels of the kind fit was given, score the accuracy."""

    def fit(self, x, y, **kwargs):
        y = np.array(y)
        if len(y.shape) == 2 and y.shape[1] > 1:          # one-hot rows
            self.classes_ = np.arange(y.shape[1])
        elif (len(y.shape) == 2 and y.shape[1] == 1) or len(y.shape) == 1:
            self.classes_ = np.unique(y)                  # any labels -> 0 .. n-1
            y = np.searchsorted(self.classes_, y)
        else:
            raise ValueError("Invalid shape for y: " + str(y.shape))
        self.n_classes_ = len(self.classes_)
        return super().fit(x, y, **kwargs)

    def predict(self, x, **kwargs):
        kwargs = self.filter_sk_params(Sequential.predict_classes, kwargs)
        return self.classes_[self.model.predict_classes(x, **kwargs)]

    def predict_proba(self, x, **kwargs):
        """One column per class (two for a single sigmoid unit: P(class 0), P(class 1))."""
        kwargs = self.filter_sk_params(Sequential.predict_proba, kwargs)
        probs = self.model.predict_proba(x, **kwargs)
        if probs.shape[1] == 1:
            probs = np.hstack([1 - probs, probs])
        return probs

    def score(self, x, y, **kwargs):
        """The model's accuracy on (x, y): compile it with metrics=['accuracy']."""
        y = self._one_hot_if_needed(np.searchsorted(self.classes_, y))
        kwargs = self.filter_sk_params(Sequential.evaluate, kwargs)
        outputs = self.model.evaluate(x, y, **kwargs)
        outputs = outputs if isinstance(outputs, list) else [outputs]
        for name, output in zip(self.model.metrics_names, outputs):
            if name in ("accuracy", "acc"):
                return output
        raise ValueError("The model is not configured to compute accuracy. You should pass "
                         "`metrics=[\"accuracy\"]` to the `model.compile()` method.")


class KerasRegressor(RegressorMixin, BaseWrapper):
    """A regressor: predict gives the outputs (squeezed), score minus the loss."""

    def predict(self, x, **kwargs):
        kwargs = self.filter_sk_params(Sequential.predict, kwargs)
        return np.squeeze(self.model.predict(x, **kwargs))

    def score(self, x, y, **kwargs):
        kwargs = self.filter_sk_params(Sequential.evaluate, kwargs)
        loss = self.model.evaluate(x, y, **kwargs)
        return -loss[0] if isinstance(loss, list) else -loss
