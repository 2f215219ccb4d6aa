"""The Unicode ops -- mirrors TensorFlow's UnicodeDecode, UnicodeDecodeWithOffsets and
UnicodeEncode (core/kernels/unicode_ops.cc, which uses ICU): strings <-> code points.

    UnicodeDecodeWithOffsets(["héllo", ""], input_encoding="UTF-8")
        row_splits [0, 5, 5], char_values [104, 233, 108, 108, 111],
        char_to_byte_starts [0, 1, 3, 4, 5]          (the byte where each character starts)
    UnicodeEncode(input_values=[104, 233], input_splits=[0, 2], output_encoding="UTF-8")
        [b'h\\xc3\\xa9']

The functions that use them (tf.strings.unicode_decode ...) are ragged_string_ops.py.

Decoding goes through Python's codecs, which read the encodings ICU reads under the same
names (UTF-8, UTF-16-BE, UTF-32-BE, ISO-8859-1, US-ASCII, windows-1252 ...; an unknown
one fails the step as TF's "Could not create converter"), and which, as ICU, replace each
maximal ill-formed byte sequence by one character. errors="replace" puts replacement_char
there, "ignore" drops it, "strict" fails the step; replace_control_characters treats the C0
controls (U+0000..U+001F) as such errors (but never fails). Encoding writes UTF-8, UTF-16-BE
or UTF-32-BE; a code point that is not a Unicode scalar value or is a noncharacter is an
error (ignore keeps what ICU keeps of it: a BMP unit, nothing for an out-of-range value).
"""
import codecs
import threading

import numpy as np

from ...framework import dtypes
from ...framework import errors
from ...framework.op_def import OpDef
from ...framework.tensor_shape import TensorShape

__all__ = []

ERRORS = ("strict", "replace", "ignore")
OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")

# Python's decoders report each ill-formed sequence to an error handler; this one records
# where it was (per thread: kernels of several steps may run at once) and goes on.
_spans = threading.local()


def _record_span(exc):
    _spans.found.append((exc.start, exc.end))
    return ("\ufffd", exc.end)


codecs.register_error("sandbox_unicode_spans", _record_span)


def _codec(encoding):
    try:
        info = codecs.lookup(encoding)
        "".encode(info.name)
        b"".decode(info.name)
    except (LookupError, TypeError):
        raise errors.InvalidArgumentError(
            None, None, f"Could not create converter for input encoding: {encoding}") from None
    return info.name


def _char_length(char, codec):
    """The bytes one decoded character took (a BOM-less codec for UTF-16/32)."""
    if codec in ("utf-16", "utf-16-be", "utf-16-le"):
        return 2 if ord(char) < 0x10000 else 4
    if codec in ("utf-32", "utf-32-be", "utf-32-le"):
        return 4
    return len(char.encode(codec, "surrogatepass"))


def _bom_length(data, codec):
    if codec == "utf-16" and data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        return 2
    if codec == "utf-32" and data[:4] in (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE):
        return 4
    return 0


def decode_string(data, codec, error_mode, replacement_char, replace_control_characters):
    """[(code point, byte offset)] of one string, errors handled as the op's attrs say."""
    _spans.found = []
    text = data.decode(codec, "sandbox_unicode_spans")
    spans, _spans.found = _spans.found, []
    out, span = [], 0
    position = _bom_length(data, codec)         # (ICU gives the BOM to the first character)
    for i, char in enumerate(text):
        start = position if i else 0
        if span < len(spans) and position == spans[span][0]:
            if error_mode == "strict":
                raise errors.InvalidArgumentError(None, None,
                                                  "Invalid formatting on input string")
            position = spans[span][1]
            span += 1
            if error_mode == "replace":
                out.append((replacement_char, start))
            continue
        position += _char_length(char, codec)
        code = ord(char)
        if replace_control_characters and code <= 0x1F:
            if error_mode == "ignore":
                continue
            code = replacement_char
        out.append((code, start))
    return out


def _check_replacement(replacement_char):
    if not 0 <= replacement_char <= 0x10FFFF:
        raise errors.InvalidArgumentError(None, None, "replacement_char out of unicode "
                                          f"codepoint range: {replacement_char}")


def _decode_all(input, input_encoding, errors, replacement_char,  # noqa: A002 -- TF's names
                replace_control_characters, Tsplits):                # noqa: N803
    _check_replacement(replacement_char)
    codec = _codec(input_encoding)
    splits, values, offsets = [0], [], []
    for s in np.asarray(input, dtype=object).reshape(-1):
        s = s if isinstance(s, bytes) else str(s).encode()
        for code, offset in decode_string(s, codec, errors, replacement_char,
                                          replace_control_characters):
            values.append(code)
            offsets.append(offset)
        splits.append(len(values))
    return (np.array(splits, dtype=Tsplits.as_numpy_dtype), np.array(values, dtype=np.int32),
            np.array(offsets, dtype=np.int64))


def _decode_shapes(op, n_outputs):
    n = op.inputs[0].get_shape().num_elements() \
        if op.inputs[0].get_shape().is_fully_defined() else None
    return [TensorShape([None if n is None else n + 1])] + [TensorShape([None])] * \
        (n_outputs - 1)


class UnicodeDecodeWithOffsets(OpDef):
    """row_splits, char_values (int32 code points) and char_to_byte_starts (int64) of the
    strings of `input`, flattened."""
    multi_output = True
    differentiable = False

    def shape(op):
        return _decode_shapes(op, 3)

    def kernel(input, input_encoding="", errors="replace",  # noqa: A002 -- TF's names
               replacement_char=65533, replace_control_characters=False,
               Tsplits=dtypes.int64):  # noqa: N803
        return _decode_all(input, input_encoding, errors, replacement_char,
                           replace_control_characters, Tsplits)


class UnicodeDecode(OpDef):
    """row_splits and char_values (int32 code points) of the strings of `input`."""
    multi_output = True
    differentiable = False

    def shape(op):
        return _decode_shapes(op, 2)

    def kernel(input, input_encoding="", errors="replace",  # noqa: A002 -- TF's names
               replacement_char=65533, replace_control_characters=False,
               Tsplits=dtypes.int64):  # noqa: N803
        return _decode_all(input, input_encoding, errors, replacement_char,
                           replace_control_characters, Tsplits)[:2]


def _valid_codepoint(cp):
    if cp < 0 or 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
        return False
    return not (0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE)


def _units(code_points):
    """The UTF-16 code units ICU's UnicodeString gets from appendCodePoint."""
    units = []
    for cp in code_points:
        if 0 <= cp <= 0xFFFF:
            units.append(cp)
        elif 0xFFFF < cp <= 0x10FFFF:
            cp -= 0x10000
            units += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
    return units


def _code_points(units):
    """The code points of UTF-16 units (an unpaired surrogate stays one)."""
    out, i = [], 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            out.append(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00))
            i += 2
        else:
            out.append(u)
            i += 1
    return out


def encode_string(code_points, output_encoding, error_mode, replacement_char):
    """One string of `code_points`, as TF's UnicodeEncode kernel writes it."""
    kept = []
    for cp in code_points:
        if not _valid_codepoint(cp):
            if error_mode == "strict":
                raise errors.InvalidArgumentError(
                    None, None, "Code point is out of range for Unicode, or a noncharacter.")
            if error_mode == "replace":
                cp = replacement_char
        kept.append(cp)
    units = _units(kept)
    if output_encoding == "UTF-16-BE":
        return b"".join(u.to_bytes(2, "big") for u in units)
    points = _code_points(units)
    if output_encoding == "UTF-32-BE":
        return b"".join(p.to_bytes(4, "big") for p in points)
    return "".join("\ufffd" if 0xD800 <= p <= 0xDFFF else chr(p) for p in points).encode()


class UnicodeEncode(OpDef):
    """The strings of the code points input_values cut into rows by input_splits."""
    differentiable = False

    def shape(op):
        n = op.inputs[1].get_shape()[0].value if op.inputs[1].get_shape().ndims else None
        return TensorShape([None if n is None else n - 1])

    def kernel(input_values, input_splits, errors="replace",  # noqa: A002 -- TF's names
               output_encoding="UTF-8", replacement_char=65533, Tsplits=None):  # noqa: N803
        _check_replacement(replacement_char)
        values = np.asarray(input_values).tolist()
        splits = np.asarray(input_splits).tolist()
        out = np.empty(max(len(splits) - 1, 0), dtype=object)
        for i in range(len(out)):
            out[i] = encode_string(values[splits[i]:splits[i + 1]], output_encoding, errors,
                                   replacement_char)
        return out
