"""Tensors formatted into a string -- mirrors tf.strings.format of TensorFlow 1.x's
python/ops/string_ops.py and its kernel, core/kernels/string_format_op.cc, which writes each
tensor as tf.print does (Tensor::SummarizeValue with print_v2, core/framework/tensor.cc).

    tf.strings.format("x={} y={}", [3, [1.5, 2.0]])          ->  b'x=3 y=[1.5 2]'
    tf.strings.format("{}", tf.range(10))                     ->  b'[0 1 2 ... 7 8 9]'
    tf.strings.format("{}", tf.reshape(tf.range(6), [2, 3]))  ->  b'[[0 1 2]\\n [3 4 5]]'

The result is a scalar string: `template` with each `placeholder` replaced by the next input.
How a tensor is written, as TF's kernel does it:

  * Elements: integers in decimal, bools as 1 and 0, strings in double quotes with C escapes
    ("a\\nb", "\\001"; bytes from 0x80 kept as they are), floats in the shortest of %.6g and
    %.9g (%.15g and %.17g for float64) that reads back as the same number -- 0.333333343,
    1e-07, inf, -nan; a float32 denormal (below 2**-126) as 0, as TF's kernel, which runs
    with denormals flushed to zero. Complex numbers and qint32 are written '?', as TF does.
  * Nesting: a dimension in [...], entries of the last one apart by ' ', rows of a matrix by
    a newline and one more space per level of depth, blocks of a 3-d tensor by a blank line.
  * Summarizing: only the first and last `summarize` entries of each dimension, '...' between
    (summarize=-1: all of them). `summarize` counts at most the tensor's size, so a [2, 0]
    tensor is written '[\\n ...]', and summarize=0 writes '...' alone.

No gradient. tf.print (ops/logging_ops.py) writes its line with its own formatter.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import is_tensor_like

__all__ = ["string_format"]

_PRINTABLE = {c: chr(c) for c in range(0x20, 0x7F)}
_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def _quoted(s):
    """absl's Utf8SafeCEscape in double quotes: C escapes, octal for other control bytes,
    bytes from 0x80 as they are."""
    out = bytearray(b'"')
    for c in s:
        if c in _ESCAPES:
            out += _ESCAPES[c].encode()
        elif c in _PRINTABLE or c >= 0x80:
            out.append(c)
        else:
            out += b"\\%03o" % c
    return bytes(out + b'"')


def _shortest(v, digits, more_digits, as_type):
    """TF's FloatToBuffer / DoubleToBuffer: %.{digits}g unless that does not read back as v."""
    if np.isnan(v):
        return b"-nan" if np.signbit(v) else b"nan"
    text = b"%.*g" % (digits, v)
    return text if as_type(float(text)) == v else b"%.*g" % (more_digits, v)


def _element_writer(values):
    """fn(flat index) -> the bytes TF writes for that element of `values`, or None when TF
    writes all elements of that dtype as '?'."""
    if values.dtype.names:                                  # the quantized dtypes
        values = values[values.dtype.names[0]]
        if values.dtype == np.int32:                        # qint32: TF writes '?'
            return None
    flat = values.reshape(-1)
    kind = values.dtype.kind
    if kind == "O":
        return lambda i: _quoted(flat[i] if isinstance(flat[i], bytes)
                                 else str(flat[i]).encode("utf-8"))
    if kind == "b":
        return lambda i: b"1" if flat[i] else b"0"
    if kind in "iu":
        return lambda i: b"%d" % int(flat[i])
    if values.dtype == np.float64:
        return lambda i: _shortest(float(flat[i]), 15, 17, float)
    if kind == "f" or values.dtype.name == "bfloat16":      # float32, float16, bfloat16
        as_float32 = flat.astype(np.float32)
        # TF's kernels run with denormals flushed to zero: a float32 below 2**-126 prints 0
        tiny = np.abs(as_float32) < np.finfo(np.float32).tiny
        as_float32 = np.where(tiny, np.copysign(np.float32(0), as_float32), as_float32)
        return lambda i: _shortest(float(as_float32[i]), 6, 9, np.float32)
    return None                                             # complex: TF writes '?'


def _spacing(dim, ndims):
    """TF's PrintDimSpacing: ' ' inside the last dimension, else newlines and an indent."""
    if dim == ndims - 1:
        return b" "
    return b"\n" * (ndims - dim - 1) + b" " * (dim + 1)


def _write_dim(out, write, shape, ends, dim, offset):
    """TF's PrintOneDimV2: dimension `dim` from flat element `offset`, only its first and last
    `ends` entries when it has more than 2 * ends."""
    if dim == len(shape):
        out.append(write(offset))
        return
    out.append(b"[")
    count = shape[dim]
    stride = int(np.prod(shape[dim + 1:], dtype=np.int64))
    for i in range(min(ends, count)):
        if i > 0:
            out.append(_spacing(dim, len(shape)))
        _write_dim(out, write, shape, ends, dim + 1, offset + i * stride)
    if count > 2 * ends:
        out.append(_spacing(dim, len(shape)))
        out.append(b"...")
    for i in range(max(ends, count - ends), count):
        out.append(_spacing(dim, len(shape)))
        _write_dim(out, write, shape, ends, dim + 1, offset + i * stride)
    out.append(b"]")


def summarize_value(value, summarize=3):
    """The bytes TF's Tensor::SummarizeValue(summarize, print_v2=True) writes for `value`, an
    array as a Session returns it (tf.print's and tf.strings.format's text)."""
    value = np.asarray(value)
    size = value.size
    max_entries = size if summarize < 0 else summarize
    limit = min(max_entries, size)
    write = _element_writer(value)
    if write is None:                       # TF's "irregular" dtypes: '?' per element
        text = b" ".join([b"?"] * limit) + (b"..." if max_entries < size else b"")
        return b"[" + text + b"]" if value.ndim else text
    if value.ndim == 0:
        return b" ".join(write(i) for i in range(limit)) + (b"..." if size > limit else b"")
    out = []
    _write_dim(out, write, value.shape, limit, 0, 0)
    return b"".join(out)


class StringFormat(OpDef):
    """`template` with the inputs, summarized, in place of its placeholders."""
    shape = scalar_shape
    differentiable = False

    def kernel(*inputs, template="%s", placeholder="%s", summarize=3, T=None):
        # absl::StrSplit: an empty placeholder splits the template into its characters
        pieces = template.split(placeholder) if placeholder else (list(template) or [""])
        if len(pieces) - 1 != len(inputs):
            raise errors.InvalidArgumentError(
                None, None, "num placeholders in template and num inputs must match: "
                f"{len(pieces) - 1} vs. {len(inputs)}")
        out = [pieces[0].encode("utf-8")]
        for value, piece in zip(inputs, pieces[1:]):
            out += [summarize_value(value, summarize), piece.encode("utf-8")]
        return np.array(b"".join(out), dtype=object)


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """tf.strings.format: a scalar string, `template` with each `placeholder` replaced by the
    next of `inputs` (a tensor or a list of tensors and values), written as tf.print writes
    it -- at most the first and last `summarize` entries of each dimension (-1: all).

        tf.strings.format("loss: {}", loss)  ->  b'loss: 0.25'
    """
    if is_tensor_like(inputs):
        inputs = [inputs]
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but the "
                         f"inputs only has {len(inputs)}. Please ensure the number of "
                         "placeholders in template matches inputs length.")
    with name_scope(name, "StringFormat", list(inputs)) as scope:
        tensors = [convert_to_tensor(x) for x in inputs]
        return apply_op("StringFormat", tensors,
                        {"T": [t.dtype.base_dtype for t in tensors], "template": template,
                         "placeholder": placeholder, "summarize": int(summarize)},
                        name=scope, output_dtypes=[_dtypes.string])
