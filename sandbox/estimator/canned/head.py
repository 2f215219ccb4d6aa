"""Heads of the canned estimators -- mirrors TensorFlow 1.x's tensorflow_estimator/python/
estimator/canned/head.py (the v1 heads the v1 DNNClassifier, LinearRegressor ... use).

A head turns a model's logits into everything the Estimator runs: the loss, the predictions,
the evaluation metrics and (with the optimizer's train_op_fn) the train_op:

    multi-class  softmax cross entropy; predictions logits, probabilities, class_ids,
                 classes, all_class_ids, all_classes; metrics accuracy, average_loss
    binary       sigmoid cross entropy; also 'logistic'; metrics accuracy,
                 accuracy_baseline, auc, auc_precision_recall, average_loss, label/mean,
                 precision, prediction/mean, recall
    regression   squared error; predictions 'predictions'; metrics average_loss, label/mean,
                 prediction/mean

In PREDICT mode a head also gives TF's export_outputs (the signatures of
Estimator.export_saved_model): classifiers a ClassificationOutput (scores: probabilities,
classes: every class name) under 'serving_default' and 'classification', binary ones also a
RegressionOutput of 'logistic' under 'regression'; regressors a RegressionOutput of the
predictions under 'serving_default' and 'regression'; all a PredictOutput of every prediction
under 'predict'.

The training loss is the example losses (times the weight_column's weights) reduced by
`loss_reduction`: tf.losses.Reduction.SUM by default, as TF-1's v1 canned estimators do (the
V2 ones default to SUM_OVER_BATCH_SIZE); 'average_loss' is always the weighted mean.
evaluate()'s 'loss' is the mean of the per-batch training losses (the Estimator adds it).
"""
from ...framework import dtypes
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...losses import losses_impl
from ...metrics import metrics_impl
from ...framework.graph import control_dependencies, name_scope
from ...ops import (array_ops, basic_math_ops, check_ops, control_flow_ops, math_ops, nn_ops,
                    reduction_ops, slicing_ops, string_ops)
from ...feature_column.feature_column import _vocab_lookup
from ...ops.constant_op import constant
from ...train import training_util
from ..export import export_output
from ..model_fn import EstimatorSpec, ModeKeys

__all__ = ["multi_class_head", "binary_classification_head", "regression_head"]

Reduction = losses_impl.Reduction

_DEFAULT_SERVING_KEY = "serving_default"      # signature_constants.DEFAULT_SERVING_...
_CLASSIFY_SERVING_KEY = "classification"
_REGRESS_SERVING_KEY = "regression"
_PREDICT_SERVING_KEY = "predict"


def _check_features(features):
    if not isinstance(features, dict):
        raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")
    return features


def _get_weights(features, weight_column):
    if weight_column is None:
        return 1.0
    key = weight_column if isinstance(weight_column, str) else weight_column.key
    if key not in features:
        raise ValueError(f"Weight column {key} is not in features dictionary.")
    weights = convert_to_tensor(features[key])
    if isinstance(weights, SparseTensor):
        raise ValueError(f"Weight column {key} must be a dense Tensor.")
    return array_ops.reshape(math_ops.cast(weights, dtypes.float32), [-1, 1])


def _labels_2d(labels, expected_dim=1):
    """Labels as a Tensor [batch, expected_dim] (a [batch] vector is expanded)."""
    if labels is None:
        raise ValueError("You must provide a labels Tensor. Given: None. Suggested "
                         "troubleshooting steps: Check that your data contain your label "
                         "feature. Check that your input_fn properly parses and returns labels.")
    if isinstance(labels, SparseTensor):
        raise ValueError(f"SparseTensor labels are not supported. labels: {labels}")
    labels = convert_to_tensor(labels)
    if labels.get_shape().ndims == 1:
        labels = array_ops.expand_dims(labels, -1)
    dim = labels.get_shape()[-1].value if labels.get_shape().ndims else None
    if dim is not None and dim != expected_dim:
        raise ValueError(f"Mismatched label shape. Expected labels dimension={expected_dim}.  "
                         f"Received {dim}. Suggested Fix: If your classifier expects one-hot "
                         "encoding label, check your n_classes argument to the estimator and/or "
                         "the shape of your label. Otherwise, check the shape of your label.")
    return labels


def _class_ids(labels, n_classes, label_vocabulary):
    """Integer labels, or string labels mapped through label_vocabulary, as int64 ids."""
    if label_vocabulary is not None:
        if labels.dtype != dtypes.string:
            raise ValueError("Labels dtype should be string if there is a vocabulary. "
                             f"Given: {labels.dtype}")
        flat = array_ops.reshape(labels, [-1])
        ids = array_ops.reshape(_vocab_lookup(flat, label_vocabulary, -1, 0),
                                array_ops.shape(labels))
        with control_dependencies([check_ops.assert_non_negative(
                ids, message="Labels must be in label_vocabulary")]):
            return control_flow_ops.identity(ids)
    if labels.dtype == dtypes.string:
        raise ValueError("Labels dtype should be integer. Instead got string.")
    if labels.dtype.is_floating:
        raise ValueError(f"Labels dtype should be integer. Instead got {labels.dtype}.")
    return _assert_range(math_ops.cast(labels, dtypes.int64), n_classes)


def _assert_range(labels, n_classes):
    """labels, checked when they are computed: in [0, n_classes) (TF's _assert_range)."""
    with name_scope(None, "assert_range", (labels,)):
        less = check_ops.assert_less_equal(
            labels, convert_to_tensor(n_classes - 1, dtype=labels.dtype),
            message="Labels must <= n_classes - 1")
        non_negative = check_ops.assert_non_negative(labels, message="Labels must >= 0")
        with control_dependencies((less, non_negative)):
            return control_flow_ops.identity(labels)


def _class_strings(class_ids, label_vocabulary):
    if label_vocabulary is None:
        return string_ops.as_string(class_ids)
    from ...ops.indexing_ops import gather
    from ...ops.constant_op import constant
    return gather(constant(list(label_vocabulary)), class_ids)


class _Head:
    """What every head does with its logits; the subclasses say the loss and predictions."""

    def __init__(self, logits_dimension, weight_column=None, loss_reduction=Reduction.SUM,
                 name=None):
        if loss_reduction not in (Reduction.SUM, Reduction.SUM_OVER_BATCH_SIZE, Reduction.MEAN,
                                  Reduction.SUM_BY_NONZERO_WEIGHTS):
            raise ValueError(f"Invalid loss_reduction: {loss_reduction}")
        self.logits_dimension = logits_dimension
        self._weight_column = weight_column
        self._loss_reduction = loss_reduction
        self.name = name

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              train_op_fn=None, regularization_losses=None):
        features = _check_features(features)
        with name_scope(self.name, "head"):
            logits = math_ops.cast(convert_to_tensor(logits), dtypes.float32)
            logits = array_ops.reshape(logits, [-1, self.logits_dimension])
            predictions = self._predictions(logits)
            if mode == ModeKeys.PREDICT:
                return EstimatorSpec(mode, predictions=predictions,
                                     export_outputs=self._export_outputs(predictions))
            weights = _get_weights(features, self._weight_column)
            labels, unweighted = self._labels_and_loss(labels, logits)
            training_loss = losses_impl.compute_weighted_loss(
                unweighted, weights=weights, reduction=self._loss_reduction)
            if regularization_losses:
                from ...ops.math_ops import add_n
                training_loss = add_n([training_loss] + list(regularization_losses))
            if mode == ModeKeys.EVAL:
                with name_scope(None, "metrics"):
                    metrics = {"average_loss": metrics_impl.mean(unweighted, weights=weights)}
                    metrics.update(self._metrics(labels, predictions, weights))
                return EstimatorSpec(mode, predictions=predictions, loss=training_loss,
                                     eval_metric_ops=metrics)
            if optimizer is not None:
                if train_op_fn is not None:
                    raise ValueError("train_op_fn and optimizer cannot both be set.")
                train_op = optimizer.minimize(training_loss,
                                              global_step=training_util.get_global_step())
            elif train_op_fn is not None:
                train_op = train_op_fn(training_loss)
            else:
                raise ValueError("train_op_fn and optimizer cannot both be None.")
            return EstimatorSpec(mode, predictions=predictions, loss=training_loss,
                                 train_op=train_op)


class _MultiClassHead(_Head):
    """Softmax cross entropy over n_classes (> 2)."""

    def __init__(self, n_classes, weight_column=None, label_vocabulary=None,
                 loss_reduction=Reduction.SUM, name=None):
        if n_classes is None or n_classes <= 2:
            raise ValueError(f"n_classes must be > 2: {n_classes}")
        if label_vocabulary is not None and len(label_vocabulary) != n_classes:
            raise ValueError(f"label_vocabulary must have n_classes ({n_classes}) entries. "
                             f"Given: {label_vocabulary}")
        super().__init__(n_classes, weight_column, loss_reduction, name)
        self._n_classes = n_classes
        self._label_vocabulary = label_vocabulary

    def _all_classes(self, logits):
        batch = array_ops.shape(logits)[0]
        ids = array_ops.expand_dims(array_ops.range(0, self._n_classes), 0)
        return slicing_ops.tile(ids, array_ops.stack([batch, 1]))

    def _classification_output(self, scores):
        """TF's _classification_output: every class name, a row per example."""
        batch = array_ops.shape(scores)[0]
        if self._label_vocabulary:
            class_list = constant(list(self._label_vocabulary))
        else:
            class_list = string_ops.as_string(array_ops.range(0, self._n_classes))
        classes = slicing_ops.tile(array_ops.expand_dims(class_list, 0),
                                   array_ops.stack([batch, 1]))
        return export_output.ClassificationOutput(scores=scores, classes=classes)

    def _export_outputs(self, predictions):
        classifier_output = self._classification_output(predictions["probabilities"])
        return {_DEFAULT_SERVING_KEY: classifier_output,
                _CLASSIFY_SERVING_KEY: classifier_output,
                _PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _predictions(self, logits):
        with name_scope(None, "predictions"):
            class_ids = array_ops.expand_dims(reduction_ops.argmax(logits, 1), -1)
            all_ids = self._all_classes(logits)
            return {"logits": logits, "probabilities": nn_ops.softmax(logits),
                    "class_ids": class_ids,
                    "classes": _class_strings(class_ids, self._label_vocabulary),
                    "all_class_ids": all_ids,
                    "all_classes": _class_strings(all_ids, self._label_vocabulary)}

    def _labels_and_loss(self, labels, logits):
        labels = _class_ids(_labels_2d(labels), self._n_classes, self._label_vocabulary)
        unweighted = losses_impl.sparse_softmax_cross_entropy(
            labels, logits, reduction=Reduction.NONE, loss_collection=None)
        return labels, array_ops.expand_dims(unweighted, -1) \
            if unweighted.get_shape().ndims == 1 else unweighted

    def _metrics(self, labels, predictions, weights):
        return {"accuracy": metrics_impl.accuracy(labels, predictions["class_ids"],
                                                  weights=weights, name="accuracy")}


class _BinaryHead(_MultiClassHead):
    """Sigmoid cross entropy of one logit; class 1 when the logit is > 0."""

    def __init__(self, weight_column=None, thresholds=None, label_vocabulary=None,
                 loss_reduction=Reduction.SUM, name=None):
        if label_vocabulary is not None and len(label_vocabulary) != 2:
            raise ValueError(f"label_vocabulary must have 2 entries. Given: {label_vocabulary}")
        _Head.__init__(self, 1, weight_column, loss_reduction, name)
        self._n_classes = 2
        self._label_vocabulary = label_vocabulary

    def _export_outputs(self, predictions):
        classifier_output = self._classification_output(predictions["probabilities"])
        return {_DEFAULT_SERVING_KEY: classifier_output,
                _CLASSIFY_SERVING_KEY: classifier_output,
                _REGRESS_SERVING_KEY: export_output.RegressionOutput(
                    value=predictions["logistic"]),
                _PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _predictions(self, logits):
        with name_scope(None, "predictions"):
            two_class = slicing_ops.concat([array_ops.zeros_like(logits), logits], 1)
            class_ids = array_ops.expand_dims(reduction_ops.argmax(two_class, 1), -1)
            all_ids = self._all_classes(logits)
            return {"logits": logits, "logistic": basic_math_ops.sigmoid(logits),
                    "probabilities": nn_ops.softmax(two_class), "class_ids": class_ids,
                    "classes": _class_strings(class_ids, self._label_vocabulary),
                    "all_class_ids": all_ids,
                    "all_classes": _class_strings(all_ids, self._label_vocabulary)}

    def _labels_and_loss(self, labels, logits):
        labels = _class_ids(_labels_2d(labels), 2, self._label_vocabulary)
        unweighted = losses_impl.sigmoid_cross_entropy(
            math_ops.cast(labels, dtypes.float32), logits, reduction=Reduction.NONE,
            loss_collection=None)
        return labels, unweighted

    def _metrics(self, labels, predictions, weights):
        float_labels = math_ops.cast(labels, dtypes.float32)
        label_mean, label_update = metrics_impl.mean(float_labels, weights=weights,
                                                     name="label/mean")
        return {
            "accuracy": metrics_impl.accuracy(labels, predictions["class_ids"],
                                              weights=weights, name="accuracy"),
            "prediction/mean": metrics_impl.mean(predictions["logistic"], weights=weights,
                                                 name="prediction/mean"),
            "label/mean": (label_mean, label_update),
            "accuracy_baseline": (basic_math_ops.maximum(label_mean, 1 - label_mean),
                                  basic_math_ops.maximum(label_update, 1 - label_update)),
            "auc": metrics_impl.auc(float_labels, predictions["logistic"], weights=weights,
                                    curve="ROC", name="auc"),
            "auc_precision_recall": metrics_impl.auc(float_labels, predictions["logistic"],
                                                     weights=weights, curve="PR",
                                                     name="auc_precision_recall"),
            "precision": metrics_impl.precision(labels, predictions["class_ids"],
                                                weights=weights, name="precision"),
            "recall": metrics_impl.recall(labels, predictions["class_ids"], weights=weights,
                                          name="recall"),
        }


class _RegressionHead(_Head):
    """Squared error of label_dimension outputs."""

    def __init__(self, weight_column=None, label_dimension=1, loss_reduction=Reduction.SUM,
                 name=None):
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        super().__init__(label_dimension, weight_column, loss_reduction, name)

    def _predictions(self, logits):
        return {"predictions": logits}

    def _export_outputs(self, predictions):
        regression_output = export_output.RegressionOutput(value=predictions["predictions"])
        return {_DEFAULT_SERVING_KEY: regression_output,
                _REGRESS_SERVING_KEY: regression_output,
                _PREDICT_SERVING_KEY: export_output.PredictOutput(predictions)}

    def _labels_and_loss(self, labels, logits):
        labels = math_ops.cast(_labels_2d(labels, self.logits_dimension), dtypes.float32)
        unweighted = losses_impl.mean_squared_error(labels, logits, reduction=Reduction.NONE,
                                                    loss_collection=None)
        return labels, unweighted

    def _metrics(self, labels, predictions, weights):
        return {"prediction/mean": metrics_impl.mean(predictions["predictions"], weights=weights,
                                                     name="prediction/mean"),
                "label/mean": metrics_impl.mean(labels, weights=weights, name="label/mean")}


def multi_class_head(n_classes, weight_column=None, label_vocabulary=None,
                     loss_reduction=Reduction.SUM, name=None):
    return _MultiClassHead(n_classes, weight_column, label_vocabulary, loss_reduction, name)


def binary_classification_head(weight_column=None, thresholds=None, label_vocabulary=None,
                               loss_reduction=Reduction.SUM, name=None):
    return _BinaryHead(weight_column, thresholds, label_vocabulary, loss_reduction, name)


def regression_head(weight_column=None, label_dimension=1, loss_reduction=Reduction.SUM,
                    name=None):
    return _RegressionHead(weight_column, label_dimension, loss_reduction, name)


def _classification_head(n_classes, weight_column, label_vocabulary, loss_reduction):
    """TF's choice in the classifiers: binary for n_classes == 2, else multi-class."""
    if n_classes == 2:
        return binary_classification_head(weight_column, label_vocabulary=label_vocabulary,
                                          loss_reduction=loss_reduction)
    return multi_class_head(n_classes, weight_column, label_vocabulary, loss_reduction)

