"""Type specifications -- mirrors TensorFlow 1.15's python/framework/type_spec.py (tf.TypeSpec)
and tensor_spec.py (tf.TensorSpec), with the specs of the framework's composite values:
tf.SparseTensorSpec (sparse_tensor.py) and tf.IndexedSlicesSpec (indexed_slices.py).

A TypeSpec describes a *kind* of value without holding one: for a tensor, its shape, dtype and
(optionally) a name. TF 2's tf.function and tf.data use them as the signatures of inputs and
elements; a TF-1 program meets them as `dataset.element_spec`, in SavedModel signatures, or
writes one to say what it expects:

    spec = tf.TensorSpec([None, 784], tf.float32, name='images')
    spec.is_compatible_with(images)          # a tensor or another spec: shape and dtype fit
    tf.TensorSpec.from_tensor(images)        # TensorSpec(shape=(?, 784), dtype=..., name=...)

Every spec is defined by its *serialization*, the tuple of what describes it (TensorSpec:
shape, dtype, name). Equality, hashing, repr ("SparseTensorSpec(TensorShape([2, 3]),
tf.int64)"), compatibility and the most specific common spec all work on that tuple, item by
item: shapes by TensorShape.is_compatible_with, dtypes by DType.is_compatible_with, nested
specs recursively, anything else by ==. A subclass only says what its value type is and
what its serialization is.

The other specs of TF 1.15's top level live next to their values: tf.TensorArraySpec in
ops/tensor_array_spec.py, tf.OptionalSpec and tf.data.DatasetSpec in data/.
"""
import abc

from . import dtypes
from .indexed_slices import IndexedSlices
from .sparse_tensor import SparseTensor
from .tensor import Tensor
from .tensor_shape import TensorShape, as_shape

__all__ = ["TypeSpec", "TensorSpec", "SparseTensorSpec", "IndexedSlicesSpec"]


def most_specific_compatible_shape(a, b):
    """The most specific shape both `a` and `b` fit (TF's
    TensorShape.most_specific_compatible_shape, framework/tensor_shape.py)."""
    return as_shape(a).most_specific_compatible_shape(b)


class TypeSpec(abc.ABC):
    """The kind of a value (abstract): a subclass defines `value_type` and `_serialize()`;
    its constructor takes the serialization back as arguments."""

    @property
    @abc.abstractmethod
    def value_type(self):
        """The Python type of the values this spec describes."""

    @abc.abstractmethod
    def _serialize(self):
        """The tuple that defines this spec (and the arguments that rebuild it)."""

    def is_compatible_with(self, spec_or_value):
        """Whether a value (or spec) of this kind fits: the same spec class, and each part of
        the serialization compatible."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else \
            type_spec_from_value(spec_or_value)
        return type(self) is type(other) and _compatible(self._serialize(), other._serialize())

    def most_specific_compatible_type(self, other):
        """The most specific spec compatible with both `self` and `other`: shapes relaxed where
        they differ; every other part must be equal (else ValueError)."""
        if type(self) is not type(other):
            raise ValueError(f"No TypeSpec is compatible with both {self!r} and {other!r}")
        merged = _most_specific(self._serialize(), other._serialize(), self, other)
        return type(self)(*merged)

    def __eq__(self, other):
        return type(self) is type(other) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), self._serialize()))

    def __repr__(self):
        return f"{type(self).__name__}{self._serialize()!r}"


def _compatible(a, b):
    if isinstance(a, TypeSpec):
        return a.is_compatible_with(b)
    if isinstance(a, TensorShape):
        return isinstance(b, TensorShape) and a.is_compatible_with(b)
    if isinstance(a, dtypes.DType):
        return isinstance(b, dtypes.DType) and a.is_compatible_with(b)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and \
            all(_compatible(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and \
            all(_compatible(a[k], b[k]) for k in a)
    return a == b


def _most_specific(a, b, spec_a, spec_b):
    if isinstance(a, TypeSpec):
        return a.most_specific_compatible_type(b)
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return most_specific_compatible_shape(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        return type(a)(_most_specific(x, y, spec_a, spec_b) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return {k: _most_specific(a[k], b[k], spec_a, spec_b) for k in a}
    if a != b:
        raise ValueError(f"No TypeSpec is compatible with both {spec_a!r} and {spec_b!r}")
    return a


def type_spec_from_value(value):
    """The spec of a value: a tensor (or anything with a shape and a dtype), SparseTensor or
    IndexedSlices -- a TypeError for anything else."""
    if isinstance(value, SparseTensor):
        return SparseTensorSpec.from_value(value)
    if isinstance(value, IndexedSlices):
        return IndexedSlicesSpec.from_value(value)
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        try:
            return TensorSpec(value.shape, dtypes.as_dtype(value.dtype))
        except TypeError:
            pass
    raise TypeError(f"Could not build a TypeSpec for {value!r} with type "
                    f"{type(value).__name__}")


# -- tensors -----------------------------------------------------------------------------

class TensorSpec(TypeSpec):
    """Describes a tf.Tensor: `TensorSpec(shape, dtype=tf.float32, name=None)`."""

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_spec(cls, spec, name=None):
        """A TensorSpec with `spec`'s shape and dtype, named `name` or as `spec` is."""
        return cls(spec.shape, spec.dtype, name or spec.name)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of a graph tensor: its shape, dtype, and `name` or its op's name."""
        if not isinstance(tensor, Tensor):
            raise ValueError("`tensor` should be a tf.Tensor")
        return cls(tensor.get_shape(), tensor.dtype.base_dtype, name or tensor.op.name)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def value_type(self):
        return Tensor

    def _serialize(self):
        return (self._shape, self._dtype, self._name)

    def is_compatible_with(self, spec_or_tensor):
        """Whether the dtype and shape of a tensor or spec fit (the name does not matter)."""
        return (self._dtype.is_compatible_with(dtypes.as_dtype(spec_or_tensor.dtype)) and
                self._shape.is_compatible_with(as_shape(spec_or_tensor.shape)))

    def most_specific_compatible_type(self, other):
        """TF 1.15's rule: the same class and dtype (else ValueError); the shapes relaxed
        where they differ; the name kept only when both have it. (TF 2 also demands the
        same name.)"""
        if type(self) is not type(other) or self._dtype != other.dtype:
            raise ValueError(f"Types are not compatible: {self!r} vs {other!r}")
        name = self._name if self._name == other.name else None
        return TensorSpec(most_specific_compatible_shape(self._shape, other.shape),
                          self._dtype, name)

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"


# -- the framework's composite values ----------------------------------------------------------

class SparseTensorSpec(TypeSpec):
    """Describes a tf.SparseTensor: its dense shape and the dtype of its values."""

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @classmethod
    def from_value(cls, value):
        """The spec of a SparseTensor (its static dense shape, where known)."""
        shape = value.get_shape() if hasattr(value, "get_shape") else value.dense_shape
        return cls(shape, value.dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: SparseTensor)

    def _serialize(self):
        return (self._shape, self._dtype)


class IndexedSlicesSpec(TypeSpec):
    """Describes a tf.IndexedSlices: the dense shape, the values' dtype, the indices' dtype,
    the dense_shape tensor's dtype (None: it has none) and the shape of the indices."""

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = TensorShape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape(indices_shape).with_rank(1) \
            if indices_shape is not None else TensorShape([None])

    @classmethod
    def from_value(cls, value):
        """The spec of an IndexedSlices: rows of unknown count shaped like its values' rows."""
        rows = value.values.get_shape()
        shape = TensorShape(None) if rows.ndims is None else \
            TensorShape([None]).concatenate(rows[1:])
        dense_shape = value.dense_shape
        return cls(shape, value.dtype, value.indices.dtype,
                   None if dense_shape is None else dense_shape.dtype,
                   value.indices.get_shape())

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values_dtype)
    value_type = property(lambda self: IndexedSlices)

    def _serialize(self):
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)
