"""tf.OptionalSpec -- mirrors the OptionalSpec of TensorFlow 1.15's
python/data/ops/optional_ops.py: the type specification (framework/type_spec.py) of an
optional value, one that either holds an element (described by `element_spec`) or nothing.

    tf.OptionalSpec(tf.TensorSpec([2], tf.float32))
    # OptionalSpec(TensorSpec(shape=(2,), dtype=tf.float32, name=None),)

TF's optional values themselves (tf.data.experimental.Optional, from
`iterator.get_next_as_optional()`) are not in the sandbox: its iterators end with
tf.errors.OutOfRangeError, as TF-1 programs expect. The spec is here so that a program (or a
signature) that names it works: it compares, hashes and merges like any TypeSpec.
"""
from ..framework.type_spec import TypeSpec

__all__ = ["OptionalSpec"]


class OptionalSpec(TypeSpec):
    """Describes an optional value whose element, when present, fits `element_spec`."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)

    @property
    def value_type(self):
        raise NotImplementedError("tf.data.experimental.Optional, the value an OptionalSpec "
                                  "describes, is not in the sandbox: iterators end with "
                                  "tf.errors.OutOfRangeError instead of an empty Optional.")

    def _serialize(self):
        return (self._element_spec,)
