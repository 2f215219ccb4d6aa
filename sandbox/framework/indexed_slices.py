"""IndexedSlices -- mirrors TensorFlow 1.x's `tf.IndexedSlices`
(python/framework/indexed_slices.py): a sparse gradient, some rows of a tensor.

The gradient of `tf.gather(params, ids)` with respect to params is zero everywhere but in the
rows that were picked. For an embedding of 100,000 rows and a batch of 100 ids, a dense
gradient would be 100,000 rows of which 99,900 are zeros. TF keeps just the rows:

    IndexedSlices(values, indices, dense_shape)
        values       [n, d1, ...]  the gradient rows
        indices      [n]           which row of the dense tensor each one belongs to
        dense_shape  [rank]        the shape of the dense tensor (optional)

    dense[indices[i], ...] += values[i, ...]          (an index may repeat: rows add up)

It is not a new kind of tensor: it is a pair (or triple) of ordinary Tensors that travel
together through graph-building code. The runtime, the wire and the trace only ever see
the ordinary tensors, which is why an optimizer that applies `values` and `indices` on the
parameter server sends only the touched rows across the network.

Where an op needs a dense tensor, `tf.convert_to_tensor(slices)` builds one -- an
UnsortedSegmentSum of the values into dense_shape[0] rows (the conversion function is
registered by ops/indexing_ops.py, which holds that op) -- and warns, as TF does, when the
dense tensor would hold 100,000,000 elements or more, or when its shape is not known.
TF's Session.run gives an IndexedSlicesValue (a namedtuple of arrays, below) for one; here
that is client/session.py's part -- fetch [g.values, g.indices, g.dense_shape] meanwhile.
"""
import collections

from . import dtypes
from .op_def import apply_op
from .tensor import convert_to_tensor

__all__ = ["IndexedSlices", "convert_to_tensor_or_indexed_slices"]

# TF warns when densifying would make a tensor with at least this many elements.
LARGE_SPARSE_NUM_ELEMENTS = 100000000

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue",
                                            ["values", "indices", "dense_shape"])


class IndexedSlices:
    """A sparse representation of a set of tensor slices at given indices: `values` (a Tensor
    of shape [n, ...]), `indices` (a 1-D int Tensor of length n) and optionally `dense_shape`
    (a 1-D int Tensor, the shape of the dense tensor they are rows of)."""

    def __init__(self, values, indices, dense_shape=None):
        values = convert_to_tensor(values, name="values")
        indices = convert_to_tensor(indices, name="indices")
        if dense_shape is not None:
            dense_shape = convert_to_tensor(dense_shape, name="dense_shape")
        if not indices.dtype.base_dtype.is_integer:
            raise TypeError(f"IndexedSlices indices must be integers, got "
                            f"{indices.dtype.name} ({indices.name}).")
        graphs = {t.graph for t in (values, indices, dense_shape) if t is not None}
        if len(graphs) > 1:
            raise ValueError(f"IndexedSlices parts come from different graphs: values "
                             f"{values.name!r}, indices {indices.name!r}.")
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self):
        """A `Tensor` containing the values of the slices."""
        return self._values

    @property
    def indices(self):
        """A 1-D `Tensor` containing the indices of the slices."""
        return self._indices

    @property
    def dense_shape(self):
        """A 1-D `Tensor` containing the shape of the corresponding dense tensor (or None)."""
        return self._dense_shape

    @property
    def name(self):
        """The name of this `IndexedSlices`: its values' name."""
        return self._values.name

    @property
    def device(self):
        """The device of the op that produces `values`."""
        return self._values.device

    @property
    def op(self):
        """The `Operation` that produces `values`."""
        return self._values.op

    @property
    def dtype(self):
        """The `DType` of the elements."""
        return self._values.dtype

    @property
    def graph(self):
        """The `Graph` that contains the values, indices and shape tensors."""
        return self._values.graph

    def consumers(self):
        return self._values.consumers()

    def __str__(self):
        return (f"IndexedSlices(indices={self._indices}, values={self._values}"
                + (f", dense_shape={self._dense_shape}" if self._dense_shape is not None
                   else "") + ")")

    def __repr__(self):
        return (f"<tf.IndexedSlices values={self._values.name!r} indices="
                f"{self._indices.name!r} dtype={self.dtype.name}>")

    def _as_graph_element(self):
        # What Session.run and tf.group ask of a fetch; an IndexedSlices is three tensors.
        raise TypeError(f"An IndexedSlices ({self.name}) is three tensors, not one: fetch "
                        "[g.values, g.indices, g.dense_shape], or tf.convert_to_tensor(g) for "
                        "the dense tensor.")

    def __neg__(self):
        # the Neg op is registered by ops/math_ops.py; the framework only names it
        negated = apply_op("Neg", [self._values], {"T": self.dtype.base_dtype}, name="Neg")
        return IndexedSlices(negated, self._indices, self._dense_shape)

    def __bool__(self):
        raise TypeError(f"Using a tf.IndexedSlices ({self.name}) as a Python `bool` is not "
                        "allowed. Use `if g is not None:` to test that a gradient exists.")


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """`value` unchanged if it is an IndexedSlices (its dtype checked against `dtype`);
    anything else converted with tf.convert_to_tensor."""
    if isinstance(value, IndexedSlices):
        if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} "
                             f"for Tensor with dtype {value.dtype.name}: {value}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)
