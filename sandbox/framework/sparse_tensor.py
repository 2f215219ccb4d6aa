"""SparseTensor -- mirrors TensorFlow 1.x's `tf.SparseTensor` (python/framework/sparse_tensor.py):
a tensor that stores only its non-zero entries.

A bag of words, a user's clicked items, the tags of a photo: most of a [batch, vocabulary]
matrix is zeros. TF keeps only the entries that are there, as three ordinary tensors:

    SparseTensor(indices, values, dense_shape)
        indices      int64 [N, rank]   where each entry is ([row, column] for a matrix)
        values       [N]               what it holds
        dense_shape  int64 [rank]      the shape of the dense tensor it stands for

    SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])  is
        [[1, 0, 0, 0],
         [0, 0, 2, 0],
         [0, 0, 0, 0]]

Like IndexedSlices (indexed_slices.py) it is not a new kind of tensor: the graph, the
runtime, the wire and the trace only ever see the three ordinary tensors, so a SparseTensor
fed on a worker travels to the ps as three messages. Many sparse ops (to_dense, the matmul)
want the entries in row-major order ("canonical" order); `tf.sparse.reorder` makes it so.

Session.run gives a SparseTensorValue for one (a namedtuple of three arrays), and a sparse
placeholder is fed with a SparseTensorValue or a plain (indices, values, dense_shape) tuple:
that is client/session.py's part. The sparse ops are sandbox/ops/sparse_ops.py.
"""
import collections

from . import dtypes
from .default_session import session_for
from .graph import name_scope
from .tensor import convert_to_tensor
from .tensor_util import constant_value_as_shape

__all__ = ["SparseTensor", "SparseTensorValue", "convert_to_tensor_or_sparse_tensor"]

SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = ("The value of a SparseTensor, as Session.run gives it: "
                             "indices, values and dense_shape as NumPy arrays.")


class SparseTensor:
    """A sparse tensor: `indices` (int64 [N, rank]), `values` ([N]) and `dense_shape`
    (int64 [rank]). Built from Tensors, or from Python/NumPy values (then converted in a
    'SparseTensor' name scope: SparseTensor/indices, SparseTensor/values ...)."""

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A SparseTensor of constants from a SparseTensorValue (or a SparseTensor, as is)."""
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        if not isinstance(sparse_tensor_value, SparseTensorValue):
            raise TypeError(f"Neither a SparseTensor nor SparseTensorValue: "
                            f"{sparse_tensor_value}.")
        return cls(indices=sparse_tensor_value.indices, values=sparse_tensor_value.values,
                   dense_shape=sparse_tensor_value.dense_shape)

    def __init__(self, indices, values, dense_shape):
        with name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            indices = convert_to_tensor(indices, name="indices", dtype=dtypes.int64)
            values = convert_to_tensor(values, name="values")
            dense_shape = convert_to_tensor(dense_shape, name="dense_shape", dtype=dtypes.int64)
        graphs = {t.graph for t in (indices, values, dense_shape)}
        if len(graphs) > 1:
            raise ValueError(f"SparseTensor parts come from different graphs: indices "
                             f"{indices.name!r}, values {values.name!r}, dense_shape "
                             f"{dense_shape.name!r}.")
        # As TF: indices is a matrix with one row per value and one column per dimension.
        indices_shape = _with_rank(indices.get_shape(), 2)
        values_shape = _with_rank(values.get_shape(), 1)
        dense_shape_shape = _with_rank(dense_shape.get_shape(), 1)
        indices_shape[0].merge_with(values_shape[0])
        indices_shape[1].merge_with(dense_shape_shape[0])
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        # What the graph already knows of the dense shape (a constant gives all of it).
        self._dense_shape_default = constant_value_as_shape(dense_shape)

    @property
    def indices(self):
        """The int64 [N, rank] Tensor of the positions of the non-zero entries."""
        return self._indices

    @property
    def values(self):
        """The [N] Tensor of the non-zero entries."""
        return self._values

    @property
    def dense_shape(self):
        """The int64 [rank] Tensor of the shape of the dense tensor."""
        return self._dense_shape

    @property
    def dtype(self):
        """The DType of the entries (of `values`)."""
        return self._values.dtype

    @property
    def op(self):
        """The Operation that produces `values`."""
        return self._values.op

    @property
    def graph(self):
        """The Graph that holds the three tensors."""
        return self._indices.graph

    @property
    def shape(self):
        """The static shape of the dense tensor (as much of it as the graph knows)."""
        return self._dense_shape_default

    def get_shape(self):
        """The static shape of the dense tensor, as a TensorShape."""
        return self._dense_shape_default

    def consumers(self):
        return self._values.consumers()

    def eval(self, feed_dict=None, session=None):
        """Runs the graph in `session` (default: the default session): a SparseTensorValue."""
        what = f"evaluate SparseTensor {self._values.name!r}"
        return session_for(session, self.graph, what).run(self, feed_dict)

    def __str__(self):
        return (f"SparseTensor(indices={self._indices}, values={self._values}, "
                f"dense_shape={self._dense_shape})")

    __repr__ = __str__

    def _as_graph_element(self):
        # What tf.group, control_dependencies and as_graph_element ask of one tensor.
        raise TypeError(f"A SparseTensor ({self._values.name}) is three tensors, not one: use "
                        "sp.indices, sp.values, sp.dense_shape, or tf.sparse.to_dense(sp) for "
                        "the dense tensor. (Session.run fetches a SparseTensor whole.)")

    def __bool__(self):
        raise TypeError(f"Using a tf.SparseTensor ({self._values.name}) as a Python `bool` is "
                        "not allowed. Use `if sp is not None:` to test that it exists.")


def _with_rank(shape, rank):
    if shape.ndims is not None and shape.ndims != rank:
        raise ValueError(f"Shape {shape} must have rank {rank}")
    return shape.with_rank(rank)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """`value` as a SparseTensor (a SparseTensorValue becomes one of constants) or, for anything
    else, tf.convert_to_tensor(value, dtype, name)."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype and not dtype.is_compatible_with(value.dtype):
            raise RuntimeError(f"Sparse dtype: requested = {dtype}, actual = {value.dtype}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def is_sparse(x):
    """Whether x is a SparseTensor or a SparseTensorValue (TF's sparse_tensor.is_sparse)."""
    return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_sparse(value, what="Input"):
    """A SparseTensor from a SparseTensor or SparseTensorValue; anything else is the TypeError
    the sparse ops raise ("Input must be a SparseTensor.")."""
    if isinstance(value, SparseTensorValue):
        return SparseTensor.from_value(value)
    if not isinstance(value, SparseTensor):
        raise TypeError(f"{what} must be a SparseTensor.")
    return value

