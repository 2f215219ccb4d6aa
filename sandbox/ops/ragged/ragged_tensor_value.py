"""RaggedTensorValue -- mirrors TensorFlow 1.x's tf.ragged.RaggedTensorValue
(python/ops/ragged/ragged_tensor_value.py): the value of a RaggedTensor, as Session.run gives
it in graph mode -- NumPy arrays, not tensors.

    v = sess.run(tf.ragged.constant([[1, 2], [], [3]]))
    v                 tf.RaggedTensorValue(values=array([1, 2, 3], dtype=int32),
                                           row_splits=array([0, 2, 2, 3]))
    print(v)          <tf.RaggedTensorValue [[1, 2], [], [3]]>
    v.to_list()       [[1, 2], [], [3]]

A ragged tensor of ragged_rank 2 has a RaggedTensorValue as its `values`. It is also what a
tf.ragged.placeholder is fed with (tf.ragged.constant_value builds one from a list).
"""
import numpy as np

__all__ = ["RaggedTensorValue"]


class RaggedTensorValue:
    """The value of a RaggedTensor: `values` (an array, or a RaggedTensorValue) cut into rows
    by `row_splits` (a 1-D int32 or int64 array: row i is values[row_splits[i]:row_splits[i+1]])."""

    def __init__(self, values, row_splits):
        if not (isinstance(row_splits, (np.ndarray, np.generic)) and
                row_splits.dtype in (np.int64, np.int32) and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values = values
        self._row_splits = row_splits

    row_splits = property(lambda self: self._row_splits,
                          doc="The split indices for the ragged tensor value.")
    values = property(lambda self: self._values,
                      doc="The concatenated values for all rows in this tensor.")
    dtype = property(lambda self: self._values.dtype,
                     doc="The numpy dtype of values in this tensor.")

    @property
    def flat_values(self):
        """The innermost `values` array."""
        values = self._values
        while isinstance(values, RaggedTensorValue):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        """The row_splits of every ragged dimension, outermost first (a tuple)."""
        splits, values = [self._row_splits], self._values
        while isinstance(values, RaggedTensorValue):
            splits.append(values.row_splits)
            values = values.values
        return tuple(splits)

    @property
    def ragged_rank(self):
        """The number of ragged dimensions."""
        if isinstance(self._values, RaggedTensorValue):
            return self._values.ragged_rank + 1
        return 1

    @property
    def shape(self):
        """(nrows, None, ...the shape of a value): the ragged dimensions are None."""
        return (self._row_splits.shape[0] - 1,) + (None,) + self._values.shape[1:]

    def __str__(self):
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"

    def to_list(self):
        """This value as a nested Python list."""
        if isinstance(self._values, RaggedTensorValue):
            values = self._values.to_list()
        else:
            values = self._values.tolist()
        return [values[self._row_splits[i]:self._row_splits[i + 1]]
                for i in range(len(self._row_splits) - 1)]
