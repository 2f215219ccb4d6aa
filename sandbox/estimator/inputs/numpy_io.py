"""An input_fn over NumPy arrays -- mirrors TensorFlow's numpy_io.py
(tensorflow_estimator/python/estimator/inputs/numpy_io.py).

    input_fn = tf.estimator.inputs.numpy_input_fn({"x": images}, labels, batch_size=100,
                                                  num_epochs=None, shuffle=True)
    features, labels = input_fn()     # {"x": a [batch, 784] tensor}, a [batch] tensor

Each call builds, in the default graph, a queue holding the rows of the arrays and the
threads that fill it (inputs/queues.py), and returns the dequeued batch. With
`num_epochs=None` the data repeats forever and every batch has `batch_size` rows; with a
number, the last batch may be shorter and the next dequeue raises OutOfRangeError, which ends
an evaluation or a prediction. `shuffle` must be given (True to train, False to evaluate and
predict in order); a shuffling queue keeps `queue_capacity / 4` rows in reserve.
"""
import collections

import numpy as np

from .queues import enqueue_data

__all__ = ["numpy_input_fn"]

_TARGET_KEY = "__target_key__"


def _unique_target_key(features):
    key = _TARGET_KEY
    while key in features:
        key += "_n"
    return key


def _validate_and_convert_features(x):
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return collections.OrderedDict(sorted(x.items(), key=lambda t: t[0]))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return collections.OrderedDict({"__direct_np_input__": x})
    raise TypeError(f"x must be a dict or array; got {type(x).__name__}")


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000,
                   num_threads=1):
    """Returns an input_fn that feeds the dict of arrays `x` (and `y`) in batches; see the
    module docstring."""
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is "
                         f"recommended to set it as True for training); got {shuffle}")

    def input_fn():
        data = _validate_and_convert_features(x)
        feature_keys = list(data.keys())
        if y is None:
            target_keys = None
        elif isinstance(y, dict):
            if not y:
                raise ValueError("y cannot be empty dict, use None instead.")
            ordered_y = collections.OrderedDict(sorted(y.items(), key=lambda t: t[0]))
            target_keys = list(ordered_y.keys())
            duplicates = set(feature_keys) & set(target_keys)
            if duplicates:
                raise ValueError(f"{len(duplicates)} duplicate keys are found in both x and y: "
                                 f"{duplicates}")
            data.update(ordered_y)
        else:
            target_keys = _unique_target_key(data)
            data[target_keys] = y
        if len({np.shape(v)[0] for v in data.values()}) != 1:
            shapes_x = {k: data[k].shape for k in feature_keys}
            if target_keys is None:
                shape_y = None
            elif isinstance(target_keys, str):
                shape_y = y.shape
            else:
                shape_y = {k: data[k].shape for k in target_keys}
            raise ValueError("Length of tensors in x and y is mismatched. All elements in x "
                             f"and y must have the same length.\nShapes in x: {shapes_x}\n"
                             f"Shapes in y: {shape_y}\n")
        data = collections.OrderedDict((k, np.asarray(v)) for k, v in data.items())
        queue = enqueue_data(data, queue_capacity, shuffle=shuffle, num_threads=num_threads,
                             enqueue_size=batch_size, num_epochs=num_epochs)
        batch = (queue.dequeue_many(batch_size) if num_epochs is None
                 else queue.dequeue_up_to(batch_size))
        batch = list(batch) if isinstance(batch, (list, tuple)) else [batch]
        batch.pop(0)                            # the row indices
        if isinstance(x, np.ndarray):
            features = batch[0]
        else:
            features = dict(zip(feature_keys, batch[:len(feature_keys)]))
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, batch[-1]
        return features, dict(zip(target_keys, batch[-len(target_keys):]))

    return input_fn
