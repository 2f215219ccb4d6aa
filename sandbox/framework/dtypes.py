"""Data types of tensors -- mirrors TensorFlow's `tf.dtypes` (tensorflow/python/framework/dtypes.py).

A DType names the element type of a tensor (`tf.float32`) and knows its NumPy twin, and TF's
enum value for it (`tf.complex64.as_datatype_enum == 8`, types.proto's DT_COMPLEX64).
Variables produce *reference* tensors whose dtype is the `_ref` twin (`float32_ref`): a
reference can be assigned to, a plain value cannot.
"""
import builtins

import numpy as np

__all__ = ["DType", "as_dtype", "float16", "half", "float32", "float64", "double",
           "int8", "int16", "int32", "int64", "uint8", "uint16", "bool", "string",
           "complex64", "complex128",
           "float16_ref", "float32_ref", "float64_ref", "int32_ref", "int64_ref",
           "complex64_ref", "complex128_ref"]


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

    @property
    def as_datatype_enum(self):
        """TF's DataType enum value (types.proto): 1 for float32, 8 for complex64 ...; a
        reference type's is its base type's + 100."""
        return _ENUMS[self._name] + (100 if self._is_ref else 0)

    @property
    def real_dtype(self):
        """The dtype of the real and imaginary parts: float32 for complex64, float64 for
        complex128; every other dtype is its own."""
        return _REAL_OF.get(self._name, self)

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
    def is_complex(self):
        return self._name in ("complex64", "complex128")

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
        raise TypeError(f"Cannot find minimum value of {self} with type {self.base_dtype}.")

    @property
    def max(self):
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        raise TypeError(f"Cannot find maximum value of {self} with type {self.base_dtype}.")

    @property
    def limits(self):
        """(min, max) of a real number type (TF: `dtype.limits`, clip_negative=True)."""
        if not (self.is_floating or self.is_integer):
            raise ValueError(f"{self} does not have defined limits.")
        return self.min, self.max

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
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
half, double = float16, float64

_BY_NAME = {d._name: d for d in (float16, float32, float64, int8, int16, int32, int64,
                                  uint8, uint16, bool, string, complex64, complex128)}
_REF_BY_NAME = {n: DType(n, d._np, is_ref=True) for n, d in _BY_NAME.items()}
float16_ref, float32_ref, float64_ref = (_REF_BY_NAME[n] for n in ("float16", "float32", "float64"))
int32_ref, int64_ref = _REF_BY_NAME["int32"], _REF_BY_NAME["int64"]
complex64_ref, complex128_ref = _REF_BY_NAME["complex64"], _REF_BY_NAME["complex128"]

# TF's DataType enum (tensorflow/core/framework/types.proto); _ref types add 100.
_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
          "string": 7, "complex64": 8, "int64": 9, "bool": 10, "uint16": 17,
          "complex128": 18, "float16": 19}
_BY_ENUM = {e: _BY_NAME[n] for n, e in _ENUMS.items()}
_BY_ENUM.update({e + 100: _REF_BY_NAME[n] for n, e in _ENUMS.items()})
_REAL_OF = {"complex64": float32, "complex128": float64}

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
    """Converts a DType, a name ('float32', 'float32_ref'), TF's enum value (1, 8, 108), a NumPy
    dtype or a Python type to a DType."""
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
    if type(type_value) is int and type_value in _BY_ENUM:    # TF's enum value: as_dtype(8)
        return _BY_ENUM[type_value]
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
