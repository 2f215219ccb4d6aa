"""DNNClassifier and DNNRegressor -- mirrors TensorFlow 1.x's tensorflow_estimator/python/
estimator/canned/dnn.py (the v1 classes, tf.estimator.DNNClassifier in TF 1.15).

A feed-forward network over the feature columns, built in the variable scope 'dnn':

    dnn/input_from_feature_columns/input_layer/...   the columns (input_layer)
    dnn/hiddenlayer_<i>/kernel, bias                 one dense layer per hidden_units entry
    dnn/logits/kernel, bias                          the logits (no activation)

with glorot_uniform kernels, `activation_fn` (relu) after each hidden layer and, when
training, dropout of rate `dropout` after it. A head (head.py) makes the loss, predictions and
metrics; the optimizer (Adagrad, learning rate 0.05, by default) minimizes the loss.
"""
from ...framework.graph import GraphKeys, get_collection
from ...layers import core as core_layers
from ...ops import init_ops, nn_ops, variable_scope
from ...feature_column.feature_column_input import input_layer
from ..estimator import Estimator
from ..model_fn import ModeKeys
from . import head as head_lib
from . import optimizers

__all__ = ["DNNClassifier", "DNNRegressor"]

_LEARNING_RATE = 0.05


def _dnn_logits(features, mode, units, hidden_units, feature_columns, activation_fn, dropout):
    """The logits [batch, units] of the network (call inside variable_scope 'dnn')."""
    with variable_scope.variable_scope("input_from_feature_columns"):
        net = input_layer(features, feature_columns)
    for layer_id, num_units in enumerate(hidden_units):
        net = core_layers.dense(net, units=num_units, activation=activation_fn,
                                kernel_initializer=init_ops.glorot_uniform_initializer(),
                                name=f"hiddenlayer_{layer_id}")
        if dropout is not None and mode == ModeKeys.TRAIN:
            net = core_layers.dropout(net, rate=dropout, training=True)
    return core_layers.dense(net, units=units, activation=None,
                             kernel_initializer=init_ops.glorot_uniform_initializer(),
                             name="logits")


def _check_features(features):
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")


def _regularization_losses():
    return list(get_collection(GraphKeys.REGULARIZATION_LOSSES))


def _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns,
                  optimizer="Adagrad", activation_fn=nn_ops.relu, dropout=None):
    _check_features(features)
    optimizer = optimizers.get_optimizer_instance(optimizer, learning_rate=_LEARNING_RATE)
    with variable_scope.variable_scope("dnn"):
        logits = _dnn_logits(features, mode, head.logits_dimension, hidden_units,
                             feature_columns, activation_fn, dropout)
    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      optimizer=optimizer, logits=logits,
                                      regularization_losses=_regularization_losses())


def _check_columns(feature_columns, hidden_units):
    feature_columns = tuple(feature_columns or ())
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    if not hidden_units:
        raise ValueError("hidden_units must not be empty.")
    return feature_columns


class DNNClassifier(Estimator):
    """A classifier for TF DNN models: n_classes == 2 gives a sigmoid (binary) head, more a
    softmax one; labels are ids in [0, n_classes) or strings of label_vocabulary."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
                 weight_column=None, label_vocabulary=None, optimizer="Adagrad",
                 activation_fn=nn_ops.relu, dropout=None, input_layer_partitioner=None,
                 config=None, warm_start_from=None, loss_reduction=head_lib.Reduction.SUM,
                 batch_norm=False):
        if batch_norm:
            raise NotImplementedError("DNNClassifier(batch_norm=True) is not supported by "
                                      "the sandbox.")
        feature_columns = _check_columns(feature_columns, hidden_units)
        head = head_lib._classification_head(n_classes, weight_column, label_vocabulary,
                                             loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns,
                                 optimizer, activation_fn, dropout)
        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)


class DNNRegressor(Estimator):
    """A regressor for TF DNN models: label_dimension outputs, squared-error loss."""

    def __init__(self, hidden_units, feature_columns, model_dir=None, label_dimension=1,
                 weight_column=None, optimizer="Adagrad", activation_fn=nn_ops.relu,
                 dropout=None, input_layer_partitioner=None, config=None, warm_start_from=None,
                 loss_reduction=head_lib.Reduction.SUM, batch_norm=False):
        if batch_norm:
            raise NotImplementedError("DNNRegressor(batch_norm=True) is not supported by "
                                      "the sandbox.")
        feature_columns = _check_columns(feature_columns, hidden_units)
        head = head_lib.regression_head(weight_column, label_dimension, loss_reduction)

        def _model_fn(features, labels, mode, config):
            return _dnn_model_fn(features, labels, mode, head, hidden_units, feature_columns,
                                 optimizer, activation_fn, dropout)
        super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config,
                         warm_start_from=warm_start_from)
