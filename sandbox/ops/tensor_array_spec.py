"""tf.TensorArraySpec -- mirrors the TensorArraySpec of TensorFlow 1.15's
python/ops/tensor_array_ops.py: the type specification (framework/type_spec.py) of a
tf.TensorArray.

    spec = tf.TensorArraySpec([2], tf.float32)      # TensorArraySpec(TensorShape([2]), ...)
    tf.TensorArraySpec.from_value(ta).is_compatible_with(spec)

Its serialization is (element_shape, dtype, dynamic_size, infer_shape). As in TF, whether
shapes are inferred does not matter for compatibility, and the most specific common spec
infers shapes only when both do.
"""
from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..framework.type_spec import TypeSpec, most_specific_compatible_shape, \
    type_spec_from_value
from .tensor_array_ops import TensorArray

__all__ = ["TensorArraySpec"]


class TensorArraySpec(TypeSpec):
    """Describes a tf.TensorArray: its elements' shape and dtype, whether it may grow, and
    whether it infers the elements' shape from the first write."""

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    @classmethod
    def from_value(cls, value):
        if not isinstance(value, TensorArray):
            raise ValueError(f"Expected value to be a TensorArray, but saw: {value!r}")
        return cls(value.element_shape, value.dtype, value.dynamic_size, value._infer_shape)

    value_type = property(lambda self: TensorArray)

    def _serialize(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    def is_compatible_with(self, other):
        if isinstance(other, TensorArray):
            other = TensorArraySpec.from_value(other)
        elif not isinstance(other, TypeSpec):
            other = type_spec_from_value(other)
        return (type(self) is type(other) and self._dtype.is_compatible_with(other._dtype)
                and self._element_shape.is_compatible_with(other._element_shape)
                and self._dynamic_size == other._dynamic_size)

    def most_specific_compatible_type(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Types are not compatible: {self!r} vs {other!r}")
        return TensorArraySpec(
            most_specific_compatible_shape(self._element_shape, other._element_shape),
            self._dtype, self._dynamic_size, self._infer_shape and other._infer_shape)
