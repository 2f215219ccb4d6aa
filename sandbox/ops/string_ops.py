"""Strings -- mirrors the dense string functions of TensorFlow 1.x's python/ops/string_ops.py
(string_join, as_string, string_to_number, substr, regex_replace, string_strip), the
splitting ones (string_split, strings.split) and reduce_join.

A string tensor holds bytes (a NumPy object array of `bytes`, as a Session returns it); every
function here works entry by entry and broadcasts like TF's:

    tf.string_join([["a", "b"], "c"], separator="-")   ->  [b'a-c', b'b-c']
    tf.as_string([3.5, 2])                              ->  [b'3.500000', b'2.000000'] (C's %f)
    tf.string_to_number(["1.5", "1e3"])                 ->  [1.5, 1000.]
    tf.substr(["hello", "world"], 1, 3)                 ->  [b'ell', b'orl']
    tf.regex_replace(["aa bb"], "a", "x")               ->  [b'xx bb']
    tf.reduce_join([["a", "b"], ["c", "d"]], axis=1)    ->  [b'ab', b'cd']
    tf.string_split(["a b", "", "c"])  ->  SparseTensor(indices=[[0, 0], [0, 1], [2, 0]],
                                           values=[b'a', b'b', b'c'], dense_shape=[3, 2])

regex_replace uses Python's `re` where TF uses RE2; the two agree on the common syntax
(classes, groups, `\\1` in the rewrite) but not on every corner.

The splitting functions give a SparseTensor [batch, most tokens] (row i holds the tokens of
string i). tf.string_split (op StringSplit) splits at *any byte* of `delimiter` (every byte
when it is empty) and by default drops empty tokens; tf.strings.split (op StringSplitV2)
splits as Python's bytes.split does: at runs of ASCII whitespace without `sep`, else at each
`sep`, keeping empty tokens, at most `maxsplit` times. With result_type="RaggedTensor" both
give the same tokens as a RaggedTensor (ops/ragged/), row i the tokens of string i. The string
hashes are in string_hash_ops.py.
"""
import builtins
import re

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value, merge_shapes
from .math_ops import _broadcast_static_shape

__all__ = ["string_join", "as_string", "string_to_number", "substr", "regex_replace",
           "string_strip", "string_split", "reduce_join"]


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


# -- splitting -------------------------------------------------------------------------------

def _deprecated_lookup(new_name, new_value, old_name, old_value):
    """TF's deprecation.deprecated_argument_lookup (its message names the old one first)."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old_value
    return new_value


def _rank_error(op, want, t, at_most=False):
    got = t.get_shape().ndims
    if got is not None and (got > want if at_most else got != want):
        shapes = ", ".join(f"[{','.join(str(d) for d in i.get_shape().as_list())}]"
                           if i.get_shape().ndims is not None else "?" for i in op.inputs)
        raise ValueError(f"Shape must be {'at most ' if at_most else ''}rank {want} but is rank "
                         f"{got} for '{{{{node {op.name}}}}} = {op.type}' with input shapes: "
                         f"{shapes}.")


def _tokens_to_sparse(rows, lead_shape):
    """(indices, values, dense_shape) of the token lists `rows` (row-major over lead_shape)."""
    longest = max((len(r) for r in rows), default=0)
    indices, values = [], []
    for flat, tokens in enumerate(rows):
        where = np.unravel_index(flat, lead_shape) if lead_shape else ()
        for j, token in enumerate(tokens):
            indices.append([int(w) for w in where] + [j])
            values.append(token)
    rank = len(lead_shape) + 1
    out_values = np.empty(len(values), dtype=object)
    out_values[:] = values
    return (np.array(indices, np.int64).reshape(-1, rank), out_values,
            np.array(list(lead_shape) + [longest], np.int64))


class StringSplit(OpDef):
    """Each string of a vector split at every byte of `delimiter` (at every byte when it is
    empty); empty tokens dropped with skip_empty, and an empty string gives no tokens."""
    multi_output = True
    differentiable = False

    def shape(op):
        _rank_error(op, 1, op.inputs[0])
        _rank_error(op, 0, op.inputs[1])
        return [TensorShape([None, 2]), TensorShape([None]), TensorShape([2])]

    def kernel(input, delimiter, skip_empty=True):  # noqa: A002 -- TF's name
        if np.ndim(input) != 1:
            raise errors.InvalidArgumentError(None, None, "input must be a vector, got shape: "
                                              f"[{','.join(map(str, np.shape(input)))}]")
        if np.ndim(delimiter) != 0:
            raise errors.InvalidArgumentError(None, None, "delimiter must be a scalar, got "
                                              f"shape: [{','.join(map(str, np.shape(delimiter)))}]")
        delim = _as_bytes(np.asarray(delimiter, dtype=object).item())
        pattern = re.compile(b"[" + re.escape(delim) + b"]") if delim else None
        rows = []
        for s in np.asarray(input, dtype=object):
            s = _as_bytes(s)
            if not s:
                tokens = []
            elif pattern is None:
                tokens = [s[i:i + 1] for i in builtins.range(len(s))]
            else:
                tokens = pattern.split(s)
            rows.append([t for t in tokens if t or not skip_empty])
        return _tokens_to_sparse(rows, (len(rows),))


class StringSplitV2(OpDef):
    """Each string split as Python's bytes.split(sep or None, maxsplit) does. (TF's op takes
    a vector; the sandbox's kernel takes any rank >= 1, giving indices of rank + 1, which is
    what tf.strings.split's RaggedTensor.to_sparse() gives TF for higher ranks.)"""
    multi_output = True
    differentiable = False

    def shape(op):
        _rank_error(op, 0, op.inputs[1])
        rank = op.inputs[0].get_shape().ndims
        return [TensorShape([None, None if rank is None else rank + 1]), TensorShape([None]),
                TensorShape([None if rank is None else rank + 1])]

    def kernel(input, sep, maxsplit=-1):  # noqa: A002 -- TF's name
        separator = _as_bytes(np.asarray(sep, dtype=object).item()) or None
        strings = np.asarray(input, dtype=object)
        rows = [_as_bytes(s).split(separator, maxsplit) for s in strings.reshape(-1)]
        return _tokens_to_sparse(rows, strings.shape)


def _sparse_split(op_type, x, sep, attrs, scope):
    indices, values, shape = apply_op(op_type, [x, sep], attrs, name=scope,
                                      output_dtypes=[_dtypes.int64, _dtypes.string,
                                                     _dtypes.int64])
    return SparseTensor(indices, values, shape)


def _as_ragged(tokens, outer_shape=None):
    """A vector's split as TF's RaggedTensor result: row i holds the tokens of string i
    (TF's RaggedTensor.from_value_rowids of the sparse result). `outer_shape`, for an input
    of more dimensions that was flattened first, nests the rows back into those dimensions."""
    from . import array_ops, reduction_ops
    from .ragged.ragged_tensor import RaggedTensor
    rows = RaggedTensor.from_value_rowids(tokens.values, tokens.indices[:, 0],
                                          nrows=tokens.dense_shape[0], validate=False)
    if outer_shape is not None:
        for k in reversed(range(1, outer_shape.get_shape().as_list()[0])):
            rows_here = reduction_ops.reduce_prod(outer_shape[:k + 1])
            splits = array_ops.range(0, rows_here + 1, outer_shape[k])
            rows = RaggedTensor.from_row_splits(rows, splits, validate=False)
    return rows


def string_split(source, sep=None, skip_empty=True, delimiter=None,
                 result_type="SparseTensor", name=None):
    """The strings of the vector `source` split at any byte of `sep` (default " "; `delimiter`
    is its old name), as a SparseTensor [len(source), most tokens]: row i holds the tokens of
    source[i] in order. Empty `sep` splits into single bytes; skip_empty drops empty tokens.

        tf.string_split(["a b", "", "c"]) -> indices [[0, 0], [0, 1], [2, 0]],
                                             values [b'a', b'b', b'c'], dense_shape [3, 2]
    """
    delim = _deprecated_lookup("sep", sep, "delimiter", delimiter)
    if delim is None:
        delim = " "
    if result_type not in ("RaggedTensor", "SparseTensor"):
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    with name_scope(name, "StringSplit", [source]):
        with name_scope(None, "StringSplit", [source, delim]) as scope:
            d = _strings(delim, "delimiter")
            x = _strings(source, "source")
            tokens = _sparse_split("StringSplit", x, d, {"skip_empty": bool(skip_empty)}, scope)
    return _as_ragged(tokens) if result_type == "RaggedTensor" else tokens


def strings_split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor",  # noqa: A002
                  source=None, name=None):
    """tf.strings.split (TF-1): each string split as Python's bytes.split(sep, maxsplit) --
    at runs of whitespace when `sep` is None or empty, else at each `sep`, empty tokens kept
    -- as a SparseTensor [*input.shape, most tokens] (a scalar counts as a vector of one)."""
    x = _deprecated_lookup("input", input, "source", source)
    if result_type not in ("RaggedTensor", "SparseTensor"):
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    from . import array_ops
    with name_scope(name, "StringSplit", [x]) as scope:
        x = _strings(x, "input")
        if x.get_shape().ndims == 0:
            x = array_ops.expand_dims(x, 0)
        s = _strings("" if sep is None else sep, "sep")
        if result_type == "SparseTensor":
            return _sparse_split("StringSplitV2", x, s, {"maxsplit": int(maxsplit)}, scope)
        outer = None
        if x.get_shape().ndims != 1:           # split the strings as one vector, then nest
            if x.get_shape().ndims is None:
                raise ValueError("tf.strings.split with result_type='RaggedTensor' needs the "
                                 "rank of its input known: give the placeholder a shape.")
            outer, x = array_ops.shape(x, out_type=_dtypes.int64), array_ops.reshape(x, [-1])
        tokens = _sparse_split("StringSplitV2", x, s, {"maxsplit": int(maxsplit)}, scope)
    return _as_ragged(tokens, outer)


# -- reduce_join -------------------------------------------------------------------------------

def _reduction_dims(axes, ndims, error, duplicates_ok=False):
    """The axes made non-negative, checked as TF's ReduceJoin kernel checks them (its shape
    function lets duplicates pass)."""
    out = []
    for a in np.asarray(axes).reshape(-1).tolist():
        d = a + ndims if a < 0 else a
        if not 0 <= d < ndims:
            raise error(a)
        if d in out:
            if duplicates_ok:
                continue
            raise errors.InvalidArgumentError(None, None, f"Duplicate reduction dimension {d}")
        out.append(d)
    return out


def _joined_shape(shape, dims, keep_dims):
    return [1 if i in dims else n for i, n in enumerate(shape)
            if keep_dims or i not in dims]


class ReduceJoin(OpDef):
    """The strings joined with `separator` across reduction_indices; the first listed axis
    varies fastest ([0, 1] of [["a", "b"], ["c", "d"]] is "acbd", [1, 0] is "abcd")."""
    differentiable = False

    def shape(op):
        x, axes = op.inputs
        _rank_error(op, 1, axes, at_most=True)
        value = constant_value(axes)
        ndims = x.get_shape().ndims
        if value is None or ndims is None:
            return unknown_shape()

        def invalid(a):
            return ValueError(f"Invalid reduction dimension {a} for input with {ndims} "
                              f"dimensions. for '{{{{node {op.name}}}}} = ReduceJoin' with "
                              f"input shapes: {x.get_shape()}, {axes.get_shape()}.")
        dims = _reduction_dims(value, ndims, invalid, duplicates_ok=True)
        return TensorShape(_joined_shape(x.get_shape().as_list(), dims,
                                         op.get_attr("keep_dims")))

    def kernel(inputs, reduction_indices, keep_dims=False, separator=""):
        x = np.asarray(inputs, dtype=object)

        def invalid(a):
            return errors.OutOfRangeError(None, None, f"Invalid reduction dimension {a} for "
                                          f"input with {x.ndim} dimension(s)")
        dims = _reduction_dims(reduction_indices, x.ndim, invalid)
        kept = [i for i in builtins.range(x.ndim) if i not in dims]
        moved = np.transpose(x, kept + dims[::-1]) if x.ndim else x
        joined = int(np.prod([x.shape[i] for i in dims], dtype=np.int64))
        rows = moved.reshape([x.shape[i] for i in kept] + [joined])
        sep = _as_bytes(separator)
        out = np.empty(rows.shape[:-1], dtype=object)
        for index in np.ndindex(out.shape):
            out[index] = sep.join(_as_bytes(s) for s in rows[index])
        return out.reshape(_joined_shape(x.shape, dims, keep_dims))


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
    """The strings of `inputs` joined with `separator` across `axis` (all axes, last first,
    when None): reduce_join([["a", "b"], ["c", "d"]], 1) -> [b'ab', b'cd']. With several
    axes the first listed varies fastest; keepdims keeps the joined axes with length 1."""
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = False if keepdims is None else bool(keepdims)
    with name_scope(None, "ReduceJoin", [inputs, axis]):
        x = convert_to_tensor(inputs)
        if x.dtype.base_dtype != _dtypes.string:
            raise TypeError(f"Input 'inputs' of 'ReduceJoin' Op has type "
                            f"{x.dtype.base_dtype.name} that does not match expected type of "
                            "string.")
        if axis is None:
            ndims = x.get_shape().ndims
            if ndims is not None:
                axis = convert_to_tensor(np.arange(ndims - 1, -1, -1, dtype=np.int32))
            else:
                from . import array_ops
                axis = array_ops.range(array_ops.rank(x) - 1, -1, -1)
        axes = convert_to_tensor(axis, dtype=_dtypes.int32, name="reduction_indices")
        return apply_op("ReduceJoin", [x, axes], {"keep_dims": keepdims,
                                                  "separator": separator},
                        name=name or "ReduceJoin", output_dtypes=[_dtypes.string])
