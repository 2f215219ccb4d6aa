"""Strings -- mirrors the dense string functions of TensorFlow 1.x's python/ops/string_ops.py
(string_join, as_string, string_to_number, substr, regex_replace, string_strip).

A string tensor holds bytes (a NumPy object array of `bytes`, as a Session returns it); every
function here works entry by entry and broadcasts like TF's:

    tf.string_join([["a", "b"], "c"], separator="-")   ->  [b'a-c', b'b-c']
    tf.as_string([3.5, 2])                              ->  [b'3.500000', b'2.000000'] (C's %f)
    tf.string_to_number(["1.5", "1e3"])                 ->  [1.5, 1000.]
    tf.substr(["hello", "world"], 1, 3)                 ->  [b'ell', b'orl']
    tf.regex_replace(["aa bb"], "a", "x")               ->  [b'xx bb']

regex_replace uses Python's `re` where TF uses RE2; the two agree on the common syntax
(classes, groups, `\\1` in the rewrite) but not on every corner. The splitting functions
(string_split) give sparse tensors, which the sandbox does not have.
"""
import builtins
import re

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import merge_shapes
from .math_ops import _broadcast_static_shape

__all__ = ["string_join", "as_string", "string_to_number", "substr", "regex_replace",
           "string_strip"]


def _as_bytes(x):
    return x if isinstance(x, bytes) else str(x).encode()


def _map(fn, *arrays):
    """fn over the broadcast entries of object arrays, as an object array."""
    arrays = np.broadcast_arrays(*[np.asarray(a, dtype=object) for a in arrays])
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = fn(*(a[index] for a in arrays))
    return out


def _strings(x, name):
    t = convert_to_tensor(x, name=name)
    if t.dtype.base_dtype != _dtypes.string:
        raise TypeError(f"Value passed to parameter '{name}' has DataType "
                        f"{t.dtype.base_dtype.name} not in list of allowed values: string")
    return t


class StringJoin(OpDef):
    """The inputs joined entry by entry with `separator` (scalars broadcast)."""

    def shape(op):
        shapes = [t.get_shape() for t in op.inputs if t.get_shape().ndims != 0]
        if not shapes:
            return op.inputs[0].get_shape()
        out = shapes[0]
        for s in shapes[1:]:
            out = merge_shapes(out, s)
        return out

    def kernel(*inputs, separator="", N=None):
        shapes = {np.shape(x) for x in inputs if np.ndim(x)}
        if len(shapes) > 1:
            raise errors.InvalidArgumentError(None, None, "Input shapes do not match: "
                                              f"{sorted(shapes)}")
        sep = separator.encode() if isinstance(separator, str) else separator
        return _map(lambda *parts: sep.join(_as_bytes(p) for p in parts), *inputs)


def string_join(inputs, separator="", name=None):
    """The strings of `inputs` (tensors of one shape, or scalars) joined entry by entry."""
    with name_scope(name, "StringJoin", list(inputs)) as scope:
        xs = [_strings(x, "inputs") for x in inputs]
        return apply_op("StringJoin", xs, {"separator": separator, "N": len(xs)}, name=scope,
                        output_dtypes=[_dtypes.string])


class AsString(OpDef):
    """Numbers and bools as strings, formatted as C's printf does (as TF's kernel)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
               fill="", T=None):
        flags = "0" if fill == "0" else ("-" if fill == "-" else "")
        w = str(width) if width > -1 else ""
        kind = input.dtype.kind
        if kind == "b":
            return _map(lambda v: b"true" if v else b"false", input)
        if kind in "iu":
            fmt = f"%{flags}{w}d"
        else:
            p = f".{precision}" if precision > -1 else ""
            fmt = f"%{flags}{w}{p}" + ("g" if shortest else "e" if scientific else "f")
        padding = fill if fill not in ("", "0", "-") else ""
        out = _map(lambda v: (fmt % v).encode(), input)
        if padding:
            out = _map(lambda s: s.replace(b" ", padding.encode()), out)
        return out


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,  # noqa: A002
              fill="", name=None):
    """Each entry as a string: ints as %d, floats as %f (or %e with scientific, %g with
    shortest; `precision` digits), bools as true/false; `width` pads with `fill`."""
    with name_scope(name, "AsString", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        dtype = x.dtype.base_dtype
        if dtype == _dtypes.string or dtype not in (
                _dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.float32,
                _dtypes.float64, _dtypes.bool):
            raise TypeError(f"Value passed to parameter 'input' has DataType {dtype.name} not "
                            "in list of allowed values: int8, int16, int32, int64, float32, "
                            "float64, bool")
        if scientific and shortest:
            raise ValueError("Cannot select both scientific and shortest notation")
        if len(fill) > 1:
            raise ValueError(f"Fill string must be one or fewer characters, got {fill!r}")
        return apply_op("AsString", [x], {"precision": int(precision),
                                          "scientific": bool(scientific),
                                          "shortest": bool(shortest), "width": int(width),
                                          "fill": fill, "T": dtype}, name=scope,
                        output_dtypes=[_dtypes.string])


class StringToNumber(OpDef):
    """Each string parsed as a number of out_type."""
    shape = unchanged_shape
    differentiable = False

    def kernel(string_tensor, out_type=None):
        integer = out_type.is_integer

        def parse(s):
            text = s.decode() if isinstance(s, bytes) else str(s)
            try:
                return int(text) if integer else float(text)
            except ValueError:
                raise errors.InvalidArgumentError(
                    None, None, f"StringToNumberOp could not correctly convert string: "
                    f"{text}") from None
        flat = [parse(s) for s in np.asarray(string_tensor, dtype=object).reshape(-1)]
        return np.array(flat, dtype=out_type.as_numpy_dtype).reshape(np.shape(string_tensor))


def string_to_number(string_tensor, out_type=_dtypes.float32, name=None):
    """Each string as a number (float32 by default; int32, int64, float64 too)."""
    with name_scope(name, "StringToNumber", [string_tensor]) as scope:
        x = _strings(string_tensor, "string_tensor")
        out_type = _dtypes.as_dtype(out_type).base_dtype
        if out_type not in (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'out_type' has DataType "
                            f"{out_type.name} not in list of allowed values: float32, "
                            "float64, int32, int64")
        return apply_op("StringToNumber", [x], {"out_type": out_type}, name=scope,
                        output_dtypes=[out_type])


class Substr(OpDef):
    """input[pos:pos + len] for each string (pos < 0 counts from the end), in bytes."""

    def shape(op):
        s = op.inputs[0].get_shape()
        for t in op.inputs[1:]:
            s = _broadcast_static_shape(s, t.get_shape())
        return s

    def kernel(input, pos, len, T=None, unit="BYTE"):  # noqa: A002 -- TF's names
        flat_index = [0]

        def cut(s, p, n):
            s = _as_bytes(s)
            start = p if p >= 0 else builtins.len(s) + p
            if not 0 <= start <= builtins.len(s):
                raise errors.InvalidArgumentError(
                    None, None, f"pos {p} out of range for string b'{s.decode()}' at index "
                    f"{flat_index[0]}")
            flat_index[0] += 1
            return s[start:start + max(n, 0)]
        return _map(cut, input, pos, len)



def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 -- TF's names
    """The substrings of `len` bytes from `pos` (ints, broadcast against input)."""
    if unit != "BYTE":
        raise NotImplementedError("The sandbox's substr counts bytes only (unit='BYTE').")
    with name_scope(name, "Substr", [input, pos, len]) as scope:
        x = _strings(input, "input")
        p = convert_to_tensor(pos, name="pos")
        n = convert_to_tensor(len, dtype=p.dtype.base_dtype, name="len")
        return apply_op("Substr", [x, p, n], {"T": p.dtype.base_dtype, "unit": unit},
                        name=scope, output_dtypes=[_dtypes.string])


class RegexReplace(OpDef):
    """Each match of `pattern` replaced by `rewrite` (the first only without
    replace_global)."""
    shape = unchanged_shape

    def kernel(input, pattern, rewrite, replace_global=True):  # noqa: A002 -- TF's name
        try:
            regex = re.compile(_as_bytes(pattern.item() if hasattr(pattern, "item")
                                         else pattern))
        except re.error as e:
            raise errors.InvalidArgumentError(None, None, f"Invalid pattern: {pattern}, "
                                              f"error: {e}") from None
        rw = _as_bytes(rewrite.item() if hasattr(rewrite, "item") else rewrite)
        count = 0 if replace_global else 1
        return _map(lambda s: regex.sub(rw, _as_bytes(s), count=count), input)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replaces the matches of the regular expression `pattern` by `rewrite` (`\\1` names a
    group) in every string."""
    with name_scope(name, "RegexReplace", [input, pattern, rewrite]) as scope:
        x = _strings(input, "input")
        p = _strings(pattern, "pattern")
        r = _strings(rewrite, "rewrite")
        return apply_op("RegexReplace", [x, p, r], {"replace_global": bool(replace_global)},
                        name=scope, output_dtypes=[_dtypes.string])


class StringStrip(OpDef):
    """Each string without its leading and trailing whitespace."""
    shape = unchanged_shape

    def kernel(input):  # noqa: A002 -- TF's name
        return _map(lambda s: _as_bytes(s).strip(), input)


def string_strip(input, name=None):  # noqa: A002 -- TF's name
    with name_scope(name, "StringStrip", [input]) as scope:
        x = _strings(input, "input")
        return apply_op("StringStrip", [x], {}, name=scope, output_dtypes=[_dtypes.string])
