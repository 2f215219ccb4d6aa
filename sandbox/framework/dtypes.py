"""Data types of tensors -- mirrors TensorFlow's `tf.dtypes` (tensorflow/python/framework/dtypes.py).

A DType names the element type of a tensor (`tf.float32`) and knows its NumPy twin, and TF's
enum value for it (`tf.complex64.as_datatype_enum == 8`, types.proto's DT_COMPLEX64).
Variables produce *reference* tensors whose dtype is the `_ref` twin (`float32_ref`): a
reference can be assigned to, a plain value cannot.

Beyond the usual numbers, bools and strings, TF has

  * bfloat16, "brain floating point": float32's 8 exponent bits with only 7 mantissa bits.
    NumPy has no such type; TF's twin is `ml_dtypes.bfloat16` (the ml_dtypes package), and so
    is the sandbox's.
  * the quantized types qint8, quint8, qint16, quint16 and qint32 (tf.QUANTIZED_DTYPES):
    integers that stand for real numbers in a range kept beside them (tf.quantize returns the
    tensor and its min and max). Their NumPy twin is TF's one-field structured dtype, e.g.
    `np.dtype([("qint8", np.int8)])`: the same bytes as int8, but a different type, so that a
    quantized tensor is never mistaken for plain integers. They are neither integer nor
    floating, and have no min or max.
  * resource (a handle to a variable, a queue ...) and variant (any C++ value): no NumPy twin.
"""
import builtins

import ml_dtypes
import numpy as np

__all__ = ["DType", "as_dtype", "float16", "half", "float32", "float64", "double", "bfloat16",
           "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
           "string", "complex64", "complex128",
           "qint8", "quint8", "qint16", "quint16", "qint32", "QUANTIZED_DTYPES",
           "resource", "variant",
           "float16_ref", "float32_ref", "float64_ref", "int32_ref", "int64_ref",
           "complex64_ref", "complex128_ref"]


class DType:
    """The type of the elements of a tensor, e.g. `tf.float32`."""

    def __init__(self, name, numpy_type, is_ref=False):
        self._name = name
        self._np = numpy_type            # None for resource and variant
        self._is_ref = is_ref

    # -- identity -------------------------------------------------------
    @property
    def name(self):
        return self._name + ("_ref" if self._is_ref else "")

    @property
    def as_numpy_dtype(self):
        if self._np is None:             # TF: a KeyError from its table, as here
            raise KeyError(f"{self} has no NumPy type (is_numpy_compatible is False).")
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
        """A real floating-point type, bfloat16 included."""
        return self._name in ("float16", "bfloat16", "float32", "float64")

    @property
    def is_integer(self):
        """A (non-quantized) integer type."""
        return self._name in ("int8", "int16", "int32", "int64",
                              "uint8", "uint16", "uint32", "uint64")

    @property
    def is_unsigned(self):
        """TF's rule: min == 0, so quantized types (which have no min) are not unsigned."""
        return self._name in ("uint8", "uint16", "uint32", "uint64")

    @property
    def is_quantized(self):
        return self._name in _QUANTIZED_NAMES

    @property
    def is_complex(self):
        return self._name in ("complex64", "complex128")

    @property
    def is_bool(self):
        return self._name == "bool"

    @property
    def is_numpy_compatible(self):
        return self._np is not None

    @property
    def size(self):
        """Bytes per element (TF 1.15 counts 1 for resource and variant, 8 for string)."""
        if self._np is None:
            return 1
        return 8 if self._name == "string" else np.dtype(self._np).itemsize

    @property
    def min(self):
        return self._limit("minimum", "min")

    @property
    def max(self):
        return self._limit("maximum", "max")

    def _limit(self, word, attr):
        if self.is_quantized:
            raise TypeError(f"Cannot find {word} value of {self} with quantized type "
                            f"{self.base_dtype}.")
        if self._name == "bfloat16":
            return float(getattr(ml_dtypes.finfo(self._np), attr))
        if self.is_floating:
            return float(getattr(np.finfo(self._np), attr))
        if self.is_integer:
            return int(getattr(np.iinfo(self._np), attr))
        raise TypeError(f"Cannot find {word} value of {self} with type {self.base_dtype}.")

    @property
    def limits(self):
        """(min, max) of a real number type (TF: `dtype.limits`, clip_negative=True); bfloat16
        has none, as in TF."""
        if not (self.is_floating or self.is_integer) or self._name == "bfloat16":
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
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool = DType("bool", np.bool_)  # noqa: A001 -- TensorFlow's own name
string = DType("string", np.object_)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
# The quantized types' NumPy twins: TF's one-field structured dtypes.
qint8 = DType("qint8", np.dtype([("qint8", np.int8)]))
quint8 = DType("quint8", np.dtype([("quint8", np.uint8)]))
qint16 = DType("qint16", np.dtype([("qint16", np.int16)]))
quint16 = DType("quint16", np.dtype([("quint16", np.uint16)]))
qint32 = DType("qint32", np.dtype([("qint32", np.int32)]))
resource = DType("resource", None)
variant = DType("variant", None)
half, double = float16, float64

_BY_NAME = {d._name: d for d in (
    float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
    uint64, bool, string, complex64, complex128, qint8, quint8, qint16, quint16, qint32,
    resource, variant)}
_REF_BY_NAME = {n: DType(n, d._np, is_ref=True) for n, d in _BY_NAME.items()}
float16_ref, float32_ref, float64_ref = (_REF_BY_NAME[n] for n in ("float16", "float32", "float64"))
int32_ref, int64_ref = _REF_BY_NAME["int32"], _REF_BY_NAME["int64"]
complex64_ref, complex128_ref = _REF_BY_NAME["complex64"], _REF_BY_NAME["complex128"]

_QUANTIZED_NAMES = ("qint8", "quint8", "qint16", "quint16", "qint32")
QUANTIZED_DTYPES = frozenset([_BY_NAME[n] for n in _QUANTIZED_NAMES] +
                             [_REF_BY_NAME[n] for n in _QUANTIZED_NAMES])

# TF's DataType enum (tensorflow/core/framework/types.proto); _ref types add 100.
_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
          "string": 7, "complex64": 8, "int64": 9, "bool": 10, "qint8": 11, "quint8": 12,
          "qint32": 13, "bfloat16": 14, "qint16": 15, "quint16": 16, "uint16": 17,
          "complex128": 18, "float16": 19, "resource": 20, "variant": 21, "uint32": 22,
          "uint64": 23}
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
        if d._np is not None and d.name != "string" and np.dtype(d._np) == np_dtype:
            return d
    raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType "
                    f"(NumPy type {np_dtype} has no TensorFlow twin here).")
