"""The characters of strings: how many, and their case -- mirrors tf.strings.length
(StringLength), tf.strings.lower (StringLower) and tf.strings.upper (StringUpper) of
TensorFlow 1.x's python/ops/string_ops.py and core/kernels/string_length_op.cc,
string_lower_op.cc, string_upper_op.cc.

    tf.strings.length(["héllo", ""])                     ->  [6, 0]    (bytes)
    tf.strings.length(["héllo", ""], unit="UTF8_CHAR")   ->  [5, 0]    (code points)
    tf.strings.lower(["ÀB c"])                           ->  [b'\\xc3\\x80b c']  (ASCII only)
    tf.strings.upper(["straße"], encoding="utf-8")       ->  [b'STRASSE']

Element by element, same shape, no gradient. UTF8_CHAR counts the bytes that do not
continue a UTF-8 sequence (the bytes not of the form 10xxxxxx), as TF's kernel does, so a
string that is not valid UTF-8 gets a count too (TF calls it undefined). lower/upper with
encoding='' change the ASCII letters A-Z / a-z only; with 'utf-8' they apply Unicode's full
case mapping (Python's str.lower/upper, as ICU's: 'ß' -> 'SS', final sigma), reading invalid
UTF-8 as U+FFFD. Another encoding fails when the op runs, as in TF.

typed_input and check_allowed_attr are what the string modules share to check their
arguments as TF does.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import is_tensor_like

__all__ = ["string_length", "string_lower", "string_upper"]


def typed_input(value, arg, op_type, dtype=_dtypes.string):
    """`value` as a Tensor of `dtype` for input `arg` of op `op_type`, failing with TF's
    TypeError: a tensor of another dtype does not match; a Python value that is not one."""
    if is_tensor_like(value):
        t = convert_to_tensor(value)
        if t.dtype.base_dtype != dtype:
            raise TypeError(f"Input '{arg}' of '{op_type}' Op has type "
                            f"{t.dtype.base_dtype.name} that does not match expected type of "
                            f"{dtype.name}.")
        return t
    try:
        return convert_to_tensor(value, dtype=dtype, name=arg)
    except (TypeError, ValueError) as e:
        raise TypeError(f"Expected {dtype.name} passed to parameter '{arg}' of op '{op_type}', "
                        f"got {value!r} of type '{type(value).__name__}' instead. Error: {e}"
                        ) from None


def _as_bytes(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


def _each(fn, strings, dtype=object):
    """fn(bytes) of every entry of `strings`, as an array of their shape."""
    arr = np.asarray(strings, dtype=object)
    out = np.empty(arr.shape, dtype=dtype)
    for index, s in np.ndenumerate(arr):
        out[index] = fn(_as_bytes(s))
    return out


def check_allowed_attr(op_type, attr, value, allowed):
    """TF's check of an attr with a list of allowed values (when the op is built)."""
    if value not in allowed:
        listed = ", ".join(f'"{a}"' for a in allowed)
        raise ValueError(f"Attr '{attr}' of '{op_type}' Op passed string '{value}' not in: "
                         f"{listed}.")


# -- length ----------------------------------------------------------------------------------

class StringLength(OpDef):
    """The length of each string, in bytes or (unit='UTF8_CHAR') in UTF-8 code points."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input, unit="BYTE"):  # noqa: A002 -- TF's name
        if unit == "BYTE":
            return _each(len, input, np.int32)
        return _each(lambda s: sum((b & 0xC0) != 0x80 for b in s), input, np.int32)


def string_length(input, name=None, unit="BYTE"):  # noqa: A002 -- TF's name
    """tf.strings.length (TF 1's argument order): the length of each string of `input` as
    int32, in bytes (unit='BYTE') or in Unicode code points of UTF-8 (unit='UTF8_CHAR')."""
    with name_scope(name, "StringLength", [input]) as scope:
        check_allowed_attr("StringLength", "unit", unit, ("BYTE", "UTF8_CHAR"))
        x = typed_input(input, "input", "StringLength")
        return apply_op("StringLength", [x], {"unit": unit}, name=scope,
                        output_dtypes=[_dtypes.int32])


# -- lower, upper ------------------------------------------------------------------------------

def _case_kernel(ascii_map, unicode_map):
    def kernel(input, encoding=""):  # noqa: A002 -- TF's name
        if encoding == "":
            return _each(ascii_map, input)
        if encoding == "utf-8":
            return _each(lambda s: unicode_map(s.decode("utf-8", "replace")).encode("utf-8"),
                         input)
        raise errors.InvalidArgumentError(None, None, "only utf-8 or '' (no encoding) is "
                                          f"supported, received {encoding}")
    return kernel


class StringLower(OpDef):
    """Each string in lower case (ASCII letters, or all of Unicode with encoding='utf-8')."""
    shape = unchanged_shape
    differentiable = False
    kernel = _case_kernel(bytes.lower, str.lower)


class StringUpper(OpDef):
    """Each string in upper case (ASCII letters, or all of Unicode with encoding='utf-8')."""
    shape = unchanged_shape
    differentiable = False
    kernel = _case_kernel(bytes.upper, str.upper)


def _case(op_type, input, encoding, name):  # noqa: A002 -- TF's name
    with name_scope(name, op_type, [input]) as scope:
        x = typed_input(input, "input", op_type)
        return apply_op(op_type, [x], {"encoding": str(encoding)}, name=scope,
                        output_dtypes=[_dtypes.string])


def string_lower(input, encoding="", name=None):  # noqa: A002 -- TF's name
    """tf.strings.lower: each string of `input` in lower case -- the ASCII letters with
    encoding='' (other bytes kept), every letter with encoding='utf-8'."""
    return _case("StringLower", input, encoding, name)


def string_upper(input, encoding="", name=None):  # noqa: A002 -- TF's name
    """tf.strings.upper: each string of `input` in upper case -- the ASCII letters with
    encoding='' (other bytes kept), every letter with encoding='utf-8' ('ß' -> 'SS')."""
    return _case("StringUpper", input, encoding, name)
