"""What compile and fit do with their arguments for models of several inputs and outputs --
mirrors TensorFlow 1.15's python/keras/engine/training_utils.py (standardize_input_data,
check_array_lengths, collect_per_output_metric_info) and the loss part of training.py.

  * Data: one array, a list of arrays (one per input / output, in the model's order) or a
    dict by input / output layer name ({'a': xa, 'b': xb}).
  * loss: one loss for every output, a list (one per output) or a dict by output name;
    loss_weights a list or dict (default 1.0 each); metrics a list for every output or a dict
    by output name. With several outputs the model reports 'loss' (the weighted sum plus the
    layers' regularization losses), '<output>_loss' (unweighted) and '<output>_<metric>',
    as TF 1.15 names them.
"""
import numpy as np

from ...ops import array_ops, math_ops, reduction_ops
from .. import losses as losses_module

__all__ = ["standardize_arrays", "per_output", "per_output_metrics", "check_array_lengths",
           "weighted_loss", "sample_weights", "fed_by"]


def standardize_arrays(data, names, what):
    """`data` as a list of numpy arrays, one per name (input or output layer)."""
    if data is None:
        raise ValueError(f"Please provide as model {what}s a single array or a list of "
                         "arrays.")
    if isinstance(data, dict):
        missing = [name for name in names if name not in data]
        if missing:
            raise ValueError(f"No data provided for \"{missing[0]}\". Need data for each key "
                             f"in: {names}")
        return [np.asarray(data[name]) for name in names]
    if len(names) == 1:
        if isinstance(data, (list, tuple)) and len(data) == 1:
            data = data[0]
        return [np.asarray(data)]
    if not isinstance(data, (list, tuple)):
        raise ValueError(f"Error when checking model {what}: the list of Numpy arrays that you "
                         f"are passing to your model is not the size the model expected. "
                         f"Expected to see {len(names)} array(s), but instead got the "
                         f"following list of 1 arrays: {str(data)[:200]}...")
    if len(data) != len(names):
        raise ValueError(f"Error when checking model {what}: the list of Numpy arrays that you "
                         f"are passing to your model is not the size the model expected. "
                         f"Expected to see {len(names)} array(s), but instead got the "
                         f"following list of {len(data)} arrays")
    return [np.asarray(d) for d in data]


def check_array_lengths(xs, ys):
    sizes = set(len(x) for x in xs)
    if len(sizes) > 1:
        raise ValueError("All input arrays (x) should have the same number of samples. Got "
                         f"array shapes: {[x.shape for x in xs]}")
    sizes_y = set(len(y) for y in ys)
    if len(sizes_y) > 1:
        raise ValueError("All target arrays (y) should have the same number of samples. Got "
                         f"array shapes: {[y.shape for y in ys]}")
    if sizes and sizes_y and sizes != sizes_y:
        raise ValueError("Input arrays should have the same number of samples as target "
                         f"arrays. Found {sizes.pop()} input samples and {sizes_y.pop()} "
                         "target samples.")


def per_output(spec, names, what, default=None):
    """One entry of `spec` (a value, a list or a dict by output name) per output name."""
    if isinstance(spec, dict):
        unknown = [key for key in spec if key not in names]
        if unknown:
            raise ValueError(f"Unknown entry in {what} dictionary: \"{unknown[0]}\". Only "
                             f"expected the following keys: {names}")
        if default is None and what == "loss":
            missing = [name for name in names if name not in spec]
            if missing:
                raise ValueError(f"Output {missing[0]} missing from loss dictionary. We "
                                 "assume this was done on purpose: the sandbox's keras needs "
                                 "a loss for every output.")
        return [spec.get(name, default) for name in names]
    if isinstance(spec, (list, tuple)):
        if len(spec) != len(names):
            raise ValueError(f"When passing a list as {what}, it should have one entry per "
                             f"model output. The model has {len(names)} outputs, but you "
                             f"passed {what}={list(spec)}")
        return list(spec)
    return [default if spec is None else spec for _ in names]


def per_output_metrics(metrics, names):
    """compile's `metrics` as one list per output."""
    if not metrics:
        return [[] for _ in names]
    if isinstance(metrics, dict):
        unknown = [key for key in metrics if key not in names]
        if unknown:
            raise ValueError(f"Unknown entry in metrics dictionary: \"{unknown[0]}\". Only "
                             f"expected the following keys: {names}")
        return [list(metrics[n]) if isinstance(metrics.get(n), (list, tuple))
                else ([metrics[n]] if n in metrics else []) for n in names]
    if isinstance(metrics, (list, tuple)):
        return [list(metrics) for _ in names]
    raise TypeError("Type of `metrics` argument not understood. Expected a list or "
                    f"dictionary, found: {metrics}")


def weighted_loss(fn, target, output, weights):
    """One output's loss with each example weighted (TF 1.15's compiled loss): the examples'
    losses times their weight, summed over the batch and divided by the number of losses
    (a Loss object with reduction='sum': only summed). `weights` [batch] is all ones unless
    fit or evaluate was given sample_weight or class_weight."""
    is_object = isinstance(fn, losses_module.Loss)
    losses = fn.call(target, output) if is_object else fn(target, output)
    rank = losses.get_shape().ndims
    if rank == 0:                                   # a custom loss that averaged already
        return losses
    if rank > 1:                                    # [batch, steps ...]: one weight a row
        weights = array_ops.reshape(weights, [-1] + [1] * (rank - 1))
    losses = losses * math_ops.cast(weights, losses.dtype.base_dtype)
    if is_object and fn.reduction == "sum":
        return reduction_ops.reduce_sum(losses)
    return reduction_ops.reduce_mean(losses)


def sample_weights(ys, names, sample_weight=None, class_weight=None):
    """The weight of each example, per output (None where there is none): sample_weight (an
    array, or a list or dict of them by output) or else class_weight ({class: weight}, or a
    dict of those by output name), as TF 1.15's standardize_weights computes them."""
    if sample_weight is None and class_weight is None:
        return None
    if sample_weight is not None:
        if class_weight is not None:
            print("WARNING: Found both `sample_weight` and `class_weight`: `class_weight` "
                  "argument will be ignored.")
        given = per_output(sample_weight, names, "sample_weight") if isinstance(
            sample_weight, (list, tuple, dict)) else [sample_weight] * len(names)
        return [None if w is None else np.asarray(w, dtype="float32") for w in given]
    per = [class_weight.get(name) for name in names] if len(names) > 1 and isinstance(
        class_weight, dict) and set(class_weight) <= set(names) else [class_weight] * len(names)
    out = []
    for y, weights in zip(ys, per):
        if weights is None:
            out.append(None)
            continue
        y = np.asarray(y)
        classes = (y.argmax(axis=1) if y.ndim == 2 and y.shape[1] > 1
                   else y.reshape(len(y))).astype("int64")
        missing = sorted(set(classes.tolist()) - set(weights))
        if missing:
            raise ValueError(f"`class_weight` must contain all classes in the data. The "
                             f"classes {set(missing)} exist in the data but not in "
                             "`class_weight`.")
        out.append(np.array([weights[c] for c in classes.tolist()], dtype="float32"))
    return out


def fed_by(tensors_or_ops, feeds):
    """The updates (or losses) that a step feeding `feeds` can run: those whose placeholders
    are all among them. A layer called on several inputs -- inside a model, and again inside
    a model around it -- holds the updates of every call (a BatchNormalization's moving
    averages, an activity loss); a model runs those of its own inputs (TF: get_updates_for)."""
    fed = {id(t.op) for t in feeds}
    verdict = {}

    def runnable(op):
        if id(op) not in verdict:
            verdict[id(op)] = True                       # (a cycle cannot make it False)
            if op.type in ("Placeholder", "PlaceholderV2"):
                verdict[id(op)] = id(op) in fed
            else:
                verdict[id(op)] = all(runnable(t.op) for t in op.inputs) and \
                    all(runnable(c) for c in op.control_inputs)
        return verdict[id(op)]
    return [x for x in tensors_or_ops if runnable(getattr(x, "op", x))]
