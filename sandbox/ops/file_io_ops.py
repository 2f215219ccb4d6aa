"""Files as ops -- mirrors TensorFlow 1.x's ReadFile, WriteFile and MatchingFiles
(python/ops/io_ops.py, core/kernels/whole_file_read_ops.cc, matching_files_op.cc) and
DecodeRaw (python/ops/parsing_ops.py, core/kernels/decode_raw_op.cc).

These read and write files when the *graph runs*, in the task the op is placed on -- not when
the Python line builds it, as tf.gfile does:

    contents = tf.io.read_file("data/train-labels-idx1-ubyte")     # a scalar string
    labels = tf.io.decode_raw(tf.strings.substr(...), tf.uint8)    # its bytes as numbers

On a cluster the path is read on that task's machine (here, the same disk). Reached as
tf.io.read_file, tf.io.write_file, tf.io.matching_files, tf.io.decode_raw (and the TF-1 names
tf.read_file, tf.write_file, tf.matching_files, tf.decode_raw).
"""
import glob as _glob
import os

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = []   # reached as tf.io.* (sandbox/api/io.py)


def _text(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else str(value)


def _os_error(e, path):
    cls = errors.NotFoundError if isinstance(e, FileNotFoundError) else \
        errors.PermissionDeniedError if isinstance(e, PermissionError) else \
        errors.FailedPreconditionError if isinstance(e, IsADirectoryError) else \
        errors.UnknownError
    return cls(None, None, f"{path}; {e.strerror or e}")


class ReadFile(OpDef):
    """The whole contents of the file `filename`, as a scalar string."""
    stateful = True              # the file may change between two runs
    differentiable = False

    def shape(op):
        return TensorShape([])

    def kernel(filename):
        path = _text(filename)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise _os_error(e, path) from None
        out = np.empty((), dtype=object)
        out[()] = data
        return out


class WriteFile(OpDef):
    """Writes the scalar string `contents` to the file `filename` (replacing it; the missing
    directories are created, as TF does)."""
    stateful = True
    differentiable = False

    def kernel(filename, contents):
        path = _text(filename)
        data = contents.item() if isinstance(contents, np.ndarray) else contents
        if isinstance(data, str):
            data = data.encode()
        try:
            directory = os.path.dirname(path)
            if directory:
                os.makedirs(directory, exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        except OSError as e:
            raise _os_error(e, path) from None


class MatchingFiles(OpDef):
    """The sorted file names that match the glob pattern(s), as a 1-D string tensor."""
    stateful = True
    differentiable = False

    def shape(op):
        return TensorShape([None])

    def kernel(pattern):
        found = []
        for p in np.asarray(pattern, dtype=object).reshape(-1):
            found.extend(_glob.glob(_text(p)))
        out = np.empty(len(found), dtype=object)
        out[:] = [f.encode() for f in sorted(found)]
        return out


class DecodeRaw(OpDef):
    """Each string of `bytes` reinterpreted as a vector of out_type numbers (all the strings
    must have the same length): shape bytes.shape + [len / itemsize]."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape().concatenate([None])

    def kernel(bytes, out_type, little_endian=True):  # noqa: A002 -- TF's name
        dtype = np.dtype(_dtypes.as_dtype(out_type).as_numpy_dtype)
        dtype = dtype.newbyteorder("<" if little_endian else ">")
        strings = np.asarray(bytes, dtype=object)
        flat = strings.reshape(-1)
        size = len(flat[0]) if flat.size else 0
        for i, s in enumerate(flat):
            if len(s) != size:
                raise errors.InvalidArgumentError(
                    None, None, f"DecodeRaw requires input strings to all be the same size, "
                    f"but element {i} has size {len(s)} != {size}")
        if size % dtype.itemsize:
            raise errors.InvalidArgumentError(
                None, None, f"Input to DecodeRaw has length {size} that is not a multiple of "
                f"{dtype.itemsize}, the size of {_dtypes.as_dtype(out_type).name}")
        rows = [np.frombuffer(s, dtype=dtype) for s in flat]
        n = size // dtype.itemsize
        out = np.stack(rows) if rows else np.zeros((0, n), dtype)
        return out.astype(dtype.newbyteorder("=")).reshape(strings.shape + (n,))


def read_file(filename, name=None):
    """The contents of file `filename`, read when the op runs (a scalar string)."""
    filename = convert_to_tensor(filename, dtype=_dtypes.string, name="filename")
    return apply_op("ReadFile", [filename], name=name or "ReadFile",
                    output_dtypes=[_dtypes.string])


def write_file(filename, contents, name=None):
    """Writes the string `contents` to `filename` when the op runs. Returns the op."""
    filename = convert_to_tensor(filename, dtype=_dtypes.string, name="filename")
    contents = convert_to_tensor(contents, dtype=_dtypes.string, name="contents")
    return apply_op("WriteFile", [filename, contents], name=name or "WriteFile",
                    output_dtypes=[])


def matching_files(pattern, name=None):
    """The files matching `pattern` (a glob, or a list of them), found when the op runs."""
    pattern = convert_to_tensor(pattern, dtype=_dtypes.string, name="pattern")
    return apply_op("MatchingFiles", [pattern], name=name or "MatchingFiles",
                    output_dtypes=[_dtypes.string])


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None,
               bytes=None):  # noqa: A002 -- TF 1.x's deprecated name
    """Reinterprets the bytes of each string as numbers of `out_type` (e.g. tf.uint8)."""
    if bytes is not None:
        if input_bytes is not None:
            raise ValueError("Cannot specify both 'input_bytes' and 'bytes'")
        input_bytes = bytes
    if input_bytes is None or out_type is None:
        raise TypeError("decode_raw() needs input_bytes and out_type")
    x = convert_to_tensor(input_bytes, dtype=_dtypes.string, name="bytes")
    out_type = _dtypes.as_dtype(out_type).base_dtype
    return apply_op("DecodeRaw", [x], {"out_type": out_type, "little_endian": little_endian},
                    name=name or "DecodeRaw", output_dtypes=[out_type])
