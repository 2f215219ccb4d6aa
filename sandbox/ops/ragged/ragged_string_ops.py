"""The tf.strings functions that return RaggedTensors -- mirrors TensorFlow 1.x's
python/ops/ragged/ragged_string_ops.py (bytes_split, unicode_decode, unicode_split,
unicode_encode ...) and the op StringNGrams (core/kernels/string_ngrams_op.cc).

    tf.strings.bytes_split(["hello", ""])      [[b'h', b'e', b'l', b'l', b'o'], []]
    tf.strings.unicode_decode(["héllo"], "UTF-8")       [[104, 233, 108, 108, 111]]
    tf.strings.unicode_split(["héllo"], "UTF-8")        [[b'h', b'\\xc3\\xa9', b'l', b'l', b'o']]
    tf.strings.unicode_decode_with_offsets(["hé!"], "UTF-8")
        ([[104, 233, 33]], [[0, 1, 3]])                     (the byte each character starts at)
    tf.strings.unicode_encode(tf.ragged.constant([[104, 233], []]), "UTF-8")  [b'h\\xc3\\xa9', b'']
    tf.strings.ngrams(["a", "b", "c"], 2)                [b'a b', b'b c']
    tf.strings.ngrams(tf.ragged.constant([["a", "b"], ["c"]]), 2, pad_values="#")
        [[b'# a', b'a b', b'b #'], [b'# c', b'c #']]

Each works on a string Tensor of any rank (one more ragged dimension: the characters, bytes or
n-grams of each string; a scalar gives a plain vector) or on a RaggedTensor of strings.
unicode_encode is the inverse: the innermost (ragged or dense) dimension of code points
becomes strings. The ops (UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode in
unicode_ops.py; StringSplit for bytes; StringNGrams here) run on any task.
"""
import numpy as np

from ...framework import dtypes
from ...framework import errors
from ...framework.graph import name_scope
from ...framework.op_def import OpDef, apply_op
from ...framework.tensor import Tensor
from ...framework.tensor_shape import TensorShape
from ..array_ops import expand_dims, reshape, shape as _shape, stack
from ..constant_op import constant
from ..slicing_ops import concat
from .ragged_tensor import RaggedTensor, convert_to_tensor_or_ragged_tensor
from .unicode_ops import ERRORS, OUTPUT_ENCODINGS

__all__ = ["string_bytes_split", "unicode_decode", "unicode_decode_with_offsets",
           "unicode_split", "unicode_split_with_offsets", "unicode_encode", "ngrams"]


def _strings(value, name):
    value = convert_to_tensor_or_ragged_tensor(value, name=name)
    if value.dtype.base_dtype != dtypes.string:
        raise TypeError(f"Value passed to parameter '{name}' has DataType "
                        f"{value.dtype.base_dtype.name} not in list of allowed values: string")
    return value


def _check_attr(op_type, attr, value, allowed):
    if value not in allowed:
        listed = ", ".join(f'"{a}"' for a in allowed)
        raise ValueError(f"Attr '{attr}' of '{op_type}' Op passed string '{value}' not in: "
                         f"{listed}.")


# -- bytes_split --------------------------------------------------------------------------

def string_bytes_split(input, name=None):  # noqa: A002 -- TF's name
    """Each string split into its bytes: one more (ragged) dimension; a scalar gives a
    vector."""
    with name_scope(name, "StringsByteSplit", [input]):
        input = _strings(input, "input")  # noqa: A001
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(string_bytes_split(input.flat_values))
        rank = input.get_shape().ndims
        if rank is None:
            raise ValueError("input must have a statically-known rank.")
        if rank == 0:
            return string_bytes_split(stack([input]))[0]
        if rank == 1:
            indices, values, shape = apply_op(
                "StringSplit", [input, constant("", dtypes.string)], {"skip_empty": False},
                name="StringSplit", output_dtypes=[dtypes.int64, dtypes.string, dtypes.int64])
            result = RaggedTensor.from_value_rowids(values=values, value_rowids=indices[:, 0],
                                                    nrows=shape[0], validate=False)
            rows = input.get_shape()[0].value
            if rows is not None:
                result.row_splits.set_shape([rows + 1])
            return result
        return string_bytes_split(RaggedTensor.from_tensor(input))


# -- unicode_decode / unicode_split ---------------------------------------------------------

def _unicode_decode(input, input_encoding, errors, replacement_char,  # noqa: A002
                    replace_control_characters, with_offsets):
    """TF's _unicode_decode: the strings flattened, decoded by one op, the rows rebuilt."""
    op_type = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    _check_attr(op_type, "errors", errors, ERRORS)
    input = _strings(input, "input")  # noqa: A001
    ndims = input.shape.ndims
    if ndims is None:
        raise ValueError("Rank of `input` must be statically known.")
    if ndims > 1:
        if not isinstance(input, RaggedTensor):
            input = RaggedTensor.from_tensor(input, ragged_rank=ndims - 1)  # noqa: A001
        elif input.ragged_rank < ndims - 1:
            input = input.with_flat_values(RaggedTensor.from_tensor(  # noqa: A001
                input.flat_values, ragged_rank=ndims - input.ragged_rank - 1))
    flat = input.flat_values if isinstance(input, RaggedTensor) else input
    flat = reshape(flat, [-1])
    outputs = apply_op(op_type, [flat], {
        "input_encoding": input_encoding, "errors": errors,
        "replacement_char": int(replacement_char),
        "replace_control_characters": bool(replace_control_characters),
        "Tsplits": dtypes.int64}, name=op_type,
        output_dtypes=[dtypes.int64, dtypes.int32] + ([dtypes.int64] if with_offsets else []))
    row_splits, char_values = outputs[0], outputs[1]
    if ndims == 0:
        return (char_values, outputs[2]) if with_offsets else char_values

    def rows(values):
        result = RaggedTensor.from_row_splits(values, row_splits, validate=False)
        return input.with_flat_values(result) if ndims > 1 else result
    if with_offsets:
        return rows(char_values), rows(outputs[2])
    return rows(char_values)


def unicode_decode(input, input_encoding, errors="replace",  # noqa: A002 -- TF's names
                   replacement_char=65533, replace_control_characters=False, name=None):
    """The int32 code points of each string (one more ragged dimension)."""
    with name_scope(name, "UnicodeDecode", [input]):
        return _unicode_decode(input, input_encoding, errors, replacement_char,
                               replace_control_characters, with_offsets=False)


def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """(code points, int64 byte offsets where each character starts), shaped alike."""
    with name_scope(name, "UnicodeDecodeWithOffsets", [input]):
        return _unicode_decode(input, input_encoding, errors, replacement_char,
                               replace_control_characters, with_offsets=True)


def _expand_last(values):
    if isinstance(values, RaggedTensor):
        return values.with_flat_values(expand_dims(values.flat_values, -1))
    return expand_dims(values, -1)


def unicode_split(input, input_encoding, errors="replace",  # noqa: A002 -- TF's names
                  replacement_char=65533, name=None):
    """Each string split into its characters (each a string in `input_encoding`)."""
    with name_scope(name, "UnicodeSplit", [input]):
        codepoints = _unicode_decode(input, input_encoding, errors, replacement_char, False,
                                     with_offsets=False)
        return unicode_encode(_expand_last(codepoints), output_encoding=input_encoding,
                              errors=errors, replacement_char=replacement_char)


def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """(the characters of each string, the byte offsets where they start)."""
    with name_scope(name, "UnicodeSplitWithOffsets", [input]):
        codepoints, offsets = _unicode_decode(input, input_encoding, errors,
                                              replacement_char, False, with_offsets=True)
        chars = unicode_encode(_expand_last(codepoints), output_encoding=input_encoding,
                               errors=errors, replacement_char=replacement_char)
        return chars, offsets


# -- unicode_encode ----------------------------------------------------------------------

def unicode_encode(input, output_encoding, errors="replace",  # noqa: A002 -- TF's names
                   replacement_char=65533, name=None):
    """The int32 code points of the innermost dimension (ragged or not) of `input` as one
    string each, in output_encoding (UTF-8, UTF-16-BE or UTF-32-BE): rank one less."""
    _check_attr("UnicodeEncode", "output_encoding", output_encoding, OUTPUT_ENCODINGS)
    _check_attr("UnicodeEncode", "errors", errors, ERRORS)
    with name_scope(name, "UnicodeEncode", [input]):
        input_tensor = convert_to_tensor_or_ragged_tensor(input)
        ndims = input_tensor.shape.ndims
        if ndims is None:
            raise ValueError("Rank of input_tensor must be statically known.")

        def again(t):
            return unicode_encode(t, output_encoding, errors, replacement_char)
        if isinstance(input_tensor, RaggedTensor):
            if input_tensor.flat_values.shape.ndims > 1:
                return input_tensor.with_flat_values(again(input_tensor.flat_values))
            if input_tensor.ragged_rank > 1:
                return input_tensor.with_values(again(input_tensor.values))
            values = input_tensor.values
            if values.dtype.base_dtype != dtypes.int32:
                raise TypeError(f"Input 'input_values' of 'UnicodeEncode' Op has type "
                                f"{values.dtype.base_dtype.name} that does not match expected "
                                "type of int32.")
            splits = input_tensor.row_splits
            return apply_op("UnicodeEncode", [values, splits], {
                "errors": errors, "output_encoding": output_encoding,
                "replacement_char": int(replacement_char),
                "Tsplits": splits.dtype.base_dtype}, name="UnicodeEncode",
                output_dtypes=[dtypes.string])
        if ndims == 2:
            return again(RaggedTensor.from_tensor(input_tensor))
        if ndims > 2:
            flat = reshape(input_tensor, stack([-1, _shape(input_tensor)[-1]]))
            outer = input_tensor.shape[:-1]
            return reshape(again(flat), outer.as_list() if outer.is_fully_defined() else
                           _shape(input_tensor)[:-1])
        if ndims == 0:
            raise ValueError("input_tensor's rank must be at least 1.")
        rt = RaggedTensor.from_row_splits(
            input_tensor, stack([0, _shape(input_tensor, out_type=dtypes.int32)[0]]),
            validate=False)
        return reshape(again(rt), [])


# -- ngrams -----------------------------------------------------------------------------------

def _ngram(data, start, count, width, pad_width, separator, left_pad, right_pad):
    """TF's CreateNgrams for one row: `count` n-grams of `width` from data[start:]."""
    out = []
    for index in range(count):
        left = max(0, pad_width - index)
        right = max(0, pad_width - (count - (index + 1)))
        num_tokens = width - (left + right)
        first = 0 if left > 0 else index - pad_width
        parts = [left_pad] * left + [data[start + first + n] for n in range(num_tokens)]
        parts += [right_pad] * right
        out.append(separator.join(parts))
    return out


class StringNGrams(OpDef):
    """ngrams, ngrams_splits: the n-grams of each row of (data, data_splits), for each width of
    ngram_widths in turn, padded with left_pad / right_pad (pad_width of them; -1: width - 1)."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [TensorShape([None]), op.inputs[1].get_shape()]

    def kernel(data, data_splits, separator="", ngram_widths=(), left_pad="", right_pad="",
               pad_width=0, preserve_short_sequences=False, Tsplits=None):  # noqa: N803
        def as_bytes(s):
            return s if isinstance(s, bytes) else str(s).encode()
        sep, lpad, rpad = as_bytes(separator), as_bytes(left_pad), as_bytes(right_pad)
        data = [as_bytes(s) for s in np.asarray(data, dtype=object).reshape(-1)]
        splits = np.asarray(data_splits).tolist()
        if splits and (splits[0] != 0 or splits[-1] != len(data) or
                       any(b < a for a, b in zip(splits, splits[1:]))):
            raise errors.InvalidArgumentError(
                None, None, f"Invalid split values: {splits} for {len(data)} data values")

        def pad_for(width):
            return min(width - 1 if pad_width < 0 else pad_width, width - 1)

        def count_for(length, width):
            return max(0, length + 2 * pad_for(width) - width + 1)
        out, out_splits = [], [0]
        for start, stop in zip(splits, splits[1:]):
            length = stop - start
            row = []
            for width in ngram_widths:
                row += _ngram(data, start, count_for(length, width), width, pad_for(width),
                              sep, lpad, rpad)
            if preserve_short_sequences and not row and length > 0:
                width = length + 2 * pad_width
                row = _ngram(data, start, 1, width, min(max(pad_width, 0), width - 1), sep,
                             lpad, rpad)
            out += row
            out_splits.append(len(out))
        values = np.empty(len(out), dtype=object)
        values[:] = out
        return values, np.array(out_splits, dtype=Tsplits.as_numpy_dtype)


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of the innermost dimension of the strings `data` (a Tensor gives a
    Tensor, a RaggedTensor a RaggedTensor): ngram_width an int or a list of them;
    pad_values a string or a (left, right) pair padding each row by padding_width (default
    width - 1); preserve_short_sequences makes one n-gram of a row too short for any."""
    with name_scope(name, "StringNGrams", [data]):
        if pad_values is None:
            left_pad = right_pad = ""
        elif isinstance(pad_values, (list, tuple)):
            if len(pad_values) != 2 or not all(isinstance(p, (str, bytes))
                                               for p in pad_values):
                raise TypeError("pad_values must be a string, tuple or list containing "
                                "strings.")
            left_pad, right_pad = pad_values
        else:
            if not isinstance(pad_values, (str, bytes)):
                raise TypeError("pad_values must be a string, tuple or list containing "
                                "strings.")
            left_pad = right_pad = pad_values
        if padding_width is not None and padding_width < 1:
            raise ValueError("padding_width must be greater than 0.")
        if padding_width is not None and pad_values is None:
            raise ValueError("pad_values must be provided if padding_width is set.")
        data = _strings(data, "data")
        dense_shape = None
        if isinstance(data, Tensor):
            rank = data.get_shape().ndims
            if rank is None:
                raise ValueError("Rank of data must be known.")
            if rank == 0:
                raise ValueError("Data must have rank>0")
            if rank == 1:
                rt = RaggedTensor.from_row_starts(data, [0], validate=False)
                return ngrams(rt, ngram_width, separator, pad_values, padding_width,
                              preserve_short_sequences)[0]
            dense_shape = concat([_shape(data)[:-1], constant([-1], dtypes.int32)], axis=0)
            data = RaggedTensor.from_tensor(data, ragged_rank=rank - 1)
        if data.ragged_rank > 1:
            output = data.with_values(ngrams(data.values, ngram_width, separator, pad_values,
                                             padding_width, preserve_short_sequences))
            return output if dense_shape is None else reshape(output.flat_values, dense_shape)
        if pad_values is None:
            padding_width = 0
        elif padding_width is None:
            padding_width = -1
        widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
        for width in widths:
            if width < 1:
                raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
        values, splits = apply_op("StringNGrams", [data.flat_values, data.row_splits], {
            "separator": separator, "ngram_widths": [int(w) for w in widths],
            "left_pad": left_pad, "right_pad": right_pad, "pad_width": int(padding_width),
            "preserve_short_sequences": bool(preserve_short_sequences),
            "Tsplits": data.row_splits.dtype.base_dtype}, name="StringNGrams",
            output_dtypes=[dtypes.string, data.row_splits.dtype.base_dtype])
        output = RaggedTensor.from_row_splits(values, splits, validate=False)
        return output if dense_shape is None else reshape(output.flat_values, dense_shape)
