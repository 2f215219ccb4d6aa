"""The wire format -- how the sandbox's tasks send each other messages: a message (a tree of
Python values) <-> a JSON header and raw buffers, as DATA (no pickle). It is to the sandbox
what protocol buffers are to TensorFlow's gRPC runtime (distributed_runtime/tensor_coding.cc,
rpc/grpc_tensor_coding.cc). The frames that carry a header and its buffers on a socket are in
runtime/transport.py.

TensorFlow's distributed runtime sends protocol buffers over gRPC. The sandbox sends its own,
much smaller format over plain sockets (runtime/transport.py), modelled on CPython's
Lib/multiprocessing/connection.py -- but WITHOUT pickle: nothing received is ever unpickled,
eval'd or imported. The receiver only parses JSON and reinterprets raw bytes as numbers of an
allowed dtype, so the worst a peer can send is a wrong *value*, never code to run.

A message is a tree of plain values -- what JSON can say (dicts with str keys, lists, str, int,
float, bool, None) -- plus the few types a TF runtime needs:

    Python value                     in the JSON header
    -------------------------------  ------------------------------------------------------
    np.ndarray (numbers or bools)    {"__nd__": i, "dtype": "<f4", "shape": [2, 3]}
    NumPy scalar (np.float32(1.5))   {"__scalar__": i, "dtype": "<f4"}
    bytes                            {"__bytes__": i}
    string tensor: object array of   {"__strs__": i, "shape": [2], "lengths": [1, 2]}
      bytes, np.array([b"a", b"bc"], dtype=object)
    tuple                            {"__tuple__": [...]}     (so a tuple comes back a tuple)
    tf.DType (tf.float32_ref)        {"__dtype__": "float32_ref"}
    tf.TensorShape                   {"__shape__": [null, 784]}  (null: unknown dim or rank)
    dict with a non-str key, or a    {"__items__": [[key, value], ...]}
      key that looks like a marker

`i` is the index of a raw *buffer* that travels after the header. The header is the message as
UTF-8 JSON. orjson writes and reads it when it is installed (several times faster than Python's
json module; up to 64 KiB, the usual size -- bigger ones go to Python's json). A header orjson
cannot write -- NaN, Infinity, integers beyond 64 bits -- is written by Python's json with a
leading space (still JSON), which tells the receiver to read it with Python's json too (orjson
would read a big integer as a float).

encode() copies no array: its buffers are memoryviews of the message's own arrays (only a
non-contiguous array is made contiguous first). The arrays decode() returns are views of the
buffers YOU pass, so they are READ-ONLY when those are (e.g. bytes) -- copy one (arr.copy())
before writing to it.

A header is checked against its buffers before anything is built from them: valid JSON, every
descriptor's dtype (allowlist: bool, ints, floats, complex, fixed bytes/str -- never object,
void or structured) and shape, and that each descriptor's dtype.itemsize * prod(shape) equals
its buffer's length exactly, every buffer used once. Any violation raises FrameError.

Limits (fields of `Limits`; the defaults are the module constants) count whole frames:
    max_header_bytes  MAX_HEADER_BYTES = 16 MiB   the JSON header
    max_buffers       MAX_BUFFERS      = 65536    buffers in one frame
    max_frame_bytes   MAX_FRAME_BYTES  = 4 GiB    the whole frame (tensors of hundreds of MB pass)
    max_depth         MAX_DEPTH        = 100      nesting of lists, tuples and dicts
"""
import dataclasses
import functools
import json
import math
import re

import numpy as np
try:
    import orjson
except ImportError:                                   # optional: Python's json does it all
    orjson = None

from ..framework import dtypes as _dtypes
from ..framework import tensor_shape as _tensor_shape

__all__ = ["FrameError", "Limits", "DEFAULT_LIMITS", "MAX_HEADER_BYTES", "MAX_BUFFERS",
           "MAX_FRAME_BYTES", "MAX_DEPTH", "PREFIX_BYTES", "encode", "decode"]

MAX_HEADER_BYTES = 16 * 2**20
MAX_BUFFERS = 65536
MAX_FRAME_BYTES = 4 * 2**30
MAX_DEPTH = 100
PREFIX_BYTES = 16                         # a frame's prefix (transport.py); the limits count it
_MAX_NDIM = 64                            # NumPy's own limit (32 before NumPy 2)

# The dtypes a frame may carry, as NumPy spells them in dtype.str: "<f4", "|b1", ">i8", "<U3".
_DTYPE_RE = re.compile(r"[<>|=]?(b1|[iu][1248]|f[248]|c8|c16|[SU][1-9][0-9]{0,8})")


class FrameError(ValueError):
    """A frame breaks the wire format or its limits (or a message is too big to send).

    After a FrameError from recv_message() the stream is out of step: close the connection."""


@dataclasses.dataclass(frozen=True)
class Limits:
    """How big a frame may be; see the module docstring."""
    max_header_bytes: int = MAX_HEADER_BYTES
    max_buffers: int = MAX_BUFFERS
    max_frame_bytes: int = MAX_FRAME_BYTES
    max_depth: int = MAX_DEPTH


DEFAULT_LIMITS = Limits()


# -- encoding: Python value -> (JSON header, buffers) ----------------------------------------
class _Encoder:
    """Walks a message, replacing arrays, bytes, ... by descriptors and collecting buffers."""

    def __init__(self, max_depth):
        self.max_depth = max_depth
        self.buffers = []
        self.finite = True            # no NaN or Infinity met (orjson would write null)

    def add_buffer(self, data):
        self.buffers.append(memoryview(data).cast("B"))
        return len(self.buffers) - 1

    def walk(self, x, depth=0):
        if depth > self.max_depth:
            raise ValueError(f"message is nested deeper than {self.max_depth} levels "
                             "(or contains itself)")
        kind = type(x)
        if kind in _PLAIN:                            # the common case first: no conversion
            return x
        if kind is dict and _MARKER_SET.isdisjoint(x) and _STR.issuperset(map(type, x)):
            return {k: v if type(v) in _PLAIN else self.walk(v, depth + 1)
                    for k, v in x.items()}
        if kind is np.ndarray:
            return self.strings(x) if x.dtype.kind == "O" else self.array(x)
        if kind is list:
            out = []
            for v in x:
                if type(v) in _PLAIN:
                    out.append(v)
                elif type(v) is list and len(v) == 2 and type(v[0]) is str and \
                        type(v[1]) is np.ndarray and v[1].dtype.kind != "O" and \
                        depth + 2 <= self.max_depth:
                    out.append([v[0], self.array(v[1])])    # a [name, array] pair: most
                else:                                       # of a step's messages
                    out.append(self.walk(v, depth + 1))
            return out
        if isinstance(x, np.generic):                 # before float: np.float64 is a float
            return self.scalar(x)
        if isinstance(x, float) and not math.isfinite(x):
            self.finite = False
        if x is None or isinstance(x, (bool, int, float, str)):
            return x
        if isinstance(x, np.ndarray):
            return self.strings(x) if x.dtype.kind == "O" else self.array(x)
        if isinstance(x, (bytes, bytearray)):
            return {"__bytes__": self.add_buffer(x)}
        if isinstance(x, list):
            return [self.walk(item, depth + 1) for item in x]
        if isinstance(x, tuple):
            return {"__tuple__": [self.walk(item, depth + 1) for item in x]}
        if isinstance(x, dict):
            if all(isinstance(k, str) for k in x) and not _MARKERS.keys() & x.keys():
                return {k: self.walk(v, depth + 1) for k, v in x.items()}
            return {"__items__": [[self.walk(k, depth + 1), self.walk(v, depth + 1)]
                                  for k, v in x.items()]}
        if isinstance(x, _dtypes.DType):
            return {"__dtype__": x.name}
        if isinstance(x, _tensor_shape.TensorShape):
            return {"__shape__": None if x.dims is None else [d.value for d in x.dims]}
        raise TypeError(f"Cannot send a value of type {type(x).__name__}: a message may hold "
                        "only dicts, lists, tuples, str, int, float, bool, None, bytes, NumPy "
                        "arrays and scalars, tf.DType and tf.TensorShape.")

    def array(self, a):
        dtype = _SENDABLE.get(a.dtype)
        if dtype is None:
            dtype = _check_dtype_to_send(a.dtype)
        try:
            view = memoryview(a).cast("B")            # the fast way, for most arrays
        except (TypeError, ValueError):               # not C-contiguous, 0-d, empty, or a
            if not a.flags.c_contiguous:              # format memoryview lacks
                a = np.ascontiguousarray(a)           # copies only a non-contiguous array
            view = memoryview(a.reshape(-1).view(np.uint8))
        self.buffers.append(view)
        return {"__nd__": len(self.buffers) - 1, "dtype": dtype, "shape": list(a.shape)}

    def scalar(self, x):
        a = np.asarray(x)
        _check_dtype_to_send(a.dtype)
        return {"__scalar__": self.add_buffer(a.reshape(-1).view(np.uint8)),
                "dtype": _check_dtype_to_send(a.dtype)}

    def strings(self, a):
        items = a.ravel().tolist()
        for item in items:
            if not isinstance(item, bytes):
                raise TypeError(f"Cannot send an object array holding {type(item).__name__}: "
                                "only arrays of bytes (TF string tensors) can be sent.")
        return {"__strs__": self.add_buffer(b"".join(items)), "shape": list(a.shape),
                "lengths": [len(item) for item in items]}


_to_json = json.JSONEncoder(separators=(",", ":")).encode


def _dumps(tree, finite):
    """The header's bytes: by orjson if it can say everything in `tree`, else by json,
    after a space that tells _parse_header so."""
    if orjson is not None and finite:
        try:
            return orjson.dumps(tree)
        except orjson.JSONEncodeError:                # e.g. an int beyond 64 bits
            pass
    return b" " + _to_json(tree).encode("ascii")


def _check_dtype_to_send(dtype):
    """dtype.str if arrays of `dtype` may travel (else TypeError); remembered."""
    text = _SENDABLE.get(dtype)
    if text is None:
        _check_dtype_text(dtype)
        text = _SENDABLE[dtype] = dtype.str
    return text


# bfloat16 (ml_dtypes, as TF's) has no dtype.str of its own ("<V2"): it travels as its name
_BFLOAT16 = np.dtype(_dtypes.bfloat16.as_numpy_dtype)
_SENDABLE = {_BFLOAT16: "bfloat16"}     # dtype -> its text, for the dtypes checked and allowed


_STR = frozenset((str,))                  # (a dict's keys are all str: checked in C)


def _check_dtype_text(dtype):
    if not _DTYPE_RE.fullmatch(dtype.str):
        raise TypeError(f"Cannot send an array of dtype {dtype}: only bool, integer, float "
                        "(bfloat16 too), complex and fixed-width bytes/str arrays travel on the "
                        "wire.")


def encode(obj, limits=DEFAULT_LIMITS):
    """Returns (header_bytes, [buffers]): the JSON header and the raw buffers (memoryviews of
    the message's own arrays, no copies). Raises TypeError for a value that cannot be sent and
    FrameError if the message breaks `limits`."""
    encoder = _Encoder(limits.max_depth)
    tree = encoder.walk(obj)
    header = _dumps(tree, encoder.finite)
    _check_sizes(len(header), len(encoder.buffers), sum(b.nbytes for b in encoder.buffers),
                 limits, "to send")
    return header, encoder.buffers


def _check_sizes(header_len, n_buffers, buffer_bytes, limits, what="received"):
    """Raises FrameError if a frame of these sizes breaks `limits`; returns its total size."""
    if header_len > limits.max_header_bytes:
        raise FrameError(f"frame {what} has a header of {header_len} bytes, more than "
                         f"max_header_bytes={limits.max_header_bytes}")
    if n_buffers > limits.max_buffers:
        raise FrameError(f"frame {what} has {n_buffers} buffers, more than "
                         f"max_buffers={limits.max_buffers}")
    total = PREFIX_BYTES + 8 * n_buffers + header_len + buffer_bytes
    if total > limits.max_frame_bytes:
        raise FrameError(f"frame {what} is {total} bytes, more than "
                         f"max_frame_bytes={limits.max_frame_bytes}")
    return total


# -- decoding: (JSON header, buffers) -> Python value ----------------------------------------
class _NeedsTwoPasses(Exception):
    """A frame holds bytes, string tensors or NumPy scalars: their values are built from
    bytes that have not arrived yet, so it is decoded in two passes."""


class _Decoder:
    """Walks a parsed header and rebuilds the message from the buffers.

    Without buffers (buffers=None) it only CHECKS the header against the buffer lengths --
    recv_message does that before it allocates anything -- and returns a meaningless tree.
    With `into` (a list, one entry per buffer) it checks and builds in ONE pass, before the
    buffers arrive: each array is allocated empty where it is met, and `into[i]` is the
    memory buffer i must be received into (the array's own bytes). Frames that hold anything
    but arrays raise _NeedsTwoPasses."""

    def __init__(self, lengths, buffers, max_depth, into=None):
        self.lengths = lengths
        self.buffers = buffers
        self.max_depth = max_depth
        self.used = [False] * len(lengths)
        self.into = into
        self.checking = buffers is None and into is None   # the first of two passes

    def run(self, tree):
        value = self.walk(tree, 0)
        if not all(self.used):
            raise FrameError(f"buffer {self.used.index(False)} is not used by the header")
        return value

    def walk(self, node, depth):
        if depth > self.max_depth:
            raise FrameError(f"message is nested deeper than {self.max_depth} levels")
        kind = type(node)
        checking = self.checking                      # the first pass builds nothing
        if kind is list:                              # leaves are kept as they are
            if checking:
                for x in node:
                    if type(x) in _NESTED:
                        self.walk(x, depth + 1)
                return None
            out = []
            for x in node:
                if type(x) is list and depth + 1 < self.max_depth:
                    # A list in a list -- e.g. the [name, array] pairs that make up most of
                    # a step's messages: its arrays are decoded here, without a walk each.
                    out.append([self.decode_nd(v, depth + 2) if type(v) is dict and len(v) == 3
                                and v.keys() == _ND_KEYS else
                                self.walk(v, depth + 2) if type(v) in _NESTED else v
                                for v in x])
                elif type(x) in _NESTED:
                    out.append(self.walk(x, depth + 1))
                else:
                    out.append(x)
            return out
        if kind is not dict:
            return node                               # str, int, float, bool or None
        if _MARKER_SET.isdisjoint(node):
            if checking:
                for v in node.values():
                    if type(v) in _NESTED:
                        self.walk(v, depth + 1)
                return None
            return {k: self.walk(v, depth + 1) if type(v) in _NESTED else v
                    for k, v in node.items()}
        if len(node) == 3 and node.keys() == _ND_KEYS:
            return self.decode_nd(node, depth)        # the common descriptor, checked fast
        markers = [k for k in node if k in _MARKERS]
        if len(markers) > 1:
            raise FrameError(f"descriptor has several markers: {sorted(markers)}")
        marker = markers[0]
        keys = _MARKERS[marker]
        if node.keys() != keys:
            raise FrameError(f"{marker} descriptor must have exactly the keys {sorted(keys)}, "
                             f"not {sorted(node)}")
        return _DECODERS[marker](self, node, depth)

    def take_buffer(self, index, nbytes=None):
        """Buffer `index`, after checking it exists, is unused and has `nbytes` bytes (if given)."""
        if type(index) is not int or not 0 <= index < len(self.lengths):
            raise FrameError(f"descriptor names buffer {index!r}, but the frame has "
                             f"{len(self.lengths)} buffers")
        if self.used[index]:
            raise FrameError(f"buffer {index} is used twice")
        self.used[index] = True
        if nbytes is not None and self.lengths[index] != nbytes:
            raise FrameError(f"buffer {index} has {self.lengths[index]} bytes but its "
                             f"descriptor needs {nbytes}")
        return None if self.buffers is None else self.buffers[index]

    # one method per marker: "__nd__" -> decode_nd
    def decode_nd(self, node, depth):
        dtype, shape = _parse_dtype(node["dtype"]), _parse_shape(node["shape"])
        index = node["__nd__"]
        buf = self.take_buffer(index, math.prod(shape) * dtype.itemsize)
        try:
            if self.into is not None:                 # one pass: its bytes will land in it
                array = np.empty(shape, dtype=dtype)
                try:
                    self.into[index] = memoryview(array).cast("B")
                except (TypeError, ValueError):       # a format memoryview lacks
                    self.into[index] = array.reshape(-1).view(np.uint8)
                return array
            if buf is None:
                return None
            return np.frombuffer(buf, dtype=dtype).reshape(shape)
        except ValueError as e:                       # e.g. too many dimensions for NumPy
            raise FrameError(f"cannot build an array of shape {shape}: {e}") from None

    def decode_scalar(self, node, depth):
        if self.into is not None:
            raise _NeedsTwoPasses
        dtype = _parse_dtype(node["dtype"])
        buf = self.take_buffer(node["__scalar__"], dtype.itemsize)
        return None if buf is None else np.frombuffer(buf, dtype=dtype)[0]

    def decode_bytes(self, node, depth):
        if self.into is not None:
            raise _NeedsTwoPasses
        buf = self.take_buffer(node["__bytes__"])
        return None if buf is None else bytes(buf)

    def decode_strs(self, node, depth):
        if self.into is not None:
            raise _NeedsTwoPasses
        shape, lengths = _parse_shape(node["shape"]), node["lengths"]
        if not isinstance(lengths, list) or len(lengths) != math.prod(shape) or \
                not all(type(n) is int and n >= 0 for n in lengths):
            raise FrameError(f"string tensor of shape {shape} needs {math.prod(shape)} "
                             "non-negative lengths")
        buf = self.take_buffer(node["__strs__"], sum(lengths))
        if buf is None:
            return None
        data, out, start = bytes(buf), np.empty(len(lengths), dtype=object), 0
        for i, n in enumerate(lengths):
            out[i] = data[start:start + n]
            start += n
        return out.reshape(shape)

    def decode_tuple(self, node, depth):
        items = node["__tuple__"]
        if not isinstance(items, list):
            raise FrameError("__tuple__ must hold a list")
        return tuple(self.walk(item, depth + 1) for item in items)

    def decode_items(self, node, depth):
        pairs = node["__items__"]
        if not isinstance(pairs, list) or \
                not all(isinstance(p, list) and len(p) == 2 for p in pairs):
            raise FrameError("__items__ must hold a list of [key, value] pairs")
        out = {}
        for key, value in pairs:
            key, value = self.walk(key, depth + 1), self.walk(value, depth + 1)
            try:
                out[key] = value
            except TypeError:
                raise FrameError(f"dict key of type {type(key).__name__} is not hashable") \
                    from None
        return out

    def decode_dtype(self, node, depth):
        name = node["__dtype__"]
        try:
            dtype = _dtypes.as_dtype(name) if isinstance(name, str) else None
        except TypeError:
            dtype = None
        if dtype is None or dtype.name != name:
            raise FrameError(f"unknown tf.DType {name!r}")
        return dtype

    def decode_shape(self, node, depth):
        dims = node["__shape__"]
        if dims is not None and not (
                isinstance(dims, list) and len(dims) <= _MAX_NDIM and
                all(d is None or (type(d) is int and d >= 0) for d in dims)):
            raise FrameError(f"bad TensorShape {dims!r}")
        return _tensor_shape.TensorShape(dims)


# marker -> the exact keys of its descriptor
_MARKERS = {
    "__nd__": {"__nd__", "dtype", "shape"},
    "__scalar__": {"__scalar__", "dtype"},
    "__bytes__": {"__bytes__"},
    "__strs__": {"__strs__", "shape", "lengths"},
    "__tuple__": {"__tuple__"},
    "__items__": {"__items__"},
    "__dtype__": {"__dtype__"},
    "__shape__": {"__shape__"},
}


_MARKER_SET = frozenset(_MARKERS)
_ND_KEYS = _MARKERS["__nd__"]
_NESTED = frozenset((dict, list))
_PLAIN = frozenset((str, int, bool, type(None)))     # (floats are checked: NaN, Infinity)
_DECODERS = {marker: getattr(_Decoder, "decode_" + marker.strip("_")) for marker in _MARKERS}


def _parse_dtype(text):
    dtype = _PARSED_DTYPES.get(text) if type(text) is str else None
    if dtype is None:
        if not isinstance(text, str):
            raise FrameError(f"dtype {text!r} is not allowed on the wire")
        dtype = _PARSED_DTYPES[text] = _parse_dtype_text(text)
    return dtype


_PARSED_DTYPES = {"bfloat16": _BFLOAT16}


@functools.lru_cache(maxsize=256)
def _parse_dtype_text(text):
    if not _DTYPE_RE.fullmatch(text):
        raise FrameError(f"dtype {text!r} is not allowed on the wire")
    return np.dtype(text)


def _parse_shape(shape):
    if type(shape) is list and len(shape) <= _MAX_NDIM and _INT.issuperset(map(type, shape)) \
            and (not shape or (min(shape) >= 0 and max(shape) < 2**62)):
        return shape                         # (the type test, in C: no bool, no float)
    raise FrameError(f"bad array shape {shape!r}")


_INT = frozenset((int,))


_ORJSON_MAX_BYTES = 65536


def _parse_header(header):
    # orjson for the usual small header (it builds a document tree of up to 16 bytes per
    # byte of JSON before the values: bounded, it cannot amplify a malformed frame much)
    if orjson is not None and len(header) <= _ORJSON_MAX_BYTES and header[:1] != b" ":
        try:
            return orjson.loads(header)
        except orjson.JSONDecodeError as e:
            raise FrameError(f"header is not valid JSON: {e}") from None
    try:
        return json.loads(bytes(header).decode("utf-8"))
    except (ValueError, RecursionError) as e:         # UnicodeDecodeError is a ValueError
        raise FrameError(f"header is not valid JSON: {e}") from None


def decode(header, buffers, limits=DEFAULT_LIMITS):
    """The message encoded as (header, buffers); buffers are bytes-like. Arrays are views of
    the buffers (read-only if the buffers are). Raises FrameError for anything malformed."""
    buffers = [memoryview(b).cast("B") for b in buffers]
    lengths = [b.nbytes for b in buffers]
    _check_sizes(len(header), len(lengths), sum(lengths), limits)
    return _Decoder(lengths, buffers, limits.max_depth).run(_parse_header(header))
