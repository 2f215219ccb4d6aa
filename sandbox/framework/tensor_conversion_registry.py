"""Tensor conversion functions -- mirrors TensorFlow's tensor_conversion_registry.py
(python/framework/tensor_conversion_registry.py, `tf.register_tensor_conversion_function`).

`tf.add(x, 1.0)` works because convert_to_tensor (framework/tensor.py) turns 1.0 into a
Tensor. The framework itself knows only Tensors: how anything else becomes one is taught to it
from above, by the modules that make the ops a conversion needs, each registering a function
for the types it converts -- as TF's do:

    ops/constant_op.py   any Python or NumPy value -> a Const op     (object, priority 200)
    ops/array_ops.py     a list that holds tensors -> a Pack op      (list/tuple, priority 99)
                         TensorShape, Dimension -> an int32 Const    (priority 100)
    ops/variables.py     a Variable -> its value                     (priority 100)

A function is called as `fn(value, dtype=None, name=None, as_ref=False)` and returns a Tensor,
or NotImplemented to let the next one try; lower priorities are tried first.
"""

__all__ = ["register_tensor_conversion_function", "get"]

_CONVERSION_FUNCTIONS = []  # (priority, base_type, fn), kept sorted by priority


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """`conversion_func(value, dtype=None, name=None, as_ref=False)` turns a `base_type`
    (a type or a tuple of types) into a Tensor."""
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    _CONVERSION_FUNCTIONS.append((priority, base_type, conversion_func))
    _CONVERSION_FUNCTIONS.sort(key=lambda entry: entry[0])      # stable: first come, first tried


def get(value):
    """The conversion functions that apply to `value`, in the order to try them."""
    return [fn for _, base_type, fn in _CONVERSION_FUNCTIONS if isinstance(value, base_type)]
