"""What a model function returns -- mirrors TensorFlow's model_fn.py and mode_keys.py
(tensorflow_estimator/python/estimator/model_fn.py, mode_keys.py).

An Estimator never builds a model itself. It calls the program's *model function*

    def model_fn(features, labels, mode, params, config):
        ...
        return tf.estimator.EstimatorSpec(mode, predictions=..., loss=..., train_op=...)

once per graph it builds -- one graph to train, one to evaluate, one to predict -- and `mode`
(a ModeKeys value) says which. The EstimatorSpec names the tensors the Estimator runs: the
`train_op` and `loss` to train, the `loss` and `eval_metric_ops` to evaluate, the
`predictions` to predict. A model_fn may fill every field whatever the mode; the Estimator
uses only those it needs, and the spec checks, as TF does, that those are there:

    TRAIN    loss (a scalar, or shape [1], which is reshaped to a scalar) and train_op
    EVAL     loss; eval_metric_ops {name: (value_tensor, update_op)} optional
    PREDICT  predictions (a tensor or a dict of tensors); export_outputs, what
             Estimator.export_saved_model writes as signatures, a dict {key: ExportOutput}
             (tf.estimator.export.PredictOutput, ClassificationOutput, RegressionOutput):
             None gives {'serving_default': PredictOutput(predictions)}, a single entry is
             also put under 'serving_default', several must include 'serving_default'

Every tensor must come from the graph the Estimator is building (the default graph during
the call): a tensor kept from an earlier call belongs to a graph that is gone.
"""
import collections

from ..framework.graph import get_default_graph
from ..framework.operation import Operation
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..ops.variables import Variable
from ..train.monitored_session import Scaffold
from ..train.session_run_hook import SessionRunHook
from .export.export_lib import get_export_outputs

__all__ = ["ModeKeys", "EstimatorSpec"]

LOSS_METRIC_KEY = "loss"                    # the metric every evaluation reports
AVERAGE_LOSS_METRIC_KEY = "average_loss"


class ModeKeys:
    """The three modes a model_fn is called in (the strings are TF's)."""
    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"


_MODES = (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT)

_NOT_FROM_THIS_GRAPH = (
    '{0} with "{1}" must be from the default graph. Possible causes of this error include: '
    "\n\n1) {0} was created outside the context of the default graph.\n\n2) The object passed "
    'through to EstimatorSpec was not created in the most recent call to "model_fn".')


def _check_in_graph(x, what, name):
    if x.graph is not get_default_graph():
        raise ValueError(_NOT_FROM_THIS_GRAPH.format(what, name))


def _check_is_tensor(x, what):
    if isinstance(x, Variable):
        x = x.value()
    if not isinstance(x, Tensor):
        raise TypeError(f"{what} must be Tensor, given: {x}")
    return x


def _validate_train_op(train_op, mode):
    if train_op is None:
        if mode == ModeKeys.TRAIN:
            raise ValueError("Missing train_op.")
        return None
    if isinstance(train_op, Variable):
        train_op = train_op.op
    if not isinstance(train_op, (Tensor, Operation)):
        raise TypeError(f"train_op must be Operation or Tensor, given: {train_op}")
    _check_in_graph(train_op, "train_op", train_op.name)
    return train_op


def _validate_loss(loss, mode):
    if loss is None:
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError("Missing loss.")
        return None
    loss = _check_is_tensor(loss, "loss")
    shape = loss.get_shape()
    if shape.num_elements() not in (None, 1):
        raise ValueError(f"Loss must be scalar, given: {loss}")
    if not shape.is_compatible_with(TensorShape([])):
        from ..ops.array_ops import reshape
        loss = reshape(loss, [])
    _check_in_graph(loss, "loss", loss.name)
    return loss


def _validate_predictions(predictions, mode):
    if predictions is None:
        if mode == ModeKeys.PREDICT:
            raise ValueError("Missing predictions.")
        return {}
    if isinstance(predictions, dict):
        predictions = {k: _check_is_tensor(v, f"predictions[{k}]")
                       for k, v in predictions.items()}
        for k, v in predictions.items():
            _check_in_graph(v, "prediction values", f"{k}: {v.name}")
        return predictions
    predictions = _check_is_tensor(predictions, "predictions")
    _check_in_graph(predictions, "prediction values", predictions.name)
    return predictions


def _validate_hooks(hooks):
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook}")
    return hooks


def _validate_eval_metric_ops(eval_metric_ops):
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops}")
    for key, value in eval_metric_ops.items():
        if not isinstance(value, tuple) or len(value) != 2:
            raise TypeError("Values of eval_metric_ops must be (metric_value, update_op) "
                            f"tuples, given: {value} for key: {key}")
        for part in value:
            if isinstance(part, (Tensor, Operation)):
                _check_in_graph(part, "eval_metric_ops", f"{key}: {part.name}")
    return dict(eval_metric_ops)


class EstimatorSpec(collections.namedtuple("EstimatorSpec", [
        "mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
        "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks",
        "prediction_hooks"])):
    """The ops and objects a model_fn returns; checked as described in the module docstring.

    `export_outputs` is checked (and defaulted) in PREDICT mode only, as in TF;
    `scaffold` defaults to a new tf.train.Scaffold."""

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                export_outputs=None, training_chief_hooks=None, training_hooks=None,
                scaffold=None, evaluation_hooks=None, prediction_hooks=None):
        if mode not in _MODES:
            raise ValueError(f"mode must be one of tf.estimator.ModeKeys.TRAIN ('train'), "
                             f"EVAL ('eval') or PREDICT ('infer'); given: {mode!r}")
        train_op = _validate_train_op(train_op, mode)
        loss = _validate_loss(loss, mode)
        predictions = _validate_predictions(predictions, mode)
        if mode == ModeKeys.PREDICT:       # TF's _validate_estimator_spec_export_outputs
            export_outputs = get_export_outputs(export_outputs, predictions)
        scaffold = scaffold or Scaffold()
        if not isinstance(scaffold, Scaffold):
            raise TypeError(f"scaffold must be tf.train.Scaffold. Given: {scaffold}")
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops=_validate_eval_metric_ops(eval_metric_ops),
            export_outputs=export_outputs,
            training_chief_hooks=_validate_hooks(training_chief_hooks),
            training_hooks=_validate_hooks(training_hooks), scaffold=scaffold,
            evaluation_hooks=_validate_hooks(evaluation_hooks),
            prediction_hooks=_validate_hooks(prediction_hooks))

    def _replace(self, **kwds):
        """A new EstimatorSpec with the fields given replaced (the mode cannot change)."""
        if "mode" in kwds and self.mode != kwds["mode"]:
            raise ValueError("mode of EstimatorSpec cannot be changed.")
        new_fields = map(kwds.pop, self._fields, list(self))
        return EstimatorSpec(*new_fields)

