"""Base64 and compression of string tensors -- mirrors TensorFlow's
core/kernels/base64_ops.cc (tf.encode_base64, tf.decode_base64) and decode_compressed_op.cc
(tf.decode_compressed), python/ops/string_ops.py and parsing_ops.py.

    tf.encode_base64([b"hello?>"])               # [b'aGVsbG8_Pg']: web-safe, no padding
    tf.decode_base64(b"aGVsbG8_Pg==")            # b'hello?>' (padding optional)
    tf.decode_compressed(zlib_bytes, "ZLIB")     # "ZLIB" (zlib header), "GZIP" or "" (as is)

TF's base64 is the web-safe alphabet (- and _ for + and /); encode pads with '=' only with
pad=True; decode accepts either and fails with InvalidArgumentError on another character or on
a length of 1 modulo 4. Element-wise, same shape; no gradient.

tf.decode_json_example turns the protobuf JSON of a tf.train.Example into its binary bytes,
as TF's DecodeJSONExample (protobuf's JsonToBinaryString) writes them: the fields in the order
of the JSON -- map entries too, not sorted -- and repeated numbers unpacked, one tag each (so the
bytes can differ from Example.SerializeToString, which packs and sorts; both parse the same).
Field names may be camelCase or snake_case; int64s numbers or strings; bytes base64.
"""
import base64
import json
import math
import re
import struct
import zlib

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..platform.example_proto import encode_field as _field
from ..platform.example_proto import encode_varint as _varint

__all__ = ["encode_base64", "decode_base64", "decode_compressed", "decode_json_example"]

_WEB_SAFE = re.compile(rb"[A-Za-z0-9_-]*")


def _as_bytes(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


def _map(fn, strings):
    arr = np.asarray(strings, dtype=object)
    return np.array([fn(_as_bytes(s)) for s in arr.reshape(-1)] + [None],
                    dtype=object)[:-1].reshape(arr.shape)


def _b64decode(s):
    """TF's Base64Decode: whole groups of 4 first (each character web-safe), then the last
    1..4 characters without their '=' padding (1 left is a length error)."""
    def invalid(chars):
        if not _WEB_SAFE.fullmatch(chars):
            raise errors.InvalidArgumentError(None, None, "Invalid character found in base64.")
    cut = max(0, (len(s) - 1) // 4 * 4)
    invalid(s[:cut])
    tail = s[cut:].rstrip(b"=")
    if len(tail) == 1:
        raise errors.InvalidArgumentError(None, None,
                                          "Base64 string length cannot be 1 modulo 4.")
    invalid(tail)
    data = s[:cut] + tail
    return base64.urlsafe_b64decode(data + b"=" * (-len(data) % 4))


class EncodeBase64(OpDef):
    """Each string in web-safe base64 ('=' padding only with pad=True)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input, pad=False):  # noqa: A002 -- TF's name
        def encode(s):
            out = base64.urlsafe_b64encode(s)
            return out if pad else out.rstrip(b"=")
        return _map(encode, input)


class DecodeBase64(OpDef):
    """Each web-safe base64 string decoded (padded or not)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input):  # noqa: A002 -- TF's name
        return _map(_b64decode, input)


def _inflate(wbits):
    def run(s):
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(s) + d.flush()
        except zlib.error as e:
            m = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(e))
            code, text = (m.group(1), m.group(2)) if m else ("-3", str(e))
            raise errors.DataLossError(None, None,
                                       f"inflate() failed with error {code}: {text}") from None
        if not d.eof:
            raise errors.DataLossError(None, None, "inflate() failed with error -5: "
                                       "unexpected end of data (truncated input)")
        return out
    return run


class DecodeCompressed(OpDef):
    """Each string decompressed: compression_type "" (as is), "ZLIB" or "GZIP"."""
    shape = unchanged_shape
    differentiable = False

    def kernel(bytes, compression_type=""):  # noqa: A002 -- TF's name
        if compression_type == "":
            return np.asarray(bytes, dtype=object)
        wbits = {"ZLIB": 15, "GZIP": 31}.get(compression_type)
        if wbits is None:
            raise errors.InvalidArgumentError(
                None, None, "Only ZLIB, GZIP or NONE are supported compressions")
        return _map(_inflate(wbits), bytes)


def _strings(value, arg, op_type):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise TypeError(f"Expected string passed to parameter '{arg}' of op '{op_type}', got "
                        f"{value!r} of type '{type(value).__name__}' instead. Error: Expected "
                        f"string, but got {value!r} of type '{type(value).__name__}'.")
    t = convert_to_tensor(value, name=arg)
    if t.dtype.base_dtype != _dtypes.string:
        raise TypeError(f"Input '{arg}' of '{op_type}' Op has type {t.dtype.base_dtype.name} "
                        "that does not match expected type of string.")
    return t


def encode_base64(input, pad=False, name=None):  # noqa: A002 -- TF's name
    """Each string of `input` in web-safe base64 (tf.io.encode_base64)."""
    with name_scope(name, "EncodeBase64", [input]) as scope:
        x = _strings(input, "input", "EncodeBase64")
        return apply_op("EncodeBase64", [x], {"pad": bool(pad)}, name=scope,
                        output_dtypes=[_dtypes.string])


def decode_base64(input, name=None):  # noqa: A002 -- TF's name
    """Each web-safe base64 string of `input` decoded (tf.io.decode_base64)."""
    with name_scope(name, "DecodeBase64", [input]) as scope:
        x = _strings(input, "input", "DecodeBase64")
        return apply_op("DecodeBase64", [x], {}, name=scope, output_dtypes=[_dtypes.string])


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 -- TF's name
    """Each string of `bytes` decompressed (tf.io.decode_compressed): compression_type ""
    leaves it as is, "ZLIB" and "GZIP" inflate it; another type fails when it runs, as in TF."""
    with name_scope(name, "DecodeCompressed", [bytes]) as scope:
        x = _strings(bytes, "bytes", "DecodeCompressed")
        return apply_op("DecodeCompressed", [x], {"compression_type": str(compression_type)},
                        name=scope, output_dtypes=[_dtypes.string])


# -- tf.decode_json_example (core/kernels/example_parsing_ops.cc: DecodeJSONExample) ---------

class _JsonError(Exception):
    pass


def _fields(obj, names, where):
    """[(field name, value)] of a JSON object, in its order; names: {json name: proto name}."""
    if not isinstance(obj, dict):
        raise _JsonError(f"({where}): invalid value {json.dumps(obj)} for type TYPE_MESSAGE"
                         if where else "Unexpected token.")
    out = []
    for key, value in obj.items():
        if key not in names:
            raise _JsonError(f"{key}: Cannot find field.")
        out.append((names[key], value))
    return out


def _json_bytes(v, where):
    if isinstance(v, str):
        s = v.replace("-", "+").replace("_", "/").rstrip("=")
        try:
            raw = base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
            if base64.b64encode(raw).decode().rstrip("=") == s:
                return raw
        except ValueError:
            pass
    raise _JsonError(f"({where}): invalid value {json.dumps(v)} for type TYPE_BYTES")


def _json_float(v, where):
    special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    if isinstance(v, str) and v in special:
        return special[v]
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            pass
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    raise _JsonError(f"({where}): invalid value {json.dumps(v)} for type TYPE_FLOAT")


def _json_int64(v, where):
    if isinstance(v, str) and re.fullmatch(r"-?\d+", v):
        v = int(v)
    elif isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int) and not isinstance(v, bool) and -2 ** 63 <= v < 2 ** 63:
        return v
    raise _JsonError(f"({where}): invalid value {json.dumps(v)} for type TYPE_INT64")


_LISTS = {"bytesList": "bytes_list", "bytes_list": "bytes_list", "floatList": "float_list",
          "float_list": "float_list", "int64List": "int64_list", "int64_list": "int64_list"}


def _json_list(kind, obj, where):
    out = b""
    for _, values in _fields(obj, {"value": "value"}, where):
        if not isinstance(values, list):
            values = [values]
        for i, v in enumerate(values):
            at = f"{where}.value[{i}]"
            if kind == "bytes_list":
                out += _field(1, _json_bytes(v, at))
            elif kind == "float_list":
                out += b"\x0d" + struct.pack("<f", _json_float(v, at))
            else:
                out += b"\x08" + _varint(_json_int64(v, at))
    return out


def _json_feature(obj, where):
    out = b""
    for kind, value in _fields(obj, _LISTS, where):
        number = {"bytes_list": 1, "float_list": 2, "int64_list": 3}[kind]
        out += _field(number, _json_list(kind, value, f"{where}.{kind}"))
    return out


def json_example_to_bytes(text):
    """The binary tf.train.Example of its JSON `text` (bytes or str), as TF writes it."""
    try:
        obj = json.loads(text)
    except ValueError:
        raise _JsonError("Unexpected token.\n" + (text.decode("utf-8", "replace")
                                                  if isinstance(text, bytes) else text)
                         + "\n^") from None
    out = b""
    for _, features in _fields(obj, {"features": "features"}, ""):
        body = b""
        for _, feature_map in _fields(features, {"feature": "feature"}, "features"):
            if not isinstance(feature_map, dict):
                raise _JsonError("(features.feature): invalid value "
                                 f"{json.dumps(feature_map)} for type TYPE_MESSAGE")
            for i, (key, feature) in enumerate(feature_map.items()):
                entry = _field(1, key.encode("utf-8")) + _field(
                    2, _json_feature(feature, f"features.feature[{i}].value"))
                body += _field(1, entry)
        out += _field(1, body)
    return out


class DecodeJSONExample(OpDef):
    """Each JSON tf.train.Example as its binary serialized bytes."""
    type_name = "DecodeJSONExample"
    shape = unchanged_shape
    differentiable = False

    def kernel(json_examples):
        def one(text):
            try:
                return json_example_to_bytes(text)
            except _JsonError as e:
                raise errors.InvalidArgumentError(
                    None, None, f"Error while parsing JSON: {e}") from None
        return _map(one, json_examples)


def decode_json_example(json_examples, name=None):
    """Each string of `json_examples` -- a tf.train.Example in protobuf's JSON -- as its
    binary serialized bytes, for tf.parse_example (tf.io.decode_json_example)."""
    with name_scope(name, "DecodeJSONExample", [json_examples]) as scope:
        x = _strings(json_examples, "json_examples", "DecodeJSONExample")
        return apply_op("DecodeJSONExample", [x], {}, name=scope,
                        output_dtypes=[_dtypes.string])
