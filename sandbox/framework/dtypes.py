"""Data types of tensors -- mirrors TensorFlow's `tf.dtypes` (tensorflow/python/framework/dtypes.py).

A DType names the element type of a tensor (`tf.float32`) and knows its NumPy twin.
Variables produce *reference* tensors whose dtype is the `_ref` twin (`float32_ref`): a
reference can be assigned to, a plain value cannot.
"""
import builtins

import numpy as np

__all__ = ["DType", "as_dtype", "float16", "half", "float32", "float64", "double",
           "int8", "int16", "int32", "int64", "uint8", "uint16", "bool", "string",
           "float16_ref", "float32_ref", "float64_ref", "int32_ref", "int64_ref"]


class DType:
    """The type of the elements of a tensor, e.g. `tf.float32`."""

    def __init__(self, name, numpy_type, is_ref=False):
        self._name = name
        self._np = numpy_type
        self._is_ref = is_ref

    # -- identity -------------------------------------------------------
    @property
    def name(self):
        return self._name + ("_ref" if self._is_ref else "")

    @property
    def as_numpy_dtype(self):
        return self._np

    @property
    def base_dtype(self):
        return _BY_NAME[self._name] if self._is_ref else self

    @property
    def _as_ref(self):
        return self if self._is_ref else _REF_BY_NAME[self._name]

    @property
    def is_ref(self):
        return self._is_ref

    # -- kinds ----------------------------------------------------------
    @property
    def is_floating(self):
        return self._name in ("float16", "float32", "float64")

    @property
    def is_integer(self):
        return self._name in ("int8", "int16", "int32", "int64", "uint8", "uint16")

    @property
    def is_unsigned(self):
        return self._name in ("uint8", "uint16")

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def is_numpy_compatible(self):
        return True

    @property
    def size(self):
        return 8 if self._name == "string" else np.dtype(self._np).itemsize

    @property
    def min(self):
        if self.is_floating:
            return float(np.finfo(self._np).min)
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        raise TypeError(f"Cannot find minimum value of {self.name}.")

    @property
    def max(self):
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        raise TypeError(f"Cannot find maximum value of {self.name}.")

    def is_compatible_with(self, other):
        return self.base_dtype == as_dtype(other).base_dtype

    # -- python protocol ------------------------------------------------
    def __eq__(self, other):
        if other is None:
            return False
        try:
            other = as_dtype(other)
        except TypeError:
            return False
        return self.name == other.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: {self.name!r}>"

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
bool = DType("bool", np.bool_)  # noqa: A001 -- TensorFlow's own name
string = DType("string", np.object_)
half, double = float16, float64

_BY_NAME = {d._name: d for d in (float16, float32, float64, int8, int16, int32, int64,
                                  uint8, uint16, bool, string)}
_REF_BY_NAME = {n: DType(n, d._np, is_ref=True) for n, d in _BY_NAME.items()}
float16_ref, float32_ref, float64_ref = (_REF_BY_NAME[n] for n in ("float16", "float32", "float64"))
int32_ref, int64_ref = _REF_BY_NAME["int32"], _REF_BY_NAME["int64"]

_ALIASES = {"float": float32, "half": float16, "double": float64, "int": int32,
            "long": int64, "str": string, "bytes": string, "object": string}
_PYTHON_TYPES = {float: float32, int: int32, builtins.bool: bool, str: string, bytes: string}


_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def cpp_type_name(dtype):
    """The name TF's C++ kernels give a dtype in their error messages (DataTypeString): 'float'
    for float32, 'double', 'half'; the others by their own name. `dtype`: a DType or its name."""
    name = dtype if isinstance(dtype, str) else as_dtype(dtype).base_dtype.name
    return _CPP_NAMES.get(name, name)


def as_dtype(type_value):
    """Converts a DType, a name ('float32', 'float32_ref'), a NumPy dtype or a Python type to a DType."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        name = type_value[3:] if type_value.startswith("tf.") else type_value
        if name.endswith("_ref") and name[:-4] in _REF_BY_NAME:
            return _REF_BY_NAME[name[:-4]]
        if name in _BY_NAME:
            return _BY_NAME[name]
        if name in _ALIASES:
            return _ALIASES[name]
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.")
    if type_value in _PYTHON_TYPES:
        return _PYTHON_TYPES[type_value]
    try:
        np_dtype = np.dtype(type_value)
    except TypeError:
        raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.") from None
    if np_dtype.kind in ("U", "S", "O"):
        return string
    for d in _BY_NAME.values():
        if d.name != "string" and np.dtype(d._np) == np_dtype:
            return d
    raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType "
                    f"(NumPy type {np_dtype} has no TensorFlow twin here).")
