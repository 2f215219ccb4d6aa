"""LinearClassifier and LinearRegressor -- mirrors TensorFlow 1.x's tensorflow_estimator/
python/estimator/canned/linear.py (the v1 classes).

A linear model of the feature columns (tf.feature_column.linear_model) in the variable scope
'linear': 'linear/linear_model/<column>/weights' and 'linear/linear_model/bias_weights'.
Categorical columns need no embedding: each id has its own row of weights, combined per
example by `sparse_combiner`. The optimizer is FTRL by default, with learning rate
min(0.2, 1 / sqrt(number of feature columns)) as TF's.
"""
import math

from ...ops import variable_scope
from ...feature_column.feature_column_input import linear_model
from ..estimator import Estimator
from . import head as head_lib
from . import optimizers
from .dnn import _check_features, _regularization_losses

__all__ = ["LinearClassifier", "LinearRegressor"]

_LEARNING_RATE = 0.2


def _compute_default_learning_rate(feature_columns):
    return min(_LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns)))


def _linear_logits(features, units, feature_columns, sparse_combiner):
    """The logits [batch, units] (call inside variable_scope 'linear')."""
    return linear_model(features, feature_columns, units=units,
                        sparse_combiner=sparse_combiner)


def _linear_model_fn(features, labels, mode, head, feature_columns, optimizer,
                     sparse_combiner="sum"):
    _check_features(features)
    optimizer = optimizers.get_optimizer_instance(
        optimizer, learning_rate=_compute_default_learning_rate(feature_columns))
    with variable_scope.variable_scope("linear"):
        logits = _linear_logits(features, head.logits_dimension, feature_columns,
                                sparse_combiner)
    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      optimizer=optimizer, logits=logits,
                                      regularization_losses=_regularization_losses())


def _check_columns(feature_columns):
    feature_columns = tuple(feature_columns or ())
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    return feature_columns


class LinearClassifier(Estimator):
    """A linear classifier: binary (sigmoid) for n_classes == 2, else softmax."""

    def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column=None,
                 label_vocabulary=None, optimizer="Ftrl", config=None, partitioner=None,
                 warm_start_from=None, loss_reduction=head_lib.Reduction.SUM,
                 sparse_combiner="sum"):
        feature_columns = _check_columns(feature_columns)
        head = head_lib._classification_head(n_classes, weight_column, label_vocabulary,
                                             loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _linear_model_fn(features, labels, mode, head, feature_columns, optimizer,
                                    sparse_combiner)
        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class LinearRegressor(Estimator):
    """A linear regressor: label_dimension outputs, squared-error loss."""

    def __init__(self, feature_columns, model_dir=None, label_dimension=1, weight_column=None,
                 optimizer="Ftrl", config=None, partitioner=None, warm_start_from=None,
                 loss_reduction=head_lib.Reduction.SUM, sparse_combiner="sum"):
        feature_columns = _check_columns(feature_columns)
        head = head_lib.regression_head(weight_column, label_dimension, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _linear_model_fn(features, labels, mode, head, feature_columns, optimizer,
                                    sparse_combiner)
        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)
