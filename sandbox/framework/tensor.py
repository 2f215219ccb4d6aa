"""Symbolic tensors -- mirrors TensorFlow 1.x's `tf.Tensor` (python/framework/ops.py).

A Tensor holds no numbers. It is a handle to one output of an Operation in a Graph: `add:0` is
output 0 of the op named `add`. Numbers appear only when a Session runs the graph (`sess.run(t)`
or `t.eval()`). Its static shape is what the graph knows before running.
"""
import numpy as np

from . import dtypes as _dtypes
from . import tensor_conversion_registry
from .default_session import eval_using_default_session
from .tensor_shape import TensorShape, as_shape

__all__ = ["Tensor", "convert_to_tensor", "convert_n_to_tensor", "is_tensor", "Reference"]


class Reference:
    """What Tensor.experimental_ref / Variable.experimental_ref give (TF's
    object_identity.Reference): equal only to a reference to the same object."""
    __slots__ = ("_wrapped",)

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    def __eq__(self, other):
        return isinstance(other, Reference) and self._wrapped is other._wrapped

    def __hash__(self):
        return id(self._wrapped)

    def __repr__(self):
        return f"<Reference wrapping {self._wrapped!r}>"


class Tensor:
    """One output of an Operation: `op`, `value_index`, `dtype`, static `shape`."""

    # Python operators (+, -, *, @, <, [] ...) are added by the ops modules that define them
    # (ops/math_ops.py, comparison_ops.py, matmul_ops.py, indexing_ops.py ...), as in TF.
    OVERLOADABLE_OPERATORS = {
        "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__div__",
        "__rdiv__", "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
        "__rmod__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__rand__", "__or__",
        "__ror__", "__xor__", "__rxor__", "__getitem__", "__pow__", "__rpow__", "__invert__",
        "__neg__", "__abs__", "__matmul__", "__rmatmul__"}

    __array_priority__ = 100  # so that `np_array + tensor` calls Tensor.__radd__

    def __init__(self, op, value_index, dtype, shape=None):
        self._op = op
        self._value_index = value_index
        self._dtype = _dtypes.as_dtype(dtype)
        self._shape = TensorShape(None) if shape is None else as_shape(shape)
        self._consumers = []

    # -- identity -------------------------------------------------------------
    @property
    def op(self):
        return self._op

    @property
    def value_index(self):
        return self._value_index

    @property
    def dtype(self):
        return self._dtype

    @property
    def graph(self):
        return self._op.graph

    @property
    def name(self):
        return f"{self._op.name}:{self._value_index}"

    @property
    def device(self):
        return self._op.device

    # -- static shape ---------------------------------------------------------
    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Refines the static shape (it must be compatible with what is already known)."""
        try:
            self._shape = self._shape.merge_with(shape)
        except ValueError:
            raise ValueError(f"Tensor {self.name!r} has shape {self._shape}, which is not "
                             f"compatible with the requested shape {as_shape(shape)}.") from None

    # -- graph structure ------------------------------------------------------
    def consumers(self):
        return list(self._consumers)

    def _as_node_def_input(self):
        return self._op.name if self._value_index == 0 else f"{self._op.name}:{self._value_index}"

    # -- running --------------------------------------------------------------
    def eval(self, feed_dict=None, session=None):
        """Runs the graph in `session` (default: the default session) and returns this value."""
        return eval_using_default_session(self, feed_dict, self.graph, session)

    # -- python protocol ------------------------------------------------------
    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):
        # As TF 1.x: a tensor of unknown rank prints without its shape.
        shape = "" if self._shape.ndims is None else f", shape={self._shape}"
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name}' + (
            f", device={self.device})" if self.device else ")")

    def __hash__(self):
        return id(self)

    def experimental_ref(self):
        """A hashable reference to this tensor (`.deref()` gives it back) -- TF's way to key
        a dict by tensors; here tensors hash too, as in TF 1."""
        return Reference(self)

    def __eq__(self, other):  # TF 1.x: == compares identity; use tf.equal for elementwise
        return self is other

    def __ne__(self, other):
        return self is not other

    def __bool__(self):
        raise TypeError(f"Using a tf.Tensor ({self.name}) as a Python `bool` is not allowed. "
                        "Use `if t is not None:` to test that a tensor exists, or use TensorFlow "
                        "ops such as tf.cond / tf.where to act on its value when the graph runs.")

    def __iter__(self):
        dims = self._shape.dims
        if dims is None or not dims or dims[0].value is None:
            raise TypeError(f"Tensor {self.name!r} with shape {self._shape} is not iterable: "
                            "its first dimension is not known while building the graph.")
        return (self[i] for i in range(dims[0].value))

    def __len__(self):
        raise TypeError(f"len is not well defined for symbolic Tensors ({self.name}). "
                        "Use tf.shape(t)[0] for the length when the graph runs, or "
                        "t.get_shape()[0] for the static length.")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"Cannot convert a symbolic Tensor ({self.name}) to a numpy array. "
                        "Run it in a Session first: sess.run(t) or t.eval().")

    @classmethod
    def _override_operator(cls, operator, func):
        if operator not in cls.OVERLOADABLE_OPERATORS:
            raise ValueError(f"Overriding {operator} is not allowed.")
        setattr(cls, operator, func)


def is_tensor(x):
    return isinstance(x, Tensor)


# -- conversion of Python values, NumPy arrays and Variables to Tensors --------

def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, as_ref=False):
    """Returns `value` as a Tensor: Tensors pass through; anything else is converted by the
    functions the ops modules registered (framework/tensor_conversion_registry.py): Variables
    give their value, Python and NumPy values become a Const op, lists of Tensors are stacked.
    With `preferred_dtype` (and no `dtype`), each function first tries that dtype, then the
    value's own, as TF's internal_convert_to_tensor does."""
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if dtype is not None and not dtype.is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor "
                             f"{value.name!r} with dtype {value.dtype.name}. Use tf.cast to "
                             "change a tensor's type.")
        return value
    for conversion_func in tensor_conversion_registry.get(value):
        result = None
        if dtype is None and preferred_dtype is not None:
            try:
                result = conversion_func(value, dtype=preferred_dtype, name=name, as_ref=as_ref)
            except (TypeError, ValueError):
                result = None                 # not as the preferred dtype: as the value is
        if result is None:
            result = conversion_func(value, dtype=dtype, name=name, as_ref=as_ref)
        if result is not NotImplemented:
            return result
    raise TypeError(f"Cannot convert {value!r} with type {type(value)} to Tensor: no conversion "
                    "function registered. (The ops modules register them: is sandbox/ops/"
                    "constant_op.py imported?)")


def convert_n_to_tensor(values, dtype=None, name=None):
    return [convert_to_tensor(v, dtype=dtype, name=None if name is None else f"{name}_{i}")
            for i, v in enumerate(values)]


def _contains_tensor(value):
    for item in value:
        if isinstance(item, Tensor) or hasattr(item, "_as_graph_element"):
            return True
        if isinstance(item, (list, tuple)) and _contains_tensor(item):
            return True
    return False


def _contains_none(value):
    return any(item is None or (isinstance(item, (list, tuple)) and _contains_none(item))
               for item in value)


def _numpy_value_of(value, dtype=None):
    """A Python/NumPy value as an ndarray of the TF-sensible dtype (Python floats -> float32)."""
    if value is None or (isinstance(value, (list, tuple)) and _contains_none(value)):
        raise ValueError("None values not supported: a tensor cannot hold None. Did a function "
                         "return None where a value or a tensor was expected?")
    if dtype is not None:
        np_dtype = _dtypes.as_dtype(dtype).as_numpy_dtype
        arr = _as_array(value)
        if np_dtype is np.object_:
            return _as_bytes_array(arr, check=True)
        if arr.dtype.kind in "fc" and np.dtype(np_dtype).kind in "iub" and arr.size and \
                not np.all(np.equal(np.mod(arr, 1), 0)):
            raise TypeError(f"Expected {_dtypes.as_dtype(dtype).name}, got {value!r} of type "
                            f"'{type(value).__name__}' instead (it has a fractional part).")
        return np.asarray(value, dtype=np_dtype)
    arr = _as_array(value)
    if arr.dtype == np.float64 and not isinstance(value, np.ndarray) and not isinstance(value, np.generic):
        arr = arr.astype(np.float32)          # Python floats are float32 in TF
    elif arr.dtype == np.int64 and not isinstance(value, (np.ndarray, np.generic)):
        if arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31):
            arr = arr.astype(np.int32)        # Python ints are int32 in TF
    elif arr.dtype.kind in "USO":
        if arr.dtype.kind == "O" and not all(isinstance(item, (str, bytes))
                                             for item in arr.reshape(-1)):
            # not numbers, not strings: a dict, a Graph, a SparseTensor ... (TF's message)
            raise TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider "
                            "casting elements to a supported type.")
        arr = _as_bytes_array(arr)
    return arr


def _as_array(value):
    """np.asarray, except that Python strings stay whole: NumPy's fixed-width string types
    would drop their trailing NUL bytes (b'ab\\x00' -> b'ab', 'a\\x00' -> 'a'), which TF keeps,
    and a list mixing str with bytes that are not ASCII ('a', b'\\xff') would not convert."""
    if isinstance(value, np.ndarray):
        return value
    try:
        arr = np.asarray(value)
    except UnicodeDecodeError:
        return np.array(value, dtype=object)
    if arr.dtype.kind in "SU":
        arr = np.array(value, dtype=object)
    return arr


def _as_bytes_array(arr, check=False):
    """Strings are bytes in TensorFlow: 'hi' becomes b'hi' (UTF-8). `check`: anything else in
    a value asked to be tf.string is a TypeError, as TF's."""
    out = np.empty(arr.shape, dtype=object)
    for index, item in np.ndenumerate(arr):
        if isinstance(item, str):
            item = item.encode()
        elif check and not isinstance(item, bytes):
            item = item.item() if isinstance(item, np.generic) else item
            raise TypeError(f"Expected string, but got {item!r} of type "
                            f"'{type(item).__name__}'.")
        out[index] = item
    return out
