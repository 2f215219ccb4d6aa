"""tf.RaggedTensorSpec -- mirrors TensorFlow 1.15's RaggedTensorSpec
(python/ops/ragged/ragged_tensor.py): the kind of a RaggedTensor, as framework/type_spec.py
describes TensorSpec and SparseTensorSpec.

    tf.RaggedTensorSpec([None, None], tf.int32)     RaggedTensorSpec(TensorShape([None, None]),
                                                                     tf.int32, 1, tf.int64)
    tf.RaggedTensorSpec([None, None, 3], ragged_rank=1)    the last dimension uniform
    tf.RaggedTensorSpec.from_value(rt)               shape, dtype, ragged_rank, splits dtype
    spec.is_compatible_with(rt)                      a RaggedTensor, RaggedTensorValue or spec

Its serialization is (shape, dtype, ragged_rank, row_splits_dtype). ragged_rank defaults to
rank - 1 (the shape's rank must then be known) and must be less than the rank; ragged_rank 0
describes a plain Tensor. (tf.data does not take RaggedTensors in the sandbox.)
"""
from ...framework import dtypes
from ...framework.tensor import Tensor
from ...framework.tensor_shape import TensorShape
from ...framework.type_spec import TensorSpec, TypeSpec
from .ragged_tensor import RaggedTensor
from .ragged_tensor_value import RaggedTensorValue

__all__ = ["RaggedTensorSpec"]


class RaggedTensorSpec(TypeSpec):
    """Describes a tf.RaggedTensor: its shape (None for a ragged dimension), the dtype of its
    values, its ragged_rank and the dtype of its row splits."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64. Received "
                             f"{self._row_splits_dtype}.")
        if flat_values_spec is not None:
            raise NotImplementedError("The sandbox's RaggedTensorSpec has no flat_values_spec "
                                      "(flat values are always Tensors).")
        rank = self._shape.ndims
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank "
                             f"({rank}).")
        self._ragged_rank = ragged_rank

    @classmethod
    def from_value(cls, value):
        """The spec of a RaggedTensor, a RaggedTensorValue or a Tensor (ragged_rank 0)."""
        if isinstance(value, (RaggedTensor, RaggedTensorValue)):
            splits_dtype = dtypes.as_dtype(value.row_splits.dtype)
            return cls(shape=value.shape, dtype=dtypes.as_dtype(value.dtype),
                       ragged_rank=value.ragged_rank, row_splits_dtype=splits_dtype)
        if isinstance(value, Tensor):
            return cls(shape=value.get_shape(), dtype=value.dtype.base_dtype, ragged_rank=0)
        raise TypeError(f"Expected a RaggedTensor or a Tensor, got {value!r}")

    shape = property(lambda self: self._shape, doc="The static shape (None: ragged).")
    dtype = property(lambda self: self._dtype, doc="The dtype of the values.")
    ragged_rank = property(lambda self: self._ragged_rank,
                           doc="The number of ragged dimensions.")
    row_splits_dtype = property(lambda self: self._row_splits_dtype,
                                doc="The dtype of the row splits (tf.int32 or tf.int64).")
    flat_values_spec = property(lambda self: None)

    @property
    def value_type(self):
        return RaggedTensor if self._ragged_rank > 0 else Tensor

    def _serialize(self):
        return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def is_compatible_with(self, spec_or_value):
        """Whether a RaggedTensor, RaggedTensorValue, Tensor (ragged_rank 0) or spec fits."""
        if isinstance(spec_or_value, (RaggedTensor, RaggedTensorValue, Tensor)):
            spec_or_value = RaggedTensorSpec.from_value(spec_or_value)
        if isinstance(spec_or_value, TensorSpec) and self._ragged_rank == 0:
            spec_or_value = RaggedTensorSpec(spec_or_value.shape, spec_or_value.dtype, 0)
        return super().is_compatible_with(spec_or_value)
