"""An input_fn over a pandas DataFrame -- mirrors TensorFlow's pandas_io.py
(tensorflow_estimator/python/estimator/inputs/pandas_io.py).

    input_fn = tf.estimator.inputs.pandas_input_fn(df[["age", "height"]], df["weight"],
                                                  batch_size=32, num_epochs=1, shuffle=False)

The same queue as numpy_input_fn (inputs/queues.py), one column per feature, named as the
DataFrame's columns (in their order); `y` (a Series, or a DataFrame for several targets) must
have the same index as `x`. pandas is needed only when this function is called.
"""
import collections

import numpy as np

from .queues import enqueue_data

__all__ = ["pandas_input_fn"]


def _unique_target_key(frame, name):
    while name in frame:
        name += "_n"
    return name


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000,
                    num_threads=1, target_column="target"):
    """Returns an input_fn that feeds the DataFrame `x` (and the Series/DataFrame `y`) in
    batches: features {column: tensor}, and the target tensor (a dict for a DataFrame y)."""
    try:
        import pandas as pd
    except ImportError:
        raise TypeError("pandas_input_fn should not be called without pandas installed") \
            from None
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is "
                         f"recommended to set it as True for training); got {shuffle}")
    if not isinstance(target_column, str):
        raise TypeError("target_column must be a string type")
    x = x.copy()
    y_columns = None
    if y is not None:
        if target_column in x:
            raise ValueError(f"Cannot use name {target_column} for target column: DataFrame "
                             f"already has a column with that name: {x.columns}")
        if not np.array_equal(x.index, y.index):
            raise ValueError(f"Index for x and y are mismatched.\nIndex for x: {x.index}\n"
                             f"Index for y: {y.index}\n")
        if isinstance(y, pd.DataFrame):
            y_columns = [(column, _unique_target_key(x, column)) for column in list(y)]
            target_column = [v for _, v in y_columns]
            for (column, key) in y_columns:
                x[key] = y[column].values
        else:
            x[target_column] = y.values
    if queue_capacity is None:
        queue_capacity = 4 * len(x) if shuffle else len(x)
    min_after_dequeue = max(queue_capacity / 4, 1)

    def input_fn():
        data = collections.OrderedDict((c, np.asarray(x[c].values)) for c in x.columns)
        queue = enqueue_data(data, queue_capacity, shuffle=shuffle,
                             min_after_dequeue=min_after_dequeue, num_threads=num_threads,
                             enqueue_size=batch_size, num_epochs=num_epochs)
        batch = (queue.dequeue_many(batch_size) if num_epochs is None
                 else queue.dequeue_up_to(batch_size))
        features = dict(zip(list(x.columns), list(batch)[1:]))      # [0] is the row index
        if y is None:
            return features
        if isinstance(target_column, list):
            return features, {k: features.pop(column)
                              for (k, _), column in zip(y_columns, target_column)}
        return features, features.pop(target_column)

    return input_fn
