"""DNNLinearCombinedClassifier and DNNLinearCombinedRegressor ("wide & deep") -- mirrors
TensorFlow 1.x's tensorflow_estimator/python/estimator/canned/dnn_linear_combined.py.

The logits are the sum of a linear model of linear_feature_columns (scope 'linear', as
LinearClassifier's) and a DNN of dnn_feature_columns (scope 'dnn', as DNNClassifier's). Each
part has its own optimizer over its own variables -- FTRL with learning rate
min(0.005, 1 / sqrt(number of linear columns)) and Adagrad with 0.001 by default, as TF's --
and one training step runs both, then adds 1 to the global step.
"""
import math

from ...framework.graph import GraphKeys, control_dependencies, get_collection
from ...ops import control_flow_ops, nn_ops, state_ops, variable_scope
from ...train import training_util
from ..estimator import Estimator
from . import head as head_lib
from . import optimizers
from .dnn import _check_features, _dnn_logits, _regularization_losses
from .linear import _linear_logits

__all__ = ["DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor"]

_DNN_LEARNING_RATE = 0.001
_LINEAR_LEARNING_RATE = 0.005


def _linear_learning_rate(num_linear_feature_columns):
    return min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(num_linear_feature_columns))


def _dnn_linear_combined_model_fn(features, labels, mode, head, linear_feature_columns=None,
                                  linear_optimizer="Ftrl", dnn_feature_columns=None,
                                  dnn_optimizer="Adagrad", dnn_hidden_units=None,
                                  dnn_activation_fn=nn_ops.relu, dnn_dropout=None,
                                  linear_sparse_combiner="sum"):
    _check_features(features)
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    logits = []
    if dnn_feature_columns:
        if not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is "
                             f"specified. dnn_feature_columns: {dnn_feature_columns}")
        dnn_opt = optimizers.get_optimizer_instance(dnn_optimizer, _DNN_LEARNING_RATE)
        with variable_scope.variable_scope("dnn") as dnn_scope:
            logits.append(_dnn_logits(features, mode, head.logits_dimension, dnn_hidden_units,
                                      dnn_feature_columns, dnn_activation_fn, dnn_dropout))
    if linear_feature_columns:
        linear_opt = optimizers.get_optimizer_instance(
            linear_optimizer, _linear_learning_rate(len(linear_feature_columns)))
        with variable_scope.variable_scope("linear") as linear_scope:
            logits.append(_linear_logits(features, head.logits_dimension,
                                         linear_feature_columns, linear_sparse_combiner))
    total = logits[0] if len(logits) == 1 else logits[0] + logits[1]

    def _train_op_fn(loss):
        train_ops = []
        if dnn_feature_columns:
            train_ops.append(dnn_opt.minimize(loss, var_list=get_collection(
                GraphKeys.TRAINABLE_VARIABLES, scope=dnn_scope.name + "/")))
        if linear_feature_columns:
            train_ops.append(linear_opt.minimize(loss, var_list=get_collection(
                GraphKeys.TRAINABLE_VARIABLES, scope=linear_scope.name + "/")))
        train_op = control_flow_ops.group(*train_ops)
        with control_dependencies([train_op]):
            return state_ops.assign_add(training_util.get_global_step(), 1).op

    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      train_op_fn=_train_op_fn, logits=total,
                                      regularization_losses=_regularization_losses())


def _model_fn_of(head, linear_feature_columns, linear_optimizer, dnn_feature_columns,
                 dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                 linear_sparse_combiner):
    linear_feature_columns = list(linear_feature_columns or [])
    dnn_feature_columns = list(dnn_feature_columns or [])
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")

    def _model_fn(features, labels, mode, config):
        return _dnn_linear_combined_model_fn(
            features, labels, mode, head, linear_feature_columns, linear_optimizer,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
            dnn_dropout, linear_sparse_combiner)
    return _model_fn


class DNNLinearCombinedClassifier(Estimator):
    """A wide (linear) and deep (DNN) classifier; binary for n_classes == 2."""

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=nn_ops.relu, dnn_dropout=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, input_layer_partitioner=None,
                 config=None, warm_start_from=None, loss_reduction=head_lib.Reduction.SUM,
                 batch_norm=False, linear_sparse_combiner="sum"):
        head = head_lib._classification_head(n_classes, weight_column, label_vocabulary,
                                             loss_reduction)
        super().__init__(model_fn=_model_fn_of(
            head, linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
            dnn_hidden_units, dnn_activation_fn, dnn_dropout, linear_sparse_combiner),
            model_dir=model_dir, config=config, warm_start_from=warm_start_from)


class DNNLinearCombinedRegressor(Estimator):
    """A wide (linear) and deep (DNN) regressor."""

    def __init__(self, model_dir=None, linear_feature_columns=None, linear_optimizer="Ftrl",
                 dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
                 dnn_activation_fn=nn_ops.relu, dnn_dropout=None, label_dimension=1,
                 weight_column=None, input_layer_partitioner=None, config=None,
                 warm_start_from=None, loss_reduction=head_lib.Reduction.SUM,
                 batch_norm=False, linear_sparse_combiner="sum"):
        head = head_lib.regression_head(weight_column, label_dimension, loss_reduction)
        super().__init__(model_fn=_model_fn_of(
            head, linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
            dnn_hidden_units, dnn_activation_fn, dnn_dropout, linear_sparse_combiner),
            model_dir=model_dir, config=config, warm_start_from=warm_start_from)
